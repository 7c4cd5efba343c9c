//! The one clock the app reads (snapshot throttling, chunk lengths, pacing,
//! frame budgets). A plain wasm32 page has no `std::time::Instant::now`
//! (it panics there), so every time-reading line of the app goes through
//! this module, which takes the engine's clock ([`crate::search::clock`]),
//! so a web build swaps one re-export for the app and the engine alike.

pub use crate::search::clock::{Duration, Instant};

/// The current instant.
pub fn now() -> Instant {
    Instant::now()
}
