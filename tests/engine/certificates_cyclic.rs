//! Certificates on cyclic graphs (tree files with `loops = …`), where the
//! value of a node depends on the path that reached it.
//!
//! - Forged certificates that share a node between two paths on which
//!   its value differs are rejected: the one of issue #26 (and the same
//!   with the paths checked in the other order), one that shares a
//!   repetition leaf between two loopers, and one whose node lies below
//!   itself.
//! - Every answer the GHI-safe searches (`dfpn-ghi`, `dfpn`, `dfs`,
//!   `pns`) give on a seeded set of random cyclic graphs, under the three
//!   loop rules and both questions, agrees with the tests' own path-aware
//!   evaluator (`common::cyclic_graph`), and its certificate verifies.
//! - Seeded mutations of those certificates (a child pointer redirected
//!   to another node, a move changed, a move dropped, a leaf's score
//!   changed, the answer flipped): every mutant `pnlab verify` accepts is
//!   checked by a second, plain checker written here that follows every
//!   path separately (no sharing at all) with the graph's own rules; none
//!   is an invalid proof.

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::certificate::{verify, Certificate, CertificateGoal, Flaw, NodeBody, Verdict};
use pnlab::game::{AnyPosition, GameKind, Player};
use pnlab::search::{self, proof, QuestionKind, SearchSetup, Status};

use crate::common;
use common::cyclic_graph::{CyclicGraph, GraphNode, LOOP_RULES};
use common::search_run::{algo_setup, build_and_run, iteration_budget};

/// A random graph of 3–11 nodes: node 0 and 1 inner nodes, the others
/// leaves (one in four) or inner nodes with 1–3 distinct children drawn
/// with a bias to earlier nodes (so cycles back towards the root are
/// common).
fn random_graph(rng: &mut SmallRng, rule: &'static str) -> CyclicGraph {
    let n = rng.random_range(3..=11);
    let is_leaf = |rng: &mut SmallRng, i: usize| i > 1 && rng.random_range(0..4) == 0;
    let children = |rng: &mut SmallRng, i: usize| {
        let mut cs: Vec<usize> = Vec::new();
        for _ in 0..rng.random_range(1..=3) {
            // Half the time a node after this one, else any node.
            let c = if i + 1 < n && rng.random_bool(0.5) {
                rng.random_range(i + 1..n)
            } else {
                rng.random_range(0..n)
            };
            if !cs.contains(&c) {
                cs.push(c);
            }
        }
        cs
    };
    CyclicGraph::random(rng, n, rule, is_leaf, children)
}

fn tree(text: &str) -> AnyPosition {
    AnyPosition::parse(GameKind::Tree, text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A certificate for `tree_text` with the given node lines.
fn certificate(tree_text: &str, goal: &str, answer: &str, nodes: &[&str]) -> String {
    let mut out = format!(
        "pnlab-certificate 1\ngame tree\nposition {}\nattacker first\ngoal {goal}\nanswer {answer}\nnodes {}\n",
        serde_json::Value::String(tree_text.to_string()),
        nodes.len()
    );
    for n in nodes {
        out.push_str(n);
        out.push('\n');
    }
    out.push_str("end\n");
    out
}

fn verdict(text: &str) -> Verdict {
    let c = Certificate::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify(&c).expect("the root parses")
}

/// The graph of issue #26: every path-aware evaluation says R is lost.
const ISSUE_GRAPH: &str = "loops = looper-loses
R or
  C and
    P1 or
      Y or &Y
        X and &X
          *Y
    P2 or
      *X
";

/// A certificate claiming that R of [`ISSUE_GRAPH`] is won, with these
/// node lines.
fn claimed_win(lines: &[&str]) -> String {
    certificate(ISSUE_GRAPH, "win", "proved", lines)
}

#[test]
fn the_forged_certificate_of_the_issue_is_rejected() {
    let AnyPosition::Tree(g) = tree(ISSUE_GRAPH) else {
        unreachable!()
    };
    assert_eq!(CyclicGraph::of_tree(&g).root_value(), -1, "R is lost");
    let forged = claimed_win(&[
        "0 one C 1",
        "1 all P1 2 P2 5",
        "2 one Y 3",
        "3 one X 4",
        "4 all Y 6",
        "5 one X 4",
        "6 end 1",
    ]);
    let Verdict::Invalid { path, reason } = verdict(&forged) else {
        panic!("the forged certificate was accepted");
    };
    assert_eq!(path, ["C", "P2", "X"], "{reason}");
    assert_eq!(reason.node(), Some(4), "{reason}");
    // The same sharing with the paths met in the other order: X is
    // checked first on the path through P2, where Y is no repetition.
    let other_order = claimed_win(&[
        "0 one C 1",
        "1 all P2 2 P1 5",
        "2 one X 3",
        "3 all Y 4",
        "4 end 1",
        "5 one Y 6",
        "6 one X 3",
    ]);
    let Verdict::Invalid { path, reason } = verdict(&other_order) else {
        panic!("the reordered forgery was accepted");
    };
    assert_eq!(path, ["C", "P2", "X", "Y"], "{reason}");
    assert!(matches!(reason, Flaw::NotOver { .. }), "{reason}");
    // Without any sharing the lie has nowhere to hide either.
    let unshared = claimed_win(&[
        "0 one C 1",
        "1 all P1 2 P2 5",
        "2 one Y 3",
        "3 one X 4",
        "4 all Y 6",
        "5 one X 7",
        "6 end 1",
        "7 all Y 8",
        "8 end 1",
    ]);
    assert!(matches!(verdict(&unshared), Verdict::Invalid { .. }));
    // The true answer certifies: the searches' disproof verifies.
    for algo in ["dfpn-ghi", "dfpn", "dfs", "pns"] {
        let (s, setup) = solve(algo, &tree(ISSUE_GRAPH), QuestionKind::Win);
        assert_eq!(s.status(), Status::Disproved, "{algo}");
        let (cert, _) = proof::certificate(s.as_ref(), &setup, 1_000_000).expect("certified");
        assert!(
            matches!(verdict(&cert.to_text()), Verdict::Valid { .. }),
            "{algo}"
        );
    }
}

/// X (an OR node) and Y (an AND node) both reach A, each from the other's
/// path: the repetition of A is won when Y closes the loop and lost when
/// X does, although the set of nodes on the path is the same. R is lost.
const LOOPERS: &str = "loops = looper-loses
R or
  A and &A
    X or &X
      Y and &Y
        *X
        *A
      *A
    *Y
";

#[test]
fn a_repetition_leaf_is_not_shared_between_two_loopers() {
    let AnyPosition::Tree(g) = tree(LOOPERS) else {
        unreachable!()
    };
    assert_eq!(CyclicGraph::of_tree(&g).root_value(), -1);
    let forged = certificate(
        LOOPERS,
        "win",
        "proved",
        &[
            "0 one A 1",
            "1 all X 2 Y 4",
            "2 one Y 3",
            "3 all X 5 A 6",
            "4 all X 7 A 8",
            "5 end 1",
            "6 end 1",
            "7 one A 6",
            "8 end 1",
        ],
    );
    let Verdict::Invalid { path, reason } = verdict(&forged) else {
        panic!("the shared repetition leaf was accepted");
    };
    assert_eq!(path, ["A", "Y", "X", "A"], "{reason}");
    // Written without the sharing, the leaf is checked where it is, and
    // the loop there is lost.
    let unshared = forged.replace("7 one A 6", "7 one A 8");
    let Verdict::Invalid { reason, .. } = verdict(&unshared) else {
        panic!("accepted");
    };
    assert!(
        matches!(reason, Flaw::WrongScore { actual: -1, .. }),
        "{reason}"
    );
}

#[test]
fn a_certificate_that_runs_round_a_cycle_is_rejected() {
    // Claim a win by going round the cycle Y-X-Y for ever.
    let forged = certificate(
        ISSUE_GRAPH,
        "not-lose",
        "proved",
        &[
            "0 one C 1",
            "1 all P1 2 P2 5",
            "2 one Y 3",
            "3 one X 4",
            "4 all Y 3",
            "5 one X 4",
        ],
    );
    let Verdict::Invalid { reason, .. } = verdict(&forged) else {
        panic!("the cycle was accepted");
    };
    assert!(matches!(reason, Flaw::Cycle { .. }), "{reason}");
}

fn solve(algo: &str, pos: &AnyPosition, q: QuestionKind) -> (Box<dyn search::Search>, SearchSetup) {
    let setup = algo_setup(algo, pos, &[], q, 5);
    let (s, _) = build_and_run(algo, &setup, &iteration_budget(1_000_000));
    (s, setup)
}

/// The second checker: follows every path of the certificate separately
/// on the test's own graph (moves are the labels of the nodes they enter),
/// so sharing cannot hide anything; true when the certificate is a valid
/// proof (or disproof).
fn plain_check(g: &CyclicGraph, c: &Certificate) -> bool {
    let holds = |score: i32| match c.goal {
        CertificateGoal::Win => score > 0,
        CertificateGoal::NotLose => score >= 0,
        CertificateGoal::AtLeast(v) => score >= v,
    };
    // The side that picks one move: the OR player in a proof (the
    // attacker here is the OR player), the AND player in a disproof.
    let one_kind = if c.proved {
        GraphNode::Or
    } else {
        GraphNode::And
    };
    // The child of `n` a move enters (siblings have different labels).
    let child = |n: usize, label: &str| {
        g.children[n]
            .iter()
            .copied()
            .find(|&x| g.labels[x] == label)
    };
    // (certificate node, graph node, path, the node the last move came from)
    let mut stack = vec![(0u32, 0usize, vec![0usize], None::<usize>)];
    let mut steps = 0;
    while let Some((id, n, path, from)) = stack.pop() {
        steps += 1;
        assert!(steps < 2_000_000, "the plain check went on too long");
        let Some(node) = c.nodes.get(id as usize) else {
            return false;
        };
        let repeated = path[..path.len() - 1].contains(&n);
        let terminal = match (repeated, g.kinds[n]) {
            (true, _) => Some(g.loop_score(from.expect("a repetition has a mover"))),
            (false, GraphNode::Leaf(v)) => Some(v),
            _ => None,
        };
        match (&node.body, terminal) {
            (NodeBody::End(s), Some(t)) => {
                if *s != t || holds(t) != c.proved {
                    return false;
                }
            }
            (NodeBody::End(_), None) | (_, Some(_)) => return false,
            (NodeBody::One(m, k), None) => {
                if g.kinds[n] != one_kind {
                    return false;
                }
                match child(n, m) {
                    Some(x) => {
                        let mut p = path.clone();
                        p.push(x);
                        stack.push((*k, x, p, Some(n)));
                    }
                    None => return false,
                }
            }
            (NodeBody::All(list), None) => {
                if g.kinds[n] == one_kind {
                    return false;
                }
                let listed: HashSet<Option<usize>> =
                    list.iter().map(|(m, _)| child(n, m)).collect();
                let legal: HashSet<Option<usize>> =
                    g.children[n].iter().map(|&x| Some(x)).collect();
                if listed != legal || list.len() != legal.len() {
                    return false;
                }
                for (m, k) in list {
                    let x = child(n, m).expect("checked above");
                    let mut p = path.clone();
                    p.push(x);
                    stack.push((*k, x, p, Some(n)));
                }
            }
        }
    }
    true
}

/// The graph node each certificate node stands for (by the first path
/// that reaches it from the root; `usize::MAX` for nodes not reached).
fn graph_nodes(g: &CyclicGraph, c: &Certificate) -> Vec<usize> {
    let mut at = vec![usize::MAX; c.nodes.len()];
    let mut stack = vec![(0u32, 0usize)];
    while let Some((id, n)) = stack.pop() {
        if at[id as usize] != usize::MAX {
            continue;
        }
        at[id as usize] = n;
        let kids: Vec<(String, u32)> = match &c.nodes[id as usize].body {
            NodeBody::One(m, k) => vec![(m.clone(), *k)],
            NodeBody::All(list) => list.clone(),
            NodeBody::End(_) => Vec::new(),
        };
        for (m, k) in kids {
            if let Some(&x) = g.children[n].iter().find(|&&x| g.labels[x] == m) {
                stack.push((k, x));
            }
        }
    }
    at
}

/// The GHI-safe searches, whose every answer must come with a
/// certificate.
const GHI_SAFE: [&str; 4] = ["dfpn-ghi", "dfpn", "dfs", "pns"];

/// Random cyclic graphs with the searches' certificates: (graph, tree
/// text, certificate).
fn certified_graphs(count: usize) -> Vec<(CyclicGraph, String, Certificate)> {
    let mut rng = SmallRng::seed_from_u64(0xC1C1E);
    let mut out = Vec::new();
    let mut answers = 0;
    let mut by_rule = [[0usize; 2]; 3];
    for i in 0..count {
        let rule = LOOP_RULES[i % 3];
        let g = random_graph(&mut rng, rule);
        let text = g.text();
        let pos = tree(&text);
        let truth = g.root_value();
        for (q, holds) in [
            (QuestionKind::Win, truth > 0),
            (QuestionKind::NotLose, truth >= 0),
        ] {
            for algo in GHI_SAFE {
                let (s, setup) = solve(algo, &pos, q);
                let st = s.status();
                let want = if holds {
                    Status::Proved
                } else {
                    Status::Disproved
                };
                assert_eq!(st, want, "{algo} {q:?} (value {truth})\n{text}");
                let (cert, _) = proof::certificate(s.as_ref(), &setup, 10_000_000)
                    .unwrap_or_else(|e| panic!("{algo} {q:?}: {e}\n{text}"));
                let back = Certificate::parse(&cert.to_text()).expect("parses");
                match verify(&back).expect("root parses") {
                    Verdict::Valid { answer, .. } => {
                        assert_eq!(answer, setup.root_question().answer_name(st))
                    }
                    v => panic!("{algo} {q:?}: {}\n{text}\n{}", v.line(), cert.to_text()),
                }
                assert!(plain_check(&g, &back), "{algo} {q:?}\n{text}");
                answers += 1;
                by_rule[i % 3][usize::from(holds)] += 1;
                if algo == "dfpn-ghi" {
                    out.push((g.clone(), text.clone(), back));
                }
            }
        }
    }
    eprintln!("{answers} answers certified; per rule [disproved, proved]: {by_rule:?}");
    // Both answers under every rule.
    assert!(by_rule.iter().all(|r| r[0] > 0 && r[1] > 0), "{by_rule:?}");
    out
}

#[test]
fn every_ghi_answer_on_random_cyclic_graphs_is_certified() {
    // 120 graphs × 2 questions = 240 dfpn-ghi answers (960 with the
    // other three searches).
    let certs = certified_graphs(120);
    assert_eq!(certs.len(), 240);
}

#[test]
fn seeded_mutations_of_cyclic_certificates_accept_no_invalid_proof() {
    let mut rng = SmallRng::seed_from_u64(0x5EED);
    let (mut accepted, mut rejected) = (0usize, 0usize);
    let mut kinds = [0usize; 5];
    let mut same_node_targets = 0usize;
    for (g, _, cert) in certified_graphs(120) {
        let n = cert.nodes.len() as u32;
        let at = graph_nodes(&g, &cert);
        for round in 0..40 {
            let kind = round % 5;
            let mut c = cert.clone();
            let ids: Vec<u32> = (0..n).collect();
            let id = ids[rng.random_range(0..ids.len())] as usize;
            // Another certificate node standing for the same graph node as
            // node `k` (reached by another path): the sharing the issue
            // forged; else (or one time in five) any node.
            let retarget = |k: u32, rng: &mut SmallRng, count: &mut usize| -> u32 {
                let same: Vec<u32> = (0..n)
                    .filter(|&x| x != k && at[x as usize] == at[k as usize])
                    .collect();
                if same.is_empty() || rng.random_bool(0.2) {
                    rng.random_range(0..n)
                } else {
                    *count += 1;
                    same[rng.random_range(0..same.len())]
                }
            };
            let changed = match (kind, &mut c.nodes[id].body) {
                (0, NodeBody::One(_, k)) => {
                    *k = retarget(*k, &mut rng, &mut same_node_targets);
                    true
                }
                (0, NodeBody::All(list)) => {
                    let j = rng.random_range(0..list.len());
                    list[j].1 = retarget(list[j].1, &mut rng, &mut same_node_targets);
                    true
                }
                // A move changed to another child's label.
                (1, NodeBody::One(m, _)) => {
                    *m = format!("n{}", rng.random_range(0..g.kinds.len()));
                    true
                }
                (2, NodeBody::All(list)) if !list.is_empty() => {
                    list.remove(rng.random_range(0..list.len()));
                    true
                }
                (3, NodeBody::End(s)) => {
                    *s = [-1, 0, 1][rng.random_range(0..3)];
                    true
                }
                (4, _) => {
                    c.proved = !c.proved;
                    true
                }
                _ => false,
            };
            if !changed || c == cert {
                continue;
            }
            kinds[kind] += 1;
            match verify(&c).expect("root parses") {
                Verdict::Valid { .. } => {
                    accepted += 1;
                    assert!(
                        plain_check(&g, &c),
                        "an invalid certificate was accepted:\n{}",
                        c.to_text()
                    );
                }
                Verdict::Invalid { .. } => rejected += 1,
            }
        }
    }
    eprintln!(
        "mutants: {accepted} accepted (each a valid proof), {rejected} rejected; by kind {kinds:?}; {same_node_targets} pointers moved to the same graph node on another path"
    );
    assert!(kinds.iter().all(|&k| k >= 50), "{kinds:?}");
    assert!(same_node_targets >= 100, "{same_node_targets}");
    assert!(rejected > 500, "{rejected}");
}

/// A disproof written by hand (R → C, the defender picks P2, the attacker
/// must go on to X, the defender to Y, and Y's only move closes the loop
/// that Y's mover, the attacker, loses) verifies with both checkers.
#[test]
fn a_hand_written_disproof_of_the_issue_graph_verifies() {
    let text = certificate(
        ISSUE_GRAPH,
        "win",
        "disproved",
        &[
            "0 all C 1",
            "1 one P2 2",
            "2 all X 3",
            "3 one Y 4",
            "4 all X 5",
            "5 end -1",
        ],
    );
    let c = Certificate::parse(&text).expect("parses");
    assert_eq!(c.attacker, Player::First);
    let v = verify(&c).expect("root");
    assert!(matches!(v, Verdict::Valid { .. }), "{}", v.line());
    let AnyPosition::Tree(g) = tree(ISSUE_GRAPH) else {
        unreachable!()
    };
    assert!(plain_check(&CyclicGraph::of_tree(&g), &c));
}
