//! The whole tree at a glance, for the app's icicle overview: per depth,
//! the nodes as spans whose width is their subtree size, with status and
//! whether they lie on the selection path. Computed here, in the engine,
//! from the search's own tree (arena searches track subtree sizes) or
//! from a snapshot's nodes, and bounded: a level holds at most
//! `max_cells` spans, small siblings are merged into one span, so the cost
//! does not grow with the tree.

use std::collections::HashSet;

use super::snapshot::{NodeId, NodeStatus, SnapNode, TreeAccess, ViewRequest};

/// Bounds of an overview.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverviewLimits {
    /// Depth levels at most (the root is level 0).
    pub max_levels: usize,
    /// Spans per level at most (about the pixels an overview is wide,
    /// divided by the narrowest span worth drawing).
    pub max_cells: usize,
}

impl Default for OverviewLimits {
    fn default() -> Self {
        OverviewLimits {
            max_levels: 40,
            max_cells: 400,
        }
    }
}

/// One span of an overview level.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OverviewCell {
    /// The node, or `None` for small siblings merged into one span.
    pub id: Option<NodeId>,
    /// Offset from the left, in nodes.
    pub start: u64,
    /// Width: the subtree size (all merged subtrees for a merged span).
    pub size: u64,
    /// The node's status (a merged span: proven or disproven only when
    /// all its nodes are).
    pub status: NodeStatus,
    /// The node lies on the selection path.
    pub on_path: bool,
    /// Nodes merged into this span (1 for a single node).
    pub merged: u32,
}

/// An icicle of the tree: `levels[d]` are the spans at depth `d` below the
/// root, left to right; children lie under their parent's span.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Overview {
    /// The root's subtree size (the width of level 0).
    pub total: u64,
    /// True when sizes are the search tree's own; false when they count
    /// only the nodes of a snapshot (algorithms whose tree is a table).
    pub exact: bool,
    /// Spans per depth.
    pub levels: Vec<Vec<OverviewCell>>,
}

/// What the overview needs of a tree.
trait SizedTree {
    fn root(&self) -> NodeId;
    fn children(&self, id: NodeId, out: &mut Vec<NodeId>);
    fn size(&self, id: NodeId) -> u64;
    fn status(&self, id: NodeId) -> NodeStatus;
}

/// Top-down: each span at least `total / max_cells` wide is split into its
/// children; narrower children are merged into one span after the wide
/// ones, and merged spans are not split further.
fn build<T: SizedTree>(
    tree: &T,
    path: &HashSet<NodeId>,
    limits: OverviewLimits,
    exact: bool,
) -> Overview {
    let root = tree.root();
    let total = tree.size(root).max(1);
    let min = (total / limits.max_cells.max(1) as u64).max(1);
    let mut levels = vec![vec![OverviewCell {
        id: Some(root),
        start: 0,
        size: total,
        status: tree.status(root),
        on_path: path.contains(&root),
        merged: 1,
    }]];
    let mut kids = Vec::new();
    while levels.len() < limits.max_levels {
        let mut next = Vec::new();
        for cell in levels.last().into_iter().flatten() {
            let Some(id) = cell.id.filter(|_| cell.size > 1) else {
                continue;
            };
            kids.clear();
            tree.children(id, &mut kids);
            let mut start = cell.start;
            let (mut rest_size, mut rest_count) = (0u64, 0u32);
            let mut rest_status: Option<NodeStatus> = None;
            for &c in &kids {
                let s = tree.size(c);
                if s >= min {
                    next.push(OverviewCell {
                        id: Some(c),
                        start,
                        size: s,
                        status: tree.status(c),
                        on_path: path.contains(&c),
                        merged: 1,
                    });
                    start += s;
                } else {
                    rest_size += s;
                    rest_count += 1;
                    // Small subtrees: their status only when all agree
                    // (looked up only while they still might).
                    rest_status = match rest_status {
                        None => Some(tree.status(c)),
                        Some(NodeStatus::Unknown) => Some(NodeStatus::Unknown),
                        Some(st) if tree.status(c) == st => Some(st),
                        Some(_) => Some(NodeStatus::Unknown),
                    };
                }
            }
            if rest_count > 0 {
                let on_path = kids.iter().any(|c| path.contains(c) && tree.size(*c) < min);
                next.push(OverviewCell {
                    id: None,
                    start,
                    size: rest_size,
                    status: rest_status.unwrap_or(NodeStatus::Unknown),
                    on_path,
                    merged: rest_count,
                });
            }
        }
        if next.is_empty() {
            break;
        }
        levels.push(next);
    }
    Overview {
        total,
        exact,
        levels,
    }
}

struct FromAccess<'a, T: TreeAccess + ?Sized>(&'a T);

impl<T: TreeAccess + ?Sized> SizedTree for FromAccess<'_, T> {
    fn root(&self) -> NodeId {
        self.0.root_id()
    }
    fn children(&self, id: NodeId, out: &mut Vec<NodeId>) {
        self.0.children(id, out);
    }
    fn size(&self, id: NodeId) -> u64 {
        self.0.subtree_size(id).unwrap_or(1)
    }
    fn status(&self, id: NodeId) -> NodeStatus {
        self.0.status(id)
    }
}

/// The overview of a search tree that tracks subtree sizes
/// ([`TreeAccess::subtree_size`]); `None` when it does not.
pub fn of_tree<T: TreeAccess + ?Sized>(
    tree: &T,
    path: &[NodeId],
    limits: OverviewLimits,
) -> Option<Overview> {
    tree.subtree_size(tree.root_id())?;
    let path: HashSet<NodeId> = path.iter().copied().collect();
    Some(build(&FromAccess(tree), &path, limits, true))
}

struct FromNodes<'a> {
    nodes: &'a [SnapNode],
    children: Vec<Vec<usize>>,
    sizes: Vec<u64>,
}

impl SizedTree for FromNodes<'_> {
    fn root(&self) -> NodeId {
        0
    }
    fn children(&self, id: NodeId, out: &mut Vec<NodeId>) {
        out.extend(self.children[id as usize].iter().map(|&c| c as NodeId));
    }
    fn size(&self, id: NodeId) -> u64 {
        self.sizes[id as usize]
    }
    fn status(&self, id: NodeId) -> NodeStatus {
        self.nodes[id as usize].status
    }
}

/// The overview of a snapshot's nodes (sizes count the nodes shown), for
/// searches whose tree is a table. Node ids in the result are the
/// snapshot nodes' ids.
pub fn of_nodes(nodes: &[SnapNode], limits: OverviewLimits) -> Option<Overview> {
    if nodes.is_empty() {
        return None;
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            children[p as usize].push(i);
        }
    }
    for c in &mut children {
        c.sort_by_key(|&i| nodes[i].child_index);
    }
    // Parents precede children, so a backward pass adds up the sizes.
    let mut sizes = vec![1u64; nodes.len()];
    for i in (1..nodes.len()).rev() {
        if let Some(p) = nodes[i].parent {
            sizes[p as usize] += sizes[i];
        }
    }
    let path: HashSet<NodeId> = nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.on_path)
        .map(|(i, _)| i as NodeId)
        .collect();
    let tree = FromNodes {
        nodes,
        children,
        sizes,
    };
    let mut o = build(&tree, &path, limits, false);
    for cell in o.levels.iter_mut().flatten() {
        cell.id = cell.id.map(|i| nodes[i as usize].id);
    }
    Some(o)
}

/// The overview a request asks for, for a search whose snapshot
/// collector is [`super::snapshot::collect_nodes`]: exact when `tree`
/// tracks subtree sizes, else counted from the snapshot's `nodes`; `None`
/// unless `req.overview`.
pub fn for_request<T: TreeAccess + ?Sized>(
    req: &ViewRequest,
    tree: &T,
    path: &[NodeId],
    nodes: &[SnapNode],
) -> Option<Overview> {
    if !req.overview {
        return None;
    }
    of_tree(tree, path, OverviewLimits::default()).or_else(|| if_requested(req, nodes))
}

/// The overview a request asks for, from a snapshot's nodes (for
/// searches that do not track subtree sizes): `None` unless
/// `req.overview`.
pub fn if_requested(req: &ViewRequest, nodes: &[SnapNode]) -> Option<Overview> {
    if req.overview {
        of_nodes(nodes, OverviewLimits::default())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bare node at depth 0 (the overview reads only the tree shape).
    fn node(id: u64, parent: Option<u32>, child_index: u32) -> SnapNode {
        crate::search::test_nodes::node(id, parent, child_index, 0)
    }

    /// The overview of `nodes` within `max_levels` levels and `max_cells`
    /// spans a level.
    fn overview_within(nodes: &[SnapNode], max_levels: usize, max_cells: usize) -> Overview {
        let limits = OverviewLimits {
            max_levels,
            max_cells,
        };
        of_nodes(nodes, limits).unwrap()
    }

    /// A root with one big child (a chain of `big` nodes) and `small`
    /// leaf children.
    fn broom(big: u32, small: u32) -> Vec<SnapNode> {
        let mut v = vec![node(100, None, 0)];
        for k in 0..big {
            let parent = if k == 0 { 0 } else { k };
            v.push(node(200 + k as u64, Some(parent), 0));
        }
        for k in 0..small {
            v.push(node(900 + k as u64, Some(0), 1 + k));
        }
        v
    }

    #[test]
    fn spans_partition_their_parent_and_small_siblings_merge() {
        let nodes = broom(50, 30);
        let o = overview_within(&nodes, 100, 20);
        assert_eq!(o.total, 81);
        // Level 1: the chain (50 nodes) and the 30 leaves merged into one
        // span (each is narrower than 81 / 20).
        let l1 = &o.levels[1];
        assert_eq!(l1.len(), 2);
        assert_eq!((l1[0].id, l1[0].start, l1[0].size), (Some(200), 0, 50));
        assert_eq!((l1[1].id, l1[1].start, l1[1].size), (None, 50, 30));
        assert_eq!(l1[1].merged, 30);
        // The chain continues while its remainder is at least 81 / 20 = 4
        // nodes wide, and every level's spans fit under their parents.
        for w in o.levels.windows(2) {
            let parent_width: u64 = w[0].iter().map(|c| c.size).sum();
            let child_width: u64 = w[1].iter().map(|c| c.size).sum();
            assert!(child_width < parent_width);
        }
        assert_eq!(o.levels.len(), 1 + 50 - 3 + 1);
    }

    #[test]
    fn levels_and_cells_stay_within_the_limits() {
        // 2,000 leaves under the root: one merged span on level 1.
        let o = overview_within(&broom(0, 2_000), 3, 100);
        assert_eq!(o.levels[1].len(), 1);
        assert_eq!(o.levels[1][0].size, 2_000);
        let o = overview_within(&broom(500, 0), 10, 100);
        assert_eq!(o.levels.len(), 10);
    }

    #[test]
    fn the_arena_counts_agree_with_counting_a_complete_snapshot() {
        use crate::search::test_support::on_empty_tictactoe;
        for algo in ["pns", "deep-pn", "ppn"] {
            let mut s = on_empty_tictactoe(algo, &[]);
            for _ in 0..40 {
                s.step();
            }
            let full = ViewRequest {
                max_depth: 64,
                max_nodes: 1_000_000,
                overview: true,
                ..ViewRequest::default()
            };
            let snap = s.snapshot(&full);
            let from_arena = snap.overview.clone().expect("arena searches fill it");
            assert!(from_arena.exact);
            assert_eq!(from_arena.total, snap.nodes.len() as u64, "{algo}");
            let mut counted = of_nodes(&snap.nodes, OverviewLimits::default()).unwrap();
            assert!(!counted.exact);
            counted.exact = true;
            assert_eq!(from_arena, counted, "{algo}");
        }
    }
}
