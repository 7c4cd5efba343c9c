//! The frontier solver of `dfpn-fast` on Othello: below a few empty
//! squares a node is answered by a plain null-window alpha-beta search on
//! bitboards instead of being expanded by MID (the usual endgame-solver
//! split: a proof-number search where the tree is wide and uncertain, a
//! fast exhaustive search where subtrees are small).
//!
//! The search is exact: it asks "does the side to move reach a final score
//! of at least t?" (scores in the FFO/Edax convention: disc difference,
//! empties to the winner) and answers it by negamax over booleans,
//! `reach(p, o, t) = ∃ move: ¬reach(o', p', 1 − t)`, a pass being the one
//! move when only the opponent can play. Move order only changes the
//! speed: above [`SHALLOW`] empties, moves that leave the opponent the
//! fewest replies go first (fastest-first), corners breaking ties; below
//! it the empty squares are tried directly (no move mask), and the last
//! empty square is scored without a search.

use crate::game::othello::bitboard::{flips, move_mask};
use crate::game::othello::Othello;
use crate::game::Game;
use crate::search::{Goal, Question};

/// At or below this many empties the moves are not ordered.
pub const SHALLOW: u32 = 5;

/// The four corners.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The final score of a finished position from the side to move's point of
/// view: disc difference, empties to the winner.
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    let np = p.count_ones() as i32;
    let no = o.count_ones() as i32;
    let e = 64 - np - no;
    match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + e,
        std::cmp::Ordering::Less => np - no - e,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The exact final score (side to move's view) with one empty square `sq`
/// left: the mover plays it if it can, else the opponent, else nobody.
#[inline]
fn last_square_score(p: u64, o: u64, sq: u32) -> i32 {
    let bit = 1u64 << sq;
    let f = flips(p, o, sq);
    if f != 0 {
        return final_score(p | f | bit, o & !f);
    }
    let g = flips(o, p, sq);
    if g != 0 {
        return final_score(p & !g, o | g | bit);
    }
    final_score(p, o)
}

/// Does the side to move (discs `p`, opponent `o`) reach a final score of
/// at least `t`? Counts visited positions in `nodes`.
pub fn reaches(p: u64, o: u64, t: i32, nodes: &mut u64) -> bool {
    *nodes += 1;
    let empty = !(p | o);
    let n = empty.count_ones();
    if n == 0 {
        return final_score(p, o) >= t;
    }
    if n == 1 {
        return last_square_score(p, o, empty.trailing_zeros()) >= t;
    }
    if n <= SHALLOW {
        return reaches_shallow(p, o, t, empty, nodes);
    }
    // Past the run's deadline every answer is `false`; the caller drops
    // the result (`clock::tripped`).
    if crate::search::clock::interrupted() {
        return false;
    }
    let moves = move_mask(p, o);
    if moves == 0 {
        if move_mask(o, p) == 0 {
            return final_score(p, o) >= t;
        }
        return !reaches(o, p, 1 - t, nodes);
    }
    // Fastest-first: fewest opponent replies, corners first among equals.
    let mut list = [(0u32, 0u64, 0u64); 32];
    let mut len = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let bit = 1u64 << sq;
        let f = flips(p, o, sq);
        let np = p | f | bit;
        let no = o & !f;
        let replies = move_mask(no, np).count_ones() * 2 + u32::from(bit & CORNERS == 0);
        // Insertion sort: at most a couple of dozen moves.
        let mut i = len;
        while i > 0 && list[i - 1].0 > replies {
            list[i] = list[i - 1];
            i -= 1;
        }
        list[i] = (replies, np, no);
        len += 1;
    }
    list[..len]
        .iter()
        .any(|&(_, np, no)| !reaches(no, np, 1 - t, nodes))
}

/// [`reaches`] near the end: every empty square is tried with a direct
/// flip computation (cheaper than a move mask when few squares are left).
fn reaches_shallow(p: u64, o: u64, t: i32, empty: u64, nodes: &mut u64) -> bool {
    let mut rest = empty;
    let mut moved = false;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let f = flips(p, o, sq);
        if f != 0 {
            moved = true;
            let bit = 1u64 << sq;
            if !reaches(o & !f, p | f | bit, 1 - t, nodes) {
                return true;
            }
        }
    }
    if moved {
        return false;
    }
    // No move: a pass if the opponent has one, else the game is over.
    let mut rest = empty;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        if flips(o, p, sq) != 0 {
            return !reaches(o, p, 1 - t, nodes);
        }
    }
    final_score(p, o) >= t
}

/// Answers `q` at `g` exactly (see the module comment), counting the
/// positions visited in `nodes`.
pub fn answer(g: &Othello, q: &Question, nodes: &mut u64) -> bool {
    let side = g.to_move();
    let p = g.discs_of(side);
    let o = g.discs_of(side.other());
    // The attacker's score must reach t.
    let t = match q.goal {
        Goal::Win => 1,
        Goal::NotLose => 0,
        Goal::AtLeast(v) => v,
    };
    if side == q.attacker {
        reaches(p, o, t, nodes)
    } else {
        // Attacker ≥ t ⇔ mover ≤ −t ⇔ not (mover ≥ 1 − t).
        !reaches(p, o, 1 - t, nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::deep_pn_sweep::random_othello;
    use crate::game::Player;
    use crate::search::reference;

    /// The bitboard solver against the project's exhaustive reference
    /// (plain negamax over the `Game` trait) on seeded random endgames.
    #[test]
    fn agrees_with_the_reference_negamax() {
        for seed in 0..60u64 {
            let empties = 4 + (seed % 6) as u32;
            let g = random_othello(seed, empties).expect("position");
            for goal in [Goal::Win, Goal::NotLose, Goal::AtLeast(6)] {
                for attacker in [Player::First, Player::Second] {
                    let q = Question { attacker, goal };
                    let mut n = 0;
                    assert_eq!(
                        answer(&g, &q, &mut n),
                        reference::answer(&g, &q),
                        "seed {seed} {q:?} {}",
                        g.notation()
                    );
                    assert!(n > 0);
                }
            }
        }
    }

    #[test]
    fn exact_scores_by_bisection_match_the_reference_value() {
        for seed in 100..120u64 {
            let g = random_othello(seed, 7).expect("position");
            let me = g.to_move();
            let v = reference::value_for(&g, me);
            let (p, o) = (g.discs_of(me), g.discs_of(me.other()));
            let mut n = 0;
            assert!(reaches(p, o, v, &mut n), "seed {seed}");
            assert!(!reaches(p, o, v + 1, &mut n), "seed {seed}");
        }
    }
}
