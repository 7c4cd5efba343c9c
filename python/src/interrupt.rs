//! Long calls: the work runs with the interpreter released, and the
//! calling thread looks for signals (Ctrl-C) between short waits, so a
//! notebook's interrupt stops a search within a fraction of a second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;
use pyo3::prelude::*;

/// How long the caller waits for the work before it looks for signals
/// (and runs `poll`, e.g. to draw a progress bar).
pub const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread while this thread, detached from the
/// interpreter, waits for it; every [`POLL`] it attaches again, checks
/// for signals and calls `poll`. When a signal handler raises (Ctrl-C's
/// `KeyboardInterrupt`) or `poll` fails, `cancel` is set, the work is
/// awaited (it must stop soon once `cancel` is set) and the error is
/// returned.
pub fn run_interruptible<T, W, P>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: W,
    mut poll: P,
) -> PyResult<T>
where
    T: Send,
    W: FnOnce() -> T + Send,
    P: FnMut(Python<'_>) -> PyResult<()>,
{
    std::thread::scope(|scope| {
        let (tx, rx) = crossbeam_channel::bounded(1);
        let worker = scope.spawn(move || {
            let _ = tx.send(work());
        });
        loop {
            let got = py.detach(|| rx.recv_timeout(POLL));
            match got {
                Ok(value) => {
                    let _ = py.detach(|| worker.join());
                    return Ok(value);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // The work panicked before it could send: pass the
                    // panic on (PyO3 turns it into a PanicException).
                    match py.detach(|| worker.join()) {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => unreachable!("the worker sends before it ends"),
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals().and_then(|()| poll(py)) {
                        cancel.store(true, Ordering::Relaxed);
                        let _ = py.detach(|| worker.join());
                        return Err(e);
                    }
                }
            }
        }
    })
}
