//! The snapshot both df-pn implementations (the plain [`Dfpn`] and
//! `dfpn-fast`) build from their tree view ([`super::dag_view`]): the
//! drawn DAG, the MID path as frames, the root's children and the
//! inspected position; each adds its own counters, inspector text and
//! table figures.
//!
//! [`Dfpn`]: super::Dfpn

use crate::game::Game;
use crate::search::pn::{self, Pn};
use crate::search::snapshot::{
    ChildSummary, Frame as SnapFrame, Inspection, NodeId, Snapshot, ViewRequest,
};
use crate::search::Search;

use super::dag_view::{collect_dag, find_position, node_status, DagSource};
use super::options::DfpnOptions;

/// A MID call on the path as a frame shows it.
pub struct PathFrame {
    /// The node (its table key).
    pub node: NodeId,
    /// The attacker moves there.
    pub or: bool,
    /// The thresholds the parent gave the call, (pn, dn).
    pub thresholds: (Pn, Pn),
    /// The node's numbers as the call last computed them, (pn, dn).
    pub numbers: (Pn, Pn),
}

impl PathFrame {
    /// The frame of node `node` (OR when `or`) with the call's thresholds
    /// and numbers, each (pn, dn).
    pub fn new(node: NodeId, or: bool, thresholds: (Pn, Pn), numbers: (Pn, Pn)) -> PathFrame {
        PathFrame {
            node,
            or,
            thresholds,
            numbers,
        }
    }
}

/// What a df-pn implementation gives its snapshot besides what its
/// [`Search`] methods and its tree view say.
pub struct DagSnapshotParts<'a, M> {
    /// The root's moves in the order the search keeps them.
    pub root_moves: &'a [M],
    /// Positions the table holds.
    pub total_nodes: u64,
    /// The inspector's text for the requested node.
    pub inspection: Option<Inspection>,
    /// The implementation's own figures.
    pub extras: Vec<(String, String)>,
}

/// The snapshot of the df-pn search `search`, whose tree `s` describes.
pub fn dag_snapshot<G: Game, S: DagSource<G>>(
    search: &dyn Search,
    s: &S,
    req: &ViewRequest,
    parts: DagSnapshotParts<'_, G::Move>,
) -> Snapshot {
    let (nodes, extra_edges) = collect_dag(s, req);
    let labels = s.path_labels();
    let root = s.root_position();
    let (position, position_path) = match req.inspect.and_then(|id| find_position(s, id)) {
        Some((g, p)) => (g, p),
        None => (root.clone(), Vec::new()),
    };
    let events = search.switch_events();
    let frames = s.path_frames();
    let overview = crate::search::overview::if_requested(req, &nodes);
    Snapshot {
        algo: search.algo().to_string(),
        status: search.status(),
        counters: search.counters().clone(),
        value_names: pn::PN_DN_NAMES.iter().map(|s| s.to_string()).collect(),
        label_values: vec![0, 1],
        nodes,
        extra_edges,
        selection_path: frames.iter().map(|f| f.node).collect(),
        root_children: root_children(s, parts.root_moves),
        frames: snap_frames(&frames, &labels),
        selection_moves: labels,
        total_nodes: parts.total_nodes,
        inspection: parts.inspection,
        position: req.want_position.then(|| position.into_any()),
        position_path,
        switch_events: events[events.len().saturating_sub(1000)..].to_vec(),
        extras: parts.extras,
        functions: None,
        overview,
    }
}

/// The path's frames, each with the move leading to it (`labels` has one
/// per frame below the root), named as the thresholds and numbers seen
/// from the node's side (thφ, thδ, φ, δ), so the tree draws them beside
/// the path alike for both implementations.
fn snap_frames(frames: &[PathFrame], labels: &[String]) -> Vec<SnapFrame> {
    frames
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let from_side = |(a, b): (Pn, Pn)| if f.or { (a, b) } else { (b, a) };
            let (tp, td) = from_side(f.thresholds);
            let (phi, delta) = from_side(f.numbers);
            SnapFrame {
                node: f.node,
                move_label: if i == 0 {
                    String::new()
                } else {
                    labels[i - 1].clone()
                },
                values: vec![
                    ("thφ".into(), pn::to_f64(tp)),
                    ("thδ".into(), pn::to_f64(td)),
                    ("φ".into(), pn::to_f64(phi)),
                    ("δ".into(), pn::to_f64(delta)),
                ],
            }
        })
        .collect()
}

/// The root's children with the numbers the view draws for them.
fn root_children<G: Game, S: DagSource<G>>(s: &S, moves: &[G::Move]) -> Vec<ChildSummary> {
    let root = s.root_position();
    moves
        .iter()
        .map(|&m| {
            let mut c = root.clone();
            c.play(m);
            let (p, d, _) = s.numbers_at(&c, 1);
            ChildSummary {
                id: s.node_key(&c),
                move_label: root.format_move(m),
                status: node_status(p, d),
                values: pn::pn_dn_values(p, d),
            }
        })
        .collect()
}

/// The snapshot figures of the unknown-node parameters a ghost's numbers
/// come from: ε of the 1+ε trick and Deep df-pn's (E, D), where set.
pub fn option_extras(opts: &DfpnOptions) -> Vec<(String, String)> {
    let mut extras = Vec::new();
    if let Some(e) = opts.eps {
        extras.push(("eps".into(), e.to_string()));
    }
    if let Some((e, d)) = opts.deep {
        extras.push(("E".into(), e.to_string()));
        extras.push(("D".into(), d.to_string()));
    }
    extras
}
