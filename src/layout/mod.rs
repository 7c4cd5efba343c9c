//! Geometry of tree pictures, shared by the app's tree views and the SVG
//! export: plain numbers, no GUI types, so every rule (where a node goes,
//! which labels are drawn) is unit-tested without rendering anything.
//!
//! Coordinates are in layout units: `x` counts leaf slots, `y` levels
//! below the shallowest node. A view scales them to points.

pub mod labels;
pub mod path;
pub mod scene;
pub mod tidy;

pub use labels::{ApproxMeasure, Bounds, Measure};
pub use path::{PathRow, PathScene};
pub use scene::{SceneStyle, TreeScene};
pub use tidy::Tidy;

use crate::search::snapshot::SnapNode;

/// A point in layout units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// Horizontal position (leaf slots).
    pub x: f32,
    /// Vertical position (levels).
    pub y: f32,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f32, y: f32) -> Point {
        Point { x, y }
    }
}

/// Children of every snapshot node (indices into `nodes`), in move order.
/// Snapshots list parents before children, so one pass suffices.
pub fn children_of(nodes: &[SnapNode]) -> Vec<Vec<usize>> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        if let Some(p) = node.parent {
            if let Some(c) = children.get_mut(p as usize) {
                c.push(i);
            }
        }
    }
    for c in &mut children {
        c.sort_by_key(|&i| nodes[i].child_index);
    }
    children
}

#[cfg(test)]
pub(crate) mod test_nodes {
    //! Snapshot nodes for layout tests.
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
        crate::search::Snapshot {
            algo: "test".into(),
            status: crate::search::Status::Running,
            counters: Default::default(),
            value_names: (0..n_values).map(|i| format!("v{i}")).collect(),
            label_values: (0..n_values).collect(),
            total_nodes: nodes.len() as u64,
            nodes,
            extra_edges: vec![],
            selection_path: vec![],
            selection_moves: vec![],
            root_children: vec![],
            frames: vec![],
            inspection: None,
            position: None,
            position_path: vec![],
            switch_events: vec![],
            extras: vec![],
            overview: None,
            functions: None,
        }
    }
}
