//! The tree as a standalone SVG picture, in the app's tidy layout
//! ([`crate::layout::Tidy`]): OR squares, AND circles, chance diamonds
//! (probabilities on their edges), status colours, the
//! selection path thick orange, values under each node, moves on edges.
//! Labels are placed by the app's [`TreeScene`] (every move drawn, none
//! over another); stored values are italic grey with a `*`, ghost
//! children dashed, a depth-first search's thresholds beside its path.
//! Lesson frames add marks: highlighted nodes, the inspected node, a
//! question's answer, and may hide the path (a question about it).

use crate::layout::scene::{LabelKind, SceneLabel};
use crate::layout::{ApproxMeasure, Measure, SceneStyle, Tidy, TreeScene};
use pnlab_core::search::snapshot::{NodeKind, SnapNode, ValueSource};
use pnlab_core::search::{NodeId, Snapshot};

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

/// The snapshot's tree as a drawing, with `marks`, at the export's
/// sizes (11-point values, text measured generously).
pub fn tree_drawing(snap: &Snapshot, marks: &TreeMarks) -> Drawing {
    let style = SceneStyle {
        margin: 30.0,
        ..SceneStyle::default()
    };
    tree_drawing_styled(snap, marks, &style, &ApproxMeasure).drawing
}

/// A tree drawing with the scene it was drawn from (the lesson frames
/// crop it around the nodes that matter and check its label sizes).
pub struct TreePicture {
    /// The picture.
    pub drawing: Drawing,
    /// Node boxes and placed labels, in the drawing's coordinates.
    pub scene: TreeScene,
}

/// The tree laid out by [`TreeScene`] with `style` (so every move label
/// is drawn and none runs into another), with `marks`: edges, then the
/// marks' rings, then the nodes, then the labels on white backdrops, so
/// a ring never covers a number.
pub fn tree_drawing_styled(
    snap: &Snapshot,
    marks: &TreeMarks,
    style: &SceneStyle,
    measure: &dyn Measure,
) -> TreePicture {
    let layout = Tidy::of(&snap.nodes);
    let scene = TreeScene::build(snap, &layout.pos, style, measure, None);
    let mut d = Drawing::new(
        scene.content.max_x,
        scene.content.max_y,
        Colour::hex("#ffffff"),
    );
    let painter = Painter {
        snap,
        marks,
        scene: &scene,
        r: style.radius,
        width: style.font / 11.0,
        path_colour: Colour::hex(PATH_COLOUR),
        grey: Colour::hex("#777777"),
        dark: Colour::hex("#333333"),
    };
    painter.edges(&mut d);
    painter.extra_edges(&mut d);
    for (i, n) in snap.nodes.iter().enumerate() {
        painter.node(&mut d, i, n);
    }
    for l in &scene.labels {
        painter.label(&mut d, l);
    }
    TreePicture { drawing: d, scene }
}

/// Draws a laid-out tree: its scene, marks and the colours and line
/// width of the style.
struct Painter<'a> {
    snap: &'a Snapshot,
    marks: &'a TreeMarks,
    scene: &'a TreeScene,
    /// The nodes' radius.
    r: f32,
    /// The thin line's width.
    width: f32,
    path_colour: Colour,
    grey: Colour,
    dark: Colour,
}

impl Painter<'_> {
    /// The centre of node `i`.
    fn at(&self, i: usize) -> (f32, f32) {
        let b = &self.scene.nodes[i];
        ((b.min_x + b.max_x) / 2.0, (b.min_y + b.max_y) / 2.0)
    }

    /// Whether node `i` is drawn on the selection path (hidden by the
    /// marks while a question asks for it).
    fn on_path(&self, i: usize) -> bool {
        !self.marks.hide_path && self.snap.nodes[i].on_path
    }

    /// The tree's edges, thick along the path, dashed to ghosts.
    fn edges(&self, d: &mut Drawing) {
        let (r, width) = (self.r, self.width);
        for (i, n) in self.snap.nodes.iter().enumerate() {
            let Some(p) = n.parent else { continue };
            let (x1, y1) = self.at(p as usize);
            let (x2, y2) = self.at(i);
            let stroke = if self.on_path(i) && self.on_path(p as usize) {
                Stroke::solid(self.path_colour, 3.0 * width)
            } else {
                Stroke {
                    colour: self.grey,
                    width: width.max(1.0),
                    dashed: n.source == ValueSource::Ghost,
                }
            };
            d.shapes.push(Shape::Line {
                from: (x1, y1 + r),
                to: (x2, y2 - r),
                stroke,
            });
        }
    }

    /// A shared node's other parents (dashed) and the moves that repeat a
    /// position on the path (purple), as the DOT export draws them.
    fn extra_edges(&self, d: &mut Drawing) {
        let r = self.r;
        for e in &self.snap.extra_edges {
            if self.scene.nodes.get(e.from as usize).is_none()
                || self.scene.nodes.get(e.to as usize).is_none()
            {
                continue;
            }
            let (x1, y1) = self.at(e.from as usize);
            let (x2, y2) = self.at(e.to as usize);
            let colour = if e.back {
                Colour::hex(BACK_EDGE_COLOUR)
            } else {
                self.grey
            };
            d.shapes.push(Shape::Line {
                from: (x1, y1 + r),
                to: (x2, y2 + if y2 > y1 { -r } else { r }),
                stroke: Stroke {
                    colour,
                    width: 1.5 * self.width,
                    dashed: true,
                },
            });
        }
    }

    /// Node `i`'s rings (highlight, answer, selection) and its shape: a
    /// square for OR, a circle for AND, a diamond for chance.
    fn node(&self, d: &mut Drawing, i: usize, n: &SnapNode) {
        let (r, width, marks) = (self.r, self.width, self.marks);
        let (x, y) = self.at(i);
        let ghost = n.source == ValueSource::Ghost;
        let stroke = Some(if self.on_path(i) {
            Stroke::solid(self.path_colour, 3.0 * width)
        } else {
            Stroke {
                colour: if ghost { self.grey } else { self.dark },
                width: width.max(1.0),
                dashed: ghost,
            }
        });
        let fill = Some(if ghost {
            Colour::hex("#ffffff")
        } else {
            Colour::hex(status_fill(n.status))
        });
        let ring = |colour: Colour, rr: f32, dashed: bool| Shape::Circle {
            centre: (x, y),
            r: rr,
            fill: None,
            stroke: Some(Stroke {
                colour,
                width: 3.0 * width,
                dashed,
            }),
        };
        if marks.highlight.contains(&n.id) {
            d.shapes.push(ring(HIGHLIGHT_COLOUR, r * 1.5, false));
        }
        if marks.answer == Some(n.id) {
            d.shapes.push(ring(ANSWER_COLOUR, r * 1.85, false));
        }
        if marks.selected == Some(n.id) {
            d.shapes.push(ring(self.dark, r * 2.2, true));
        }
        d.shapes.push(match n.kind {
            NodeKind::Or => Shape::Rect {
                at: (x - r, y - r),
                size: (2.0 * r, 2.0 * r),
                fill,
                stroke,
            },
            NodeKind::Chance => Shape::Polygon {
                points: vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)],
                fill,
                stroke,
            },
            NodeKind::And => Shape::Circle {
                centre: (x, y),
                r,
                fill,
                stroke,
            },
        });
    }

    /// A label on its white backdrop (values have none unless the marks
    /// ask for label boxes); a concealed value reads `?`.
    fn label(&self, d: &mut Drawing, l: &SceneLabel) {
        let n = &self.snap.nodes[l.node];
        let b = l.bounds;
        let concealed = l.kind == LabelKind::Values && self.marks.conceal.contains(&n.id);
        let text = if concealed {
            "?".to_string()
        } else {
            l.text.clone()
        };
        let muted = n.source != ValueSource::Computed && l.kind == LabelKind::Values;
        let colour = match l.kind {
            LabelKind::Threshold => self.path_colour,
            LabelKind::Loop => Colour::hex(BACK_EDGE_COLOUR),
            LabelKind::Shared => self.grey,
            LabelKind::Move if self.on_path(l.node) => Colour::hex("#b35900"),
            _ if muted => Colour::hex("#6e6e6e"),
            _ => Colour(0, 0, 0),
        };
        if self.marks.label_boxes || l.kind != LabelKind::Values {
            d.shapes.push(Shape::Rect {
                at: (b.min_x - 1.0, b.min_y),
                size: (b.width() + 2.0, b.height()),
                fill: Some(Colour::hex("#ffffff")),
                stroke: None,
            });
        }
        let (x, anchor) = if l.kind == LabelKind::Values {
            ((b.min_x + b.max_x) / 2.0, Anchor::Middle)
        } else {
            (b.min_x, Anchor::Start)
        };
        d.shapes.push(Shape::Text {
            at: (x, b.min_y + l.font * 0.95),
            anchor,
            style: TextStyle {
                italic: muted,
                ..TextStyle::plain(l.font, colour)
            },
            text,
        });
    }
}

/// The snapshot's tree as an SVG document.
pub fn to_svg(snap: &Snapshot) -> String {
    let mut d = tree_drawing(snap, &TreeMarks::default());
    // The legend under the tree: what the numbers are, and the marks.
    for line in crate::layout::scene::legend(snap) {
        d.height += 16.0;
        d.shapes.push(Shape::Text {
            at: (10.0, d.height - 4.0),
            anchor: Anchor::Start,
            style: TextStyle::plain(11.0, Colour::hex("#555555")),
            text: line,
        });
        d.width = d.width.max(20.0 + line_width(&d));
    }
    d.to_svg()
}

/// The width the last text of `d` needs (0.62 em a character).
fn line_width(d: &Drawing) -> f32 {
    match d.shapes.last() {
        Some(Shape::Text { style, text, .. }) => text.chars().count() as f32 * style.size * 0.62,
        _ => 0.0,
    }
}
