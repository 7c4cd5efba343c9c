//! No move label is ever dropped (the tidy tree's scene, which the app,
//! the SVG export and the lesson frames all draw): every edge of the
//! bundled trees gets its move, at several zooms, in a free place (not
//! over another label or a node); the tic-tac-toe proof's winning move
//! and the path of the graph-history lesson are drawn.

use pnlab::layout::scene::LabelKind;
use pnlab::layout::{ApproxMeasure, SceneStyle, Tidy, TreeScene};
use pnlab::lesson::{self, Lesson};
use pnlab::positions;
use pnlab::search::registry;
use pnlab::search::{Search, SearchSetup, Snapshot, ViewRequest};

use crate::helpers::crate_root;

fn whole_tree() -> ViewRequest {
    ViewRequest {
        max_depth: 64,
        max_nodes: 100_000,
        ..ViewRequest::default()
    }
}

/// The scene of `snap` at `zoom`, checked: every edge has its move
/// label, and no label overlaps another label or a node. Returns the
/// scene.
fn check_moves(snap: &Snapshot, zoom: f32, what: &str) -> TreeScene {
    let tidy = Tidy::of(&snap.nodes);
    let style = SceneStyle::default().zoomed(zoom);
    let scene = TreeScene::build(snap, &tidy.pos, &style, &ApproxMeasure, None);
    for (i, n) in snap.nodes.iter().enumerate() {
        if n.parent.is_none() || n.move_label.is_empty() {
            continue;
        }
        let label = scene
            .labels
            .iter()
            .find(|l| l.node == i && l.kind == LabelKind::Move);
        let label =
            label.unwrap_or_else(|| panic!("{what} zoom {zoom}: move {} dropped", n.move_label));
        assert!(
            label.text.starts_with(&n.move_label),
            "{what}: {} for {}",
            label.text,
            n.move_label
        );
    }
    assert_eq!(
        scene.crowded, 0,
        "{what} zoom {zoom}: moves drawn over labels"
    );
    for (k, a) in scene.labels.iter().enumerate() {
        for b in &scene.labels[k + 1..] {
            assert!(
                !a.bounds.intersects(&b.bounds),
                "{what} zoom {zoom}: {a:?} over {b:?}"
            );
        }
        for (j, node) in scene.nodes.iter().enumerate() {
            assert!(
                !a.bounds.intersects(node),
                "{what} zoom {zoom}: {:?} over node {j}",
                a.text
            );
        }
    }
    scene
}

#[test]
fn every_edge_of_the_bundled_trees_has_its_move() {
    let mut edges = 0;
    for path in crate::helpers::sorted_entries(&crate_root().join("positions/trees")) {
        let entry = positions::load_file(&path).unwrap().remove(0);
        // Die rolls are searched by the expectimax family (their edges
        // carry the probability too).
        let algos: &[&str] = if entry.position.has_chance_nodes() {
            &["expectimax", "star1"]
        } else {
            &["pns", "dfpn"]
        };
        for &algo in algos {
            let setup = SearchSetup::new(algo, entry.position.clone(), &[]).unwrap();
            let mut s: Box<dyn Search> = registry::build(algo, &setup).unwrap();
            for it in 0..500 {
                if it % 3 == 0 || s.status().is_final() {
                    let snap = s.snapshot(&whole_tree());
                    for zoom in [0.65, 1.0, 1.6] {
                        let what = format!("{} {algo} iteration {it}", path.display());
                        check_moves(&snap, zoom, &what);
                    }
                    edges += snap.nodes.len().saturating_sub(1);
                }
                if s.status().is_final() {
                    break;
                }
                s.step();
            }
        }
    }
    assert!(edges > 1000, "{edges} edges checked");
}

#[test]
fn the_tictactoe_proofs_winning_move_is_drawn() {
    let entries = positions::load_file(&crate_root().join("positions/tictactoe.toml")).unwrap();
    let entry = entries
        .into_iter()
        .find(|e| e.name == "Corner reply to a corner")
        .unwrap();
    let setup = SearchSetup::new("pns", entry.position.clone(), &[]).unwrap();
    let mut s: Box<dyn Search> = registry::build("pns", &setup).unwrap();
    while !s.step().is_final() {}
    // The app's default view of the solved search (six levels).
    let snap = s.snapshot(&ViewRequest::default());
    let tidy = Tidy::of(&snap.nodes);
    let scene = TreeScene::build(
        &snap,
        &tidy.pos,
        &SceneStyle::default(),
        &ApproxMeasure,
        None,
    );
    let c1 = snap
        .nodes
        .iter()
        .position(|n| n.depth == 1 && n.move_label == "c1")
        .expect("c1 is a root child");
    assert!(
        scene
            .labels
            .iter()
            .any(|l| l.node == c1 && l.kind == LabelKind::Move && l.text == "c1"),
        "the winning move c1 has its label"
    );
    // Every edge of it has its move, crowded or not.
    for (i, n) in snap.nodes.iter().enumerate().skip(1) {
        assert!(
            scene
                .labels
                .iter()
                .any(|l| l.node == i && l.kind == LabelKind::Move),
            "move {} dropped",
            n.move_label
        );
    }
}

#[test]
fn the_graph_history_lessons_path_is_labelled_move_by_move() {
    let l =
        Lesson::load_file(&crate_root().join("lessons/09-graph-history-interaction.lesson.toml"))
            .unwrap();
    let mut paths_seen = 0;
    for k in 0..l.len() {
        let st = lesson::play(&l, k).unwrap();
        let scene = check_moves(&st.snapshot, 1.0, &format!("lesson 9 step {}", k + 1));
        // The moves down the MID path, read off the drawn labels.
        let mut path = Vec::new();
        for (i, n) in st.snapshot.nodes.iter().enumerate() {
            if n.on_path && n.parent.is_some() {
                let l = scene
                    .labels
                    .iter()
                    .find(|l| l.node == i && l.kind == LabelKind::Move)
                    .expect("a path move is drawn");
                path.push((n.depth, l.text.clone()));
            }
        }
        path.sort();
        let moves: Vec<String> = path.into_iter().map(|(_, m)| m).collect();
        if k == 0 {
            // The caption's A-B-D-G-I-J, each move on its edge.
            assert_eq!(moves, ["B", "D", "G", "I", "J"], "lesson 9 step 1");
            paths_seen += 1;
        }
    }
    assert_eq!(paths_seen, 1);
}
