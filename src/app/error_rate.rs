//! The correct root moves of the loaded position, for the error rate of
//! the move the search names best: worked out once per position on a
//! thread of their own (an exhaustive evaluation can take a few seconds
//! and the UI never waits). The scoring itself is the engine's
//! (`crate::search::error_rate`), shared with the CSV export.

use std::sync::Arc;

use super::driver::jobs::Job;

use crate::game::AnyPosition;
use crate::search::correct_moves::{self, CorrectMoves, CorrectSource};
use crate::search::Question;

/// What the app knows about the correct moves of the loaded position.
#[derive(Clone, Debug, Default)]
pub enum Knowledge {
    /// Nothing loaded yet.
    #[default]
    None,
    /// The evaluation thread is still working.
    Computing,
    /// Known: the error rate can be drawn.
    Known(Arc<CorrectMoves>),
    /// Too large for the exhaustive check and no best moves in the file.
    Unknown,
}

/// The correct-moves evaluation of the loaded position.
#[derive(Default)]
pub struct CorrectMovesTask {
    /// Identifies the position and question the result belongs to.
    key: Option<(u64, Question)>,
    pending: Option<Job<Option<CorrectMoves>>>,
    /// Where the evaluation stands (the error-rate curve waits for `Known`).
    pub knowledge: Knowledge,
    /// Bumped whenever `knowledge` changes (the curves' cache key).
    pub generation: u64,
}

impl CorrectMovesTask {
    /// Starts the evaluation for a new position or question; keeps the
    /// current one when nothing changed (a new algorithm or parameter set
    /// on the same position).
    pub fn start(&mut self, position: &AnyPosition, q: Question, best_moves: &[String]) {
        let key = (position_key(position), q);
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        self.generation += 1;
        self.knowledge = Knowledge::Computing;
        let position = position.clone();
        let best = best_moves.to_vec();
        // The exhaustive evaluation recurses once per ply: long games
        // (xiangqi) overflow the default 2 MiB stack.
        self.pending = Job::start("pnlab-correct-moves", 256 << 20, move |_| {
            correct_moves::for_position(&position, &q, &best, correct_moves::DEFAULT_MAX_POSITIONS)
        });
        if self.pending.is_none() {
            self.knowledge = Knowledge::Unknown;
        }
    }

    /// Takes the thread's result if it is ready; true when it changed
    /// what is known.
    pub fn poll(&mut self) -> bool {
        let Some(result) = self.pending.as_mut().and_then(|j| j.poll()) else {
            return false;
        };
        self.take(result);
        true
    }

    fn take(&mut self, result: Option<CorrectMoves>) {
        self.pending = None;
        self.generation += 1;
        self.knowledge = match result {
            Some(c) => Knowledge::Known(Arc::new(c)),
            None => Knowledge::Unknown,
        };
    }

    /// Blocks until the result is in (tests and the headless hook).
    pub fn wait(&mut self, timeout: std::time::Duration) -> bool {
        if let Some(result) = self.pending.as_mut().and_then(|j| j.wait(timeout)) {
            self.take(result);
        }
        self.pending.is_none()
    }

    /// True while the evaluation thread works (the UI shows a spinner).
    pub fn is_computing(&self) -> bool {
        matches!(self.knowledge, Knowledge::Computing)
    }

    /// The correct moves, once known.
    pub fn correct(&self) -> Option<&CorrectMoves> {
        match &self.knowledge {
            Knowledge::Known(c) => Some(c),
            _ => None,
        }
    }

    /// A one-line description for the curves panel.
    pub fn describe(&self) -> String {
        match &self.knowledge {
            Knowledge::None => String::new(),
            Knowledge::Computing => "error rate: working out the correct moves…".into(),
            Knowledge::Unknown => "error rate unknown: the position is too large (or its \
                                   value depends on the path) for the exhaustive check \
                                   and its file names no best moves"
                .into(),
            Knowledge::Known(c) => format!(
                "correct moves ({}, {}): {}",
                match c.source {
                    CorrectSource::Exhaustive => "exhaustive",
                    CorrectSource::Annotated => "from the file",
                },
                c.basis,
                c.labels.join(" ")
            ),
        }
    }
}

fn position_key(p: &AnyPosition) -> u64 {
    let h = crate::with_position!(p, g => crate::game::Game::hash(g));
    h ^ (p.kind() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
