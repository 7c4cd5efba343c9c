//! The tree pictures stay readable on real searches (issue #11 item 1):
//! df-pn on FFO #1 after 2,000 MID calls, DeepPN on Hex 3×3 after 500
//! iterations, PPN on the P-game b=2 d=20, plus a node with 1,000
//! children and a 200-deep chain. For the tidy tree (at the zooms the app
//! uses) and the path view: no two drawn labels or boxes intersect, no
//! label covers a node, and every drawn node lies inside the scrollable
//! content, which starts at the canvas corner.

use std::collections::HashMap;

use pnlab::layout::path::{rows, PathStyle};
use pnlab::layout::{ApproxMeasure, Bounds, PathScene, SceneStyle, Tidy, TreeScene};
use pnlab::positions::load_file;
use pnlab::search::snapshot::{NodeKind, SnapNode};
use pnlab::search::{registry, Params, QuestionKind, SearchSetup, Snapshot, ViewRequest};

/// The tree view's own request in the levels mode (depth 8, 2,000 nodes).
fn levels() -> ViewRequest {
    ViewRequest {
        max_depth: 8,
        max_nodes: 2_000,
        ..ViewRequest::default()
    }
}

fn path_request() -> ViewRequest {
    ViewRequest {
        path_view: true,
        ..ViewRequest::default()
    }
}

/// `algo` run `steps` iterations on entry `index` of `file`.
fn searched(file: &str, index: usize, algo: &str, steps: u32) -> Box<dyn pnlab::search::Search> {
    let entries = load_file(std::path::Path::new(file)).expect("bundled file loads");
    let info = registry::find_algo(algo).unwrap();
    let setup = SearchSetup {
        position: entries[index].position.clone(),
        params: Params::defaults(info.params),
        seed: 1,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    };
    let mut s = registry::build(algo, &setup).unwrap();
    for _ in 0..steps {
        if s.status().is_final() {
            break;
        }
        s.step();
    }
    s
}

/// Pairs of intersecting boxes (sweep over x, so thousands are cheap).
fn overlaps(boxes: &[Bounds]) -> Vec<(Bounds, Bounds)> {
    let mut order: Vec<&Bounds> = boxes.iter().collect();
    order.sort_by(|a, b| a.min_x.total_cmp(&b.min_x));
    let mut out = Vec::new();
    for (i, a) in order.iter().enumerate() {
        for b in &order[i + 1..] {
            if b.min_x >= a.max_x {
                break;
            }
            if a.intersects(b) {
                out.push((**a, **b));
            }
        }
    }
    out
}

fn check_tidy(name: &str, snap: &Snapshot) {
    let tidy = Tidy::of(&snap.nodes);
    for zoom in [0.65, 1.0, 1.6] {
        let style = SceneStyle::default().zoomed(zoom);
        let scene = TreeScene::build(snap, &tidy.pos, &style, &ApproxMeasure, None);
        let labels: Vec<Bounds> = scene.labels.iter().map(|l| l.bounds).collect();
        let bad = overlaps(&labels);
        assert!(
            bad.is_empty(),
            "{name} zoom {zoom}: labels overlap: {:?}",
            &bad[..1]
        );
        let mut all = labels.clone();
        all.extend(scene.nodes.iter().copied());
        // Nodes do not overlap each other in a tidy layout either, so any
        // intersection here is a label over a node.
        let bad = overlaps(&all);
        assert!(bad.is_empty(), "{name} zoom {zoom}: {:?}", &bad[..1]);
        assert!(scene.content.min_x == 0.0 && scene.content.min_y == 0.0);
        for b in scene.nodes.iter().chain(&labels) {
            assert!(
                scene.content.contains(b),
                "{name}: {b:?} outside {:?}",
                scene.content
            );
        }
        // The path's values are the first labels placed, so they are kept.
        for (i, n) in snap.nodes.iter().enumerate() {
            if n.on_path && !n.values.is_empty() {
                assert!(
                    scene
                        .labels
                        .iter()
                        .any(|l| l.node == i && l.kind == pnlab::layout::scene::LabelKind::Values),
                    "{name}: path node {i} lost its label"
                );
            }
        }
    }
}

fn check_path(name: &str, snap: &Snapshot) {
    for width in [500.0, 1200.0] {
        let r = rows(&snap.nodes);
        let scene = PathScene::build(
            snap,
            &r,
            width,
            &PathStyle::default(),
            &HashMap::new(),
            &ApproxMeasure,
        );
        let boxes: Vec<Bounds> = scene.boxes().copied().collect();
        let bad = overlaps(&boxes);
        assert!(bad.is_empty(), "{name} width {width}: {:?}", &bad[..1]);
        for b in &boxes {
            assert!(
                b.min_x >= 0.0 && b.max_x <= width,
                "{name}: {b:?} wider than {width}"
            );
            assert!(
                b.min_y >= 0.0 && b.max_y <= scene.content.max_y,
                "{name}: {b:?}"
            );
        }
        // Every row's items are shown or counted.
        for row in &r {
            let shown = scene
                .items
                .iter()
                .filter(|i| row.items.contains(&i.node))
                .count();
            let hidden: usize = match row.parent {
                Some(p) => scene
                    .mores
                    .iter()
                    .filter(|m| m.row == snap.nodes[p].id)
                    .map(|m| m.count)
                    .sum(),
                None => 0,
            };
            assert_eq!(shown + hidden, row.items.len(), "{name}");
        }
        // The whole selection path is on screen.
        for (i, n) in snap.nodes.iter().enumerate() {
            if n.on_path {
                assert!(scene.items.iter().any(|it| it.node == i), "{name}: {i}");
            }
        }
    }
}

fn check(name: &str, s: &dyn pnlab::search::Search) {
    check_tidy(name, &s.snapshot(&levels()));
    check_path(name, &s.snapshot(&path_request()));
}

#[test]
fn dfpn_on_ffo_1_after_2000_mid_calls() {
    let s = searched("positions/othello/ffo-1-7.obf", 0, "dfpn", 2_000);
    let snap = s.snapshot(&levels());
    assert!(
        snap.nodes.len() > 500,
        "a big picture: {}",
        snap.nodes.len()
    );
    check("df-pn FFO #1", s.as_ref());
}

#[test]
fn deep_pn_on_hex_3x3_after_500_iterations() {
    let s = searched("positions/hex.toml", 0, "deep-pn", 500);
    check("DeepPN Hex 3x3", s.as_ref());
}

#[test]
fn ppn_on_the_pgame_b2_d20() {
    let s = searched("positions/pgame.toml", 0, "ppn", 3_000);
    check("PPN P-game", s.as_ref());
}

fn bare(id: u64, parent: Option<u32>, child_index: u32, depth: u32) -> SnapNode {
    // The shared bare node, with a label, alternating kinds and wide
    // values: the shape and the widest labels are what is tested.
    let mut n = pnlab::search::test_nodes::node(id, parent, child_index, depth);
    n.move_label = format!("m{child_index}");
    n.kind = if depth.is_multiple_of(2) {
        NodeKind::Or
    } else {
        NodeKind::And
    };
    n.values = vec![12_345.0, f64::INFINITY];
    n
}

/// A snapshot of synthetic nodes (the shape is what is tested).
fn synthetic(nodes: Vec<SnapNode>) -> Snapshot {
    let s = searched("positions/hex.toml", 0, "pns", 1);
    let mut snap = s.snapshot(&levels());
    snap.value_names = vec!["pn".into(), "dn".into()];
    snap.label_values = vec![0, 1];
    snap.total_nodes = nodes.len() as u64;
    snap.nodes = nodes;
    snap.extra_edges.clear();
    snap
}

#[test]
fn a_node_with_1000_children() {
    let mut nodes = vec![bare(0, None, 0, 0)];
    nodes[0].on_path = true;
    for k in 0..1000 {
        let mut c = bare(k as u64 + 1, Some(0), k, 1);
        c.on_path = k == 640;
        nodes.push(c);
    }
    let snap = synthetic(nodes);
    check_tidy("1000 children", &snap);
    check_path("1000 children", &snap);
}

#[test]
fn a_200_deep_chain_with_a_sibling_at_every_level() {
    let mut nodes = vec![bare(0, None, 0, 0)];
    nodes[0].on_path = true;
    let mut parent = 0u32;
    for d in 1..=200u32 {
        let mut on = bare(2 * d as u64, Some(parent), 0, d);
        on.on_path = true;
        nodes.push(on);
        let next = nodes.len() as u32 - 1;
        nodes.push(bare(2 * d as u64 + 1, Some(parent), 1, d));
        parent = next;
    }
    let snap = synthetic(nodes);
    check_tidy("200-deep chain", &snap);
    check_path("200-deep chain", &snap);
}
