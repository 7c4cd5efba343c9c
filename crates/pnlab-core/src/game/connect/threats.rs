//! Threats (Wu & Huang 2005; thesis §3.3.1): player A has t threats when t
//! is the least number of stones the opponent B must place to keep A from
//! winning on A's next turn.
//!
//! A wins on its next turn (p stones) exactly when some window has no B
//! stone and at most p empty cells. B stops that by putting a stone into
//! every such window, so t is the size of a minimum *hitting set* of those
//! windows' empty cells. Each window has at most p empty cells, so the
//! exact minimum is found by branching on the cells of the first window
//! not yet hit: at most p^(cap+1) leaves for a cap on t (8 leaves for
//! Connect6 deciding between 0, 1, 2 and "3 or more").

use crate::game::Player;

use super::board::{Board, Cell, WindowId};

/// Largest threat count computed exactly; more is reported as this + 1.
pub const THREAT_CAP: u32 = 8;

/// The empty cells of a list of windows, one set per window, flat.
#[derive(Clone, Debug, Default)]
pub struct CellSets {
    cells: Vec<Cell>,
    /// Set i is `cells[ends[i-1]..ends[i]]` (`ends[-1]` = 0).
    ends: Vec<u32>,
}

impl CellSets {
    /// Empties the list.
    pub fn clear(&mut self) {
        self.cells.clear();
        self.ends.clear();
    }

    /// Adds the empty cells of window `w`.
    pub fn push_window(&mut self, board: &Board, w: WindowId) {
        board.empty_cells_of(w, &mut self.cells);
        self.ends.push(self.cells.len() as u32);
    }

    /// Number of sets.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no sets.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Set number `i`.
    pub fn set(&self, i: usize) -> &[Cell] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.cells[start..self.ends[i] as usize]
    }

    /// Every cell of every set, sorted, each once.
    pub fn union(&self) -> Vec<Cell> {
        let mut u = self.cells.clone();
        u.sort_unstable();
        u.dedup();
        u
    }

    /// The first set that no cell of `chosen` hits.
    fn first_unhit(&self, chosen: &[Cell]) -> Option<&[Cell]> {
        (0..self.len())
            .map(|i| self.set(i))
            .find(|s| !s.iter().any(|c| chosen.contains(c)))
    }

    /// Size of a minimum hitting set (a set of cells meeting every set),
    /// or `cap + 1` when it is larger than `cap`. An empty set cannot be
    /// hit: then the answer is `cap + 1` too.
    pub fn min_hitting_set(&self, cap: u32) -> u32 {
        let mut chosen = Vec::new();
        self.mhs(&mut chosen, cap)
    }

    fn mhs(&self, chosen: &mut Vec<Cell>, cap: u32) -> u32 {
        let Some(s) = self.first_unhit(chosen) else {
            return chosen.len() as u32;
        };
        if chosen.len() as u32 >= cap || s.is_empty() {
            return cap + 1;
        }
        let mut best = cap + 1;
        for &c in s {
            chosen.push(c);
            best = best.min(self.mhs(chosen, cap));
            chosen.pop();
        }
        best
    }

    /// Every hitting set of exactly `size` cells that is minimal (no
    /// proper subset hits every set), each sorted, in lexicographic order.
    /// When the minimum hitting set has `size` cells these are all the
    /// hitting sets of that size.
    pub fn minimal_hitting_sets(&self, size: usize) -> Vec<Vec<Cell>> {
        let mut out = Vec::new();
        let mut chosen = Vec::new();
        self.collect_hitting(&mut chosen, size, &mut out);
        for h in &mut out {
            h.sort_unstable();
        }
        out.sort();
        out.dedup();
        out.retain(|h| h.len() == size);
        out
    }

    fn collect_hitting(&self, chosen: &mut Vec<Cell>, size: usize, out: &mut Vec<Vec<Cell>>) {
        let Some(s) = self.first_unhit(chosen) else {
            out.push(chosen.clone());
            return;
        };
        if chosen.len() >= size {
            return;
        }
        for &c in s {
            chosen.push(c);
            self.collect_hitting(chosen, size, out);
            chosen.pop();
        }
    }
}

/// The windows `p` can complete with at most `stones` stones.
pub fn threat_windows(board: &Board, p: Player, stones: u8, out: &mut CellSets) {
    let mut ws = Vec::new();
    board.windows_within(p, stones, &mut ws);
    out.clear();
    for w in ws {
        out.push_window(board, w);
    }
}

/// The number of threats of `p`, whose turns have `per_turn` stones: the
/// least number of stones the opponent must place to keep `p` from
/// completing k on its next turn (capped: [`THREAT_CAP`] + 1 means more).
pub fn count_threats(board: &Board, p: Player, per_turn: u8) -> u32 {
    let mut sets = CellSets::default();
    threat_windows(board, p, per_turn, &mut sets);
    sets.min_hitting_set(THREAT_CAP)
}

/// A window `p` completes by placing at most `stones` stones now (the
/// first in window order), if any.
pub fn immediate_win(board: &Board, p: Player, stones: u8) -> Option<WindowId> {
    board.first_window_within(p, stones)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect::Connect;

    fn sets(list: &[&[Cell]]) -> CellSets {
        let mut s = CellSets::default();
        for l in list {
            s.cells.extend_from_slice(l);
            s.ends.push(s.cells.len() as u32);
        }
        s
    }

    #[test]
    fn minimum_hitting_sets_by_hand() {
        assert_eq!(sets(&[]).min_hitting_set(8), 0);
        // Two sets sharing cell 2: one stone on 2 hits both.
        assert_eq!(sets(&[&[1, 2], &[2, 3]]).min_hitting_set(8), 1);
        // Three disjoint pairs need three stones; with cap 2 that is "3".
        assert_eq!(sets(&[&[1, 2], &[3, 4], &[5, 6]]).min_hitting_set(8), 3);
        assert_eq!(sets(&[&[1, 2], &[3, 4], &[5, 6]]).min_hitting_set(2), 3);
        // A triangle {1,2},{2,3},{1,3} needs two.
        assert_eq!(sets(&[&[1, 2], &[2, 3], &[1, 3]]).min_hitting_set(8), 2);
        assert_eq!(sets(&[&[]]).min_hitting_set(8), 9);
        // The triangle's hitting pairs: every pair of its three cells.
        assert_eq!(
            sets(&[&[1, 2], &[2, 3], &[1, 3]]).minimal_hitting_sets(2),
            vec![vec![1, 2], vec![1, 3], vec![2, 3]]
        );
        assert_eq!(
            sets(&[&[1, 2], &[3, 4]]).minimal_hitting_sets(2),
            vec![vec![1, 3], vec![1, 4], vec![2, 3], vec![2, 4]]
        );
    }

    /// Connect6 positions with their threats worked out by hand.
    #[test]
    fn connect6_threats_by_hand() {
        use Player::*;
        // Black stones d10..g10 (four in a row, row 10), White's far away
        // at a1 a2 s19 … The windows with ≤ 2 empties and no White stone
        // are a10-f10 … : cells b10..i10 — windows [b..g], [c..h], [d..i]
        // have empties {b,c}, {c,h}, {h,i}; the least set meeting all
        // three is {c10, h10}: 2 threats (a live four).
        let g = Connect::parse_connect6("j1 a1 a2 d10 e10 s19 s18 f10 g10").unwrap();
        assert_eq!(count_threats(g.board(), First, 2), 2);
        assert_eq!(count_threats(g.board(), Second, 2), 0);
        // With a White stone on h10 instead, [c..h] and [d..i] are dead;
        // [b..g] (empties b10 c10) is the only window with ≤ 2 empties
        // ([a..f] has three): one threat, stopped by b10 or c10.
        let g = Connect::parse_connect6("j1 a1 a2 d10 e10 s19 h10 f10 g10").unwrap();
        assert_eq!(count_threats(g.board(), First, 2), 1);
        // Five in a row d10..h10 with both ends open: windows [c..h] and
        // [d..i] have one empty each (c10, i10), [b..g] has b10 c10:
        // stones on c10 and i10 are needed: 2 threats.
        let g = Connect::parse_connect6("j1 a1 a2 d10 e10 s19 s18 f10 g10 r1 r2 h10").unwrap();
        assert_eq!(count_threats(g.board(), First, 2), 2);
        // Two separate live fours (rows 10 and 5): 4 threats.
        let g = Connect::parse_connect6("j1 a1 a2 d10 e10 s19 s18 f10 g10 r1 r2 d5 e5 s1 s2 f5 g5")
            .unwrap();
        assert_eq!(count_threats(g.board(), First, 2), 4);
        assert_eq!(
            immediate_win(g.board(), First, 2).map(|w| g.board().empties(w)),
            Some(2)
        );
    }
}
