//! Which algorithm searches the open position (issue "the app tells the
//! truth", item 1): the one asked for when it can, else the first that
//! can, in an order that suits the position -- the chance searches for
//! die rolls and coin flips, opponent-model search where the position
//! carries the opponent's own evaluation, then the registry's order.
//!
//! The quick rules here are the registry's own refusals that need no
//! search to be built (chance nodes, a missing static evaluation, a
//! missing second evaluation); any other refusal arrives from the driver
//! as [`Event::LoadFailed`](super::driver::Event::LoadFailed) and the app
//! moves on to the next candidate.

use crate::game::AnyPosition;
use crate::search::{registry, Algorithm, Params};

/// Algorithms that need a static evaluation at the leaves.
const NEEDS_EVALUATION: &[&str] = &["alphabeta", "om"];

/// Why `algo` cannot search `position`, if one of the quick rules says so.
pub fn quick_refusal(algo: Algorithm, params: &Params, position: &AnyPosition) -> Option<String> {
    let algo = algo.name();
    let chance = position.has_chance_nodes();
    if chance && !registry::handles_chance(algo) {
        return Some(format!(
            "{algo} cannot search this position: it has chance nodes, which only {} search",
            registry::CHANCE_ALGORITHMS.join(", ")
        ));
    }
    if NEEDS_EVALUATION.contains(&algo) && !position.has_evaluation() {
        return Some(format!(
            "{algo} needs a static evaluation, which this {} position does not have",
            position.kind()
        ));
    }
    if algo == "om" {
        let f2 = ["model", "eval"]
            .iter()
            .any(|p| params.choice(p).ok() == Some("f2"));
        let has_model =
            crate::with_position!(position, g => crate::game::Game::evaluate_model(g).is_some());
        if f2 && !has_model {
            return Some(
                "om with f2 needs the opponent's evaluation, which this position does not have"
                    .into(),
            );
        }
    }
    None
}

/// The algorithms to try on `position`, best suited first: the chance
/// searches where there is chance, opponent-model search where the
/// position carries two evaluations, then every other in registry order.
pub fn candidates(position: &AnyPosition) -> Vec<Algorithm> {
    let mut first: Vec<&str> = Vec::new();
    if position.has_chance_nodes() {
        first.extend(["expectimax", "star1", "star2"]);
    }
    let has_model =
        crate::with_position!(position, g => crate::game::Game::evaluate_model(g).is_some());
    if has_model {
        first.push("om");
    }
    let mut out: Vec<Algorithm> = first
        .into_iter()
        .filter_map(|name| Algorithm::named(name).ok())
        .collect();
    for a in Algorithm::all() {
        if !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

/// The algorithm to start with: `wanted` (with `params`) when no quick
/// rule refuses it, else the first candidate none refuses (with its
/// default parameters), together with the one-line note saying why it
/// was switched.
pub fn choose(
    wanted: Algorithm,
    params: &Params,
    position: &AnyPosition,
) -> (Algorithm, Params, Option<String>) {
    let Some(why) = quick_refusal(wanted, params, position) else {
        return (wanted, params.clone(), None);
    };
    next_after(wanted, &why, position, &[])
}

/// The next algorithm after `failed` was refused for `why`, skipping the
/// ones in `tried`; its default parameters and the note for the user.
pub fn next_after(
    failed: Algorithm,
    why: &str,
    position: &AnyPosition,
    tried: &[Algorithm],
) -> (Algorithm, Params, Option<String>) {
    for a in candidates(position) {
        if a == failed || tried.contains(&a) {
            continue;
        }
        let p = Params::defaults(a.params);
        if quick_refusal(a, &p, position).is_none() {
            let note = format!("{why}; switched to {a}");
            return (a, p, Some(note));
        }
    }
    // Nothing fits: keep the request and let the driver's error show.
    (
        failed,
        Params::defaults(failed.params),
        Some(why.to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;
    use crate::positions;

    fn tree(path: &str) -> AnyPosition {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees");
        let entries = positions::load_file(&dir.join(path)).unwrap();
        entries[0].position.clone()
    }

    fn defaults(a: &str) -> Params {
        Params::defaults(registry::find_algo(a).unwrap().params)
    }

    fn algo(name: &str) -> Algorithm {
        Algorithm::named(name).unwrap()
    }

    #[test]
    fn a_chance_tree_switches_a_proof_search_to_expectimax() {
        let p = tree("chance-star1.tree");
        let (chosen, _, note) = choose(algo("pns"), &defaults("pns"), &p);
        assert_eq!(chosen, "expectimax");
        let note = note.unwrap();
        assert!(
            note.contains("chance") && note.contains("switched to expectimax"),
            "{note}"
        );
        // The chance searches themselves stay.
        assert_eq!(choose(algo("star1"), &defaults("star1"), &p).0, "star1");
    }

    #[test]
    fn a_plain_game_keeps_the_wanted_algorithm() {
        let p = AnyPosition::parse(GameKind::TicTacToe, "x...o....").unwrap();
        assert_eq!(
            choose(algo("dfpn"), &defaults("dfpn"), &p),
            (algo("dfpn"), defaults("dfpn"), None)
        );
        let (chosen, _, note) = choose(algo("star1"), &defaults("star1"), &p);
        assert_eq!(chosen, "star1", "{note:?}");
    }

    #[test]
    fn two_evaluations_suggest_opponent_model_search_first() {
        let p = tree("om-trap.tree");
        assert_eq!(candidates(&p)[0], "om");
    }

    /// Every refusal the quick rules predict is one the registry makes
    /// too (the rules never turn away an algorithm that would work).
    #[test]
    fn quick_refusals_agree_with_the_registry() {
        use crate::search::SearchSetup;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees");
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let entry = positions::load_file(&path).unwrap().remove(0);
            for a in registry::algorithms() {
                // The defaults: a tree takes no game options.
                let setup = SearchSetup::new(a.name, entry.position.clone(), &[]).unwrap();
                let Some(why) = quick_refusal(algo(a.name), &setup.params, &entry.position) else {
                    continue;
                };
                assert!(
                    registry::build(a.name, &setup).is_err(),
                    "{}: {} was refused ({why}) but builds",
                    path.display(),
                    a.name
                );
            }
        }
    }
}
