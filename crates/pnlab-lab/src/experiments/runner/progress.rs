//! The progress bar an experiment draws on stderr: jobs done, time so
//! far and an estimate of the time left, redrawn at most five times a
//! second.

use pnlab_core::clock::Instant;
use std::io::Write;
use std::sync::Mutex;

/// A progress bar over `total` jobs.
pub struct Progress {
    total: usize,
    start: Instant,
    last_draw: Mutex<Instant>,
}

impl Progress {
    /// A bar over `total` jobs, started now.
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            start: Instant::now(),
            last_draw: Mutex::new(Instant::now()),
        }
    }

    /// `done` jobs are finished (called from any worker thread).
    pub fn done(&self, done: usize) {
        let mut last = self.last_draw.lock().unwrap_or_else(|e| e.into_inner());
        if done == self.total || last.elapsed().as_millis() > 200 {
            *last = Instant::now();
            draw(done, self.total, self.start.elapsed().as_secs_f64());
        }
    }

    /// Ends the bar's line.
    pub fn finish(self) {
        eprintln!();
    }
}

/// Draws the bar: `done` of `total` jobs after `secs` seconds.
fn draw(done: usize, total: usize, secs: f64) {
    let width = 30;
    let filled = (done * width).checked_div(total).unwrap_or(width);
    let eta = if done == 0 {
        0.0
    } else {
        secs / done as f64 * (total - done) as f64
    };
    eprint!(
        "\r[{}{}] {done}/{total} jobs, {secs:.0}s elapsed, ~{eta:.0}s left ",
        "#".repeat(filled),
        ".".repeat(width - filled)
    );
    let _ = std::io::stderr().flush();
}
