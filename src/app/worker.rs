//! The worker thread that owns the running search: one thread per run and
//! bounded channels both ways (see docs/architecture.md, the worker
//! protocol).
//!
//! The UI never steps a search itself: it sends [`Command`]s over a bounded
//! channel and receives [`Event`]s back. The worker wakes the UI with the
//! repaint callback after every send. While running, snapshots are
//! throttled to [`SNAPSHOT_INTERVAL`] and sent with `try_send` (a dropped
//! snapshot is replaced by the next one); stats samples are batched and
//! never dropped (a full channel keeps them pending); `Finished` is always
//! delivered with a blocking send. A panic inside the search is caught and
//! reported as an [`Event::Error`]; the worker and the app stay usable
//! (Reset rebuilds the run). Time travel rebuilds any earlier iteration by
//! deterministic replay ([`Recorder::rebuild_at`]).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender, TrySendError};

use crate::export::RunFacts;
use crate::search::driver::sampled;
use crate::search::recorder::Recorder;
use crate::search::{registry, Budget, Search, SearchSetup, Snapshot, StatsSample, Status};
use crate::search::{StopReason, ViewRequest};

/// At most this many snapshots per second while running (≈ 30/s).
pub const SNAPSHOT_INTERVAL: Duration = Duration::from_millis(33);
/// A running chunk returns to the command queue after this long.
const CHUNK: Duration = Duration::from_millis(12);
/// Capacity of both channels.
const CHANNEL_CAPACITY: usize = 64;
/// The sampling policy of the curves (shared with the CLI's exports).
pub use crate::search::driver::SAMPLE_BLOCK;

/// What to run: algorithm name plus the complete setup.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The registry name of the algorithm.
    pub algo: String,
    /// Position, parameters, seed and question.
    pub setup: SearchSetup,
}

/// UI → worker. `Clone`, so race mode can send one command to both runs.
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
    /// Stop running after the current iteration (Step and GoTo still work).
    Pause,
    /// Go back `k` iterations (time travel by replay).
    Back(u64),
    /// Show the state after iteration `k` (scrubber).
    GoTo(u64),
    /// Rebuild the current run at iteration 0.
    Reset,
    /// Which part of the tree the viewer shows.
    SetView(ViewRequest),
    /// Iterations per second while running; `None` = as fast as possible.
    SetSpeed(Option<f64>),
    /// The run pauses when a budget is reached.
    SetBudget(Budget),
    /// Answered with [`Event::Synced`] once every earlier command is done
    /// (a running step or run included): tests and the headless hook wait
    /// on it.
    Sync(u64),
    /// Writes the proof (or disproof) certificate of the solved run to
    /// the file; answered with [`Event::ProofSaved`] or an error.
    SaveProof(std::path::PathBuf),
    /// Ends the thread.
    Stop,
}

/// Worker → UI.
#[derive(Debug)]
pub enum Event {
    /// A new run began (Load or Reset): the UI clears its curves.
    Started {
        /// The registry name of the new run's algorithm.
        algo: String,
    },
    /// A new picture of the tree and what the run names best.
    Snapshot {
        /// The bounded tree picture.
        snapshot: Box<Snapshot>,
        /// Best move and algorithm-specific fields, for the run's JSON.
        facts: RunFacts,
    },
    /// Samples in iteration order (never dropped).
    Samples(Vec<StatsSample>),
    /// Time travel: samples after `iteration` no longer belong to the run.
    Rewound {
        /// The iteration the run went back to.
        iteration: u64,
    },
    /// Whether the worker is running.
    Running(bool),
    /// The search reached a final status.
    Finished(Status),
    /// A budget paused the run.
    BudgetReached(StopReason),
    /// A user-facing error (bad setup, a panic in the search).
    Error(String),
    /// Answer to [`Command::Sync`].
    Synced(u64),
    /// A certificate was written ([`Command::SaveProof`]).
    ProofSaved(ProofSaved),
}

/// What a written certificate holds: the size a teacher quotes ("the
/// proof has 1,234 positions") and where it went.
#[derive(Clone, Debug, PartialEq)]
pub struct ProofSaved {
    /// The file written.
    pub path: std::path::PathBuf,
    /// Distinct positions in the certificate.
    pub positions: usize,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Proved (true) or disproved (false).
    pub proved: bool,
}

/// Positions the certificate writer may evaluate itself (where the search
/// kept nothing) before it gives up, as `pnlab solve --proof` allows.
const PROOF_WRITER_BUDGET: u64 = 200_000_000;

/// The UI's end of the worker.
pub struct WorkerHandle {
    commands: Sender<Command>,
    events: Receiver<Event>,
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl WorkerHandle {
    /// Starts the named worker thread; `wake` is called after every event
    /// (the app passes `ctx.request_repaint`).
    pub fn spawn(wake: impl Fn() + Send + 'static) -> Result<WorkerHandle, String> {
        let (cmd_tx, cmd_rx) = bounded(CHANNEL_CAPACITY);
        let (ev_tx, ev_rx) = bounded(CHANNEL_CAPACITY);
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let thread = std::thread::Builder::new()
            .name("pnlab-search-worker".into())
            .spawn(move || {
                let mut w = Worker::new(cmd_rx, ev_tx, flag, Box::new(wake));
                w.main_loop();
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        Ok(WorkerHandle {
            commands: cmd_tx,
            events: ev_rx,
            cancel,
            thread: Some(thread),
        })
    }

    /// Sends a command; commands that must interrupt a running chunk also
    /// raise the cancel flag.
    pub fn send(&self, cmd: Command) -> Result<(), String> {
        if matches!(
            cmd,
            Command::Pause
                | Command::Back(_)
                | Command::GoTo(_)
                | Command::Reset
                | Command::Load(_)
                | Command::Stop
        ) {
            self.cancel.store(true, Ordering::Relaxed);
        }
        match self.commands.try_send(cmd) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err("the search thread is busy; try again".into()),
            Err(TrySendError::Disconnected(_)) => Err("the search thread has stopped".into()),
        }
    }

    /// The next pending event, if any.
    pub fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    /// Waits up to `timeout` for an event (tests and the headless hook).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        self.events.recv_timeout(timeout).ok()
    }
}

impl Drop for WorkerHandle {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        let _ = self.commands.try_send(Command::Stop);
        // Dropping the receiver makes any blocking send in the worker fail,
        // so the join below cannot hang on a full event channel.
        self.events = crossbeam_channel::never();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The run the worker owns.
struct Live {
    recorder: Recorder,
    /// `None` after a panic poisoned the search (Reset rebuilds it).
    search: Option<Box<dyn Search>>,
}

struct Worker {
    commands: Receiver<Command>,
    events: Sender<Event>,
    cancel: Arc<AtomicBool>,
    wake: Box<dyn Fn() + Send>,
    live: Option<Live>,
    view: ViewRequest,
    speed: Option<f64>,
    budget: Budget,
    /// Steps still to run in step mode (0 with `running` = run freely).
    steps_left: u64,
    running: bool,
    next_due: Instant,
    pending: Vec<StatsSample>,
    last_snapshot: Option<Instant>,
    /// False once the UI is gone: the loop ends.
    connected: bool,
    /// Sync requests answered when the current run pauses.
    syncs: Vec<u64>,
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

impl Worker {
    fn new(
        commands: Receiver<Command>,
        events: Sender<Event>,
        cancel: Arc<AtomicBool>,
        wake: Box<dyn Fn() + Send>,
    ) -> Worker {
        Worker {
            commands,
            events,
            cancel,
            wake,
            live: None,
            view: ViewRequest::default(),
            speed: None,
            budget: Budget::default(),
            steps_left: 0,
            running: false,
            next_due: Instant::now(),
            pending: Vec::new(),
            last_snapshot: None,
            connected: true,
            syncs: Vec::new(),
        }
    }

    /// Blocking send (events that must arrive).
    fn emit(&mut self, ev: Event) {
        if self.events.send(ev).is_err() {
            self.connected = false;
        }
        (self.wake)();
    }

    fn main_loop(&mut self) {
        while self.connected {
            self.cancel.store(false, Ordering::Relaxed);
            // Drain commands: block when idle, poll when running.
            loop {
                let cmd = if self.running {
                    let wait = match self.speed {
                        Some(_) => self.next_due.saturating_duration_since(Instant::now()),
                        None => Duration::ZERO,
                    };
                    match self.commands.recv_timeout(wait) {
                        Ok(c) => c,
                        Err(RecvTimeoutError::Timeout) => break,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                } else {
                    match self.commands.recv() {
                        Ok(c) => c,
                        Err(_) => return,
                    }
                };
                if !self.handle(cmd) {
                    return;
                }
                if !self.connected {
                    return;
                }
            }
            if self.running {
                self.run_chunk();
            }
        }
    }

    /// Applies one command; false = stop the thread.
    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Stop => return false,
            Command::Load(spec) => self.load(spec),
            Command::Step(n) => {
                if self.can_step() {
                    self.steps_left = n.max(1);
                    self.start_running();
                }
            }
            Command::Run => {
                if self.can_step() {
                    self.steps_left = 0;
                    self.start_running();
                }
            }
            Command::Pause => self.pause(),
            Command::Back(k) => {
                let now = self.iteration();
                self.go_to(now.saturating_sub(k));
            }
            Command::GoTo(k) => self.go_to(k),
            Command::Reset => self.go_to(0),
            Command::SetView(v) => {
                self.view = v;
                self.send_snapshot(true);
            }
            Command::SetSpeed(s) => {
                self.speed = s.filter(|v| *v > 0.0);
                self.next_due = Instant::now();
            }
            Command::SetBudget(b) => self.budget = b,
            Command::SaveProof(path) => self.save_proof(path),
            Command::Sync(id) => {
                self.syncs.push(id);
                if !self.running {
                    self.answer_syncs();
                }
            }
        }
        true
    }

    /// Writes the certificate of the current run, if it is solved.
    fn save_proof(&mut self, path: std::path::PathBuf) {
        let Some(live) = self.live.as_ref() else {
            return self.emit(Event::Error("no run to take a proof from".into()));
        };
        let Some(search) = live.search.as_deref() else {
            return self.emit(Event::Error(
                "the search failed; reset the run first".into(),
            ));
        };
        let proved = match search.status() {
            Status::Proved => true,
            Status::Disproved => false,
            _ => {
                return self.emit(Event::Error(
                    "the run has not proved or disproved its question yet: no proof to save".into(),
                ))
            }
        };
        let written =
            crate::search::proof::certificate(search, &live.recorder.setup, PROOF_WRITER_BUDGET)
                .and_then(|(cert, stats)| {
                    let text = cert.to_text();
                    crate::files::write_atomic(&path, text.as_bytes())
                        .map_err(|e| e.to_string())?;
                    Ok((stats.positions, text.len() as u64))
                });
        match written {
            Ok((positions, bytes)) => self.emit(Event::ProofSaved(ProofSaved {
                path,
                positions,
                bytes,
                proved,
            })),
            Err(e) => self.emit(Event::Error(format!("proof {}: {e}", path.display()))),
        }
    }

    fn answer_syncs(&mut self) {
        for id in std::mem::take(&mut self.syncs) {
            self.emit(Event::Synced(id));
        }
    }

    fn can_step(&self) -> bool {
        self.live
            .as_ref()
            .and_then(|l| l.search.as_ref())
            .is_some_and(|s| !s.status().is_final())
    }

    fn start_running(&mut self) {
        if !self.running {
            self.running = true;
            self.next_due = Instant::now();
            self.emit(Event::Running(true));
        }
    }

    fn pause(&mut self) {
        self.steps_left = 0;
        if self.running {
            self.running = false;
            self.flush_samples(true);
            self.send_snapshot(true);
            self.emit(Event::Running(false));
        }
        self.answer_syncs();
    }

    fn iteration(&self) -> u64 {
        self.live
            .as_ref()
            .and_then(|l| l.search.as_ref())
            .map_or(0, |s| s.counters().iterations)
    }

    /// Builds the search, catching both errors and panics.
    fn build(algo: &str, setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
        match catch_unwind(AssertUnwindSafe(|| registry::build(algo, setup))) {
            Ok(r) => r.map_err(|e| e.to_string()),
            Err(p) => Err(format!(
                "the search panicked while starting: {}",
                panic_text(&*p)
            )),
        }
    }

    fn load(&mut self, spec: RunSpec) {
        self.pause();
        match Self::build(&spec.algo, &spec.setup) {
            Ok(search) => {
                let first = search.sample();
                let recorder = Recorder::new(&spec.algo, spec.setup, first.clone());
                self.live = Some(Live {
                    recorder,
                    search: Some(search),
                });
                self.pending.clear();
                self.emit(Event::Started { algo: spec.algo });
                self.emit(Event::Samples(vec![first]));
                self.send_snapshot(true);
                self.report_final();
            }
            // The previous run stays loaded (nothing is lost).
            Err(e) => self.emit(Event::Error(e)),
        }
    }

    /// Time travel: rebuild the run at iteration `k` by replay.
    fn go_to(&mut self, k: u64) {
        self.pause();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let recorder = &live.recorder;
        let rebuilt = catch_unwind(AssertUnwindSafe(|| recorder.rebuild_at(k)));
        match rebuilt {
            Ok(Ok(s)) => {
                let reached = s.counters().iterations;
                live.search = Some(s);
                self.pending.clear();
                self.emit(Event::Rewound { iteration: reached });
                self.send_snapshot(true);
                self.report_final();
            }
            Ok(Err(e)) => self.emit(Event::Error(e.to_string())),
            Err(p) => {
                live.search = None;
                let msg = format!("the search panicked while replaying: {}", panic_text(&*p));
                self.emit(Event::Error(msg));
            }
        }
    }

    /// Sends `Finished` if the search is final.
    fn report_final(&mut self) {
        let st = self
            .live
            .as_ref()
            .and_then(|l| l.search.as_ref())
            .map(|s| s.status());
        if let Some(st) = st.filter(|s| s.is_final()) {
            self.emit(Event::Finished(st));
        }
    }

    /// Steps for one chunk (or one paced step), then returns to the queue.
    fn run_chunk(&mut self) {
        let start = Instant::now();
        let paced = self.speed;
        let budget = self.budget;
        let mut finished = None;
        let mut budget_hit = None;
        let mut step_mode_done = false;
        let Some(live) = self.live.as_mut() else {
            self.running = false;
            self.answer_syncs();
            return;
        };
        let Some(search) = live.search.as_mut() else {
            self.running = false;
            self.answer_syncs();
            return;
        };
        let pending = &mut self.pending;
        let cancel = &self.cancel;
        let steps_left = &mut self.steps_left;
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut n: u64 = 0;
            loop {
                let c = search.counters();
                if let Some(r) = budget.exceeded(c.iterations, c.nodes_created, c.peak_tree_bytes) {
                    budget_hit = Some(r);
                    break;
                }
                let st = search.step();
                let it = search.counters().iterations;
                if sampled(it) || st.is_final() {
                    pending.push(search.sample());
                }
                if st.is_final() {
                    finished = Some(st);
                    break;
                }
                if *steps_left > 0 {
                    *steps_left -= 1;
                    if *steps_left == 0 {
                        step_mode_done = true;
                        break;
                    }
                }
                n += 1;
                if paced.is_some() {
                    break;
                }
                if n.is_multiple_of(64)
                    && (cancel.load(Ordering::Relaxed) || start.elapsed() >= CHUNK)
                {
                    break;
                }
            }
        }));
        let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
        if let Some(speed) = paced {
            self.next_due += Duration::from_secs_f64(1.0 / speed);
            let now = Instant::now();
            if self.next_due < now {
                self.next_due = now;
            }
        }
        match result {
            Ok(()) => {
                search.counters_mut().time_ms += elapsed_ms;
            }
            Err(p) => {
                live.search = None;
                self.running = false;
                self.steps_left = 0;
                self.pending.clear();
                let msg = format!(
                    "the search panicked: {} (Reset rebuilds the run)",
                    panic_text(&*p)
                );
                self.emit(Event::Error(msg));
                self.emit(Event::Running(false));
                self.answer_syncs();
                return;
            }
        }
        if let Some(st) = finished {
            self.running = false;
            self.steps_left = 0;
            self.flush_samples(true);
            self.send_snapshot(true);
            self.emit(Event::Finished(st));
            self.emit(Event::Running(false));
            self.answer_syncs();
        } else if let Some(r) = budget_hit {
            self.pause();
            self.emit(Event::BudgetReached(r));
        } else if step_mode_done {
            self.pause();
        } else {
            self.flush_samples(false);
            self.send_snapshot(false);
        }
    }

    /// Sends pending samples: `force` blocks, otherwise a full channel
    /// keeps them for the next try.
    fn flush_samples(&mut self, force: bool) {
        if self.pending.is_empty() {
            return;
        }
        let batch = std::mem::take(&mut self.pending);
        if force {
            self.emit(Event::Samples(batch));
            return;
        }
        match self.events.try_send(Event::Samples(batch)) {
            Ok(()) => (self.wake)(),
            Err(TrySendError::Full(Event::Samples(b))) => self.pending = b,
            Err(TrySendError::Full(_)) => {}
            Err(TrySendError::Disconnected(_)) => self.connected = false,
        }
    }

    /// Sends a snapshot of the current view: `force` = now and surely,
    /// otherwise throttled and droppable.
    fn send_snapshot(&mut self, force: bool) {
        let now = Instant::now();
        if !force
            && self
                .last_snapshot
                .is_some_and(|t| now.duration_since(t) < SNAPSHOT_INTERVAL)
        {
            return;
        }
        let Some(search) = self.live.as_ref().and_then(|l| l.search.as_ref()) else {
            return;
        };
        let view = &self.view;
        let taken = catch_unwind(AssertUnwindSafe(|| {
            (search.snapshot(view), RunFacts::of(search.as_ref()))
        }));
        let (snap, facts) = match taken {
            Ok(s) => s,
            Err(p) => {
                let msg = format!("the search panicked in snapshot: {}", panic_text(&*p));
                self.emit(Event::Error(msg));
                return;
            }
        };
        self.last_snapshot = Some(now);
        let ev = Event::Snapshot {
            snapshot: Box::new(snap),
            facts,
        };
        if force {
            self.emit(ev);
        } else {
            match self.events.try_send(ev) {
                Ok(()) => (self.wake)(),
                Err(TrySendError::Full(_)) => {}
                Err(TrySendError::Disconnected(_)) => self.connected = false,
            }
        }
    }
}
