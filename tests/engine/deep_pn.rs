//! DeepPN (docs/algorithms.md §3) against two independent sources:
//! - PN-search: with R = 1 DeepPN must select the same most-proving node as
//!   PNS at every iteration and end with identical counters;
//! - the exhaustive negamax reference: every R and both `dpn` forms give
//!   the right answer.
//!
//! Positions: every reachable tic-tac-toe position, seeded random Othello
//! positions with 8–10 empties, Connect Four positions with 30–35 stones
//! and small P-games (also with scored goals).
//!
//! Plus the DPN formula checked by hand on a small case, R = 0 behaving as
//! a depth-first search, and the snapshot's per-node values.

use pnlab::game::connect4::Connect4;
use pnlab::game::othello::random::random_othello;
use pnlab::game::othello::Othello;
use pnlab::game::pgame::PGame;
use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::tree::TreeGame;
use pnlab::game::{Game, Player};
use pnlab::search::arena::Arena;
use pnlab::search::deep_pn::{DeepPn, DeepPnOptions, DpnForm};
use pnlab::search::pns::{PnDn, Pns, PnsOptions};
use pnlab::search::{reference, Counters, Goal, Question, Search, Status, ViewRequest};

use crate::common::search_run::run_to_end;

fn reachable_tictactoe() -> Vec<TicTacToe> {
    pnlab::game::perft::reachable(&TicTacToe::new())
}

/// Counters without the wall-clock field.
fn comparable(c: &Counters) -> Counters {
    Counters {
        time_ms: 0.0,
        ..c.clone()
    }
}

/// Runs PNS and DeepPN(R = 1) side by side on `g`, asserting the same
/// selection path before every iteration and the same counters after it.
/// Returns the number of iterations compared.
fn assert_r1_matches_pns<G: Game>(g: &G, q: Question, form: DpnForm) -> u64 {
    let mut pns = Pns::new(g.clone(), q, PnsOptions::default());
    let mut dpn = DeepPn::new(
        g.clone(),
        q,
        DeepPnOptions {
            r: 1.0,
            form,
            ..DeepPnOptions::default()
        },
    );
    let mut guard = 0u64;
    loop {
        assert_eq!(pns.status(), dpn.status(), "{g:?}");
        assert_eq!(
            comparable(pns.counters()),
            comparable(dpn.counters()),
            "{g:?} after {guard} iterations"
        );
        if pns.status().is_final() {
            break;
        }
        assert_eq!(
            pns.selection_path(),
            dpn.selection_path(),
            "{g:?}: most-proving node differs at iteration {}",
            guard + 1
        );
        pns.step();
        dpn.step();
        guard += 1;
        assert!(guard < 1_000_000, "no termination on {g:?}");
    }
    assert_eq!(pns.switch_events(), dpn.switch_events());
    guard
}

fn solve<S: Search>(s: &mut S) -> Status {
    run_to_end(s, 1_000_000, "the search")
}

/// Whether DeepPN with weight `r` in `form` proves `q` on `g` (it must
/// answer: proved or disproved).
fn proves<G: Game>(g: &G, q: Question, r: f64, form: DpnForm) -> bool {
    let mut s = DeepPn::new(
        g.clone(),
        q,
        DeepPnOptions {
            r,
            form,
            ..DeepPnOptions::default()
        },
    );
    match solve(&mut s) {
        Status::Proved => true,
        Status::Disproved => false,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn r1_is_pns_on_every_tictactoe_position() {
    let mut iterations = 0;
    let mut positions = 0;
    for g in reachable_tictactoe() {
        for goal in [Goal::Win, Goal::NotLose] {
            let q = Question {
                attacker: g.to_move(),
                goal,
            };
            for form in [DpnForm::Paper, DpnForm::Thesis] {
                iterations += assert_r1_matches_pns(&g, q, form);
            }
            positions += 1;
        }
    }
    assert_eq!(positions, 5478 * 2);
    // The empty board alone needs hundreds of iterations; a vacuous run
    // (everything terminal) would compare nothing.
    assert!(iterations > 100_000, "{iterations}");
}

#[test]
fn r1_is_pns_for_the_second_player_as_attacker() {
    // Attacker not to move at the root: an AND root.
    let g = TicTacToe::new();
    let q = Question {
        attacker: Player::Second,
        goal: Goal::NotLose,
    };
    assert!(assert_r1_matches_pns(&g, q, DpnForm::Paper) > 10);
}

#[test]
fn every_r_and_form_agrees_with_the_reference() {
    let rs = [0.0, 0.1, 0.4, 0.65, 0.9, 1.0];
    let positions = reachable_tictactoe();
    let mut checked = 0;
    for (i, g) in positions.iter().enumerate() {
        for goal in [Goal::Win, Goal::NotLose] {
            let q = Question {
                attacker: g.to_move(),
                goal,
            };
            let expected = reference::answer(g, &q);
            for form in [DpnForm::Paper, DpnForm::Thesis] {
                // Every position with R = 0.65 and R = 0; the other R on
                // every third position keeps the test fast.
                for &r in &rs {
                    if i % 3 != 0 && r != 0.65 && r != 0.0 {
                        continue;
                    }
                    let got = proves(g, q, r, form);
                    assert_eq!(got, expected, "{} {goal:?} R={r} {form:?}", g.notation());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5478 * 2 * 2 * 2, "{checked}");
}

#[test]
fn dpn_after_the_first_expansion_matches_the_formula() {
    // Empty board: after one iteration the nine root children are frontier
    // nodes at depth 1 with pn = dn = 1, so by docs/algorithms.md §3
    // deep = 1/1 and DPN = (1 − 1/1)·R + 1·(1 − R) = 1 − R (paper) and
    // (1 − 1/2)·R + 1·(1 − R) = 1 − R/2 (thesis).
    for (form, expect) in [(DpnForm::Paper, 1.0 - 0.65), (DpnForm::Thesis, 1.0 - 0.325)] {
        let mut s = DeepPn::new(
            TicTacToe::new(),
            Question {
                attacker: Player::First,
                goal: Goal::Win,
            },
            DeepPnOptions {
                r: 0.65,
                form,
                ..DeepPnOptions::default()
            },
        );
        s.step();
        let root = *s.arena().get(0);
        assert_eq!(root.n_children, 9);
        for c in root.children() {
            assert_eq!(s.deep(c), 1.0);
            assert!((s.dpn(c) - expect).abs() < 1e-12, "{form:?} {}", s.dpn(c));
        }
        // The root carries the deep value of its chosen child.
        assert_eq!(s.deep(0), 1.0);
        // All tie: leftmost is picked.
        assert_eq!(s.selection_path(), vec![0, root.first_child]);
    }
}

#[test]
fn deeper_frontier_wins_when_r_is_small() {
    // After two iterations at R = 0.5 on the empty board, the leftmost root
    // child c0 is expanded: its 8 children are frontier nodes at depth 2
    // (pn = dn = 1, deep = 1/2). c0 is an AND node whose
    // pn is the sum 8, so its DPN under the OR root is
    // (1 − 1/8)·0.5 + 0.5·0.5 = 0.6875, while its siblings have
    // (1 − 1/1)·0.5 + 1·0.5 = 0.5: the search leaves c0 — PNS would too.
    // At R = 0.1: c0 has 0.875·0.1 + 0.5·0.9 = 0.5375 < 0.9 = siblings, so
    // DeepPN stays in c0 while PNS switches.
    let q = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    for (r, stays) in [(0.5, false), (0.1, true)] {
        let mut s = DeepPn::new(
            TicTacToe::new(),
            q,
            DeepPnOptions {
                r,
                form: DpnForm::Paper,
                ..DeepPnOptions::default()
            },
        );
        s.step();
        s.step();
        let root = *s.arena().get(0);
        let c0 = root.first_child;
        assert_eq!(s.arena().get(c0).data, PnDn { pn: 8, dn: 1 });
        let want = (1.0 - 1.0 / 8.0) * r + 0.5 * (1.0 - r);
        assert!((s.dpn(c0) - want).abs() < 1e-12);
        let path = s.selection_path();
        assert_eq!(path[1] == c0, stays, "R={r} path {path:?}");
    }
}

#[test]
fn r0_is_depth_first() {
    // With R = 0 the DPN is the deep value alone, so selection reaches the
    // deepest unsolved frontier node: right after expanding node n, if n is
    // still unsolved the next iteration expands one of n's children.
    let q = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    let mut s = DeepPn::new(
        TicTacToe::new(),
        q,
        DeepPnOptions {
            r: 0.0,
            form: DpnForm::Paper,
            ..DeepPnOptions::default()
        },
    );
    let mut checked = 0;
    while !s.status().is_final() {
        let n = *s.selection_path().last().unwrap();
        s.step();
        if s.status().is_final() {
            break;
        }
        let d = s.arena().get(n).data;
        if d.pn != 0 && d.dn != 0 {
            let next = *s.selection_path().last().unwrap();
            assert_eq!(s.arena().get(next).parent, n);
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
    assert_eq!(s.status(), Status::Disproved);
}

#[test]
fn snapshot_carries_pn_dn_deep_dpn_and_the_formula() {
    let mut s = DeepPn::new(
        TicTacToe::new(),
        Question {
            attacker: Player::First,
            goal: Goal::Win,
        },
        DeepPnOptions::default(),
    );
    for _ in 0..5 {
        s.step();
    }
    assert_eq!(s.value_names(), &["pn", "dn", "deep", "dpn"]);
    let path = s.selection_path();
    let req = ViewRequest {
        inspect: Some(path[1] as u64),
        ..Default::default()
    };
    let snap = s.snapshot(&req);
    assert_eq!(snap.value_names, vec!["pn", "dn", "deep", "dpn"]);
    assert!(snap.nodes.iter().all(|n| n.values.len() == 4));
    assert!(snap.nodes[0].values[3].is_nan(), "the root has no DPN");
    let ins = snap.inspection.expect("inspection");
    let dpn_line = &ins.formulas.iter().find(|(k, _)| k == "dpn").unwrap().1;
    assert!(dpn_line.starts_with("DPN = (1 − 1/"), "{dpn_line}");
    assert!(dpn_line.contains("·0.650 + "), "{dpn_line}");
    let root_ins = s
        .snapshot(&ViewRequest {
            inspect: Some(0),
            ..Default::default()
        })
        .inspection
        .unwrap();
    assert!(
        root_ins
            .choice
            .as_deref()
            .unwrap_or("")
            .contains("least DPN"),
        "{root_ins:?}"
    );
}

#[test]
fn node_fits_in_32_bytes() {
    // DeepPN keeps its deep value as a depth in the spare field: a node is
    // as small as a PNS node.
    let bytes = Arena::<u8, PnDn>::NODE_BYTES;
    assert!(bytes <= 32, "{bytes}");
}

#[test]
fn registry_builds_deep_pn_with_defaults() {
    use pnlab::game::AnyPosition;
    use pnlab::search::{build, find_algo, Params, SearchSetup};
    let info = find_algo("deep-pn").unwrap();
    let params = Params::defaults(info.params);
    assert_eq!(params.real("R"), Ok(0.65));
    assert_eq!(params.choice("dpn"), Ok("paper"));
    let setup = SearchSetup {
        position: AnyPosition::TicTacToe(TicTacToe::parse("xx.oo....").unwrap()),
        params,
        seed: 0,
        question: Default::default(),
        memory_limit_bytes: None,
    };
    let mut s = build("deep-pn", &setup).unwrap();
    while !s.step().is_final() {}
    assert_eq!(s.status(), Status::Proved);
    assert_eq!(s.best_move().as_deref(), Some("c1"));
}

fn other_game_positions() -> (Vec<Othello>, Vec<Connect4>, Vec<PGame>) {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(0xD33F);
    let mut othello = Vec::new();
    while othello.len() < 12 {
        // 8–10 empties: 50–52 discs after 46–48 disc-placing moves.
        let empties = 8 + (othello.len() % 3) as u32;
        if let Some(g) = random_othello(0xD33F + othello.len() as u64, empties) {
            othello.push(g);
        }
    }
    let mut c4 = Vec::new();
    while c4.len() < 30 {
        let plies = 30 + c4.len() % 6;
        if let Some(g) = pnlab::bench::random_walk(&Connect4::new(), plies, &mut rng) {
            c4.push(g);
        }
    }
    let mut pg = Vec::new();
    for (i, (b, d)) in [(2, 10), (3, 6), (4, 5), (8, 4), (2, 14)]
        .iter()
        .enumerate()
    {
        for s in 0..4u64 {
            pg.push(PGame::new(*b, *d, 100 * i as u64 + s).unwrap());
        }
    }
    (othello, c4, pg)
}

#[test]
fn r1_is_pns_on_othello_connect4_and_pgames() {
    let (othello, c4, pg) = other_game_positions();
    let mut iterations = 0;
    for form in [DpnForm::Paper, DpnForm::Thesis] {
        for g in &othello {
            for goal in [Goal::Win, Goal::NotLose] {
                let q = Question {
                    attacker: g.to_move(),
                    goal,
                };
                iterations += assert_r1_matches_pns(g, q, form);
            }
        }
        for g in &c4 {
            let q = Question {
                attacker: g.to_move(),
                goal: Goal::Win,
            };
            iterations += assert_r1_matches_pns(g, q, form);
        }
        for g in &pg {
            // P-games also with a scored goal (the value search's questions).
            for goal in [Goal::Win, Goal::AtLeast(-40), Goal::AtLeast(60)] {
                let q = Question {
                    attacker: Player::First,
                    goal,
                };
                iterations += assert_r1_matches_pns(g, q, form);
            }
        }
    }
    assert!(iterations > 10_000, "{iterations}");
}

#[test]
fn deep_pn_agrees_with_the_reference_on_othello_connect4_and_pgames() {
    let (othello, c4, pg) = other_game_positions();
    fn check<G: Game>(g: &G, q: Question) {
        let expected = reference::answer(g, &q);
        for form in [DpnForm::Paper, DpnForm::Thesis] {
            for r in [0.1, 0.4, 0.65, 0.9] {
                let got = proves(g, q, r, form);
                assert_eq!(got, expected, "{} {q:?} R={r} {form:?}", g.notation());
            }
        }
    }
    for g in &othello {
        check(
            g,
            Question {
                attacker: g.to_move(),
                goal: Goal::Win,
            },
        );
    }
    for g in &c4 {
        check(
            g,
            Question {
                attacker: g.to_move(),
                goal: Goal::NotLose,
            },
        );
    }
    for g in &pg {
        check(
            g,
            Question {
                attacker: Player::First,
                goal: Goal::AtLeast(0),
            },
        );
        check(
            g,
            Question {
                attacker: Player::Second,
                goal: Goal::Win,
            },
        );
    }
}

/// The shipped teaching trees (positions/trees/*.tree).
fn shipped_trees() -> Vec<(String, TreeGame)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) == Some("tree") {
            let text = std::fs::read_to_string(&p).unwrap();
            let g = TreeGame::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", p.display()));
            out.push((p.display().to_string(), g));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn r1_is_pns_on_the_shipped_trees() {
    let trees = shipped_trees();
    assert!(trees.len() >= 8, "{}", trees.len());
    let mut iterations = 0;
    for (name, g) in &trees {
        let attacker = g.default_attacker().unwrap_or_else(|| g.to_move());
        for goal in [Goal::Win, Goal::NotLose, Goal::AtLeast(3)] {
            let q = Question { attacker, goal };
            for form in [DpnForm::Paper, DpnForm::Thesis] {
                iterations += assert_r1_matches_pns(g, q, form);
            }
            // And DeepPN with the default R answers like the reference.
            let mut s = DeepPn::new(g.clone(), q, DeepPnOptions::default());
            let got = solve(&mut s) == Status::Proved;
            assert_eq!(got, reference::answer(g, &q), "{name} {goal:?}");
        }
    }
    assert!(iterations > 100, "{iterations}");
}
