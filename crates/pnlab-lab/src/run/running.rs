//! Running: stepping the live search in chunks within a slice of time,
//! with pacing, budgets, curve samples and throttled snapshots.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pnlab_core::clock::{self, Duration, Instant};
use pnlab_core::search::driver::{advance, keep_sample};
use pnlab_core::search::recorder::Recorder;
use pnlab_core::search::{Budget, Search, StatsSample, Status, StopReason};

use super::machine::{panicked, Mode, RunMachine, LOOK_EVERY};
use super::RunPhase;
use super::{Event, Outbox, SNAPSHOT_INTERVAL};
use crate::export::RunFacts;

/// How a running chunk ended.
enum ChunkEnd {
    /// The search reached a final status.
    Finished(Status),
    /// A budget is spent (before a step, or the time limit between them).
    Budget(StopReason),
    /// The steps asked for are done (Step's count, RunTo's iteration).
    Done,
    /// The slice is over (or a command is waiting, or one paced step was
    /// taken): the run goes on at the next call.
    Yield,
}

/// What one chunk may do.
struct Chunk<'a> {
    limits: Budget,
    /// When the run began (its time limit counts from here).
    began: Instant,
    /// When this chunk began, and how long it may take.
    start: Instant,
    slice: Duration,
    /// One step only (a paced run).
    paced: bool,
    steps_left: &'a mut Option<u64>,
    until: Option<u64>,
    interrupted: &'a dyn Fn() -> bool,
}

impl Chunk<'_> {
    /// The chunk's loop: every iteration through the engine's
    /// [`advance`], recorded for time travel and sampled for the curves.
    fn steps(
        &mut self,
        search: &mut dyn Search,
        recorder: &mut Recorder,
        mut samples: Option<&mut Vec<StatsSample>>,
    ) -> ChunkEnd {
        let mut n: u64 = 0;
        loop {
            let extra = recorder.checkpoint_bytes();
            let st = match advance(search, &self.limits, extra) {
                Ok(st) => st,
                Err(reason) => return ChunkEnd::Budget(reason),
            };
            recorder.after_step(search);
            if let Some(samples) = samples.as_deref_mut() {
                keep_sample(search, st, samples);
            }
            if st.is_final() {
                return ChunkEnd::Finished(st);
            }
            let it = search.counters().iterations;
            if self.until.is_some_and(|u| it >= u) {
                return ChunkEnd::Done;
            }
            if let Some(left) = self.steps_left.as_mut() {
                *left -= 1;
                if *left == 0 {
                    return ChunkEnd::Done;
                }
            }
            n += 1;
            if self.paced || n.is_multiple_of(LOOK_EVERY) {
                if self
                    .limits
                    .time_limit
                    .is_some_and(|t| self.began.elapsed() >= t)
                {
                    return ChunkEnd::Budget(StopReason::TimeLimit);
                }
                if self.paced || (self.interrupted)() || self.start.elapsed() >= self.slice {
                    return ChunkEnd::Yield;
                }
            }
        }
    }
}

impl RunMachine {
    /// Starts running (`steps_left` more, or up to iteration `until`).
    pub(super) fn start_running(
        &mut self,
        steps_left: Option<u64>,
        until: Option<u64>,
        out: &mut dyn Outbox,
    ) {
        let was_running = matches!(self.mode, Mode::Running { .. });
        self.mode = Mode::Running { steps_left, until };
        if !was_running {
            self.next_due = clock::now();
            self.run_began = self.next_due;
            out.deliver(Event::Running(true));
        }
    }

    pub(super) fn pause(&mut self, out: &mut dyn Outbox) {
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

    /// Steps for up to `slice` (or one paced step), then returns.
    pub(super) fn run_chunk(
        &mut self,
        slice: Duration,
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
        let mut chunk = Chunk {
            limits: self.budget,
            began: self.run_began,
            start,
            slice,
            paced: paced.is_some(),
            steps_left,
            until: *until,
            interrupted,
        };
        let recorder = &mut live.recorder;
        let samples = self.feeds.samples.then_some(&mut self.pending);
        let result = catch_unwind(AssertUnwindSafe(|| {
            chunk.steps(search.as_mut(), recorder, samples)
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
            Ok(end) => {
                search.counters_mut().time_ms += elapsed_ms;
                self.end_chunk(end, out);
            }
            Err(p) => {
                live.search = None;
                self.mode = Mode::Idle;
                self.pending.clear();
                out.deliver(Event::Error(panicked(RunPhase::Stepping, &*p)));
                out.deliver(Event::Running(false));
                self.answer_syncs(out);
            }
        }
    }

    /// What follows a chunk that ended as `end`.
    fn end_chunk(&mut self, end: ChunkEnd, out: &mut dyn Outbox) {
        match end {
            ChunkEnd::Finished(st) => {
                self.mode = Mode::Idle;
                self.flush_samples(true, out);
                self.send_snapshot(true, out);
                out.deliver(Event::Finished(st));
                out.deliver(Event::Running(false));
                self.prepare_back();
                self.answer_syncs(out);
            }
            ChunkEnd::Budget(r) => {
                // The reason first: pausing answers the syncs a caller may
                // be waiting on, and it must have learnt why the run
                // stopped.
                out.deliver(Event::BudgetReached(r));
                self.pause(out);
            }
            ChunkEnd::Done => self.pause(out),
            ChunkEnd::Yield => {
                self.flush_samples(false, out);
                self.send_snapshot(false, out);
            }
        }
    }

    /// Sends pending samples: `force` surely, otherwise a full queue
    /// keeps them for the next try.
    pub(super) fn flush_samples(&mut self, force: bool, out: &mut dyn Outbox) {
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
    /// otherwise throttled and droppable. Nothing without the feed.
    pub(super) fn send_snapshot(&mut self, force: bool, out: &mut dyn Outbox) {
        if !self.feeds.snapshots {
            return;
        }
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
                out.deliver(Event::Error(panicked(RunPhase::Snapshot, &*p)));
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
