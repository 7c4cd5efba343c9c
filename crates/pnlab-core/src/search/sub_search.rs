//! The record both value searches keep of the yes/no questions they ask:
//! `pn-value` (a PN-search per "score ≥ t?") and `dfpn-fast`'s score
//! search (a df-pn per question). Each narrows a bracket around the value
//! with the answers; the record is what their JSON and tests list.

use super::Status;

/// One finished sub-search: the question "score ≥ t?" and its answer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SubSearch {
    /// The t of "score ≥ t?".
    pub target: i32,
    /// `proved` or `disproved`.
    pub outcome: &'static str,
    /// Iterations the sub-search ran (MID calls for df-pn).
    pub iterations: u64,
}

impl SubSearch {
    /// The record of the sub-search for `target` that `proved` (or
    /// disproved) its question in `iterations`.
    pub fn new(target: i32, proved: bool, iterations: u64) -> SubSearch {
        SubSearch {
            target,
            outcome: if proved { "proved" } else { "disproved" },
            iterations,
        }
    }
}

/// The root move a value search names: once its value is known, the move
/// found by the sub-search that proved the value itself (`best_at_low`,
/// when it named one); before that, the move the running sub-search
/// names.
pub fn named_move(
    value_known: bool,
    best_at_low: &Option<String>,
    running: impl FnOnce() -> Option<String>,
) -> Option<String> {
    match best_at_low {
        Some(m) if value_known => Some(m.clone()),
        _ => running(),
    }
}

/// What a sub-search's step status `st` means to the value search running
/// it: `Some(true)` when it proved its question, `Some(false)` when it
/// disproved it; `None` while it runs, and when it stopped (a budget, a
/// cancellation), in which case `outer` takes the same `Unknown` status,
/// because the value search cannot go on without the answer.
pub fn answer(st: Status, outer: &mut Status) -> Option<bool> {
    match st {
        Status::Proved => Some(true),
        Status::Disproved => Some(false),
        Status::Running => None,
        Status::Unknown(r) => {
            *outer = Status::Unknown(r);
            None
        }
    }
}
