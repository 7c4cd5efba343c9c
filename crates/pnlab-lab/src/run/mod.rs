//! The run machine: one search run, driven by [`Command`]s and reporting
//! by [`Event`]s, for every shell that steps a search where people watch
//! or call it step by step: the desktop app (on a thread of its own), the
//! web page (a few milliseconds a frame on its only thread), the lesson
//! player's race side and Python's `Search` (synchronously, one call at a
//! time).
//!
//! What the commands mean is decided here once: stepping in chunks,
//! pacing, budgets, throttled snapshots, batched curve samples, time
//! travel with checkpoints, certificates, syncs ([`RunMachine`]). A shell
//! hands the machine commands ([`RunMachine::handle`]) and, while it is
//! busy, time to work ([`RunMachine::work`]), always with the slice of
//! time it may take (the page's frame budget, the desktop thread's chunk);
//! a synchronous shell uses [`RunMachine::apply`], which works until the
//! run stands still and returns the events.
//!
//! The machine never touches the file system or the window: where a run
//! is saved it emits the certificate's text ([`Event::CertificateReady`])
//! and the shell writes it; what a shell does not draw it switches off
//! ([`Feeds`]). Each iteration goes through the engine's
//! [`advance`](pnlab_core::search::driver::advance), the step the
//! headless `search::run` takes too, so a budget means the same in
//! `pnlab solve`, the app and Python.

mod certify;
mod command;
pub mod driven;
mod event;
mod fault;
mod load;
mod machine;
mod outbox;
mod running;
mod travel;

#[cfg(test)]
mod tests;

pub use certify::CertificateRefused;
pub use command::{Command, RunSpec};
pub use event::{CertificateReady, Event, Travel};
pub use fault::{RunFault, RunPhase};
pub use machine::{checkpoint_limit, Feeds, RunMachine, COPY_SHARE, LOOK_EVERY, RECENT_BACK};
pub use outbox::Outbox;

use pnlab_core::clock::Duration;

/// At most this many live snapshots per second while running (≈ 30/s).
pub const SNAPSHOT_INTERVAL: Duration = Duration::from_millis(33);

/// The sampling policy of the curves (shared with the CLI's exports).
pub use pnlab_core::search::driver::SAMPLE_BLOCK;
