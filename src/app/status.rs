//! The status word of a run (idle, running, paused, proved, disproved,
//! unknown with its reason): a small state machine fed the driver's
//! events, so the status bar, the race header and the state JSON say the
//! same thing and never "running" before anything ran.

use crate::search::{Status, StopReason};

use super::driver::Event;

/// Where a run stands, as the user is told.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RunStatus {
    /// Nothing loaded yet, or a run loading.
    #[default]
    Idle,
    /// Loaded at iteration 0 (or sent back there), nothing to report.
    Ready,
    /// Stepping.
    Running,
    /// Travelling back or forward in time.
    Travelling,
    /// Stopped by the user, a step count or a budget (`why`, when a
    /// budget did it).
    Paused(Option<StopReason>),
    /// The question is answered yes.
    Proved,
    /// The question is answered no.
    Disproved,
    /// The search stopped without an answer.
    Unknown(StopReason),
    /// The search failed (a panic, a refused setup): the message.
    Failed(String),
}

impl RunStatus {
    /// The state JSON's `status` word.
    pub fn word(&self) -> &'static str {
        match self {
            RunStatus::Idle | RunStatus::Ready => "idle",
            RunStatus::Running | RunStatus::Travelling => "running",
            RunStatus::Paused(_) => "paused",
            RunStatus::Proved => "proved",
            RunStatus::Disproved => "disproved",
            RunStatus::Unknown(_) | RunStatus::Failed(_) => "unknown",
        }
    }

    /// The status bar's text: the word and, where there is one, why.
    pub fn describe(&self) -> String {
        match self {
            RunStatus::Idle => "idle: nothing loaded".into(),
            RunStatus::Ready => "idle".into(),
            RunStatus::Running => "running".into(),
            RunStatus::Travelling => "going to an earlier iteration".into(),
            RunStatus::Paused(None) => "paused".into(),
            RunStatus::Paused(Some(r)) => {
                format!("paused: the {} budget is reached", budget_name(*r))
            }
            RunStatus::Proved => "proved".into(),
            RunStatus::Disproved => "disproved".into(),
            RunStatus::Unknown(r) => format!("unknown ({})", r.name()),
            RunStatus::Failed(e) => format!("unknown: {e}"),
        }
    }

    /// True once the search answered or gave up (nothing left to step).
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            RunStatus::Proved | RunStatus::Disproved | RunStatus::Unknown(_)
        )
    }

    /// The status after `ev`, given the iteration the run shows after it.
    pub fn next(&self, ev: &Event, iteration: u64) -> RunStatus {
        match ev {
            Event::Started { .. } => RunStatus::Ready,
            Event::Running(true) => RunStatus::Running,
            Event::Running(false) => match self {
                RunStatus::Running | RunStatus::Travelling => settled(iteration),
                other => other.clone(),
            },
            Event::Travelling(_) => RunStatus::Travelling,
            Event::TravelCancelled => settled(iteration),
            Event::Rewound { .. } => settled(iteration),
            Event::Finished(st) => from_final(*st),
            Event::BudgetReached(r) => RunStatus::Paused(Some(*r)),
            Event::Snapshot { snapshot, .. } => {
                if snapshot.status.is_final() {
                    from_final(snapshot.status)
                } else if self.is_final() {
                    // A travel back from the end: no longer final.
                    settled(snapshot.counters.iterations)
                } else {
                    self.clone()
                }
            }
            Event::LoadFailed(e) => RunStatus::Failed(e.to_string()),
            Event::Error(e) if e.is_crash() => RunStatus::Failed(e.to_string()),
            _ => self.clone(),
        }
    }
}

/// Not running, not final: ready at iteration 0, paused later on.
fn settled(iteration: u64) -> RunStatus {
    if iteration == 0 {
        RunStatus::Ready
    } else {
        RunStatus::Paused(None)
    }
}

fn from_final(st: Status) -> RunStatus {
    match st {
        Status::Proved => RunStatus::Proved,
        Status::Disproved => RunStatus::Disproved,
        Status::Unknown(r) => RunStatus::Unknown(r),
        Status::Running => RunStatus::Paused(None),
    }
}

fn budget_name(r: StopReason) -> &'static str {
    match r {
        StopReason::MaxIterations => "iteration",
        StopReason::MaxNodes => "node",
        StopReason::Memory => "memory",
        StopReason::TimeLimit => "time",
        _ => r.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::RunFault;
    use crate::search::SearchError;

    fn run(events: &[(Event, u64)]) -> RunStatus {
        events
            .iter()
            .fold(RunStatus::Idle, |s, (ev, it)| s.next(ev, *it))
    }

    fn started() -> (Event, u64) {
        (Event::Started { algo: "pns".into() }, 0)
    }

    #[test]
    fn nothing_ran_yet_is_idle_not_running() {
        assert_eq!(run(&[]).word(), "idle");
        assert_eq!(run(&[started()]), RunStatus::Ready);
        assert_eq!(run(&[started()]).word(), "idle");
    }

    #[test]
    fn a_step_runs_then_pauses() {
        let s = run(&[started(), (Event::Running(true), 0)]);
        assert_eq!(s.word(), "running");
        let s = s.next(&Event::Running(false), 5);
        assert_eq!(s, RunStatus::Paused(None));
        assert_eq!(s.word(), "paused");
    }

    #[test]
    fn a_budget_pause_says_which_budget() {
        let s = run(&[
            started(),
            (Event::Running(true), 0),
            (Event::Running(false), 100),
            (Event::BudgetReached(StopReason::Memory), 100),
        ]);
        assert_eq!(s.word(), "paused");
        assert!(s.describe().contains("memory"), "{}", s.describe());
    }

    #[test]
    fn the_end_stays_final_after_the_run_stops_and_travel_leaves_it() {
        let s = run(&[
            started(),
            (Event::Running(true), 0),
            (Event::Finished(Status::Proved), 9),
            (Event::Running(false), 9),
        ]);
        assert_eq!(s, RunStatus::Proved);
        let s = s.next(&Event::Rewound { iteration: 4 }, 4);
        assert_eq!(s, RunStatus::Paused(None));
        let s = s.next(&Event::Rewound { iteration: 0 }, 0);
        assert_eq!(s.word(), "idle");
        let s = s.next(&Event::Finished(Status::Unknown(StopReason::Cycles)), 0);
        assert_eq!(s.describe(), "unknown (cycles)");
    }

    #[test]
    fn a_refused_load_is_unknown_with_the_message() {
        let refused = RunFault::Search(SearchError::unsupported("no moves to search"));
        let s = run(&[(Event::LoadFailed(refused), 0)]);
        assert_eq!(s.word(), "unknown");
        assert!(s.describe().contains("no moves to search"));
    }
}
