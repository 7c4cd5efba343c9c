//! Snapshots of the opponent-model search: the recorded tree with both
//! values per node, the stack as frames, and the inspector's text (how a
//! MIN node's value comes from the model's reply rather than the least
//! value).

use crate::game::Game;
use crate::search::snapshot::{
    collect_nodes, recorded_path, root_children, Frame as SnapFrame, Inspection, NodeId, NodeKind,
    NodeStatus, SnapNode, Snapshot, TreeAccess, ViewRequest,
};
use crate::search::Search;

use super::engine::{OmKind, OmRec, NO_REC};
use super::Om;

/// The per-node values: the searcher's value v, the model's value v₂,
/// and whether the node is the move the node's mover picks (1) or not.
pub const VALUE_NAMES: &[&str] = &["v", "v₂", "picked"];

struct RecView<'a, G: Game> {
    recs: &'a [OmRec<G::Move>],
    root: &'a G,
}

impl<G: Game> RecView<'_, G> {
    /// The position at record `r`, replayed from the root.
    fn position(&self, r: u32) -> G {
        let mut path = Vec::new();
        let mut x = r;
        while x != 0 && x != NO_REC {
            path.push(self.recs[x as usize].mv);
            x = self.recs[x as usize].parent;
        }
        let mut g = self.root.clone();
        for &m in path.iter().rev() {
            g.play(m);
        }
        g
    }

    fn labels(&self, r: u32) -> Vec<String> {
        let mut path = Vec::new();
        let mut x = r;
        while x != 0 && x != NO_REC {
            path.push(x);
            x = self.recs[x as usize].parent;
        }
        let mut g = self.root.clone();
        let mut out = Vec::new();
        for &x in path.iter().rev() {
            let m = self.recs[x as usize].mv;
            out.push(g.format_move(m));
            g.play(m);
        }
        out
    }

    fn label(&self, r: u32) -> String {
        self.labels(r).pop().unwrap_or_default()
    }

    fn picked(&self, r: u32) -> bool {
        let rec = &self.recs[r as usize];
        rec.parent != NO_REC && self.recs[rec.parent as usize].best == Some(rec.child_index)
    }
}

impl<G: Game> TreeAccess for RecView<'_, G> {
    fn root_id(&self) -> NodeId {
        0
    }

    fn children(&self, id: NodeId, out: &mut Vec<NodeId>) {
        let r = &self.recs[id as usize];
        if r.first_child != NO_REC && r.kind == OmKind::Inner {
            out.extend((r.first_child..r.first_child + r.n_children).map(NodeId::from));
        }
    }

    fn describe(&self, id: NodeId) -> SnapNode {
        let r = &self.recs[id as usize];
        let visited = r.kind != OmKind::Unvisited;
        let value = |x: i64| if visited { x as f64 } else { f64::NAN };
        SnapNode {
            id,
            parent: None,
            child_index: r.child_index,
            depth: 0,
            move_label: self.label(id as u32),
            kind: NodeKind::or_and(r.is_max),
            status: NodeStatus::Unknown,
            values: vec![
                value(r.v),
                value(r.v2),
                if self.picked(id as u32) { 1.0 } else { 0.0 },
            ],
            expanded: r.kind == OmKind::Inner,
            n_children: r.n_children,
            descendants: 0,
            truncated: false,
            on_path: false,
            terminal: r.kind == OmKind::Terminal,
            source: Default::default(),
        }
    }
}

fn explain<G: Game>(view: &RecView<'_, G>, id: u32) -> Inspection {
    let r = &view.recs[id as usize];
    let mut formulas = Vec::new();
    let kids: Vec<(u32, &OmRec<G::Move>)> = if r.first_child == NO_REC {
        Vec::new()
    } else {
        (r.first_child..r.first_child + r.n_children)
            .map(|c| (c, &view.recs[c as usize]))
            .collect()
    };
    let list = |f: &dyn Fn(&OmRec<G::Move>) -> i64| -> String {
        kids.iter()
            .map(|(c, k)| {
                if k.kind == OmKind::Unvisited {
                    format!("{}: –", view.label(*c))
                } else {
                    format!("{}: {}", view.label(*c), f(k))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let best = r
        .best
        .map(|b| view.label(r.first_child + b))
        .unwrap_or_default();
    match r.kind {
        OmKind::Unvisited => formulas.push((
            "v".into(),
            "not searched: the opponent would not pick the MAX node above (opponent-model cut-off)"
                .into(),
        )),
        OmKind::Terminal => formulas.push((
            "v".into(),
            format!(
                "game over: v = {} (a draw counts −contempt), v₂ = {}",
                r.v, r.v2
            ),
        )),
        OmKind::Horizon => formulas.push((
            "v".into(),
            format!("depth limit: v = f1 = {}, v₂ = f2 = {}", r.v, r.v2),
        )),
        OmKind::Inner if r.is_max => {
            formulas.push((
                "v".into(),
                format!(
                    "MAX picks by its own values: v = max({}) = {} ({best})",
                    list(&|k| k.v),
                    r.v
                ),
            ));
            formulas.push((
                "v₂".into(),
                format!(
                    "the model's minimax on f2: v₂ = max({}) = {}",
                    list(&|k| k.v2),
                    r.v2
                ),
            ));
            if r.cut {
                formulas.push(("cut".into(), format!("opponent-model cut-off: v₂ reached the best v₂ of the MIN node above, so the opponent will not play into this node (v₂ = {})", r.v2)));
            }
        }
        OmKind::Inner => {
            let minimax = kids
                .iter()
                .filter(|(_, k)| k.kind != OmKind::Unvisited)
                .map(|(_, k)| k.v)
                .min();
            formulas.push((
                "v₂".into(),
                format!(
                    "the opponent replies by f2: v₂ = min({}) = {} → {best}",
                    list(&|k| k.v2),
                    r.v2
                ),
            ));
            formulas.push((
                "v".into(),
                format!("v = v({best}) = {}, what MAX gets after that reply (plain minimax on f1 would take min v = {})", r.v, minimax.map_or("–".into(), |m| m.to_string())),
            ));
        }
    }
    Inspection {
        node: NodeId::from(id),
        path: view.labels(id),
        formulas,
        choice: (!best.is_empty()).then(|| format!("picked: {best}")),
    }
}

/// The snapshot of an opponent-model search.
pub fn snapshot<G: Game>(s: &Om<G>, req: &ViewRequest) -> Snapshot {
    let e = s.engine();
    let view = RecView {
        recs: &e.recs,
        root: &e.root,
    };
    let mut path = recorded_path(e.stack.iter().map(|f| f.rec), NO_REC);
    // Before the first visit nothing is recorded: no node, no path.
    if path.is_empty() && !e.recs.is_empty() {
        path.push(0);
    }
    let nodes = if e.recs.is_empty() {
        Vec::new()
    } else {
        collect_nodes(&view, req, &path)
    };
    let root_children = if e.recs.is_empty() {
        Vec::new()
    } else {
        root_children(&view)
    };
    let frames = e
        .stack
        .iter()
        .map(|f| SnapFrame {
            node: NodeId::from(f.rec),
            move_label: if f.rec == NO_REC {
                String::new()
            } else {
                view.label(f.rec)
            },
            values: vec![("v".into(), f.v as f64), ("v₂".into(), f.v2 as f64)],
        })
        .collect();
    let target = req
        .inspect
        .filter(|&i| (i as usize) < e.recs.len())
        .map(|i| i as u32);
    let last = *path.last().unwrap_or(&0) as u32;
    let pos_rec = target.unwrap_or(0);
    let values = s.values();
    let overview = crate::search::overview::if_requested(req, &nodes);
    Snapshot {
        algo: "om".to_string(),
        status: s.status(),
        counters: s.counters().clone(),
        value_names: VALUE_NAMES.iter().map(|v| v.to_string()).collect(),
        label_values: vec![0, 1],
        nodes,
        extra_edges: Vec::new(),
        selection_moves: if e.recs.is_empty() {
            Vec::new()
        } else {
            view.labels(last)
        },
        selection_path: path,
        root_children,
        frames,
        total_nodes: e.recs.len() as u64,
        inspection: target.map(|t| explain(&view, t)),
        position: req.want_position.then(|| {
            if e.recs.is_empty() {
                e.root.clone().into_any()
            } else {
                view.position(pos_rec).into_any()
            }
        }),
        position_path: if e.recs.is_empty() {
            Vec::new()
        } else {
            view.labels(pos_rec)
        },
        switch_events: Vec::new(),
        extras: vec![
            (
                "v (searcher)".into(),
                values.map_or("…".into(), |v| v.0.to_string()),
            ),
            (
                "v₂ (model)".into(),
                values.map_or("…".into(), |v| v.1.to_string()),
            ),
            ("opponent-model cut-offs".into(), e.om_cutoffs.to_string()),
        ],
        overview,
        functions: None,
    }
}
