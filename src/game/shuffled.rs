//! A game wrapper that presents the legal moves of any game in a seeded,
//! shuffled order (docs/algorithms.md §10: "Hex(4): the empty 4×4 board with
//! move order shuffled per run", the DeepPN paper's Hex experiment).
//!
//! The order is a fixed permutation of the *move set* chosen by the seed:
//! each move gets the key `mix(seed, hash(move))` and moves are listed by
//! increasing key. So in every position of one run the same moves come in
//! the same relative order (as if the board's cells had been renumbered),
//! two runs with the same seed see identical trees, and different seeds
//! give different orders. Rules, outcome, hash and notation are the inner
//! game's; only the order changes, which is what best-first searches break
//! ties on.

use std::hash::{Hash, Hasher};

use super::mix::splitmix64 as splitmix;
use super::{AnyPosition, Game, GameKind, Outcome, Player};

/// `G` with its legal moves listed in a seeded permuted order.
#[derive(Clone, Debug, PartialEq)]
pub struct ShuffledMoves<G: Game> {
    inner: G,
    seed: u64,
}

impl<G: Game> ShuffledMoves<G> {
    /// Wraps `inner`; `seed` picks the permutation.
    pub fn new(inner: G, seed: u64) -> Self {
        ShuffledMoves { inner, seed }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.inner
    }

    /// The seed of the permutation.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The sort key of a move under this run's permutation.
    fn key(&self, m: G::Move) -> u64 {
        let mut h = Fnv64(0xCBF2_9CE4_8422_2325);
        m.hash(&mut h);
        splitmix(h.0 ^ splitmix(self.seed))
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
        out[start..].sort_by_cached_key(|&m| self.key(m));
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
    fn parse_move(&self, text: &str) -> Result<G::Move, String> {
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
}
