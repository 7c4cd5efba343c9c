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

use pnlab_core::search::snapshot::SnapNode;

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
