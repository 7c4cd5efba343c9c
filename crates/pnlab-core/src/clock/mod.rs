//! The program's one clock. Everything that reads the time — the engine's
//! time budgets and the deadline inside long steps ([`deadline`]), the
//! app's frame budgets, snapshot throttling and pacing, the benches and the
//! experiments' CPU-time measurements — reads it through here.
//!
//! Why one module: in a plain `wasm32-unknown-unknown` page
//! `std::time::Instant::now` panics (there is no clock syscall). `web-time`
//! is `std::time` itself on the desktop and the browser's monotonic
//! `performance.now()` in a page, so one re-export serves both builds and no
//! caller needs a `cfg`. CPU time ([`process_cpu_time`], [`thread_cpu_time`])
//! is read from the operating system's clocks in one place too, rather than
//! by parsing `/proc` with an assumed tick rate.

mod cpu;
pub mod deadline;

pub use cpu::{process_cpu_time, thread_cpu_time};
pub use deadline::{deadline_scope, interrupted, tripped, DeadlineScope, POLL_EVERY};
pub use web_time::{Duration, Instant};

/// The current instant.
#[inline]
pub fn now() -> Instant {
    Instant::now()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_is_monotonic_and_measures_sleeps() {
        let a = now();
        std::thread::sleep(Duration::from_millis(5));
        let b = now();
        assert!(b >= a);
        assert!(b.duration_since(a) >= Duration::from_millis(5));
    }
}
