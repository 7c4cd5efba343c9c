//! Changing the question of a fast df-pn between runs, keeping its table:
//! what lets the score search ([`super::score`]) ask "score ≥ t?" for
//! several thresholds t without starting from an empty table each time.
//!
//! A proof of "score ≥ t" at a position also proves "score ≥ t′" for
//! every t′ ≤ t, and a disproof of "score ≥ t" disproves it for every
//! t′ ≥ t. So when the threshold moves, the solved entries that still
//! hold stay; the others are emptied (their positions count as unknown
//! again). Unsolved entries keep their numbers: df-pn reads a stored
//! (pn, dn) only as an estimate of the work left, so any positive pair is
//! sound, and the last question's estimates point at the same critical
//! lines.

use crate::game::Game;
use crate::search::{Goal, Question, Status};

use super::rules::Rules;
use super::worker::Worker;
use super::FastDfpn;

/// The threshold t of "the attacker's score ≥ t" that a question asks.
pub fn threshold(q: &Question) -> i32 {
    match q.goal {
        Goal::Win => 1,
        Goal::NotLose => 0,
        Goal::AtLeast(t) => t,
    }
}

impl<G: Game, R: Rules<G>> FastDfpn<G, R> {
    /// Starts a new run for `question` (same attacker, another threshold)
    /// on the same root with the table kept as the module comment says:
    /// the workers, the status and the counters start afresh.
    pub fn retarget(&mut self, question: Question) {
        debug_assert_eq!(question.attacker, self.question.attacker);
        let (old, new) = (threshold(&self.question), threshold(&question));
        self.engine.table.retain(|pn, dn| {
            if pn == 0 {
                new <= old
            } else if dn == 0 {
                new >= old
            } else {
                true
            }
        });
        self.engine.question = question;
        self.question = question;
        self.engine
            .stop
            .store(false, std::sync::atomic::Ordering::Relaxed);
        let threads = self.workers.len();
        self.workers = (0..threads)
            .map(|i| Worker::new(self.root.clone(), i > 0))
            .collect();
        self.status = Status::Running;
        self.counters = Default::default();
        self.root_switches = Default::default();
        self.root_result = None;
        self.root_move = None;
        self.root_move_work = Default::default();
    }
}
