//! Building a registered search from its name and running it: the
//! set-up every solver test repeats around the question it asks.

use pnlab::game::{AnyPosition, Player};
use pnlab::search::dfpn::DfpnOptions;
use pnlab::search::pns::{Init, PnsOptions, Selection, Tie};
use pnlab::search::{self, Budget, Goal, Question, QuestionKind, Search, SearchSetup, Status};

/// A setup for `algo` on `pos` asking `question`: the algorithm's own
/// parameters from `pairs` (its defaults for the rest), seed `seed`, no
/// memory limit (callers change the fields they need).
pub fn algo_setup(
    algo: &str,
    pos: &AnyPosition,
    pairs: &[(&str, &str)],
    question: QuestionKind,
    seed: u64,
) -> SearchSetup {
    let info = search::find_algo(algo).expect("registered");
    SearchSetup {
        position: pos.clone(),
        params: info
            .params_from_pairs(pos.kind(), pairs)
            .unwrap_or_else(|e| panic!("{algo} {pairs:?}: {e}")),
        seed,
        question,
        memory_limit_bytes: None,
    }
}

/// Builds `algo` for `setup` and runs it within `budget`: the search
/// (for its counters, extra data or certificate) and the status it ended
/// with.
pub fn build_and_run(
    algo: &str,
    setup: &SearchSetup,
    budget: &Budget,
) -> (Box<dyn Search>, Status) {
    let mut s = search::build(algo, setup).unwrap_or_else(|e| panic!("{algo}: {e}"));
    let st = search::run(s.as_mut(), budget, None);
    (s, st)
}

/// A budget of at most `n` iterations and nothing else.
pub fn iteration_budget(n: u64) -> Budget {
    Budget {
        max_iterations: Some(n),
        ..Budget::default()
    }
}

/// The answer of a run that must have ended: true for a proof, false for
/// a disproof; anything else panics naming `what`.
pub fn proved(st: Status, what: &str) -> bool {
    match st {
        Status::Proved => true,
        Status::Disproved => false,
        other => panic!("{what}: {other:?}"),
    }
}

/// Steps `s` until its status is final; panics naming `what` after
/// `max_steps` steps (a search that never ends is a failure, not a hang).
pub fn run_to_end(s: &mut dyn Search, max_steps: u64, what: &str) -> Status {
    let mut st = s.status();
    let mut steps = 0u64;
    while !st.is_final() {
        st = s.step();
        steps += 1;
        assert!(steps < max_steps, "{what} did not terminate");
    }
    st
}

/// The two questions asked of every position: does `attacker` win, does
/// it at least draw.
pub fn win_and_not_lose(attacker: Player) -> [Question; 2] {
    [Goal::Win, Goal::NotLose].map(|goal| Question { attacker, goal })
}

/// PNS with its defaults and with each option changed alone (tie-break
/// by depth, directed selection, mobility initialisation).
pub fn pns_option_variants() -> [PnsOptions; 4] {
    [
        PnsOptions::default(),
        PnsOptions {
            tie: Tie::Deepest,
            ..Default::default()
        },
        PnsOptions {
            selection: Selection::Directed,
            ..Default::default()
        },
        PnsOptions {
            init: Init::Mobility,
            ..Default::default()
        },
    ]
}

/// Options under which df-pn must perform exactly as plain df-pn (the
/// same MID calls with the same thresholds, the same counters): Deep
/// df-pn with each `(E, D)` of `deep` (E = 1 or D ≤ 1 make it plain
/// df-pn), then 1+ε with ε = 1e-9.
pub fn dfpn_special_cases(deep: &[(u32, u32)]) -> Vec<DfpnOptions> {
    let mut out: Vec<DfpnOptions> = deep
        .iter()
        .map(|&ed| DfpnOptions {
            deep: Some(ed),
            ..Default::default()
        })
        .collect();
    out.push(DfpnOptions {
        eps: Some(1e-9),
        ..Default::default()
    });
    out
}
