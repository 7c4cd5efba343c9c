//! The run's state machine: what every [`Command`] means, shared by both
//! drivers so the protocol is one.
//!
//! The machine owns the search and its [`Recorder`]. A driver hands it
//! commands ([`RunMachine::handle`]) and, while it is busy, time to work
//! ([`RunMachine::work`]): running steps the search in chunks, sampling
//! the curves ([`sampled`]) and sending throttled snapshots; a time travel
//! replays from the recorder's nearest checkpoint in chunks too, reporting
//! its progress, so neither ever holds a driver longer than the time it
//! was given. Events go out through an [`Outbox`]: the ones that must
//! arrive with [`Outbox::deliver`], live snapshots and sample batches with
//! [`Outbox::offer`] (a full queue keeps the samples pending and drops
//! the snapshot, which the next one replaces). A panic inside the search
//! is caught and reported as an [`Event::Error`]; the machine stays usable
//! (Reset rebuilds the run).

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::export::RunFacts;
use crate::search::driver::sampled;
use crate::search::recorder::Recorder;
use crate::search::{registry, Budget, Search, SearchSetup, StatsSample, Status, ViewRequest};

use super::{Command, Event, ProofSaved, RunSpec, Travel, SNAPSHOT_INTERVAL};
use crate::clock::{self, Duration, Instant};

/// Positions the certificate writer may evaluate itself (where the search
/// kept nothing) before it gives up, as `pnlab solve --proof` allows.
const PROOF_WRITER_BUDGET: u64 = 200_000_000;

/// Steps between two looks at the clock and the interrupt flag.
pub const LOOK_EVERY: u64 = 64;

/// Where the machine's events go.
pub trait Outbox {
    /// An event that must arrive (blocks or queues without limit).
    fn deliver(&mut self, ev: Event);
    /// A droppable event; handed back when there is no room for it now.
    fn offer(&mut self, ev: Event) -> Result<(), Event>;
    /// False once nobody listens any more (the machine stops working).
    fn connected(&self) -> bool;
}

/// The run the machine owns.
struct Live {
    recorder: Recorder,
    /// `None` after a panic poisoned the search (Reset rebuilds it).
    search: Option<Box<dyn Search>>,
}

/// A time travel under way: a copy of the run replayed towards `target`.
struct TravelJob {
    search: Box<dyn Search>,
    from: u64,
    target: u64,
}

/// What the machine is doing between commands.
enum Mode {
    /// Waiting for a command.
    Idle,
    /// Stepping: `steps_left` more (`None` = until the end or a budget),
    /// and not past iteration `until`.
    Running {
        steps_left: Option<u64>,
        until: Option<u64>,
    },
    /// Replaying towards an earlier iteration.
    Travelling(TravelJob),
    /// Idle as far as the run goes, but using the time to replay a copy
    /// to a little before the shown iteration, kept as the recorder's
    /// recent checkpoint: then one step Back replays at most
    /// [`RECENT_BACK`] iterations, not a whole checkpoint spacing.
    Preparing(Preparation),
}

/// A recent checkpoint being prepared, towards iteration `target`. The
/// copy of the nearest checkpoint it starts from (`job`) is made in the
/// first idle chunk, not by the command that came to rest: copying a
/// large tree takes a while, and that command's answer (a Back's new
/// snapshot, a sync) must not wait for it.
struct Preparation {
    target: u64,
    job: Option<TravelJob>,
}

/// How far behind the shown iteration the recent checkpoint is prepared
/// (Back by up to this many iterations starts from it). Replaying this
/// many PNS iterations takes a few milliseconds.
pub const RECENT_BACK: u64 = 1024;

/// The share of a driven run's time checkpoint copies may take: the run
/// goes at least this close to the bare search's speed, and a time
/// travel replays a little further.
pub const COPY_SHARE: f64 = 0.1;

/// The run's state machine (see the module docs).
pub struct RunMachine {
    live: Option<Live>,
    view: ViewRequest,
    speed: Option<f64>,
    budget: Budget,
    mode: Mode,
    next_due: Instant,
    pending: Vec<StatsSample>,
    last_snapshot: Option<Instant>,
    last_travel_report: Option<Instant>,
    /// Sync requests answered when the machine is next idle.
    syncs: Vec<u64>,
    /// Commands that arrived during a time travel, carried out after it.
    deferred: VecDeque<Command>,
    stopped: bool,
}

impl Default for RunMachine {
    fn default() -> Self {
        RunMachine::new()
    }
}

/// The bytes time-travel checkpoints may take: a quarter of the memory
/// budget, so the search itself keeps three quarters; the recorder's
/// default without a budget.
pub fn checkpoint_limit(b: &Budget) -> u64 {
    b.max_memory_bytes
        .map_or(crate::search::recorder::DEFAULT_CHECKPOINT_LIMIT, |m| m / 4)
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

impl RunMachine {
    /// A machine with no run loaded.
    pub fn new() -> RunMachine {
        RunMachine {
            live: None,
            view: ViewRequest::default(),
            speed: None,
            budget: Budget::default(),
            mode: Mode::Idle,
            next_due: clock::now(),
            pending: Vec::new(),
            last_snapshot: None,
            last_travel_report: None,
            syncs: Vec::new(),
            deferred: VecDeque::new(),
            stopped: false,
        }
    }

    /// True after [`Command::Stop`].
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// True while running, travelling or preparing Back: the driver
    /// should call [`work`](RunMachine::work) again.
    pub fn busy(&self) -> bool {
        !matches!(self.mode, Mode::Idle)
    }

    /// True when the run stands still (idle, or only preparing Back):
    /// syncs are answered then.
    fn settled(&self) -> bool {
        matches!(self.mode, Mode::Idle | Mode::Preparing(_))
    }

    /// How long the driver may wait before the next paced step is due
    /// (zero when running at full speed or travelling).
    pub fn due_in(&self, now: Instant) -> Duration {
        match (&self.mode, self.speed) {
            (Mode::Running { .. }, Some(_)) => self.next_due.saturating_duration_since(now),
            _ => Duration::ZERO,
        }
    }

    /// The recorder's memory for checkpoints, in bytes (the status bar).
    pub fn checkpoint_bytes(&self) -> u64 {
        self.live
            .as_ref()
            .map_or(0, |l| l.recorder.checkpoint_bytes())
    }

    /// Applies one command.
    pub fn handle(&mut self, cmd: Command, out: &mut dyn Outbox) {
        if matches!(self.mode, Mode::Travelling(_))
            && matches!(
                cmd,
                Command::Step(_)
                    | Command::Run
                    | Command::RunTo(_)
                    | Command::Sync(_)
                    | Command::SaveProof(_)
            )
        {
            self.deferred.push_back(cmd);
            return;
        }
        let preparing = match &self.mode {
            Mode::Preparing(prep) => Some(prep.target),
            _ => None,
        };
        if let Some(prepared_at) = preparing {
            match &cmd {
                // Going back to at most RECENT_BACK before the shown
                // iteration: the preparation is what makes it quick, so
                // it is finished first.
                Command::Back(_) | Command::GoTo(_) | Command::Reset => {
                    let to = match cmd {
                        Command::Back(k) => self.shown_iteration().saturating_sub(k),
                        Command::GoTo(k) => k,
                        _ => 0,
                    };
                    if to >= prepared_at {
                        self.finish_preparing(out);
                    } else {
                        self.mode = Mode::Idle;
                    }
                }
                Command::SetView(_)
                | Command::SetSpeed(_)
                | Command::SetBudget(_)
                | Command::Sync(_)
                | Command::SaveProof(_)
                | Command::Pause => {}
                _ => self.mode = Mode::Idle,
            }
        }
        match cmd {
            Command::Stop => {
                self.stopped = true;
                self.mode = Mode::Idle;
            }
            Command::Load(spec) => {
                self.cancel_travel(out);
                self.load(spec, out);
            }
            Command::Step(n) => {
                if self.can_step() {
                    self.start_running(Some(n.max(1)), out);
                }
            }
            Command::Run => {
                if self.can_step() {
                    self.start_running(None, out);
                }
            }
            Command::RunTo(k) => {
                if self.can_step() && self.shown_iteration() < k {
                    self.start_running_to(k, out);
                }
            }
            Command::Pause => {
                self.cancel_travel(out);
                self.pause(out);
            }
            Command::Back(k) => {
                let now = self.shown_iteration();
                self.go_to(now.saturating_sub(k), out);
            }
            Command::GoTo(k) => self.go_to(k, out),
            Command::Reset => self.go_to(0, out),
            Command::SetView(v) => {
                self.view = v;
                if !matches!(self.mode, Mode::Travelling(_)) {
                    self.send_snapshot(true, out);
                }
            }
            Command::SetSpeed(s) => {
                self.speed = s.filter(|v| *v > 0.0);
                self.next_due = clock::now();
            }
            Command::SetBudget(b) => {
                self.budget = b;
                let limit = checkpoint_limit(&b);
                if let Some(live) = self.live.as_mut() {
                    live.recorder.set_checkpoint_limit(limit);
                }
            }
            Command::SaveProof(path) => self.save_proof(path, out),
            Command::Sync(id) => {
                self.syncs.push(id);
                if self.settled() {
                    self.answer_syncs(out);
                }
            }
        }
    }

    /// Works for up to `budget` (a running chunk, one paced step, or a
    /// piece of a time travel); returns early when `interrupted()` says a
    /// command is waiting.
    pub fn work(&mut self, budget: Duration, interrupted: &dyn Fn() -> bool, out: &mut dyn Outbox) {
        match self.mode {
            Mode::Idle => {}
            Mode::Running { .. } => self.run_chunk(budget, interrupted, out),
            Mode::Travelling(_) => self.travel_chunk(budget, interrupted, out),
            Mode::Preparing(_) => self.prepare_chunk(budget, interrupted, out),
        }
    }

    /// After the run came to rest at a long run's end: starts preparing
    /// the recent checkpoint when one step Back would otherwise replay
    /// more than [`RECENT_BACK`] iterations from the nearest checkpoint.
    fn prepare_back(&mut self) {
        if !matches!(self.mode, Mode::Idle) {
            return;
        }
        let Some(live) = self.live.as_ref() else {
            return;
        };
        let Some(head) = live.search.as_deref().map(|s| s.counters().iterations) else {
            return;
        };
        let recorder = &live.recorder;
        let back_one = head.saturating_sub(1);
        if !recorder.keeps_checkpoints()
            || back_one - recorder.nearest_at_or_before(back_one) <= RECENT_BACK
        {
            return;
        }
        self.mode = Mode::Preparing(Preparation {
            target: head - RECENT_BACK / 2,
            job: None,
        });
    }

    /// Replays the preparation for up to `budget`; keeps it as the
    /// recent checkpoint when it arrives.
    fn prepare_chunk(
        &mut self,
        budget: Duration,
        interrupted: &dyn Fn() -> bool,
        out: &mut dyn Outbox,
    ) {
        let Mode::Preparing(prep) = &mut self.mode else {
            return;
        };
        let Some(job) = prep.job.as_mut() else {
            // This chunk copies the checkpoint the preparation starts from.
            let target = prep.target;
            let start = self.live.as_ref().map(|live| {
                let recorder = &live.recorder;
                catch_unwind(AssertUnwindSafe(|| recorder.start_for(target)))
            });
            match start {
                Some(Ok(Ok((search, from)))) => {
                    prep.job = Some(TravelJob {
                        search,
                        from,
                        target,
                    });
                }
                _ => self.mode = Mode::Idle,
            }
            return;
        };
        let start = clock::now();
        let done = catch_unwind(AssertUnwindSafe(|| {
            let mut n: u64 = 0;
            loop {
                if job.search.counters().iterations >= job.target || job.search.status().is_final()
                {
                    return true;
                }
                job.search.step();
                n += 1;
                if n.is_multiple_of(LOOK_EVERY) && (interrupted() || start.elapsed() >= budget) {
                    return false;
                }
            }
        }));
        match done {
            Ok(true) => self.keep_prepared(out),
            Ok(false) => {}
            // The live run is untouched; only the preparation is given up.
            Err(_) => self.mode = Mode::Idle,
        }
    }

    /// Runs the preparation to its end now (a Back is waiting on it).
    fn finish_preparing(&mut self, out: &mut dyn Outbox) {
        while matches!(self.mode, Mode::Preparing(_)) {
            self.prepare_chunk(Duration::from_secs(3600), &|| false, out);
        }
    }

    /// The prepared copy becomes the recent checkpoint.
    fn keep_prepared(&mut self, out: &mut dyn Outbox) {
        let Mode::Preparing(Preparation { job: Some(job), .. }) =
            std::mem::replace(&mut self.mode, Mode::Idle)
        else {
            return;
        };
        let at = job.search.counters().iterations;
        let kept = self
            .live
            .as_mut()
            .is_some_and(|live| live.recorder.keep_recent(job.search));
        if kept {
            out.deliver(Event::BackReady { at });
        }
    }

    /// Writes the certificate of the current run, if it is solved.
    fn save_proof(&mut self, path: std::path::PathBuf, out: &mut dyn Outbox) {
        let Some(live) = self.live.as_ref() else {
            return out.deliver(Event::Error("no run to take a proof from".into()));
        };
        let Some(search) = live.search.as_deref() else {
            return out.deliver(Event::Error(
                "the search failed; reset the run first".into(),
            ));
        };
        let proved = match search.status() {
            Status::Proved => true,
            Status::Disproved => false,
            _ => {
                return out.deliver(Event::Error(
                    "the run has not proved or disproved its question yet: no proof to save".into(),
                ))
            }
        };
        let written =
            crate::search::proof::certificate(search, &live.recorder.setup, PROOF_WRITER_BUDGET)
                .map_err(|e| e.to_string())
                .and_then(|(cert, stats)| {
                    let text = cert.to_text();
                    // Atomically on the desktop, a download in a page.
                    crate::app::files::save(&path, text.as_bytes()).map_err(|e| e.to_string())?;
                    Ok((stats.positions, text.len() as u64))
                });
        match written {
            Ok((positions, bytes)) => out.deliver(Event::ProofSaved(ProofSaved {
                path,
                positions,
                bytes,
                proved,
            })),
            Err(e) => out.deliver(Event::Error(format!("proof {}: {e}", path.display()))),
        }
    }

    fn answer_syncs(&mut self, out: &mut dyn Outbox) {
        for id in std::mem::take(&mut self.syncs) {
            out.deliver(Event::Synced(id));
        }
    }

    fn search(&self) -> Option<&dyn Search> {
        self.live.as_ref().and_then(|l| l.search.as_deref())
    }

    fn can_step(&self) -> bool {
        self.search().is_some_and(|s| !s.status().is_final())
    }

    fn start_running(&mut self, steps_left: Option<u64>, out: &mut dyn Outbox) {
        self.start_mode(
            Mode::Running {
                steps_left,
                until: None,
            },
            out,
        );
    }

    fn start_running_to(&mut self, until: u64, out: &mut dyn Outbox) {
        self.start_mode(
            Mode::Running {
                steps_left: None,
                until: Some(until),
            },
            out,
        );
    }

    fn start_mode(&mut self, mode: Mode, out: &mut dyn Outbox) {
        let was_running = matches!(self.mode, Mode::Running { .. });
        self.mode = mode;
        if !was_running {
            self.next_due = clock::now();
            out.deliver(Event::Running(true));
        }
    }

    fn pause(&mut self, out: &mut dyn Outbox) {
        if matches!(self.mode, Mode::Running { .. }) {
            self.mode = Mode::Idle;
            self.flush_samples(true, out);
            self.send_snapshot(true, out);
            out.deliver(Event::Running(false));
            self.prepare_back();
        }
        if self.settled() {
            self.answer_syncs(out);
        }
    }

    /// The iteration of the state shown (the one Back counts from).
    fn shown_iteration(&self) -> u64 {
        self.search().map_or(0, |s| s.counters().iterations)
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

    fn load(&mut self, spec: RunSpec, out: &mut dyn Outbox) {
        self.pause(out);
        match Self::build(&spec.algo, &spec.setup) {
            Ok(search) => {
                let first = search.sample();
                let mut recorder = Recorder::new(&spec.algo, spec.setup, first.clone());
                recorder.set_copy_share(Some(COPY_SHARE));
                recorder.set_checkpoint_limit(checkpoint_limit(&self.budget));
                self.live = Some(Live {
                    recorder,
                    search: Some(search),
                });
                self.pending.clear();
                out.deliver(Event::Started { algo: spec.algo });
                out.deliver(Event::Samples(vec![first]));
                self.send_snapshot(true, out);
                self.report_final(out);
            }
            // No run stays loaded: stepping must never go on with the
            // previous position while the UI shows the new one.
            Err(e) => {
                self.live = None;
                self.pending.clear();
                out.deliver(Event::LoadFailed(e));
            }
        }
    }

    /// Ends a time travel under way without arriving: the run stays where
    /// it was; deferred steps are dropped, deferred syncs answered.
    fn cancel_travel(&mut self, out: &mut dyn Outbox) {
        if !matches!(self.mode, Mode::Travelling(_)) {
            return;
        }
        self.mode = Mode::Idle;
        out.deliver(Event::TravelCancelled);
        for cmd in std::mem::take(&mut self.deferred) {
            if let Command::Sync(id) = cmd {
                self.syncs.push(id);
            }
        }
        self.answer_syncs(out);
    }

    /// Time travel: starts replaying from the nearest checkpoint at or
    /// before `k` and works on it for one chunk right away, so a short
    /// travel arrives before the next command is read.
    fn go_to(&mut self, k: u64, out: &mut dyn Outbox) {
        self.cancel_travel(out);
        self.pause(out);
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let recorder = &mut live.recorder;
        let start = catch_unwind(AssertUnwindSafe(|| recorder.take_start_for(k)));
        match start {
            Ok(Ok((search, from))) => {
                self.mode = Mode::Travelling(TravelJob {
                    search,
                    from,
                    target: k,
                });
                self.last_travel_report = Some(clock::now());
                self.travel_chunk(super::cooperative::FRAME_BUDGET, &|| false, out);
            }
            Ok(Err(e)) => out.deliver(Event::Error(e.to_string())),
            Err(p) => {
                live.search = None;
                let msg = format!("the search panicked while replaying: {}", panic_text(&*p));
                out.deliver(Event::Error(msg));
            }
        }
    }

    /// Replays towards the travel's target for up to `budget`.
    fn travel_chunk(
        &mut self,
        budget: Duration,
        interrupted: &dyn Fn() -> bool,
        out: &mut dyn Outbox,
    ) {
        let Mode::Travelling(job) = &mut self.mode else {
            return;
        };
        let start = clock::now();
        let recorder = self.live.as_mut().map(|l| &mut l.recorder);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut n: u64 = 0;
            let mut recorder = recorder;
            loop {
                let it = job.search.counters().iterations;
                if it >= job.target || job.search.status().is_final() {
                    return true;
                }
                job.search.step();
                if let Some(r) = recorder.as_deref_mut() {
                    r.after_step(job.search.as_ref());
                }
                n += 1;
                if n.is_multiple_of(LOOK_EVERY) && (interrupted() || start.elapsed() >= budget) {
                    return false;
                }
            }
        }));
        if let Some(l) = self.live.as_mut() {
            l.recorder.add_run_time(start.elapsed().as_secs_f64());
        }
        match result {
            Ok(true) => self.arrive(out),
            Ok(false) => {
                let now = clock::now();
                if self
                    .last_travel_report
                    .is_none_or(|t| now.duration_since(t) >= SNAPSHOT_INTERVAL)
                {
                    self.last_travel_report = Some(now);
                    let travel = Travel {
                        from: job.from,
                        at: job.search.counters().iterations,
                        target: job.target,
                    };
                    let _ = out.offer(Event::Travelling(travel));
                }
            }
            Err(p) => {
                self.mode = Mode::Idle;
                self.deferred.clear();
                let msg = format!("the search panicked while replaying: {}", panic_text(&*p));
                out.deliver(Event::Error(msg));
                self.answer_syncs(out);
            }
        }
    }

    /// The travel reached its target: the replayed copy becomes the run.
    fn arrive(&mut self, out: &mut dyn Outbox) {
        let Mode::Travelling(job) = std::mem::replace(&mut self.mode, Mode::Idle) else {
            return;
        };
        let reached = job.search.counters().iterations;
        if let Some(live) = self.live.as_mut() {
            live.search = Some(job.search);
        }
        self.pending.clear();
        out.deliver(Event::Rewound { iteration: reached });
        self.send_snapshot(true, out);
        self.report_final(out);
        for cmd in std::mem::take(&mut self.deferred) {
            self.handle(cmd, out);
        }
        self.prepare_back();
        if self.settled() {
            self.answer_syncs(out);
        }
    }

    /// Sends `Finished` if the search is final.
    fn report_final(&mut self, out: &mut dyn Outbox) {
        if let Some(st) = self.search().map(|s| s.status()).filter(|s| s.is_final()) {
            out.deliver(Event::Finished(st));
        }
    }

    /// Steps for up to `budget` (or one paced step), then returns.
    fn run_chunk(
        &mut self,
        budget: Duration,
        interrupted: &dyn Fn() -> bool,
        out: &mut dyn Outbox,
    ) {
        let Mode::Running { steps_left, until } = &mut self.mode else {
            return;
        };
        let start = clock::now();
        let paced = self.speed;
        if paced.is_some() && start < self.next_due {
            return;
        }
        let limits: Budget = self.budget;
        let mut finished = None;
        let mut budget_hit = None;
        let mut step_mode_done = false;
        let Some(live) = self.live.as_mut() else {
            self.mode = Mode::Idle;
            self.answer_syncs(out);
            return;
        };
        let Some(search) = live.search.as_mut() else {
            self.mode = Mode::Idle;
            self.answer_syncs(out);
            return;
        };
        let recorder = &mut live.recorder;
        let pending = &mut self.pending;
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut n: u64 = 0;
            loop {
                let c = search.counters();
                let bytes = c.peak_tree_bytes + recorder.checkpoint_bytes();
                if let Some(r) = limits.exceeded(c.iterations, c.nodes_created, bytes) {
                    budget_hit = Some(r);
                    break;
                }
                let st = search.step();
                recorder.after_step(search.as_ref());
                let it = search.counters().iterations;
                if sampled(it) || st.is_final() {
                    pending.push(search.sample());
                }
                if st.is_final() {
                    finished = Some(st);
                    break;
                }
                if until.is_some_and(|u| it >= u) {
                    step_mode_done = true;
                    break;
                }
                if let Some(left) = steps_left.as_mut() {
                    *left -= 1;
                    if *left == 0 {
                        step_mode_done = true;
                        break;
                    }
                }
                n += 1;
                if paced.is_some() {
                    break;
                }
                if n.is_multiple_of(LOOK_EVERY) && (interrupted() || start.elapsed() >= budget) {
                    break;
                }
            }
        }));
        let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
        live.recorder.add_run_time(elapsed_ms / 1000.0);
        if let Some(speed) = paced {
            self.next_due += Duration::from_secs_f64(1.0 / speed);
            let now = clock::now();
            if self.next_due < now {
                self.next_due = now;
            }
        }
        match result {
            Ok(()) => search.counters_mut().time_ms += elapsed_ms,
            Err(p) => {
                live.search = None;
                self.mode = Mode::Idle;
                self.pending.clear();
                let msg = format!(
                    "the search panicked: {} (Reset rebuilds the run)",
                    panic_text(&*p)
                );
                out.deliver(Event::Error(msg));
                out.deliver(Event::Running(false));
                self.answer_syncs(out);
                return;
            }
        }
        if let Some(st) = finished {
            self.mode = Mode::Idle;
            self.flush_samples(true, out);
            self.send_snapshot(true, out);
            out.deliver(Event::Finished(st));
            out.deliver(Event::Running(false));
            self.prepare_back();
            self.answer_syncs(out);
        } else if let Some(r) = budget_hit {
            // The reason first: pausing answers the syncs a caller may be
            // waiting on, and it must have learnt why the run stopped.
            out.deliver(Event::BudgetReached(r));
            self.pause(out);
        } else if step_mode_done {
            self.pause(out);
        } else {
            self.flush_samples(false, out);
            self.send_snapshot(false, out);
        }
    }

    /// Sends pending samples: `force` surely, otherwise a full queue
    /// keeps them for the next try.
    fn flush_samples(&mut self, force: bool, out: &mut dyn Outbox) {
        if self.pending.is_empty() {
            return;
        }
        let batch = std::mem::take(&mut self.pending);
        if force {
            return out.deliver(Event::Samples(batch));
        }
        if let Err(Event::Samples(b)) = out.offer(Event::Samples(batch)) {
            self.pending = b;
        }
    }

    /// Sends a snapshot of the current view: `force` = now and surely,
    /// otherwise throttled and droppable.
    fn send_snapshot(&mut self, force: bool, out: &mut dyn Outbox) {
        let now = clock::now();
        if !force
            && self
                .last_snapshot
                .is_some_and(|t| now.duration_since(t) < SNAPSHOT_INTERVAL)
        {
            return;
        }
        let Some(search) = self.search() else {
            return;
        };
        let view = &self.view;
        let taken = catch_unwind(AssertUnwindSafe(|| {
            (search.snapshot(view), RunFacts::of(search))
        }));
        let (snap, mut facts) = match taken {
            Ok(s) => s,
            Err(p) => {
                let msg = format!("the search panicked in snapshot: {}", panic_text(&*p));
                out.deliver(Event::Error(msg));
                return;
            }
        };
        facts.checkpoint_bytes = self.checkpoint_bytes();
        self.last_snapshot = Some(now);
        let ev = Event::Snapshot {
            snapshot: Box::new(snap),
            facts,
        };
        if force {
            out.deliver(ev);
        } else {
            let _ = out.offer(ev);
        }
    }
}
