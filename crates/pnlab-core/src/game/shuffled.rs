//! A game wrapper that presents the legal moves of any game in a seeded,
//! shuffled order, for the DeepPN paper's Hex experiment (Ishitobi et al.
//! 2015: "the legal moves of Hex are sorted randomly in every
//! configuration"; docs/algorithms.md §10).
//!
//! Two ways to shuffle ([`ShuffleMode`]):
//! - **per position** (what the paper describes, and the default of the
//!   experiment): every position gets its own random order, derived from
//!   the run's seed and the position's hash. Each move gets the key
//!   `mix(seed, position hash, hash(move))` and moves are listed by
//!   increasing key, so the same position always shows the same order
//!   within a run (a transposition looks the same whichever way it was
//!   reached), and positions differ from each other;
//! - **per run**: one permutation of the *move set* for the whole run
//!   (the key ignores the position), as if the board's cells had been
//!   renumbered once: after a move the remaining moves keep their relative
//!   order.
//!
//! Either way two runs with the same seed see identical trees and
//! different seeds give different orders. Rules, outcome, hash and notation
//! are the inner game's; only the order changes, which is what best-first
//! searches break ties on.

use std::hash::{Hash, Hasher};

use super::mix::splitmix64 as splitmix;
use super::{AnyPosition, Game, GameKind, Outcome, Player};

crate::choice_enum! {
    /// Whether each position gets its own random move order or one
    /// permutation serves the whole run (the setting's words
    /// `per-position`, `per-run`).
    #[derive(serde::Serialize, serde::Deserialize)]
    pub enum ShuffleMode {
        /// Every position its own order, from (seed, position hash).
        PerPosition = "per-position",
        /// One permutation of the moves for the whole run, from the seed.
        PerRun = "per-run",
    }
}

/// `G` with its legal moves listed in a seeded permuted order.
#[derive(Clone, Debug, PartialEq)]
pub struct ShuffledMoves<G: Game> {
    inner: G,
    seed: u64,
    mode: ShuffleMode,
}

impl<G: Game> ShuffledMoves<G> {
    /// Wraps `inner` with one permutation for the whole run; `seed` picks it.
    pub fn new(inner: G, seed: u64) -> Self {
        Self::with_mode(inner, seed, ShuffleMode::PerRun)
    }

    /// Wraps `inner`, shuffling as `mode` says with `seed`.
    pub fn with_mode(inner: G, seed: u64, mode: ShuffleMode) -> Self {
        ShuffledMoves { inner, seed, mode }
    }

    /// How the moves are shuffled.
    pub fn mode(&self) -> ShuffleMode {
        self.mode
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.inner
    }

    /// The seed of the permutation.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The salt of the current position's order: the run's seed alone
    /// (per run) or mixed with the position's hash (per position).
    fn salt(&self) -> u64 {
        match self.mode {
            ShuffleMode::PerRun => splitmix(self.seed),
            ShuffleMode::PerPosition => splitmix(splitmix(self.seed) ^ self.inner.hash()),
        }
    }

    /// The sort key of a move under the order `salt` picks.
    fn key(salt: u64, m: G::Move) -> u64 {
        let mut h = Fnv64(0xCBF2_9CE4_8422_2325);
        m.hash(&mut h);
        splitmix(h.0 ^ salt)
    }
}

/// FNV-1a: a fixed, platform-independent hash of a move's `Hash` bytes (the
/// standard library's hasher is not guaranteed stable across versions).
struct Fnv64(u64);

impl Hasher for Fnv64 {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01B3);
        }
    }
}

impl<G: Game> Game for ShuffledMoves<G> {
    type Move = G::Move;

    fn kind(&self) -> GameKind {
        self.inner.kind()
    }
    fn to_move(&self) -> Player {
        self.inner.to_move()
    }
    /// The inner game's moves sorted by their permutation key.
    fn legal_moves(&self, out: &mut Vec<G::Move>) {
        let start = out.len();
        self.inner.legal_moves(out);
        let salt = self.salt();
        out[start..].sort_by_cached_key(|&m| Self::key(salt, m));
    }
    fn play(&mut self, m: G::Move) {
        self.inner.play(m)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()
    }
    fn hash(&self) -> u64 {
        self.inner.hash()
    }
    fn format_move(&self, m: G::Move) -> String {
        self.inner.format_move(m)
    }
    fn parse_move(&self, text: &str) -> Result<G::Move, crate::game::MoveError> {
        self.inner.parse_move(text)
    }
    fn notation(&self) -> String {
        self.inner.notation()
    }
    /// The inner position: viewers show the board, which the shuffle does
    /// not change.
    fn into_any(self) -> AnyPosition {
        self.inner.into_any()
    }
    fn move_count(&self) -> usize {
        self.inner.move_count()
    }
    fn default_attacker(&self) -> Option<Player> {
        self.inner.default_attacker()
    }
    fn leaf_win_rate_hint(&self) -> Option<f64> {
        self.inner.leaf_win_rate_hint()
    }
    fn random_playout(&self, rng: &mut dyn rand::RngCore) -> Outcome {
        self.inner.random_playout(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tictactoe::TicTacToe;

    fn order(seed: u64, g: TicTacToe) -> Vec<u8> {
        let mut v = Vec::new();
        ShuffledMoves::new(g, seed).legal_moves(&mut v);
        v
    }

    #[test]
    fn same_moves_permuted_consistently() {
        let g = TicTacToe::new();
        let a = order(1, g);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..9).collect::<Vec<u8>>());
        // Deterministic for a seed, different across seeds.
        assert_eq!(a, order(1, g));
        assert!((2..10).any(|s| order(s, g) != a));
        // After a move the remaining moves keep their relative order.
        let mut h = g;
        h.play(a[0]);
        assert_eq!(order(1, h), a[1..].to_vec());
    }

    fn order_per_position(seed: u64, g: TicTacToe) -> Vec<u8> {
        let mut v = Vec::new();
        ShuffledMoves::with_mode(g, seed, ShuffleMode::PerPosition).legal_moves(&mut v);
        v
    }

    /// Per position: each position draws its own order (so after a move
    /// the rest is reordered, not kept), the same position always shows
    /// the same order, and the orders look uniform: over many positions
    /// every move comes first about equally often.
    #[test]
    fn per_position_orders_differ_between_positions() {
        let g = TicTacToe::new();
        let a = order_per_position(5, g);
        assert_eq!(a, order_per_position(5, g), "deterministic for a seed");
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..9).collect::<Vec<u8>>());
        // The same position reached by two move orders: the same order.
        let (mut x, mut y) = (g, g);
        for m in [0, 4, 8] {
            x.play(m);
        }
        for m in [8, 4, 0] {
            y.play(m);
        }
        assert_eq!(order_per_position(5, x), order_per_position(5, y));
        // After one move, the remaining moves are reordered in most
        // positions (a per-run permutation would always keep them).
        let reordered = (0..9u8)
            .filter(|&m| {
                let mut h = g;
                h.play(m);
                let rest: Vec<u8> = a.iter().copied().filter(|&x| x != m).collect();
                order_per_position(5, h) != rest
            })
            .count();
        assert!(reordered >= 7, "only {reordered} of 9 positions reordered");
        // First-move frequencies over 900 seeds: each of the 9 cells about
        // 100 times (a fixed bias would show up far outside 60..140).
        let mut first = [0usize; 9];
        for seed in 0..900 {
            first[order_per_position(seed, g)[0] as usize] += 1;
        }
        assert!(first.iter().all(|&f| (60..140).contains(&f)), "{first:?}");
    }
}
