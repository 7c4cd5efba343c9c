//! The board of the connect family: cells, the *windows* (every run of k
//! cells in a row, column or diagonal) and, per window, how many stones of
//! each player it holds.
//!
//! Window counters make the two questions the searches ask all the time
//! cheap: "does this stone complete k?" (a window through the stone whose
//! count reaches k, at most 4k windows to touch) and "which windows can a
//! player complete with s more stones?" (a window without opponent stones
//! and at most s empty cells). The geometry (window cells, windows through
//! each cell) depends only on (m, n, k) and is shared between all copies of
//! a position behind an `Arc`.

use std::sync::Arc;

use crate::game::mix::zobrist_key;
use crate::game::Player;

/// Largest number of columns or rows (cells are `u16`, counts `u8`).
pub const MAX_SIDE: u8 = 64;

/// Index of a window in [`Geometry`].
pub type WindowId = u32;

/// Cell index `row * m + column`, row 0 at the top.
pub type Cell = u16;

/// The fixed shape of an m × n board with k in a row: its windows.
#[derive(Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Columns.
    pub m: u8,
    /// Rows.
    pub n: u8,
    /// Stones in a row that win.
    pub k: u8,
    /// Cells of window `w`: `window_cells[w * k .. (w + 1) * k]`.
    window_cells: Vec<Cell>,
    /// Windows through cell `c`: `cell_windows[cell_start[c] .. cell_start[c + 1]]`.
    cell_start: Vec<u32>,
    cell_windows: Vec<WindowId>,
}

/// The four line directions (dx, dy): row, column, diagonal, anti-diagonal.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Geometry {
    /// The windows of an `m` × `n` board for `k` in a row (none when k is
    /// longer than every line).
    pub fn new(m: u8, n: u8, k: u8) -> Geometry {
        let (mi, ni, ki) = (i32::from(m), i32::from(n), i32::from(k));
        let mut window_cells = Vec::new();
        let mut per_cell: Vec<Vec<WindowId>> = vec![Vec::new(); usize::from(m) * usize::from(n)];
        if k > 0 {
            for &(dx, dy) in &DIRECTIONS {
                for y in 0..ni {
                    for x in 0..mi {
                        let (ex, ey) = (x + dx * (ki - 1), y + dy * (ki - 1));
                        if ex < 0 || ex >= mi || ey < 0 || ey >= ni {
                            continue;
                        }
                        let w = (window_cells.len() / usize::from(k)) as WindowId;
                        for i in 0..ki {
                            let c = ((y + dy * i) * mi + x + dx * i) as usize;
                            window_cells.push(c as Cell);
                            per_cell[c].push(w);
                        }
                    }
                }
            }
        }
        let mut cell_start = Vec::with_capacity(per_cell.len() + 1);
        let mut cell_windows = Vec::new();
        for ws in &per_cell {
            cell_start.push(cell_windows.len() as u32);
            cell_windows.extend_from_slice(ws);
        }
        cell_start.push(cell_windows.len() as u32);
        Geometry {
            m,
            n,
            k,
            window_cells,
            cell_start,
            cell_windows,
        }
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        usize::from(self.m) * usize::from(self.n)
    }

    /// Number of windows.
    #[inline]
    pub fn windows(&self) -> usize {
        if self.k == 0 {
            0
        } else {
            self.window_cells.len() / usize::from(self.k)
        }
    }

    /// The k cells of window `w`, in line order.
    #[inline]
    pub fn window(&self, w: WindowId) -> &[Cell] {
        let k = usize::from(self.k);
        &self.window_cells[w as usize * k..(w as usize + 1) * k]
    }

    /// The windows through cell `c`.
    #[inline]
    pub fn windows_through(&self, c: Cell) -> &[WindowId] {
        let c = usize::from(c);
        &self.cell_windows[self.cell_start[c] as usize..self.cell_start[c + 1] as usize]
    }

    /// (column, row) of a cell.
    #[inline]
    pub fn xy(&self, c: Cell) -> (u8, u8) {
        let m = u16::from(self.m);
        ((c % m) as u8, (c / m) as u8)
    }
}

/// Zobrist key of a stone of `p` on cell `c`.
#[inline]
fn stone_key(c: Cell, p: Player) -> u64 {
    zobrist_key(0xC04E_C700_0000_0000 ^ (u64::from(c) << 1 | p.index() as u64))
}

/// Cell contents: no stone.
pub const EMPTY: u8 = 0;

/// The stones on a board with their window counters and Zobrist hash.
/// Placing and removing stones keeps everything up to date; who moves is
/// not this type's business (the game derives it from the stone count, the
/// threat solver keeps its own).
///
/// The threat questions only ever ask about windows with few empty cells,
/// so each player also has a bitset of its *hot* windows, those where it
/// has at least k − `hot_span` stones, kept up to date by `place` and
/// `remove`; [`Board::windows_within`] walks those bits instead of every
/// window when it can.
#[derive(Clone, Debug)]
pub struct Board {
    geo: Arc<Geometry>,
    /// `EMPTY`, 1 (first player) or 2 (second player) per cell.
    cells: Vec<u8>,
    /// Stones of the first and second player in each window.
    counts: Vec<[u8; 2]>,
    /// Per player, bit w set when the player has ≥ `hot_min` stones in w.
    hot: [Vec<u64>; 2],
    /// k − hot_span (at least 1).
    hot_min: u8,
    stones: u16,
    hash: u64,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.geo == other.geo && self.cells == other.cells
    }
}

impl Board {
    /// The empty board of `geo`, tracking windows with at most `hot_span`
    /// empty cells (see the type's comment) for fast threat scans.
    pub fn new(geo: Arc<Geometry>, hot_span: u8) -> Board {
        let words = geo.windows().div_ceil(64);
        Board {
            cells: vec![EMPTY; geo.cells()],
            counts: vec![[0, 0]; geo.windows()],
            hot: [vec![0; words], vec![0; words]],
            hot_min: geo.k.saturating_sub(hot_span).max(1),
            stones: 0,
            hash: 0,
            geo,
        }
    }

    /// The geometry.
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// Who holds cell `c`.
    #[inline]
    pub fn at(&self, c: Cell) -> Option<Player> {
        match self.cells[usize::from(c)] {
            1 => Some(Player::First),
            2 => Some(Player::Second),
            _ => None,
        }
    }

    /// Whether cell `c` is empty.
    #[inline]
    pub fn is_empty(&self, c: Cell) -> bool {
        self.cells[usize::from(c)] == EMPTY
    }

    /// Stones on the board.
    #[inline]
    pub fn stones(&self) -> u16 {
        self.stones
    }

    /// Whether every cell holds a stone.
    #[inline]
    pub fn is_full(&self) -> bool {
        usize::from(self.stones) == self.cells.len()
    }

    /// Zobrist hash of the stones (no side to move: the caller adds it).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of `p` in window `w`.
    #[inline]
    pub fn count(&self, w: WindowId, p: Player) -> u8 {
        self.counts[w as usize][p.index()]
    }

    /// Empty cells in window `w`.
    #[inline]
    pub fn empties(&self, w: WindowId) -> u8 {
        let c = self.counts[w as usize];
        self.geo.k - c[0] - c[1]
    }

    /// Whether `p` can still complete window `w` (no opponent stone in it).
    #[inline]
    pub fn live_for(&self, w: WindowId, p: Player) -> bool {
        self.counts[w as usize][p.other().index()] == 0
    }

    /// Places a stone of `p` on the empty cell `c`; true when it completes
    /// k in a row for `p`.
    pub fn place(&mut self, c: Cell, p: Player) -> bool {
        debug_assert!(self.is_empty(c));
        self.cells[usize::from(c)] = p.index() as u8 + 1;
        self.stones += 1;
        self.hash ^= stone_key(c, p);
        let k = self.geo.k;
        let hot_min = self.hot_min;
        let hot = &mut self.hot[p.index()];
        let mut won = false;
        for &w in self.geo.windows_through(c) {
            let n = &mut self.counts[w as usize][p.index()];
            *n += 1;
            won |= *n == k;
            if *n == hot_min {
                hot[w as usize / 64] |= 1 << (w % 64);
            }
        }
        won
    }

    /// Takes the stone off cell `c` (the inverse of [`Board::place`]).
    pub fn remove(&mut self, c: Cell) {
        let Some(p) = self.at(c) else {
            debug_assert!(false, "remove from an empty cell");
            return;
        };
        self.cells[usize::from(c)] = EMPTY;
        self.stones -= 1;
        self.hash ^= stone_key(c, p);
        let hot_min = self.hot_min;
        let hot = &mut self.hot[p.index()];
        for &w in self.geo.windows_through(c) {
            let n = &mut self.counts[w as usize][p.index()];
            if *n == hot_min {
                hot[w as usize / 64] &= !(1 << (w % 64));
            }
            *n -= 1;
        }
    }

    /// The empty cells of window `w`, appended to `out`.
    pub fn empty_cells_of(&self, w: WindowId, out: &mut Vec<Cell>) {
        out.extend(
            self.geo
                .window(w)
                .iter()
                .copied()
                .filter(|&c| self.is_empty(c)),
        );
    }

    /// Calls `f` on each window `p` can complete by placing at most
    /// `stones` more stones (no opponent stone, at most `stones` empty
    /// cells, not yet complete), in window order, until `f` returns false.
    fn each_window_within(&self, p: Player, stones: u8, mut f: impl FnMut(WindowId) -> bool) {
        let k = self.geo.k;
        let (me, them) = (p.index(), p.other().index());
        let qualifies = |c: [u8; 2]| c[them] == 0 && c[me] < k && k - c[me] <= stones;
        if k.saturating_sub(stones) >= self.hot_min {
            for (i, &word) in self.hot[me].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let w = (i * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    if qualifies(self.counts[w as usize]) && !f(w) {
                        return;
                    }
                }
            }
        } else {
            for (w, &c) in self.counts.iter().enumerate() {
                if qualifies(c) && !f(w as WindowId) {
                    return;
                }
            }
        }
    }

    /// The windows `p` can complete by placing at most `stones` more
    /// stones (no opponent stone, at most `stones` empty cells, not yet
    /// complete), in window order.
    pub fn windows_within(&self, p: Player, stones: u8, out: &mut Vec<WindowId>) {
        self.each_window_within(p, stones, |w| {
            out.push(w);
            true
        });
    }

    /// The first window (in window order) `p` can complete with at most
    /// `stones` more stones.
    pub fn first_window_within(&self, p: Player, stones: u8) -> Option<WindowId> {
        let mut found = None;
        self.each_window_within(p, stones, |w| {
            found = Some(w);
            false
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Windows of k in a row on an m × n board, counted by hand: rows
    /// n(m−k+1), columns m(n−k+1), each diagonal direction (m−k+1)(n−k+1).
    #[test]
    fn window_count_matches_the_formula() {
        for (m, n, k) in [
            (3u8, 3u8, 3u8),
            (19, 19, 6),
            (7, 5, 4),
            (4, 6, 5),
            (3, 3, 4),
        ] {
            let g = Geometry::new(m, n, k);
            let (m, n, k) = (m as i64, n as i64, k as i64);
            let f = |a: i64| (a - k + 1).max(0);
            let want = n * f(m) + m * f(n) + 2 * f(m) * f(n);
            assert_eq!(g.windows() as i64, want, "{m}x{n} k={k}");
        }
        // 19×19, k = 6: 266 + 266 + 2·196.
        assert_eq!(Geometry::new(19, 19, 6).windows(), 924);
    }

    #[test]
    fn place_and_remove_restore_counts_and_hash() {
        let geo = Arc::new(Geometry::new(5, 5, 3));
        let mut b = Board::new(geo, 1);
        let empty = b.clone();
        assert!(!b.place(0, Player::First));
        assert!(!b.place(6, Player::First));
        assert!(
            b.place(12, Player::First),
            "a1 b2 c3 is three on the diagonal"
        );
        b.remove(12);
        b.remove(6);
        b.remove(0);
        assert_eq!(b, empty);
        assert_eq!(b.hash(), 0);
        assert_eq!(b.counts, empty.counts);
        assert_eq!(b.hot, empty.hot);
    }

    /// The hot-window scan and the full scan list the same windows.
    #[test]
    fn hot_windows_match_a_full_scan() {
        let geo = Arc::new(Geometry::new(7, 6, 4));
        let mut b = Board::new(geo, 2);
        let mut x: u64 = 12345;
        for _ in 0..25 {
            x = crate::game::mix::splitmix64(x);
            let c = (x % 42) as Cell;
            if b.is_empty(c) {
                let p = if x & 64 == 0 {
                    Player::First
                } else {
                    Player::Second
                };
                b.place(c, p);
            }
            for p in [Player::First, Player::Second] {
                for stones in 0..=4u8 {
                    let mut fast = Vec::new();
                    b.windows_within(p, stones, &mut fast);
                    let slow: Vec<WindowId> = (0..b.geometry().windows() as WindowId)
                        .filter(|&w| {
                            b.live_for(w, p) && b.count(w, p) < 4 && b.empties(w) <= stones
                        })
                        .collect();
                    assert_eq!(fast, slow, "stones {stones}");
                    assert_eq!(b.first_window_within(p, stones), slow.first().copied());
                }
            }
        }
    }
}
