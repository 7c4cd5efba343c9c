//! Connect Four on the standard 7 columns × 6 rows board.
//!
//! Notation (docs/cli.md): the Pascal Pons move string, 1-based column digits
//! played from the empty board, first player first (`""` is the empty
//! board, `4455` four moves). Moves are named by the same digits.
//!
//! Representation: one bitboard per player, column-major with 7 bits per
//! column (6 playable rows plus one always-empty guard row on top), bit
//! `col * 7 + row`, row 0 at the bottom. The guard row keeps the shift
//! tricks of the four-in-a-row test from wrapping from one column into the
//! next. The move history is packed into a `u128` (3 bits per move, 42
//! moves at most), so a position stays `Copy` and small while still
//! remembering its move string for `notation()`.

use std::fmt;

use super::{Game, GameKind, MoveError, Outcome, ParseError, Player};

/// Number of columns.
pub const WIDTH: u8 = 7;
/// Number of rows.
pub const HEIGHT: u8 = 6;
/// Bits per column in the bitboards (rows plus the guard row).
const STRIDE: u8 = HEIGHT + 1;
/// Cells on the board.
const CELLS: u8 = WIDTH * HEIGHT;

/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut b = 0u64;
    let mut c = 0;
    while c < WIDTH {
        b |= 1 << (c * STRIDE);
        c += 1;
    }
    b
};

/// The top (sixth-row) cell of every column: a column is full when its bit
/// here is occupied.
const TOP: u64 = BOTTOM << (HEIGHT - 1);

/// The bottom cell of column `c`.
#[inline]
const fn bottom_of(c: u8) -> u64 {
    1 << (c as u32 * STRIDE as u32)
}

/// The top cell of column `c`.
#[inline]
const fn top_of(c: u8) -> u64 {
    1 << (c as u32 * STRIDE as u32 + HEIGHT as u32 - 1)
}

/// The playable cells of column `c`.
#[inline]
const fn column_of(c: u8) -> u64 {
    ((1 << HEIGHT) - 1) << (c as u32 * STRIDE as u32)
}

/// The cells of `b` that end a four in a row (any direction): shifts of 1
/// (vertical), `STRIDE` (horizontal), `STRIDE - 1` and `STRIDE + 1` (the
/// two diagonals). Non-zero iff `b` holds four in a row.
#[inline]
fn fours(b: u64) -> u64 {
    let mut hits = 0;
    for s in [1, STRIDE as u32 - 1, STRIDE as u32, STRIDE as u32 + 1] {
        let pairs = b & (b >> s);
        hits |= pairs & (pairs >> (2 * s));
    }
    hits
}

/// The cells of every four in a row in `b` (for drawing the winning line).
fn four_cells(b: u64) -> u64 {
    let mut cells = 0;
    for s in [1, STRIDE as u32 - 1, STRIDE as u32, STRIDE as u32 + 1] {
        let pairs = b & (b >> s);
        let starts = pairs & (pairs >> (2 * s));
        cells |= starts | starts << s | starts << (2 * s) | starts << (3 * s);
    }
    cells
}

/// Number of four-cell windows (lines of four) on the board: 24
/// horizontal, 21 vertical and 12 on each diagonal.
const WINDOW_COUNT: usize = 69;

/// Every four-cell window as a bit mask over the bitboard layout.
const WINDOWS: [u64; WINDOW_COUNT] = {
    let mut w = [0u64; WINDOW_COUNT];
    let mut n = 0;
    // (column step, row step) of the four directions.
    let dirs: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut d = 0;
    while d < 4 {
        let (dc, dr) = dirs[d];
        let mut c = 0;
        while c < WIDTH as i32 {
            let mut r = 0;
            while r < HEIGHT as i32 {
                let (ec, er) = (c + 3 * dc, r + 3 * dr);
                if ec >= 0 && ec < WIDTH as i32 && er >= 0 && er < HEIGHT as i32 {
                    let mut mask = 0u64;
                    let mut k = 0;
                    while k < 4 {
                        mask |= 1 << ((c + k * dc) * STRIDE as i32 + r + k * dr);
                        k += 1;
                    }
                    w[n] = mask;
                    n += 1;
                }
                r += 1;
            }
            c += 1;
        }
        d += 1;
    }
    assert!(n == WINDOW_COUNT);
    w
};

/// Cells on rows 1, 3 and 5 (counted from 1 at the bottom): the "odd"
/// rows of Allis's zugzwang analysis.
const ODD_ROWS: u64 = BOTTOM * 0b10101;

/// Evaluation weights (first player's view, see
/// [`Connect4::threat_evaluation`]).
const ONE_STONE: i32 = 1;
const TWO_STONES: i32 = 5;
const THREAT: i32 = 20;
const GOOD_THREAT: i32 = 40;

/// Zobrist key number `i` (salted so no other game shares the keys).
const fn zobrist(i: u64) -> u64 {
    super::mix::zobrist_key(i ^ 0xC4C4_0000_0000_0000)
}

/// Key for the second player to move.
const SIDE_KEY: u64 = zobrist(1000);

/// A Connect Four position together with the moves that led to it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Connect4 {
    /// Stones of the first and the second player.
    stones: [u64; 2],
    /// Columns played, 3 bits each, move `k` at bits `3k..3k+3`.
    history: u128,
    /// Number of moves played.
    plies: u8,
    /// The player who has four in a row, if any (only the last mover can).
    winner: Option<Player>,
    /// Zobrist hash of the stones and the side to move, kept incrementally.
    hash: u64,
}

impl fmt::Debug for Connect4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Connect4(\"{}\")", self.notation())
    }
}

impl Connect4 {
    /// The empty board.
    pub fn new() -> Connect4 {
        Connect4::default()
    }

    /// Parses a Pons move string (column digits `1`–`7` from the empty
    /// board; surrounding whitespace is ignored). Errors name the 1-based
    /// column in `text` of the offending character: a non-digit, a digit
    /// outside 1..7, a move into a full column, or a move after the game
    /// has ended.
    pub fn parse(text: &str) -> Result<Connect4, ParseError> {
        let lead = text.len() - text.trim_start().len();
        let lead_cols = text[..lead].chars().count();
        let mut g = Connect4::new();
        for (i, ch) in text.trim().chars().enumerate() {
            let col = lead_cols + i + 1;
            let d = match ch.to_digit(10) {
                Some(d) => d,
                None => {
                    return Err(ParseError::at_col(
                        col,
                        format!("expected a column digit 1-7, found `{ch}`"),
                    ))
                }
            };
            if !(1..=WIDTH as u32).contains(&d) {
                return Err(ParseError::at_col(
                    col,
                    format!("column {d} does not exist (expected 1-7)"),
                ));
            }
            if g.outcome().is_some() {
                return Err(ParseError::at_col(
                    col,
                    format!("the game is already over after move {}", g.plies),
                ));
            }
            let c = d as u8 - 1;
            if !g.can_play(c) {
                return Err(ParseError::at_col(col, format!("column {d} is full")));
            }
            g.play(c);
        }
        Ok(g)
    }

    /// Both players' stones.
    #[inline]
    fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// Can a stone still go into column `c` (0-based)?
    #[inline]
    pub fn can_play(&self, c: u8) -> bool {
        c < WIDTH && self.occupied() & top_of(c) == 0
    }

    /// The first and the second player's stones as bitboards (the layout
    /// of the module comment; the solvers' tactics in
    /// [`super::connect4_bits`] work on them).
    #[inline]
    pub fn bitboards(&self) -> (u64, u64) {
        (self.stones[0], self.stones[1])
    }

    /// Does the stone set `b` (in the bitboard layout) hold four in a row?
    #[inline]
    pub fn has_four(b: u64) -> bool {
        fours(b) != 0
    }

    /// Number of stones on the board (= moves played).
    pub fn stones(&self) -> u8 {
        self.plies
    }

    /// The columns played so far (0-based), in order.
    pub fn moves_played(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.plies).map(|k| ((self.history >> (3 * k as u32)) & 7) as u8)
    }

    /// Contents of the cell in column `c` and row `r` (both 0-based, row 0
    /// at the bottom); `None` when empty or off the board.
    pub fn cell(&self, c: u8, r: u8) -> Option<Player> {
        if c >= WIDTH || r >= HEIGHT {
            return None;
        }
        let bit = 1u64 << (c * STRIDE + r);
        if self.stones[0] & bit != 0 {
            Some(Player::First)
        } else if self.stones[1] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Number of stones in column `c`.
    pub fn height(&self, c: u8) -> u8 {
        if c >= WIDTH {
            return 0;
        }
        (self.occupied() & column_of(c)).count_ones() as u8
    }

    /// The threat evaluation (first player's view), after Allis's (1988)
    /// analysis of Connect Four: over the 69 lines of four, a line holding
    /// stones of one player only scores for that player 1 (one stone), 5
    /// (two) or, with three stones, a *threat* on its empty cell: 20, or
    /// 40 when the cell lies on a row that favours its owner in the
    /// endgame zugzwang (odd rows 1, 3, 5 from the bottom for the first
    /// player, even rows for the second: when the board fills up, each
    /// player can claim the cells of its own parity). Lines with stones of
    /// both players are dead and score nothing. At most 69 × 40 = 2760 in
    /// magnitude, inside ±WIN.
    pub fn threat_evaluation(&self) -> i32 {
        let [first, second] = self.stones;
        let mut score = 0;
        for &w in &WINDOWS {
            let (a, b) = (first & w, second & w);
            let (sign, own, good_rows) = match (a != 0, b != 0) {
                (true, false) => (1, a, ODD_ROWS),
                (false, true) => (-1, b, !ODD_ROWS),
                _ => continue,
            };
            let value = match own.count_ones() {
                1 => ONE_STONE,
                2 => TWO_STONES,
                _ => {
                    if (w & !own) & good_rows != 0 {
                        GOOD_THREAT
                    } else {
                        THREAT
                    }
                }
            };
            score += sign * value;
        }
        score
    }

    /// The cell a stone dropped into column `c` lands on (0 if full).
    #[inline]
    fn landing_cell(&self, c: u8) -> u64 {
        (self.occupied() + bottom_of(c)) & column_of(c)
    }

    /// The cells `(column, row)` of the winner's four(s) in a row, empty
    /// while nobody has won.
    pub fn winning_cells(&self) -> Vec<(u8, u8)> {
        let Some(w) = self.winner else {
            return Vec::new();
        };
        let mut b = four_cells(self.stones[w.index()]);
        let mut out = Vec::new();
        while b != 0 {
            let i = b.trailing_zeros() as u8;
            out.push((i / STRIDE, i % STRIDE));
            b &= b - 1;
        }
        out
    }
}

impl Game for Connect4 {
    /// Column 0..7 (shown 1-based).
    type Move = u8;

    fn kind(&self) -> GameKind {
        GameKind::Connect4
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
        let occ = self.occupied();
        out.extend((0..WIDTH).filter(|&c| occ & top_of(c) == 0));
    }

    fn play(&mut self, c: u8) {
        debug_assert!(
            self.can_play(c) && self.winner.is_none(),
            "illegal move {c}"
        );
        let p = self.to_move();
        let occ = self.occupied();
        // The lowest empty cell of the column: adding the column's bottom
        // bit to its occupied cells carries into it.
        let bit = (occ + bottom_of(c)) & column_of(c);
        self.stones[p.index()] |= bit;
        let cell = bit.trailing_zeros() as u64;
        self.hash ^= zobrist(cell * 2 + p.index() as u64) ^ SIDE_KEY;
        self.history |= (c as u128) << (3 * self.plies as u32);
        self.plies += 1;
        if fours(self.stones[p.index()]) != 0 {
            self.winner = Some(p);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(p) => Some(Outcome::win_for(p)),
            None if self.plies == CELLS => Some(Outcome::DRAW),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn format_move(&self, m: u8) -> String {
        (m + 1).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let t = text.trim();
        let c = match t.parse::<u8>() {
            Ok(d) if (1..=WIDTH).contains(&d) => d - 1,
            _ => return Err(MoveError::notation(text, "a column 1-7")),
        };
        if self.outcome().is_some() {
            Err(MoveError::game_over(text))
        } else if !self.can_play(c) {
            Err(MoveError::illegal(text, "the column is full"))
        } else {
            Ok(c)
        }
    }

    fn notation(&self) -> String {
        self.moves_played().map(|c| char::from(b'1' + c)).collect()
    }

    fn into_any(self) -> super::AnyPosition {
        super::AnyPosition::Connect4(self)
    }
    /// [`Connect4::threat_evaluation`].
    fn evaluate(&self) -> Option<i32> {
        Some(self.threat_evaluation())
    }

    /// A move whose stone completes four for the mover (a win) or lands
    /// where the opponent would complete four (a block).
    fn is_tactical(&self, c: u8) -> bool {
        // A legal move means nobody has four yet, so any four now uses
        // the new stone.
        let cell = self.landing_cell(c);
        fours(self.stones[0] | cell) != 0 || fours(self.stones[1] | cell) != 0
    }

    /// Win, draw or loss: ±1 or 0.
    fn score_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }

    fn move_count(&self) -> usize {
        if self.outcome().is_some() {
            0
        } else {
            (!self.occupied() & TOP).count_ones() as usize
        }
    }

    /// docs/algorithms.md §5: uniformly random legal moves to the end, on the
    /// bitboards directly (no move list, no allocation).
    fn random_playout(&self, rng: &mut dyn rand::RngCore) -> Outcome {
        if let Some(o) = self.outcome() {
            return o;
        }
        let mut stones = self.stones;
        let mut p = self.to_move().index();
        let mut plies = self.plies;
        loop {
            let occ = stones[0] | stones[1];
            let free = !occ & TOP;
            let n = free.count_ones() as u64;
            // The k-th open column, k uniform in 0..n.
            let mut k = (rng.next_u64() % n) as u32;
            let mut f = free;
            while k > 0 {
                f &= f - 1;
                k -= 1;
            }
            let c = (f.trailing_zeros() / STRIDE as u32) as u8;
            stones[p] |= (occ + bottom_of(c)) & column_of(c);
            plies += 1;
            if fours(stones[p]) != 0 {
                return Outcome::win_for(if p == 0 {
                    Player::First
                } else {
                    Player::Second
                });
            }
            if plies == CELLS {
                return Outcome::DRAW;
            }
            p ^= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertical_horizontal_and_diagonal_fours_end_the_game() {
        // Vertical in column 1, horizontal on the bottom row, and the two
        // diagonals, each made by the first player on its last move.
        for (s, w) in [
            ("1212121", Player::First),
            ("1122334", Player::First),
            ("12234334744", Player::First),
            ("76654554144", Player::First),
            ("71122334", Player::Second),
        ] {
            let g = Connect4::parse(s).unwrap();
            assert_eq!(g.outcome(), Some(Outcome::win_for(w)), "{s}");
            assert_eq!(g.winning_cells().len(), 4, "{s}");
        }
        let g = Connect4::parse("121212").unwrap();
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn threat_evaluation_by_hand() {
        assert_eq!(WINDOWS.iter().map(|w| w.count_ones()).sum::<u32>(), 4 * 69);
        assert_eq!(Connect4::new().threat_evaluation(), 0);
        // A first-player stone in the bottom corner a1 lies in one
        // horizontal, one vertical and one diagonal line: 3 × 1.
        assert_eq!(Connect4::parse("1").unwrap().evaluate(), Some(3));
        // Bottom centre d1: 4 horizontal, 1 vertical, 2 diagonal lines.
        assert_eq!(Connect4::parse("4").unwrap().evaluate(), Some(7));
        // Swapping the colours negates the value.
        let a = Connect4::parse("12").unwrap().threat_evaluation();
        let b = Connect4::parse("21").unwrap().threat_evaluation();
        assert_eq!(a, -b);
    }

    #[test]
    fn threats_score_by_row_parity() {
        // First player a1 b1 c1, second player g1 g2; second to move.
        let g = Connect4::parse("17273").unwrap();
        // First: a1-d1 is a threat on d1, row 1 (odd, good for the
        // first player): 40; b1-e1 two stones: 5; c1-f1 one: 1; the
        // vertical lines from a1, b1, c1: 3 × 1; the up-right diagonals
        // from a1, b1, c1: 3 × 1; no down-right diagonal reaches them.
        let first = 40 + 5 + 1 + 3 + 3;
        // Second: d1-g1 (g1 only): 1; d2-g2: 1; column g rows 1-4 (two
        // stones): 5, rows 2-5: 1; the down-right diagonals d4-g1 and
        // d5-g2: 1 + 1.
        let second = 1 + 1 + 5 + 1 + 1 + 1;
        assert_eq!(g.threat_evaluation(), first - second);
        assert!(g.is_tactical(3), "d1 blocks the first player's four");
        assert!(!g.is_tactical(5) && !g.is_tactical(6));
        // First to move after the second plays a2: d1 now wins.
        let mut h = g;
        h.play(0);
        assert!(h.is_tactical(3), "d1 wins for the first player");
        assert!(!h.is_tactical(1));
    }

    #[test]
    fn hash_depends_on_the_position_not_the_order() {
        let a = Connect4::parse("1234").unwrap();
        let b = Connect4::parse("3214").unwrap();
        assert_eq!(a.hash(), b.hash());
        assert_ne!(a.hash(), Connect4::parse("123").unwrap().hash());
        assert_ne!(a, b, "positions remember their own move order");
    }
}
