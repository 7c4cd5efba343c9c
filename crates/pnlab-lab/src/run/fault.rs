//! What can go wrong in a run, as the machine reports it
//! ([`Event::LoadFailed`] and [`Event::Error`]): typed, so that a shell
//! tells a crashed search (which needs a Reset) from a refused command by
//! the variant and not by the words of the message.
//!
//! [`Event::LoadFailed`]: super::Event::LoadFailed
//! [`Event::Error`]: super::Event::Error

use std::path::PathBuf;

use pnlab_core::search::proof::ProofError;
use pnlab_core::search::SearchError;

/// Where in a run a search panicked: the message names it, because a
/// panic while drawing and one while stepping call for different reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunPhase {
    /// Building the search for a Load.
    Starting,
    /// Stepping it.
    Stepping,
    /// Taking the picture a window draws.
    Snapshot,
    /// Replaying from a checkpoint (time travel).
    Replaying,
}

/// A run's error or refusal.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RunFault {
    /// The algorithm cannot search the position, a parameter is wrong,
    /// or a checkpoint could not be rebuilt for time travel.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The search panicked; its run is gone until a Reset rebuilds it.
    #[error("the search panicked{}: {message}{}", phase_words(*phase), reset_hint(*phase))]
    Panicked {
        /// Where it panicked.
        phase: RunPhase,
        /// The panic's own text.
        message: String,
    },
    /// A certificate was asked for with no run loaded.
    #[error("no run to take a proof from")]
    NoRun,
    /// A certificate was asked for after the search had failed.
    #[error("the search failed; reset the run first")]
    SearchFailed,
    /// A certificate was asked for before the run had an answer.
    #[error("the run has not proved or disproved its question yet: no proof to save")]
    NotSolved,
    /// The run is solved but its certificate could not be written; `path`
    /// is the file it was for.
    #[error("proof {}: {source}", path.display())]
    Certificate {
        /// The file the certificate was meant for.
        path: PathBuf,
        /// Why the writer failed.
        source: ProofError,
    },
}

impl RunFault {
    /// Whether the run's search is gone (a panic): the shell shows the
    /// run as failed until a Reset.
    pub fn is_crash(&self) -> bool {
        matches!(self, RunFault::Panicked { .. })
    }
}

/// The words after "the search panicked" that say where.
fn phase_words(phase: RunPhase) -> &'static str {
    match phase {
        RunPhase::Starting => " while starting",
        RunPhase::Stepping => "",
        RunPhase::Snapshot => " in snapshot",
        RunPhase::Replaying => " while replaying",
    }
}

/// A panic while stepping leaves a run the user can rebuild.
fn reset_hint(phase: RunPhase) -> &'static str {
    match phase {
        RunPhase::Stepping => " (Reset rebuilds the run)",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_name_their_phase_and_stepping_says_how_to_recover() {
        let p = |phase| RunFault::Panicked {
            phase,
            message: "boom".into(),
        };
        assert_eq!(
            p(RunPhase::Stepping).to_string(),
            "the search panicked: boom (Reset rebuilds the run)"
        );
        assert_eq!(
            p(RunPhase::Replaying).to_string(),
            "the search panicked while replaying: boom"
        );
        assert_eq!(
            p(RunPhase::Snapshot).to_string(),
            "the search panicked in snapshot: boom"
        );
        assert!(p(RunPhase::Starting).is_crash());
        assert!(!RunFault::NotSolved.is_crash());
    }
}
