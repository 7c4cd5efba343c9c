//! What a shell asks of a run.

use pnlab_core::search::{Algorithm, Budget, SearchSetup, ViewRequest};

/// What to run: the algorithm plus the complete setup. The algorithm is
/// a registry handle, made where the user named it, so a load is refused
/// only for what the search itself rejects (a parameter, a position).
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The algorithm.
    pub algo: Algorithm,
    /// Position, parameters, seed and question.
    pub setup: SearchSetup,
}

/// Shell → run. `Clone`, so race mode can send one command to both runs.
/// `Load` carries a whole position (a xiangqi board is a few hundred
/// bytes); commands are sent once per user action, so the size costs
/// nothing worth an indirection.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Start a new run (position, algorithm, parameters, seed).
    Load(RunSpec),
    /// Run `n` iterations, then pause.
    Step(u64),
    /// Run until the search finishes, a budget is reached or Pause.
    Run,
    /// Run until the iteration counter reaches `k` or the search
    /// finishes (`u64::MAX`: to the end), then pause: how a lesson step
    /// or a race side is brought to where the lesson player stopped (a
    /// df-pn's last call returns to the root without a new iteration,
    /// which a count of steps would miss).
    RunTo(u64),
    /// Stop running after the current iteration, or cancel a time travel
    /// under way (Step and GoTo still work).
    Pause,
    /// Go back `k` iterations (time travel).
    Back(u64),
    /// Show the state after iteration `k` (scrubber).
    GoTo(u64),
    /// Rebuild the current run at iteration 0.
    Reset,
    /// Which part of the tree the viewer shows.
    SetView(ViewRequest),
    /// Iterations per second while running; `None` = as fast as possible.
    SetSpeed(Option<f64>),
    /// The run pauses when a budget is reached (a time limit counts from
    /// the Step, Run or RunTo that started the run).
    SetBudget(Budget),
    /// Answered with [`Event::Synced`](super::Event::Synced) once every
    /// earlier command is done (a running step, run or time travel
    /// included): tests, the race's lockstep and the headless hook wait
    /// on it.
    Sync(u64),
    /// Makes the proof (or disproof) certificate of the solved run, to be
    /// saved at the path: answered with
    /// [`Event::CertificateReady`](super::Event::CertificateReady), whose
    /// text the shell writes there, or an error. The machine itself
    /// never opens the file.
    Certificate(std::path::PathBuf),
    /// Ends the run (and the thread driver's thread).
    Stop,
}

impl Command {
    /// Commands that must interrupt a running chunk or a time travel.
    pub fn interrupts(&self) -> bool {
        matches!(
            self,
            Command::Pause
                | Command::Back(_)
                | Command::GoTo(_)
                | Command::Reset
                | Command::Load(_)
                | Command::Stop
        )
    }
}
