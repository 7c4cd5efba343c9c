//! `dfpn-fast`'s Connect Four rules for the score question: the rules of
//! [`super::connect4_rules`] (tactics, threat-aware numbers, move order,
//! mirror keys) with every result given as Pascal Pons's score instead of
//! win, draw or loss, and the score frontier solver of
//! [`super::connect4_score_leaf`].
//!
//! The game itself scores a finished Connect Four game ±1; the score
//! question needs to know how early the win came, which the number of
//! stones tells: a player who completes four with its k-th stone scores
//! 22 − k (its opponent k − 22). So the results the rules report are
//! [`Outcome`]s carrying that score (first player's view, as every
//! outcome), and "the attacker's score ≥ t" is asked of them as of any
//! scored game. The tactics' early results keep their exact scores: a
//! mover that completes four now wins with its next stone, a mover whose
//! every move lets the opponent complete four loses to the opponent's
//! next stone, and a position with at most two empty cells and a safe
//! move is a draw. Dropping the unsafe moves changes no score either: a
//! move that loses at once scores less than any safe one.

use crate::game::connect4::Connect4;
use crate::game::connect4_bits as bits;
use crate::game::{Game, Outcome, Player};
use crate::search::pn::Pn;
use crate::search::Question;

use super::connect4_rules::{Connect4Options, Connect4Rules};
use super::connect4_score_leaf::{self as leaf, ScoreTable};
use super::retarget::threshold as attacker_threshold;
use super::rules::Rules;

/// The outcome of a Pons score `s` for `mover` (as the first player's
/// score).
fn outcome_for(mover: Player, s: i32) -> Outcome {
    Outcome {
        score: if mover == Player::First { s } else { -s },
    }
}

/// The Pons score of a finished game for the side to move (who lost it,
/// or drew).
pub fn final_score_for_mover(g: &Connect4) -> i32 {
    match g.outcome() {
        Some(o) if o.score != 0 => {
            // The winner moved last: its stones are the ones not of the
            // side to move.
            let (mover, occupied) = bits::boards(g);
            let k = (occupied ^ mover).count_ones() as i32;
            k - 22
        }
        _ => 0,
    }
}

/// Connect Four's score rules (see the module comment).
pub struct Connect4ScoreRules {
    opts: Connect4Options,
    inner: Connect4Rules,
    leaf: ScoreTable,
}

impl Connect4ScoreRules {
    /// The rules with options `opts`; the frontier table takes
    /// `opts.leaf_table_bytes` when the frontier solver is on.
    pub fn new(opts: Connect4Options) -> Connect4ScoreRules {
        Connect4ScoreRules {
            opts,
            // Only its ordering, keys, moves and numbers are used: no
            // table of its own.
            inner: Connect4Rules::new(Connect4Options {
                leaf_cells: 0,
                ..opts
            }),
            leaf: ScoreTable::with_bytes(opts.leaf_bytes_in_use()),
        }
    }
}

impl Rules<Connect4> for Connect4ScoreRules {
    #[inline]
    fn inspect(&self, g: &Connect4) -> Result<u32, Outcome> {
        let mover = g.to_move();
        if g.outcome().is_some() {
            return Err(outcome_for(mover, final_score_for_mover(g)));
        }
        let (own, occupied) = bits::boards(g);
        let n = occupied.count_ones();
        if !self.opts.tactics {
            return Ok(bits::playable(occupied).count_ones());
        }
        if bits::can_win_now(own, occupied) {
            return Err(outcome_for(mover, leaf::win_now_score(n)));
        }
        let safe = bits::non_losing_moves(own, occupied);
        if safe == 0 {
            return Err(outcome_for(mover, leaf::lose_next_score(n)));
        }
        if n >= 40 {
            return Err(Outcome::DRAW);
        }
        Ok(safe.count_ones())
    }

    fn order_key(&self, g: &Connect4, m: u8) -> u32 {
        self.inner.order_key(g, m)
    }

    #[inline]
    fn key(&self, g: &Connect4) -> u64 {
        self.inner.key(g)
    }

    fn moves(&self, g: &Connect4, out: &mut Vec<u8>) {
        self.inner.moves(g, out);
    }

    fn initial(&self, g: &Connect4, or: bool, mobility: u32) -> (Pn, Pn) {
        self.inner.initial(g, or, mobility)
    }

    #[inline]
    fn at_frontier(&self, g: &Connect4) -> bool {
        42 - u32::from(g.stones()) <= self.opts.leaf_cells
    }

    /// Above the frontier a threshold outside the position's
    /// [`leaf::score_range`] is answered without a search: asking for a
    /// win earlier than the stones allow (the top of a bracket, "score ≥
    /// 19" after four stones) would otherwise make df-pn expand every
    /// line down to the frontier to disprove it.
    fn solve_leaf(&self, g: &Connect4, q: &Question, nodes: &mut u64) -> Option<bool> {
        let t = attacker_threshold(q);
        let attacker_moves = g.to_move() == q.attacker;
        // Attacker ≥ t ⇔ mover ≤ −t ⇔ not (mover ≥ 1 − t).
        let mover_t = if attacker_moves { t } else { 1 - t };
        let mover_reaches = if self.at_frontier(g) {
            leaf::reaches(g, mover_t, &self.leaf, nodes)
        } else {
            let (lowest, highest) = leaf::score_range(g);
            if mover_t <= lowest {
                true
            } else if mover_t > highest {
                false
            } else {
                return None;
            }
        };
        Some(if attacker_moves {
            mover_reaches
        } else {
            !mover_reaches
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Goal;

    /// Above the frontier a threshold out of the stones' reach is
    /// answered without a search, whichever player asks, and one within
    /// reach is left to df-pn.
    #[test]
    fn thresholds_out_of_reach_are_answered_without_a_search() {
        // Four stones, no win now: the side to move scores at most
        // ⌊(41 − 4)/2⌋ = 18 and at least −⌊(40 − 4)/2⌋ = −18.
        let g = Connect4::parse("4455").expect("a position");
        let rules = Connect4ScoreRules::new(Connect4Options::default());
        assert!(!rules.at_frontier(&g));
        let ask = |attacker: Player, t: i32| {
            let mut nodes = 0;
            let q = Question {
                attacker,
                goal: Goal::AtLeast(t),
            };
            let answer = rules.solve_leaf(&g, &q, &mut nodes);
            assert_eq!(nodes, 0, "no position searched");
            answer
        };
        let mover = g.to_move();
        assert_eq!(ask(mover, 19), Some(false));
        assert_eq!(ask(mover, -18), Some(true));
        assert_eq!(ask(mover, 18), None);
        assert_eq!(ask(mover, 5), None);
        // The opponent's score is the negation, in the same range.
        let other = mover.other();
        assert_eq!(ask(other, 19), Some(false));
        assert_eq!(ask(other, -18), Some(true));
        assert_eq!(ask(other, -17), None);
        assert_eq!(ask(other, 18), None);
    }
}
