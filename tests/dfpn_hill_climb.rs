//! Hill-climbing for Deep df-pn's (E, D) (thesis Algorithm 1 as specified
//! in ALGORITHMS.md §4): every probe's node count is checked against an
//! independent Deep df-pn run built through the registry, and the walk's
//! rules (start at (2, 2), move to the better forward neighbour, stop at a
//! point whose forward neighbours are not better, cap ⇒ ∞) are checked on
//! the probes it reports.

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::dfpn::hill_climb::probe;
use pnlab::search::dfpn::{hill_climb, HillClimbResult, Probe};
use pnlab::search::params::Params;
use pnlab::search::{registry, QuestionKind, SearchSetup, Status};

fn setup(kind: GameKind, text: &str, q: QuestionKind) -> SearchSetup {
    SearchSetup {
        position: AnyPosition::parse(kind, text).expect("position"),
        params: Params::default(),
        seed: 0,
        question: q,
        memory_limit_bytes: None,
    }
}

/// node(E, D) by an independent run through the registry: MID calls to
/// solve, `None` when the cap is reached.
fn nodes_via_registry(su: &SearchSetup, e: u32, d: u32, cap: u64) -> Option<u64> {
    let info = registry::find_algo("deep-dfpn").expect("registered");
    let mut su = su.clone();
    su.params = Params::from_pairs(
        info.params,
        &[("E".into(), e.to_string()), ("D".into(), d.to_string())],
    )
    .expect("params");
    let mut s = registry::build("deep-dfpn", &su).expect("builds");
    while s.counters().iterations < cap {
        match s.step() {
            Status::Proved | Status::Disproved => return Some(s.counters().iterations),
            Status::Running => {}
            Status::Unknown(_) => return None,
        }
    }
    None
}

fn check_walk(su: &SearchSetup, cap: u64) -> HillClimbResult {
    let r = hill_climb(su, cap);
    let by: HashMap<(u32, u32), Option<u64>> =
        r.probes.iter().map(|p| ((p.e, p.d), p.nodes)).collect();
    assert_eq!(by.len(), r.probes.len(), "a point was probed twice");
    assert_eq!(
        (r.probes[0].e, r.probes[0].d),
        (2, 2),
        "the walk starts at (2, 2)"
    );
    for p in &r.probes {
        assert_eq!(
            p.nodes,
            nodes_via_registry(su, p.e, p.d, cap),
            "probe {p} disagrees with an independent run"
        );
    }
    let key = |v: Option<u64>| v.unwrap_or(u64::MAX);
    let (e, d) = r.chosen;
    assert_eq!(Some(&r.chosen_nodes), by.get(&(e, d)));
    // The chosen point's forward neighbours were probed and neither is
    // better (a local minimum, or the start of a flat).
    let right = by.get(&(e + 1, d)).expect("(E+1, D) probed");
    let up = by.get(&(e, d + 1)).expect("(E, D+1) probed");
    assert!(key(*right) >= key(r.chosen_nodes), "{r}");
    assert!(key(*up) >= key(r.chosen_nodes), "{r}");
    // The walk only ever moves forward from (2, 2).
    assert!(r.probes.iter().all(|p| p.e >= 2 && p.d >= 2));
    r
}

#[test]
fn hill_climb_on_tictactoe_and_connect4() {
    let r = check_walk(
        &setup(GameKind::TicTacToe, ".........", QuestionKind::NotLose),
        1_000_000,
    );
    assert!(r.chosen_nodes.is_some(), "{r}");
    eprintln!("{r}");
    // A Connect Four position with 22 stones from a seeded random game.
    let mut su = setup(GameKind::Connect4, "", QuestionKind::Win);
    let mut rng = SmallRng::seed_from_u64(28);
    let p = loop {
        let mut p = su.position.clone();
        for _ in 0..22 {
            let moves = p.legal_move_names();
            if moves.is_empty() {
                break;
            }
            p = p
                .after_move(&moves[rng.random_range(0..moves.len())])
                .expect("legal");
        }
        // A position that takes some work, so the walk has a landscape.
        if p.outcome().is_none() {
            let mut t = su.clone();
            t.position = p.clone();
            if probe(&t, 2, 2, 100_000).is_some_and(|n| (200..50_000).contains(&n)) {
                break p;
            }
        }
    };
    su.position = p;
    let r = check_walk(&su, 200_000);
    eprintln!("{r}");
    assert!(
        r.probes.iter().any(|p| p.nodes > Some(10)),
        "a trivial position: {r}"
    );
    // Probe lines print as the CLI shows them.
    assert!(r.probes[0].to_string().starts_with("E=2 D=2 nodes="));
}

#[test]
fn capped_probes_count_infinity_and_the_walk_stays_at_the_start() {
    let su = setup(GameKind::TicTacToe, ".........", QuestionKind::Win);
    let r = hill_climb(&su, 5);
    assert!(r.probes.iter().all(|p| p.nodes.is_none()), "{r}");
    assert_eq!(r.chosen, (2, 2), "a flat of ∞ returns its smallest point");
    assert_eq!(r.chosen_nodes, None);
    assert_eq!(
        Probe {
            e: 3,
            d: 4,
            nodes: None
        }
        .to_string(),
        "E=3 D=4 nodes=∞"
    );
}
