//! Move-choice tracking and tree bookkeeping of the Monte-Carlo family:
//! after a proof every algorithm names a winning root move (checked with
//! the exhaustive reference), MCTS trees grow by exactly one node per
//! iteration with consistent visit counts, UCT selects by visits (not
//! playouts), and snapshots carry the values
//! the UI draws.

use pnlab::game::pgame::PGame;
use pnlab::game::{Game, Player};
use pnlab::search::registry::{build, find_algo};
use pnlab::search::snapshot::{NodeStatus, ViewRequest};
use pnlab::search::{reference, Goal, Params, Question, QuestionKind, SearchSetup, Status};

fn setup(g: &PGame, algo: &str, seed: u64) -> SearchSetup {
    SearchSetup {
        position: g.clone().into_any(),
        params: Params::defaults(find_algo(algo).unwrap().params),
        seed,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    }
}

#[test]
fn after_a_proof_every_algorithm_names_a_winning_move() {
    let q = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    let mut proofs = 0;
    for seed in 0..60u64 {
        let g = PGame::new(3, 6, seed).unwrap();
        let winning = reference::winning_moves(&g, &q);
        for algo in ["ppn", "pns", "mcpn", "mcts-solver", "uct-solver"] {
            let mut s = build(algo, &setup(&g, algo, seed)).unwrap();
            let mut guard = 0;
            while !s.step().is_final() {
                guard += 1;
                assert!(guard < 1_000_000, "{algo} does not finish");
            }
            if s.status() == Status::Proved {
                proofs += 1;
                let k = s.sample().best_child.expect("a named move after a proof");
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                assert!(
                    winning.contains(&moves[k as usize]),
                    "{algo} names a non-winning move on {}",
                    g.notation()
                );
                let label = s.best_move().unwrap();
                assert_eq!(g.parse_move(&label), Ok(moves[k as usize]));
            }
        }
    }
    assert!(proofs > 50, "only {proofs} proofs: the check is too weak");
}

#[test]
fn mcts_trees_grow_one_node_per_iteration_with_consistent_visits() {
    for algo in ["mcts-solver", "uct-solver"] {
        let g = PGame::new(4, 10, 9).unwrap();
        let mut s = build(algo, &setup(&g, algo, 1)).unwrap();
        for _ in 0..500 {
            s.step();
        }
        let c = s.counters().clone();
        assert_eq!(c.iterations, 500);
        assert_eq!(c.nodes_created, 501);
        let snap = s.snapshot(&ViewRequest {
            max_depth: 64,
            max_nodes: 100_000,
            ..Default::default()
        });
        assert_eq!(snap.value_names, vec!["visits", "mean", "playouts"]);
        assert_eq!(snap.nodes.len(), 501, "the snapshot shows the tree nodes");
        // n counts visits (Winands et al. 2008): every iteration passes
        // through the root, which also had its own first visit; the
        // playouts behind the mean are K = 10 per tree node.
        assert_eq!(snap.nodes[0].values[0], 501.0);
        assert_eq!(snap.nodes[0].values[2], 10.0 * 501.0);
        // A node's visits are its own first visit plus its children's; its
        // playouts its own K plus its children's.
        for (i, n) in snap.nodes.iter().enumerate() {
            let kids = |v: usize| -> f64 {
                snap.nodes
                    .iter()
                    .filter(|m| m.parent == Some(i as u32))
                    .map(|m| m.values[v])
                    .sum()
            };
            assert_eq!(n.values[0], 1.0 + kids(0), "visits of node {i}");
            assert_eq!(n.values[2], 10.0 + kids(2), "playouts of node {i}");
            assert!((-1.0..=1.0).contains(&n.values[1]));
            if n.terminal {
                // A leaf's mean is its exact result for the player who moved
                // into it: ±1 or 0.
                assert!([-1.0, 0.0, 1.0].contains(&n.values[1]));
                assert_ne!(n.status, NodeStatus::Unknown);
            }
        }
    }
}

/// The UCT rule of Winands et al. with n = visits, recomputed here from
/// the snapshot's numbers: wherever the next iteration's path leaves a
/// node whose children are all in the tree and unsolved, it goes to the
/// child maximising v + √(C·ln n_parent / n_child). A count of playouts in
/// place of visits would pick other children (the bonus shrinks by √K).
#[test]
fn uct_selects_by_visit_counts() {
    let mut checked = 0;
    for seed in 0..20u64 {
        let g = PGame::new(3, 12, seed).unwrap();
        let mut s = build("uct-solver", &setup(&g, "uct-solver", seed)).unwrap();
        for step in 0..400 {
            if s.step().is_final() {
                break;
            }
            if step % 37 != 36 {
                continue;
            }
            let snap = s.snapshot(&ViewRequest {
                max_depth: 64,
                max_nodes: 100_000,
                ..Default::default()
            });
            let index = |id| snap.nodes.iter().position(|n| n.id == id).unwrap();
            for w in snap.selection_path.windows(2) {
                let (p, next) = (index(w[0]), index(w[1]));
                let kids: Vec<usize> = (0..snap.nodes.len())
                    .filter(|&m| snap.nodes[m].parent == Some(p as u32))
                    .collect();
                let all_in = kids.len() == 3;
                let unsolved = kids
                    .iter()
                    .all(|&m| snap.nodes[m].status == NodeStatus::Unknown);
                if !all_in || !unsolved || !kids.contains(&next) {
                    continue;
                }
                let ln_np = snap.nodes[p].values[0].ln();
                let score = |m: usize| {
                    let v = &snap.nodes[m].values;
                    v[1] + (2.0 * ln_np / v[0]).sqrt()
                };
                let best = kids
                    .iter()
                    .map(|&m| score(m))
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!(
                    (score(next) - best).abs() < 1e-12,
                    "seed {seed}, step {step}: UCT picked a child scoring {} < {best}",
                    score(next)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} selections checked");
}

#[test]
fn snapshots_carry_each_algorithms_values() {
    let g = PGame::new(2, 8, 4).unwrap();
    for (algo, names) in [
        ("ppn", vec!["ppn", "ln_ppn", "ln_1m_ppn"]),
        ("mcpn", vec!["pn", "dn"]),
    ] {
        let mut s = build(algo, &setup(&g, algo, 2)).unwrap();
        for _ in 0..20 {
            s.step();
        }
        let snap = s.snapshot(&ViewRequest {
            inspect: Some(0),
            ..Default::default()
        });
        assert_eq!(snap.value_names, names);
        assert_eq!(snap.root_children.len(), 2);
        for n in &snap.nodes {
            assert_eq!(n.values.len(), names.len());
            if algo == "ppn" {
                assert!((0.0..=1.0).contains(&n.values[0]));
                assert!((n.values[1].exp() - n.values[0]).abs() < 1e-12);
            } else if !n.terminal && n.status == NodeStatus::Unknown && !n.expanded {
                // Frontier: pn + dn = (1 − R') + R' = 1.
                assert!((n.values[0] + n.values[1] - 1.0).abs() < 1e-12);
            }
        }
        let insp = snap.inspection.unwrap();
        assert!(!insp.formulas.is_empty());
        assert!(snap.selection_path.len() >= 2);
        // The P-game's board view: the position and its move values.
        let pos = snap.position.unwrap();
        assert_eq!(pos.notation(), "b=2,d=8,seed=4");
        assert!(snap.root_children[0].move_label.contains(':'));
    }
}

#[test]
fn ppn_and_mcpn_never_select_solved_children() {
    // Deep enough that terminal children appear on the frontier.
    for algo in ["ppn", "mcpn"] {
        for seed in 0..20u64 {
            let g = PGame::new(3, 5, seed).unwrap();
            let mut s = build(algo, &setup(&g, algo, seed)).unwrap();
            let mut guard = 0u32;
            while !s.status().is_final() {
                guard += 1;
                assert!(guard < 100_000, "{algo} seed {seed} does not finish");
                let snap = s.snapshot(&ViewRequest {
                    max_depth: 0,
                    max_nodes: 1,
                    want_position: false,
                    ..Default::default()
                });
                // Every node on the path below the root is unsolved.
                for id in &snap.selection_path[1..] {
                    let n = snap.nodes.iter().find(|n| n.id == *id).unwrap();
                    assert_eq!(n.status, NodeStatus::Unknown, "{algo} seed {seed}");
                }
                s.step();
            }
        }
    }
}

#[test]
fn every_new_node_gets_k_playouts() {
    // d = 40: no terminal node can be reached in 60 iterations, so every
    // node (the root included) was evaluated by exactly K playouts.
    let g = PGame::new(2, 40, 3).unwrap();
    for algo in ["ppn", "mcpn", "mcts-solver", "uct-solver"] {
        for k in [1i64, 7, 10] {
            let info = find_algo(algo).unwrap();
            let mut params = Params::defaults(info.params);
            params.set(info.params, "K", &k.to_string()).unwrap();
            let mut st = setup(&g, algo, 0);
            st.params = params;
            let mut s = build(algo, &st).unwrap();
            for _ in 0..60 {
                s.step();
            }
            let c = s.counters();
            assert_eq!(c.playouts, k as u64 * c.nodes_created, "{algo} K={k}");
        }
    }
}
