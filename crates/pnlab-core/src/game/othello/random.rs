//! Seeded random Othello positions: the endgame instances of the
//! experiments, the benchmarks and the tests (all draw them the same way,
//! so a seed names one position everywhere).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::Othello;
use crate::game::Game;

/// A seeded random Othello position with `empties` empty squares reached
/// by uniformly random legal moves from the start; redrawn (same generator)
/// when the game ends on the way or the position is already finished.
pub fn random_othello(seed: u64, empties: u32) -> Option<Othello> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _attempt in 0..1000 {
        let mut g = Othello::start();
        while g.empties() > empties {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            g.play(m);
        }
        if g.empties() == empties && g.outcome().is_none() {
            return Some(g);
        }
    }
    None
}
