//! Connect Four tactics on bitboards: the cells where a player would
//! complete four, the moves that do not lose at once, a unique position
//! key and its mirror image. The solvers use these (`dfpn-fast`'s Connect
//! Four rules and its frontier alpha-beta); the game itself does not.
//!
//! The layout is [`Connect4`]'s: column-major, 7 bits per column (6 rows
//! and an always-empty guard bit on top), bit `col * 7 + row`, row 0 at
//! the bottom. Positions are given as `(mover, occupied)`: the stones of
//! the side to move and the stones of both players; the opponent's stones
//! are `mover ^ occupied`.
//!
//! The tactical facts are the classical ones of every strong Connect Four
//! program (Allis 1988, §3; Tromp's and Pons's solvers): a player who can
//! complete four now wins; a player facing two cells where the opponent
//! completes four, both playable now, loses; facing one, it must play
//! there; and a stone played directly under a cell where the opponent
//! completes four lets the opponent play there next and win.

use super::connect4::{Connect4, HEIGHT, WIDTH};
use super::Game;

/// Bits per column (rows plus the guard bit).
pub const STRIDE: u32 = HEIGHT as u32 + 1;

/// The bottom cell of every column.
pub const BOTTOM: u64 = {
    let mut b = 0u64;
    let mut c = 0;
    while c < WIDTH as u32 {
        b |= 1 << (c * STRIDE);
        c += 1;
    }
    b
};

/// Every playable cell (no guard bits).
pub const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

/// The seven bits of column `c`, guard bit included.
#[inline]
pub const fn column_bits(c: u32) -> u64 {
    0x7F << (c * STRIDE)
}

/// The empty cells where the player with stones `own` completes four
/// (whether or not they can be played now), given all stones `occupied`.
#[inline]
pub fn winning_cells(own: u64, occupied: u64) -> u64 {
    // Vertical: three stones right below.
    let mut r = (own << 1) & (own << 2) & (own << 3);
    for s in [STRIDE, STRIDE - 1, STRIDE + 1] {
        // The cell completes x x x _ , _ x x x, x _ x x or x x _ x along
        // the line with step s.
        let pair_up = (own << s) & (own << (2 * s));
        r |= pair_up & (own << (3 * s));
        r |= pair_up & (own >> s);
        let pair_down = (own >> s) & (own >> (2 * s));
        r |= pair_down & (own >> (3 * s));
        r |= pair_down & (own << s);
    }
    r & BOARD & !occupied
}

/// The cells where a stone can be dropped now (one per open column).
#[inline]
pub fn playable(occupied: u64) -> u64 {
    (occupied + BOTTOM) & BOARD
}

/// Does the side to move complete four with its next stone?
#[inline]
pub fn can_win_now(mover: u64, occupied: u64) -> bool {
    winning_cells(mover, occupied) & playable(occupied) != 0
}

/// The cells the side to move can play without losing on the opponent's
/// next move (the side to move is assumed not to win now): the opponent's
/// immediate winning cell when there is exactly one, none when there are
/// two or more, and never the cell right under one of the opponent's
/// winning cells. Empty means the side to move loses (or, on a full
/// board, that no move is left).
#[inline]
pub fn non_losing_moves(mover: u64, occupied: u64) -> u64 {
    let possible = playable(occupied);
    let theirs = winning_cells(mover ^ occupied, occupied);
    let forced = possible & theirs;
    let candidates = if forced != 0 {
        if forced & (forced - 1) != 0 {
            return 0;
        }
        forced
    } else {
        possible
    };
    candidates & !(theirs >> 1)
}

/// The column of a cell bit.
#[inline]
pub fn column_of_cell(cell: u64) -> u8 {
    (cell.trailing_zeros() / STRIDE) as u8
}

/// A key that names the position uniquely (with the side to move, which
/// the number of stones gives): the mover's stones plus one bit on top of
/// every column's stack. 49 bits.
#[inline]
pub fn unique_key(mover: u64, occupied: u64) -> u64 {
    mover + occupied + BOTTOM
}

/// `b` with its columns in reverse order (the board seen in a mirror).
#[inline]
pub fn mirror(b: u64) -> u64 {
    let mut m = 0;
    let mut c = 0;
    while c < WIDTH as u32 {
        m |= ((b >> (c * STRIDE)) & 0x7F) << ((WIDTH as u32 - 1 - c) * STRIDE);
        c += 1;
    }
    m
}

/// The key shared by a position and its mirror image (the smaller of the
/// two unique keys): mirror positions have the same value, so a table
/// keyed by it holds one entry for both.
#[inline]
pub fn symmetric_key(mover: u64, occupied: u64) -> u64 {
    let k = unique_key(mover, occupied);
    k.min(mirror(k))
}

/// The (mover, occupied) bitboards of a position.
#[inline]
pub fn boards(g: &Connect4) -> (u64, u64) {
    let (first, second) = g.bitboards();
    let occupied = first | second;
    let mover = if g.to_move().index() == 0 {
        first
    } else {
        second
    };
    (mover, occupied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    /// Brute force: the cells where adding one stone of `own` makes four,
    /// found by trying every empty cell with the game's own four test
    /// (playing the position out to that cell is not needed: the four
    /// test of [`Connect4`] works on any stone set through `fours`).
    fn slow_winning_cells(g: &Connect4, player: usize) -> u64 {
        let (first, second) = g.bitboards();
        let own = if player == 0 { first } else { second };
        let occupied = first | second;
        let mut r = 0;
        for c in 0..WIDTH as u32 {
            for row in 0..HEIGHT as u32 {
                let bit = 1u64 << (c * STRIDE + row);
                if occupied & bit == 0 && Connect4::has_four(own | bit) {
                    r |= bit;
                }
            }
        }
        r
    }

    fn random_position(seed: u64, plies: u32) -> Connect4 {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut g = Connect4::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            let mut next = g;
            next.play(m);
            if next.outcome().is_some() {
                break;
            }
            g = next;
        }
        g
    }

    #[test]
    fn winning_cells_match_a_brute_force_search() {
        for seed in 0..400u64 {
            let g = random_position(seed, (seed % 40) as u32);
            let (first, second) = g.bitboards();
            let occ = first | second;
            assert_eq!(
                winning_cells(first, occ),
                slow_winning_cells(&g, 0),
                "{g:?}"
            );
            assert_eq!(
                winning_cells(second, occ),
                slow_winning_cells(&g, 1),
                "{g:?}"
            );
        }
    }

    #[test]
    fn non_losing_moves_are_exactly_the_moves_that_survive_one_reply() {
        for seed in 0..400u64 {
            let g = random_position(seed + 1000, (seed % 40) as u32);
            let (mover, occ) = boards(&g);
            if can_win_now(mover, occ) {
                continue;
            }
            let safe = non_losing_moves(mover, occ);
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            for &m in &moves {
                let mut c = g;
                c.play(m);
                // Does the opponent complete four on its next move?
                let mut replies = Vec::new();
                c.legal_moves(&mut replies);
                let loses = replies.iter().any(|&r| {
                    let mut d = c;
                    d.play(r);
                    d.outcome().is_some_and(|o| o != Outcome::DRAW)
                });
                let cell = playable(occ) & column_bits(u32::from(m));
                assert_eq!(safe & cell != 0, !loses, "{g:?} move {}", m + 1);
            }
        }
    }

    #[test]
    fn keys_are_unique_and_mirrors_share_the_symmetric_key() {
        let a = Connect4::parse("1234").unwrap();
        let b = Connect4::parse("7654").unwrap();
        let c = Connect4::parse("3214").unwrap();
        let (ma, oa) = boards(&a);
        let (mb, ob) = boards(&b);
        let (mc, oc) = boards(&c);
        assert_ne!(unique_key(ma, oa), unique_key(mb, ob));
        assert_eq!(symmetric_key(ma, oa), symmetric_key(mb, ob));
        assert_eq!(unique_key(ma, oa), unique_key(mc, oc));
        assert_eq!(mirror(mirror(0x1234_5678_9ABC)), 0x1234_5678_9ABC);
        // Distinct positions never share a unique key.
        let mut seen = std::collections::HashMap::new();
        for seed in 0..2000u64 {
            let g = random_position(seed + 5000, (seed % 30) as u32);
            let (m, o) = boards(&g);
            let key = unique_key(m, o);
            let board = g.bitboards();
            if let Some(prev) = seen.insert(key, board) {
                assert_eq!(prev, board, "{g:?}");
            }
        }
    }
}
