//! A live class: every student answers a lesson's questions on their own
//! device while the projector shows the class's answers.
//!
//! Only the lesson (its text, once) and the step travel between the
//! server and the devices: every device plays the lesson itself, and the
//! engine is deterministic, so each one draws the same tree. The server
//! plays the lesson too, to check that an answer names a node of the
//! step's tree and to judge it with the engine's own reason.
//!
//! [`protocol`] is the wire format both sides share (the page, the app
//! and the server); the server's rooms live behind the `serve` feature.

pub mod protocol;

#[cfg(feature = "serve")]
pub mod client;
#[cfg(feature = "serve")]
pub mod codes;
#[cfg(feature = "serve")]
pub mod error;
#[cfg(feature = "serve")]
pub mod lessons;
#[cfg(feature = "serve")]
pub mod load;
#[cfg(feature = "serve")]
pub mod rate;
#[cfg(feature = "serve")]
pub mod refusal;
#[cfg(feature = "serve")]
pub mod room;
#[cfg(feature = "serve")]
pub mod rooms;
#[cfg(feature = "serve")]
pub mod server;
#[cfg(feature = "serve")]
pub mod tally;
