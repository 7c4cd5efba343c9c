//! One protocol, two drivers: how the app runs a search without ever
//! blocking its window.
//!
//! The UI talks to a run only through [`SearchDriver`]: it sends
//! [`Command`]s and takes [`Event`]s back. What the commands mean —
//! stepping in chunks, pacing, throttled snapshots, batched samples,
//! budgets, time travel with checkpoints, proofs, syncs — is decided in
//! one place, the plain state machine [`machine::RunMachine`]. Two drivers
//! feed it:
//!
//! - [`thread::ThreadDriver`] (desktop): the machine lives on its own
//!   thread behind two bounded channels; a running chunk returns to the
//!   command queue every few milliseconds, and interrupting commands raise
//!   a cancel flag the chunk reads.
//! - [`cooperative::CooperativeDriver`] (a page without threads, or a test
//!   that wants everything on one thread): the machine lives on the
//!   caller's thread and advances only inside [`SearchDriver::pump`], for
//!   at most a per-frame time budget, emitting the very same events.
//!
//! Because the machine is shared, the two drivers produce the same events
//! for the same commands (`tests/app_driver.rs` checks it on seeded runs);
//! only where a droppable live snapshot falls depends on the clock.

pub mod cooperative;
pub mod driven;
pub mod jobs;
pub mod machine;
#[cfg(not(target_arch = "wasm32"))]
pub mod thread;

use crate::export::RunFacts;
use crate::search::{Budget, SearchSetup, Snapshot, StatsSample, Status, StopReason, ViewRequest};

use crate::clock::Duration;

/// At most this many live snapshots per second while running (≈ 30/s).
pub const SNAPSHOT_INTERVAL: Duration = Duration::from_millis(33);
/// Capacity of the event queue (and of the thread driver's command queue):
/// droppable events (live snapshots, sample batches) wait or are dropped
/// beyond it; events that must arrive never are.
pub const QUEUE_CAPACITY: usize = 64;
/// The sampling policy of the curves (shared with the CLI's exports).
pub use crate::search::driver::SAMPLE_BLOCK;

/// What to run: algorithm name plus the complete setup.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The registry name of the algorithm.
    pub algo: String,
    /// Position, parameters, seed and question.
    pub setup: SearchSetup,
}

/// UI → run. `Clone`, so race mode can send one command to both runs.
/// `Load` carries a whole position (a xiangqi board is a few hundred
/// bytes); commands are sent once per user action, so the size costs
/// nothing worth an indirection.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Start a new run (position, algorithm, parameters, seed).
    Load(RunSpec),
    /// Run `n` iterations, then pause.
    Step(u64),
    /// Run until the search finishes, a budget is reached or Pause.
    Run,
    /// Run until the iteration counter reaches `k` or the search
    /// finishes (`u64::MAX`: to the end), then pause: how a lesson step
    /// or a race side is brought to where the lesson player stopped (a
    /// df-pn's last call returns to the root without a new iteration,
    /// which a count of steps would miss).
    RunTo(u64),
    /// Stop running after the current iteration, or cancel a time travel
    /// under way (Step and GoTo still work).
    Pause,
    /// Go back `k` iterations (time travel).
    Back(u64),
    /// Show the state after iteration `k` (scrubber).
    GoTo(u64),
    /// Rebuild the current run at iteration 0.
    Reset,
    /// Which part of the tree the viewer shows.
    SetView(ViewRequest),
    /// Iterations per second while running; `None` = as fast as possible.
    SetSpeed(Option<f64>),
    /// The run pauses when a budget is reached.
    SetBudget(Budget),
    /// Answered with [`Event::Synced`] once every earlier command is done
    /// (a running step, run or time travel included): tests, the race's
    /// lockstep and the headless hook wait on it.
    Sync(u64),
    /// Writes the proof (or disproof) certificate of the solved run to
    /// the file; answered with [`Event::ProofSaved`] or an error.
    SaveProof(std::path::PathBuf),
    /// Ends the run (and the thread driver's thread).
    Stop,
}

impl Command {
    /// Commands that must interrupt a running chunk or a time travel.
    pub fn interrupts(&self) -> bool {
        matches!(
            self,
            Command::Pause
                | Command::Back(_)
                | Command::GoTo(_)
                | Command::Reset
                | Command::Load(_)
                | Command::Stop
        )
    }
}

/// Run → UI.
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
    /// a parameter is wrong): the message. The previous run stays loaded.
    LoadFailed(String),
    /// A user-facing error (a panic in the search, a proof not written).
    Error(String),
    /// Answer to [`Command::Sync`].
    Synced(u64),
    /// A certificate was written ([`Command::SaveProof`]).
    ProofSaved(ProofSaved),
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

/// What a written certificate holds: the size a teacher quotes ("the
/// proof has 1,234 positions") and where it went.
#[derive(Clone, Debug, PartialEq)]
pub struct ProofSaved {
    /// The file written.
    pub path: std::path::PathBuf,
    /// Distinct positions in the certificate.
    pub positions: usize,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Proved (true) or disproved (false).
    pub proved: bool,
}

/// Why a driver did not take a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DriverError {
    /// The command queue is full (the thread is busy with a long step).
    #[error("the search is busy; try again")]
    Busy,
    /// The run has stopped (its thread ended).
    #[error("the search has stopped")]
    Stopped,
    /// The driver could not start.
    #[error("cannot start the search: {0}")]
    Start(String),
}

/// The app's one way to run a search: commands in, events out.
///
/// Implementations wake the window (the `wake` callback given when they
/// were made) whenever events are ready or more work is pending, so the
/// UI only has to call [`pump`](SearchDriver::pump) and drain
/// [`poll`](SearchDriver::poll) once a frame.
pub trait SearchDriver {
    /// Hands a command to the run; commands that [`interrupt`]
    /// (Command::interrupts) cut a running chunk short.
    fn send(&mut self, cmd: Command) -> Result<(), DriverError>;
    /// Gives the driver the caller's share of this frame: the cooperative
    /// driver steps the search for up to its per-frame budget here; the
    /// thread driver does nothing (its thread works on its own).
    fn pump(&mut self);
    /// The next event that is ready, without waiting.
    fn poll(&mut self) -> Option<Event>;
    /// Waits up to `timeout` for the next event (tests, scripted runs); the
    /// cooperative driver does the work itself while it waits.
    fn wait(&mut self, timeout: Duration) -> Option<Event>;
    /// Which driver this is (shown in the About line and the state JSON).
    fn kind(&self) -> DriverKind;
}

/// The two drivers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DriverKind {
    /// A search thread per run (desktop).
    #[default]
    Thread,
    /// Stepped on the UI thread within a per-frame budget (web).
    Cooperative,
}

impl DriverKind {
    /// The name used on the command line and in the state JSON.
    pub fn name(self) -> &'static str {
        match self {
            DriverKind::Thread => "thread",
            DriverKind::Cooperative => "cooperative",
        }
    }

    /// The best driver where the app runs: a thread where threads exist.
    pub fn native() -> DriverKind {
        if cfg!(target_arch = "wasm32") {
            DriverKind::Cooperative
        } else {
            DriverKind::Thread
        }
    }
}

/// Starts a driver of `kind`; `wake` asks the window for another frame
/// (the app passes `ctx.request_repaint`). Where threads are missing the
/// thread driver falls back to the cooperative one.
pub fn start(
    kind: DriverKind,
    wake: impl Fn() + Send + Sync + 'static,
) -> Result<Box<dyn SearchDriver>, DriverError> {
    match kind {
        #[cfg(not(target_arch = "wasm32"))]
        DriverKind::Thread => Ok(Box::new(thread::ThreadDriver::spawn(wake)?)),
        _ => Ok(Box::new(cooperative::CooperativeDriver::new(wake))),
    }
}
