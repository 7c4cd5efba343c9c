//! Snapshots of a chance search: the recorded tree (chance nodes as their
//! own kind, the edge probabilities as a value), the stack as frames, and
//! the inspector's text: a chance node's m and M after each outcome and
//! why a cut-off happened, a MAX/MIN node's alpha-beta.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::game::Game;
use crate::search::snapshot::{
    collect_nodes, fmt_value, recorded_path, root_children, Frame as SnapFrame, Inspection, NodeId,
    NodeKind, NodeStatus, SnapNode, Snapshot, TreeAccess, ViewRequest,
};

use super::engine::Kind;
use super::record::{Bound, Cut, Phase, Rec, RecKind, Records, NONE};
use super::ChanceSearch;
use crate::search::Search;

/// The per-node values: the returned value, the window it was searched
/// with, and the probability of the edge from a chance parent.
pub const VALUE_NAMES: &[&str] = &["v", "α", "β", "p"];

/// Bytes one record costs (the cap on the record is the memory budget
/// divided by this).
pub fn record_bytes<G: Game>(_: &G) -> u64 {
    std::mem::size_of::<Rec<G::Move>>() as u64
}

/// The root's values for the curves: the value (or NaN) and the root
/// frame's window.
pub fn root_values<G: Game>(s: &ChanceSearch<G>) -> Vec<f64> {
    let e = s.engine();
    let (a, b) = e
        .stack
        .first()
        .map_or((e.low, e.high), |f| (f.alpha, f.beta));
    vec![e.value.unwrap_or(f64::NAN), a, b, 1.0]
}

/// The recorded tree as seen by [`collect_nodes`], with the positions of
/// the nodes described so far (for move labels).
struct RecordView<'a, G: Game> {
    records: &'a Records<G::Move>,
    root: &'a G,
    positions: RefCell<HashMap<u32, G>>,
}

impl<G: Game> RecordView<'_, G> {
    /// The position at `rec` (replayed from the nearest cached ancestor).
    fn position(&self, rec: u32) -> G {
        if let Some(g) = self.positions.borrow().get(&rec) {
            return g.clone();
        }
        let mut path = Vec::new();
        let mut r = rec;
        let mut g = loop {
            if r == 0 || r == NONE {
                break self.root.clone();
            }
            if let Some(g) = self.positions.borrow().get(&r) {
                break g.clone();
            }
            path.push(self.records.recs[r as usize].mv);
            r = self.records.recs[r as usize].parent;
        };
        for &m in path.iter().rev() {
            g.play(m);
        }
        self.positions.borrow_mut().insert(rec, g.clone());
        g
    }

    fn move_label(&self, rec: u32) -> String {
        let r = &self.records.recs[rec as usize];
        if r.parent == NONE {
            return String::new();
        }
        self.position(r.parent).format_move(r.mv)
    }
}

fn snap_kind(k: RecKind) -> NodeKind {
    match k {
        RecKind::Min => NodeKind::And,
        RecKind::Chance => NodeKind::Chance,
        _ => NodeKind::Or,
    }
}

impl<G: Game> TreeAccess for RecordView<'_, G> {
    fn root_id(&self) -> NodeId {
        0
    }

    fn children(&self, id: NodeId, out: &mut Vec<NodeId>) {
        let Some(r) = self.records.recs.get(id as usize) else {
            return;
        };
        if r.kind == RecKind::Unvisited || r.first_child == NONE {
            return;
        }
        out.extend((r.first_child..r.first_child + r.n_children).map(NodeId::from));
    }

    fn describe(&self, id: NodeId) -> SnapNode {
        let r = &self.records.recs[id as usize];
        let parent_chance =
            r.parent != NONE && self.records.recs[r.parent as usize].kind == RecKind::Chance;
        SnapNode {
            id,
            parent: None,
            child_index: r.child_index,
            depth: 0,
            move_label: self.move_label(id as u32),
            kind: snap_kind(r.kind),
            status: NodeStatus::Unknown,
            values: vec![
                r.value,
                r.window.0,
                r.window.1,
                if parent_chance { r.prob } else { f64::NAN },
            ],
            expanded: r.kind != RecKind::Unvisited && r.first_child != NONE,
            n_children: r.n_children,
            descendants: 0,
            truncated: false,
            on_path: false,
            terminal: r.kind == RecKind::Leaf,
            source: Default::default(),
        }
    }
}

/// A window in words.
fn window_text((a, b): (f64, f64)) -> String {
    format!("({}, {})", fmt_value(a), fmt_value(b))
}

/// A returned value with what it says (`≥ 0.5`, `≤ 0.2`, `0.3`).
fn bounded(v: f64, b: Bound) -> String {
    match b {
        Bound::Lower => format!("≥ {}", fmt_value(v)),
        Bound::Upper => format!("≤ {}", fmt_value(v)),
        Bound::Pending => "…".to_string(),
        Bound::Exact => fmt_value(v),
    }
}

/// The inspector's text for `rec`.
fn explain<G: Game>(s: &ChanceSearch<G>, view: &RecordView<'_, G>, rec: u32) -> Inspection {
    let recs = &s.engine().records;
    let r = &recs.recs[rec as usize];
    let mut path = Vec::new();
    let mut x = rec;
    while x != 0 && x != NONE {
        path.push(view.move_label(x));
        x = recs.recs[x as usize].parent;
    }
    path.reverse();
    let mut formulas = Vec::new();
    let kids: Vec<&Rec<G::Move>> = if r.first_child == NONE {
        Vec::new()
    } else {
        recs.recs[r.first_child as usize..(r.first_child + r.n_children) as usize]
            .iter()
            .collect()
    };
    let child_text = |i: usize, c: &Rec<G::Move>| {
        let label = view.move_label(r.first_child + i as u32);
        if c.kind == RecKind::Unvisited {
            format!("{label}: –")
        } else {
            format!("{label}: {}", bounded(c.value, c.bound))
        }
    };
    formulas.push((
        "window".to_string(),
        format!("(α, β) = {}", window_text(r.window)),
    ));
    match r.kind {
        RecKind::Leaf => formulas.push((
            "v".into(),
            format!("v = {} (final score)", fmt_value(r.value)),
        )),
        RecKind::Unvisited => formulas.push((
            "v".into(),
            "not searched: a cut-off above ended the search before this node".into(),
        )),
        RecKind::Max | RecKind::Min => {
            let f = if r.kind == RecKind::Max { "max" } else { "min" };
            let list: Vec<String> = kids
                .iter()
                .enumerate()
                .map(|(i, c)| child_text(i, c))
                .collect();
            formulas.push((
                "v".into(),
                format!(
                    "v = {f}({}) = {}",
                    list.join(", "),
                    bounded(r.value, r.bound)
                ),
            ));
            let searched = kids.iter().filter(|c| c.kind != RecKind::Unvisited).count();
            if r.bound == Bound::Lower && r.kind == RecKind::Max && searched < kids.len() {
                formulas.push(("cut".into(), format!("beta cut-off: v ≥ β = {} after {searched} of {} moves; MIN above will not allow this line", fmt_value(r.window.1), kids.len())));
            }
            if r.bound == Bound::Upper && r.kind == RecKind::Min && searched < kids.len() {
                formulas.push(("cut".into(), format!("alpha cut-off: v ≤ α = {} after {searched} of {} moves; MAX above has a better line", fmt_value(r.window.0), kids.len())));
            }
        }
        RecKind::Chance => {
            let terms: Vec<String> = kids
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{}·[{}]", fmt_value(c.prob), child_text(i, c)))
                .collect();
            formulas.push(("E".into(), format!("E = Σ p_i·v_i = {}", terms.join(" + "))));
            formulas.push((
                "m, M".into(),
                format!(
                    "m_0 = L = {}, M_0 = U = {}",
                    fmt_value(s.engine().low),
                    fmt_value(s.engine().high)
                ),
            ));
            for (k, st) in recs.steps(rec).iter().enumerate() {
                let label = view.move_label(r.first_child + st.child);
                let what = match st.phase {
                    Phase::Probe => format!("probe of {label}'s first move"),
                    Phase::Search => label.to_string(),
                };
                let mut line = format!(
                    "{what} searched with {} → {}; m = {}, M = {}",
                    window_text(st.window),
                    bounded(st.value, st.bound),
                    fmt_value(st.m),
                    fmt_value(st.big_m)
                );
                match st.cut {
                    Some(Cut::One) => line.push_str(&format!(
                        "; cut-off I: m ≥ β = {}: the expected value is already good enough, the other outcomes are not searched",
                        fmt_value(r.window.1)
                    )),
                    Some(Cut::Two) => line.push_str(&format!(
                        "; cut-off II: M ≤ α = {}: even the best results for the other outcomes cannot make this chance node good enough",
                        fmt_value(r.window.0)
                    )),
                    None => {}
                }
                formulas.push((format!("step {}", k + 1), line));
            }
            formulas.push(("v".into(), format!("v = {}", bounded(r.value, r.bound))));
        }
    }
    Inspection {
        node: NodeId::from(rec),
        path,
        formulas,
        choice: None,
    }
}

/// The snapshot of a chance search.
pub fn snapshot<G: Game>(s: &ChanceSearch<G>, req: &ViewRequest) -> Snapshot {
    let e = s.engine();
    let view = RecordView {
        records: &e.records,
        root: &s.root,
        positions: RefCell::new(HashMap::new()),
    };
    let path_ids = recorded_path(e.stack.iter().map(|f| f.rec), NONE);
    let path_ids = if path_ids.is_empty() {
        vec![0]
    } else {
        path_ids
    };
    let nodes = collect_nodes(&view, req, &path_ids);
    let root_children = root_children(&view);
    let frames = e
        .stack
        .iter()
        .map(|f| {
            let mut values = vec![("α".to_string(), f.alpha), ("β".to_string(), f.beta)];
            match f.kind {
                Kind::Chance => {
                    values.push(("m".to_string(), f.m));
                    values.push(("M".to_string(), f.big_m));
                }
                _ => values.push(("best".to_string(), f.best)),
            }
            SnapFrame {
                node: NodeId::from(f.rec),
                move_label: if f.rec == NONE {
                    String::new()
                } else {
                    view.move_label(f.rec)
                },
                values,
            }
        })
        .collect();
    let target = req
        .inspect
        .filter(|&i| (i as usize) < e.records.recs.len())
        .map(|i| i as u32);
    let inspection = target.map(|r| explain(s, &view, r));
    let pos_rec = target.unwrap_or(0);
    let labels = |r: u32| -> Vec<String> {
        let mut out = Vec::new();
        let mut x = r;
        while x != 0 && x != NONE {
            out.push(view.move_label(x));
            x = e.records.recs[x as usize].parent;
        }
        out.reverse();
        out
    };
    let last = path_ids.last().copied().unwrap_or(0) as u32;
    let c = &e.counts;
    let extras = vec![
        (
            "L, U".to_string(),
            format!("{}, {}", fmt_value(e.low), fmt_value(e.high)),
        ),
        (
            "value".to_string(),
            e.value.map_or("…".to_string(), fmt_value),
        ),
        ("nodes visited".to_string(), c.nodes_visited.to_string()),
        ("cut-offs I".to_string(), c.cutoffs_1.to_string()),
        ("cut-offs II".to_string(), c.cutoffs_2.to_string()),
        ("probe nodes".to_string(), c.probe_nodes.to_string()),
        ("probes reused".to_string(), c.probes_reused.to_string()),
        ("alpha-beta cut-offs".to_string(), c.ab_cutoffs.to_string()),
    ];
    let overview = crate::search::overview::if_requested(req, &nodes);
    Snapshot {
        algo: e.variant.name().to_string(),
        status: s.status(),
        counters: s.counters().clone(),
        value_names: VALUE_NAMES.iter().map(|v| v.to_string()).collect(),
        label_values: vec![0],
        nodes,
        extra_edges: Vec::new(),
        selection_moves: labels(last),
        selection_path: path_ids,
        root_children,
        frames,
        total_nodes: e.records.recs.len() as u64,
        inspection,
        position: req.want_position.then(|| view.position(pos_rec).into_any()),
        position_path: labels(pos_rec),
        switch_events: Vec::new(),
        extras,
        overview,
        functions: None,
    }
}
