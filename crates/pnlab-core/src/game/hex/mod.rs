//! Hex on an N×N rhombus, N = 2…11, without the swap rule.
//!
//! Conventions (docs/cli.md, the same as Benzene and HexGui): a cell is a column
//! letter and a row number, `a1` the top-left corner; Black
//! ([`Player::First`]) moves first and joins the top and bottom rows, White
//! ([`Player::Second`]) joins the left and right columns; cell (c, r)
//! touches (c±1, r), (c, r±1), (c+1, r−1) and (c−1, r+1).
//!
//! Notation: `SIZE:` followed by the cells played alternately from the
//! empty board, Black first, separated by spaces (`4:`, `5:c3 b4`). The
//! position keeps its move list so the notation round-trips.
//!
//! Representation: one `u128` bitset per player, bit `r * N + c` (121 cells
//! fit). Connectivity is a bitset flood fill with shifts; masks on the first
//! and last column stop the horizontal and diagonal shifts from wrapping
//! into the neighbouring row. Hex has no draws: on a full board exactly
//! one player is connected.

pub mod inferior;
pub mod knowledge;
pub mod resistance;
pub mod vc;

use std::fmt;

use super::{Game, GameKind, MoveError, Outcome, ParseError, Player};

/// Smallest board size.
pub const MIN_SIZE: u8 = 2;
/// Largest board size (121 cells still fit a `u128`).
pub const MAX_SIZE: u8 = 11;
/// Cells of the largest board.
const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Masks of one board size.
#[derive(Clone, Copy)]
struct Geometry {
    board: u128,
    top: u128,
    bottom: u128,
    left: u128,
    right: u128,
}

const fn geometry(n: u32) -> Geometry {
    let mut g = Geometry {
        board: 0,
        top: 0,
        bottom: 0,
        left: 0,
        right: 0,
    };
    let mut i = 0;
    while i < n {
        g.top |= 1 << i;
        g.bottom |= 1 << ((n - 1) * n + i);
        g.left |= 1 << (i * n);
        g.right |= 1 << (i * n + n - 1);
        i += 1;
    }
    g.board = if n * n == 128 {
        u128::MAX
    } else {
        (1u128 << (n * n)) - 1
    };
    g
}

/// The masks of every size 0..=MAX_SIZE (only 2.. are used).
const GEOMETRY: [Geometry; MAX_SIZE as usize + 1] = {
    let mut t = [geometry(0); MAX_SIZE as usize + 1];
    let mut n = 1;
    while n <= MAX_SIZE as usize {
        t[n] = geometry(n as u32);
        n += 1;
    }
    t
};

/// The cells adjacent to some cell of `s` on an `n`×`n` board (docs/cli.md
/// adjacency).
#[inline]
fn neighbours(s: u128, n: u32, g: &Geometry) -> u128 {
    let not_right = s & !g.right;
    let not_left = s & !g.left;
    ((not_right << 1)          // (c+1, r)
        | (not_left >> 1)      // (c-1, r)
        | (s << n)             // (c, r+1)
        | (s >> n)             // (c, r-1)
        | (not_right >> (n - 1)) // (c+1, r-1)
        | (not_left << (n - 1))) // (c-1, r+1)
        & g.board
}

/// The cells of `own` connected to `seed` through `own`.
#[inline]
fn flood(own: u128, seed: u128, n: u32, g: &Geometry) -> u128 {
    let mut reach = seed & own;
    loop {
        let next = (reach | neighbours(reach, n, g)) & own;
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

/// The edges player `p` joins: (first edge, second edge).
#[inline]
fn edges(p: Player, g: &Geometry) -> (u128, u128) {
    match p {
        Player::First => (g.top, g.bottom),
        Player::Second => (g.left, g.right),
    }
}

/// Zobrist key number `i` (salted so no other game shares the keys).
const fn zobrist(i: u64) -> u64 {
    super::mix::zobrist_key(i ^ 0x4E58_0000_0000_0000)
}

/// Key for White to move.
const SIDE_KEY: u64 = zobrist(1000);

/// The name of cell `i` on a `size`×`size` board: column letter and row
/// number (`a1` top-left).
pub fn cell_name(size: u8, i: u8) -> String {
    format!("{}{}", char::from(b'a' + i % size), i / size + 1)
}

/// Why a cell name was refused by [`parse_cell`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellError {
    /// Not a letter followed by a number.
    Malformed,
    /// Well formed but outside the board.
    OffBoard,
}

/// The index `r * size + c` of a cell name such as `c3` (letters are
/// case-insensitive).
pub fn parse_cell(size: u8, text: &str) -> Result<u8, CellError> {
    let b = text.as_bytes();
    let (letter, digits) = match b.split_first() {
        Some((l, d)) if l.is_ascii_alphabetic() => (l.to_ascii_lowercase(), d),
        _ => return Err(CellError::Malformed),
    };
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(CellError::Malformed);
    }
    let row = digits
        .iter()
        .fold(0u32, |a, &d| a * 10 + u32::from(d - b'0'));
    let col = u32::from(letter - b'a');
    if row == 0 || row > u32::from(size) || col >= u32::from(size) {
        return Err(CellError::OffBoard);
    }
    Ok(((row - 1) * u32::from(size) + col) as u8)
}

/// A Hex position together with the moves that led to it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hex {
    /// Board size N.
    n: u8,
    /// Stones of Black and White, bit `r * N + c`.
    stones: [u128; 2],
    /// Cells played, in order (the first `plies` entries are used).
    moves: [u8; MAX_CELLS],
    plies: u8,
    /// The connected player, if any (only the last mover can be).
    winner: Option<Player>,
    /// Zobrist hash of the size, the stones and the side to move.
    hash: u64,
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hex(\"{}\")", self.notation())
    }
}

impl Hex {
    /// The empty `size`×`size` board, or `None` outside 2…11.
    pub fn new(size: u8) -> Option<Hex> {
        (MIN_SIZE..=MAX_SIZE).contains(&size).then(|| Hex {
            n: size,
            stones: [0, 0],
            moves: [0; MAX_CELLS],
            plies: 0,
            winner: None,
            hash: zobrist(500 + u64::from(size)),
        })
    }

    /// Parses `SIZE:` and the cells played (docs/cli.md), e.g. `5:c3 b4`.
    /// Errors give the 1-based column in `text`: a bad or missing size, a
    /// missing `:`, a malformed cell, a cell off the board, an occupied
    /// cell, or a move after the game is over.
    pub fn parse(text: &str) -> Result<Hex, ParseError> {
        // Work on characters so columns count characters, not bytes.
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let size_start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i == size_start {
            return Err(ParseError::at_col(
                size_start + 1,
                "expected the board size 2-11 followed by `:` (e.g. `5:c3 b4`)",
            ));
        }
        let size_text: String = chars[size_start..i].iter().collect();
        let size = match size_text.parse::<u8>() {
            Ok(s) if (MIN_SIZE..=MAX_SIZE).contains(&s) => s,
            _ => {
                return Err(ParseError::at_col(
                    size_start + 1,
                    format!("board size {size_text} is out of range (expected 2-11)"),
                ))
            }
        };
        if chars.get(i) != Some(&':') {
            return Err(ParseError::at_col(
                i + 1,
                "expected `:` after the board size (e.g. `5:c3 b4`)",
            ));
        }
        i += 1;
        let mut g = match Hex::new(size) {
            Some(g) => g,
            None => return Err(ParseError::at_col(size_start + 1, "a board size 2-11")),
        };
        loop {
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            if i == chars.len() {
                return Ok(g);
            }
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            let token: String = chars[start..i].iter().collect();
            let col = start + 1;
            let cell = match parse_cell(size, &token) {
                Ok(c) => c,
                Err(CellError::Malformed) => {
                    return Err(ParseError::at_col(
                        col,
                        format!(
                        "expected a cell such as `c3` (column letter, row number), found `{token}`"
                    ),
                    ))
                }
                Err(CellError::OffBoard) => {
                    return Err(ParseError::at_col(
                        col,
                        format!("cell {token} is off the {size}x{size} board"),
                    ))
                }
            };
            if g.winner.is_some() {
                return Err(ParseError::at_col(
                    col,
                    format!("the game is already over after move {}", g.plies),
                ));
            }
            if g.occupied() >> cell & 1 == 1 {
                return Err(ParseError::at_col(
                    col,
                    format!("cell {token} is already taken"),
                ));
            }
            g.play(cell);
        }
    }

    #[inline]
    fn geometry(&self) -> &'static Geometry {
        &GEOMETRY[self.n as usize]
    }

    #[inline]
    fn occupied(&self) -> u128 {
        self.stones[0] | self.stones[1]
    }

    /// Board size N.
    pub fn size(&self) -> u8 {
        self.n
    }

    /// The stones as bitsets [Black, White], bit `r * N + c`.
    pub fn stones(&self) -> [u128; 2] {
        self.stones
    }

    /// The empty cells as a bitset (a won board may still have some).
    pub fn empty_cells(&self) -> u128 {
        !self.occupied() & self.geometry().board
    }

    /// Contents of column `c`, row `r` (0-based, (0, 0) = `a1`); `None`
    /// when empty or off the board.
    pub fn cell(&self, c: u8, r: u8) -> Option<Player> {
        if c >= self.n || r >= self.n {
            return None;
        }
        let i = r as u32 * self.n as u32 + c as u32;
        let [first, second] = self.stones.map(|s| s >> i & 1 == 1);
        Player::holding(first, second)
    }

    /// The name of cell index `i` on this board.
    pub fn name_of(&self, i: u8) -> String {
        cell_name(self.n, i)
    }

    /// The cells played so far, in order.
    pub fn moves_played(&self) -> &[u8] {
        &self.moves[..self.plies as usize]
    }

    /// The winner's stones that belong to a group touching both of the
    /// winner's edges (the winning chain, possibly with side branches),
    /// as cell indices; empty while nobody has won.
    pub fn winning_chain(&self) -> Vec<u8> {
        let Some(w) = self.winner else {
            return Vec::new();
        };
        let g = self.geometry();
        let n = self.n as u32;
        let own = self.stones[w.index()];
        let (e1, e2) = edges(w, g);
        let mut chain = flood(own, e1, n, g) & flood(own, e2, n, g);
        let mut out = Vec::new();
        while chain != 0 {
            out.push(chain.trailing_zeros() as u8);
            chain &= chain - 1;
        }
        out
    }

    /// Does `p` join its two edges with the stones `own`?
    #[inline]
    fn connects(own: u128, p: Player, n: u32, g: &Geometry) -> bool {
        let (e1, e2) = edges(p, g);
        flood(own, e1, n, g) & e2 != 0
    }
}

/// Whether `own`, player `p`'s stones on an `n`×`n` board, join `p`'s
/// two edges.
pub fn joins_edges(n: u8, own: u128, p: Player) -> bool {
    Hex::connects(own, p, u32::from(n), &GEOMETRY[n as usize])
}

/// All cells of an `n`×`n` board as a bitset.
pub fn board_cells(n: u8) -> u128 {
    GEOMETRY[n as usize].board
}

impl Game for Hex {
    /// Cell index `r * N + c`.
    type Move = u8;

    fn kind(&self) -> GameKind {
        GameKind::Hex
    }

    #[inline]
    fn to_move(&self) -> Player {
        if self.plies.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.winner.is_some() {
            return;
        }
        let mut empty = !self.occupied() & self.geometry().board;
        while empty != 0 {
            out.push(empty.trailing_zeros() as u8);
            empty &= empty - 1;
        }
    }

    fn play(&mut self, m: u8) {
        debug_assert!(
            self.winner.is_none() && (m as u32) < self.n as u32 * self.n as u32,
            "illegal move {m}"
        );
        debug_assert!(self.occupied() >> m & 1 == 0, "cell {m} is taken");
        let p = self.to_move();
        let bit = 1u128 << m;
        self.stones[p.index()] |= bit;
        self.moves[self.plies as usize] = m;
        self.plies += 1;
        self.hash ^= zobrist(u64::from(m) * 2 + p.index() as u64) ^ SIDE_KEY;
        // Only the group of the new stone can have become connected, and
        // only if the mover touches both edges at all.
        let g = self.geometry();
        let own = self.stones[p.index()];
        let (e1, e2) = edges(p, g);
        if own & e1 != 0 && own & e2 != 0 {
            let group = flood(own, bit, self.n as u32, g);
            if group & e1 != 0 && group & e2 != 0 {
                self.winner = Some(p);
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::win_for)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn format_move(&self, m: u8) -> String {
        cell_name(self.n, m)
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let t = text.trim();
        let m = match parse_cell(self.n, t) {
            Ok(m) => m,
            Err(CellError::Malformed) => {
                return Err(MoveError::notation(text, "a cell such as `c3`"))
            }
            Err(CellError::OffBoard) => {
                return Err(MoveError::illegal(
                    t,
                    format!("off the {0}x{0} board", self.n),
                ))
            }
        };
        if self.winner.is_some() {
            Err(MoveError::game_over(t))
        } else if self.occupied() >> m & 1 == 1 {
            Err(MoveError::illegal(t, "the cell is taken"))
        } else {
            Ok(m)
        }
    }

    fn notation(&self) -> String {
        let cells: Vec<String> = self
            .moves_played()
            .iter()
            .map(|&m| cell_name(self.n, m))
            .collect();
        format!("{}:{}", self.n, cells.join(" "))
    }

    fn into_any(self) -> super::AnyPosition {
        super::AnyPosition::Hex(self)
    }

    /// A win for one side: ±1.
    fn score_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }

    fn move_count(&self) -> usize {
        if self.winner.is_some() {
            0
        } else {
            (!self.occupied() & self.geometry().board).count_ones() as usize
        }
    }

    /// The resistance evaluation (Wolve's): 1000 · ln(R(White) / R(Black)),
    /// Black's view, inside ±[`MAX_EVAL`](super::eval::MAX_EVAL) (see
    /// [`resistance`]).
    fn evaluate(&self) -> Option<i32> {
        let v = (self.resistance_evaluation() * 1000.0).round();
        let m = super::eval::MAX_EVAL as f64;
        Some(v.clamp(-m, m) as i32)
    }

    /// The local heuristic of SCNS: a cell's energy shares in both
    /// players' resistor circuits (see [`resistance`]).
    fn move_scores(&self, moves: &[u8], out: &mut Vec<f64>) -> bool {
        let r = resistance::Resistance::of(self);
        out.extend(moves.iter().map(|&m| r.move_score(m as usize)));
        true
    }

    /// docs/algorithms.md §5, done the Hex way: a uniformly random continuation
    /// gives the side to move a uniformly random half (rounded up) of the
    /// empty cells and the opponent the rest, and since filling cells can
    /// never take a connection away nor create a second one, the winner on
    /// the filled board is the winner of the game. So: shuffle once, check
    /// connectivity once, no allocation.
    fn random_playout(&self, rng: &mut dyn rand::RngCore) -> Outcome {
        if let Some(o) = self.outcome() {
            return o;
        }
        let g = self.geometry();
        let n = self.n as u32;
        let mut cells = [0u8; MAX_CELLS];
        let mut e = 0usize;
        let mut empty = !self.occupied() & g.board;
        while empty != 0 {
            cells[e] = empty.trailing_zeros() as u8;
            e += 1;
            empty &= empty - 1;
        }
        // Partial Fisher-Yates: the first ⌈e/2⌉ cells go to the mover.
        let mine = e.div_ceil(2);
        let me = self.to_move();
        let mut stones = self.stones;
        for i in 0..mine {
            let j = i + (rng.next_u64() % (e - i) as u64) as usize;
            cells.swap(i, j);
            stones[me.index()] |= 1u128 << cells[i];
        }
        for &c in &cells[mine..e] {
            stones[me.other().index()] |= 1u128 << c;
        }
        if Hex::connects(stones[0], Player::First, n, g) {
            Outcome::win_for(Player::First)
        } else {
            Outcome::win_for(Player::Second)
        }
    }
}

/// The position `plies` random moves from the empty `n`×`n` board lead
/// to (fewer when a player connects first): the tests' random positions.
#[cfg(test)]
pub(crate) fn random_walk(n: u8, plies: usize, rng: &mut impl rand::Rng) -> Hex {
    let mut g = Hex::new(n).expect("a board size");
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        g.legal_moves(&mut moves);
        if g.outcome().is_some() || moves.is_empty() {
            break;
        }
        g.play(moves[rng.random_range(0..moves.len())]);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_have_the_pinned_number_of_neighbours() {
        // a1 and the opposite corner are acute (2 neighbours), the other
        // two obtuse (3), an edge cell has 4, an inner cell 6.
        for n in MIN_SIZE..=MAX_SIZE {
            let g = &GEOMETRY[n as usize];
            let count = |c: u8, r: u8| {
                neighbours(1u128 << (r as u32 * n as u32 + c as u32), n as u32, g).count_ones()
            };
            let last = n - 1;
            assert_eq!(count(0, 0), 2, "a1 on {n}");
            assert_eq!(count(last, last), 2, "far corner on {n}");
            assert_eq!(count(last, 0), 3, "top-right on {n}");
            assert_eq!(count(0, last), 3, "bottom-left on {n}");
            if n >= 3 {
                assert_eq!(count(1, 0), 4, "b1 on {n}");
                assert_eq!(count(1, 1), 6, "b2 on {n}");
            }
        }
    }

    #[test]
    fn sizes_outside_2_to_11_are_refused() {
        assert!(Hex::new(1).is_none());
        assert!(Hex::new(12).is_none());
        assert_eq!(Hex::new(11).map(|g| g.move_count()), Some(121));
        let g = Hex::parse("3:b2").unwrap();
        let e = |m: &str| g.parse_move(m).unwrap_err().to_string();
        assert!(e("b2").contains("taken"));
        assert!(e("d1").contains("off the 3x3 board"));
        assert!(e("2b").contains("expected a cell"));
        assert_eq!(g.parse_move(" C3 "), Ok(8));
    }

    #[test]
    fn a_column_of_black_stones_wins() {
        let g = Hex::parse("3:b1 a1 b2 a2 b3").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win_for(Player::First)));
        assert_eq!(g.winning_chain(), vec![1, 4, 7]);
        let g = Hex::parse("3:a1 a2 b1 b2 a3 c2").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win_for(Player::Second)));
    }
}
