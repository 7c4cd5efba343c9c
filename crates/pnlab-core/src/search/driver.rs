//! Budgets and the loop that drives a search to its end.
//!
//! The search never reads the clock (so runs stay deterministic for a
//! seed): the driver checks iteration, node and memory limits before
//! every step, and the wall clock and the cancel flag at most every
//! [`CHECK_EVERY`] steps: as often as every step when steps are slow (the
//! stride halves when a stride of steps took more than [`SLOW_STRIDE`],
//! and doubles back when it took less than a tenth of that), so a time
//! limit is overrun by at most about one step. A single step that runs
//! long inner loops (a Connect6 zone search's VCDT solves, an Othello
//! frontier solver) is cut short too: the driver publishes the deadline
//! ([`clock::deadline_scope`]) and the loops give up once it has passed
//! (see [`clock`]).

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Search, StatsSample, Status, StopReason};
use crate::clock::{self, Duration, Instant};
use crate::params::bounds;

/// The most steps that run between two looks at the clock and the cancel
/// flag.
pub const CHECK_EVERY: u64 = 256;

/// A stride of steps that took longer than this halves the stride.
pub const SLOW_STRIDE: Duration = Duration::from_millis(2);

/// Every iteration is sampled up to this many; beyond, the sampling stride
/// doubles each time the iteration count doubles, so a run of N iterations
/// keeps about `SAMPLE_BLOCK · log2(N / SAMPLE_BLOCK)` samples (the curves
/// stay exact in shape and the memory stays bounded). The app's worker and
/// `pnlab solve --export curves.csv` sample alike, so their CSVs agree.
pub const SAMPLE_BLOCK: u64 = 50_000;

/// Whether iteration `it` is sampled (see [`SAMPLE_BLOCK`]).
pub fn sampled(it: u64) -> bool {
    let stride = (it / SAMPLE_BLOCK + 1).next_power_of_two();
    it.is_multiple_of(stride)
}

/// Limits on a run (docs/algorithms.md §0 "Budgets"). `None` = unlimited.
/// The default has no limit but memory: the default memory budget
/// ([`bounds::default_memory_mib`], a share of the machine), so that no
/// run started without a budget (the command line, an experiment, the
/// bench, Python) grows until the system kills it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Stop after this many `step()` calls.
    pub max_iterations: Option<u64>,
    /// Stop once this many nodes were created.
    pub max_nodes: Option<u64>,
    /// Stop after this much wall time (checked between steps).
    pub time_limit: Option<Duration>,
    /// Bytes of tree or table; searches with a table also get it at setup.
    pub max_memory_bytes: Option<u64>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_iterations: None,
            max_nodes: None,
            time_limit: None,
            max_memory_bytes: Some(bounds::default_memory_mib() << 20),
        }
    }
}

impl Budget {
    /// The reason a search that has used `it` iterations, `nodes` nodes and
    /// `bytes` bytes must stop, if any.
    pub fn exceeded(&self, it: u64, nodes: u64, bytes: u64) -> Option<StopReason> {
        if self.max_iterations.is_some_and(|m| it >= m) {
            return Some(StopReason::MaxIterations);
        }
        if self.max_nodes.is_some_and(|m| nodes >= m) {
            return Some(StopReason::MaxNodes);
        }
        if self.max_memory_bytes.is_some_and(|m| bytes > m) {
            return Some(StopReason::Memory);
        }
        None
    }
}

/// One iteration of every stepping loop: checks the budget's counts
/// (iterations, nodes, memory), then steps. The headless [`run`] and the
/// run machine the app, the page and Python drive (`pnlab::run`) both
/// step through here, so what a budget means is decided once;
/// `extra_bytes` are counted with the tree against the memory budget (the
/// run machine's time-travel checkpoints). `Err` names the budget that is
/// spent; nothing was stepped then.
pub fn advance(
    search: &mut dyn Search,
    budget: &Budget,
    extra_bytes: u64,
) -> Result<Status, StopReason> {
    let c = search.counters();
    let bytes = c.peak_tree_bytes.saturating_add(extra_bytes);
    match budget.exceeded(c.iterations, c.nodes_created, bytes) {
        Some(reason) => Err(reason),
        None => Ok(search.step()),
    }
}

/// Keeps the sample of the iteration just stepped (its status `st`) when
/// the curves want it: every [`sampled`] iteration and the last one.
pub fn keep_sample(search: &dyn Search, st: Status, samples: &mut Vec<StatsSample>) {
    if sampled(search.counters().iterations) || st.is_final() {
        samples.push(search.sample());
    }
}

/// Steps `search` until it finishes, a budget runs out or `cancel` is set.
/// Fills `counters().time_ms` with the time spent in this call plus any
/// time already recorded.
pub fn run(search: &mut dyn Search, budget: &Budget, cancel: Option<&AtomicBool>) -> Status {
    run_observed(search, budget, cancel, |_, _| {})
}

/// [`run`] that also records the curves: the sample before the first
/// step, then one per [`sampled`] iteration and the last one.
pub fn run_sampled(
    search: &mut dyn Search,
    budget: &Budget,
    cancel: Option<&AtomicBool>,
    samples: &mut Vec<StatsSample>,
) -> Status {
    if samples.is_empty() {
        samples.push(search.sample());
    }
    let status = run_observed(search, budget, cancel, |s, st| keep_sample(s, st, samples));
    // A budget stop ends the run without a step: record where it ended.
    let it = search.counters().iterations;
    if samples.last().is_some_and(|l| l.iteration != it) {
        samples.push(search.sample());
    }
    status
}

/// [`run`] calling `after_step` with the search and the step's status
/// after every step (the sampling hook of [`run_sampled`]).
pub fn run_observed(
    search: &mut dyn Search,
    budget: &Budget,
    cancel: Option<&AtomicBool>,
    mut after_step: impl FnMut(&dyn Search, Status),
) -> Status {
    let start = Instant::now();
    let deadline = budget.time_limit.and_then(|t| start.checked_add(t));
    let _scope = clock::deadline_scope(deadline);
    let base_ms = search.counters().time_ms;
    // Steps until the next look at the clock, and the current stride.
    let mut stride: u64 = 1;
    let mut left = stride;
    let mut last_look = start;
    let status = loop {
        let st = search.status();
        if st.is_final() {
            break st;
        }
        let st = match advance(search, budget, 0) {
            Ok(st) => st,
            Err(reason) => {
                search.stop(reason);
                break search.status();
            }
        };
        after_step(&*search, st);
        if st.is_final() {
            break st;
        }
        // An inner loop of the step saw the deadline pass.
        if clock::tripped() {
            search.stop(StopReason::TimeLimit);
            break search.status();
        }
        left -= 1;
        if left == 0 {
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                search.stop(StopReason::Cancelled);
                break search.status();
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                search.stop(StopReason::TimeLimit);
                break search.status();
            }
            let took = now - last_look;
            if took > SLOW_STRIDE {
                stride = (stride / 2).max(1);
            } else if took < SLOW_STRIDE / 10 {
                stride = (stride * 2).min(CHECK_EVERY);
            }
            left = stride;
            last_look = now;
        }
    };
    search.counters_mut().time_ms = base_ms + start.elapsed().as_secs_f64() * 1000.0;
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::on_empty_tictactoe;

    #[test]
    fn sampling_keeps_every_early_iteration_then_thins_by_powers_of_two() {
        assert!((0..SAMPLE_BLOCK).all(sampled));
        // Between one and two blocks every second iteration.
        assert!(sampled(SAMPLE_BLOCK + 2) && !sampled(SAMPLE_BLOCK + 1));
        // Between three and four blocks every fourth.
        assert!(sampled(3 * SAMPLE_BLOCK + 4) && !sampled(3 * SAMPLE_BLOCK + 2));
    }

    #[test]
    fn a_sampled_run_records_the_start_and_every_iteration_up_to_the_budget() {
        let mut s = on_empty_tictactoe("pns", &[]);
        let budget = Budget {
            max_iterations: Some(5),
            ..Budget::default()
        };
        let mut samples = Vec::new();
        let st = run_sampled(s.as_mut(), &budget, None, &mut samples);
        assert_eq!(st, Status::Unknown(StopReason::MaxIterations));
        let its: Vec<u64> = samples.iter().map(|x| x.iteration).collect();
        assert_eq!(its, vec![0, 1, 2, 3, 4, 5]);
    }
}
