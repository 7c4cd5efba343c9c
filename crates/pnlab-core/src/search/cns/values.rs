//! How conspiracy-number search values its leaves: the three value models
//! (`win-loss`, `score`, and the sibling comparison evaluation of SCNS),
//! all expressed as exact integers in one fixed-point scale per search.
//!
//! Values are from the point of view of the attacker (the MAX player: the
//! side the question is asked for), so MAX nodes are exactly the OR nodes
//! of the proof searches.

use crate::game::{Game, GameKind, Outcome, Player};
use crate::search::Question;

use super::staircase::{Value, NEG_INF, POS_INF};

/// Largest magnitude of a finite leaf value: far from the ±∞ sentinels, so
/// sums and differences of values never overflow.
pub const VALUE_LIMIT: Value = 1 << 50;

/// Fixed-point units per nat of the SCNS relative errors (so 1.0 in a
/// display is one nat: a move scored e = 2.718… times worse than its best
/// sibling).
pub const SCEF_UNIT: Value = 1000;

/// How leaves get their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Two-valued: a finished game is +∞ when it answers the question with
    /// yes, −∞ otherwise, and every unfinished leaf is 0. CNS then selects
    /// exactly as proof-number search does.
    WinLoss,
    /// Finished games at their exact score (±∞ for a game whose results
    /// are only win/draw/loss, [`results_are_signs`]), unfinished leaves at
    /// the game's static evaluation (0 for a game without one). Unit 1.
    Score,
    /// The sibling comparison evaluation function of SCNS (Pawlewicz &
    /// Hayward 2015, Definition 6): finished games ±∞ by the question,
    /// unfinished leaves the signed sum of the relative move errors along
    /// their path, in [`SCEF_UNIT`]s.
    Scef,
}

impl Model {
    /// Fixed-point units per displayed unit of value.
    pub fn unit(self) -> Value {
        match self {
            Model::WinLoss | Model::Score => 1,
            Model::Scef => SCEF_UNIT,
        }
    }

    /// The value of a finished game `g` with outcome `o`, attacker's view.
    /// (With `Score` the root's exact value is read back as a game score
    /// from the finished game its principal variation ends in.)
    pub fn terminal<G: Game>(self, g: &G, o: Outcome, q: &Question) -> Value {
        match self {
            Model::WinLoss | Model::Scef => {
                if q.holds(o) {
                    POS_INF
                } else {
                    NEG_INF
                }
            }
            Model::Score => {
                let s = o.score_for(q.attacker) as Value;
                if results_are_signs(g.kind()) {
                    match s.signum() {
                        1 => POS_INF,
                        -1 => NEG_INF,
                        _ => 0,
                    }
                } else {
                    clamp(s)
                }
            }
        }
    }

    /// The threshold t of the question on this model's scale: the answer
    /// is yes iff the root's minimax value is ≥ t.
    pub fn threshold(self, q: &Question) -> Value {
        match self {
            Model::WinLoss | Model::Scef => POS_INF,
            Model::Score => match q.goal {
                crate::search::Goal::Win => 1,
                crate::search::Goal::NotLose => 0,
                crate::search::Goal::AtLeast(v) => v as Value,
            },
        }
    }
}

/// `v` (first player's view) from the attacker's side.
#[inline]
pub fn for_attacker(v: Value, attacker: Player) -> Value {
    match attacker {
        Player::First => v,
        Player::Second => -v,
    }
}

/// Clamps a finite leaf value into ±[`VALUE_LIMIT`].
#[inline]
pub fn clamp(v: Value) -> Value {
    v.clamp(-VALUE_LIMIT, VALUE_LIMIT)
}

/// The static evaluation of an unfinished position (first player's view,
/// [`Game::evaluate`]), 0 when the game has none.
pub fn static_value<G: Game>(g: &G) -> Value {
    g.evaluate().unwrap_or(0) as Value
}

/// Whether a game's results are only win, draw or loss (scores ±1 and 0):
/// its wins and losses are then ±∞ on the value scale, so that every
/// heuristic evaluation lies between them. Other games (trees, P-games,
/// Othello, Connect Four) keep their exact scores.
pub fn results_are_signs(kind: GameKind) -> bool {
    matches!(kind, GameKind::Hex | GameKind::TicTacToe)
}

/// The relative errors e(n → s) = ln(E(n→s₀)/E(n→s)) of the moves at `g`,
/// in [`SCEF_UNIT`]s, from the local move scores E > 0 the game provides
/// ([`Game::move_scores`]). A game without its own local scores is scored
/// by the children's static values: E(n→s) = exp(value of s for the mover
/// / 100), so 100 evaluation points are one nat (children without a value
/// all score alike, giving e = 0).
pub fn relative_errors<G: Game>(
    g: &G,
    moves: &[G::Move],
    scores: &mut Vec<f64>,
    out: &mut Vec<Value>,
) {
    scores.clear();
    out.clear();
    if g.move_scores(moves, scores) {
        debug_assert_eq!(scores.len(), moves.len());
        // ln E, with E floored at a tiny positive score.
        for s in scores.iter_mut() {
            *s = s.max(1e-12).ln();
        }
    } else {
        let me = g.to_move();
        for &m in moves {
            let mut c = g.clone();
            c.play(m);
            let v = match c.outcome() {
                Some(o) => c.terminal_value(o) as Value,
                None => static_value(&c),
            };
            let mine = if me == Player::First { v } else { -v };
            scores.push(mine as f64 / 100.0);
        }
    }
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    out.extend(scores.iter().map(|&ln_e| {
        ((best - ln_e) * SCEF_UNIT as f64)
            .round()
            .min(VALUE_LIMIT as f64) as Value
    }));
}

/// σ of the SCEF (paper eq. 11) at a node where `mover` moves: −1 when the
/// attacker (the root player, "us") moves, +1 for the opponent.
#[inline]
pub fn sigma(mover: Player, attacker: Player) -> Value {
    if mover == attacker {
        -1
    } else {
        1
    }
}
