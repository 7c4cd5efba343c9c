//! The tidy tree as it is drawn: node boxes, the labels that fit (values
//! under a node, the move beside its edge) and transposition badges, in
//! points relative to the content's top-left corner. Labels are placed by
//! [`place`] in priority order (the selection path first, then breadth
//! first), so a label that would collide with a kept one or with a node
//! is dropped (the app shows it on hover). A DAG's second parent gets a
//! short stub with a badge ("→ shared with c4 a3") instead of an edge
//! across the canvas.

use crate::search::snapshot::SnapNode;
use crate::search::Snapshot;

use super::labels::{place, short_label, Bounds, Measure};
use super::Point;

/// Sizes of the drawing at zoom 1, in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneStyle {
    /// Horizontal distance between two leaf slots.
    pub slot: f32,
    /// Vertical distance between two levels.
    pub level: f32,
    /// Half the size of a node's shape.
    pub radius: f32,
    /// Font size of value labels.
    pub font: f32,
    /// Font size of move labels and badges.
    pub small_font: f32,
    /// Empty border around the content.
    pub margin: f32,
}

impl Default for SceneStyle {
    fn default() -> Self {
        SceneStyle {
            slot: 62.0,
            level: 78.0,
            radius: 12.0,
            font: 11.0,
            small_font: 10.0,
            margin: 40.0,
        }
    }
}

impl SceneStyle {
    /// The style scaled by `zoom` (fonts clamped to stay legible).
    pub fn zoomed(&self, zoom: f32) -> SceneStyle {
        SceneStyle {
            slot: self.slot * zoom,
            level: self.level * zoom,
            radius: self.radius * zoom,
            font: (self.font * zoom).clamp(8.0, 22.0),
            small_font: (self.small_font * zoom).clamp(7.0, 20.0),
            margin: self.margin,
        }
    }

    /// Where a layout point lands, relative to the content's corner.
    pub fn to_points(&self, p: Point) -> (f32, f32) {
        (
            self.margin + p.x * self.slot,
            self.margin + p.y * self.level,
        )
    }
}

/// What a drawn label says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelKind {
    /// The node's label values, under the node.
    Values,
    /// The move leading to the node, beside its edge.
    Move,
    /// A transposition: this node is also a child of another parent.
    Shared,
    /// A back-edge: the move from this node repeats a position on its
    /// path (a cycle; the edge itself is drawn as a loop).
    Loop,
}

/// A label kept by the placement.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneLabel {
    /// Snapshot index of the node it belongs to (for `Shared`: the
    /// second parent the badge hangs from).
    pub node: usize,
    /// What it says.
    pub kind: LabelKind,
    /// The text.
    pub text: String,
    /// Where it goes.
    pub bounds: Bounds,
    /// Font size.
    pub font: f32,
}

/// The tidy tree ready to draw.
#[derive(Clone, Debug, Default)]
pub struct TreeScene {
    /// Each snapshot node's shape.
    pub nodes: Vec<Bounds>,
    /// The labels that fit, without overlaps.
    pub labels: Vec<SceneLabel>,
    /// Labels dropped because they would collide (shown on hover).
    pub dropped: usize,
    /// Everything drawn, margin included (the scrollable extent).
    pub content: Bounds,
    /// How far everything was moved right and down so that labels left
    /// of or above the first node stay inside the content.
    pub shift: (f32, f32),
}

/// Moves from the root to node `i`, the last `keep` of them (with `…`
/// in front when some are left out).
pub fn path_text(nodes: &[SnapNode], i: usize, keep: usize) -> String {
    let mut moves = Vec::new();
    let mut at = Some(i);
    while let Some(k) = at {
        if nodes[k].parent.is_some() {
            moves.push(nodes[k].move_label.as_str());
        }
        at = nodes[k].parent.map(|p| p as usize);
    }
    moves.reverse();
    if moves.len() > keep {
        format!("… {}", moves[moves.len() - keep..].join(" "))
    } else {
        moves.join(" ")
    }
}

impl TreeScene {
    /// Lays out `snap` with node positions `pos` (layout units, one per
    /// node), measuring text with `measure`. With `only`, labels are
    /// placed only for nodes inside that box (the visible part).
    pub fn build(
        snap: &Snapshot,
        pos: &[Point],
        style: &SceneStyle,
        measure: &dyn Measure,
        only: Option<Bounds>,
    ) -> TreeScene {
        let r = style.radius;
        let centers: Vec<(f32, f32)> = pos.iter().map(|&p| style.to_points(p)).collect();
        let nodes: Vec<Bounds> = centers
            .iter()
            .map(|&(x, y)| Bounds::from_center_size(x, y, 2.0 * r, 2.0 * r))
            .collect();
        let mut content = Bounds::default();
        for b in &nodes {
            content.max_x = content.max_x.max(b.max_x + style.margin);
            content.max_y = content.max_y.max(b.max_y + style.margin);
        }
        // Candidates in priority order: the path, then breadth first.
        let mut order: Vec<usize> = (0..snap.nodes.len())
            .filter(|&i| snap.nodes[i].on_path)
            .collect();
        order.extend((0..snap.nodes.len()).filter(|&i| !snap.nodes[i].on_path));
        let wanted = |b: &Bounds| only.is_none_or(|o| o.intersects(b));
        let mut cands: Vec<SceneLabel> = Vec::new();
        let pad = 2.0;
        for &i in &order {
            if !wanted(&nodes[i]) {
                continue;
            }
            let node = &snap.nodes[i];
            let (cx, cy) = centers[i];
            let text = short_label(snap, &node.values);
            if !text.is_empty() {
                let w = measure.width(&text, style.font);
                cands.push(SceneLabel {
                    node: i,
                    kind: LabelKind::Values,
                    bounds: Bounds::from_min_size(cx - w / 2.0, cy + r + pad, w, style.font * 1.25),
                    text,
                    font: style.font,
                });
            }
            if let Some(p) = node.parent.filter(|_| !node.move_label.is_empty()) {
                let (px, py) = centers[p as usize];
                let (mx, my) = (px + (cx - px) * 0.55, py + (cy - py) * 0.55);
                // The move, with its probability below a chance node.
                let text = snap.edge_label(i);
                let w = measure.width(&text, style.small_font);
                let h = style.small_font * 1.25;
                // Beside the edge, on the outer side: left of an edge that
                // goes down to the left, so a left child's move does not
                // run into its parent's values or its sibling's move.
                let x = if cx < px - 0.5 {
                    mx - 3.0 - w
                } else {
                    mx + 3.0
                };
                cands.push(SceneLabel {
                    node: i,
                    kind: LabelKind::Move,
                    text,
                    bounds: Bounds::from_min_size(x, my - h / 2.0, w, h),
                    font: style.small_font,
                });
            }
        }
        for e in &snap.extra_edges {
            let (a, b) = (e.from as usize, e.to as usize);
            if a >= nodes.len() || b >= nodes.len() || !wanted(&nodes[a]) {
                continue;
            }
            let (ax, ay) = centers[a];
            let (kind, text) = if e.back {
                (LabelKind::Loop, format!("{} ↺ loop", e.label))
            } else {
                let to = path_text(&snap.nodes, b, 3);
                (LabelKind::Shared, format!("{} → shared with {to}", e.label))
            };
            let w = measure.width(&text, style.small_font);
            let h = style.small_font * 1.25;
            cands.push(SceneLabel {
                node: a,
                kind,
                text,
                bounds: Bounds::from_min_size(ax + r * 0.6, ay + r + 0.3 * style.level, w, h),
                font: style.small_font,
            });
        }
        let boxes: Vec<Bounds> = cands.iter().map(|c| c.bounds).collect();
        let kept = place(&boxes, &nodes);
        let mut labels = Vec::new();
        let mut dropped = 0;
        for (c, k) in cands.into_iter().zip(kept) {
            if k {
                content.max_x = content.max_x.max(c.bounds.max_x + style.margin / 2.0);
                content.max_y = content.max_y.max(c.bounds.max_y + style.margin / 2.0);
                labels.push(c);
            } else {
                dropped += 1;
            }
        }
        // Labels may stick out left of or above the first node: shift
        // everything so the content starts at the corner.
        let (dx, dy) = labels.iter().fold((0.0f32, 0.0f32), |(x, y), l| {
            (x.max(-l.bounds.min_x), y.max(-l.bounds.min_y))
        });
        let mut nodes = nodes;
        if dx > 0.0 || dy > 0.0 {
            for b in &mut nodes {
                *b = b.translate(dx, dy);
            }
            for l in &mut labels {
                l.bounds = l.bounds.translate(dx, dy);
            }
            content.max_x += dx;
            content.max_y += dy;
        }
        TreeScene {
            nodes,
            labels,
            dropped,
            content,
            shift: (dx, dy),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::labels::ApproxMeasure;
    use crate::layout::test_nodes::node;
    use crate::layout::Tidy;

    #[test]
    fn path_text_keeps_the_last_moves() {
        let mut nodes = vec![node(0, None, 0, 0)];
        for (k, m) in ["a1", "b2", "c3", "d4"].iter().enumerate() {
            let mut n = node(k as u64 + 1, Some(k as u32), 0, k as u32 + 1);
            n.move_label = m.to_string();
            nodes.push(n);
        }
        assert_eq!(path_text(&nodes, 4, 3), "… b2 c3 d4");
        assert_eq!(path_text(&nodes, 2, 3), "a1 b2");
    }

    #[test]
    fn crowded_siblings_drop_labels_instead_of_overlapping() {
        let mut nodes = vec![node(0, None, 0, 0)];
        for k in 0..30 {
            let mut n = node(k + 1, Some(0), k as u32, 1);
            n.values = vec![123_456.0, 0.0701, 17.0];
            n.move_label = format!("m{k}");
            nodes.push(n);
        }
        let snap = crate::layout::test_nodes::snapshot(nodes, 3);
        let tidy = Tidy::of(&snap.nodes);
        let style = SceneStyle::default().zoomed(0.65);
        let scene = TreeScene::build(&snap, &tidy.pos, &style, &ApproxMeasure, None);
        assert!(scene.dropped > 0, "the labels are too long to all fit");
        for (i, a) in scene.labels.iter().enumerate() {
            for b in &scene.labels[i + 1..] {
                assert!(!a.bounds.intersects(&b.bounds), "{a:?} {b:?}");
            }
        }
    }
}
