//! The exhaustive reference: plain negamax with alpha-beta pruning over the
//! full game tree (no heuristics, no transposition table by default, so it
//! shares no machinery with the proof-number searches it checks).
//!
//! Scores are exact final scores (Outcome::score) from the side to move's
//! point of view; a question is answered by a null-window search around its
//! threshold.
//!
//! Positions that carry their path ([`Game::history_dependent`]: a cyclic
//! graph with a loop rule, a repetition rule) are evaluated exactly too:
//! the plain searches follow every path and read each repetition's
//! outcome from the position, and the memoised ones do not memoise such
//! positions (a value stored by hash would be the graph history
//! interaction).

use std::collections::HashMap;

use crate::game::{Game, Player};

use super::{Goal, Question};

/// Exact minimax value of `g` from `p`'s point of view.
pub fn value_for<G: Game>(g: &G, p: Player) -> i32 {
    let v = negamax(g, i32::MIN + 1, i32::MAX);
    if g.to_move() == p {
        v
    } else {
        -v
    }
}

/// Does the question hold at `g` with perfect play by both sides?
pub fn answer<G: Game>(g: &G, q: &Question) -> bool {
    // Threshold t on the attacker's score: win ⇔ ≥ 1, not-lose ⇔ ≥ 0.
    let t = match q.goal {
        Goal::Win => 1,
        Goal::NotLose => 0,
        Goal::AtLeast(v) => v,
    };
    // Null window [t-1, t] from the side to move's point of view.
    if g.to_move() == q.attacker {
        negamax(g, t - 1, t) >= t
    } else {
        // Attacker's score ≥ t ⇔ mover's score ≤ -t ⇔ mover's score < -t+1.
        negamax(g, -t, -t + 1) <= -t
    }
}

/// Fail-soft alpha-beta negamax: the exact value if it lies in (alpha,
/// beta), else a bound on the right side.
pub fn negamax<G: Game>(g: &G, mut alpha: i32, beta: i32) -> i32 {
    if let Some(o) = g.outcome() {
        return o.score_for(g.to_move());
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let me = g.to_move();
    let mut best = i32::MIN + 1;
    for m in moves {
        let mut c = g.clone();
        c.play(m);
        // A move can leave the same player to move (a pass in Othello).
        let v = if c.to_move() == me {
            negamax(&c, alpha, beta)
        } else {
            -negamax(&c, -beta, -alpha)
        };
        if v > best {
            best = v;
        }
        if best > alpha {
            alpha = best;
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Exact value of every position reached, memoised by hash (for games
/// with small state spaces: tic-tac-toe, small Hex, P-games with small
/// trees). Returns the value from the side to move's point of view.
pub fn memo_value<G: Game>(g: &G, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(o) = g.outcome() {
        return o.score_for(g.to_move());
    }
    let memoise = !g.history_dependent();
    let h = g.hash();
    if let Some(&v) = memo.get(&h).filter(|_| memoise) {
        return v;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let me = g.to_move();
    let best = moves
        .into_iter()
        .map(|m| {
            let mut c = g.clone();
            c.play(m);
            let v = memo_value(&c, memo);
            if c.to_move() == me {
                v
            } else {
                -v
            }
        })
        .max()
        .unwrap_or(0);
    if memoise {
        memo.insert(h, best);
    }
    best
}

/// The root moves (in legal-move order) that achieve the question, with
/// perfect play afterwards: "correct moves" for error-rate tracking.
pub fn winning_moves<G: Game>(g: &G, q: &Question) -> Vec<G::Move> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&m| answer(&g.played(m), q))
        .collect()
}

/// [`answer`] with a transposition table: a plain AND/OR evaluation of
/// the question (the attacker needs one good move, the defender must have
/// none), memoised by position hash. Still exhaustive and free of any
/// proof-number machinery; used where positions repeat a lot (Hex 4×4,
/// Othello endgames) and plain alpha-beta would take minutes.
pub fn answer_memo<G: Game>(g: &G, q: &Question) -> bool {
    let mut budget = u64::MAX;
    answer_bounded(g, q, &mut HashMap::new(), &mut budget)
        .expect("an unlimited budget never runs out")
}

/// Plies [`answer_bounded`] may go below its root before it gives up: it
/// recurses, and a game with cycles (xiangqi without a repetition rule)
/// could otherwise go deeper than any stack.
pub const BOUNDED_MAX_DEPTH: usize = 400;

/// [`answer_memo`] that visits at most `budget` positions (memo hits are
/// free) and goes at most [`BOUNDED_MAX_DEPTH`] plies deep, sharing `memo`
/// between calls: `None` once either limit is reached. The app asks it
/// for the correct root moves of a position it does not know to be small,
/// so the cost has to be capped.
pub fn answer_bounded<G: Game>(
    g: &G,
    q: &Question,
    memo: &mut HashMap<u64, bool>,
    budget: &mut u64,
) -> Option<bool> {
    answer_bounded_at(g, q, memo, budget, 0)
}

fn answer_bounded_at<G: Game>(
    g: &G,
    q: &Question,
    memo: &mut HashMap<u64, bool>,
    budget: &mut u64,
    depth: usize,
) -> Option<bool> {
    if let Some(o) = g.outcome() {
        return Some(q.holds(o));
    }
    let memoise = !g.history_dependent();
    let h = g.hash();
    if let Some(&v) = memo.get(&h).filter(|_| memoise) {
        return Some(v);
    }
    if depth >= BOUNDED_MAX_DEPTH {
        return None;
    }
    *budget = budget.checked_sub(1)?;
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let attacker_moves = g.to_move() == q.attacker;
    // The attacker needs one move that holds; the defender one that fails.
    let mut v = !attacker_moves;
    for m in moves {
        let mut c = g.clone();
        c.play(m);
        if answer_bounded_at(&c, q, memo, budget, depth + 1)? == attacker_moves {
            v = attacker_moves;
            break;
        }
    }
    if memoise {
        memo.insert(h, v);
    }
    Some(v)
}
