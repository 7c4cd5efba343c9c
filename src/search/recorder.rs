//! The recorder: per-iteration samples of a run, and time travel.
//!
//! Every run is deterministic for its setup (position, algorithm,
//! parameters, seed), so any earlier iteration is shown again exactly by
//! rebuilding the search and replaying that many steps; the recorder keeps
//! the per-iteration samples (the curves) and the setup needed for that.

use super::{registry, Search, SearchSetup, StatsSample};

/// Per-iteration history of one run plus what is needed to rebuild any
/// earlier state.
pub struct Recorder {
    /// The registry name of the recorded algorithm.
    pub algo: String,
    /// The setup it ran with; replaying it rebuilds any earlier state.
    pub setup: SearchSetup,
    /// One sample per iteration, index 0 = before the first step.
    pub samples: Vec<StatsSample>,
}

impl Recorder {
    /// Starts a recording; `first` is the search's sample before any step.
    pub fn new(algo: &str, setup: SearchSetup, first: StatsSample) -> Recorder {
        Recorder {
            algo: algo.to_string(),
            setup,
            samples: vec![first],
        }
    }

    /// Appends the sample taken after a step.
    pub fn push(&mut self, s: StatsSample) {
        self.samples.push(s);
    }

    /// Forgets samples after iteration `k` (after stepping back).
    pub fn truncate(&mut self, k: u64) {
        self.samples.truncate(k as usize + 1);
    }

    /// A fresh search advanced by exactly `k` steps (or until it finished):
    /// the state the run was in after iteration `k`.
    pub fn rebuild_at(&self, k: u64) -> Result<Box<dyn Search>, super::SearchError> {
        let mut s = registry::build(&self.algo, &self.setup)?;
        for _ in 0..k {
            if s.step().is_final() {
                break;
            }
        }
        Ok(s)
    }
}
