//! The Monte-Carlo family (docs/algorithms.md §5) against the exhaustive
//! reference: on 1,000 seeded P-games of several shapes and on every
//! reachable tic-tac-toe position, every run that ends `proved` or
//! `disproved` agrees with `reference::answer`; none is ever wrong. Runs
//! are reproducible bit for bit for a seed.

use pnlab::game::pgame::PGame;
use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::{AnyPosition, Game};
use pnlab::search::registry::{build, find_algo};
use pnlab::search::snapshot::ViewRequest;
use pnlab::search::{reference, run, Budget, Params, QuestionKind, SearchSetup, Status};

/// Every algorithm of the family, plus PNS (the compare experiment's
/// baseline).
const ALGOS: &[&str] = &["ppn", "mcpn", "mcts-solver", "uct-solver", "pns"];

fn setup(pos: AnyPosition, algo: &str, seed: u64, q: QuestionKind) -> SearchSetup {
    SearchSetup {
        position: pos,
        params: Params::defaults(find_algo(algo).unwrap().params),
        seed,
        question: q,
        memory_limit_bytes: None,
    }
}

/// Runs `algo` with an iteration cap; returns the final status.
fn solve(pos: &AnyPosition, algo: &str, seed: u64, q: QuestionKind, cap: u64) -> Status {
    let mut s = build(algo, &setup(pos.clone(), algo, seed, q)).unwrap();
    let budget = Budget {
        max_iterations: Some(cap),
        ..Default::default()
    };
    run(s.as_mut(), &budget, None)
}

/// 1,000 P-game shapes and seeds: b 2–8, d 4–20, small enough for the
/// exhaustive reference and for the solvers to finish under the cap.
fn pgames() -> Vec<PGame> {
    let shapes: [(u32, u32, usize); 8] = [
        (2, 4, 150),
        (2, 8, 150),
        (2, 12, 150),
        (3, 6, 150),
        (4, 5, 150),
        (5, 4, 100),
        (8, 4, 120),
        (2, 20, 30),
    ];
    let mut v = Vec::new();
    for (i, &(b, d, n)) in shapes.iter().enumerate() {
        for k in 0..n {
            let seed = 1_000 * i as u64 + k as u64;
            v.push(PGame::new(b, d, seed).unwrap());
        }
    }
    assert_eq!(v.len(), 1_000);
    v
}

fn check_pgames(algo: &str) {
    let games = pgames();
    let mut solved = 0;
    for (i, g) in games.iter().enumerate() {
        let q = pnlab::search::Question {
            attacker: g.to_move(),
            goal: pnlab::search::Goal::Win,
        };
        let cap = if g.tree_depth() >= 20 { 5_000 } else { 200_000 };
        let st = solve(
            &g.clone().into_any(),
            algo,
            i as u64,
            QuestionKind::Win,
            cap,
        );
        let want = reference::answer(g, &q);
        match st {
            Status::Proved => assert!(want, "{algo} proved a lost P-game {}", g.notation()),
            Status::Disproved => assert!(!want, "{algo} disproved a won P-game {}", g.notation()),
            _ => continue,
        }
        solved += 1;
    }
    // The check is not vacuous: the small shapes always finish.
    assert!(solved >= 950, "{algo} solved only {solved} of 1000");
}

#[test]
fn ppn_agrees_with_reference_on_pgames() {
    check_pgames("ppn");
}

fn reachable() -> Vec<TicTacToe> {
    pnlab::game::perft::reachable(&TicTacToe::new())
}

fn check_tictactoe(algo: &str) {
    let positions = reachable();
    assert_eq!(positions.len(), 5478);
    let mut solved = 0;
    for (i, g) in positions.iter().enumerate() {
        for (kind, goal) in [
            (QuestionKind::Win, pnlab::search::Goal::Win),
            (QuestionKind::NotLose, pnlab::search::Goal::NotLose),
        ] {
            let q = pnlab::search::Question {
                attacker: g.to_move(),
                goal,
            };
            let want = reference::answer(g, &q);
            match solve(&g.into_any(), algo, i as u64, kind, 100_000) {
                Status::Proved => assert!(want, "{algo} {goal:?} {}", g.notation()),
                Status::Disproved => assert!(!want, "{algo} {goal:?} {}", g.notation()),
                _ => continue,
            }
            solved += 1;
        }
    }
    assert_eq!(
        solved,
        5478 * 2,
        "{algo} left tic-tac-toe positions unsolved"
    );
}

#[test]
fn ppn_agrees_with_reference_on_tictactoe() {
    check_tictactoe("ppn");
}

/// Two runs with the same seed: same counters, same final status, same
/// tree snapshot; a different seed changes the playouts.
fn check_reproducible(algo: &str) {
    let pos = PGame::new(3, 9, 77).unwrap().into_any();
    let go = |seed: u64| {
        let mut s = build(algo, &setup(pos.clone(), algo, seed, QuestionKind::Win)).unwrap();
        let mut samples = Vec::new();
        for _ in 0..300 {
            if s.step().is_final() {
                break;
            }
            samples.push(s.sample());
        }
        let mut c = s.counters().clone();
        c.time_ms = 0.0;
        let req = ViewRequest {
            max_depth: 64,
            max_nodes: 1_000_000,
            ..Default::default()
        };
        let mut snap = s.snapshot(&req);
        snap.counters.time_ms = 0.0;
        (s.status(), c, samples, snap.nodes)
    };
    let a = go(5);
    let b = go(5);
    assert_eq!(a.0, b.0);
    assert_eq!(a.1, b.1);
    assert_eq!(a.2, b.2);
    assert_eq!(a.3, b.3);
    assert!(a.1.playouts > 0 || algo == "pns");
    if algo != "pns" {
        let c = go(6);
        assert!(a.2 != c.2 || a.3 != c.3, "{algo}: the seed changes nothing");
    }
}

#[test]
fn runs_are_reproducible_for_a_seed() {
    for algo in ALGOS {
        assert!(find_algo(algo).is_ok(), "{algo} is not registered");
        check_reproducible(algo);
    }
}

#[test]
fn mcpn_agrees_with_reference_on_pgames() {
    check_pgames("mcpn");
}

#[test]
fn mcpn_agrees_with_reference_on_tictactoe() {
    check_tictactoe("mcpn");
}

#[test]
fn mcts_solver_agrees_with_reference_on_pgames() {
    check_pgames("mcts-solver");
}

#[test]
fn mcts_solver_agrees_with_reference_on_tictactoe() {
    check_tictactoe("mcts-solver");
}

#[test]
fn uct_solver_agrees_with_reference_on_pgames() {
    check_pgames("uct-solver");
}

#[test]
fn uct_solver_agrees_with_reference_on_tictactoe() {
    check_tictactoe("uct-solver");
}
