//! What the UI knows about the run: the data that arrives from its driver,
//! kept apart from the drawing code (this module takes data in, the
//! panels only draw it).

use crate::clock::{self, Duration};

use crate::export::RunFacts;
use crate::search::{Snapshot, StatsSample, Status, StopReason};

use super::driver::{Command, DriverError, DriverKind, Event, RunSpec, SearchDriver, Travel};
use super::status::RunStatus;

/// How long one frame may spend applying worker events: a few
/// milliseconds, so a flood of samples never stalls the window.
pub const DRAIN_BUDGET: Duration = Duration::from_millis(4);

/// The run as the UI sees it.
#[derive(Default)]
pub struct RunState {
    /// The registry name of the algorithm that runs.
    pub algo: String,
    /// The latest snapshot (tree, counters, inspection).
    pub snapshot: Option<Snapshot>,
    /// Best move and algorithm-specific fields of the latest snapshot.
    pub facts: RunFacts,
    /// Every stats sample received, in iteration order (see
    /// `worker::SAMPLE_BLOCK` for the sampling stride of long runs).
    pub samples: Vec<StatsSample>,
    /// The worker is running (not paused or finished).
    pub running: bool,
    /// Set when the search reached a final status.
    pub finished: Option<Status>,
    /// The budget that paused the run, if any.
    pub budget_reached: Option<StopReason>,
    /// Errors not yet dismissed, newest last.
    pub errors: Vec<String>,
    /// Highest sync id answered by the worker.
    pub synced: u64,
    /// The last certificate written for this run (File › Export).
    pub proof: Option<super::files::ProofSaved>,
    /// Highest iteration ever reached in this run (the scrubber's range).
    pub max_iteration: u64,
    /// Snapshots received so far (a cache key for the tree layout).
    pub arrivals: u64,
    /// Bumped whenever `samples` is cleared or cut (a cache key for the
    /// curves).
    pub epoch: u64,
    /// A long time travel under way (the progress bar and its Cancel).
    pub travel: Option<Travel>,
    /// The last Load the driver refused, until the app takes it.
    pub load_failed: Option<String>,
    /// The status word (idle, running, paused, proved, ...).
    pub status_word: RunStatus,
    /// Where the driver prepared a checkpoint for a quick Back, if it did
    /// (see `RECENT_BACK`).
    pub back_ready: Option<u64>,
    /// A Load was sent and neither `Started` nor `LoadFailed` came back:
    /// events of the previous run still in flight are ignored.
    pub awaiting_start: bool,
}

impl RunState {
    /// Forgets the previous run (a new position or algorithm is on its
    /// way): nothing of it may be shown, and its events still in flight
    /// are ignored until the new run starts.
    pub fn expect_new_run(&mut self) {
        *self = RunState {
            arrivals: self.arrivals + 1,
            epoch: self.epoch + 1,
            synced: self.synced,
            errors: std::mem::take(&mut self.errors),
            awaiting_start: true,
            ..RunState::default()
        };
    }

    /// Applies one event of the run's driver.
    pub fn apply(&mut self, ev: Event) {
        if self.awaiting_start
            && !matches!(
                ev,
                Event::Started { .. } | Event::LoadFailed(_) | Event::Synced(_) | Event::Error(_)
            )
        {
            return;
        }
        let iteration = match &ev {
            Event::Snapshot { snapshot, .. } => snapshot.counters.iterations,
            Event::Rewound { iteration } => *iteration,
            _ => self.iteration(),
        };
        self.status_word = self.status_word.next(&ev, iteration);
        match ev {
            Event::Started { algo } => {
                self.awaiting_start = false;
                self.back_ready = None;
                self.algo = algo;
                self.samples.clear();
                self.epoch += 1;
                self.finished = None;
                self.budget_reached = None;
                self.max_iteration = 0;
                self.proof = None;
            }
            Event::Snapshot { snapshot, facts } => {
                self.max_iteration = self.max_iteration.max(snapshot.counters.iterations);
                if !snapshot.status.is_final() {
                    self.finished = None;
                }
                self.snapshot = Some(*snapshot);
                self.facts = facts;
                self.arrivals += 1;
            }
            Event::Samples(v) => {
                if let Some(last) = v.last() {
                    self.max_iteration = self.max_iteration.max(last.iteration);
                }
                self.samples.extend(v);
            }
            Event::Travelling(t) => self.travel = Some(t),
            Event::TravelCancelled => self.travel = None,
            Event::Rewound { .. } => {
                self.travel = None;
                // Later samples stay so the scrubber can go forward again:
                // the run is deterministic, so replaying those iterations
                // gives the same values.
                self.finished = None;
                self.budget_reached = None;
            }
            Event::Running(r) => {
                self.running = r;
                if r {
                    self.budget_reached = None;
                    // Stepping forward from an earlier iteration replaces
                    // the later part of the curves.
                    let now = self.iteration();
                    let keep = self.samples.partition_point(|s| s.iteration <= now);
                    if keep < self.samples.len() {
                        self.samples.truncate(keep);
                        self.epoch += 1;
                    }
                    self.max_iteration = now;
                }
            }
            Event::Finished(st) => self.finished = Some(st),
            Event::BudgetReached(r) => self.budget_reached = Some(r),
            Event::LoadFailed(e) => {
                self.awaiting_start = false;
                self.snapshot = None;
                self.errors.push(e.to_string());
                self.load_failed = Some(e.to_string());
            }
            Event::Error(e) => self.errors.push(e.to_string()),
            Event::Synced(id) => self.synced = self.synced.max(id),
            // The machine made the certificate; the shell writes it.
            Event::CertificateReady(c) => match super::files::save_certificate(c) {
                Ok(saved) => self.proof = Some(saved),
                Err(e) => self.errors.push(e.to_string()),
            },
            Event::BackReady { at } => self.back_ready = Some(at),
        }
    }

    /// Applies waiting events for at most [`DRAIN_BUDGET`]; true when more
    /// are waiting (the caller asks for another frame).
    pub fn drain(&mut self, driver: &mut dyn SearchDriver) -> bool {
        driver.pump();
        let start = clock::now();
        while let Some(ev) = driver.poll() {
            self.apply(ev);
            if start.elapsed() >= DRAIN_BUDGET {
                return true;
            }
        }
        false
    }

    /// Blocks until the worker answers sync `id` (tests, headless hook).
    pub fn wait_synced(
        &mut self,
        driver: &mut dyn SearchDriver,
        id: u64,
        timeout: Duration,
    ) -> bool {
        let deadline = clock::now() + timeout;
        while self.synced < id {
            let left = deadline.saturating_duration_since(clock::now());
            if left.is_zero() {
                return false;
            }
            if let Some(ev) = driver.wait(left) {
                self.apply(ev);
            }
        }
        true
    }

    /// Iterations done in the shown state.
    pub fn iteration(&self) -> u64 {
        self.snapshot.as_ref().map_or(0, |s| s.counters.iterations)
    }

    /// The sample of the iteration shown (the last one at or before it):
    /// after stepping back, later samples stay for the scrubber, but what
    /// the panels say (the best move, its verdict) is of the iteration
    /// shown.
    pub fn shown_sample(&self) -> Option<&StatsSample> {
        let now = self.iteration();
        let k = self.samples.partition_point(|s| s.iteration <= now);
        k.checked_sub(1).map(|i| &self.samples[i])
    }

    /// The latest snapshot's status (`None` before the first one).
    pub fn status(&self) -> Option<Status> {
        self.snapshot.as_ref().map(|s| s.status)
    }
}

/// One run as the app holds it: its driver, what the UI knows of it, and
/// the sync ids it hands out. Panels, the race and the headless hook talk
/// to the run only through this (and so only through the driver's
/// protocol).
pub struct RunLink {
    driver: Box<dyn SearchDriver>,
    /// What the UI knows about the run.
    pub state: RunState,
    next_sync: u64,
}

impl RunLink {
    /// A link over `driver`.
    pub fn new(driver: Box<dyn SearchDriver>) -> RunLink {
        RunLink {
            driver,
            state: RunState::default(),
            next_sync: 0,
        }
    }

    /// Which driver runs it.
    pub fn kind(&self) -> DriverKind {
        self.driver.kind()
    }

    /// Sends a command; the error is user-facing.
    pub fn send(&mut self, cmd: Command) -> Result<(), DriverError> {
        self.driver.send(cmd)
    }

    /// Starts a new run: what the UI knew of the old one is dropped first.
    pub fn load(&mut self, spec: RunSpec) -> Result<(), DriverError> {
        self.state.expect_new_run();
        self.send(Command::Load(spec))
    }

    /// Sends a sync and returns its id.
    pub fn sync(&mut self) -> u64 {
        self.next_sync += 1;
        let id = self.next_sync;
        if self.send(Command::Sync(id)).is_err() {
            // Nothing will answer: count it as answered.
            self.state.synced = self.state.synced.max(id);
        }
        id
    }

    /// Takes in the events of this frame (see [`RunState::drain`]).
    pub fn drain(&mut self) -> bool {
        self.state.drain(self.driver.as_mut())
    }

    /// Waits until every command sent so far is carried out.
    pub fn settle(&mut self, timeout: Duration) -> bool {
        let id = self.sync();
        self.state.wait_synced(self.driver.as_mut(), id, timeout)
    }

    /// Waits for sync `id` (sent earlier).
    pub fn wait_synced(&mut self, id: u64, timeout: Duration) -> bool {
        self.state.wait_synced(self.driver.as_mut(), id, timeout)
    }
}
