//! The xiangqi board: a padded mailbox with an incremental Zobrist hash.
//!
//! The 9 × 10 points live in rows of 11 cells: the two cells between the
//! i file of one row and the a file of the next are padding, as are two
//! whole rows above and below the board (and two cells at each end), all
//! holding [`OFF`]. So any step of up to two files and two ranks from any
//! point lands inside the array on the board or on [`OFF`], and move
//! generation and attack tests need no bounds checks: rays stop at the
//! first non-empty cell, and [`OFF`] is never a piece of either side.
//!
//! Points are also numbered compactly `0..90` = `rank * 9 + file` (a0 = 0,
//! i0 = 8, a1 = 9, …, i9 = 89): the occupancy sets of each side are
//! 90-bit masks in a `u128`, so generators visit the pieces of the side to
//! move in ascending order without scanning empty points.
//!
//! Ranks count from Red's side (rank 0 = Red's back rank, at the bottom of
//! the array) and files a…i from Red's left, as in UCCI move coordinates.

use crate::game::mix::zobrist_key;
use crate::game::Player;

/// Cells per row of the padded array (9 files and two padding cells).
pub const WIDTH: usize = 11;
/// Cells of the padded array.
pub const CELLS: usize = WIDTH * 14 + 2;
/// Number of points on the board.
pub const POINTS: usize = 90;

/// Piece kinds (low three bits of a cell).
pub const KING: u8 = 1;
/// Advisor (guard): one diagonal step inside the palace.
pub const ADVISOR: u8 = 2;
/// Elephant (minister): two diagonal steps on its own side, blocked by the eye.
pub const ELEPHANT: u8 = 3;
/// Horse: one orthogonal then one diagonal step, blocked by the leg.
pub const HORSE: u8 = 4;
/// Rook (chariot): any distance orthogonally.
pub const ROOK: u8 = 5;
/// Cannon: moves like a rook, captures by jumping exactly one screen.
pub const CANNON: u8 = 6;
/// Pawn (soldier): forward; also sideways once across the river.
pub const PAWN: u8 = 7;

/// Colour bit of Red's pieces.
pub const RED: u8 = 8;
/// Colour bit of Black's pieces.
pub const BLACK: u8 = 16;
/// An empty point.
pub const EMPTY: u8 = 0;
/// A padding cell outside the board.
pub const OFF: u8 = 32;

/// One file to the right (towards i).
pub const EAST: isize = 1;
/// One rank up (towards Black).
pub const NORTH: isize = WIDTH as isize;
/// The four orthogonal steps.
pub const ORTHOGONAL: [isize; 4] = [NORTH, EAST, -NORTH, -EAST];
/// The four diagonal steps, as (vertical, horizontal) parts.
pub const DIAGONAL: [(isize, isize); 4] = [
    (NORTH, EAST),
    (NORTH, -EAST),
    (-NORTH, EAST),
    (-NORTH, -EAST),
];

/// A move: origin cell in the low byte, target cell in the high byte
/// (padded indices). 0 is not a move (the arena's default).
pub type Move = u16;

/// Encodes a move from padded cells.
#[inline(always)]
pub fn encode(from: usize, to: usize) -> Move {
    (from | to << 8) as Move
}

/// Origin cell of a move.
#[inline(always)]
pub fn from_of(m: Move) -> usize {
    (m & 0xFF) as usize
}

/// Target cell of a move.
#[inline(always)]
pub fn to_of(m: Move) -> usize {
    (m >> 8) as usize
}

/// The colour bit of a player (Red moves first).
#[inline(always)]
pub fn color_bit(p: Player) -> u8 {
    match p {
        Player::First => RED,
        Player::Second => BLACK,
    }
}

/// The padded cell of a point (file 0..9, rank 0..10).
#[inline(always)]
pub const fn cell(file: usize, rank: usize) -> usize {
    (rank + 2) * WIDTH + file + 2
}

/// File (0 = a) of a padded cell on the board.
#[inline(always)]
pub const fn file_of(c: usize) -> usize {
    c % WIDTH - 2
}

/// Rank (0 = Red's back rank) of a padded cell on the board.
#[inline(always)]
pub const fn rank_of(c: usize) -> usize {
    c / WIDTH - 2
}

/// A cell moved by a step.
#[inline(always)]
pub fn step(c: usize, d: isize) -> usize {
    c.wrapping_add_signed(d)
}

/// Square-property flags of a padded cell.
const ON_BOARD: u8 = 1;
/// Palace flag of Red (Black's is the next bit).
const PALACE: u8 = 2;
/// Own-half flag of Red (ranks 0–4; Black's, ranks 5–9, is the next bit).
const HALF: u8 = 8;

const fn build_flags() -> [u8; CELLS] {
    let mut t = [0u8; CELLS];
    let mut rank = 0;
    while rank < 10 {
        let mut file = 0;
        while file < 9 {
            let mut f = ON_BOARD;
            if file >= 3 && file <= 5 {
                if rank <= 2 {
                    f |= PALACE;
                }
                if rank >= 7 {
                    f |= PALACE << 1;
                }
            }
            f |= if rank <= 4 { HALF } else { HALF << 1 };
            t[cell(file, rank)] = f;
            file += 1;
        }
        rank += 1;
    }
    t
}

/// Flags of every padded cell.
static FLAGS: [u8; CELLS] = build_flags();

const fn build_point_of() -> [u8; CELLS] {
    let mut t = [u8::MAX; CELLS];
    let mut p = 0;
    while p < POINTS {
        t[cell(p % 9, p / 9)] = p as u8;
        p += 1;
    }
    t
}

/// Compact point `0..90` of each padded cell (255 off the board).
static POINT_OF: [u8; CELLS] = build_point_of();

const fn build_cell_of() -> [u8; POINTS] {
    let mut t = [0u8; POINTS];
    let mut p = 0;
    while p < POINTS {
        t[p] = cell(p % 9, p / 9) as u8;
        p += 1;
    }
    t
}

/// Padded cell of each compact point.
static CELL_OF: [u8; POINTS] = build_cell_of();

/// Whether a padded cell is on the board.
#[inline(always)]
pub fn on_board(c: usize) -> bool {
    c < CELLS && FLAGS[c] & ON_BOARD != 0
}

/// Whether cell `c` lies in the palace of colour index `side` (0 Red, 1 Black).
#[inline(always)]
pub fn in_palace(c: usize, side: usize) -> bool {
    FLAGS[c] & (PALACE << side) != 0
}

/// Whether cell `c` lies on the own half (before the river) of colour
/// index `side`.
#[inline(always)]
pub fn on_own_half(c: usize, side: usize) -> bool {
    FLAGS[c] & (HALF << side) != 0
}

/// Compact point of an on-board cell.
#[inline(always)]
pub fn point_of(c: usize) -> usize {
    POINT_OF[c] as usize
}

/// Padded cell of a compact point.
#[inline(always)]
pub fn cell_of(p: usize) -> usize {
    CELL_OF[p] as usize
}

/// Index 0..14 of a piece for the Zobrist table (kind − 1, plus 7 for Black).
#[inline(always)]
const fn piece_index(piece: u8) -> usize {
    ((piece & 7) as usize - 1) + if piece & BLACK != 0 { 7 } else { 0 }
}

/// Salt that keeps xiangqi's Zobrist keys apart from other games'.
const ZOBRIST_SALT: u64 = 0x5851_0000_0000_0000;

const fn build_keys() -> [[u64; POINTS]; 14] {
    let mut t = [[0u64; POINTS]; 14];
    let mut i = 0;
    while i < 14 {
        let mut p = 0;
        while p < POINTS {
            t[i][p] = zobrist_key(ZOBRIST_SALT ^ (i * POINTS + p) as u64);
            p += 1;
        }
        i += 1;
    }
    t
}

/// Zobrist keys: one per piece and point.
static KEYS: [[u64; POINTS]; 14] = build_keys();

/// The key XORed in when Black is to move.
pub const BLACK_TO_MOVE_KEY: u64 = zobrist_key(ZOBRIST_SALT ^ (14 * POINTS) as u64);

/// Material plus position of `piece` on cell `c`, Red's view.
#[inline(always)]
fn piece_score(piece: u8, c: usize) -> i32 {
    super::eval::PIECE_SCORES[piece_index(piece)][point_of(c)]
}

/// The Zobrist key of `piece` on cell `c`.
#[inline(always)]
pub fn piece_key(piece: u8, c: usize) -> u64 {
    KEYS[piece_index(piece)][point_of(c)]
}

/// A xiangqi position without history: pieces, side to move, both
/// generals' cells, the occupancy of each side and the Zobrist hash, kept
/// up to date by [`Board::make`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    cells: [u8; CELLS],
    /// Occupied points of Red (index 0) and Black (index 1), bit = point.
    occ: [u128; 2],
    /// The cell of each side's general.
    kings: [u8; 2],
    side: Player,
    key: u64,
    /// The static evaluation, Red's view (material plus piece-square
    /// terms, [`super::eval`]), kept up to date by [`Board::make`].
    score: i32,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", super::fen::write(self))
    }
}

impl Board {
    /// A board from a piece at each point (`pieces[point]`, 0 = empty) and
    /// the side to move. The caller (the FEN reader) has checked that each
    /// side has exactly one general.
    pub fn from_points(pieces: &[u8; POINTS], side: Player) -> Board {
        let mut cells = [OFF; CELLS];
        let mut occ = [0u128; 2];
        let mut kings = [0u8; 2];
        let mut score = 0;
        let mut key = if side == Player::Second {
            BLACK_TO_MOVE_KEY
        } else {
            0
        };
        for (p, &piece) in pieces.iter().enumerate() {
            let c = cell_of(p);
            cells[c] = piece;
            if piece != EMPTY {
                let s = usize::from(piece & BLACK != 0);
                occ[s] |= 1u128 << p;
                if piece & 7 == KING {
                    kings[s] = c as u8;
                }
                key ^= piece_key(piece, c);
                score += piece_score(piece, c);
            }
        }
        Board {
            cells,
            occ,
            kings,
            side,
            key,
            score,
        }
    }

    /// The static evaluation, Red's view ([`super::eval`]), as kept up to
    /// date move by move.
    #[inline(always)]
    pub fn score(&self) -> i32 {
        self.score
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Player {
        self.side
    }

    /// The Zobrist hash (pieces and side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The hash computed from scratch (tests compare it with [`Board::key`]).
    pub fn recompute_key(&self) -> u64 {
        let mut key = if self.side == Player::Second {
            BLACK_TO_MOVE_KEY
        } else {
            0
        };
        for (p, piece) in self.pieces() {
            key ^= piece_key(piece, cell_of(p));
        }
        key
    }

    /// Every piece on the board with its point (0..[`POINTS`], row by row
    /// from rank 0), in point order: for the sums that define the hash and
    /// the evaluations, which the search itself keeps incrementally.
    pub fn pieces(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        (0..POINTS)
            .map(|p| (p, self.cells[cell_of(p)]))
            .filter(|&(_, piece)| piece != EMPTY)
    }

    /// The content of a padded cell (a piece, [`EMPTY`] or [`OFF`]).
    #[inline(always)]
    pub fn at(&self, c: usize) -> u8 {
        self.cells[c]
    }

    /// The piece on (file, rank), or [`EMPTY`].
    pub fn piece_at(&self, file: usize, rank: usize) -> u8 {
        if file < 9 && rank < 10 {
            self.cells[cell(file, rank)]
        } else {
            EMPTY
        }
    }

    /// The cells array (for the attack test on a scratch copy).
    #[inline(always)]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The occupied points of colour index `s` (0 Red, 1 Black).
    #[inline(always)]
    pub fn occupancy(&self, s: usize) -> u128 {
        self.occ[s]
    }

    /// The cell of the general of colour index `s`.
    #[inline(always)]
    pub fn king(&self, s: usize) -> usize {
        self.kings[s] as usize
    }

    /// Whether the side to move's general is attacked.
    #[inline]
    pub fn in_check(&self) -> bool {
        let s = self.side.index();
        attacked(&self.cells, self.king(s), color_bit(self.side.other()))
    }

    /// Whether the general of the side *not* to move is attacked (an
    /// impossible position: the side to move could take it).
    pub fn opponent_in_check(&self) -> bool {
        let s = self.side.other().index();
        attacked(&self.cells, self.king(s), color_bit(self.side))
    }

    /// Plays a (legal) move: moves the piece, removes a captured one,
    /// updates occupancy, generals and hash, and passes the turn. Returns
    /// the captured piece or [`EMPTY`].
    #[inline]
    pub fn make(&mut self, m: Move) -> u8 {
        let (from, to) = (from_of(m), to_of(m));
        let piece = self.cells[from];
        let captured = self.cells[to];
        debug_assert!(piece != EMPTY && piece != OFF, "no piece on the origin");
        let us = self.side.index();
        self.cells[to] = piece;
        self.cells[from] = EMPTY;
        let (bf, bt) = (1u128 << point_of(from), 1u128 << point_of(to));
        self.occ[us] ^= bf | bt;
        self.key ^= piece_key(piece, from) ^ piece_key(piece, to) ^ BLACK_TO_MOVE_KEY;
        self.score += piece_score(piece, to) - piece_score(piece, from);
        if captured != EMPTY {
            self.occ[us ^ 1] &= !bt;
            self.key ^= piece_key(captured, to);
            self.score -= piece_score(captured, to);
        }
        if piece & 7 == KING {
            self.kings[us] = to as u8;
        }
        self.side = self.side.other();
        captured
    }
}

/// Whether cell `c` is attacked by the pieces of colour `by` ([`RED`] or
/// [`BLACK`]) on `cells`: a rook or the enemy general (flying general)
/// first on a line, a cannon second on a line, a horse whose leg is free,
/// or a pawn in front of `c` or (once across the river) beside it.
/// Advisors and elephants never leave their own half, so they cannot reach
/// a general; only the generals' cells are ever asked about.
#[inline]
pub fn attacked(cells: &[u8; CELLS], c: usize, by: u8) -> bool {
    ORTHOGONAL.iter().any(|&d| ray_attacked(cells, c, d, by))
        || horse_attacks(cells, c, by)
        || pawn_attacks(cells, c, by)
}

/// Whether a piece of colour `by` attacks cell `c` along the ray from `c`
/// in direction `d`: a rook or the enemy general first on the ray (the
/// flying general), or a cannon second.
#[inline(always)]
pub fn ray_attacked(cells: &[u8; CELLS], c: usize, d: isize, by: u8) -> bool {
    let mut t = step(c, d);
    while cells[t] == EMPTY {
        t = step(t, d);
    }
    let p = cells[t];
    if p == OFF {
        return false;
    }
    if p == by | ROOK || p == by | KING {
        return true;
    }
    t = step(t, d);
    while cells[t] == EMPTY {
        t = step(t, d);
    }
    cells[t] == by | CANNON
}

/// Whether a horse of colour `by` attacks cell `c` (its leg, the point
/// diagonally next to `c` on the horse's side, being free).
#[inline(always)]
pub fn horse_attacks(cells: &[u8; CELLS], c: usize, by: u8) -> bool {
    let horse = by | HORSE;
    DIAGONAL.iter().any(|&(v, h)| {
        let leg = step(c, v + h);
        cells[leg] == EMPTY && (cells[step(leg, h)] == horse || cells[step(leg, v)] == horse)
    })
}

/// Whether a pawn of colour `by` attacks cell `c`: an enemy pawn moves
/// forward towards `c`'s side, so it attacks from the point behind `c` as
/// seen from the pawn, and from beside `c` once across the river.
#[inline(always)]
fn pawn_attacks(cells: &[u8; CELLS], c: usize, by: u8) -> bool {
    let pawn = by | PAWN;
    let forward = if by == RED { NORTH } else { -NORTH };
    if cells[step(c, -forward)] == pawn {
        return true;
    }
    let defender = usize::from(by == RED);
    on_own_half(c, defender) && (cells[step(c, EAST)] == pawn || cells[step(c, -EAST)] == pawn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_points_map_both_ways() {
        for p in 0..POINTS {
            let c = cell_of(p);
            assert!(on_board(c));
            assert_eq!(point_of(c), p);
            assert_eq!((file_of(c), rank_of(c)), (p % 9, p / 9));
        }
        assert_eq!((0..CELLS).filter(|&c| on_board(c)).count(), POINTS);
    }

    #[test]
    fn palaces_and_halves() {
        let palace = |s| (0..CELLS).filter(|&c| in_palace(c, s)).count();
        assert_eq!((palace(0), palace(1)), (9, 9));
        assert!(in_palace(cell(4, 0), 0) && in_palace(cell(3, 9), 1));
        assert!(!in_palace(cell(2, 0), 0) && !in_palace(cell(4, 3), 0));
        assert!(on_own_half(cell(0, 4), 0) && !on_own_half(cell(0, 5), 0));
        assert!(on_own_half(cell(0, 5), 1) && !on_own_half(cell(0, 4), 1));
    }

    /// Every jump a piece can make from any point (horse: ±2/±1 in both
    /// orders; elephant ±2/±2) stays inside the padded array.
    #[test]
    fn jumps_stay_inside_the_padding() {
        for p in 0..POINTS {
            let c = cell_of(p) as isize;
            for dv in -2isize..=2 {
                for dh in -2isize..=2 {
                    let t = c + dv * NORTH + dh;
                    assert!((0..CELLS as isize).contains(&t), "{p} {dv} {dh}");
                }
            }
        }
    }
}
