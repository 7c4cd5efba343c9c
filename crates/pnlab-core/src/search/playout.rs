//! Monte-Carlo playouts shared by PPN-search, MCPN-search and the MCTS
//! solvers (docs/algorithms.md §5), and the parameters they have in common.
//!
//! A playout plays uniformly random legal moves to the end of the game
//! ([`Game::random_playout`], which games override with fast versions).
//! Every search owns one [`Playouts`] whose RNG is
//! `SmallRng::seed_from_u64(setup.seed)`, so a run is reproducible bit for
//! bit for its seed. A hand-written tree may give a leaf a win-rate hint
//! ([`Game::leaf_win_rate_hint`]); it is then used instead of playouts (the
//! hint is the *first* player's winning probability, draws not modelled).
//!
//! Once a run's deadline has passed ([`clock::interrupted`]) a batch of
//! playouts stops after the one under way: the estimate then rests on
//! fewer playouts (at least one), and the run ends after the step.

use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::game::{Game, Player};

use super::params::ParamSpec;
use super::{Counters, Question};
use crate::clock;

/// `K`: playouts per new node (the PPN paper uses 10).
pub const K_PARAM: ParamSpec = ParamSpec::int(
    "K",
    1,
    100_000,
    10,
    "Playouts per new node (uniformly random moves to the end; docs/algorithms.md §5)",
);

/// `theta`: the win rate R is clamped into [θ, 1 − θ] (§5.1, §5.2).
pub const THETA_PARAM: ParamSpec = ParamSpec::real(
    "theta",
    1e-9,
    0.5,
    0.01,
    "Small positive θ: a playout win rate R is clamped into [θ, 1 − θ] so an unsolved leaf is never 0 or 1",
);

crate::options! {
    /// The options of PPN- and MCPN-search: playouts per node and the clamp.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct PlayoutOptions {
        /// Playouts per new node.
        pub k: u32 => K_PARAM,
        /// The clamp θ.
        pub theta: f64 => THETA_PARAM,
    }
}

/// Clamps a win rate into [θ, 1 − θ] (docs/algorithms.md §5.1/§5.2: R' = R
/// except R = 0 → θ and R = 1 → 1 − θ; for θ ≤ 1/K this is the same thing).
#[inline]
pub fn clamp_rate(r: f64, theta: f64) -> f64 {
    r.clamp(theta, 1.0 - theta)
}

/// The seeded source of playouts of one search.
#[derive(Clone, Debug)]
pub struct Playouts {
    rng: SmallRng,
    /// Playouts per evaluation.
    pub k: u32,
}

impl Playouts {
    /// `k` playouts per evaluation, RNG seeded with `seed`.
    pub fn new(seed: u64, k: u32) -> Playouts {
        Playouts {
            rng: SmallRng::seed_from_u64(seed),
            k: k.max(1),
        }
    }

    /// R: the fraction of `k` playouts from `g` after which `q` holds (the
    /// attacker wins), or the leaf's hint if it has one. Counts the
    /// playouts run in `counters.playouts`.
    pub fn win_rate<G: Game>(&mut self, g: &G, q: &Question, counters: &mut Counters) -> f64 {
        if let Some(h) = g.leaf_win_rate_hint() {
            return match q.attacker {
                Player::First => h,
                Player::Second => 1.0 - h,
            };
        }
        let mut wins = 0u32;
        let mut done = 0u32;
        while done < self.k && !(done > 0 && clock::interrupted()) {
            if q.holds(g.random_playout(&mut self.rng)) {
                wins += 1;
            }
            done += 1;
        }
        counters.playouts += u64::from(done);
        f64::from(wins) / f64::from(done)
    }

    /// The sum of `k` playout results from `p`'s point of view (win 1,
    /// draw 0, loss −1; docs/algorithms.md §5.3), or `k` times the hint's
    /// expected value (2h − 1 for the first player) when the leaf has one.
    pub fn score_sum<G: Game>(&mut self, g: &G, p: Player, counters: &mut Counters) -> f64 {
        if let Some(h) = g.leaf_win_rate_hint() {
            let first = 2.0 * h - 1.0;
            let v = if p == Player::First { first } else { -first };
            return v * self.k as f64;
        }
        let mut sum = 0i64;
        let mut done = 0u32;
        while done < self.k && !(done > 0 && clock::interrupted()) {
            sum += g.random_playout(&mut self.rng).score_for(p).signum() as i64;
            done += 1;
        }
        counters.playouts += u64::from(done);
        // Scaled to `k` playouts, as the callers expect.
        sum as f64 * f64::from(self.k) / f64::from(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pgame::PGame;
    use crate::search::Goal;

    #[test]
    fn same_seed_same_rates_and_a_terminal_is_exact() {
        let g = PGame::new(4, 10, 3).unwrap();
        let q = Question {
            attacker: Player::First,
            goal: Goal::Win,
        };
        let mut c = Counters::default();
        let mut a = Playouts::new(5, 10);
        let mut b = Playouts::new(5, 10);
        let ra: Vec<f64> = (0..20).map(|_| a.win_rate(&g, &q, &mut c)).collect();
        let rb: Vec<f64> = (0..20).map(|_| b.win_rate(&g, &q, &mut c)).collect();
        assert_eq!(ra, rb);
        assert_eq!(c.playouts, 400);
        // Not all equal: the playouts are random.
        assert!(ra.iter().any(|&r| r != ra[0]));
        let mut leaf = PGame::new(1, 1, 0).unwrap();
        leaf.play(0);
        let want = if leaf.sum() > 0 { 1.0 } else { 0.0 };
        assert_eq!(a.win_rate(&leaf, &q, &mut c), want);
        assert_eq!(clamp_rate(0.0, 0.01), 0.01);
        assert_eq!(clamp_rate(1.0, 0.01), 0.99);
        assert_eq!(clamp_rate(0.3, 0.01), 0.3);
    }
}
