//! Background jobs that are not searches: the exhaustive correct-moves
//! evaluation, loading a slow position file, RSCN along a game. On the
//! desktop each runs on a thread of its own; where threads are missing
//! the job runs to its end when it is started (the page waits once,
//! rather than not working). Jobs see a [`JobContext`] to report progress
//! and notice that they were cancelled; the UI polls the [`Job`] once a
//! frame and shows [`Job::progress`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crossbeam_channel::Receiver;

use crate::clock::Duration;

/// Runs `work` on a thread named `name` (with `stack_bytes` of stack),
/// or, where threads are missing, right here before returning. For jobs
/// that stream their results through a channel of their own (RSCN along
/// a game); one-result jobs use [`Job`].
pub fn detached(
    name: &str,
    stack_bytes: usize,
    work: impl FnOnce() + Send + 'static,
) -> Result<(), SpawnError> {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (name, stack_bytes);
        work();
        Ok(())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(stack_bytes)
            .spawn(work)
            .map(|_| ())
            .map_err(|source| SpawnError {
                name: name.to_string(),
                source,
            })
    }
}

/// A thread the system would not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot start {name}: {source}")]
pub struct SpawnError {
    /// The thread's name.
    pub name: String,
    /// The system's reason.
    pub source: std::io::Error,
}

/// What a running job can see: whether it was cancelled, and where to
/// leave its progress.
#[derive(Clone, Default)]
pub struct JobContext {
    cancelled: Arc<AtomicBool>,
    done: Arc<AtomicU64>,
    total: Arc<AtomicU64>,
    stage: Arc<Mutex<String>>,
}

impl JobContext {
    /// True once the job was cancelled: it should return soon.
    pub fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// `done` of `total` units of work (total 0 = unknown).
    pub fn set_progress(&self, done: u64, total: u64) {
        self.done.store(done, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }

    /// What the job is doing now, in a few words.
    pub fn set_stage(&self, stage: &str) {
        if let Ok(mut s) = self.stage.lock() {
            stage.clone_into(&mut s);
        }
    }

    /// The cancel flag, for engine functions that take one.
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.cancelled
    }
}

/// Where a job stands, for the progress line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobProgress {
    /// Units done.
    pub done: u64,
    /// Units in all (0 = unknown).
    pub total: u64,
    /// What it is doing.
    pub stage: String,
}

/// A job started by [`Job::start`].
pub struct Job<T> {
    ctx: JobContext,
    result: Option<T>,
    rx: Option<Receiver<T>>,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` named `name` with a stack of `stack_bytes` (deep
    /// recursions such as the exhaustive evaluation of long games need
    /// more than the default). `None` when no thread could be had.
    pub fn start(
        name: &str,
        stack_bytes: usize,
        work: impl FnOnce(&JobContext) -> T + Send + 'static,
    ) -> Option<Job<T>> {
        let ctx = JobContext::default();
        #[cfg(target_arch = "wasm32")]
        {
            let _ = (name, stack_bytes);
            let result = work(&ctx);
            Some(Job {
                ctx,
                result: Some(result),
                rx: None,
            })
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (tx, rx) = crossbeam_channel::bounded(1);
            let inner = ctx.clone();
            std::thread::Builder::new()
                .name(name.to_string())
                .stack_size(stack_bytes)
                .spawn(move || {
                    // The receiver is gone when the job was dropped.
                    let _ = tx.send(work(&inner));
                })
                .ok()?;
            Some(Job {
                ctx,
                result: None,
                rx: Some(rx),
            })
        }
    }
}

impl<T> Job<T> {
    /// The result, once the job ended (taken: later calls give `None`).
    pub fn poll(&mut self) -> Option<T> {
        if self.result.is_none() {
            self.result = self.rx.as_ref().and_then(|rx| rx.try_recv().ok());
        }
        self.result.take()
    }

    /// Waits up to `timeout` for the result (tests, scripted runs).
    pub fn wait(&mut self, timeout: Duration) -> Option<T> {
        if self.result.is_none() {
            self.result = self
                .rx
                .as_ref()
                .and_then(|rx| rx.recv_timeout(timeout).ok());
        }
        self.result.take()
    }

    /// Asks the job to stop; its result (if any) is still delivered.
    pub fn cancel(&self) {
        self.ctx.cancelled.store(true, Ordering::Relaxed);
    }

    /// Where the job stands.
    pub fn progress(&self) -> JobProgress {
        JobProgress {
            done: self.ctx.done.load(Ordering::Relaxed),
            total: self.ctx.total.load(Ordering::Relaxed),
            stage: self.ctx.stage.lock().map(|s| s.clone()).unwrap_or_default(),
        }
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        // A dropped job is one nobody waits for any more.
        self.cancel();
    }
}
