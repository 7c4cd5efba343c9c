//! The tree as Graphviz DOT: OR nodes as boxes, AND nodes as ellipses,
//! chance nodes as diamonds (probabilities on their edges), back-edges of
//! cyclic graphs purple,
//! status colours, the selection path bold orange, moves on edges, the
//! second parents of shared nodes (df-pn's transpositions) dashed.

use std::fmt::Write as _;

use pnlab_core::search::snapshot::{NodeKind, NodeStatus};
use pnlab_core::search::Snapshot;

/// Colour of the path to the most-proving node.
pub(crate) const PATH_COLOUR: &str = "#ff9614";

/// Colour of a back-edge (a move that repeats a position on the path).
pub(crate) const BACK_EDGE_COLOUR: &str = "#aa50dc";

/// Fill colour of a node by its status (shared with the SVG export).
pub(crate) fn status_fill(s: NodeStatus) -> &'static str {
    match s {
        NodeStatus::Proven => "#2ea043",
        NodeStatus::Disproven => "#cf3939",
        NodeStatus::Unknown => "#96a5be",
    }
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The pen attributes of a node or an edge on the selection path (the
/// path colour, a thicker line); nothing for the others.
fn path_pen(on_path: bool) -> String {
    if on_path {
        format!(", color=\"{PATH_COLOUR}\", penwidth=3")
    } else {
        String::new()
    }
}

/// The snapshot's tree as Graphviz DOT (`dot -Tpdf` draws it).
pub fn to_dot(snap: &Snapshot) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph pnlab {{");
    let _ = writeln!(
        out,
        "  // {} after {} iterations",
        snap.algo, snap.counters.iterations
    );
    let _ = writeln!(out, "  node [style=filled, fontname=\"Helvetica\"];");
    for (i, n) in snap.nodes.iter().enumerate() {
        let shape = match n.kind {
            NodeKind::Or => "box",
            NodeKind::And => "ellipse",
            NodeKind::Chance => "diamond",
        };
        let pen = path_pen(n.on_path);
        let _ = writeln!(
            out,
            "  n{i} [shape={shape}, fillcolor=\"{}\", label=\"{}\"{pen}];",
            status_fill(n.status),
            dot_escape(&snap.label(&n.values, " / "))
        );
    }
    for (i, n) in snap.nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            let pen = path_pen(n.on_path && snap.nodes[p as usize].on_path);
            let _ = writeln!(
                out,
                "  n{p} -> n{i} [label=\"{}\"{pen}];",
                dot_escape(&snap.edge_label(i))
            );
        }
    }
    for e in &snap.extra_edges {
        let (a, b) = (e.from, e.to);
        let style = if e.back {
            "style=dashed, color=\"#aa50dc\", constraint=false"
        } else {
            "style=dashed"
        };
        let _ = writeln!(
            out,
            "  n{a} -> n{b} [{style}, label=\"{}\"];",
            dot_escape(&if e.back {
                format!("{} (loop)", e.label)
            } else {
                e.label.clone()
            })
        );
    }
    out.push_str("}\n");
    out
}
