//! The error rate of the move the search names best (issue #5 item 5,
//! "error rate when known"): the correct root moves are worked out once per
//! position on a thread of their own (an exhaustive evaluation can take a
//! few seconds and the UI never waits), then every stats sample's
//! `best_child` is scored against them.
//!
//! Two curves per run: whether the current choice is wrong (0 or 1), and
//! the share of iterations so far spent with a wrong choice. Before the
//! search names any move its choice counts as wrong, as in the PPN paper.

use std::sync::Arc;

use crossbeam_channel::{bounded, Receiver};

use crate::game::AnyPosition;
use crate::search::correct_moves::{self, CorrectMoves, CorrectSource};
use crate::search::{Question, StatsSample};

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
    pending: Option<Receiver<Option<CorrectMoves>>>,
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
        let (tx, rx) = bounded(1);
        let position = position.clone();
        let best = best_moves.to_vec();
        let spawned = std::thread::Builder::new()
            .name("pnlab-correct-moves".into())
            .spawn(move || {
                let c = correct_moves::for_position(
                    &position,
                    &q,
                    &best,
                    correct_moves::DEFAULT_MAX_POSITIONS,
                );
                // The receiver is gone when another position was loaded.
                let _ = tx.send(c);
            });
        match spawned {
            Ok(_) => self.pending = Some(rx),
            Err(_) => {
                self.pending = None;
                self.knowledge = Knowledge::Unknown;
            }
        }
    }

    /// Takes the thread's result if it is ready; true when it changed
    /// what is known.
    pub fn poll(&mut self) -> bool {
        let Some(rx) = &self.pending else {
            return false;
        };
        let Ok(result) = rx.try_recv() else {
            return false;
        };
        self.pending = None;
        self.generation += 1;
        self.knowledge = match result {
            Some(c) => Knowledge::Known(Arc::new(c)),
            None => Knowledge::Unknown,
        };
        true
    }

    /// Blocks until the result is in (tests and the headless hook).
    pub fn wait(&mut self, timeout: std::time::Duration) -> bool {
        if let Some(rx) = &self.pending {
            if let Ok(result) = rx.recv_timeout(timeout) {
                self.pending = None;
                self.generation += 1;
                self.knowledge = match result {
                    Some(c) => Knowledge::Known(Arc::new(c)),
                    None => Knowledge::Unknown,
                };
            }
        }
        self.pending.is_none()
    }

    pub fn is_computing(&self) -> bool {
        matches!(self.knowledge, Knowledge::Computing)
    }

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
            Knowledge::Unknown => "error rate unknown: the position is too large for the \
                                   exhaustive check and its file names no best moves"
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

/// Running error tally of one run: each sample's choice stands for the
/// iterations since the previous sample (the sampling stride grows on
/// long runs), so the share is per iteration, not per sample.
#[derive(Clone, Copy, Debug, Default)]
pub struct ErrorTally {
    wrong_iterations: u64,
    last: u64,
}

impl ErrorTally {
    /// Scores one sample: `(iteration, wrong now (0/1), share of wrong
    /// iterations so far)`.
    pub fn add(&mut self, s: &StatsSample, correct: &CorrectMoves) -> (f64, f64, f64) {
        let wrong = !correct.is_correct(s.best_child);
        let span = s.iteration.saturating_sub(self.last).max(1);
        if wrong {
            self.wrong_iterations += span;
        }
        self.last = s.iteration.max(self.last);
        let share = self.wrong_iterations as f64 / self.last.max(1) as f64;
        (s.iteration as f64, if wrong { 1.0 } else { 0.0 }, share)
    }
}

/// The two error curves of one run as plot points `[iteration, y]`: the
/// current choice's error (0/1) and the running share of wrong
/// iterations ([`ErrorTally`]).
pub fn error_points(samples: &[StatsSample], correct: &CorrectMoves) -> ErrorPoints {
    let mut out = ErrorPoints::default();
    let mut tally = ErrorTally::default();
    for s in samples {
        let (x, now, share) = tally.add(s, correct);
        out.wrong_now.push([x, now]);
        out.share.push([x, share]);
    }
    out
}

/// See [`error_points`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorPoints {
    pub wrong_now: Vec<[f64; 2]>,
    pub share: Vec<[f64; 2]>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(iteration: u64, best_child: Option<u32>) -> StatsSample {
        StatsSample {
            iteration,
            best_child,
            ..StatsSample::default()
        }
    }

    #[test]
    fn the_share_weights_each_choice_by_the_iterations_it_stood_for() {
        let c = CorrectMoves {
            correct: vec![false, true],
            labels: vec!["b".into()],
            source: CorrectSource::Exhaustive,
            basis: String::new(),
        };
        // No choice at 1, wrong choice over 2..=4, right over 5..=10.
        let s = [sample(1, None), sample(4, Some(0)), sample(10, Some(1))];
        let p = error_points(&s, &c);
        assert_eq!(p.wrong_now, vec![[1.0, 1.0], [4.0, 1.0], [10.0, 0.0]]);
        assert_eq!(p.share, vec![[1.0, 1.0], [4.0, 1.0], [10.0, 0.4]]);
    }
}
