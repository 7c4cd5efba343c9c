//! Budgets and the loop that drives a search to its end.
//!
//! The search never reads the clock (STYLE.md, after Benzene turned
//! around): the driver checks iteration and node limits after every step
//! and the wall clock and the cancel flag every [`CHECK_EVERY`] steps.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Search, Status, StopReason};

/// How many steps run between two looks at the clock and the cancel flag.
pub const CHECK_EVERY: u64 = 256;

/// Limits on a run (ALGORITHMS.md §0 "Budgets"). `None` = unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    pub max_iterations: Option<u64>,
    pub max_nodes: Option<u64>,
    pub time_limit: Option<Duration>,
    /// Bytes of tree or table; searches with a table also get it at setup.
    pub max_memory_bytes: Option<u64>,
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

/// Steps `search` until it finishes, a budget runs out or `cancel` is set.
/// Fills `counters().time_ms` with the time spent in this call plus any
/// time already recorded.
pub fn run(search: &mut dyn Search, budget: &Budget, cancel: Option<&AtomicBool>) -> Status {
    let start = Instant::now();
    let base_ms = search.counters().time_ms;
    let mut steps: u64 = 0;
    let status = loop {
        let st = search.status();
        if st.is_final() {
            break st;
        }
        let c = search.counters();
        if let Some(reason) = budget.exceeded(c.iterations, c.nodes_created, c.peak_tree_bytes) {
            search.stop(reason);
            break search.status();
        }
        let st = search.step();
        if st.is_final() {
            break st;
        }
        steps += 1;
        if steps.is_multiple_of(CHECK_EVERY) {
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                search.stop(StopReason::Cancelled);
                break search.status();
            }
            if budget.time_limit.is_some_and(|t| start.elapsed() >= t) {
                search.stop(StopReason::TimeLimit);
                break search.status();
            }
        }
    };
    search.counters_mut().time_ms = base_ms + start.elapsed().as_secs_f64() * 1000.0;
    status
}
