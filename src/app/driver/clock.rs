//! The one clock the app reads (snapshot throttling, chunk lengths, pacing,
//! frame budgets). A plain wasm32 page has no `std::time::Instant::now`
//! (it panics there), so every time-reading line of the app goes through
//! this module and a web build swaps the one re-export below.

pub use std::time::Duration;
pub use std::time::Instant;

/// The current instant.
pub fn now() -> Instant {
    Instant::now()
}
