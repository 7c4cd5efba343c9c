//! Inferior-cell analysis: cells whose colour cannot change who wins,
//! found from local patterns and filled in (Hayward, Björnsson, Johanson,
//! Kan, Po & van Rijswijck, "Solving 7×7 Hex", 2003; Henderson's thesis,
//! 2010).
//!
//! - **Dead cells.** An empty cell is dead when no minimal winning chain of
//!   either player passes through it. Then it may be filled with either
//!   colour without changing the winner. Here a cell counts as dead when
//!   it is locally useless to one player P (in Hex a cell lies on a minimal
//!   chain of one player exactly when it lies on one of the other's, so
//!   useless to one is dead): look at its six neighbours in ring order
//!   (a neighbour off the board is the edge it lies beyond, a stone of the
//!   edge's owner). If any two neighbours that are not the opponent's can
//!   be joined around the ring through P's stones only (or are next to
//!   each other), a chain entering and leaving the cell can skip it, so it
//!   never needs the cell. Four neighbours in a row of one colour, or an
//!   empty cell hemmed in by three opposing stones and an edge, are the
//!   classic cases.
//! - **Captured pairs.** Two adjacent empty cells a, b are captured by P
//!   when a stone of P on either makes the other dead: whichever the
//!   opponent takes, P answers with the other, and the opponent's stone is
//!   then worthless. So P may fill both at once without changing the
//!   winner.
//!
//! Fill-in repeats the two rules (dead cells take Black's colour, which
//! is as good as any) until nothing changes; both only ever grow as
//! stones are added, so a child position keeps its parent's fill-in.
//!
//! - **Dominated moves.** A move b *dominates* a move a for player P when
//!   P's stone on b makes a dead, or makes a one of a pair P captures.
//!   Then after b the cell a may be filled with P's colour without
//!   changing the winner, and a position with P's stones on both a and b
//!   is at least as good for P as one with a alone (in Hex an extra
//!   stone never hurts its owner). So b is at least as good as a, and P
//!   need not try a: [`dominated`] lists such moves, keeping at least
//!   one move of every chain of dominations.

use super::{neighbours, GEOMETRY};
use crate::game::Player;

/// The state of one ring neighbour: empty, or held (by a stone or an
/// edge) by Black or White.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Empty,
    Held(Player),
}

/// Whether a cell whose ring neighbours are `ring` (in ring order) is
/// useless to player `p`: any two neighbours that are not the opponent's
/// are ring-adjacent or joined around the ring through `p`'s stones.
fn useless_to(ring: &[Side; 6], p: Player) -> bool {
    let open = |i: usize| ring[i] != Side::Held(p.other());
    let mine = |i: usize| ring[i] == Side::Held(p);
    for i in 0..6 {
        for j in i + 1..6 {
            if !open(i) || !open(j) || j - i == 1 || j - i == 5 {
                continue;
            }
            let forward = (i + 1..j).all(mine);
            let backward = (j + 1..i + 6).all(|k| mine(k % 6));
            if !forward && !backward {
                return false;
            }
        }
    }
    true
}

/// Offsets (dc, dr) of the six neighbours in ring order.
const RING: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The ring of cell `i` on an `n`×`n` board with `stones` = [Black, White].
fn ring_of(n: u32, stones: [u128; 2], i: u32) -> [Side; 6] {
    let (c, r) = ((i % n) as i32, (i / n) as i32);
    let n = n as i32;
    RING.map(|(dc, dr)| {
        let (x, y) = (c + dc, r + dr);
        if y < 0 || y >= n {
            Side::Held(Player::First)
        } else if x < 0 || x >= n {
            Side::Held(Player::Second)
        } else {
            let bit = 1u128 << (y * n + x);
            if stones[0] & bit != 0 {
                Side::Held(Player::First)
            } else if stones[1] & bit != 0 {
                Side::Held(Player::Second)
            } else {
                Side::Empty
            }
        }
    })
}

/// Whether empty cell `i` is dead on this board.
pub fn is_dead(n: u8, stones: [u128; 2], i: u32) -> bool {
    DEAD_RINGS[ring_code(&ring_of(u32::from(n), stones, i))]
}

/// The states of a ring neighbour by their base-3 digit in a ring code.
const DIGIT_SIDES: [Side; 3] = [
    Side::Empty,
    Side::Held(Player::First),
    Side::Held(Player::Second),
];

/// A ring as a number: neighbour k's state is base-3 digit k (its index
/// in [`DIGIT_SIDES`], spelled out as a match: this runs for every
/// empty cell fill-in looks at).
fn ring_code(ring: &[Side; 6]) -> usize {
    ring.iter().rev().fold(0, |code, side| {
        code * 3
            + match side {
                Side::Empty => 0,
                Side::Held(Player::First) => 1,
                Side::Held(Player::Second) => 2,
            }
    })
}

/// The ring whose code is `code` (the inverse of [`ring_code`]).
fn ring_of_code(code: usize) -> [Side; 6] {
    std::array::from_fn(|k| DIGIT_SIDES[code / 3usize.pow(k as u32) % 3])
}

/// Whether a ring makes its cell dead, for each of the 3^6 rings: fill-in
/// asks this for every empty cell of every node the solvers look at, so
/// the answer is looked up, not worked out each time.
static DEAD_RINGS: std::sync::LazyLock<[bool; 729]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|code| {
        let ring = ring_of_code(code);
        useless_to(&ring, Player::First) || useless_to(&ring, Player::Second)
    })
});

/// Fewest held neighbours (stones of either colour, or off the board) a
/// dead cell has: with four or more empty neighbours, two of them lie
/// apart with an empty cell on each side between them, and no chain of
/// either player can skip the cell there. Fill-in skips the cells with
/// fewer, and the cells of a captured pair with fewer than one less (the
/// partner's stone is the last), without looking at their rings.
const MIN_HELD_DEAD: u32 = 3;

/// How many of cell `i`'s six neighbours are stones or off the board.
fn held_around(n: u32, g: &super::Geometry, stones: [u128; 2], i: u32) -> u32 {
    let around = neighbours(1 << i, n, g);
    6 - around.count_ones() + (around & (stones[0] | stones[1])).count_ones()
}

/// Which inferior-cell rules fill-in applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FillRules {
    /// Fill dead cells.
    pub dead: bool,
    /// Fill captured pairs with their owner.
    pub captured: bool,
}

/// The result of fill-in on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FillIn {
    /// [Black, White] stones after fill-in.
    pub stones: [u128; 2],
    /// The cells found dead (filled with Black).
    pub dead: u128,
    /// The cells found captured, per owner [Black, White].
    pub captured: [u128; 2],
}

impl FillIn {
    /// The empty cells left after fill-in.
    pub fn empty(&self, n: u8) -> u128 {
        GEOMETRY[n as usize].board & !(self.stones[0] | self.stones[1])
    }
}

/// Fill-in of `stones` on an `n`×`n` board with `rules` (see the module
/// comment). The winner with either side to move is the same on the
/// filled board as on the original.
pub fn fill_in(n: u8, stones: [u128; 2], rules: FillRules) -> FillIn {
    let g = &GEOMETRY[n as usize];
    let nn = u32::from(n);
    let mut out = FillIn {
        stones,
        dead: 0,
        captured: [0, 0],
    };
    if !rules.dead && !rules.captured {
        return out;
    }
    loop {
        let mut changed = false;
        if rules.dead {
            let mut empty = g.board & !(out.stones[0] | out.stones[1]);
            while empty != 0 {
                let i = empty.trailing_zeros();
                empty &= empty - 1;
                if held_around(nn, g, out.stones, i) >= MIN_HELD_DEAD && is_dead(n, out.stones, i) {
                    out.stones[0] |= 1 << i;
                    out.dead |= 1 << i;
                    changed = true;
                }
            }
        }
        if rules.captured {
            let mut empty = g.board & !(out.stones[0] | out.stones[1]);
            while empty != 0 {
                let a = empty.trailing_zeros();
                empty &= empty - 1;
                if held_around(nn, g, out.stones, a) < MIN_HELD_DEAD - 1 {
                    continue;
                }
                let mut partners = neighbours(1 << a, nn, g) & !(out.stones[0] | out.stones[1]);
                // Each pair once: partners after `a` in index order.
                partners &= !((2u128 << a) - 1);
                while partners != 0 {
                    let b = partners.trailing_zeros();
                    partners &= partners - 1;
                    if held_around(nn, g, out.stones, b) < MIN_HELD_DEAD - 1 {
                        continue;
                    }
                    if let Some(p) = captor(n, out.stones, a, b) {
                        let pair = (1u128 << a) | (1u128 << b);
                        out.stones[p.index()] |= pair;
                        out.captured[p.index()] |= pair;
                        empty &= !pair;
                        changed = true;
                        break;
                    }
                }
            }
        }
        if !changed {
            return out;
        }
    }
}

/// The player who captures the adjacent empty cells `a` and `b`, if any:
/// a stone of theirs on either makes the other dead.
fn captor(n: u8, stones: [u128; 2], a: u32, b: u32) -> Option<Player> {
    [Player::First, Player::Second].into_iter().find(|p| {
        let with = |cell: u32| {
            let mut s = stones;
            s[p.index()] |= 1 << cell;
            s
        };
        is_dead(n, with(b), a) && is_dead(n, with(a), b)
    })
}

/// Whether empty cell `a` can be filled with `p`'s colour on `stones`
/// (the rules of fill-in, looked at around `a` only): it is dead, or it
/// and an empty neighbour form a pair `p` captures.
fn fillable_for(n: u8, g: &super::Geometry, stones: [u128; 2], a: u32, p: Player) -> bool {
    let nn = u32::from(n);
    let held = held_around(nn, g, stones, a);
    if held >= MIN_HELD_DEAD && is_dead(n, stones, a) {
        return true;
    }
    if held + 1 < MIN_HELD_DEAD {
        return false;
    }
    let mut partners = neighbours(1 << a, nn, g) & g.board & !(stones[0] | stones[1]);
    while partners != 0 {
        let c = partners.trailing_zeros();
        partners &= partners - 1;
        let with = |cell: u32| {
            let mut s = stones;
            s[p.index()] |= 1 << cell;
            s
        };
        if is_dead(n, with(c), a) && is_dead(n, with(a), c) {
            return true;
        }
    }
    false
}

/// The moves among `candidates` (empty cells) that `mover` need not try
/// on `stones` because another move dominates them (see the module
/// comment): a neighbour b whose stone lets `a` be filled with the
/// mover's colour. A cell counts as a dominator only while it is not
/// itself set aside, so every move set aside has a chain of dominators
/// ending at a move kept (or at an empty cell outside `candidates`, which
/// is then no worse: when the candidates are the mustplay region, a move
/// outside it loses, and so does every move it dominates).
pub fn dominated(n: u8, stones: [u128; 2], mover: Player, candidates: u128) -> u128 {
    let g = &GEOMETRY[n as usize];
    let nn = u32::from(n);
    let empty = g.board & !(stones[0] | stones[1]);
    let mut out = 0u128;
    let mut cells = candidates & empty;
    while cells != 0 {
        let a = cells.trailing_zeros();
        cells &= cells - 1;
        // The dominator's stone and a captured partner's are the most
        // this can add around `a`.
        if held_around(nn, g, stones, a) + 2 < MIN_HELD_DEAD {
            continue;
        }
        let mut dominators = neighbours(1 << a, nn, g) & empty & !out;
        while dominators != 0 {
            let b = dominators.trailing_zeros();
            dominators &= dominators - 1;
            let mut s = stones;
            s[mover.index()] |= 1 << b;
            if fillable_for(n, g, s, a, mover) {
                out |= 1 << a;
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hex::Hex;

    fn stones_of(text: &str) -> (u8, [u128; 2]) {
        let g = Hex::parse(text).unwrap();
        (g.size(), g.stones)
    }

    #[test]
    fn four_stones_in_a_row_around_a_cell_make_it_dead() {
        // c3 on 5×5: Black b3, c2 (ring 3, 2) and White d2? Use four Black
        // neighbours d3 d2 c2 b3 (ring 0-3) with White stones elsewhere.
        let (n, s) = stones_of("5:d3 a1 d2 a2 c2 a3 b3 a4");
        let c3 = 2 * 5 + 2;
        assert!(is_dead(n, s, c3));
        // With only three of them it is not.
        let (n, s) = stones_of("5:d3 a1 d2 a2 c2 a3");
        assert!(!is_dead(n, s, c3));
    }

    #[test]
    fn ring_codes_round_trip() {
        for code in 0..729usize {
            assert_eq!(ring_code(&ring_of_code(code)), code);
        }
    }

    #[test]
    fn no_ring_with_fewer_than_three_held_neighbours_is_dead() {
        for code in 0..729usize {
            let ring = ring_of_code(code);
            let empties = ring.iter().filter(|s| **s == Side::Empty).count() as u32;
            if 6 - empties < MIN_HELD_DEAD {
                assert!(
                    !DEAD_RINGS[code],
                    "ring {code} has {empties} empty neighbours"
                );
            }
        }
    }

    #[test]
    fn an_empty_board_has_no_dead_cells_and_no_captures() {
        for n in 2..=11u8 {
            let f = fill_in(
                n,
                [0, 0],
                FillRules {
                    dead: true,
                    captured: true,
                },
            );
            assert_eq!(f.stones, [0, 0], "{n}×{n}");
        }
    }
}
