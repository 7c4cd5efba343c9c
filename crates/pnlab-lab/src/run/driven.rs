//! A bench set run the way the page runs a search: through the run
//! machine, in frame-sized slices, with everything the window asks for
//! (the recorder's checkpoints, curve samples, throttled snapshots).
//! `bench.html` and `pnlab bench --ui` report its rate next to the bare
//! search's, so what the driving costs is measured, not guessed.

use pnlab_core::clock::{self, Duration};
use pnlab_core::search::{Algorithm, Params, QuestionKind, SearchSetup, Status};

use super::{Command, Event, RunMachine, RunSpec};
use crate::bench::{run_budget, BenchSet};

/// One set's driven runs, advanced a slice at a time.
pub struct DrivenSet {
    runs: Vec<SearchSetup>,
    algo: Algorithm,
    next: usize,
    /// The run under way, with the commands its first slice carries out.
    machine: Option<(RunMachine, Vec<Command>)>,
    /// The time one slice may step (the page's frame budget).
    frame: Duration,
    /// Runs finished so far, with their totals.
    pub row: DrivenRow,
}

/// What the driven runs did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct DrivenRow {
    /// The set's name.
    pub suite: String,
    /// Runs finished.
    pub runs: usize,
    /// Of them, proved or disproved.
    pub solved: usize,
    /// Iterations, all runs.
    pub iterations: u64,
    /// Time inside the slices (what `time_ms` counts), ms.
    pub slice_ms: f64,
    /// Slices it took.
    pub slices: u64,
}

impl DrivenRow {
    /// Iterations per second inside the slices.
    pub fn iterations_per_sec(&self) -> f64 {
        self.iterations as f64 / (self.slice_ms / 1000.0).max(1e-9)
    }
}

impl DrivenSet {
    /// The runs `pnlab bench` makes of `set` (same positions, seeds,
    /// repeats and iteration cap), to be driven in slices of `frame`.
    pub fn new(set: &BenchSet, algo: Algorithm, params: &Params, frame: Duration) -> DrivenSet {
        let mut runs = Vec::new();
        for _ in 0..set.repeat {
            for (i, p) in set.positions.iter().enumerate() {
                runs.push(SearchSetup {
                    position: p.clone(),
                    params: params.clone(),
                    seed: i as u64,
                    question: QuestionKind::Win,
                    memory_limit_bytes: None,
                });
            }
        }
        DrivenSet {
            runs,
            algo,
            next: 0,
            machine: None,
            frame,
            row: DrivenRow {
                suite: set.name.to_string(),
                ..DrivenRow::default()
            },
        }
    }

    /// Gives the runs one slice (as one frame of the page does); true
    /// once every run finished. Errors are the runs' own (a refused
    /// load, a panic).
    pub fn slice(&mut self, max_iterations: u64) -> Result<bool, super::RunFault> {
        if self.machine.is_none() {
            let Some(setup) = self.runs.get(self.next).cloned() else {
                return Ok(true);
            };
            let mut budget = run_budget(max_iterations);
            budget.time_limit = None;
            let spec = RunSpec {
                algo: self.algo,
                setup,
            };
            let commands = vec![
                Command::SetBudget(budget),
                Command::Load(spec),
                Command::Run,
            ];
            self.machine = Some((RunMachine::new(), commands));
        }
        let Some((m, commands)) = self.machine.as_mut() else {
            return Ok(false);
        };
        let mut events = Vec::new();
        let start = clock::now();
        for cmd in commands.drain(..) {
            m.handle(cmd, self.frame, &mut events);
        }
        if m.busy() {
            m.work(self.frame, &|| false, &mut events);
        }
        self.row.slice_ms += start.elapsed().as_secs_f64() * 1000.0;
        self.row.slices += 1;
        let mut last = None;
        let mut ended = None;
        for ev in events {
            match ev {
                Event::Snapshot { snapshot, .. } => last = Some(snapshot.counters.iterations),
                Event::Finished(st) => {
                    ended = Some(matches!(st, Status::Proved | Status::Disproved))
                }
                Event::BudgetReached(_) => ended = Some(false),
                Event::Error(e) | Event::LoadFailed(e) => return Err(e),
                _ => {}
            }
        }
        if let Some(solved) = ended {
            self.row.runs += 1;
            if solved {
                self.row.solved += 1;
            }
            self.row.iterations += last.unwrap_or(0);
            self.machine = None;
            self.next += 1;
        }
        Ok(self.next >= self.runs.len())
    }
}
