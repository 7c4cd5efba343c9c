//! The df-pn family on tic-tac-toe: every algorithm and variant against
//! the exhaustive reference on all 5,478 reachable positions for both
//! questions; the exactness of the special cases (Deep df-pn with E = 1 or
//! D ≤ 1, 1+ε with ε = 1e-9, against df-pn: the same MID calls with the
//! same thresholds, the same counters); table budgets far too small;
//! snapshots of the DAG (transpositions listed once).

use crate::common;
use common::search_run::{algo_setup, dfpn_special_cases, proved, run_to_end, win_and_not_lose};

use std::collections::{HashMap, HashSet};

use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::{AnyPosition, Game};
use pnlab::search::dfpn::{Dfpn, DfpnOptions, Event};
use pnlab::search::snapshot::{NodeKind, NodeStatus};
use pnlab::search::{
    reference, registry, Goal, Question, QuestionKind, Search, SearchSetup, Status, StopReason,
    ViewRequest,
};

/// Does x (the first player) win from `g` with best play? A plain
/// negamax over the rules, written here so the check shares no code with
/// the searches.
fn negamax_x_wins(g: &TicTacToe) -> bool {
    fn value(g: &TicTacToe) -> i32 {
        if let Some(o) = g.outcome() {
            return o.score_for(g.to_move());
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| {
                let mut c = *g;
                c.play(m);
                -value(&c)
            })
            .max()
            .expect("a move")
    }
    let v = value(g);
    match g.to_move() {
        pnlab::game::Player::First => v > 0,
        pnlab::game::Player::Second => v < 0,
    }
}

fn reachable() -> Vec<TicTacToe> {
    pnlab::game::perft::reachable(&TicTacToe::new())
}

fn setup(g: TicTacToe, goal: Goal, algo: &str, pairs: &[(&str, &str)]) -> SearchSetup {
    let question = match goal {
        Goal::NotLose => QuestionKind::NotLose,
        _ => QuestionKind::Win,
    };
    algo_setup(algo, &AnyPosition::TicTacToe(g), pairs, question, 0)
}

/// Every registered configuration of the family this file checks.
const CONFIGS: &[(&str, &[(&str, &str)])] = &[
    ("dfpn", &[]),
    ("dfpn-eps", &[("eps", "0.25")]),
    ("dfpn-eps", &[("eps", "3")]),
    ("deep-dfpn", &[("E", "2"), ("D", "2")]),
    ("deep-dfpn", &[("E", "5"), ("D", "6")]),
    ("deep-dfpn", &[("E", "0"), ("D", "3")]),
    ("dfs", &[]),
];

#[test]
fn every_variant_agrees_with_the_reference_everywhere() {
    let positions = reachable();
    assert_eq!(positions.len(), 5478);
    let mut checked = 0;
    for g in &positions {
        for q in win_and_not_lose(g.to_move()) {
            let (goal, expected) = (q.goal, reference::answer(g, &q));
            for (algo, pairs) in CONFIGS {
                let su = setup(*g, goal, algo, pairs);
                let mut s = registry::build(algo, &su).expect("builds");
                let what = format!("{algo} {pairs:?} on {} {goal:?}", g.notation());
                let got = proved(run_to_end(s.as_mut(), 1_000_000, &what), &what);
                assert_eq!(got, expected, "{what}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 5478 * 2 * CONFIGS.len());
}

fn trace(g: TicTacToe, goal: Goal, opts: DfpnOptions) -> (Vec<(u32, u64, u32, u32)>, String) {
    let q = Question {
        attacker: g.to_move(),
        goal,
    };
    common::dfpn_trace(&g, q, opts)
}

#[test]
fn special_cases_perform_exactly_as_dfpn() {
    let positions = reachable();
    let specials = dfpn_special_cases(&[(1, 7), (1, 1), (9, 1), (4, 0)]);
    let mut compared = 0;
    let mut differs_somewhere = false;
    // Every 7th position keeps the file fast; the empty board is included.
    for g in positions.iter().step_by(7) {
        for goal in [Goal::Win, Goal::NotLose] {
            let base = trace(*g, goal, DfpnOptions::default());
            for o in &specials {
                let t = trace(*g, goal, *o);
                assert_eq!(t.1, base.1, "{} {goal:?} {o:?}", g.notation());
                assert_eq!(t.0, base.0, "{} {goal:?} {o:?}", g.notation());
                compared += 1;
            }
            // A real Deep df-pn setting changes the search on some
            // positions (so the comparison above can fail).
            let deep = trace(
                *g,
                goal,
                DfpnOptions {
                    deep: Some((3, 5)),
                    ..Default::default()
                },
            );
            differs_somewhere |= deep.0 != base.0;
        }
    }
    assert!(compared > 3000);
    assert!(differs_somewhere, "E=3, D=5 never changed the MID sequence");
}

#[test]
fn counters_follow_their_definitions_on_the_empty_board() {
    let g = TicTacToe::new();
    let q = Question {
        attacker: g.to_move(),
        goal: Goal::Win,
    };
    let mut s = Dfpn::new("dfpn", g, q, DfpnOptions::default());
    // Count entries and revisits independently from the event stream,
    // with a stack of our own: a node is revisited when it is entered
    // after an earlier call on it has exited.
    let mut entries = 0u64;
    let mut path: Vec<u64> = Vec::new();
    let mut left: HashSet<u64> = HashSet::new();
    let mut revisits = 0u64;
    let mut depth_max = 0;
    loop {
        match s.step_event() {
            Event::Enter { depth } => {
                entries += 1;
                depth_max = depth_max.max(depth);
                let h = s.frames().last().expect("frame").hash;
                assert_eq!(depth as usize, path.len());
                if left.contains(&h) {
                    revisits += 1;
                }
                path.push(h);
            }
            Event::Exit { depth } => {
                let h = path.pop().expect("exit matches an entry");
                assert_eq!(depth as usize, path.len());
                left.insert(h);
            }
            Event::Done => break,
        }
    }
    assert!(path.is_empty());
    let c = Search::counters(&s);
    assert_eq!(Search::status(&s), Status::Disproved);
    assert_eq!(c.iterations, entries);
    assert_eq!(c.revisits, revisits);
    assert_eq!(c.max_depth, depth_max);
    assert_eq!(c.live_nodes, s.table().len() as u64);
    assert_eq!(c.nodes_created, s.table().len() as u64, "no eviction here");
    assert!(c.revisits > 0, "df-pn revisits nodes on the empty board");
}

#[test]
fn tiny_table_budgets_stop_cleanly_or_answer_right() {
    let positions = reachable();
    let mut memory_stops = 0;
    let mut answered = 0;
    let mut answered_after_eviction = 0;
    for g in positions.iter().step_by(37) {
        for q in win_and_not_lose(g.to_move()) {
            let (goal, expected) = (q.goal, reference::answer(g, &q));
            for entries in [1u64, 3, 6, 12, 40, 100, 300] {
                for algo in ["dfpn", "dfpn-eps", "deep-dfpn"] {
                    let pairs: &[(&str, &str)] = match algo {
                        "dfpn-eps" => &[("eps", "0.5")],
                        "deep-dfpn" => &[("E", "3"), ("D", "4")],
                        _ => &[],
                    };
                    let mut su = setup(*g, goal, algo, pairs);
                    su.memory_limit_bytes = Some(entries * pnlab::search::dfpn::tt::SLOT_BYTES);
                    let mut s = registry::build(algo, &su).expect("builds");
                    let what = format!("{algo} {entries} entries {} {goal:?}", g.notation());
                    let st = run_to_end(s.as_mut(), 1_000_000, &what);
                    let evicted = s.extra_json()["tt_evicted"].as_u64().unwrap_or(0);
                    match st {
                        Status::Proved => {
                            assert!(expected, "{what}: wrong proof");
                            answered += 1;
                            answered_after_eviction += u32::from(evicted > 0);
                        }
                        Status::Disproved => {
                            assert!(!expected, "{what}: wrong disproof");
                            answered += 1;
                            answered_after_eviction += u32::from(evicted > 0);
                        }
                        Status::Unknown(StopReason::Memory) => memory_stops += 1,
                        other => panic!("{what}: unexpected {other:?}"),
                    }
                    // A table holds at least one entry, and the smallest
                    // hash map has four buckets; above that the budget
                    // holds.
                    let slot = pnlab::search::dfpn::tt::SLOT_BYTES;
                    assert!(
                        s.counters().peak_tree_bytes <= (entries * slot).max(4 * slot),
                        "{what}: table over budget"
                    );
                }
            }
        }
    }
    assert!(memory_stops > 0, "no budget was too small");
    assert!(answered > 0, "no budget was enough");
    assert!(
        answered_after_eviction > 0,
        "the replacement policy never ran in a solved search"
    );
}

#[test]
fn snapshot_lists_transposed_nodes_once() {
    let g = TicTacToe::new();
    let su = setup(g, Goal::Win, "dfpn", &[]);
    let mut s = registry::build("dfpn", &su).expect("builds");
    for _ in 0..400 {
        s.step();
    }
    let req = ViewRequest {
        max_depth: 4,
        max_nodes: 100_000,
        ..Default::default()
    };
    let snap = s.snapshot(&req);
    let ids: Vec<u64> = snap.nodes.iter().map(|n| n.id).collect();
    let unique: HashSet<u64> = ids.iter().copied().collect();
    assert_eq!(ids.len(), unique.len(), "a node is listed twice");
    // Tic-tac-toe transposes (x a1, o b1, x c1 = x c1, o b1, x a1), so a
    // DAG of four plies from the empty board has extra edges.
    assert!(!snap.extra_edges.is_empty(), "no transposition edge");
    for pnlab::search::snapshot::ExtraEdge {
        from: p,
        to: c,
        label,
        ..
    } in &snap.extra_edges
    {
        let (p, c) = (*p as usize, *c as usize);
        assert!(p < snap.nodes.len() && c < snap.nodes.len());
        assert_eq!(snap.nodes[c].depth, snap.nodes[p].depth + 1);
        assert!(!label.is_empty());
    }
    // Every listed node is checked against the rules, independently of the
    // search: replay its move from its parent's position; its kind and
    // terminal flag follow from that position; a terminal node carries the
    // rules' numbers; a proven node really is a win for x and a disproven
    // one really is not (a plain negamax in this file); an unsolved node
    // has finite, non-zero numbers.
    let by_id: HashMap<u64, usize> = snap
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id, i))
        .collect();
    assert_eq!(by_id.len(), snap.nodes.len());
    let mut positions: Vec<TicTacToe> = Vec::with_capacity(snap.nodes.len());
    for (i, n) in snap.nodes.iter().enumerate() {
        let pos = match n.parent {
            None => TicTacToe::new(),
            Some(p) => {
                let mut g = positions[p as usize];
                let m = g.parse_move(&n.move_label).expect("a legal move");
                g.play(m);
                g
            }
        };
        let x_to_move = pos.to_move() == pnlab::game::Player::First;
        let expected_kind = if x_to_move {
            NodeKind::Or
        } else {
            NodeKind::And
        };
        assert_eq!(n.kind, expected_kind, "node {i}: kind");
        assert_eq!(n.terminal, pos.outcome().is_some(), "node {i}: terminal");
        let (pn, dn) = (n.values[0], n.values[1]);
        let x_wins = negamax_x_wins(&pos);
        if let Some(o) = pos.outcome() {
            let won = o.score > 0;
            let want = if won {
                (0.0, f64::INFINITY)
            } else {
                (f64::INFINITY, 0.0)
            };
            assert_eq!((pn, dn), want, "node {i}: terminal numbers");
        }
        match n.status {
            NodeStatus::Proven => assert!(x_wins && pn == 0.0, "node {i}: proven"),
            NodeStatus::Disproven => assert!(!x_wins && dn == 0.0, "node {i}: disproven"),
            NodeStatus::Unknown => assert!(
                pn >= 1.0 && dn >= 1.0 && pn.is_finite() && dn.is_finite(),
                "node {i}: unsolved numbers {pn}/{dn}"
            ),
        }
        positions.push(pos);
    }
    // A transposition edge joins a parent to a position its move reaches.
    for pnlab::search::snapshot::ExtraEdge {
        from: p,
        to: c,
        label,
        ..
    } in &snap.extra_edges
    {
        let mut g = positions[*p as usize];
        g.play(g.parse_move(label).expect("a legal move"));
        assert_eq!(g, positions[*c as usize], "extra edge {label}");
    }
    // Frames: the MID path from the root, thresholds at the root are ∞.
    assert!(!snap.frames.is_empty());
    assert_eq!(snap.frames[0].values[0].1, f64::INFINITY);
    assert_eq!(snap.frames[0].values[1].1, f64::INFINITY);
    for f in &snap.frames {
        assert!(
            by_id.contains_key(&f.node),
            "path node missing from the DAG"
        );
    }
    // Inspection shows the formulas with the children's numbers.
    let req = ViewRequest {
        inspect: Some(snap.frames[0].node),
        ..Default::default()
    };
    let snap = s.snapshot(&req);
    let insp = snap.inspection.expect("inspection of the root");
    let text: Vec<&str> = insp.formulas.iter().map(|(_, t)| t.as_str()).collect();
    assert!(
        text.iter().any(|t| t.starts_with("φ = min δ(c) = min(")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("δ = Σ φ(c) = ")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("thφ = ∞, thδ = ∞")),
        "{text:?}"
    );
    assert!(text.iter().any(|t| t.starts_with("thφ(c1) = ")), "{text:?}");
}
