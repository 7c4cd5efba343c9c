//! The tidy tree as it is drawn: node boxes, the labels (values under a
//! node, the move beside its edge, a depth-first search's thresholds
//! beside its path nodes) and transposition badges, in points relative to
//! the content's top-left corner. Labels are placed in priority order
//! (the selection path first, then every move, then the other values),
//! each at the first of its candidate places that overlaps no kept label
//! and no node. A move or a threshold is never dropped: it tries places
//! along either side of its edge and on it, and only when all are taken
//! is it drawn anyway (counted in [`TreeScene::crowded`]); a value label
//! that finds no place is dropped (the app shows it on hover). A DAG's
//! second parent gets a short stub with a badge ("→ shared with c4 a3")
//! instead of an edge across the canvas.

use pnlab_core::search::snapshot::{ExtraEdge, NodeKind, SnapNode, ValueSource};
use pnlab_core::search::Snapshot;

use super::labels::{short_label, short_value, Bounds, Measure, Placer};
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
    /// The thresholds a depth-first search's MID call on the path was
    /// given (`th 3/∞`, in the values' pn/dn order), left of the node.
    Threshold,
}

/// Appended to a stored value label (`1/2*`): read from the table and
/// not yet updated by MID (see [`ValueSource::Stored`]); legends explain
/// it.
pub const STORED_MARK: &str = "*";

/// The thresholds label of node `i` when it is on a depth-first search's
/// path: its frame's thφ and thδ in the node's pn/dn order.
pub fn threshold_text(snap: &Snapshot, i: usize) -> Option<String> {
    let node = snap.nodes.get(i)?;
    let frame = snap.frames.iter().find(|f| f.node == node.id)?;
    let get = |name: &str| {
        frame
            .values
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, v)| v)
    };
    let (phi, delta) = (get("thφ")?, get("thδ")?);
    let (p, d) = match node.kind {
        NodeKind::And => (delta, phi),
        _ => (phi, delta),
    };
    Some(format!("th {}/{}", short_value(p), short_value(d)))
}

/// What a name of a node value means, where a name alone would not say.
fn value_meaning(name: &str) -> Option<&'static str> {
    Some(match name {
        "pn" => "proof number",
        "dn" => "disproof number",
        "p" => "leaves that must change for the value to rise",
        "d" => "leaves that must change for the value to fall",
        "CN" => "conspiracy number p + d at the target",
        "value" => "minimax value",
        "visits" => "playouts through the node",
        _ => return None,
    })
}

/// The legend of a tree picture: what the numbers under a node are, and
/// the marks the picture uses (stored values, ghost children,
/// thresholds). One text for the app's tree, the SVG export and the
/// lesson frames.
pub fn legend(snap: &Snapshot) -> Vec<String> {
    let names: Vec<&str> = snap
        .label_values
        .iter()
        .filter_map(|&i| snap.value_names.get(i).map(String::as_str))
        .collect();
    let mut out = Vec::new();
    if !names.is_empty() {
        let meanings: Vec<String> = names
            .iter()
            .filter_map(|n| value_meaning(n).map(|m| format!("{n} = {m}")))
            .collect();
        let mut line = format!("under a node: {}", names.join("/"));
        if !meanings.is_empty() {
            line.push_str(&format!(" ({})", meanings.join(", ")));
        }
        out.push(line);
    }
    let has = |s: ValueSource| snap.nodes.iter().any(|n| n.source == s);
    if has(ValueSource::Stored) {
        out.push(format!(
            "1/2{STORED_MARK} = stored in the table, not yet updated from the children (MID updates it when it returns to the node)"
        ));
    }
    if has(ValueSource::Ghost) {
        out.push(
            "dashed node = a child counted with the unknown-node value, never searched (not in the table)"
                .into(),
        );
    }
    if (0..snap.nodes.len()).any(|i| threshold_text(snap, i).is_some()) {
        out.push("th pn/dn beside a path node = the thresholds its MID call was given".into());
    }
    out
}

/// A label with the places it may go, best first.
struct Cand {
    label: SceneLabel,
    alts: Vec<Bounds>,
    /// Drawn even where every place is taken.
    must: bool,
}

impl Cand {
    fn new(
        node: usize,
        kind: LabelKind,
        text: String,
        font: f32,
        alts: Vec<Bounds>,
        must: bool,
    ) -> Cand {
        Cand {
            label: SceneLabel {
                node,
                kind,
                text,
                bounds: alts[0],
                font,
            },
            alts,
            must,
        }
    }
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
    /// Value labels and badges dropped because they would collide (shown
    /// on hover). Moves and thresholds are never dropped.
    pub dropped: usize,
    /// Moves and thresholds that found no free place and are drawn over
    /// another label (0 on every bundled tree; a view may zoom in).
    pub crowded: usize,
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
        let shapes = LabelShapes {
            snap,
            centers: &centers,
            style,
            measure,
            pad: 2.0,
            h_small: style.small_font * 1.25,
            h_font: style.font * 1.25,
        };
        let cands = shapes.candidates(&nodes, only);
        let placed = place_labels(cands, &nodes, style, &mut content);
        placed.shifted(nodes, content)
    }
}

/// Where the labels of a scene may go: the places each label may take,
/// best first, around its node's centre.
struct LabelShapes<'a> {
    snap: &'a Snapshot,
    centers: &'a [(f32, f32)],
    style: &'a SceneStyle,
    measure: &'a dyn Measure,
    /// The gap between a node and a label beside it.
    pad: f32,
    /// The height of a line in the small font.
    h_small: f32,
    /// The height of a line in the font.
    h_font: f32,
}

impl LabelShapes<'_> {
    /// The candidates in priority order: the path's labels, then every
    /// move (never dropped), then the other values, then the badges;
    /// only for nodes inside `only` when given.
    fn candidates(&self, nodes: &[Bounds], only: Option<Bounds>) -> Vec<Cand> {
        let snap = self.snap;
        let wanted = |b: &Bounds| only.is_none_or(|o| o.intersects(b));
        let path: Vec<usize> = (0..snap.nodes.len())
            .filter(|&i| snap.nodes[i].on_path && wanted(&nodes[i]))
            .collect();
        let rest: Vec<usize> = (0..snap.nodes.len())
            .filter(|&i| !snap.nodes[i].on_path && wanted(&nodes[i]))
            .collect();
        let mut cands: Vec<Cand> = Vec::new();
        for &i in &path {
            cands.extend(self.values(i));
            cands.extend(self.threshold(i));
            cands.extend(self.mv(i));
        }
        for &i in &rest {
            cands.extend(self.mv(i));
        }
        for &i in &rest {
            cands.extend(self.values(i));
        }
        for e in &snap.extra_edges {
            let (a, b) = (e.from as usize, e.to as usize);
            if a >= nodes.len() || b >= nodes.len() || !wanted(&nodes[a]) {
                continue;
            }
            cands.push(self.badge(e, a, b));
        }
        cands
    }

    /// Node `i`'s values, below it, else right of it, else left of it.
    fn values(&self, i: usize) -> Option<Cand> {
        let (style, r, pad, h_font) = (self.style, self.style.radius, self.pad, self.h_font);
        let (cx, cy) = self.centers[i];
        let node = &self.snap.nodes[i];
        let mut text = short_label(self.snap, &node.values);
        if text.is_empty() {
            return None;
        }
        if node.source == ValueSource::Stored {
            text.push_str(STORED_MARK);
        }
        let w = self.measure.width(&text, style.font);
        let alts = vec![
            Bounds::from_min_size(cx - w / 2.0, cy + r + pad, w, h_font),
            Bounds::from_min_size(cx + r + pad, cy - h_font / 2.0, w, h_font),
            Bounds::from_min_size(cx - r - pad - w, cy - h_font / 2.0, w, h_font),
        ];
        Some(Cand::new(
            i,
            LabelKind::Values,
            text,
            style.font,
            alts,
            false,
        ))
    }

    /// Node `i`'s thresholds, left of it, else right of it, else above
    /// on the left.
    fn threshold(&self, i: usize) -> Option<Cand> {
        let (style, r, pad, h_small) = (self.style, self.style.radius, self.pad, self.h_small);
        let (cx, cy) = self.centers[i];
        let text = threshold_text(self.snap, i)?;
        let w = self.measure.width(&text, style.small_font);
        let alts = vec![
            Bounds::from_min_size(cx - r - pad - w, cy - h_small / 2.0, w, h_small),
            Bounds::from_min_size(cx + r + pad, cy - h_small / 2.0, w, h_small),
            Bounds::from_min_size(cx - r - pad - w, cy - r - h_small, w, h_small),
        ];
        Some(Cand::new(
            i,
            LabelKind::Threshold,
            text,
            style.small_font,
            alts,
            true,
        ))
    }

    /// The move into node `i`, with its probability below a chance node.
    fn mv(&self, i: usize) -> Option<Cand> {
        let h_small = self.h_small;
        let node = &self.snap.nodes[i];
        let p = node.parent.filter(|_| !node.move_label.is_empty())?;
        let (cx, cy) = self.centers[i];
        let (px, py) = self.centers[p as usize];
        let text = self.snap.edge_label(i);
        let w = self.measure.width(&text, self.style.small_font);
        // Beside the edge, first on the outer side (left of an edge
        // that goes down to the left, so a left child's move does not
        // run into its parent's values or its sibling's move), then
        // further along the edge, then on the other side, then on the
        // edge itself.
        let left = cx < px - 0.5;
        let mut alts = Vec::new();
        for side in [left, !left] {
            for t in [0.55, 0.4, 0.7, 0.28, 0.82] {
                let (mx, my) = (px + (cx - px) * t, py + (cy - py) * t);
                let x = if side { mx - 3.0 - w } else { mx + 3.0 };
                alts.push(Bounds::from_min_size(x, my - h_small / 2.0, w, h_small));
            }
        }
        for t in [0.55, 0.4, 0.7] {
            let (mx, my) = (px + (cx - px) * t, py + (cy - py) * t);
            alts.push(Bounds::from_center_size(mx, my, w, h_small));
        }
        Some(Cand::new(
            i,
            LabelKind::Move,
            text,
            self.style.small_font,
            alts,
            true,
        ))
    }

    /// The badge of an extra edge from node `a` to node `b` (a loop back
    /// or a second parent of a shared node), below right of `a`.
    fn badge(&self, e: &ExtraEdge, a: usize, b: usize) -> Cand {
        let (style, r) = (self.style, self.style.radius);
        let (ax, ay) = self.centers[a];
        let (kind, text) = if e.back {
            (LabelKind::Loop, format!("{} ↺ loop", e.label))
        } else {
            let to = path_text(&self.snap.nodes, b, 3);
            (LabelKind::Shared, format!("{} → shared with {to}", e.label))
        };
        let w = self.measure.width(&text, style.small_font);
        let at = Bounds::from_min_size(ax + r * 0.6, ay + r + 0.3 * style.level, w, self.h_small);
        Cand::new(a, kind, text, style.small_font, vec![at], false)
    }
}

/// The labels placed by [`place_labels`], with the counts of those
/// dropped and crowded.
struct Placed {
    labels: Vec<SceneLabel>,
    dropped: usize,
    crowded: usize,
}

/// Places the candidates in order, each at its first free place; grows
/// `content` to hold them.
fn place_labels(
    cands: Vec<Cand>,
    nodes: &[Bounds],
    style: &SceneStyle,
    content: &mut Bounds,
) -> Placed {
    let mut placer = Placer::new(nodes);
    let mut labels = Vec::new();
    let mut dropped = 0;
    let mut crowded = 0;
    for c in cands {
        let mut label = c.label;
        let spot = c.alts.iter().find(|b| placer.is_free(b)).copied();
        let bounds = match (spot, c.must) {
            (Some(b), _) => b,
            (None, true) => {
                // No free spot: drawn anyway at its first place (on a
                // backdrop), counted so tests and views can tell.
                crowded += 1;
                c.alts[0]
            }
            (None, false) => {
                dropped += 1;
                continue;
            }
        };
        placer.take(bounds);
        label.bounds = bounds;
        content.max_x = content.max_x.max(bounds.max_x + style.margin / 2.0);
        content.max_y = content.max_y.max(bounds.max_y + style.margin / 2.0);
        labels.push(label);
    }
    Placed {
        labels,
        dropped,
        crowded,
    }
}

impl Placed {
    /// The scene. Labels may stick out left of or above the first node:
    /// everything is shifted so the content starts at the corner.
    fn shifted(self, mut nodes: Vec<Bounds>, mut content: Bounds) -> TreeScene {
        let mut labels = self.labels;
        let (dx, dy) = labels.iter().fold((0.0f32, 0.0f32), |(x, y), l| {
            (x.max(-l.bounds.min_x), y.max(-l.bounds.min_y))
        });
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
            dropped: self.dropped,
            crowded: self.crowded,
            content,
            shift: (dx, dy),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::labels::ApproxMeasure;
    use crate::layout::Tidy;
    use pnlab_core::search::test_nodes::node;

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
    fn crowded_siblings_drop_values_but_keep_every_move() {
        let mut nodes = vec![node(0, None, 0, 0)];
        for k in 0..30 {
            let mut n = node(k + 1, Some(0), k as u32, 1);
            n.values = vec![123_456.0, 0.0701, 17.0];
            n.move_label = format!("m{k}");
            nodes.push(n);
        }
        let snap = pnlab_core::search::test_nodes::snapshot(nodes, 3);
        let tidy = Tidy::of(&snap.nodes);
        let style = SceneStyle::default().zoomed(0.65);
        let scene = TreeScene::build(&snap, &tidy.pos, &style, &ApproxMeasure, None);
        assert!(scene.dropped > 0, "the values are too long to all fit");
        for k in 1..=30 {
            assert!(
                scene
                    .labels
                    .iter()
                    .any(|l| l.node == k && l.kind == LabelKind::Move),
                "move m{} kept",
                k - 1
            );
        }
        assert_eq!(scene.crowded, 0);
        for (i, a) in scene.labels.iter().enumerate() {
            for b in &scene.labels[i + 1..] {
                assert!(!a.bounds.intersects(&b.bounds), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_move_with_no_free_place_is_drawn_anyway_and_counted() {
        // Sixteen children on top of each other: more moves than places
        // along one edge.
        let mut nodes = vec![node(0, None, 0, 0)];
        for k in 0..16 {
            let mut n = node(k + 1, Some(0), k as u32, 1);
            n.move_label = "a-very-long-move-name".into();
            nodes.push(n);
        }
        let snap = pnlab_core::search::test_nodes::snapshot(nodes, 0);
        let mut pos = vec![Point::new(0.0, 0.0)];
        pos.extend((0..16).map(|_| Point::new(0.0, 1.0)));
        let scene = TreeScene::build(&snap, &pos, &SceneStyle::default(), &ApproxMeasure, None);
        let moves = scene
            .labels
            .iter()
            .filter(|l| l.kind == LabelKind::Move)
            .count();
        assert_eq!(moves, 16);
        assert!(scene.crowded >= 1);
    }
}
