//! What a run tells its shell.

use super::RunFault;
use crate::export::RunFacts;
use pnlab_core::search::{Snapshot, StatsSample, Status, StopReason};

/// Run → shell.
#[derive(Clone, Debug)]
pub enum Event {
    /// A new run began (Load): the UI clears its curves.
    Started {
        /// The registry name of the new run's algorithm.
        algo: String,
    },
    /// A new picture of the tree and what the run names best.
    Snapshot {
        /// The bounded tree picture.
        snapshot: Box<Snapshot>,
        /// Best move and algorithm-specific fields, for the run's JSON.
        facts: RunFacts,
    },
    /// Samples in iteration order (never dropped).
    Samples(Vec<StatsSample>),
    /// Time travel arrived: the run shows the state after `iteration`
    /// (samples after it stay, for going forward again).
    Rewound {
        /// The iteration the run went to.
        iteration: u64,
    },
    /// A long time travel is under way (sent about 30 times a second):
    /// replaying from the checkpoint at `from` towards `target`.
    Travelling(Travel),
    /// A time travel was cancelled (Pause): the run stays where it was.
    TravelCancelled,
    /// Whether the run is stepping.
    Running(bool),
    /// The search reached a final status.
    Finished(Status),
    /// A budget paused the run.
    BudgetReached(StopReason),
    /// A Load was refused (the algorithm cannot search the position, or
    /// a parameter is wrong): the message. No run stays loaded.
    LoadFailed(RunFault),
    /// A user-facing error (a panic in the search, no certificate to make).
    Error(RunFault),
    /// Answer to [`Command::Sync`](super::Command::Sync).
    Synced(u64),
    /// The certificate asked for with
    /// [`Command::Certificate`](super::Command::Certificate): the shell
    /// writes it.
    CertificateReady(CertificateReady),
    /// A checkpoint was prepared at iteration `at`, a little before the
    /// shown one: Back from here replays only the iterations between.
    BackReady {
        /// Its iteration.
        at: u64,
    },
}

/// Where a time travel stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Travel {
    /// The checkpoint the replay started from.
    pub from: u64,
    /// The iteration replayed so far.
    pub at: u64,
    /// The iteration asked for.
    pub target: u64,
}

impl Travel {
    /// Share of the replay done, 0..=1.
    pub fn fraction(&self) -> f32 {
        let total = self.target.saturating_sub(self.from).max(1);
        (self.at.saturating_sub(self.from) as f32 / total as f32).clamp(0.0, 1.0)
    }
}

/// A proof (or disproof) certificate of the solved run, as `pnlab verify`
/// reads it, with what a teacher quotes about it ("the proof has 1,234
/// positions").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertificateReady {
    /// Where the shell was asked to save it.
    pub path: std::path::PathBuf,
    /// The certificate file's text.
    pub text: String,
    /// Distinct positions in the certificate.
    pub positions: usize,
    /// Proved (true) or disproved (false).
    pub proved: bool,
}
