//! Alpha-beta as a [`Search`]: snapshots of the recorded tree (each node
//! with its value, window (α, β), SCN and static evaluation; cut-off
//! children as the leaves they count as) and the inspector's explanation
//! of a node's SCN.

use crate::game::Game;
use crate::search::pn::{self, INF};
use crate::search::snapshot::{
    collect_nodes, fmt_value, ChildSummary, Frame as SnapFrame, Inspection, NodeId, NodeKind,
    NodeStatus, SnapNode, Snapshot, TreeAccess, ViewRequest,
};
use crate::search::{Search, StatsSample, Status, StopReason};

use super::engine::{AlphaBeta, NEG_INF, POS_INF};
use super::trace::{Role, TraceNode};
use super::VALUE_NAMES;

/// A window bound as a float (±∞ for the open ends).
fn bound(v: i64) -> f64 {
    match v {
        NEG_INF => f64::NEG_INFINITY,
        POS_INF => f64::INFINITY,
        v => v as f64,
    }
}

/// A window bound as text.
fn bound_text(v: i64) -> String {
    fmt_value(bound(v))
}

impl<G: Game> AlphaBeta<G> {
    /// Snapshot id of recorded node `i` (unique across depths, so a viewer
    /// never confuses the trees of two depths).
    fn node_id(&self, i: u32) -> NodeId {
        (u64::from(self.trace.depth) << 32) | u64::from(i)
    }

    /// The recorded node of a snapshot id, if it belongs to this depth.
    fn node_index(&self, id: NodeId) -> Option<u32> {
        let i = (id & 0xFFFF_FFFF) as u32;
        ((id >> 32) as u32 == self.trace.depth && (i as usize) < self.trace.len()).then_some(i)
    }

    /// The open frame of recorded node `i`, if it is on the stack.
    fn open_frame_of(&self, i: u32) -> Option<&super::engine::Frame<G>> {
        self.frames[..self.sp].iter().find(|f| f.trace == i)
    }

    /// The position at recorded node `i`.
    fn position_at(&self, i: u32) -> G {
        let mut g = self.root.clone();
        for m in self.trace.path_moves(i) {
            g.play(m);
        }
        g
    }

    /// The values shown for recorded node `i`: value, α, β, scn, eval,
    /// cut-off (NaN where a value does not apply yet).
    fn values_of(&self, i: u32) -> Vec<f64> {
        let n = &self.trace.nodes[i as usize];
        let (alpha, beta, scn) = match self.open_frame_of(i) {
            Some(f) => (f.alpha, f.beta, f.scn),
            None => (n.alpha, n.beta, n.scn),
        };
        let leaf_eval = matches!(n.role, Role::Horizon | Role::CutOff);
        vec![
            if n.done { n.value as f64 } else { f64::NAN },
            if n.role == Role::CutOff {
                f64::NAN
            } else {
                bound(alpha)
            },
            if n.role == Role::CutOff {
                f64::NAN
            } else {
                bound(beta)
            },
            if n.done || n.role == Role::Inner {
                pn::to_f64(scn)
            } else {
                f64::NAN
            },
            if leaf_eval { n.value as f64 } else { f64::NAN },
            if n.role == Role::CutOff { 1.0 } else { 0.0 },
        ]
    }

    /// Recorded ids from the root to the node being searched (while
    /// running) or along the principal variation (when a depth is done).
    fn selection(&self) -> Vec<u32> {
        if self.trace.len() == 0 {
            return Vec::new();
        }
        if self.sp > 0 {
            return self.frames[..self.sp]
                .iter()
                .map(|f| f.trace)
                .take_while(|&t| t != super::trace::NO_NODE)
                .collect();
        }
        let mut out = vec![0u32];
        let mut t = 0u32;
        while let Some(b) = self.trace.nodes[t as usize].best {
            match self.trace.nodes[t as usize].children.get(b as usize) {
                Some(&c) => {
                    out.push(c);
                    t = c;
                }
                None => break,
            }
        }
        out
    }

    /// The label of the edge into recorded node `i`.
    fn move_label(&self, i: u32) -> String {
        let n = &self.trace.nodes[i as usize];
        if n.parent == super::trace::NO_NODE {
            return String::new();
        }
        self.position_at(n.parent).format_move(n.mv)
    }

    /// The inspector's text for recorded node `i`.
    fn explain(&self, i: u32) -> Inspection {
        let n = &self.trace.nodes[i as usize];
        let t = self.opts.threshold;
        let g = self.position_at(i);
        let path = self.explain_path(i);
        let mut formulas = Vec::new();
        let who = if n.is_max { "MAX" } else { "MIN" };
        let leaf_scn = |v: i64, terminal: bool| {
            if v >= i64::from(t) {
                format!("{v} ≥ T = {t} → scn = 0")
            } else if terminal {
                format!("{v} < T = {t} and the game is over → scn = ∞")
            } else {
                format!("{v} < T = {t} → scn = 1")
            }
        };
        let mut choice = None;
        match n.role {
            Role::Terminal => {
                formulas.push((
                    "node".into(),
                    "finished game: its terminal value (±10000 win/loss, 0 draw; a tree's scored leaf: its score)".into(),
                ));
                formulas.push(("scn".into(), format!("value {}", leaf_scn(n.value, true))));
            }
            Role::Horizon => {
                formulas.push((
                    "node".into(),
                    format!(
                        "leaf at the depth limit {}: its static evaluation, root player's view",
                        self.trace.depth
                    ),
                ));
                formulas.push(("scn".into(), format!("eval {}", leaf_scn(n.value, false))));
            }
            Role::CutOff => {
                formulas.push((
                    "node".into(),
                    "not searched: its parent was cut off before reaching it, so it counts as a leaf with its own static evaluation".into(),
                ));
                let terminal = g.outcome().is_some();
                let what = if terminal { "terminal value" } else { "eval" };
                formulas.push((
                    "scn".into(),
                    format!("{what} {}", leaf_scn(n.value, terminal)),
                ));
            }
            Role::Inner => {
                let (alpha, beta, scn) = match self.open_frame_of(i) {
                    Some(f) => (f.alpha, f.beta, f.scn),
                    None => (n.alpha, n.beta, n.scn),
                };
                formulas.push((
                    "node".into(),
                    format!(
                        "{who} node searched with the window (α, β) = ({}, {}){}",
                        bound_text(n.alpha),
                        bound_text(n.beta),
                        if self.opts.prune {
                            ""
                        } else {
                            " (prune = false: full width)"
                        }
                    ),
                ));
                let mut searched = Vec::new();
                let mut parts = Vec::new();
                for &c in &n.children {
                    let cn = &self.trace.nodes[c as usize];
                    let label = self.position_at(i).format_move(cn.mv);
                    if cn.role == Role::CutOff {
                        parts.push(format!("{} {label} (cut-off leaf)", pn::fmt(cn.scn)));
                    } else if cn.done {
                        searched.push(format!("{} {label}", cn.value));
                        parts.push(format!("{} {label}", pn::fmt(cn.scn)));
                    }
                }
                let (op, joiner) = if n.is_max {
                    ("min", ", ")
                } else {
                    ("Σ", " + ")
                };
                let so_far = if n.done { "" } else { " so far" };
                formulas.push((
                    "scn".into(),
                    format!(
                        "{who}: scn = {op}({}) = {}{so_far}",
                        parts.join(joiner),
                        pn::fmt(scn)
                    ),
                ));
                let agg = if n.is_max { "max" } else { "min" };
                let value = if n.done {
                    n.value.to_string()
                } else {
                    "…".to_string()
                };
                formulas.push((
                    "value".into(),
                    format!(
                        "value = {agg}({}) kept inside ({}, {}) (fail-hard) = {value}",
                        searched.join(", "),
                        bound_text(n.alpha),
                        bound_text(n.beta)
                    ),
                ));
                formulas.push((
                    "window".into(),
                    format!("now (α, β) = ({}, {})", bound_text(alpha), bound_text(beta)),
                ));
                if n.dropped {
                    formulas.push((
                        "note".into(),
                        "some children are not shown: the recorded tree reached its size cap"
                            .into(),
                    ));
                }
                if n.cut {
                    let skipped = n.n_moves as usize - searched.len();
                    choice = Some(if n.is_max {
                        format!("β cut-off: a child reached β; the {skipped} later children were not searched and count as leaves (scn = min, so one child with scn 0 suffices)")
                    } else {
                        format!("α cut-off: a child fell to α; the {skipped} later children were not searched and count as leaves (scn = Σ, so each adds 0, 1 or ∞)")
                    });
                } else if let Some(b) = n.best {
                    if let Some(&c) = n.children.get(b as usize) {
                        choice = Some(format!(
                            "best child {} (the first to set the value)",
                            self.move_label(c)
                        ));
                    }
                }
            }
        }
        Inspection {
            node: self.node_id(i),
            path,
            formulas,
            choice,
        }
    }
}

impl<G: Game> TreeAccess for AlphaBeta<G> {
    fn root_id(&self) -> NodeId {
        self.node_id(0)
    }

    fn children(&self, id: NodeId, out: &mut Vec<NodeId>) {
        if let Some(i) = self.node_index(id) {
            out.extend(
                self.trace.nodes[i as usize]
                    .children
                    .iter()
                    .map(|&c| self.node_id(c)),
            );
        }
    }

    fn describe(&self, id: NodeId) -> SnapNode {
        let i = self.node_index(id).unwrap_or(0);
        let n: &TraceNode<G::Move> = &self.trace.nodes[i as usize];
        let scn = match self.open_frame_of(i) {
            Some(f) => f.scn,
            None => n.scn,
        };
        SnapNode {
            id,
            parent: None,
            child_index: 0,
            depth: n.ply,
            move_label: self.move_label(i),
            kind: NodeKind::or_and(n.is_max),
            status: if !n.done {
                NodeStatus::Unknown
            } else if scn == 0 {
                NodeStatus::Proven
            } else if scn == INF {
                NodeStatus::Disproven
            } else {
                NodeStatus::Unknown
            },
            values: self.values_of(i),
            expanded: n.role == Role::Inner,
            n_children: n.n_moves,
            descendants: 0,
            truncated: false,
            on_path: false,
            terminal: n.role == Role::Terminal,
            source: Default::default(),
        }
    }
}

impl<G: Game> Search for AlphaBeta<G> {
    crate::search::arena_search::checkpoint_by_clone!();

    fn algo(&self) -> &'static str {
        "alphabeta"
    }

    fn step(&mut self) -> Status {
        let st = self.step_search();
        // The recorded tree grows node by node: say so after every step,
        // not only when a depth ends.
        self.counters.live_nodes = self.trace.len() as u64;
        st
    }

    fn status(&self) -> Status {
        AlphaBeta::status(self)
    }

    fn stop(&mut self, reason: StopReason) {
        self.stop_search(reason);
    }

    crate::search::arena_search::counter_accessors!();

    fn value_names(&self) -> &'static [&'static str] {
        VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let sel = self.selection();
        let path: Vec<NodeId> = sel.iter().map(|&i| self.node_id(i)).collect();
        let nodes = if self.trace.len() == 0 {
            Vec::new()
        } else {
            collect_nodes(self, req, &path)
        };
        let root_children = if self.trace.len() == 0 {
            Vec::new()
        } else {
            self.trace.nodes[0]
                .children
                .iter()
                .map(|&c| ChildSummary::of(self.describe(self.node_id(c))))
                .collect()
        };
        let frames = self.frames[..self.sp]
            .iter()
            .enumerate()
            .map(|(k, f)| SnapFrame {
                node: self.node_id(f.trace),
                move_label: if k == 0 {
                    String::new()
                } else {
                    let p = &self.frames[k - 1];
                    p.pos.format_move(p.moves[p.next - 1])
                },
                values: vec![
                    ("α".to_string(), bound(f.alpha)),
                    ("β".to_string(), bound(f.beta)),
                    ("scn".to_string(), pn::to_f64(f.scn)),
                ],
            })
            .collect();
        let inspect = req.inspect.and_then(|id| self.node_index(id));
        let inspection = inspect.map(|i| self.explain(i));
        let (position, position_path) = if req.want_position {
            let i = inspect.unwrap_or(0);
            if self.trace.len() > 0 {
                let labels = self.explain_path(i);
                (Some(self.position_at(i).into_any()), labels)
            } else {
                (Some(self.root.clone().into_any()), Vec::new())
            }
        } else {
            (None, Vec::new())
        };
        let mut extras = vec![
            ("T".to_string(), self.opts.threshold.to_string()),
            (
                "depth".to_string(),
                format!("{} of {}", self.depth, self.opts.max_depth),
            ),
            (
                "prune".to_string(),
                if self.opts.prune {
                    "alpha-beta"
                } else {
                    "full-width minimax"
                }
                .to_string(),
            ),
            ("cut-off leaves".to_string(), self.cutoff_leaves.to_string()),
        ];
        for p in &self.curve {
            extras.push((
                format!("d={}", p.depth),
                format!(
                    "value {}, scn {}, {} nodes{}",
                    p.value,
                    pn::fmt(p.scn),
                    p.nodes,
                    p.best_move
                        .as_ref()
                        .map_or(String::new(), |m| format!(", best {m}"))
                ),
            ));
        }
        let selection_moves = sel.iter().skip(1).map(|&i| self.move_label(i)).collect();
        let overview = crate::search::overview::for_request(req, self, &path, &nodes);
        Snapshot {
            algo: "alphabeta".to_string(),
            status: AlphaBeta::status(self),
            counters: self.counters.clone(),
            value_names: VALUE_NAMES.iter().map(|s| s.to_string()).collect(),
            label_values: vec![0, 3],
            nodes,
            extra_edges: Vec::new(),
            selection_path: path,
            selection_moves,
            root_children,
            frames,
            total_nodes: self.trace.len() as u64,
            inspection,
            position,
            position_path,
            switch_events: Vec::new(),
            extras,
            functions: None,
            overview,
        }
    }

    fn sample(&self) -> StatsSample {
        self.sample_now()
    }

    fn best_move(&self) -> Option<String> {
        self.curve.last().and_then(|p| p.best_move.clone())
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::{json, Value};
        let mut m = serde_json::Map::new();
        let last = self.curve.last();
        m.insert("value".into(), last.map_or(Value::Null, |p| json!(p.value)));
        m.insert(
            "scn".into(),
            last.map_or(Value::Null, |p| {
                if p.scn == INF {
                    Value::Null
                } else {
                    json!(p.scn)
                }
            }),
        );
        m.insert("nodes_visited".into(), json!(self.nodes_visited()));
        m.insert("cutoff_leaves".into(), json!(self.cutoff_leaves));
        m.insert("T".into(), json!(self.opts.threshold));
        m.insert("pv".into(), last.map_or(Value::Null, |p| json!(p.pv)));
        m.insert(
            "curve".into(),
            serde_json::to_value(&self.curve).unwrap_or(Value::Null),
        );
        m
    }
}

impl<G: Game> AlphaBeta<G> {
    /// Move labels from the root to recorded node `i`.
    fn explain_path(&self, i: u32) -> Vec<String> {
        let mut p = self.root.clone();
        let mut out = Vec::new();
        for m in self.trace.path_moves(i) {
            out.push(p.format_move(m));
            p.play(m);
        }
        out
    }
}
