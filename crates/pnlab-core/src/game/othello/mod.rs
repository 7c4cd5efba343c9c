//! Othello (Reversi) on 8×8 with bitboards.
//!
//! Rules: Black (`X`, [`Player::First`]) moves first from the standard
//! start (d4, e5 White; e4, d5 Black). A move puts a disc on an empty
//! square that flanks at least one straight run of opponent discs, which
//! turn over. A player without such a square must pass — and a pass is a
//! legal move here, the only one, exactly when the opponent could move.
//! The game ends when neither side can move.
//!
//! Score ([`Outcome::score`], from **Black's** point of view): the final
//! disc difference Black − White, with the empty squares left at the end
//! given to the winner (the FFO/WOF/Edax convention that OBF move scores
//! use; a draw stays 0). So scores of finished games are always even.
//!
//! Squares: index 0..63 = a1, b1, …, h1, a2, …, h8 (row by row, letter =
//! column), as in OBF; [`Game::Move`] is that index, or [`PASS`] (64).
//! Notation: OBF (see [`obf`]).
//!
//! The position is four words (the mover's discs, the other side's discs,
//! the side to move and the Zobrist hash, which a move updates from the
//! discs it flips) so cloning and replaying are cheap for the tree
//! searches, which rebuild positions by replaying moves and hash every
//! child they generate.

pub mod bitboard;
pub mod eval;
pub mod obf;
pub mod random;
#[cfg(target_arch = "x86_64")]
mod sse2;

use super::{Game, GameKind, MoveError, Outcome, ParseError, Player};
use bitboard::{discs_key, flips, move_key, move_mask, WHITE_TO_MOVE_KEY};

/// The pass move.
pub const PASS: u8 = 64;

/// An Othello position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    /// Discs of the side to move.
    mover: u64,
    /// Discs of the other side.
    other: u64,
    /// The side to move.
    side: Player,
    /// The Zobrist hash of the above ([`Othello::zobrist`]), kept up to
    /// date by every move.
    key: u64,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::start()
    }
}

impl Othello {
    /// The standard start position, Black to move:
    /// `---------------------------OX------XO--------------------------- X`.
    pub fn start() -> Othello {
        // d4 = 27 and e5 = 36 White; e4 = 28 and d5 = 35 Black.
        Othello::from_bitboards(1 << 28 | 1 << 35, 1 << 27 | 1 << 36, Player::First)
    }

    /// A position from Black's and White's discs (bit i = square i) and
    /// the side to move. A square on both boards counts as Black's.
    pub fn from_bitboards(black: u64, white: u64, side: Player) -> Othello {
        let white = white & !black;
        let (mover, other) = match side {
            Player::First => (black, white),
            Player::Second => (white, black),
        };
        let mut g = Othello {
            mover,
            other,
            side,
            key: 0,
        };
        g.key = g.zobrist();
        g
    }

    /// The Zobrist hash computed from the discs: the XOR of one key per
    /// disc and colour, and one more when White is to move.
    fn zobrist(&self) -> u64 {
        let h = discs_key(0, self.discs_of(Player::First))
            ^ discs_key(1, self.discs_of(Player::Second));
        match self.side {
            Player::First => h,
            Player::Second => h ^ WHITE_TO_MOVE_KEY,
        }
    }

    /// Parses OBF (see [`obf::parse`]): 64 squares `X`/`O`/`-`, a space,
    /// the side to move; surrounding whitespace and a `;` comment are
    /// ignored.
    pub fn parse(text: &str) -> Result<Othello, ParseError> {
        obf::parse(text)
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Player {
        self.side
    }

    /// The discs of player `p` as a bitboard.
    #[inline]
    pub fn discs_of(&self, p: Player) -> u64 {
        if p == self.side {
            self.mover
        } else {
            self.other
        }
    }

    /// Number of discs of player `p`.
    pub fn disc_count(&self, p: Player) -> u32 {
        self.discs_of(p).count_ones()
    }

    /// Number of empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.mover | self.other).count_ones()
    }

    /// Contents of square `i` (0..63): `Some(player)`, or `None` if empty
    /// (or off the board).
    pub fn square(&self, i: u8) -> Option<Player> {
        let bit = 1u64.checked_shl(u32::from(i)).unwrap_or(0);
        if self.mover & bit != 0 {
            Some(self.side)
        } else if self.other & bit != 0 {
            Some(self.side.other())
        } else {
            None
        }
    }

    /// The squares where the side to move may play (0 when it must pass or
    /// the game is over), for board painters and fast move loops.
    #[inline]
    pub fn legal_move_mask(&self) -> u64 {
        move_mask(self.mover, self.other)
    }

    /// The discs a move on square `sq` would turn over (0 if illegal).
    pub fn flips_of(&self, sq: u8) -> u64 {
        if sq >= PASS || (self.mover | self.other) >> sq & 1 == 1 {
            return 0;
        }
        flips(self.mover, self.other, sq as u32)
    }

    /// Name of a square or move: `a1`…`h8`, `pass`.
    pub fn square_name(m: u8) -> String {
        obf::square_name(m)
    }

    /// The final score (see the module doc) of the discs as they stand.
    #[inline]
    fn final_outcome(&self) -> Outcome {
        let black = self.discs_of(Player::First).count_ones() as i32;
        let white = self.discs_of(Player::Second).count_ones() as i32;
        let empties = 64 - black - white;
        let score = match black.cmp(&white) {
            std::cmp::Ordering::Greater => black - white + empties,
            std::cmp::Ordering::Less => black - white - empties,
            std::cmp::Ordering::Equal => 0,
        };
        Outcome { score }
    }

    /// Swaps the side to move (a pass).
    #[inline]
    fn swap_sides(&mut self) {
        std::mem::swap(&mut self.mover, &mut self.other);
        self.side = self.side.other();
        self.key ^= WHITE_TO_MOVE_KEY;
    }
}

impl Game for Othello {
    /// Square index 0..63 (a1 = 0, h8 = 63) or [`PASS`].
    type Move = u8;

    fn kind(&self) -> GameKind {
        GameKind::Othello
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.side
    }

    /// Ascending square order; `[PASS]` when only the opponent can move.
    fn legal_moves(&self, out: &mut Vec<u8>) {
        let mut mask = move_mask(self.mover, self.other);
        if mask == 0 {
            if move_mask(self.other, self.mover) != 0 {
                out.push(PASS);
            }
            return;
        }
        while mask != 0 {
            out.push(mask.trailing_zeros() as u8);
            mask &= mask - 1;
        }
    }

    #[inline]
    fn play(&mut self, m: u8) {
        if m < PASS {
            let f = flips(self.mover, self.other, m as u32);
            debug_assert!(
                f != 0 && (self.mover | self.other) >> m & 1 == 0,
                "illegal move {} in {}",
                obf::square_name(m),
                obf::notation(self)
            );
            self.mover |= f | 1u64 << m;
            self.other &= !f;
            self.key ^= move_key(self.side.index(), m as u32, f);
        }
        self.swap_sides();
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if move_mask(self.mover, self.other) != 0 || move_mask(self.other, self.mover) != 0 {
            None
        } else {
            Some(self.final_outcome())
        }
    }

    #[inline]
    fn move_count(&self) -> usize {
        match move_mask(self.mover, self.other).count_ones() {
            0 => usize::from(move_mask(self.other, self.mover) != 0),
            n => n as usize,
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        debug_assert_eq!(self.key, self.zobrist(), "{}", obf::notation(self));
        self.key
    }

    fn format_move(&self, m: u8) -> String {
        obf::square_name(m)
    }

    /// `a1`…`h8` (either case), or `pass` / `PS` / `@@`; must be legal.
    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let m = obf::read_move(text)?;
        let mask = self.legal_move_mask();
        let legal = if m == PASS {
            mask == 0 && move_mask(self.other, self.mover) != 0
        } else {
            mask >> m & 1 == 1
        };
        let why = "it flips no disc, or a pass while a move exists";
        MoveError::unless_illegal(legal, m, text, why)
    }

    fn notation(&self) -> String {
        obf::notation(self)
    }

    fn into_any(self) -> super::AnyPosition {
        super::AnyPosition::Othello(self)
    }
    /// Discs, mobility and corners ([`eval`]).
    #[inline]
    fn evaluate(&self) -> Option<i32> {
        Some(eval::evaluate(
            self.discs_of(Player::First),
            self.discs_of(Player::Second),
        ))
    }

    /// The opponent model's evaluation: the plain disc difference
    /// ([`eval::discs`]), the greedy judgement of a beginner.
    #[inline]
    fn evaluate_model(&self) -> Option<i32> {
        Some(eval::discs(
            self.discs_of(Player::First),
            self.discs_of(Player::Second),
        ))
    }

    /// Corner moves.
    #[inline]
    fn is_tactical(&self, m: u8) -> bool {
        m < PASS && eval::CORNERS >> m & 1 == 1
    }

    /// The disc difference, empties to the winner: at most 64 either way.
    fn score_range(&self) -> Option<(f64, f64)> {
        Some((-64.0, 64.0))
    }

    /// Uniformly random legal moves to the end, picking a random set bit
    /// of the move mask (no move list).
    fn random_playout(&self, rng: &mut dyn rand::RngCore) -> Outcome {
        // Plain boards: a playout never hashes, so it skips the key.
        let (mut mover, mut other) = (self.mover, self.other);
        let mut swapped = false;
        loop {
            let mut mask = move_mask(mover, other);
            if mask == 0 {
                if move_mask(other, mover) == 0 {
                    break;
                }
                std::mem::swap(&mut mover, &mut other);
                swapped = !swapped;
                continue;
            }
            let n = mask.count_ones() as u64;
            for _ in 0..rng.next_u64() % n {
                mask &= mask - 1;
            }
            let sq = mask.trailing_zeros();
            let f = flips(mover, other, sq);
            mover |= f | 1u64 << sq;
            other &= !f;
            std::mem::swap(&mut mover, &mut other);
            swapped = !swapped;
        }
        let side = if swapped {
            self.side.other()
        } else {
            self.side
        };
        let g = Othello {
            mover,
            other,
            side,
            key: 0,
        };
        g.final_outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(g: &Othello) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        v.into_iter().map(obf::square_name).collect()
    }

    #[test]
    fn start_position_has_the_four_textbook_moves() {
        let g = Othello::start();
        assert_eq!(
            g.notation(),
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(moves(&g), ["d3", "c4", "f5", "e6"]);
        assert_eq!(g.disc_count(Player::First), 2);
        assert_eq!(g.empties(), 60);
        assert_eq!(g.square(27), Some(Player::Second)); // d4
        assert_eq!(g.square(64), None);
        assert_eq!(g.square(28), Some(Player::First)); // e4
    }

    #[test]
    fn a_move_flips_the_flanked_disc_and_passes_the_turn() {
        let mut g = Othello::start();
        g.play(g.parse_move("D3").unwrap());
        // d3 flanks d4 between d3 and d5: Black now has d3, d4, d5, e4.
        assert_eq!(
            g.notation(),
            "-------------------X-------XX------XO--------------------------- O"
        );
        assert_eq!(g.disc_count(Player::First), 4);
        assert_eq!(g.disc_count(Player::Second), 1);
        assert_eq!(moves(&g), ["c3", "e3", "c5"]);
    }

    #[test]
    fn move_names_and_pass_spellings() {
        assert_eq!(obf::read_move("a1"), Ok(0));
        assert_eq!(obf::read_move("H8"), Ok(63));
        assert_eq!(obf::read_move("b1"), Ok(1));
        assert_eq!(obf::read_move("a2"), Ok(8));
        for p in ["pass", "PASS", "ps", "PS", "@@"] {
            assert_eq!(obf::read_move(p), Ok(PASS));
        }
        assert!(obf::read_move("i1").is_err());
        assert!(obf::read_move("a9").is_err());
        assert!(Othello::start().parse_move("a1").is_err());
        assert!(Othello::start().parse_move("pass").is_err());
    }

    #[test]
    fn hash_tells_the_side_to_move_apart() {
        let g = Othello::start();
        let mut p = g;
        p.swap_sides();
        assert_ne!(g.hash(), p.hash());
        assert_eq!(g.hash(), Othello::start().hash());
    }
}
