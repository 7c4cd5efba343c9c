//! Bitboard primitives for 8×8 Othello: legal-move masks, the discs a move
//! flips, and Zobrist keys.
//!
//! Square `i` is bit `i`, with `i = 8 * row + column`, a1 = 0, b1 = 1, …,
//! h1 = 7, a2 = 8, …, h8 = 63 (OBF order). A move is legal when it flanks at
//! least one contiguous run of opponent discs in one of the eight
//! directions, the run being closed by one of the mover's discs.
//!
//! Every function works direction by direction with whole-board shifts.
//! Shifting by ±1, ±7 or ±9 would wrap a disc from the h file onto the
//! a file of the next row (or back); masking the opponent's discs with the
//! b…g files ([`INNER_FILES`]) stops every run before it could cross an
//! edge, since a run of flanked discs never contains an edge square in the
//! direction of travel. Vertical shifts (±8) simply fall off the board.

/// Files b…g on every row.
pub const INNER_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The eight directions as (shift, mask applied to the opponent's discs);
/// each shift is used both leftwards (towards h8) and rightwards.
const DIRECTIONS: [(u32, u64); 4] = [
    (1, INNER_FILES),
    (8, u64::MAX),
    (7, INNER_FILES),
    (9, INNER_FILES),
];

/// The opponent discs in the run that starts next to `from` (towards
/// higher square indices by `s`), through discs in `m` only: up to six
/// squares, filled in 4 steps by doubling the run length.
#[inline(always)]
pub(super) fn run_up(from: u64, m: u64, s: u32) -> u64 {
    let mut t = m & (from << s);
    t |= m & (t << s);
    let mm = m & (m << s);
    t |= mm & (t << (2 * s));
    t |= mm & (t << (2 * s));
    t
}

/// [`run_up`] towards lower square indices.
#[inline(always)]
pub(super) fn run_down(from: u64, m: u64, s: u32) -> u64 {
    let mut t = m & (from >> s);
    t |= m & (t >> s);
    let mm = m & (m >> s);
    t |= mm & (t >> (2 * s));
    t |= mm & (t >> (2 * s));
    t
}

/// The squares where the player owning `mover` may play against `other`.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn move_mask(mover: u64, other: u64) -> u64 {
    super::sse2::move_mask(mover, other)
}

/// The squares where the player owning `mover` may play against `other`.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn move_mask(mover: u64, other: u64) -> u64 {
    move_mask_scalar(mover, other)
}

/// [`move_mask`] one direction at a time in plain 64-bit words.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
pub fn move_mask_scalar(mover: u64, other: u64) -> u64 {
    let empty = !(mover | other);
    let mut moves = 0u64;
    for (s, mask) in DIRECTIONS {
        let m = other & mask;
        moves |= run_up(mover, m, s) << s;
        moves |= run_down(mover, m, s) >> s;
    }
    moves & empty
}

/// The discs of `other` turned over when the owner of `mover` plays on
/// the empty square `sq` (0 if the move is illegal).
///
/// Per direction, the squares beyond `sq` form a ray ([`RAYS`]); the
/// nearest ray square that is not the opponent's ends the run, which is
/// flipped when that square is the mover's. On the four rays that go
/// towards higher indices the nearest square is the lowest set bit, on the
/// other four the highest: a handful of operations per direction and no
/// edge masks: about half the work of eight shift fills.
#[inline]
pub fn flips(mover: u64, other: u64, sq: u32) -> u64 {
    let rays = &RAYS[sq as usize & 63];
    let mut flipped = 0u64;
    // Branch-free: whether a run is flipped is data the branch predictor
    // cannot learn.
    for &ray in &rays[..4] {
        let stop = ray & !other;
        let first = stop & stop.wrapping_neg();
        let hit = 0u64.wrapping_sub(u64::from(first & mover != 0));
        flipped |= ray & first.wrapping_sub(1) & hit;
    }
    for &ray in &rays[4..] {
        let stop = ray & !other;
        // Bit 0 when there is no stop, and then `stop & mover` is empty.
        let at = 63 - (stop | 1).leading_zeros();
        let hit = 0u64.wrapping_sub((stop & mover) >> at & 1);
        flipped |= ray & (!1u64 << at) & hit;
    }
    flipped
}

/// The (row, column) steps of the eight directions: the first four go
/// towards higher square indices, the last four towards lower ones.
const STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// `RAYS[sq][d]`: the squares beyond `sq` in direction `STEPS[d]` up to
/// the edge of the board.
static RAYS: [[u64; 8]; 64] = rays();

const fn rays() -> [[u64; 8]; 64] {
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = (sq as i32 / 8 + dr, sq as i32 % 8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                t[sq][d] |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Zobrist key number `i` (fixed pseudo-random keys without a table file).
const fn splitmix(i: u64) -> u64 {
    crate::game::mix::zobrist_key(i)
}

/// The Zobrist key of a disc of colour `colour` (0 Black, 1 White) on
/// square `sq`.
const fn square_key(colour: usize, sq: usize) -> u64 {
    splitmix((colour * 64 + sq) as u64 + 0x0711_E110)
}

/// The key XORed in when White is to move.
pub const WHITE_TO_MOVE_KEY: u64 = splitmix(0x0711_E110 + 128);

/// Zobrist keys grouped by byte: `BYTE_KEYS[colour][row][b]` is the XOR of
/// the square keys of the discs whose bits are set in `b` on that row, so
/// a board hashes with 8 lookups per colour instead of one per disc. The
/// result equals the classic per-square Zobrist hash.
static BYTE_KEYS: [[[u64; 256]; 8]; 2] = byte_keys();

const fn byte_keys() -> [[[u64; 256]; 8]; 2] {
    let mut t = [[[0u64; 256]; 8]; 2];
    let mut colour = 0;
    while colour < 2 {
        let mut row = 0;
        while row < 8 {
            let mut b = 0;
            while b < 256 {
                let mut k = 0u64;
                let mut bit = 0;
                while bit < 8 {
                    if b >> bit & 1 == 1 {
                        k ^= square_key(colour, row * 8 + bit);
                    }
                    bit += 1;
                }
                t[colour][row][b] = k;
                b += 1;
            }
            row += 1;
        }
        colour += 1;
    }
    t
}

/// The change of the disc part of the Zobrist hash when the player of
/// colour `colour` (0 Black, 1 White) plays on `sq` and turns over the
/// discs `flipped`: nine table reads instead of a full rehash's sixteen,
/// with no loop over the flipped discs (whose count the branch predictor
/// cannot guess; such a loop measured slower than these fixed reads).
#[inline]
pub fn move_key(colour: usize, sq: u32, flipped: u64) -> u64 {
    let mut h = square_key_of(colour, sq);
    for (row, k) in FLIP_BYTE_KEYS.iter().enumerate() {
        h ^= k[(flipped >> (8 * row)) as usize & 0xFF];
    }
    h
}

/// `FLIP_BYTE_KEYS[row][b]`: the hash change of the discs of the bits of
/// `b` on that row turning over (both colours' keys of each square).
static FLIP_BYTE_KEYS: [[u64; 256]; 8] = flip_byte_keys();

const fn flip_byte_keys() -> [[u64; 256]; 8] {
    let mut t = [[0u64; 256]; 8];
    let mut row = 0;
    while row < 8 {
        let mut b = 0;
        while b < 256 {
            let mut k = 0u64;
            let mut bit = 0;
            while bit < 8 {
                if b >> bit & 1 == 1 {
                    k ^= square_key(0, row * 8 + bit) ^ square_key(1, row * 8 + bit);
                }
                bit += 1;
            }
            t[row][b] = k;
            b += 1;
        }
        row += 1;
    }
    t
}

/// [`square_key`] from a table (no runtime splitmix).
#[inline]
fn square_key_of(colour: usize, sq: u32) -> u64 {
    SQUARE_KEYS[colour & 1][sq as usize & 63]
}

/// `SQUARE_KEYS[colour][sq]` = `square_key(colour, sq)`.
static SQUARE_KEYS: [[u64; 64]; 2] = square_keys();

const fn square_keys() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = square_key(0, sq);
        t[1][sq] = square_key(1, sq);
        sq += 1;
    }
    t
}

/// The Zobrist hash of the discs of one colour.
#[inline]
pub fn discs_key(colour: usize, discs: u64) -> u64 {
    let keys = &BYTE_KEYS[colour];
    let mut h = 0;
    for (row, k) in keys.iter().enumerate() {
        h ^= k[(discs >> (8 * row)) as usize & 0xFF];
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Legal moves and flips by walking the board square by square, the
    /// slow obvious way, to check the shift code against.
    fn walk(mover: u64, other: u64, sq: i32) -> u64 {
        let occ = mover | other;
        if occ >> sq & 1 == 1 {
            return 0;
        }
        let (r0, c0) = (sq / 8, sq % 8);
        let mut all = 0;
        for (dr, dc) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut r, mut c) = (r0 + dr, c0 + dc);
            let mut run = 0u64;
            while (0..8).contains(&r) && (0..8).contains(&c) && other >> (r * 8 + c) & 1 == 1 {
                run |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            if run != 0
                && (0..8).contains(&r)
                && (0..8).contains(&c)
                && mover >> (r * 8 + c) & 1 == 1
            {
                all |= run;
            }
        }
        all
    }

    #[test]
    fn shifts_agree_with_a_square_walk_on_random_boards() {
        let mut seed = 12345u64;
        for _ in 0..3000 {
            seed = splitmix(seed);
            let a = splitmix(seed);
            let b = splitmix(seed ^ 0xABCDEF);
            let occupied = a | b; // dense boards with some empties
            let mover = a & !b & occupied;
            let other = occupied & !mover & splitmix(seed ^ 7);
            let mut expected_moves = 0;
            for sq in 0..64 {
                let w = walk(mover, other, sq);
                if w != 0 {
                    expected_moves |= 1 << sq;
                }
                if (mover | other) >> sq & 1 == 0 {
                    assert_eq!(
                        flips(mover, other, sq as u32),
                        w,
                        "sq {sq} {mover:x} {other:x}"
                    );
                }
            }
            assert_eq!(
                move_mask(mover, other),
                expected_moves,
                "{mover:x} {other:x}"
            );
            assert_eq!(
                move_mask_scalar(mover, other),
                expected_moves,
                "{mover:x} {other:x}"
            );
        }
    }

    #[test]
    fn byte_keys_equal_per_square_zobrist() {
        let discs = 0x8100_0018_2400_00FFu64;
        let mut expected = 0;
        for sq in 0..64 {
            if discs >> sq & 1 == 1 {
                expected ^= square_key(1, sq);
            }
        }
        assert_eq!(discs_key(1, discs), expected);
        assert_ne!(discs_key(0, discs), discs_key(1, discs));
    }

    #[test]
    fn move_keys_update_the_hash_of_both_colours() {
        // The start position; Black's d3 turns over d4.
        let (black, white) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
        let f = flips(black, white, 19);
        assert_eq!(f, 1 << 27);
        let before = discs_key(0, black) ^ discs_key(1, white);
        let after = discs_key(0, black | f | 1 << 19) ^ discs_key(1, white & !f);
        assert_eq!(before ^ move_key(0, 19, f), after);
    }
}
