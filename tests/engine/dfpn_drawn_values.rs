//! Every number a df-pn-family tree draws checks by hand: a node's drawn
//! pn/dn that is not marked stored follows the min/sum rule over the
//! children drawn under it (ghost children included, shared children
//! through their extra edges), and every child the rule counts is drawn.
//! Ghost children carry the unknown-node value: 1 in df-pn, E^(D−d) in
//! Deep df-pn at depth d < D. A stored mark is only ever needed on the
//! current MID path on a tree without transpositions (where no table
//! entry can go stale behind the search's back).
//!
//! Walked: every lesson step (the lesson player's snapshot, and the whole
//! tree of its search), every df-pn variant on every bundled tree at
//! every iteration, and `dfpn-fast` (one and two threads, its mobility
//! initialisation and the unit one) on the bundled trees and on small
//! Othello and Connect Four endgames. `dfpn-fast`'s ghosts carry its
//! initial numbers: (1, m) where the attacker moves and (m, 1) where the
//! defender moves under `init = mobility` (m the moves the node has;
//! Othello counts a corner move twice), (1, 1) under `init = unit`.

use std::path::{Path, PathBuf};

use pnlab::game::othello::Othello;
use pnlab::game::{AnyPosition, Game};
use pnlab::lesson::{self, Lesson};
use pnlab::positions;
use pnlab::search::registry;
use pnlab::search::snapshot::{NodeKind, NodeStatus, ValueSource};
use pnlab::search::{Search, SearchSetup, Snapshot, ViewRequest};
use pnlab::with_position;

use crate::helpers::crate_root;

const FAMILY: &[&str] = &["dfpn", "dfpn-eps", "deep-dfpn", "dfpn-ghi"];

/// What the walk saw.
#[derive(Default, Debug)]
struct Tally {
    checked: usize,
    stored: usize,
    ghosts: usize,
    /// Solved positions drawn as leaves though not finished games (a
    /// frontier solver's answers, or results read at a call's entry).
    solved_leaves: usize,
    /// Nodes with a move back into their own path (a repetition), whose
    /// value the loop rule gives and no drawn node carries.
    with_loops: usize,
}

fn value(snap: &Snapshot, i: usize, name: &str) -> f64 {
    let k = snap
        .value_names
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("{}: no value {name}", snap.algo));
    snap.nodes[i].values[k]
}

/// E^(D−d) for d < D (and E > 1), else 1: Deep df-pn's unknown-node value
/// as the thesis defines it.
fn unknown_value(snap: &Snapshot, depth: u32) -> f64 {
    let extra = |k: &str| {
        snap.extras
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.parse::<u32>().expect("an integer"))
    };
    match (extra("E"), extra("D")) {
        (Some(e), Some(d)) if d > depth && e > 1 => f64::from(e).powi((d - depth) as i32),
        _ => 1.0,
    }
}

/// The numbers a ghost (node `i` of `snap`) must carry.
type GhostRule<'a> = &'a dyn Fn(&Snapshot, usize) -> (f64, f64);

/// df-pn's and Deep df-pn's ghosts: the unknown-node value at their depth.
fn plain_ghost(snap: &Snapshot, i: usize) -> (f64, f64) {
    let v = unknown_value(snap, snap.nodes[i].depth);
    (v, v)
}

/// df-pn+ style mobility: (1, m) at OR, (m, 1) at AND, m the node's
/// children (every one it has, the ghost's own `n_children`).
fn mobility_ghost(snap: &Snapshot, i: usize) -> (f64, f64) {
    let n = &snap.nodes[i];
    let m = f64::from(n.n_children.max(1));
    match n.kind {
        NodeKind::Or => (1.0, m),
        _ => (m, 1.0),
    }
}

fn unit_ghost(_: &Snapshot, _: usize) -> (f64, f64) {
    (1.0, 1.0)
}

fn check(snap: &Snapshot, what: &str, tally: &mut Tally) {
    check_with(snap, what, tally, &plain_ghost, true);
}

/// Checks every drawn number of `snap`; `ghost` gives a ghost's numbers;
/// `sequential`: one search thread, so without transpositions only the
/// MID path can hold stored numbers.
fn check_with(snap: &Snapshot, what: &str, tally: &mut Tally, ghost: GhostRule, sequential: bool) {
    let on_path: std::collections::HashSet<u64> = snap.selection_path.iter().copied().collect();
    for (i, n) in snap.nodes.iter().enumerate() {
        let (pn, dn) = (value(snap, i, "pn"), value(snap, i, "dn"));
        match n.source {
            ValueSource::Ghost => {
                tally.ghosts += 1;
                let v = ghost(snap, i);
                assert_eq!(
                    (pn, dn),
                    v,
                    "{what}: ghost {} ({:?}, {} children) counts {v:?}",
                    n.move_label,
                    n.kind,
                    n.n_children
                );
                assert!(n.parent.is_some(), "{what}: a ghost has a parent");
                continue;
            }
            ValueSource::Stored => {
                tally.stored += 1;
                if sequential && snap.extra_edges.is_empty() {
                    assert!(
                        on_path.contains(&n.id),
                        "{what}: node {} is marked stored off the MID path",
                        n.move_label
                    );
                }
                continue;
            }
            ValueSource::Computed => {}
        }
        if !n.terminal && !n.expanded && (pn == 0.0 || dn == 0.0) {
            tally.solved_leaves += 1;
        }
        if n.terminal || !n.expanded || n.truncated {
            continue;
        }
        if snap
            .extra_edges
            .iter()
            .any(|e| e.back && e.from as usize == i)
        {
            tally.with_loops += 1;
            continue;
        }
        let mut kids: Vec<usize> = (0..snap.nodes.len())
            .filter(|&c| snap.nodes[c].parent == Some(i as u32))
            .collect();
        kids.extend(
            snap.extra_edges
                .iter()
                .filter(|e| !e.back && e.from as usize == i)
                .map(|e| e.to as usize),
        );
        assert_eq!(
            kids.len() as u32,
            n.n_children,
            "{what}: node '{}' ({pn}/{dn}) draws {} of the {} children it counts",
            n.move_label,
            kids.len(),
            n.n_children
        );
        let pns: Vec<f64> = kids.iter().map(|&c| value(snap, c, "pn")).collect();
        let dns: Vec<f64> = kids.iter().map(|&c| value(snap, c, "dn")).collect();
        let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let sum = |v: &[f64]| v.iter().sum::<f64>();
        let want = match n.kind {
            NodeKind::Or => (min(&pns), sum(&dns)),
            _ => (sum(&pns), min(&dns)),
        };
        assert_eq!(
            (pn, dn),
            want,
            "{what}: node '{}' ({:?}) draws {pn}/{dn} over children pn {pns:?} dn {dns:?}",
            n.move_label,
            n.kind
        );
        tally.checked += 1;
    }
}

fn whole_tree() -> ViewRequest {
    ViewRequest {
        max_depth: 64,
        max_nodes: 100_000,
        ..ViewRequest::default()
    }
}

fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    crate::helpers::sorted_entries(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect()
}

#[test]
fn every_lesson_step_draws_numbers_that_add_up() {
    let mut tally = Tally::default();
    let mut steps = 0;
    for path in files(&crate_root().join("lessons"), ".lesson.toml") {
        let l = Lesson::load_file(&path).unwrap();
        for k in 0..l.len() {
            let st = lesson::play(&l, k).unwrap();
            if !FAMILY.contains(&st.snapshot.algo.as_str()) {
                continue;
            }
            steps += 1;
            let what = format!("{} step {}", path.display(), k + 1);
            check(&st.snapshot, &what, &mut tally);
            check(
                &st.search.snapshot(&whole_tree()),
                &format!("{what} (whole tree)"),
                &mut tally,
            );
        }
    }
    eprintln!("{steps} df-pn lesson steps: {tally:?}");
    assert!(steps >= 8, "the course's df-pn steps were walked ({steps})");
    assert!(
        tally.checked > 50 && tally.ghosts > 0 && tally.stored > 0,
        "{tally:?}"
    );
}

#[test]
fn the_issues_examples_are_marked_or_complete() {
    let load = |name: &str| Lesson::load_file(&crate_root().join("lessons").join(name)).unwrap();
    // Lesson 4 step 2: the root counts three children; all three are drawn.
    let st = lesson::play(&load("04-dfpn-thresholds.lesson.toml"), 1).unwrap();
    let snap = st.search.snapshot(&whole_tree());
    let root_kids = snap.nodes.iter().filter(|n| n.parent == Some(0)).count();
    assert_eq!(
        root_kids as u32, snap.nodes[0].n_children,
        "lesson 4 step 2"
    );
    assert!(snap.nodes.iter().any(|n| n.source == ValueSource::Ghost));
    // Lesson 5 step 2 and lesson 9 step 2 draw a number that the children
    // contradict: it is marked stored.
    for (file, k) in [
        ("05-one-plus-eps-and-deep-dfpn.lesson.toml", 1),
        ("09-graph-history-interaction.lesson.toml", 1),
    ] {
        let st = lesson::play(&load(file), k).unwrap();
        assert!(
            st.snapshot
                .nodes
                .iter()
                .any(|n| n.source == ValueSource::Stored),
            "{file} step {}: a stored value is marked",
            k + 1
        );
    }
}

#[test]
fn every_dfpn_variant_draws_numbers_that_add_up_on_the_bundled_trees() {
    let mut tally = Tally::default();
    let variants: &[(&str, &[(&str, &str)])] = &[
        ("dfpn", &[]),
        ("dfpn-ghi", &[]),
        ("dfpn-eps", &[]),
        ("dfpn-eps", &[("eps", "2")]),
        ("deep-dfpn", &[]),
        ("deep-dfpn", &[("E", "3"), ("D", "3")]),
    ];
    let trees = files(&crate_root().join("positions/trees"), ".tree");
    assert!(trees.len() >= 10);
    let mut chance_trees = 0;
    for path in &trees {
        let entry = positions::load_file(path).unwrap().remove(0);
        if entry.position.has_chance_nodes() {
            // Proof searches refuse die rolls (the expectimax family's).
            chance_trees += 1;
            continue;
        }
        for &(algo, params) in variants {
            let setup = SearchSetup::new(algo, entry.position.clone(), params).unwrap();
            let mut s: Box<dyn Search> = registry::build(algo, &setup).unwrap();
            for it in 0..400 {
                let what = format!("{} {algo} {params:?} iteration {it}", path.display());
                check(&s.snapshot(&whole_tree()), &what, &mut tally);
                if s.step().is_final() {
                    check(
                        &s.snapshot(&whole_tree()),
                        &format!("{what} (end)"),
                        &mut tally,
                    );
                    break;
                }
            }
        }
    }
    eprintln!("{tally:?}, {chance_trees} chance tree(s) left to the expectimax family");
    assert!(chance_trees <= 1);
    assert!(
        tally.checked > 1000 && tally.ghosts > 100 && tally.stored > 100,
        "{tally:?}"
    );
}

/// One search configuration to walk: the algorithm, its parameters, the
/// numbers its ghosts must carry, and whether it runs one thread.
struct Run<'a> {
    algo: &'a str,
    params: &'a [(&'a str, &'a str)],
    ghost: GhostRule<'a>,
    sequential: bool,
}

/// Steps `run` on `pos` and checks the whole tree (and `extra`) before
/// the first step, after every step and at the end, for at most `steps`
/// steps; false when the search refused the position.
fn walk(
    run: &Run,
    pos: &AnyPosition,
    name: &str,
    steps: usize,
    extra: &dyn Fn(&Snapshot, &str),
    tally: &mut Tally,
) -> bool {
    let Run {
        algo,
        params,
        ghost,
        sequential,
    } = *run;
    let setup = SearchSetup::new(algo, pos.clone(), params).unwrap();
    let mut s: Box<dyn Search> = match registry::build(algo, &setup) {
        Ok(s) => s,
        Err(e) => {
            // dfpn-fast keys its table by position: it refuses graphs
            // whose results depend on the path.
            assert!(
                with_position!(pos, g => g.history_dependent()),
                "{name} {algo}: {e}"
            );
            return false;
        }
    };
    for it in 0..steps {
        let what = format!("{name} {algo} {params:?} iteration {it}");
        let snap = s.snapshot(&whole_tree());
        check_with(&snap, &what, tally, ghost, sequential);
        extra(&snap, &what);
        if s.step().is_final() {
            let what = format!("{what} (end)");
            let snap = s.snapshot(&whole_tree());
            check_with(&snap, &what, tally, ghost, sequential);
            extra(&snap, &what);
            break;
        }
    }
    true
}

/// A run of `algo` with `params`.
fn run<'a>(
    algo: &'a str,
    params: &'a [(&'a str, &'a str)],
    ghost: GhostRule<'a>,
    sequential: bool,
) -> Run<'a> {
    Run {
        algo,
        params,
        ghost,
        sequential,
    }
}

#[test]
fn dfpn_fast_draws_numbers_that_add_up_on_the_bundled_trees() {
    let mut tally = Tally::default();
    let variants = [
        run("dfpn-fast", &[], &mobility_ghost, true),
        run("dfpn-fast", &[("init", "unit")], &unit_ghost, true),
        run(
            "dfpn-fast",
            &[("init", "unit"), ("order", "generation")],
            &unit_ghost,
            true,
        ),
        run("dfpn-fast", &[("threads", "2")], &mobility_ghost, false),
        run(
            "dfpn-fast",
            &[("threads", "2"), ("init", "unit")],
            &unit_ghost,
            false,
        ),
        // The plain variants with two threads: the main thread is the
        // sequential search, taking the helper's proofs (see `dfpn::team`).
        run("dfpn", &[("threads", "2")], &plain_ghost, false),
        run(
            "deep-dfpn",
            &[("threads", "2"), ("E", "3"), ("D", "3")],
            &plain_ghost,
            false,
        ),
    ];
    let (mut runs, mut refused) = (0, 0);
    for path in files(&crate_root().join("positions/trees"), ".tree") {
        let entry = positions::load_file(&path).unwrap().remove(0);
        if entry.position.has_chance_nodes() {
            continue;
        }
        let name = path.display().to_string();
        for v in &variants {
            if walk(v, &entry.position, &name, 400, &|_, _| {}, &mut tally) {
                runs += 1;
            } else {
                refused += 1;
            }
        }
    }
    eprintln!("{runs} runs, {refused} refused (cyclic): {tally:?}");
    assert!(runs >= 50, "{runs} runs");
    assert!(
        tally.checked > 500 && tally.ghosts > 100 && tally.stored > 50,
        "{tally:?}"
    );
}

/// The Othello position of node `i` of `snap`: its moves replayed from
/// `root`.
fn othello_at(root: &Othello, snap: &Snapshot, i: usize) -> Othello {
    let mut labels = Vec::new();
    let mut at = Some(i);
    while let Some(k) = at {
        labels.push(snap.nodes[k].move_label.clone());
        at = snap.nodes[k].parent.map(|p| p as usize);
    }
    let mut g = *root;
    for l in labels.iter().rev().filter(|l| !l.is_empty()) {
        let m = g.parse_move(l).expect("a drawn move is legal");
        g.play(m);
    }
    g
}

/// Othello's mobility as `dfpn-fast` counts it (its documented rule): the
/// legal moves with a corner move counted twice, a forced pass 1.
fn othello_ghost(root: &Othello) -> impl Fn(&Snapshot, usize) -> (f64, f64) + '_ {
    move |snap, i| {
        let g = othello_at(root, snap, i);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let corners = ["a1", "h1", "a8", "h8"];
        let m = moves
            .iter()
            .map(|&mv| {
                if corners.contains(&g.format_move(mv).as_str()) {
                    2.0
                } else {
                    1.0
                }
            })
            .sum::<f64>()
            .max(1.0);
        match snap.nodes[i].kind {
            NodeKind::Or => (1.0, m),
            _ => (m, 1.0),
        }
    }
}

/// The frontier solver answers positions with at most `leaf` empty
/// squares outright: each one drawn is a leaf (and, held, a solved one).
fn othello_frontier_leaves(root: &Othello, leaf: u32) -> impl Fn(&Snapshot, &str) + '_ {
    move |snap, what| {
        for (i, n) in snap.nodes.iter().enumerate() {
            if n.terminal || othello_at(root, snap, i).empties() > leaf {
                continue;
            }
            assert!(
                !n.expanded,
                "{what}: frontier node {} expanded",
                n.move_label
            );
            if n.source != ValueSource::Ghost {
                assert_ne!(n.status, NodeStatus::Unknown, "{what}: {}", n.move_label);
            }
        }
    }
}

#[test]
fn dfpn_fast_draws_numbers_that_add_up_on_othello_and_connect_four() {
    let mut tally = Tally::default();
    let mut runs = 0;
    // Othello, 13 empties: the frontier solver answers the positions
    // with at most 7 (drawn as solved leaves).
    let file = crate_root().join("positions/othello/jeffreyan11-13-empties.toml");
    for entry in positions::load_file(&file).unwrap().into_iter().take(2) {
        let AnyPosition::Othello(g) = &entry.position else {
            panic!("{}: an Othello position", entry.name);
        };
        let ghost = othello_ghost(g);
        let leaves = othello_frontier_leaves(g, 7);
        let name = format!("{} {}", file.display(), entry.name);
        let runs_here = [
            run("dfpn-fast", &[("leaf_empties", "7")], &ghost, true),
            run(
                "dfpn-fast",
                &[("leaf_empties", "7"), ("threads", "2")],
                &ghost,
                false,
            ),
            run(
                "dfpn-fast",
                &[("leaf_empties", "7"), ("init", "unit")],
                &unit_ghost,
                true,
            ),
        ];
        for r in &runs_here {
            assert!(walk(r, &entry.position, &name, 300, &leaves, &mut tally));
            runs += 1;
        }
    }
    // Connect Four, 29 stones and more: the tactics expand only the moves
    // that do not lose at once (a ghost's children are those), the
    // frontier solver answers 6 empty cells or fewer. The threat-aware
    // initial numbers are off so that a ghost counts plain mobility.
    let file = crate_root().join("positions/connect4/Test_L3_R1-first12");
    for entry in positions::load_file(&file).unwrap().into_iter().take(3) {
        let name = format!("{} {}", file.display(), entry.name);
        let base = [("leaf_cells", "6"), ("threat_init", "off")];
        let two = [base[0], base[1], ("threads", "2")];
        for r in [
            run("dfpn-fast", &base, &mobility_ghost, true),
            run("dfpn-fast", &two, &mobility_ghost, false),
        ] {
            assert!(walk(
                &r,
                &entry.position,
                &name,
                300,
                &|_, _| {},
                &mut tally
            ));
            runs += 1;
        }
    }
    eprintln!("{runs} runs: {tally:?}");
    assert!(
        tally.checked > 500 && tally.ghosts > 500 && tally.solved_leaves > 10,
        "{tally:?}"
    );
}
