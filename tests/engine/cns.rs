//! Conspiracy-number search against independent references:
//! - with the two-valued model (`eval = win-loss`) it makes exactly PNS's
//!   expansions on every shipped tree and on small games, node by node
//!   (p(+∞) = pn, d(−∞) = dn), for several Pmax/Dmax;
//! - with Δ = 0 it ends at the exact minimax value of random hand-written
//!   trees (a plain recursive minimax written here) and of P-games (the
//!   exhaustive negamax reference), for many Pmax/Dmax/η;
//! - its incrementally updated functions equal the functions recomputed
//!   from scratch over the current tree by a dense-array recursion
//!   written here (Fact 2 of the SCNS paper), at every node;
//! - SCNS answers the question correctly on random trees and P-games.

use std::sync::Arc;

use crate::common;
use common::full_minimax;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::pgame::PGame;
use pnlab::game::tree::{Tree, TreeGame};
use pnlab::game::{Game, Player};
use pnlab::search::cns::staircase::{Value, NEG_INF, POS_INF};
use pnlab::search::cns::values::Model;
use pnlab::search::cns::{Cns, CnsOptions};
use pnlab::search::pn::{self, Pn, INF};
use pnlab::search::pns::{Pns, PnsOptions};
use pnlab::search::{reference, Goal, Question, Search, Status};

fn question(goal: Goal) -> Question {
    Question {
        attacker: Player::First,
        goal,
    }
}

/// Runs `s` to its end (with a generous step cap).
fn finish(s: &mut dyn Search) -> Status {
    for _ in 0..2_000_000 {
        if s.status().is_final() {
            break;
        }
        s.step();
    }
    s.status()
}

/// CNS with the two-valued model next to PNS, step by step: the same
/// tree, node by node, with p(+∞) = pn and d(−∞) = dn, the same status.
fn assert_same_as_pns<G: Game>(g: &G, q: Question, pmax: Pn, dmax: Pn, what: &str) {
    let mut pns = Pns::new(g.clone(), q, PnsOptions::default());
    let opts = CnsOptions {
        pmax,
        dmax,
        ..CnsOptions::cns(Model::WinLoss)
    };
    let mut cns = Cns::new("cns", g.clone(), q, opts);
    let mut steps = 0;
    loop {
        let (a, b) = (pns.arena(), cns.arena());
        assert_eq!(a.len(), b.len(), "{what}: tree sizes after {steps} steps");
        for i in 0..a.len() as u32 {
            assert_eq!(
                a.get(i).is_expanded(),
                b.get(i).is_expanded(),
                "{what}: node {i} after {steps} steps"
            );
            let d = a.get(i).data;
            assert_eq!(d.pn, cns.p_at(i, POS_INF), "{what}: pn of node {i}");
            assert_eq!(d.dn, cns.d_at(i, NEG_INF), "{what}: dn of node {i}");
        }
        assert_eq!(
            Search::status(&pns),
            Search::status(&cns),
            "{what}: status after {steps} steps"
        );
        if Search::status(&pns).is_final() {
            break;
        }
        pns.step();
        cns.step();
        steps += 1;
        assert!(steps < 100_000, "{what}: no end");
    }
    assert_eq!(
        Search::counters(&pns).iterations,
        Search::counters(&cns).iterations
    );
    assert_eq!(
        Search::counters(&pns).seesaw_switches,
        Search::counters(&cns).seesaw_switches
    );
}

fn shipped_trees() -> Vec<(String, TreeGame)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("positions/trees").expect("positions/trees") {
        let path = e.unwrap().path();
        if path.extension().and_then(|x| x.to_str()) == Some("tree") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((
                path.display().to_string(),
                TreeGame::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
            ));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 8, "the shipped trees are found");
    out
}

#[test]
fn two_valued_cns_expands_what_pns_expands_on_the_shipped_trees() {
    for (name, g) in shipped_trees() {
        for goal in [Goal::Win, Goal::NotLose] {
            for (pmax, dmax) in [(1, 1), (0, 0), (3, 1), (1000, 1000)] {
                assert_same_as_pns(&g, question(goal), pmax, dmax, &format!("{name} {goal:?}"));
            }
        }
    }
}

/// `count` P-games of branching 2-3 and depth 2-6 drawn by an RNG seeded
/// with `draw_seed`, the `i`-th built with seed `first + i`: (i, game,
/// its description).
fn random_p_games(draw_seed: u64, count: u64, first: u64) -> Vec<(u64, PGame, String)> {
    let mut rng = SmallRng::seed_from_u64(draw_seed);
    (0..count)
        .map(|i| {
            let b = rng.random_range(2..4);
            let d = rng.random_range(2..7);
            let g = PGame::new(b, d, first + i).unwrap();
            (i, g, format!("pgame b={b} d={d} seed={}", first + i))
        })
        .collect()
}

#[test]
fn two_valued_cns_expands_what_pns_expands_on_small_games() {
    for (_, g, what) in random_p_games(7, 40, 0) {
        assert_same_as_pns(&g, question(Goal::Win), 1, 1, &what);
    }
    for text in ["3:", "3:b2", "4:b2 c3 a4 d1 c2 b3"] {
        let g = pnlab::game::hex::Hex::parse(text).unwrap();
        let q = Question {
            attacker: g.to_move(),
            goal: Goal::Win,
        };
        assert_same_as_pns(&g, q, 1, 1, text);
    }
    for text in ["x...o....", ".........", "xo..x...."] {
        let g = pnlab::game::tictactoe::TicTacToe::parse(text).unwrap();
        for goal in [Goal::Win, Goal::NotLose] {
            let q = Question {
                attacker: g.to_move(),
                goal,
            };
            assert_same_as_pns(&g, q, 2, 2, text);
        }
    }
}

/// A random tree text: integer leaves in [−20, 20], inner nodes mostly
/// alternating OR/AND, some with `eval=` hints, some leaves high up.
fn random_tree_text(rng: &mut SmallRng) -> String {
    fn node(
        rng: &mut SmallRng,
        out: &mut String,
        depth: usize,
        or: bool,
        label: &str,
        max_depth: usize,
    ) {
        let indent = "  ".repeat(depth);
        let leaf = depth == max_depth || (depth > 0 && rng.random_bool(0.2));
        if leaf {
            out.push_str(&format!(
                "{indent}{label} = {}\n",
                rng.random_range(-20..=20)
            ));
            return;
        }
        let kind = if or { "or" } else { "and" };
        let eval = if rng.random_bool(0.5) {
            format!(" eval={}", rng.random_range(-20..=20))
        } else {
            String::new()
        };
        out.push_str(&format!("{indent}{label} {kind}{eval}\n"));
        let kids = rng.random_range(1..=4);
        for k in 0..kids {
            // Mostly alternate; sometimes the same player moves again.
            let next = if rng.random_bool(0.85) { !or } else { or };
            node(rng, out, depth + 1, next, &format!("{label}{k}"), max_depth);
        }
    }
    let mut out = String::new();
    let max_depth = rng.random_range(1..=5);
    let or = rng.random_bool(0.7);
    node(rng, &mut out, 0, or, "r", max_depth);
    out
}

/// A random tree (`random_tree_text`): its text and the game it reads as.
fn random_tree(rng: &mut SmallRng) -> (String, TreeGame) {
    let text = random_tree_text(rng);
    let g = TreeGame::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (text, g)
}

/// The final status of a search whose answer is `proved`.
fn status_of(proved: bool) -> Status {
    if proved {
        Status::Proved
    } else {
        Status::Disproved
    }
}

#[test]
fn cns_ends_at_the_exact_minimax_value_of_random_trees() {
    let mut rng = SmallRng::seed_from_u64(11);
    for t in 0..400 {
        let (text, g) = random_tree(&mut rng);
        let truth = full_minimax(&g);
        let opts = CnsOptions {
            pmax: [0, 1, 2, 5][t % 4],
            dmax: [1, 0, 3, 1][t % 4],
            eta: [0.0, 0.25][t / 4 % 2],
            ..CnsOptions::cns(Model::Score)
        };
        let goal = if t % 3 == 0 { Goal::NotLose } else { Goal::Win };
        let mut s = Cns::new("cns", g.clone(), question(goal), opts);
        let st = finish(&mut s);
        let yes = match goal {
            Goal::NotLose => truth >= 0,
            _ => truth >= 1,
        };
        assert_eq!(st, status_of(yes), "{text}");
        assert_eq!(s.exact_score(), Some(truth), "tree #{t} {opts:?}\n{text}");
        assert_eq!(s.minimax(0), truth as Value);
        let json = s.extra_json();
        assert_eq!(json["value"], serde_json::json!(truth));
    }
}

#[test]
fn cns_ends_at_the_exact_value_of_p_games() {
    for (i, g, what) in random_p_games(12, 150, 1000) {
        let truth = reference::value_for(&g, Player::First);
        let opts = CnsOptions {
            pmax: (i % 3) as Pn,
            dmax: (i % 2) as Pn,
            ..CnsOptions::cns(Model::Score)
        };
        let mut s = Cns::new("cns", g, question(Goal::Win), opts);
        let st = finish(&mut s);
        assert_eq!(st == Status::Proved, truth >= 1);
        assert_eq!(s.exact_score(), Some(truth), "{what}");
    }
}

/// The functions of a node recomputed from scratch over the current tree
/// as dense arrays over `grid` (Fact 2: leaves by their value, MAX = min
/// of p and sum of d, MIN the other way round).
fn dense_functions(
    s: &Cns<TreeGame>,
    i: u32,
    grid: &[Value],
    leaf: &dyn Fn(Value, bool, Value) -> (Pn, Pn),
) -> (Vec<Pn>, Vec<Pn>) {
    let a = s.arena();
    let n = a.get(i);
    if !n.is_expanded() {
        return grid
            .iter()
            .map(|&v| leaf(n.data.value, n.is_terminal(), v))
            .unzip();
    }
    let kids: Vec<(Vec<Pn>, Vec<Pn>)> = n
        .children()
        .map(|c| dense_functions(s, c, grid, leaf))
        .collect();
    // `proof`: fold the children's proof functions, else their disproof
    // functions.
    let fold = |min: bool, proof: bool| -> Vec<Pn> {
        (0..grid.len())
            .map(|k| {
                let it = kids.iter().map(|f| if proof { f.0[k] } else { f.1[k] });
                if min {
                    it.min().unwrap()
                } else {
                    it.fold(0, pn::add)
                }
            })
            .collect()
    };
    let or = n.is_or();
    (fold(or, true), fold(!or, false))
}

#[test]
fn incremental_functions_equal_a_dense_recomputation() {
    let mut rng = SmallRng::seed_from_u64(13);
    for t in 0..150 {
        let (text, g) = random_tree(&mut rng);
        let log = t % 2 == 1;
        let opts = CnsOptions {
            pmax: rng.random_range(0..4),
            dmax: rng.random_range(0..4),
            log_delta: log.then_some(1.5),
            ..CnsOptions::cns(Model::Score)
        };
        let mut s = Cns::new("cns", g, question(Goal::Win), opts);
        let steps = rng.random_range(0..12);
        for _ in 0..steps {
            s.step();
        }
        // Every leaf value ± 1, the ends and a spread of others.
        let mut grid: Vec<Value> = vec![NEG_INF, POS_INF];
        for i in 0..s.arena().len() as u32 {
            let v = s.arena().get(i).data.value;
            grid.extend([v - 1, v, v + 1, v + 2, v + 5]);
        }
        grid.sort_unstable();
        grid.dedup();
        // Eq. 14 by its inequality: the largest i with 1.5·log₂ i < v − x.
        let leaf = |x: Value, terminal: bool, v: Value| -> (Pn, Pn) {
            let up = |gap: Value| -> Pn {
                if gap <= 0 {
                    0
                } else if terminal {
                    INF
                } else if !log {
                    1
                } else if gap == POS_INF || gap > 1000 {
                    pnlab::search::cns::LOG_INIT_CAP
                } else {
                    let mut i: Pn = 1;
                    while i < pnlab::search::cns::LOG_INIT_CAP
                        && 1.5 * ((i + 1) as f64).log2() < gap as f64
                    {
                        i += 1;
                    }
                    i
                }
            };
            let gap = |a: Value, b: Value| -> Value {
                if a == POS_INF || b == NEG_INF {
                    if a == b {
                        0
                    } else {
                        POS_INF
                    }
                } else {
                    a.saturating_sub(b)
                }
            };
            (up(gap(v, x)), up(gap(x, v)))
        };
        let (p, d) = dense_functions(&s, 0, &grid, &leaf);
        for (k, &v) in grid.iter().enumerate() {
            assert_eq!(s.p_at(0, v), p[k], "p({v}) tree #{t}\n{text}");
            assert_eq!(s.d_at(0, v), d[k], "d({v}) tree #{t}\n{text}");
        }
        for i in 0..s.arena().len() as u32 {
            let (p, d) = dense_functions(&s, i, &grid, &leaf);
            let k = grid.len() / 2;
            assert_eq!(
                (s.p_at(i, grid[k]), s.d_at(i, grid[k])),
                (p[k], d[k]),
                "node {i}"
            );
        }
    }
}

#[test]
fn scns_answers_random_trees_and_p_games_correctly() {
    let mut rng = SmallRng::seed_from_u64(14);
    for t in 0..200 {
        let (text, g) = random_tree(&mut rng);
        let truth = full_minimax(&g) >= 1;
        let mut s = Cns::new("scns", g, question(Goal::Win), CnsOptions::scns());
        let st = finish(&mut s);
        assert_eq!(st, status_of(truth), "#{t}\n{text}");
    }
    for i in 0..60 {
        let g = PGame::new(rng.random_range(2..4), rng.random_range(2..6), 500 + i).unwrap();
        let q = question(Goal::Win);
        let truth = reference::answer(&g, &q);
        let mut s = Cns::new("scns", g, q, CnsOptions::scns());
        assert_eq!(finish(&mut s) == Status::Proved, truth);
    }
}

#[test]
fn the_interval_brackets_the_root_value_and_closes_when_exact() {
    let text = std::fs::read_to_string("positions/trees/scores.tree").unwrap();
    let g = TreeGame::from_tree(Arc::new(Tree::parse(&text).unwrap()));
    let mut s = Cns::new("cns", g, question(Goal::Win), CnsOptions::cns(Model::Score));
    while !Search::status(&s).is_final() {
        let iv = s.interval();
        assert!(iv.v_min <= iv.value && iv.value <= iv.v_max);
        s.step();
    }
    let iv = s.interval();
    // The file says: exact minimax value 3.
    assert_eq!((iv.v_min, iv.value, iv.v_max), (3, 3, 3));
    assert_eq!(s.exact_score(), Some(3));
    assert_eq!(Search::best_move(&s).as_deref(), Some("C"));
    assert!(s.interval_history().len() as u64 == Search::counters(&s).iterations + 1);
    assert_eq!(s.arena().len() as u64, Search::counters(&s).nodes_created);
}

#[test]
fn scns_with_hex_connections_answers_random_hex_positions_correctly() {
    // SCNS with `vcs` (and with `mustplay` on and off) against the
    // exhaustive reference on random 4×4 positions and 3×3 boards, and the
    // connections must settle nodes (fewer expansions than without).
    use pnlab::game::hex::vc::HSearchRules;
    use pnlab::game::hex::Hex;
    use pnlab::search::cns::hex_vcs::HexVcs;
    let mut rng = SmallRng::seed_from_u64(36);
    let mut moves = Vec::new();
    let (mut with_vcs, mut without) = (0u64, 0u64);
    for t in 0..80 {
        let n = if t % 4 == 0 { 3 } else { 4 };
        let mut g = Hex::new(n).expect("a size");
        for _ in 0..rng.random_range(if n == 3 { 0 } else { 3 }..8) {
            moves.clear();
            g.legal_moves(&mut moves);
            if g.outcome().is_some() || moves.is_empty() {
                break;
            }
            g.play(moves[rng.random_range(0..moves.len())]);
        }
        let q = Question {
            attacker: g.to_move(),
            goal: Goal::Win,
        };
        let truth = reference::answer_memo(&g, &q);
        for mustplay in [true, false] {
            let opts = CnsOptions {
                hex_vcs: Some(HexVcs {
                    rules: HSearchRules::default(),
                    mustplay,
                }),
                ..CnsOptions::scns()
            };
            let mut s = Cns::new("scns", g, q, opts);
            let st = finish(&mut s);
            assert_eq!(
                st,
                status_of(truth),
                "#{t} {} mustplay={mustplay}",
                g.notation()
            );
            with_vcs += s.counters().nodes_expanded;
        }
        let mut s = Cns::new("scns", g, q, CnsOptions::scns());
        assert_eq!(finish(&mut s), status_of(truth), "#{t} {}", g.notation());
        without += 2 * s.counters().nodes_expanded;
    }
    assert!(
        with_vcs * 4 < without,
        "{with_vcs} expansions with vcs, {without} without"
    );
}

#[test]
fn the_inspector_tells_a_connection_from_a_finished_game() {
    // A node settled by H-search is a finished leaf for the functions but
    // not a finished game, and the inspector says which it is.
    use pnlab::game::hex::vc::HSearchRules;
    use pnlab::game::hex::Hex;
    use pnlab::search::cns::hex_vcs::HexVcs;
    use pnlab::search::snapshot::ViewRequest;
    let g = Hex::parse("5:a1").expect("a position");
    let opts = CnsOptions {
        hex_vcs: Some(HexVcs {
            rules: HSearchRules::default(),
            mustplay: true,
        }),
        ..CnsOptions::scns()
    };
    let mut s = Cns::new("scns", g, question(Goal::Win), opts);
    finish(&mut s);
    let arena = s.arena();
    let settled = (1..arena.len() as u32)
        .find(|&i| arena.get(i).is_terminal() && arena.position_at(&g, i).outcome().is_none())
        .expect("a node settled by a connection");
    let req = ViewRequest {
        inspect: Some(settled as _),
        ..ViewRequest::default()
    };
    let text = format!(
        "{:?}",
        s.snapshot(&req).inspection.expect("an inspection").formulas
    );
    assert!(text.contains("virtual connection"), "{text}");
    assert!(!text.contains("finished game"), "{text}");
}
