//! A static evaluation for alpha-beta and single conspiracy numbers:
//! material plus piece-square terms, from Red's point of view, on the
//! project's evaluation scale ([`crate::game::eval`]), where a won game is
//! worth [`WIN`] = 10000; a rook is worth 600. It is the game's
//! [`Game::evaluate`](crate::game::Game::evaluate); captures are its
//! tactical moves ([`Game::is_tactical`](crate::game::Game::is_tactical)).
//!
//! Where the numbers come from:
//! - Material (pawn 30, advisor 120, elephant 120, horse 270, cannon 285,
//!   rook 600) are the piece values of Yen, Chen, Yang and Hsu (2004),
//!   "Computer Chinese Chess", ICGA Journal 27(1). The general carries no
//!   material term: both generals are always on the board.
//! - Piece-square tables for pawns, horses, cannons and rooks are those of
//!   Li Cuanqi (2008), "Using AdaBoost to implement Chinese chess
//!   evaluation functions" (UCLA thesis), as transcribed in the Wukong
//!   xiangqi engine (github.com/maksimKorzh/wukong-xiangqi,
//!   `src/engine/wukong.js` @05fba8bd11a5d5968775ef9d34ff5678dd17b078,
//!   MIT licence), which pairs them with the material values above.
//!   Advisors, elephants and the general have no table there, nor here.
//!
//! Tables are written as the board is drawn with Red at the bottom: row 0
//! is rank 9 (Black's back rank), row 9 is rank 0, columns are files a…i.
//! A Red piece on (file, rank) reads `TABLE[9 - rank][file]`; a Black
//! piece reads the table upside down, `TABLE[rank][file]` (every table is
//! symmetric left to right, so files need no mirroring). The scores are
//! sums of these numbers for Red minus those for Black.
//!
//! The evaluation is static: it does not look at whether the game has
//! ended (a search asks [`Game::outcome`](crate::game::Game::outcome) and
//! scores a finished game ±[`WIN`]). All material on the board is worth
//! about 3,000 with the piece-square terms, so values stay well inside
//! ±[`WIN`].

use super::board::{
    file_of, from_of, rank_of, to_of, Move, ADVISOR, BLACK, CANNON, ELEPHANT, EMPTY, HORSE, KING,
    PAWN, POINTS, ROOK,
};
use super::Xiangqi;

pub use crate::game::eval::WIN;

/// Material by piece kind (index = kind; 0 and the general unused).
pub const MATERIAL: [i32; 8] = [0, 0, 120, 120, 270, 600, 285, 30];

/// The material value of a piece kind.
#[inline]
pub fn material(kind: u8) -> i32 {
    MATERIAL[(kind & 7) as usize]
}

/// Pawn piece-square table (row 0 = rank 9, Red's view).
#[rustfmt::skip]
pub const PAWN_TABLE: [[i32; 9]; 10] = [
    [ 0,  3,  6,  9,  12,  9,  6,  3,  0],
    [18, 36, 56, 80, 120, 80, 56, 36, 18],
    [14, 26, 42, 60,  80, 60, 42, 26, 14],
    [10, 20, 30, 34,  40, 34, 30, 20, 10],
    [ 6, 12, 18, 18,  20, 18, 18, 12,  6],
    [ 2,  0,  8,  0,   8,  0,  8,  0,  2],
    [ 0,  0, -2,  0,   4,  0, -2,  0,  0],
    [ 0,  0,  0,  0,   0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,   0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,   0,  0,  0,  0,  0],
];

/// Horse piece-square table (row 0 = rank 9, Red's view).
#[rustfmt::skip]
pub const HORSE_TABLE: [[i32; 9]; 10] = [
    [ 4,  8, 16, 12,  4, 12, 16,  8,  4],
    [ 4, 10, 28, 16,  8, 16, 28, 10,  4],
    [12, 14, 16, 20, 18, 20, 16, 14, 12],
    [ 8, 24, 18, 24, 20, 24, 18, 24,  8],
    [ 6, 16, 14, 18, 16, 18, 14, 16,  6],
    [ 4, 12, 16, 14, 12, 14, 16, 12,  4],
    [ 2,  6,  8,  6, 10,  6,  8,  6,  2],
    [ 4,  2,  8,  8,  4,  8,  8,  2,  4],
    [ 0,  2,  4,  4, -2,  4,  4,  2,  0],
    [ 0, -4,  0,  0,  0,  0,  0, -4,  0],
];

/// Cannon piece-square table (row 0 = rank 9, Red's view).
#[rustfmt::skip]
pub const CANNON_TABLE: [[i32; 9]; 10] = [
    [ 6,  4,  0, -10, -12, -10,  0,  4,  6],
    [ 2,  2,  0,  -4, -14,  -4,  0,  2,  2],
    [ 2,  2,  0, -10,  -8, -10,  0,  2,  2],
    [ 0,  0, -2,   4,  10,   4, -2,  0,  0],
    [ 0,  0,  0,   2,   8,   2,  0,  0,  0],
    [-2,  0,  4,   2,   6,   2,  4,  0, -2],
    [ 0,  0,  0,   2,   4,   2,  0,  0,  0],
    [ 4,  0,  8,   6,  10,   6,  8,  0,  4],
    [ 0,  2,  4,   6,   6,   6,  4,  2,  0],
    [ 0,  0,  2,   6,   6,   6,  2,  0,  0],
];

/// Rook piece-square table (row 0 = rank 9, Red's view).
#[rustfmt::skip]
pub const ROOK_TABLE: [[i32; 9]; 10] = [
    [14, 14, 12, 18, 16, 18, 12, 14, 14],
    [16, 20, 18, 24, 26, 24, 18, 20, 16],
    [12, 12, 12, 18, 18, 18, 12, 12, 12],
    [12, 18, 16, 22, 22, 22, 16, 18, 12],
    [12, 14, 12, 18, 18, 18, 12, 14, 12],
    [12, 16, 14, 20, 20, 20, 14, 16, 12],
    [ 6, 10,  8, 14, 14, 14,  8, 10,  6],
    [ 4,  8,  6, 14, 12, 14,  6,  8,  4],
    [ 8,  4,  8, 16,  8, 16,  8,  4,  8],
    [-2, 10,  6, 14, 12, 14,  6, 10, -2],
];

/// The positional term of a piece on (file, rank) for its own side.
#[inline]
pub fn square_value(piece: u8, file: usize, rank: usize) -> i32 {
    let row = if piece & BLACK != 0 { rank } else { 9 - rank };
    match piece & 7 {
        PAWN => PAWN_TABLE[row][file],
        HORSE => HORSE_TABLE[row][file],
        CANNON => CANNON_TABLE[row][file],
        ROOK => ROOK_TABLE[row][file],
        KING | ADVISOR | ELEPHANT => 0,
        _ => 0,
    }
}

/// Material plus position of one piece, signed for Red's view.
#[inline]
fn piece_score(piece: u8, file: usize, rank: usize) -> i32 {
    let v = material(piece) + square_value(piece, file, rank);
    if piece & BLACK != 0 {
        -v
    } else {
        v
    }
}

/// [`square_value`] in a constant context (the tables below are built at
/// compile time from it).
const fn square_value_const(kind: u8, black: bool, file: usize, rank: usize) -> i32 {
    let row = if black { rank } else { 9 - rank };
    match kind {
        PAWN => PAWN_TABLE[row][file],
        HORSE => HORSE_TABLE[row][file],
        CANNON => CANNON_TABLE[row][file],
        ROOK => ROOK_TABLE[row][file],
        _ => 0,
    }
}

const fn build_piece_scores() -> [[i32; POINTS]; 14] {
    let mut t = [[0i32; POINTS]; 14];
    let mut i = 0;
    while i < 14 {
        let kind = (i % 7) as u8 + 1;
        let black = i >= 7;
        let mut p = 0;
        while p < POINTS {
            let v = MATERIAL[kind as usize] + square_value_const(kind, black, p % 9, p / 9);
            t[i][p] = if black { -v } else { v };
            p += 1;
        }
        i += 1;
    }
    t
}

/// `PIECE_SCORES[piece index][point]`: material plus position of a piece
/// (index as the Zobrist keys': kind − 1, plus 7 for Black) on a compact
/// point, signed for Red's view: what [`Board::make`](super::board::Board::make)
/// adds and subtracts to keep the evaluation up to date.
pub static PIECE_SCORES: [[i32; POINTS]; 14] = build_piece_scores();

impl Xiangqi {
    /// The static evaluation from Red's point of view (see [`eval`](self)):
    /// material plus piece-square terms, |value| well below [`WIN`]. The
    /// game's [`Game::evaluate`](crate::game::Game::evaluate) returns it.
    /// The board keeps it up to date move by move (each move changes at
    /// most three piece terms), so this is one read; it always equals
    /// [`Xiangqi::static_eval_from_scratch`].
    #[inline]
    pub fn static_eval(&self) -> i32 {
        self.board().score()
    }

    /// The static evaluation summed over every piece on the board (the
    /// definition; the tests check the incremental value against it).
    pub fn static_eval_from_scratch(&self) -> i32 {
        self.board()
            .pieces()
            .map(|(p, piece)| piece_score(piece, p % 9, p / 9))
            .sum()
    }

    /// A move-ordering hint (larger = try first): checks first, then
    /// captures of valuable pieces by cheap ones (most valuable victim,
    /// least valuable attacker), then quiet moves by how much the mover's
    /// piece-square term improves. Searches may sort by it or use it to
    /// initialise numbers; the legal-move order itself stays fixed.
    pub fn ordering_hint(&self, m: Move) -> i32 {
        let b = self.board();
        let (from, to) = (from_of(m), to_of(m));
        let piece = b.at(from);
        let victim = b.at(to);
        let mut hint = 0;
        if self.gives_check(m) {
            hint += 2 * WIN;
        }
        if victim != EMPTY {
            hint += WIN + 10 * material(victim) - material(piece) / 10;
        }
        hint + square_value(piece, file_of(to), rank_of(to))
            - square_value(piece, file_of(from), rank_of(from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Every table is symmetric left to right (so Black's pieces need no
    /// file mirroring), as the source's tables are.
    #[test]
    fn tables_are_symmetric() {
        for t in [PAWN_TABLE, HORSE_TABLE, CANNON_TABLE, ROOK_TABLE] {
            for row in t {
                for f in 0..9 {
                    assert_eq!(row[f], row[8 - f]);
                }
            }
        }
    }

    /// The start position is symmetric between the sides: 0.
    #[test]
    fn start_is_even() {
        assert_eq!(Xiangqi::start().static_eval(), 0);
    }

    /// Mirroring a position (colours swapped, board turned upside down)
    /// negates the evaluation; an extra rook is worth about 600.
    #[test]
    fn mirror_negates_and_material_counts() {
        let red = Xiangqi::parse("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let black = Xiangqi::parse("r3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap();
        assert_eq!(red.static_eval(), -black.static_eval());
        assert_eq!(red.static_eval(), 600 + ROOK_TABLE[9][0]);
        assert!(WIN > 10 * red.static_eval());
    }

    /// A capture of a rook is tried before a quiet move.
    #[test]
    fn captures_come_first_in_the_hint() {
        let g = Xiangqi::parse("3k5/9/9/9/r8/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let take = g.parse_move("a0a5").unwrap();
        let quiet = g.parse_move("a0a1").unwrap();
        assert!(g.is_capture(take) && !g.is_capture(quiet));
        assert!(g.ordering_hint(take) > g.ordering_hint(quiet));
    }
}
