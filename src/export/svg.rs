//! The tree as a standalone SVG picture, in the app's tidy layout
//! ([`crate::layout::Tidy`]): OR squares, AND circles, chance diamonds
//! (probabilities on their edges), status colours, the
//! selection path thick orange, values under each node, moves on edges.

use std::fmt::Write as _;

use crate::layout::Tidy;
use crate::search::snapshot::NodeKind;
use crate::search::Snapshot;

use super::dot::{status_fill, PATH_COLOUR};

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The snapshot's tree as an SVG document.
pub fn to_svg(snap: &Snapshot) -> String {
    const SLOT: f32 = 62.0;
    const LEVEL: f32 = 78.0;
    const R: f32 = 12.0;
    let layout = Tidy::of(&snap.nodes);
    let w = layout.width * SLOT + 2.0 * SLOT;
    let h = layout.depth * LEVEL + 2.0 * LEVEL;
    let at = |i: usize| {
        let p = layout.pos[i];
        (SLOT + p.x * SLOT, LEVEL * 0.6 + p.y * LEVEL)
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    for (i, n) in snap.nodes.iter().enumerate() {
        let Some(p) = n.parent else { continue };
        let (x1, y1) = at(p as usize);
        let (x2, y2) = at(i);
        let path = n.on_path && snap.nodes[p as usize].on_path;
        let (color, width) = if path { (PATH_COLOUR, 3) } else { ("#777", 1) };
        let _ = writeln!(
            out,
            "<line x1=\"{x1:.1}\" y1=\"{:.1}\" x2=\"{x2:.1}\" y2=\"{:.1}\" stroke=\"{color}\" stroke-width=\"{width}\"/>",
            y1 + R,
            y2 - R
        );
        let (mx, my) = (x1 + (x2 - x1) * 0.55 + 4.0, y1 + (y2 - y1) * 0.55);
        let _ = writeln!(
            out,
            "<text x=\"{mx:.1}\" y=\"{my:.1}\">{}</text>",
            xml_escape(&snap.edge_label(i))
        );
    }
    for (i, n) in snap.nodes.iter().enumerate() {
        let (x, y) = at(i);
        let stroke = if n.on_path {
            format!("stroke=\"{PATH_COLOUR}\" stroke-width=\"3\"")
        } else {
            "stroke=\"#333\"".to_string()
        };
        match n.kind {
            NodeKind::Or => {
                let _ = writeln!(
                    out,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{}\" height=\"{}\" fill=\"{}\" {stroke}/>",
                    x - R,
                    y - R,
                    2.0 * R,
                    2.0 * R,
                    status_fill(n.status)
                );
            }
            NodeKind::Chance => {
                let _ = writeln!(
                    out,
                    "<polygon points=\"{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}\" fill=\"{}\" {stroke}/>",
                    y - R,
                    x + R,
                    y + R,
                    x - R,
                    status_fill(n.status)
                );
            }
            NodeKind::And => {
                let _ = writeln!(
                    out,
                    "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{R}\" fill=\"{}\" {stroke}/>",
                    status_fill(n.status)
                );
            }
        }
        let _ = writeln!(
            out,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            y + R + 12.0,
            xml_escape(&snap.label(&n.values, " / "))
        );
    }
    out.push_str("</svg>\n");
    out
}
