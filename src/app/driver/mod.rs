//! One protocol, two drivers: how the app runs a search without ever
//! blocking its window.
//!
//! The UI talks to a run only through [`SearchDriver`]: it sends
//! [`Command`]s and takes [`Event`]s back. What the commands mean —
//! stepping in chunks, pacing, throttled snapshots, batched samples,
//! budgets, time travel with checkpoints, certificates, syncs — is decided
//! in one place below the app, the run machine
//! ([`RunMachine`](crate::run::RunMachine), which Python's `Search` drives
//! too). The two drivers here are only shells around it:
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
//! for the same commands (`tests/app/driver.rs` checks it on seeded runs,
//! with the machine's synchronous call as a third witness); only where a
//! droppable live snapshot falls depends on the clock. The machine never
//! writes a file: a certificate arrives as text
//! ([`Event::CertificateReady`]) and the run's state saves it
//! ([`files::save_certificate`](super::files::save_certificate)).

pub mod cooperative;
pub mod jobs;
#[cfg(not(target_arch = "wasm32"))]
pub mod thread;

pub use crate::run::{
    CertificateReady, Command, Event, RunSpec, Travel, SAMPLE_BLOCK, SNAPSHOT_INTERVAL,
};

use crate::clock::Duration;

/// Capacity of the event queue (and of the thread driver's command queue):
/// droppable events (live snapshots, sample batches) wait or are dropped
/// beyond it; events that must arrive never are.
pub const QUEUE_CAPACITY: usize = 64;

/// Why a driver did not take a command.
#[derive(Clone, Debug, thiserror::Error)]
pub enum DriverError {
    /// The command queue is full (the thread is busy with a long step).
    #[error("the search is busy; try again")]
    Busy,
    /// The run has stopped (its thread ended).
    #[error("the search has stopped")]
    Stopped,
    /// The driver could not start (the system refused its thread).
    #[error("cannot start the search: {0}")]
    Start(#[source] std::sync::Arc<std::io::Error>),
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
