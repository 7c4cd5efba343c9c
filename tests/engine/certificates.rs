//! Proof certificates: every registered algorithm's proofs and disproofs
//! on seeded random positions of every game (and the bundled trees)
//! verify with the game rules alone; certificates corrupted in seeded
//! random ways (a move changed, a child removed from an `all` node, a leaf
//! result flipped, a line cut, the answer flipped) are all rejected, with
//! the path to the bad node; and the CLI's `solve --proof` / `verify`
//! contract (exit 0 valid, 1 invalid, 2 unreadable).

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::certificate::{verify, Certificate, NodeBody, Verdict};
use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::{self, proof, reference, QuestionKind, SearchSetup, Status};
use pnlab::with_position;

use crate::common;
use common::search_run::{algo_setup, iteration_budget};
use common::{parse, pnlab, random_walk};

/// Test positions: a few of every game, and the bundled teaching trees.
fn positions() -> Vec<AnyPosition> {
    let mut rng = SmallRng::seed_from_u64(0xCE57);
    let othello = parse(
        GameKind::Othello,
        "---------------------------OX------XO--------------------------- X",
    );
    let mut out = Vec::new();
    let mut want = |make: &mut dyn FnMut(&mut SmallRng) -> Option<AnyPosition>, n: usize| {
        let mut got = 0;
        while got < n {
            if let Some(p) = make(&mut rng) {
                out.push(p);
                got += 1;
            }
        }
    };
    want(
        &mut |r| {
            random_walk(
                &parse(GameKind::TicTacToe, "........."),
                r.random_range(0..5),
                r,
            )
        },
        6,
    );
    want(
        &mut |r| random_walk(&parse(GameKind::Connect4, ""), r.random_range(30..34), r),
        6,
    );
    want(
        &mut |r| random_walk(&parse(GameKind::Hex, "3:"), r.random_range(0..4), r),
        4,
    );
    want(&mut |r| random_walk(&othello, r.random_range(52..56), r), 6);
    want(
        &mut |r| {
            let (b, d, seed) = (
                r.random_range(2..4),
                r.random_range(2..6),
                r.random::<u32>(),
            );
            Some(parse(GameKind::PGame, &format!("b={b},d={d},seed={seed}")))
        },
        4,
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees");
    for f in crate::helpers::sorted_entries(&dir) {
        for e in pnlab::positions::load_file(&f).expect("tree file") {
            // Chance trees ask for an expected score, not a proof.
            if e.position.outcome().is_none() && !e.position.has_chance_nodes() {
                out.push(e.position);
            }
        }
    }
    out
}

/// Algorithms that keep every solved node of their proof (tree searches
/// and the df-pn family with a table that does not lose entries): their
/// certificates must come from their own solved nodes alone.
const KEEPS_PROOF: &[&str] = &[
    "pns",
    "deep-pn",
    "dfpn",
    "dfpn-eps",
    "deep-dfpn",
    "ppn",
    "mcpn",
    "mcts-solver",
    "uct-solver",
];

/// Runs `algo` on `pos`; `None` when the algorithm declines the position
/// (a value search such as alphabeta on a game without an evaluation).
fn solve(
    algo: &str,
    pos: &AnyPosition,
    q: QuestionKind,
) -> Option<(Box<dyn search::Search>, SearchSetup)> {
    let setup = algo_setup(algo, pos, &[], q, 3);
    let mut s = match search::build(algo, &setup) {
        Ok(s) => s,
        Err(e) => {
            assert!(
                !KEEPS_PROOF.contains(&algo),
                "{algo} must search {}: {e}",
                pos.notation()
            );
            return None;
        }
    };
    search::run(s.as_mut(), &iteration_budget(2_000_000), None);
    Some((s, setup))
}

#[test]
fn every_algorithms_proofs_and_disproofs_verify() {
    let set = positions();
    let mut checked = 0;
    let mut proofs = 0;
    for algo in search::algorithms().iter().map(|a| a.name) {
        for pos in &set {
            for q in [QuestionKind::Win, QuestionKind::NotLose] {
                let Some((s, setup)) = solve(algo, pos, q) else {
                    continue;
                };
                let st = s.status();
                if !matches!(st, Status::Proved | Status::Disproved) {
                    continue;
                }
                let (cert, stats) = proof::certificate(s.as_ref(), &setup, 50_000_000)
                    .unwrap_or_else(|e| panic!("{algo} {q:?} {}: {e}", pos.notation()));
                let text = cert.to_text();
                let back = Certificate::parse(&text).expect("the writer's text parses");
                let verdict = verify(&back).expect("root parses");
                let words = setup.root_question().answer_name(st);
                match verdict {
                    Verdict::Valid { answer, positions } => {
                        assert_eq!(answer, words, "{algo} {}", pos.notation());
                        assert_eq!(positions, cert.size(), "{algo} {}", pos.notation());
                    }
                    v => panic!("{algo} {q:?} {}: {}", pos.notation(), v.line()),
                }
                // On a cyclic graph a solved node's result may hold only on
                // the path it was found on, so the writer re-derives it.
                let history = pnlab::with_position!(pos, g => {
                    use pnlab::game::Game;
                    g.history_dependent()
                });
                if KEEPS_PROOF.contains(&algo) && !history {
                    assert_eq!(
                        stats.by_writer,
                        0,
                        "{algo} {q:?} {}: the writer had to complete the search's proof",
                        pos.notation()
                    );
                }
                checked += 1;
                proofs += usize::from(st == Status::Proved);
            }
        }
    }
    assert!(checked > 500, "only {checked} certificates");
    assert!(
        proofs > 100 && checked - proofs > 100,
        "{proofs} of {checked}"
    );
}

/// The id of a node of `c` whose body `is_kind` accepts, drawn with
/// `rng`; `None` when no node is of that kind.
fn random_node(c: &Certificate, rng: &mut SmallRng, is_kind: fn(&NodeBody) -> bool) -> Option<u32> {
    let ids: Vec<u32> = c
        .nodes
        .iter()
        .filter(|n| is_kind(&n.body))
        .map(|n| n.id)
        .collect();
    (!ids.is_empty()).then(|| ids[rng.random_range(0..ids.len())])
}

/// The position of every node, by walking the certificate from the root
/// (the test's own walk, for the corruption checks).
fn node_positions(c: &Certificate) -> HashMap<u32, (AnyPosition, Vec<String>)> {
    let root = parse(c.game, &c.position);
    let mut out = HashMap::new();
    let mut stack = vec![(0u32, root, Vec::<String>::new())];
    while let Some((id, pos, path)) = stack.pop() {
        if out.contains_key(&id) {
            continue;
        }
        let kids: Vec<(String, u32)> = match &c.nodes[id as usize].body {
            NodeBody::One(m, k) => vec![(m.clone(), *k)],
            NodeBody::All(l) => l.clone(),
            NodeBody::End(_) => Vec::new(),
        };
        for (m, k) in kids {
            let mut p = path.clone();
            p.push(m.clone());
            stack.push((k, pos.after_move(&m).expect("legal"), p));
        }
        out.insert(id, (pos, path));
    }
    out
}

/// Certificates to corrupt: proofs and disproofs of a few games.
fn samples() -> Vec<Certificate> {
    let mut out = Vec::new();
    let mut rng = SmallRng::seed_from_u64(77);
    let othello = parse(
        GameKind::Othello,
        "---------------------------OX------XO--------------------------- X",
    );
    let mut picks: Vec<(&str, AnyPosition)> = Vec::new();
    while picks.len() < 4 {
        if let Some(p) = random_walk(&othello, 51, &mut rng) {
            picks.push((
                if picks.len().is_multiple_of(2) {
                    "dfpn"
                } else {
                    "dfpn-fast"
                },
                p,
            ));
        }
    }
    while picks.len() < 7 {
        if let Some(p) = random_walk(&parse(GameKind::Connect4, ""), 28, &mut rng) {
            picks.push(("pns", p));
        }
    }
    picks.push(("pns", parse(GameKind::TicTacToe, "x........")));
    picks.push(("mcts-solver", parse(GameKind::Hex, "3:")));
    for (algo, pos) in picks {
        for q in [QuestionKind::Win, QuestionKind::NotLose] {
            let (s, setup) = solve(algo, &pos, q).expect("pns and mcts-solver search every game");
            let (cert, _) = proof::certificate(s.as_ref(), &setup, 50_000_000).expect("cert");
            out.push(cert);
        }
    }
    assert!(out.iter().any(|c| c.proved) && out.iter().any(|c| !c.proved));
    out
}

/// Checks that `text` is rejected: a parse error or an invalid verdict.
fn rejected(text: &str) -> Option<Verdict> {
    match Certificate::parse(text) {
        Err(_) => None,
        Ok(c) => match verify(&c) {
            Err(_) => None,
            Ok(v @ Verdict::Invalid { .. }) => Some(v),
            Ok(v) => panic!("a corrupted certificate was accepted: {}\n{text}", v.line()),
        },
    }
}

#[test]
fn seeded_random_corruptions_are_all_rejected() {
    let mut rng = SmallRng::seed_from_u64(0xBAD);
    let mut kinds = [0usize; 5];
    for cert in samples() {
        let places = node_positions(&cert);
        let question = pnlab::search::Question {
            attacker: cert.attacker,
            goal: match cert.goal {
                pnlab::certificate::CertificateGoal::Win => pnlab::search::Goal::Win,
                pnlab::certificate::CertificateGoal::NotLose => pnlab::search::Goal::NotLose,
                pnlab::certificate::CertificateGoal::AtLeast(v) => pnlab::search::Goal::AtLeast(v),
            },
        };
        for round in 0..40 {
            let kind = round % 5;
            let mut c = cert.clone();
            // The node a local corruption touches (its check must name it).
            let mut touched: Option<u32> = None;
            let text = match kind {
                0 => {
                    // A `one` move changed: to a legal move that does not
                    // keep the claim (by the exhaustive reference), else to
                    // a move that is not legal at all.
                    let Some(id) = random_node(&c, &mut rng, |b| matches!(b, NodeBody::One(..)))
                    else {
                        continue;
                    };
                    let (pos, _) = &places[&id];
                    let NodeBody::One(m, _) = &c.nodes[id as usize].body else {
                        unreachable!()
                    };
                    let bad = pos.legal_move_names().into_iter().find(|x| {
                        x != m && {
                            let after = pos.after_move(x).expect("legal");
                            with_position!(&after, g => reference::answer_memo(g, &question))
                                != cert.proved
                        }
                    });
                    let child = match &c.nodes[id as usize].body {
                        NodeBody::One(_, k) => *k,
                        _ => unreachable!(),
                    };
                    c.nodes[id as usize].body =
                        NodeBody::One(bad.unwrap_or_else(|| "zz99".into()), child);
                    c.to_text()
                }
                1 => {
                    let Some(id) = random_node(&c, &mut rng, |b| matches!(b, NodeBody::All(..)))
                    else {
                        continue;
                    };
                    if let NodeBody::All(l) = &mut c.nodes[id as usize].body {
                        let k = rng.random_range(0..l.len());
                        l.remove(k);
                    }
                    touched = Some(id);
                    c.to_text()
                }
                2 => {
                    let id = random_node(&c, &mut rng, |b| matches!(b, NodeBody::End(_)))
                        .expect("a certificate has an end node");
                    if let NodeBody::End(s) = &mut c.nodes[id as usize].body {
                        *s = if *s == 0 { 1 } else { -*s };
                    }
                    touched = Some(id);
                    c.to_text()
                }
                3 => {
                    // A line cut: a node line removed, or the file cut at
                    // a random byte after the header.
                    let text = c.to_text();
                    let lines: Vec<&str> = text.lines().collect();
                    let first_node = lines
                        .iter()
                        .position(|l| l.starts_with("0 "))
                        .expect("node 0");
                    if round % 2 == 0 {
                        let k = rng.random_range(first_node..lines.len());
                        lines
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| *i != k)
                            .map(|(_, l)| format!("{l}\n"))
                            .collect()
                    } else {
                        let start: usize = lines[..first_node].iter().map(|l| l.len() + 1).sum();
                        let cut = rng.random_range(start..text.len() - 1);
                        text[..cut].to_string()
                    }
                }
                _ => {
                    c.proved = !c.proved;
                    c.to_text()
                }
            };
            kinds[kind] += 1;
            if let (Some(Verdict::Invalid { path, reason }), Some(id)) = (rejected(&text), touched)
            {
                assert_eq!(
                    reason.node(),
                    Some(id),
                    "kind {kind}: reported `{reason}`, corrupted node {id}"
                );
                // The reported path leads to the corrupted node's position.
                let root = parse(cert.game, &cert.position);
                let mut p = root;
                for m in &path {
                    p = p.after_move(m).expect("the reported path is legal");
                }
                // (By position key: Connect Four and Hex positions keep
                // their move order.)
                let key = |a: &AnyPosition| with_position!(a, g => pnlab::game::Game::hash(g));
                assert_eq!(key(&p), key(&places[&id].0), "kind {kind}: path {path:?}");
            }
        }
    }
    assert!(kinds.iter().all(|&k| k >= 20), "{kinds:?}");
}

#[test]
fn solve_writes_a_certificate_that_verify_accepts_and_rejects_when_broken() {
    let dir = crate::helpers::scratch_dir("cert-cli");
    let file = dir.join("c4.cert");
    let f = file.to_str().expect("utf-8 path");
    // The first position of Pascal Pons's Test_L2_R1 (bench suite).
    let (code, out, err) = pnlab(&[
        "solve",
        "--game",
        "connect4",
        "5554224333234511764415115",
        "--algo",
        "dfpn",
        "--proof",
        f,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"proof_file\""), "{out}");
    let (code, out, err) = pnlab(&["verify", f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("valid: "), "{out}");
    // A leaf's score changed: exit 1 with the path.
    let text = std::fs::read_to_string(&file).expect("written");
    let leaf = text
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("end"))
        .expect("a leaf");
    let id = leaf.split_whitespace().next().expect("id");
    let broken = text.replacen(&format!("{leaf}\n"), &format!("{id} end 7\n"), 1);
    assert_ne!(broken, text);
    std::fs::write(&file, broken).expect("write");
    let (code, out, _) = pnlab(&["verify", f]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("invalid: "), "{out}");
    // Garbage: exit 2 with file:line:col.
    std::fs::write(&file, "pnlab-certificate 1\ngame chess\n").expect("write");
    let (code, _, err) = pnlab(&["verify", f]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{f}:2:6:")), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
