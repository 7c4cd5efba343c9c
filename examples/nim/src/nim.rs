//! Nim: heaps of counters; a move takes one or more counters from one
//! heap; whoever takes the last counter wins (normal play). The whole
//! game is in [`Nim`], a value the engine holds behind an `Arc` and never
//! changes: playing a move makes a new position, as
//! [`ExternalState::play`] requires.

use std::any::Any;
use std::sync::Arc;

use pnlab_core::game::external::ExternalState;
use pnlab_core::game::{Outcome, Player};

/// One Nim position: the heaps and the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    heaps: Vec<u8>,
    to_move: Player,
}

impl Nim {
    /// The position with these heaps, the first player to move.
    pub fn new(heaps: &[u8]) -> Nim {
        Nim {
            heaps: heaps.to_vec(),
            to_move: Player::First,
        }
    }

    /// The heaps, in order.
    pub fn heaps(&self) -> &[u8] {
        &self.heaps
    }

    /// Every legal move as (heap, counters taken), in a fixed order: heap
    /// by heap, then by how many are taken. A move's index in this list is
    /// what the engine stores.
    fn moves(&self) -> Vec<(usize, u8)> {
        self.heaps
            .iter()
            .enumerate()
            .flat_map(|(h, &n)| (1..=n).map(move |take| (h, take)))
            .collect()
    }

    /// Bouton's theorem (1901): the player to move wins exactly when the
    /// heaps' bitwise XOR (the nim-sum) is not zero. The example checks
    /// every search against it.
    pub fn mover_wins(&self) -> bool {
        self.heaps.iter().fold(0, |x, &n| x ^ n) != 0
    }

    /// The player to move.
    pub fn player_to_move(&self) -> Player {
        self.to_move
    }
}

impl ExternalState for Nim {
    fn game_name(&self) -> String {
        "nim".into()
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn move_count(&self) -> usize {
        self.heaps.iter().map(|&n| usize::from(n)).sum()
    }

    fn move_name(&self, index: usize) -> String {
        let (heap, take) = self.moves()[index];
        format!("{}-{take}", heap + 1)
    }

    fn play(&self, index: usize) -> Arc<dyn ExternalState> {
        let (heap, take) = self.moves()[index];
        let mut next = self.clone();
        next.heaps[heap] -= take;
        next.to_move = self.to_move.other();
        Arc::new(next)
    }

    fn outcome(&self) -> Option<Outcome> {
        // No counter left: the player who just moved took the last one.
        (self.move_count() == 0).then(|| Outcome::win_for(self.to_move.other()))
    }

    fn key(&self) -> u64 {
        // Each heap in its own byte, the side to move in the top bit: equal
        // positions get equal keys and different ones different keys (up
        // to seven heaps).
        let heaps = self
            .heaps
            .iter()
            .fold(0u64, |k, &n| (k << 8) | u64::from(n));
        heaps | (u64::from(self.to_move == Player::Second) << 63)
    }

    fn notation(&self) -> String {
        let heaps: Vec<String> = self.heaps.iter().map(u8::to_string).collect();
        format!("{} ({:?} to move)", heaps.join(" "), self.to_move)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn score_range(&self) -> Option<(f64, f64)> {
        // A game of Nim ends in a win for one side: ±1.
        Some((-1.0, 1.0))
    }
}
