//! The recorder: per-iteration samples of a run, and time travel.
//!
//! Every run is deterministic for its setup (position, algorithm,
//! parameters, seed), so any earlier iteration is shown again exactly by
//! replaying steps. Replaying from iteration 0 costs as much as the run
//! did (tens of seconds after 10⁶ PNS iterations on a large board), so the
//! recorder also keeps *checkpoints*: copies of the whole search
//! ([`Search::checkpoint`]) every [`Recorder::spacing`] iterations. Going
//! to iteration `k` copies the nearest checkpoint at or before `k` and
//! replays the rest, at most one spacing of steps.
//!
//! Checkpoints of a growing tree grow with it, so they live within a
//! byte limit: when a new one would pass it, every second checkpoint is
//! dropped and the spacing doubles (the ones kept sit at multiples of the
//! new spacing). With a tree that grows linearly and a limit of `m` times
//! the live tree, the spacing settles near `N / 2m` after `N` iterations.
//! A search that cannot be copied keeps no checkpoints and is replayed
//! from the start.
//!
//! Copying is not free: a copy of a large tree costs about as much as
//! growing it did (most of it is the fresh memory's page faults), and
//! one every 256 iterations made a driven run 30 to 60 times slower than
//! the bare search. A driver that steps a run for people to watch
//! therefore gives copies a *share* of the run's time
//! ([`Recorder::set_copy_share`]): a checkpoint due while the copies
//! already took more than that share of the time so far is skipped. The
//! run's answers do not depend on it (a replay is exact from any
//! checkpoint); only how far a time travel replays does.

use super::{registry, Search, SearchSetup, StatsSample};

/// The first checkpoint spacing, in iterations: small trees are cheap to
/// copy, and a spacing this short replays in well under a millisecond.
pub const FIRST_SPACING: u64 = 256;

/// Checkpoint bytes allowed when nobody set a limit (1 GiB).
pub const DEFAULT_CHECKPOINT_LIMIT: u64 = 1 << 30;

/// A copy of the search after `iteration` steps.
struct Checkpoint {
    iteration: u64,
    bytes: u64,
    search: Box<dyn Search>,
    /// The recent checkpoint (see [`Recorder::keep_recent`]), not one
    /// on the spacing.
    recent: bool,
}

/// Per-iteration history of one run plus what is needed to rebuild any
/// earlier state.
pub struct Recorder {
    /// The registry name of the recorded algorithm.
    pub algo: String,
    /// The setup it ran with; replaying it rebuilds any earlier state.
    pub setup: SearchSetup,
    /// One sample per iteration, index 0 = before the first step.
    pub samples: Vec<StatsSample>,
    checkpoints: Vec<Checkpoint>,
    spacing: u64,
    limit_bytes: u64,
    /// False once the search declined to be copied.
    copyable: bool,
    /// The share of the run's time copies may take (`None`: no limit).
    copy_share: Option<f64>,
    /// Seconds spent copying checkpoints so far.
    copy_seconds: f64,
    /// Seconds the run has been stepped so far (copies included), as the
    /// driver reports them.
    run_seconds: f64,
}

/// What a copy of a search is taken to weigh: the bytes its tree or table
/// reports, and at least a kibibyte.
fn weight(s: &dyn Search) -> u64 {
    s.counters().peak_tree_bytes.max(1024)
}

impl Recorder {
    /// Starts a recording; `first` is the search's sample before any step.
    pub fn new(algo: &str, setup: SearchSetup, first: StatsSample) -> Recorder {
        Recorder {
            algo: algo.to_string(),
            setup,
            samples: vec![first],
            checkpoints: Vec::new(),
            spacing: FIRST_SPACING,
            limit_bytes: DEFAULT_CHECKPOINT_LIMIT,
            copyable: true,
            copy_share: None,
            copy_seconds: 0.0,
            run_seconds: 0.0,
        }
    }

    /// Appends the sample taken after a step.
    pub fn push(&mut self, s: StatsSample) {
        self.samples.push(s);
    }

    /// Forgets samples after iteration `k` (after stepping back).
    pub fn truncate(&mut self, k: u64) {
        self.samples.truncate(k as usize + 1);
    }

    /// Sets the bytes checkpoints may take (thinning at once if needed).
    pub fn set_checkpoint_limit(&mut self, bytes: u64) {
        self.limit_bytes = bytes;
        while self.checkpoint_bytes() > self.limit_bytes && self.make_room() {}
    }

    /// Frees some checkpoint bytes: thins the regular checkpoints while
    /// there are any, then lets the recent one go. False when nothing is
    /// left to free.
    fn make_room(&mut self) -> bool {
        if self.checkpoints.iter().any(|c| !c.recent) {
            self.thin();
            true
        } else if self.checkpoints.is_empty() {
            false
        } else {
            self.checkpoints.retain(|c| !c.recent);
            true
        }
    }

    /// Lets checkpoint copies take at most `share` of the run's time (the
    /// time the driver reports with [`Recorder::add_run_time`]); `None`
    /// takes every checkpoint on the spacing.
    pub fn set_copy_share(&mut self, share: Option<f64>) {
        self.copy_share = share;
    }

    /// Adds the time the driver spent stepping the run (copies included).
    pub fn add_run_time(&mut self, seconds: f64) {
        self.run_seconds += seconds;
    }

    /// The seconds spent copying checkpoints so far.
    pub fn copy_seconds(&self) -> f64 {
        self.copy_seconds
    }

    /// Starts the checkpoint spacing at `k` iterations instead of
    /// [`FIRST_SPACING`] (tests with short runs).
    pub fn set_first_spacing(&mut self, k: u64) {
        if self.checkpoints.is_empty() {
            self.spacing = k.max(1);
        }
    }

    /// The current checkpoint spacing, in iterations.
    pub fn spacing(&self) -> u64 {
        self.spacing
    }

    /// Iterations at which checkpoints are held, in order.
    pub fn checkpoint_iterations(&self) -> Vec<u64> {
        self.checkpoints.iter().map(|c| c.iteration).collect()
    }

    /// Bytes the checkpoints hold (by the searches' own accounts).
    pub fn checkpoint_bytes(&self) -> u64 {
        self.checkpoints.iter().map(|c| c.bytes).sum()
    }

    /// False when the search cannot be copied (time travel replays from
    /// the start).
    pub fn keeps_checkpoints(&self) -> bool {
        self.copyable
    }

    /// Called after every step of the run (and of a replay): takes a
    /// checkpoint at each multiple of the spacing not yet held.
    pub fn after_step(&mut self, s: &dyn Search) {
        let it = s.counters().iterations;
        if !self.copyable || it == 0 || !it.is_multiple_of(self.spacing) {
            return;
        }
        // Checkpoints are kept sorted; one at `it` or later already
        // covers this replay.
        let at = self.checkpoints.partition_point(|c| c.iteration < it);
        if self.checkpoints.get(at).is_some_and(|c| c.iteration == it) {
            return;
        }
        let bytes = weight(s);
        while self.checkpoint_bytes() + bytes > self.limit_bytes && self.make_room() {
            if !it.is_multiple_of(self.spacing) {
                return;
            }
        }
        if bytes > self.limit_bytes {
            return;
        }
        if self
            .copy_share
            .is_some_and(|share| self.copy_seconds > share * self.run_seconds)
        {
            return;
        }
        let started = crate::clock::now();
        let copy = s.checkpoint();
        self.copy_seconds += started.elapsed().as_secs_f64();
        match copy {
            Some(search) => {
                self.insert(it, bytes, search, false);
            }
            None => self.copyable = false,
        }
    }

    /// The iteration of the nearest checkpoint at or before `k` (0: the
    /// start, rebuilt from the setup).
    pub fn nearest_at_or_before(&self, k: u64) -> u64 {
        let at = self.checkpoints.partition_point(|c| c.iteration <= k);
        at.checked_sub(1)
            .and_then(|i| self.checkpoints.get(i))
            .map_or(0, |c| c.iteration)
    }

    /// Keeps `search` (replayed to an iteration off the spacing) as the
    /// one *recent* checkpoint: the one Back starts from near the end of
    /// a long run, so one step back replays a few iterations instead of
    /// a whole spacing. The previous recent checkpoint goes; regular ones
    /// are thinned out (as when a new one would pass the byte limit) until
    /// it fits, since near the end of a long run it serves the Back a
    /// class uses most. Returns false (keeping nothing) when the copy
    /// alone passes the limit or one is already held at its iteration.
    pub fn keep_recent(&mut self, search: Box<dyn Search>) -> bool {
        let it = search.counters().iterations;
        self.checkpoints.retain(|c| !c.recent);
        let bytes = weight(search.as_ref());
        if bytes > self.limit_bytes {
            return false;
        }
        while self.checkpoint_bytes() + bytes > self.limit_bytes && self.make_room() {}
        let at = self.checkpoints.partition_point(|c| c.iteration < it);
        if self.checkpoints.get(at).is_some_and(|c| c.iteration == it) {
            return false;
        }
        self.insert(it, bytes, search, true);
        true
    }

    /// Puts a checkpoint in its place (the list stays sorted).
    fn insert(&mut self, iteration: u64, bytes: u64, search: Box<dyn Search>, recent: bool) {
        let at = self
            .checkpoints
            .partition_point(|c| c.iteration < iteration);
        self.checkpoints.insert(
            at,
            Checkpoint {
                iteration,
                bytes,
                search,
                recent,
            },
        );
    }

    /// Doubles the spacing and drops the checkpoints off its multiples.
    fn thin(&mut self) {
        self.spacing = self.spacing.saturating_mul(2);
        let spacing = self.spacing;
        self.checkpoints
            .retain(|c| c.recent || c.iteration.is_multiple_of(spacing));
    }

    /// A search to replay from towards iteration `k`: a copy of the
    /// nearest checkpoint at or before `k`, or a fresh build; with the
    /// iteration it starts at.
    pub fn start_for(&self, k: u64) -> Result<(Box<dyn Search>, u64), super::SearchError> {
        let at = self.checkpoints.partition_point(|c| c.iteration <= k);
        if let Some(c) = at.checked_sub(1).and_then(|i| self.checkpoints.get(i)) {
            if let Some(copy) = c.search.checkpoint() {
                return Ok((copy, c.iteration));
            }
        }
        Ok((registry::build(&self.algo, &self.setup)?, 0))
    }

    /// Like [`Recorder::start_for`], but when the nearest checkpoint is
    /// the recent one (off the spacing) it is handed over, not copied:
    /// copying a large tree costs far more than replaying the few
    /// hundred iterations after it, and one step Back is the case a class
    /// uses most. The driver prepares a new recent checkpoint once the
    /// run rests again.
    pub fn take_start_for(&mut self, k: u64) -> Result<(Box<dyn Search>, u64), super::SearchError> {
        let at = self.checkpoints.partition_point(|c| c.iteration <= k);
        if let Some(i) = at.checked_sub(1) {
            if self.checkpoints[i].recent {
                let c = self.checkpoints.remove(i);
                return Ok((c.search, c.iteration));
            }
        }
        self.start_for(k)
    }

    /// The state the run was in after iteration `k` (or where it
    /// finished): the nearest checkpoint, replayed the rest of the way.
    pub fn rebuild_at(&self, k: u64) -> Result<Box<dyn Search>, super::SearchError> {
        let (mut s, _) = self.start_for(k)?;
        while s.counters().iterations < k {
            if s.step().is_final() {
                break;
            }
        }
        Ok(s)
    }
}
