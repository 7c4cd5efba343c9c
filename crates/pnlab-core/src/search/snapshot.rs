//! Bounded snapshots of a search tree for viewers (the app, exports, tests).
//!
//! A snapshot is plain owned data whose size is capped by the
//! [`ViewRequest`], so producing and sending one costs the same whether the
//! tree has a hundred nodes or ten million (docs/architecture.md, house rules). Every
//! algorithm describes its per-node values by name (`pn`, `dn`, `deep`,
//! `dpn`, `ppn`, `visits`, …), so a viewer shows any algorithm without code
//! of its own.

use std::collections::{HashSet, VecDeque};

use crate::game::AnyPosition;

use super::overview::Overview;
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
    /// Conspiracy-number searches: the target value t (in value units) at
    /// which nodes show their conspiracy number CN(t) = p(t) + d(t);
    /// `None` shows none.
    pub cn_target: Option<f64>,
    /// Include the whole tree's overview ([`Snapshot::overview`]).
    pub overview: bool,
    /// The path view's shape instead of levels: the selection path, every
    /// child of a path node and of the focus, and the children of the nodes in `open`
    /// (siblings the viewer expanded in place), however deep.
    pub path_view: bool,
    /// With `path_view`: nodes whose children are listed too.
    pub open: HashSet<NodeId>,
}

impl ViewRequest {
    /// Whether a collector lists the children of node `id`, `rel_depth`
    /// levels below the focus (`on_path`: the node is on the selection
    /// path). Every snapshot collector asks this, so the tree view's
    /// levels and the path view work for every algorithm.
    pub fn expands(&self, id: NodeId, rel_depth: u32, on_path: bool) -> bool {
        if self.path_view {
            // The focus always lists its children (a solved search's
            // path may be empty).
            on_path || rel_depth == 0 || self.open.contains(&id)
        } else {
            rel_depth < self.max_depth && !self.collapsed.contains(&id)
        }
    }
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
            cn_target: None,
            overview: false,
            path_view: false,
            open: HashSet::new(),
        }
    }
}

/// OR / AND (docs/algorithms.md §0): OR where the attacker moves; `Chance`
/// where a random event picks the child (the expectimax family only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// The attacker moves here: one proved child proves it.
    Or,
    /// The defender moves here: every child must be proved.
    And,
    /// A random event picks the child (expectimax family).
    Chance,
}

impl NodeKind {
    /// An OR node where `or` (the attacker, or MAX, moves there), else an
    /// AND node.
    pub fn or_and(or: bool) -> NodeKind {
        if or {
            NodeKind::Or
        } else {
            NodeKind::And
        }
    }
}

/// Solved status of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeStatus {
    /// Proved for the attacker (pn = 0).
    Proven,
    /// Disproved (dn = 0).
    Disproven,
    /// Not solved yet.
    Unknown,
}

impl NodeStatus {
    /// `Some(true)` proven, `Some(false)` disproven, `None` unsolved: the
    /// answer of [`Search::solved_at`](super::Search::solved_at).
    pub fn solved(self) -> Option<bool> {
        match self {
            NodeStatus::Proven => Some(true),
            NodeStatus::Disproven => Some(false),
            NodeStatus::Unknown => None,
        }
    }
}

/// An edge of a snapshot that is not a tree edge: a second parent of a
/// shared node (a transposition), or a back-edge of a cyclic graph (a
/// move into a position on the path: a repetition, valued by the loop
/// rule).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ExtraEdge {
    /// Index of the parent in [`Snapshot::nodes`].
    pub from: u32,
    /// Index of the node the move leads to.
    pub to: u32,
    /// The move.
    pub label: String,
    /// A back-edge: `to` is an ancestor of `from` on its path, and the
    /// move repeats it.
    pub back: bool,
}

/// One node of a snapshot.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SnapNode {
    /// The algorithm's stable id for the node (valid across snapshots).
    pub id: NodeId,
    /// Index of the parent in [`Snapshot::nodes`] (`None` for the first node).
    pub parent: Option<u32>,
    /// Position of this node among its parent's children (move order).
    pub child_index: u32,
    /// Depth from the search root.
    pub depth: u32,
    /// The move leading here in the game's notation (empty at the root).
    pub move_label: String,
    /// OR, AND or chance.
    pub kind: NodeKind,
    /// Proven, disproven or unknown.
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
    /// Where the drawn values come from: computed, stored and not yet
    /// updated, or a child counted but not held (df-pn family).
    pub source: ValueSource,
}

/// Where a node's drawn values come from. A depth-first search (the df-pn
/// family) keeps a node's numbers in its table and updates them only when
/// MID returns from the node, and counts children it never searched with
/// the unknown-node value without holding them: drawn alike, such values
/// would break the min/sum rule the class checks by hand, so a view marks
/// them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueSource {
    /// Computed by the algorithm's rule from the children drawn under the
    /// node (ghosts included), or known at a leaf.
    #[default]
    Computed,
    /// Read from the table (or a MID call's entry values) and not yet
    /// updated from the children's current numbers: MID updates it when
    /// control comes back to the node.
    Stored,
    /// Not held as a node: a child the search counts in its parent's
    /// numbers with the unknown-node value (drawn dashed).
    Ghost,
}

impl ValueSource {
    /// One word for legends and the state file.
    pub fn name(self) -> &'static str {
        match self {
            ValueSource::Computed => "computed",
            ValueSource::Stored => "stored",
            ValueSource::Ghost => "ghost",
        }
    }
}

/// One frame of a depth-first search's recursion path (df-pn family): the
/// node and the thresholds MID was called with.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Frame {
    /// The node MID was called on.
    pub node: NodeId,
    /// The move leading to it, in notation (empty at the root).
    pub move_label: String,
    /// Named values of the frame, e.g. `thφ`, `thδ`, `φ`, `δ`.
    pub values: Vec<(String, f64)>,
}

/// A root child with its values: board overlays and best-move displays.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ChildSummary {
    /// Stable id, for focusing the tree on this child.
    pub id: NodeId,
    /// The move, in notation.
    pub move_label: String,
    /// Solved status, for the board overlay colour.
    pub status: NodeStatus,
    /// Values aligned with [`Snapshot::value_names`].
    pub values: Vec<f64>,
}

impl ChildSummary {
    /// The summary of a node as its tree view describes it (id, move,
    /// status, values), so every search fills the board overlay alike.
    pub fn of(node: SnapNode) -> ChildSummary {
        ChildSummary {
            id: node.id,
            move_label: node.move_label,
            status: node.status,
            values: node.values,
        }
    }
}

/// The ids of the recorded nodes on a depth-first search's stack, root
/// first: the frames' record numbers `recs` up to the first frame not
/// recorded (`none`).
pub fn recorded_path(recs: impl Iterator<Item = u32>, none: u32) -> Vec<NodeId> {
    recs.take_while(|&r| r != none).map(NodeId::from).collect()
}

/// The root's children as summaries, read through the tree view (empty
/// while the root is not expanded).
pub fn root_children<T: TreeAccess + ?Sized>(tree: &T) -> Vec<ChildSummary> {
    let mut kids = Vec::new();
    tree.children(tree.root_id(), &mut kids);
    kids.into_iter()
        .map(|c| ChildSummary {
            id: c,
            ..ChildSummary::of(tree.describe(c))
        })
        .collect()
}

/// The inspector's text for one node: its values and the formulas that
/// produced them with the children's numbers filled in, and why the search
/// picked the child it picked.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Inspection {
    /// The node inspected.
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
    /// The registry name of the algorithm.
    pub algo: String,
    /// Where the search stands.
    pub status: Status,
    /// The counters when the snapshot was taken.
    pub counters: Counters,
    /// Names of the per-node values, e.g. `["pn", "dn"]`.
    pub value_names: Vec<String>,
    /// Which of `value_names` a tree view prints on each node (indices).
    pub label_values: Vec<usize>,
    /// Nodes in breadth-first order from the focus; parents precede children.
    pub nodes: Vec<SnapNode>,
    /// Extra edges for DAGs and cyclic graphs: a node reached by two paths
    /// is listed once and its second parent appears here; a move that
    /// repeats a position on the path is a back-edge to that ancestor.
    pub extra_edges: Vec<ExtraEdge>,
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
    /// Conspiracy-number searches: the proof and disproof functions of the
    /// inspected node (or the root) with the search interval.
    pub functions: Option<FunctionPlot>,
    /// The whole tree by subtree size per depth, when the request asked
    /// for it (see [`super::overview`]); searches that track subtree
    /// sizes fill it from their tree, the app's worker fills it from the
    /// snapshot's nodes otherwise.
    pub overview: Option<Overview>,
}

impl Snapshot {
    /// A snapshot with no nodes: the algorithm's name, its status and
    /// counters, and nothing to draw. What a search that keeps no tree
    /// returns (an algorithm written outside pnlab can start here and fill
    /// in `nodes` once it draws its tree).
    pub fn empty(algo: &str, status: Status, counters: Counters) -> Snapshot {
        Snapshot {
            algo: algo.to_string(),
            status,
            counters,
            value_names: vec![],
            label_values: vec![],
            nodes: vec![],
            extra_edges: vec![],
            selection_path: vec![],
            selection_moves: vec![],
            root_children: vec![],
            frames: vec![],
            total_nodes: 0,
            inspection: None,
            position: None,
            position_path: vec![],
            switch_events: vec![],
            extras: vec![],
            functions: None,
            overview: None,
        }
    }

    /// The values a tree view prints on a node (`label_values`), formatted
    /// and joined by `sep`: `"1 / 2"` for pn/dn. One rule for the app's
    /// tree and board labels and the DOT and SVG exports.
    pub fn label(&self, values: &[f64], sep: &str) -> String {
        self.label_values
            .iter()
            .filter_map(|&i| values.get(i))
            .map(|&v| fmt_value(v))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The label of the edge into `nodes[i]`: the move, and below a chance
    /// node the outcome's probability (`3 · 1/6`). One rule for the app's
    /// tree view and the DOT and SVG exports.
    pub fn edge_label(&self, i: usize) -> String {
        let n = &self.nodes[i];
        let below_chance = n
            .parent
            .and_then(|p| self.nodes.get(p as usize))
            .is_some_and(|p| p.kind == NodeKind::Chance);
        let prob = self
            .value_names
            .iter()
            .position(|v| v == "p")
            .and_then(|k| n.values.get(k))
            .filter(|p| p.is_finite());
        match prob {
            Some(&p) if below_chance => format!("{} · {}", n.move_label, fmt_probability(p)),
            _ => n.move_label.clone(),
        }
    }
}

/// A probability as a small fraction when it is one (`1/6`, `1/2`), else
/// with three decimals: die rolls read as the lecture writes them.
pub fn fmt_probability(p: f64) -> String {
    for d in 1..=36u32 {
        let n = (p * f64::from(d)).round();
        if (p * f64::from(d) - n).abs() < 1e-9 {
            return if d == 1 {
                format!("{n}")
            } else {
                format!("{n}/{d}")
            };
        }
    }
    format!("{p:.3}")
}

/// One step of a step function for a plot: the value range `[lo, hi]`
/// (both ends included, ±∞ allowed) on which it takes `height` (∞ for an
/// impossible target).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PlotStep {
    /// First value of the step.
    pub lo: f64,
    /// Last value of the step.
    pub hi: f64,
    /// The function's value there.
    pub height: f64,
}

/// A node's proof and disproof functions and the root's search interval,
/// in value units (what the app draws as step plots).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FunctionPlot {
    /// The node the functions belong to.
    pub node: NodeId,
    /// p(v): leaves that must change for the node's value to reach ≥ v.
    pub p: Vec<PlotStep>,
    /// d(v): leaves that must change for the node's value to fall to ≤ v.
    pub d: Vec<PlotStep>,
    /// The node's minimax value (where p and d meet at 0).
    pub value: f64,
    /// The root's search interval [v_min, v_max].
    pub v_min: f64,
    /// See `v_min`.
    pub v_max: f64,
    /// The root's conspiracy numbers at the interval's ends: p(v_max) and
    /// d(v_min).
    pub root_p: f64,
    /// See `root_p`.
    pub root_d: f64,
}

/// Read access to a search tree, enough to build a bounded snapshot with
/// [`collect_nodes`]. Implemented by each algorithm over its own storage.
pub trait TreeAccess {
    /// Id of the search root.
    fn root_id(&self) -> NodeId;
    /// Children ids in move order (empty when not expanded).
    fn children(&self, id: NodeId, out: &mut Vec<NodeId>);
    /// Fills a snapshot node (everything but `parent`, `child_index`,
    /// `depth`, `truncated`, `on_path`).
    fn describe(&self, id: NodeId) -> SnapNode;
    /// Nodes in the subtree of `id`, itself included, when the search
    /// keeps count (the overview is exact then).
    fn subtree_size(&self, _id: NodeId) -> Option<u64> {
        None
    }
    /// The status of `id` (cheaper than [`TreeAccess::describe`] where a
    /// search can say it without formatting a move).
    fn status(&self, id: NodeId) -> NodeStatus {
        self.describe(id).status
    }
}

/// Breadth-first collection of at most `req.max_nodes` nodes from the focus
/// down to `req.max_depth` levels (or in the path view's shape, see
/// [`ViewRequest::expands`]), always including the nodes of
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
        let expand_all = req.expands(id, rel_depth, forced);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_read_as_fractions() {
        assert_eq!(fmt_probability(1.0 / 6.0), "1/6");
        assert_eq!(fmt_probability(0.5), "1/2");
        assert_eq!(fmt_probability(0.25), "1/4");
        assert_eq!(fmt_probability(1.0), "1");
        assert_eq!(fmt_probability(0.3), "3/10");
        assert_eq!(fmt_probability(0.123_456), "0.123");
    }
    use crate::search::test_support::on_empty_tictactoe;

    /// Move paths of a snapshot's nodes, each with its parent's path.
    fn paths(s: &Snapshot) -> Vec<(String, Option<String>)> {
        let mut out: Vec<(String, Option<String>)> = Vec::new();
        for n in &s.nodes {
            let parent = n.parent.map(|p| out[p as usize].0.clone());
            let me = match &parent {
                Some(p) => format!("{p}/{}", n.move_label),
                None => String::new(),
            };
            out.push((me, parent));
        }
        out
    }

    #[test]
    fn the_path_view_lists_the_path_its_siblings_and_the_opened_nodes_children() {
        for algo in ["pns", "dfpn", "dfs", "alphabeta"] {
            let mut s = on_empty_tictactoe(algo, &[]);
            // Alpha-beta's iterations are node visits of a deepening search.
            let steps = if algo == "alphabeta" { 300 } else { 25 };
            for _ in 0..steps {
                s.step();
            }
            // The reference: the whole tree as the levels view lists it.
            let full = s.snapshot(&ViewRequest {
                max_depth: 64,
                max_nodes: 1_000_000,
                ..ViewRequest::default()
            });
            let full_paths = paths(&full);
            let on_path: HashSet<String> = full
                .nodes
                .iter()
                .zip(&full_paths)
                .filter(|(n, _)| n.on_path)
                .map(|(_, p)| p.0.clone())
                .collect();
            // Open one node off the path that has children.
            let opened = full.nodes.iter().zip(&full_paths).find(|(n, p)| {
                !n.on_path
                    && p.1.as_ref().is_some_and(|q| on_path.contains(q))
                    && full_paths.iter().any(|c| c.1.as_ref() == Some(&p.0))
            });
            let mut req = ViewRequest {
                max_depth: 1,
                path_view: true,
                ..ViewRequest::default()
            };
            if let Some((n, _)) = opened {
                req.open.insert(n.id);
            }
            let opened_path = opened.map(|(_, p)| p.0.clone());
            let shown: HashSet<String> =
                paths(&s.snapshot(&req)).into_iter().map(|p| p.0).collect();
            let expected: HashSet<String> = full_paths
                .iter()
                .filter(|(me, parent)| {
                    on_path.contains(me)
                        || parent
                            .as_ref()
                            .is_some_and(|q| on_path.contains(q) || Some(q) == opened_path.as_ref())
                })
                .map(|p| p.0.clone())
                .collect();
            assert_eq!(shown, expected, "{algo}");
            assert!(
                on_path.len() > 2,
                "{algo}: the path is deeper than max_depth"
            );
        }
    }
}
