//! The tree as a standalone SVG picture, in the app's tidy layout
//! ([`crate::layout::Tidy`]): OR squares, AND circles, chance diamonds
//! (probabilities on their edges), status colours, the
//! selection path thick orange, values under each node, moves on edges.
//! Lesson frames add marks: highlighted nodes, the inspected node, a
//! question's answer, and may hide the path (a question about it).

use crate::layout::Tidy;
use crate::search::snapshot::NodeKind;
use crate::search::{NodeId, Snapshot};

use super::dot::{status_fill, BACK_EDGE_COLOUR, PATH_COLOUR};
use super::drawing::{Anchor, Colour, Drawing, Shape, Stroke, TextStyle};

/// Ring colour of a highlighted node.
pub const HIGHLIGHT_COLOUR: Colour = Colour::hex("#1f6feb");
/// Ring colour of a question's answer.
pub const ANSWER_COLOUR: Colour = Colour::hex("#8250df");

/// Marks a lesson frame puts on the tree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TreeMarks {
    /// Nodes ringed in blue.
    pub highlight: Vec<NodeId>,
    /// The inspected node (a dashed ring).
    pub selected: Option<NodeId>,
    /// A question's answer (a purple ring).
    pub answer: Option<NodeId>,
    /// Draw the selection path like any other edge (a question asks
    /// where it goes).
    pub hide_path: bool,
    /// Nodes whose values are shown as `?` (a question asks for them).
    pub conceal: Vec<NodeId>,
    /// Put a white box behind each node's values so edges do not cross
    /// them (slides, where the text must read from afar).
    pub label_boxes: bool,
}

/// The snapshot's tree as a drawing, with `marks`.
pub fn tree_drawing(snap: &Snapshot, marks: &TreeMarks) -> Drawing {
    const SLOT: f32 = 62.0;
    const LEVEL: f32 = 78.0;
    const R: f32 = 12.0;
    let layout = Tidy::of(&snap.nodes);
    let w = layout.width * SLOT + 2.0 * SLOT;
    // The deepest level's centre, its node, its values and a margin.
    let h = layout.depth * LEVEL + LEVEL * 0.6 + R + 40.0;
    let at = |i: usize| {
        let p = layout.pos[i];
        (SLOT + p.x * SLOT, LEVEL * 0.6 + p.y * LEVEL)
    };
    let path_colour = Colour::hex(PATH_COLOUR);
    let grey = Colour::hex("#777777");
    let dark = Colour::hex("#333333");
    let black = Colour(0, 0, 0);
    let on_path = |i: usize| !marks.hide_path && snap.nodes[i].on_path;
    let mut d = Drawing::new(w, h, Colour::hex("#ffffff"));
    for (i, n) in snap.nodes.iter().enumerate() {
        let Some(p) = n.parent else { continue };
        let (x1, y1) = at(p as usize);
        let (x2, y2) = at(i);
        let stroke = if on_path(i) && on_path(p as usize) {
            Stroke::solid(path_colour, 3.0)
        } else {
            Stroke::solid(grey, 1.0)
        };
        d.shapes.push(Shape::Line {
            from: (x1, y1 + R),
            to: (x2, y2 - R),
            stroke,
        });
        d.shapes.push(Shape::Text {
            at: (x1 + (x2 - x1) * 0.55 + 4.0, y1 + (y2 - y1) * 0.55),
            anchor: Anchor::Start,
            style: TextStyle::plain(11.0, black),
            text: snap.edge_label(i),
        });
    }
    // A shared node's other parents (dashed) and the moves that repeat a
    // position on the path (purple), as the DOT export draws them.
    for e in &snap.extra_edges {
        if layout.pos.get(e.from as usize).is_none() || layout.pos.get(e.to as usize).is_none() {
            continue;
        }
        let (x1, y1) = at(e.from as usize);
        let (x2, y2) = at(e.to as usize);
        let colour = if e.back {
            Colour::hex(BACK_EDGE_COLOUR)
        } else {
            grey
        };
        d.shapes.push(Shape::Line {
            from: (x1, y1 + R),
            to: (x2, y2 + if y2 > y1 { -R } else { R }),
            stroke: Stroke {
                colour,
                width: 1.5,
                dashed: true,
            },
        });
    }
    for (i, n) in snap.nodes.iter().enumerate() {
        let (x, y) = at(i);
        let stroke = Some(if on_path(i) {
            Stroke::solid(path_colour, 3.0)
        } else {
            Stroke::solid(dark, 1.0)
        });
        let fill = Some(Colour::hex(status_fill(n.status)));
        let ring = |colour: Colour, r: f32, dashed: bool| Shape::Circle {
            centre: (x, y),
            r,
            fill: None,
            stroke: Some(Stroke {
                colour,
                width: 3.0,
                dashed,
            }),
        };
        if marks.highlight.contains(&n.id) {
            d.shapes.push(ring(HIGHLIGHT_COLOUR, R + 6.0, false));
        }
        if marks.answer == Some(n.id) {
            d.shapes.push(ring(ANSWER_COLOUR, R + 10.0, false));
        }
        if marks.selected == Some(n.id) {
            d.shapes.push(ring(dark, R + 14.0, true));
        }
        d.shapes.push(match n.kind {
            NodeKind::Or => Shape::Rect {
                at: (x - R, y - R),
                size: (2.0 * R, 2.0 * R),
                fill,
                stroke,
            },
            NodeKind::Chance => Shape::Polygon {
                points: vec![(x, y - R), (x + R, y), (x, y + R), (x - R, y)],
                fill,
                stroke,
            },
            NodeKind::And => Shape::Circle {
                centre: (x, y),
                r: R,
                fill,
                stroke,
            },
        });
        let label = if marks.conceal.contains(&n.id) {
            "?".to_string()
        } else {
            snap.label(&n.values, " / ")
        };
        if marks.label_boxes && !label.is_empty() {
            let w = label.chars().count() as f32 * 6.6 + 4.0;
            d.shapes.push(Shape::Rect {
                at: (x - w / 2.0, y + R + 2.0),
                size: (w, 13.0),
                fill: Some(Colour::hex("#ffffff")),
                stroke: None,
            });
        }
        d.shapes.push(Shape::Text {
            at: (x, y + R + 12.0),
            anchor: Anchor::Middle,
            style: TextStyle::plain(11.0, black),
            text: label,
        });
    }
    d
}

/// The snapshot's tree as an SVG document.
pub fn to_svg(snap: &Snapshot) -> String {
    tree_drawing(snap, &TreeMarks::default()).to_svg()
}
