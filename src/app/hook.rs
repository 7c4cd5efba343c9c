//! The headless hook (`pnlab FILE --autoplay N --state OUT.json
//! --screenshot OUT.png`): wait for the position to load and its run to
//! start, run N iterations, wait for the driver and the correct-moves
//! evaluation, let a few frames settle, write what the panels show as
//! JSON, take a screenshot of the real window, close it. A plain state machine: the app tells it
//! what it sees each frame and carries out the [`HookStep`] it returns.

use crate::clock::{Duration, Instant};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::error::AppError;

/// How long the headless hook may take before it gives up.
pub const HOOK_TIMEOUT: Duration = Duration::from_secs(300);

/// Frames drawn after the run settled before the screenshot (glides and
/// layouts finish).
const SETTLE_FRAMES: u32 = 10;

/// The hook's progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    WritingState,
    Running(u64),
    Settling(u32),
    Shooting,
    Done,
}

/// What the app does for the hook this frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HookStep {
    /// Nothing; draw another frame.
    Wait,
    /// Send `Step(steps)` (when positive) and a sync, then report the
    /// sync's id with [`Hook::running`].
    Start {
        /// Iterations to run.
        steps: u64,
    },
    /// Write the state JSON here, then report with
    /// [`Hook::state_written`].
    WriteState(PathBuf),
    /// Request a screenshot to be saved here; its callback stores the
    /// outcome in [`Hook::result`].
    Shoot(PathBuf),
    /// Close the window.
    Close,
}

/// What the hook needs to know each frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct HookView {
    /// Highest sync id the worker answered.
    pub synced: u64,
    /// The correct-moves evaluation is still running (its error curve
    /// belongs in the picture).
    pub computing: bool,
    /// The position is loaded and its run started (autoplay may begin).
    pub ready: bool,
}

/// `pnlab --open … --autoplay N --screenshot OUT.png`.
pub struct Hook {
    /// Iterations to run after loading.
    pub autoplay: u64,
    /// Where the screenshot goes (none: just run and close).
    pub screenshot: Option<PathBuf>,
    /// Where the state JSON goes.
    pub state: Option<PathBuf>,
    /// Hand the window to the user when done instead of closing it
    /// (`--autoplay N` with neither `--screenshot` nor `--state`).
    pub keep_open: bool,
    phase: Phase,
    started: Instant,
    /// The outcome, read by `run_app` after the window closed.
    pub result: Arc<Mutex<Option<Result<(), AppError>>>>,
}

impl Hook {
    /// A hook that runs `autoplay` iterations, then saves `screenshot`.
    pub fn new(autoplay: u64, screenshot: Option<PathBuf>) -> Hook {
        Hook {
            autoplay,
            screenshot,
            state: None,
            keep_open: false,
            phase: Phase::Start,
            started: Instant::now(),
            result: Arc::new(Mutex::new(None)),
        }
    }

    /// The run was ordered; it is done when the worker answers sync `id`.
    pub fn running(&mut self, id: u64) {
        self.phase = Phase::Running(id);
    }

    /// The state JSON was written (or not): a failure ends the run.
    pub fn state_written(&mut self, r: Result<(), AppError>) {
        match r {
            Ok(()) => self.phase = Phase::Settling(0),
            Err(e) => self.finish(Err(e)),
        }
        if self.phase == Phase::Settling(0) {
            self.state = None;
        }
    }

    fn finish(&mut self, r: Result<(), AppError>) {
        if let Ok(mut slot) = self.result.lock() {
            slot.get_or_insert(r);
        }
        self.phase = Phase::Done;
    }

    /// Advances by one frame.
    pub fn step(&mut self, view: HookView) -> HookStep {
        if self.phase != Phase::Done && self.started.elapsed() > HOOK_TIMEOUT {
            self.finish(Err(AppError::Timeout));
        }
        match self.phase {
            Phase::Start if !view.ready => HookStep::Wait,
            Phase::Start => HookStep::Start {
                steps: self.autoplay,
            },
            Phase::WritingState => HookStep::Wait,
            Phase::Running(id) => {
                if view.synced >= id && !view.computing {
                    self.phase = Phase::Settling(SETTLE_FRAMES);
                }
                HookStep::Wait
            }
            Phase::Settling(0) if self.state.is_some() => {
                self.phase = Phase::WritingState;
                HookStep::WriteState(self.state.clone().unwrap_or_default())
            }
            Phase::Settling(0) => match self.screenshot.clone() {
                Some(path) => {
                    self.phase = Phase::Shooting;
                    HookStep::Shoot(path)
                }
                None => {
                    self.finish(Ok(()));
                    HookStep::Wait
                }
            },
            Phase::Settling(k) => {
                self.phase = Phase::Settling(k - 1);
                HookStep::Wait
            }
            Phase::Shooting => {
                if self.result.lock().map(|r| r.is_some()).unwrap_or(true) {
                    self.phase = Phase::Done;
                }
                HookStep::Wait
            }
            Phase::Done => HookStep::Close,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(synced: u64, computing: bool) -> HookView {
        HookView {
            synced,
            computing,
            ready: true,
        }
    }

    #[test]
    fn waits_for_the_load_then_writes_the_state_before_the_screenshot() {
        let mut h = Hook::new(5, Some(PathBuf::from("s.png")));
        h.state = Some(PathBuf::from("s.json"));
        let loading = HookView {
            ready: false,
            ..view(0, true)
        };
        assert_eq!(h.step(loading), HookStep::Wait);
        assert_eq!(h.step(view(0, false)), HookStep::Start { steps: 5 });
        h.running(1);
        for _ in 0..=SETTLE_FRAMES {
            assert_eq!(h.step(view(1, false)), HookStep::Wait);
        }
        assert_eq!(
            h.step(view(1, false)),
            HookStep::WriteState(PathBuf::from("s.json"))
        );
        assert_eq!(h.step(view(1, false)), HookStep::Wait);
        h.state_written(Ok(()));
        assert_eq!(
            h.step(view(1, false)),
            HookStep::Shoot(PathBuf::from("s.png"))
        );
    }

    #[test]
    fn runs_then_waits_for_the_worker_and_the_evaluation_then_shoots_then_closes() {
        let out = PathBuf::from("shot.png");
        let mut h = Hook::new(12, Some(out.clone()));
        assert_eq!(h.step(view(0, false)), HookStep::Start { steps: 12 });
        h.running(3);
        assert_eq!(h.step(view(2, false)), HookStep::Wait);
        // The worker is done but the correct moves are not.
        assert_eq!(h.step(view(3, true)), HookStep::Wait);
        assert_eq!(h.step(view(3, false)), HookStep::Wait);
        for _ in 0..SETTLE_FRAMES {
            assert_eq!(h.step(view(3, false)), HookStep::Wait);
        }
        assert_eq!(h.step(view(3, false)), HookStep::Shoot(out));
        // Waits for the screenshot's callback.
        assert_eq!(h.step(view(3, false)), HookStep::Wait);
        *h.result.lock().unwrap() = Some(Ok(()));
        assert_eq!(h.step(view(3, false)), HookStep::Wait);
        assert_eq!(h.step(view(3, false)), HookStep::Close);
    }

    #[test]
    fn without_a_screenshot_it_succeeds_and_closes() {
        let mut h = Hook::new(0, None);
        assert_eq!(h.step(view(0, false)), HookStep::Start { steps: 0 });
        h.running(1);
        for _ in 0..=SETTLE_FRAMES + 1 {
            h.step(view(1, false));
        }
        assert_eq!(h.step(view(1, false)), HookStep::Close);
        assert!(matches!(*h.result.lock().unwrap(), Some(Ok(()))));
    }
}
