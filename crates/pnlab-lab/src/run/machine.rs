//! The run's state machine: what every [`Command`] means, whichever shell
//! drives it.
//!
//! The machine owns the search and its [`Recorder`]. A shell hands it
//! commands ([`RunMachine::handle`]) and, while it is busy, time to work
//! ([`RunMachine::work`]): running steps the search in chunks, sampling
//! the curves and sending throttled snapshots (running.rs); a time
//! travel replays from the recorder's nearest checkpoint in chunks too,
//! reporting its progress (travel.rs), so neither ever holds a shell
//! longer than the slice it was given. Events go out through an
//! [`Outbox`]: the ones that must arrive with [`Outbox::deliver`], live
//! snapshots and sample batches with [`Outbox::offer`] (a full queue
//! keeps the samples pending and drops the snapshot, which the next one
//! replaces). A panic inside the search is caught and reported as an
//! [`Event::Error`]; the machine stays usable (Reset rebuilds the run).

use std::collections::VecDeque;

use pnlab_core::clock::{self, Duration, Instant};
use pnlab_core::search::recorder::{Recorder, DEFAULT_CHECKPOINT_LIMIT};
use pnlab_core::search::{Budget, Search, StatsSample, ViewRequest};

use super::{Command, Event, Outbox, RunFault, RunPhase};

/// Steps between two looks at the clock and the interrupt flag.
pub const LOOK_EVERY: u64 = 64;

/// How far behind the shown iteration the recent checkpoint is prepared
/// (Back by up to this many iterations starts from it). Replaying this
/// many PNS iterations takes a few milliseconds.
pub const RECENT_BACK: u64 = 1024;

/// The share of a driven run's time checkpoint copies may take: the run
/// goes at least this close to the bare search's speed, and a time
/// travel replays a little further.
pub const COPY_SHARE: f64 = 0.1;

/// What the machine makes besides the run itself. A window wants it all;
/// a synchronous shell that reads the search between calls (Python)
/// wants none of it, and then pays nothing for it: no tree picture or
/// curve sample is taken and no checkpoint copied (a time travel then
/// replays from the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feeds {
    /// Pictures of the tree ([`Event::Snapshot`]).
    pub snapshots: bool,
    /// The curves' samples ([`Event::Samples`]).
    pub samples: bool,
    /// Checkpoint copies that make a time travel short.
    pub checkpoints: bool,
}

impl Feeds {
    /// Everything (the app and the page).
    pub const WINDOW: Feeds = Feeds {
        snapshots: true,
        samples: true,
        checkpoints: true,
    };
    /// Nothing but the run and its answers (Python's `Search`).
    pub const BARE: Feeds = Feeds {
        snapshots: false,
        samples: false,
        checkpoints: false,
    };
}

/// The run the machine owns.
pub(super) struct Live {
    pub(super) recorder: Recorder,
    /// `None` after a panic poisoned the search (Reset rebuilds it).
    pub(super) search: Option<Box<dyn Search>>,
}

/// A time travel under way: a copy of the run replayed towards `target`.
pub(super) struct TravelJob {
    pub(super) search: Box<dyn Search>,
    pub(super) from: u64,
    pub(super) target: u64,
}

/// What the machine is doing between commands.
pub(super) enum Mode {
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
pub(super) struct Preparation {
    pub(super) target: u64,
    pub(super) job: Option<TravelJob>,
}

/// The run's state machine (see the module docs).
pub struct RunMachine {
    pub(super) feeds: Feeds,
    pub(super) live: Option<Live>,
    pub(super) view: ViewRequest,
    pub(super) speed: Option<f64>,
    pub(super) budget: Budget,
    pub(super) mode: Mode,
    pub(super) next_due: Instant,
    /// When the current run (Step, Run, RunTo) began: its time limit
    /// counts from here.
    pub(super) run_began: Instant,
    pub(super) pending: Vec<StatsSample>,
    pub(super) last_snapshot: Option<Instant>,
    pub(super) last_travel_report: Option<Instant>,
    /// Sync requests answered when the machine is next idle.
    pub(super) syncs: Vec<u64>,
    /// Commands that arrived during a time travel, carried out after it.
    pub(super) deferred: VecDeque<Command>,
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
        .map_or(DEFAULT_CHECKPOINT_LIMIT, |m| m / 4)
}

/// A caught panic as the run's fault, with its message.
pub(super) fn panicked(phase: RunPhase, p: &(dyn std::any::Any + Send)) -> RunFault {
    let message = if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    };
    RunFault::Panicked { phase, message }
}

impl RunMachine {
    /// A machine with no run loaded, making everything a window shows.
    pub fn new() -> RunMachine {
        RunMachine::with_feeds(Feeds::WINDOW)
    }

    /// A machine with no run loaded, making only `feeds`.
    pub fn with_feeds(feeds: Feeds) -> RunMachine {
        RunMachine {
            feeds,
            live: None,
            view: ViewRequest::default(),
            speed: None,
            budget: Budget::default(),
            mode: Mode::Idle,
            next_due: clock::now(),
            run_began: clock::now(),
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

    /// True while running, travelling or preparing Back: the shell
    /// should call [`work`](RunMachine::work) again.
    pub fn busy(&self) -> bool {
        !matches!(self.mode, Mode::Idle)
    }

    /// True when the run stands still (idle, or only preparing Back):
    /// syncs are answered then, and a synchronous shell returns.
    pub fn settled(&self) -> bool {
        matches!(self.mode, Mode::Idle | Mode::Preparing(_))
    }

    /// How long the shell may wait before the next paced step is due
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

    /// The run's search as it stands (for a shell that reads it between
    /// calls); `None` before a Load or after the search panicked.
    pub fn search(&self) -> Option<&dyn Search> {
        self.live.as_ref().and_then(|l| l.search.as_deref())
    }

    /// Applies one command; a time travel it starts works for up to
    /// `slice` at once, so a short one arrives before the next command.
    pub fn handle(&mut self, cmd: Command, slice: Duration, out: &mut dyn Outbox) {
        if matches!(self.mode, Mode::Travelling(_))
            && matches!(
                cmd,
                Command::Step(_)
                    | Command::Run
                    | Command::RunTo(_)
                    | Command::Sync(_)
                    | Command::Certificate(_)
            )
        {
            self.deferred.push_back(cmd);
            return;
        }
        self.leave_preparing_for(&cmd, out);
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
                    self.start_running(Some(n.max(1)), None, out);
                }
            }
            Command::Run => {
                if self.can_step() {
                    self.start_running(None, None, out);
                }
            }
            Command::RunTo(k) => {
                if self.can_step() && self.shown_iteration() < k {
                    self.start_running(None, Some(k), out);
                }
            }
            Command::Pause => {
                self.cancel_travel(out);
                self.pause(out);
            }
            Command::Back(k) => {
                let now = self.shown_iteration();
                self.go_to(now.saturating_sub(k), slice, out);
            }
            Command::GoTo(k) => self.go_to(k, slice, out),
            Command::Reset => self.go_to(0, slice, out),
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
                let limit = self.checkpoint_limit();
                if let Some(live) = self.live.as_mut() {
                    live.recorder.set_checkpoint_limit(limit);
                }
            }
            Command::Certificate(path) => self.certify(path, out),
            Command::Sync(id) => {
                self.syncs.push(id);
                if self.settled() {
                    self.answer_syncs(out);
                }
            }
        }
    }

    /// Works for up to `slice` (a running chunk, one paced step, or a
    /// piece of a time travel); returns early when `interrupted()` says a
    /// command is waiting. The page passes its frame budget, the desktop
    /// thread its chunk, Python the time between two looks for Ctrl-C.
    pub fn work(&mut self, slice: Duration, interrupted: &dyn Fn() -> bool, out: &mut dyn Outbox) {
        match self.mode {
            Mode::Idle => {}
            Mode::Running { .. } => self.run_chunk(slice, interrupted, out),
            Mode::Travelling(_) => self.travel_chunk(slice, interrupted, out),
            Mode::Preparing(_) => self.prepare_chunk(slice, interrupted, out),
        }
    }

    /// The synchronous shell's call: applies `cmd` and works until the
    /// run stands still (a step, run or time travel done, a budget
    /// reached), sleeping between paced steps; returns every event in
    /// order. The preparation of a quick Back is left to the next call.
    pub fn apply(&mut self, cmd: Command) -> Vec<Event> {
        let mut events = Vec::new();
        self.handle(cmd, Duration::MAX, &mut events);
        while !self.settled() && !self.stopped {
            #[cfg(not(target_arch = "wasm32"))]
            {
                let due = self.due_in(clock::now());
                if !due.is_zero() {
                    std::thread::sleep(due);
                }
            }
            self.work(Duration::MAX, &|| false, &mut events);
        }
        events
    }

    /// The checkpoint bytes the budget leaves (none without the feed).
    pub(super) fn checkpoint_limit(&self) -> u64 {
        if self.feeds.checkpoints {
            checkpoint_limit(&self.budget)
        } else {
            0
        }
    }

    /// A command other than those that leave it be ends the preparation
    /// of a quick Back; Back, GoTo or Reset to at or after its target
    /// finish it first (it is what makes them quick).
    fn leave_preparing_for(&mut self, cmd: &Command, out: &mut dyn Outbox) {
        let Mode::Preparing(prep) = &self.mode else {
            return;
        };
        let prepared_at = prep.target;
        match cmd {
            Command::Back(_) | Command::GoTo(_) | Command::Reset => {
                let to = match cmd {
                    Command::Back(k) => self.shown_iteration().saturating_sub(*k),
                    Command::GoTo(k) => *k,
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
            | Command::Certificate(_)
            | Command::Pause => {}
            _ => self.mode = Mode::Idle,
        }
    }

    pub(super) fn answer_syncs(&mut self, out: &mut dyn Outbox) {
        for id in std::mem::take(&mut self.syncs) {
            out.deliver(Event::Synced(id));
        }
    }

    pub(super) fn can_step(&self) -> bool {
        self.search().is_some_and(|s| !s.status().is_final())
    }

    /// The iteration of the state shown (the one Back counts from).
    pub(super) fn shown_iteration(&self) -> u64 {
        self.search().map_or(0, |s| s.counters().iterations)
    }

    /// Sends `Finished` if the search is final.
    pub(super) fn report_final(&mut self, out: &mut dyn Outbox) {
        if let Some(st) = self.search().map(|s| s.status()).filter(|s| s.is_final()) {
            out.deliver(Event::Finished(st));
        }
    }
}
