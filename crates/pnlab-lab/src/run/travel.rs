//! Time travel: replaying a copy of the run from the recorder's nearest
//! checkpoint to an earlier iteration, in chunks; and, while the run
//! rests, preparing a recent checkpoint so that one step Back is quick.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pnlab_core::clock::{self, Duration, Instant};

use super::machine::{panicked, Mode, Preparation, RunMachine, TravelJob, LOOK_EVERY, RECENT_BACK};
use super::{Event, Outbox, RunPhase, Travel, SNAPSHOT_INTERVAL};

/// Replays `job` towards its target (no budget: the run already went
/// there once) until it arrives (true) or `slice` is over or a command
/// waits (false); `after_step` sees every replayed step.
fn replay(
    job: &mut TravelJob,
    slice: Duration,
    start: Instant,
    interrupted: &dyn Fn() -> bool,
    mut after_step: impl FnMut(&dyn pnlab_core::search::Search),
) -> bool {
    let mut n: u64 = 0;
    loop {
        if job.search.counters().iterations >= job.target || job.search.status().is_final() {
            return true;
        }
        job.search.step();
        after_step(job.search.as_ref());
        n += 1;
        if n.is_multiple_of(LOOK_EVERY) && (interrupted() || start.elapsed() >= slice) {
            return false;
        }
    }
}

impl RunMachine {
    /// Ends a time travel under way without arriving: the run stays where
    /// it was; deferred steps are dropped, deferred syncs answered.
    pub(super) fn cancel_travel(&mut self, out: &mut dyn Outbox) {
        if !matches!(self.mode, Mode::Travelling(_)) {
            return;
        }
        self.mode = Mode::Idle;
        out.deliver(Event::TravelCancelled);
        for cmd in std::mem::take(&mut self.deferred) {
            if let super::Command::Sync(id) = cmd {
                self.syncs.push(id);
            }
        }
        self.answer_syncs(out);
    }

    /// Time travel: starts replaying from the nearest checkpoint at or
    /// before `k` and works on it for up to `slice` right away, so a
    /// short travel arrives before the next command is read.
    pub(super) fn go_to(&mut self, k: u64, slice: Duration, out: &mut dyn Outbox) {
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
                self.travel_chunk(slice, &|| false, out);
            }
            Ok(Err(e)) => out.deliver(Event::Error(e.into())),
            Err(p) => {
                live.search = None;
                out.deliver(Event::Error(panicked(RunPhase::Replaying, &*p)));
            }
        }
    }

    /// Replays towards the travel's target for up to `slice`.
    pub(super) fn travel_chunk(
        &mut self,
        slice: Duration,
        interrupted: &dyn Fn() -> bool,
        out: &mut dyn Outbox,
    ) {
        let Mode::Travelling(job) = &mut self.mode else {
            return;
        };
        let start = clock::now();
        let mut recorder = self.live.as_mut().map(|l| &mut l.recorder);
        let result = catch_unwind(AssertUnwindSafe(|| {
            replay(job, slice, start, interrupted, |s| {
                if let Some(r) = recorder.as_deref_mut() {
                    r.after_step(s);
                }
            })
        }));
        if let Some(l) = self.live.as_mut() {
            l.recorder.add_run_time(start.elapsed().as_secs_f64());
        }
        match result {
            Ok(true) => self.arrive(slice, out),
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
                out.deliver(Event::Error(panicked(RunPhase::Replaying, &*p)));
                self.answer_syncs(out);
            }
        }
    }

    /// The travel reached its target: the replayed copy becomes the run,
    /// and the commands deferred during the travel are carried out.
    fn arrive(&mut self, slice: Duration, out: &mut dyn Outbox) {
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
            self.handle(cmd, slice, out);
        }
        self.prepare_back();
        if self.settled() {
            self.answer_syncs(out);
        }
    }

    /// After the run came to rest at a long run's end: starts preparing
    /// the recent checkpoint when one step Back would otherwise replay
    /// more than [`RECENT_BACK`] iterations from the nearest checkpoint.
    pub(super) fn prepare_back(&mut self) {
        if !matches!(self.mode, Mode::Idle) || !self.feeds.checkpoints {
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

    /// Replays the preparation for up to `slice`; keeps it as the
    /// recent checkpoint when it arrives.
    pub(super) fn prepare_chunk(
        &mut self,
        slice: Duration,
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
            replay(job, slice, start, interrupted, |_| {})
        }));
        match done {
            Ok(true) => self.keep_prepared(out),
            Ok(false) => {}
            // The live run is untouched; only the preparation is given up.
            Err(_) => self.mode = Mode::Idle,
        }
    }

    /// Runs the preparation to its end now (a Back is waiting on it).
    pub(super) fn finish_preparing(&mut self, out: &mut dyn Outbox) {
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
}
