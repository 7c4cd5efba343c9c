//! A game written outside pnlab, solved by every algorithm pnlab has.
//!
//! This crate is what a researcher writes to study a game of their own:
//! it depends on `pnlab-core` alone, defines Nim ([`nim::Nim`]) by
//! implementing [`ExternalState`](pnlab_core::game::external::ExternalState),
//! and hands it to the algorithm registry, which builds any of pnlab's
//! searches on it. It also brings an algorithm of its own,
//! [`root_by_root::RootByRoot`], which implements pnlab's
//! [`Search`](pnlab_core::search::Search) trait and is driven exactly like
//! the registry's. [`solve`] runs one registry algorithm and
//! [`solve_root_by_root`] the crate's own; `cargo run -p pnlab-example-nim`
//! prints the table for every algorithm on a few positions, with Bouton's
//! theorem as the reference answer.

pub mod nim;
pub mod root_by_root;

use std::sync::Arc;

use pnlab_core::game::external::External;
use pnlab_core::game::AnyPosition;
use pnlab_core::search::registry::{self, algorithms};
use pnlab_core::search::{self, Budget, SearchError, SearchSetup, Status};

pub use nim::Nim;

/// What one algorithm said about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Proved or disproved that the player to move wins.
    MoverWins(bool),
    /// The search stopped without an answer (budget, exhausted), and why.
    NoAnswer(String),
    /// The algorithm does not search this kind of position, and why.
    Refused(String),
}

/// The names of every registered algorithm, in the registry's order.
pub fn algorithm_names() -> Vec<&'static str> {
    algorithms().iter().map(|a| a.name).collect()
}

/// Runs algorithm `algo` with its default parameters on `position` (does
/// the player to move win?), within `max_iterations` steps.
pub fn solve(algo: &str, position: &Nim, max_iterations: u64) -> Answer {
    let root = AnyPosition::External(External::new(Arc::new(position.clone())));
    let setup = match SearchSetup::new(algo, root, &[]) {
        Ok(s) => s,
        Err(e) => return Answer::Refused(e.to_string()),
    };
    let mut search = match registry::build(algo, &setup) {
        Ok(s) => s,
        Err(SearchError::Unsupported { reason, .. }) => return Answer::Refused(reason),
        Err(e) => return Answer::Refused(e.to_string()),
    };
    let budget = Budget {
        max_iterations: Some(max_iterations),
        ..Budget::default()
    };
    match search::run(search.as_mut(), &budget, None) {
        Status::Proved => Answer::MoverWins(true),
        Status::Disproved => Answer::MoverWins(false),
        Status::Unknown(reason) => Answer::NoAnswer(format!("{reason:?}")),
        Status::Running => Answer::NoAnswer("still running".into()),
    }
}

/// Runs this crate's own algorithm ([`root_by_root::RootByRoot`]) on
/// `position` through pnlab's driver, as [`solve`] runs a registry one.
pub fn solve_root_by_root(position: &Nim, max_iterations: u64) -> Answer {
    let root = External::new(Arc::new(position.clone()));
    let mut search = root_by_root::RootByRoot::new(root);
    let budget = Budget {
        max_iterations: Some(max_iterations),
        ..Budget::default()
    };
    match search::run(&mut search, &budget, None) {
        Status::Proved => Answer::MoverWins(true),
        Status::Disproved => Answer::MoverWins(false),
        Status::Unknown(reason) => Answer::NoAnswer(format!("{reason:?}")),
        Status::Running => Answer::NoAnswer("still running".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every algorithm that answers agrees with Bouton's theorem, on every
    /// position with up to three heaps of at most three counters; and the
    /// proof-number family (which must answer a game this small) answers.
    #[test]
    fn every_algorithm_agrees_with_bouton() {
        let mut positions = Vec::new();
        for a in 0..=3u8 {
            for b in 0..=3u8 {
                for c in 0..=3u8 {
                    positions.push(Nim::new(&[a, b, c]));
                }
            }
        }
        let must_answer = ["pns", "deep-pn", "dfpn", "dfpn-fast", "dfs"];
        let mut answered = 0;
        for algo in algorithm_names() {
            for p in &positions {
                match solve(algo, p, 200_000) {
                    Answer::MoverWins(w) => {
                        assert_eq!(w, p.mover_wins(), "{algo} on {:?}", p.heaps());
                        answered += 1;
                    }
                    other => assert!(
                        !must_answer.contains(&algo),
                        "{algo} on {:?}: {other:?}",
                        p.heaps()
                    ),
                }
            }
        }
        assert!(answered >= must_answer.len() * positions.len());
    }

    /// The crate's own algorithm answers every position up to three heaps
    /// of four counters, as Bouton's theorem says.
    #[test]
    fn the_outside_algorithm_agrees_with_bouton() {
        for a in 0..=4u8 {
            for b in 0..=4u8 {
                for c in 0..=4u8 {
                    let p = Nim::new(&[a, b, c]);
                    assert_eq!(
                        solve_root_by_root(&p, 1_000),
                        Answer::MoverWins(p.mover_wins()),
                        "{:?}",
                        p.heaps()
                    );
                }
            }
        }
    }
}
