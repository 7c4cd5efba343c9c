//! Bare snapshot nodes for the tests of code that draws or walks a
//! snapshot (layouts, overviews, quizzes): each test builds only the shape
//! it needs. Public (hidden from the docs) because those tests live in
//! several crates.

use crate::search::snapshot::{NodeKind, NodeStatus, SnapNode};

/// A bare node: id, parent index, move order, depth.
pub fn node(id: u64, parent: Option<u32>, child_index: u32, depth: u32) -> SnapNode {
    SnapNode {
        id,
        parent,
        child_index,
        depth,
        move_label: String::new(),
        kind: NodeKind::Or,
        status: NodeStatus::Unknown,
        values: vec![],
        expanded: true,
        n_children: 0,
        descendants: 0,
        truncated: false,
        on_path: false,
        terminal: false,
        source: Default::default(),
    }
}

/// A snapshot of `nodes` with `n_values` values, all printed.
pub fn snapshot(nodes: Vec<SnapNode>, n_values: usize) -> crate::search::Snapshot {
    let mut snap =
        crate::search::Snapshot::empty("test", crate::search::Status::Running, Default::default());
    snap.value_names = (0..n_values).map(|i| format!("v{i}")).collect();
    snap.label_values = (0..n_values).collect();
    snap.total_nodes = nodes.len() as u64;
    snap.nodes = nodes;
    snap
}
