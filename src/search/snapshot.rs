//! Bounded snapshots of a search tree for viewers (the app, exports, tests).
//!
//! A snapshot is plain owned data whose size is capped by the
//! [`ViewRequest`], so producing and sending one costs the same whether the
//! tree has a hundred nodes or ten million (PRODUCT.md, house rules). Every
//! algorithm describes its per-node values by name (`pn`, `dn`, `deep`,
//! `dpn`, `ppn`, `visits`, …), so a viewer shows any algorithm without code
//! of its own.

use std::collections::{HashSet, VecDeque};

use crate::game::AnyPosition;

use super::{Counters, Status, SwitchEvent};

/// Stable identity of a node within one search (arena index, TT key, …):
/// the same node keeps its id as the tree grows, so layouts stay stable.
pub type NodeId = u64;

/// What part of the tree a viewer wants.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewRequest {
    /// Subtree root to show; `None` = the search root.
    pub focus: Option<NodeId>,
    /// Levels below the focus to include.
    pub max_depth: u32,
    /// Hard cap on the number of nodes in the snapshot.
    pub max_nodes: usize,
    /// Nodes whose children the viewer has collapsed (shown as counts).
    pub collapsed: HashSet<NodeId>,
    /// Node to explain in the inspector (formula with numbers filled in).
    pub inspect: Option<NodeId>,
    /// Include the position at the inspected node (or the root).
    pub want_position: bool,
}

impl Default for ViewRequest {
    fn default() -> Self {
        ViewRequest {
            focus: None,
            max_depth: 6,
            max_nodes: 2_000,
            collapsed: HashSet::new(),
            inspect: None,
            want_position: true,
        }
    }
}

/// OR / AND (ALGORITHMS.md §0): OR where the attacker moves; `Chance`
/// where a random event picks the child (the expectimax family only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    Or,
    And,
    Chance,
}

/// Solved status of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeStatus {
    Proven,
    Disproven,
    Unknown,
}

/// One node of a snapshot.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SnapNode {
    pub id: NodeId,
    /// Index of the parent in [`Snapshot::nodes`] (`None` for the first node).
    pub parent: Option<u32>,
    /// Position of this node among its parent's children (move order).
    pub child_index: u32,
    /// Depth from the search root.
    pub depth: u32,
    /// The move leading here in the game's notation (empty at the root).
    pub move_label: String,
    pub kind: NodeKind,
    pub status: NodeStatus,
    /// Values aligned with [`Snapshot::value_names`] (∞ for INF; NaN when a
    /// value does not apply to this node).
    pub values: Vec<f64>,
    /// Whether the search has expanded this node.
    pub expanded: bool,
    /// Number of children the node has in the search tree.
    pub n_children: u32,
    /// Nodes below this one in the search tree (0 when not tracked).
    pub descendants: u64,
    /// True when the node has children that are not in the snapshot (depth
    /// or size cap, or collapsed by the viewer).
    pub truncated: bool,
    /// True when the node lies on the current selection path.
    pub on_path: bool,
    /// Terminal node of the game (value known from the rules).
    pub terminal: bool,
}

/// One frame of a depth-first search's recursion path (df-pn family): the
/// node and the thresholds MID was called with.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Frame {
    pub node: NodeId,
    pub move_label: String,
    /// Named values of the frame, e.g. `thφ`, `thδ`, `φ`, `δ`.
    pub values: Vec<(String, f64)>,
}

/// A root child with its values: board overlays and best-move displays.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ChildSummary {
    pub id: NodeId,
    pub move_label: String,
    pub status: NodeStatus,
    pub values: Vec<f64>,
}

/// The inspector's text for one node: its values and the formulas that
/// produced them with the children's numbers filled in, and why the search
/// picked the child it picked.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Inspection {
    pub node: NodeId,
    /// Path of move labels from the root.
    pub path: Vec<String>,
    /// `("pn", "pn = min(3, 5, 2) = 2")`-style lines.
    pub formulas: Vec<(String, String)>,
    /// Why this node's selected child was chosen (empty when not on the
    /// path or not expanded).
    pub choice: Option<String>,
}

/// A bounded picture of a search.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Snapshot {
    pub algo: String,
    pub status: Status,
    pub counters: Counters,
    /// Names of the per-node values, e.g. `["pn", "dn"]`.
    pub value_names: Vec<String>,
    /// Which of `value_names` a tree view prints on each node (indices).
    pub label_values: Vec<usize>,
    /// Nodes in breadth-first order from the focus; parents precede children.
    pub nodes: Vec<SnapNode>,
    /// Extra edges (parent index, child index) for DAGs: a node reached by
    /// two paths is listed once and its second parent appears here.
    pub extra_edges: Vec<(u32, u32, String)>,
    /// Ids from the root to the current most-proving / selected node.
    pub selection_path: Vec<NodeId>,
    /// Move labels along `selection_path` (one fewer than the ids).
    pub selection_moves: Vec<String>,
    /// The root's children with their values.
    pub root_children: Vec<ChildSummary>,
    /// Recursion frames for depth-first algorithms (empty otherwise).
    pub frames: Vec<Frame>,
    /// Total nodes currently in the search's tree or table.
    pub total_nodes: u64,
    /// The inspected node's explanation.
    pub inspection: Option<Inspection>,
    /// Position at the inspected node (or the root) for the board view.
    #[serde(skip)]
    pub position: Option<AnyPosition>,
    /// Move labels from the root to `position`.
    pub position_path: Vec<String>,
    /// Root switch events so far (bounded: the most recent ones).
    pub switch_events: Vec<SwitchEvent>,
    /// Algorithm-specific extras shown as key/value lines (e.g. the value
    /// search's bracket `[low, high]`).
    pub extras: Vec<(String, String)>,
}

/// Read access to a search tree, enough to build a bounded snapshot with
/// [`collect_nodes`]. Implemented by each algorithm over its own storage.
pub trait TreeAccess {
    fn root_id(&self) -> NodeId;
    /// Children ids in move order (empty when not expanded).
    fn children(&self, id: NodeId, out: &mut Vec<NodeId>);
    /// Fills a snapshot node (everything but `parent`, `child_index`,
    /// `depth`, `truncated`, `on_path`).
    fn describe(&self, id: NodeId) -> SnapNode;
}

/// Breadth-first collection of at most `req.max_nodes` nodes from the focus
/// down to `req.max_depth` levels, always including the nodes of
/// `path` (the selection path) so it can be highlighted. Cost is
/// proportional to the snapshot, not to the tree.
pub fn collect_nodes<T: TreeAccess + ?Sized>(
    tree: &T,
    req: &ViewRequest,
    path: &[NodeId],
) -> Vec<SnapNode> {
    let on_path: HashSet<NodeId> = path.iter().copied().collect();
    let focus = req.focus.unwrap_or_else(|| tree.root_id());
    let focus_depth = path.iter().position(|&p| p == focus).unwrap_or(0) as u32;
    let mut nodes: Vec<SnapNode> = Vec::new();
    let mut seen: HashSet<NodeId> = HashSet::new();
    let mut queue: VecDeque<(NodeId, Option<u32>, u32, u32)> = VecDeque::new();
    queue.push_back((focus, None, 0, 0));
    let mut kids = Vec::new();
    while let Some((id, parent, child_index, rel_depth)) = queue.pop_front() {
        let forced = on_path.contains(&id);
        if nodes.len() >= req.max_nodes && !forced {
            if let Some(p) = parent {
                nodes[p as usize].truncated = true;
            }
            continue;
        }
        if !seen.insert(id) {
            continue;
        }
        let mut n = tree.describe(id);
        n.parent = parent;
        n.child_index = child_index;
        n.depth = focus_depth + rel_depth;
        n.on_path = forced;
        n.truncated = false;
        let index = nodes.len() as u32;
        kids.clear();
        tree.children(id, &mut kids);
        let expand_all = rel_depth < req.max_depth && !req.collapsed.contains(&id);
        if !kids.is_empty() && !expand_all {
            n.truncated = true;
        }
        nodes.push(n);
        for (i, &c) in kids.iter().enumerate() {
            if expand_all || on_path.contains(&c) {
                queue.push_back((c, Some(index), i as u32, rel_depth + 1));
            }
        }
    }
    nodes
}

/// Formats a value for labels: integers without decimals, ∞, or 3
/// significant decimals.
pub fn fmt_value(v: f64) -> String {
    if v.is_nan() {
        "–".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "∞" } else { "-∞" }.to_string()
    } else if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
    }
}
