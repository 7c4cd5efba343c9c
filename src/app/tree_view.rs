//! The tree view (issue #5 item 1, PRODUCT.md "Tree view"): a custom
//! painter over the bounded [`Snapshot`] the worker sends.
//!
//! OR nodes are squares and AND nodes circles (the papers' convention);
//! colour says proven / disproven / unknown; the selection path to the
//! most-proving node is drawn thick; each node carries the values its
//! algorithm names in `Snapshot::label_values`, and each edge its move.
//! The layout is layered (one row per depth) and tidy (leaves side by side,
//! a parent centred over its children); node positions glide from their
//! old place to the new one, keyed by the stable [`NodeId`], so a growing
//! tree does not jump. Only the requested part of the tree is ever here:
//! the view turns its depth, focus and collapsed set into the
//! [`ViewRequest`] the worker answers, so a tree of millions of nodes costs
//! the same to draw as one of a thousand (level of detail).

use std::collections::{HashMap, HashSet};

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

use crate::layout::{Point, Tidy};
use crate::search::snapshot::{fmt_value, NodeKind, NodeStatus, SnapNode};
use crate::search::{NodeId, Snapshot, ViewRequest};

/// The smallest zoom an automatic fit goes down to: below it node labels
/// are no longer drawn, so wider trees are scrolled instead.
const READABLE_ZOOM: f32 = 0.65;

/// Horizontal distance between two leaves at zoom 1, in points.
const SLOT: f32 = 62.0;
/// Vertical distance between two levels at zoom 1.
const LEVEL: f32 = 78.0;
/// Node half-size at zoom 1.
const RADIUS: f32 = 12.0;

/// What the user asked the tree view for during a frame.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeAction {
    /// Select a node (inspector, board).
    Select(NodeId),
    /// The view request changed (collapse, focus, depth).
    ViewChanged,
    /// Class mode: the user predicts this node is the most-proving one.
    Predict(NodeId),
}

/// Colours of the view, from the theme.
pub struct Palette {
    pub proven: Color32,
    pub disproven: Color32,
    pub unknown: Color32,
    pub path: Color32,
    pub selected: Color32,
    pub edge: Color32,
    /// Back-edges of a cyclic graph (a move into a position on the path).
    pub back: Color32,
    pub text: Color32,
}

impl Palette {
    pub fn for_visuals(v: &egui::Visuals) -> Palette {
        Palette {
            proven: Color32::from_rgb(46, 160, 67),
            disproven: Color32::from_rgb(207, 57, 57),
            unknown: if v.dark_mode {
                Color32::from_rgb(96, 112, 140)
            } else {
                Color32::from_rgb(150, 165, 190)
            },
            path: Color32::from_rgb(255, 150, 20),
            selected: Color32::from_rgb(30, 160, 255),
            edge: v.widgets.noninteractive.fg_stroke.color.gamma_multiply(0.6),
            back: Color32::from_rgb(170, 80, 220),
            text: v.text_color(),
        }
    }

    pub fn status(&self, s: NodeStatus) -> Color32 {
        match s {
            NodeStatus::Proven => self.proven,
            NodeStatus::Disproven => self.disproven,
            NodeStatus::Unknown => self.unknown,
        }
    }
}

/// A layout point as an egui vector.
fn to_vec(p: Point) -> Vec2 {
    Vec2::new(p.x, p.y)
}

/// The tree view's state (persisted parts are plain values).
pub struct TreeView {
    /// Scale: 1 = default size.
    pub zoom: f32,
    /// Screen offset of the layout origin from the view's top-left corner.
    pub pan: Vec2,
    /// Keep the end of the selection path in view.
    pub follow_mpn: bool,
    pub collapsed: HashSet<NodeId>,
    pub selected: Option<NodeId>,
    /// Subtree shown instead of the root.
    pub focus: Option<NodeId>,
    /// Levels requested below the focus.
    pub max_depth: u32,
    /// Node cap of the request.
    pub max_nodes: usize,
    /// Class mode: the selection path is hidden and clicks are
    /// predictions (PRODUCT.md "Class mode").
    pub hide_path: bool,
    layout: Tidy,
    layout_generation: u64,
    /// Displayed positions (layout units), gliding toward the layout.
    shown: HashMap<NodeId, Vec2>,
    fit_pending: bool,
    /// Fit every new layout until the user pans or zooms.
    pub auto_fit: bool,
    last_time: f64,
}

impl Default for TreeView {
    fn default() -> Self {
        TreeView {
            zoom: 1.0,
            pan: Vec2::new(40.0, 40.0),
            follow_mpn: true,
            collapsed: HashSet::new(),
            selected: None,
            focus: None,
            max_depth: 8,
            max_nodes: 2_000,
            hide_path: false,
            layout: Tidy::default(),
            layout_generation: u64::MAX,
            shown: HashMap::new(),
            fit_pending: true,
            auto_fit: true,
            last_time: 0.0,
        }
    }
}

/// A node's label values ("1 / 2" for pn/dn).
pub fn label_text(snap: &Snapshot, node: &SnapNode) -> String {
    snap.label(&node.values, " / ")
}

/// The accessible name of a node: its move and every value, e.g.
/// `node b2: pn 1, dn 3` (the root is `node root`).
pub fn node_name(snap: &Snapshot, node: &SnapNode) -> String {
    let values = snap
        .value_names
        .iter()
        .zip(&node.values)
        .map(|(n, v)| format!("{n} {}", fmt_value(*v)))
        .collect::<Vec<_>>()
        .join(", ");
    let mv = if node.parent.is_none() {
        "root"
    } else {
        node.move_label.as_str()
    };
    format!("node {mv}: {values}")
}

impl TreeView {
    /// The request the worker should answer for this view.
    pub fn request(&self) -> ViewRequest {
        ViewRequest {
            focus: self.focus,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            collapsed: self.collapsed.clone(),
            inspect: self.selected,
            want_position: true,
            ..ViewRequest::default()
        }
    }

    /// Forgets per-run state (new position or algorithm).
    pub fn reset_run(&mut self) {
        self.collapsed.clear();
        self.selected = None;
        self.focus = None;
        self.shown.clear();
        self.fit_pending = true;
        self.auto_fit = true;
    }

    pub fn request_fit(&mut self) {
        self.fit_pending = true;
    }

    /// Toolbar above the tree.
    pub fn toolbar(&mut self, ui: &mut egui::Ui, snap: Option<&Snapshot>) -> Vec<TreeAction> {
        let mut actions = Vec::new();
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Fit")
                .on_hover_text("Fit the tree in the view")
                .clicked()
            {
                self.fit_pending = true;
            }
            if ui.button("−").on_hover_text("Zoom out").clicked() {
                self.zoom = (self.zoom / 1.25).max(0.05);
            }
            if ui.button("+").on_hover_text("Zoom in").clicked() {
                self.zoom = (self.zoom * 1.25).min(4.0);
            }
            ui.checkbox(&mut self.follow_mpn, "Follow MPN")
                .on_hover_text("Keep the most-proving node in view");
            let l = ui.label("Depth");
            let r = ui
                .add(egui::DragValue::new(&mut self.max_depth).range(1..=64))
                .labelled_by(l.id);
            if r.changed() {
                actions.push(TreeAction::ViewChanged);
            }
            if self.focus.is_some() && ui.button("Whole tree").clicked() {
                self.focus = None;
                self.fit_pending = true;
                actions.push(TreeAction::ViewChanged);
            }
            if !self.collapsed.is_empty() && ui.button("Expand all").clicked() {
                self.collapsed.clear();
                actions.push(TreeAction::ViewChanged);
            }
            if let Some(s) = snap {
                ui.label(format!(
                    "showing {} of {} nodes",
                    s.nodes.len(),
                    s.total_nodes
                ));
            }
        });
        actions
    }

    /// Draws the tree; `generation` changes whenever a new snapshot
    /// arrived. `predict` (class mode) turns clicks into predictions.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        snap: Option<&Snapshot>,
        generation: u64,
    ) -> Vec<TreeAction> {
        let mut actions = Vec::new();
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let rect = response.rect;
        let Some(snap) = snap else {
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                "no search loaded",
                FontId::proportional(16.0),
                ui.visuals().weak_text_color(),
            );
            return actions;
        };
        let count = snap.nodes.len();
        response.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Image,
                true,
                format!("search tree: {count} nodes"),
            )
        });
        if generation != self.layout_generation {
            self.layout = Tidy::of(&snap.nodes);
            self.layout_generation = generation;
            if self.auto_fit {
                self.fit_pending = true;
            } else if self.follow_mpn {
                self.follow(snap, rect);
            }
        }
        // Pan and zoom.
        if response.dragged() {
            self.pan += response.drag_delta();
            self.auto_fit = false;
        }
        if response.hovered() {
            let (scroll, zoom_delta, pointer) = ui.input(|i| {
                (
                    i.smooth_scroll_delta.y,
                    i.zoom_delta(),
                    i.pointer.hover_pos(),
                )
            });
            let factor = zoom_delta * (scroll / 400.0).exp();
            if (factor - 1.0).abs() > 1e-4 {
                let anchor = pointer.unwrap_or(rect.center()) - rect.min;
                let new_zoom = (self.zoom * factor).clamp(0.05, 4.0);
                let f = new_zoom / self.zoom;
                self.pan = anchor - (anchor - self.pan) * f;
                self.zoom = new_zoom;
                self.auto_fit = false;
            }
        }
        if self.fit_pending {
            self.fit(rect);
            // A tree too wide to fit legibly keeps a readable zoom and
            // scrolls to the selection path instead of shrinking to a strip.
            if self.zoom < READABLE_ZOOM {
                self.zoom = READABLE_ZOOM;
                self.pan.y = 30.0;
                self.follow(snap, rect);
            }
            self.fit_pending = false;
        }
        // Glide displayed positions toward the layout.
        let now = ui.input(|i| i.time);
        let dt = (now - self.last_time).clamp(0.0, 0.1) as f32;
        self.last_time = now;
        let mut moving = false;
        let mut next_shown = HashMap::with_capacity(count);
        for (i, node) in snap.nodes.iter().enumerate() {
            let target = to_vec(self.layout.pos[i]);
            let start = self
                .shown
                .get(&node.id)
                .copied()
                .or_else(|| {
                    node.parent
                        .and_then(|p| snap.nodes.get(p as usize))
                        .and_then(|p| self.shown.get(&p.id).copied())
                })
                .unwrap_or(target);
            let k = (dt * 12.0).min(1.0);
            let mut p = start + (target - start) * k;
            if (p - target).length() < 0.01 {
                p = target;
            } else {
                moving = true;
            }
            next_shown.insert(node.id, p);
        }
        self.shown = next_shown;
        if moving {
            ui.ctx().request_repaint();
        }

        let pal = Palette::for_visuals(ui.visuals());
        let scale = self.zoom;
        let to_screen = |p: Vec2| -> Pos2 {
            rect.min + self.pan + Vec2::new(p.x * SLOT * scale, p.y * LEVEL * scale)
        };
        let screen: Vec<Pos2> = snap
            .nodes
            .iter()
            .map(|n| to_screen(self.shown.get(&n.id).copied().unwrap_or_default()))
            .collect();
        let r = RADIUS * scale;
        let detail = r >= 7.0;
        let painter = painter.with_clip_rect(rect);
        let visible = rect.expand(r * 3.0);
        let small = FontId::proportional((11.0 * scale).clamp(8.0, 22.0));
        let tiny = FontId::proportional((10.0 * scale).clamp(7.0, 20.0));

        // Edges first, the path's last so they lie on top.
        for pass_on_path in [false, true] {
            for (i, node) in snap.nodes.iter().enumerate() {
                let Some(p) = node.parent else { continue };
                let (a, b) = (screen[p as usize], screen[i]);
                let on_path = !self.hide_path && node.on_path && snap.nodes[p as usize].on_path;
                if on_path != pass_on_path {
                    continue;
                }
                if !visible.contains(a) && !visible.contains(b) {
                    continue;
                }
                let stroke = if on_path {
                    Stroke::new((3.0 * scale).clamp(1.5, 5.0), pal.path)
                } else {
                    Stroke::new(1.0, pal.edge)
                };
                painter.line_segment([a + Vec2::new(0.0, r), b - Vec2::new(0.0, r)], stroke);
                if detail && !node.move_label.is_empty() {
                    let m = a + (b - a) * 0.55;
                    painter.text(
                        m + Vec2::new(4.0, 0.0),
                        Align2::LEFT_CENTER,
                        snap.edge_label(i),
                        tiny.clone(),
                        if on_path { pal.path } else { pal.text },
                    );
                }
            }
        }
        for e in &snap.extra_edges {
            let (Some(&pa), Some(&pb)) = (screen.get(e.from as usize), screen.get(e.to as usize))
            else {
                continue;
            };
            if e.back {
                back_edge(&painter, pa, pb, r, scale, &pal);
                if detail {
                    painter.text(
                        pa + Vec2::new(r * 2.5, -r),
                        Align2::LEFT_CENTER,
                        format!("{} ↺ loop", e.label),
                        tiny.clone(),
                        pal.back,
                    );
                }
            } else {
                dashed(
                    &painter,
                    pa,
                    pb,
                    Stroke::new(1.0, pal.edge.gamma_multiply(0.6)),
                );
                if detail {
                    painter.text(
                        pa + (pb - pa) * 0.5,
                        Align2::LEFT_CENTER,
                        &e.label,
                        tiny.clone(),
                        pal.edge,
                    );
                }
            }
        }

        // Nodes.
        let selected = self.selected;
        let mut hovered: Option<usize> = None;
        for (i, node) in snap.nodes.iter().enumerate() {
            let c = screen[i];
            if !visible.contains(c) {
                continue;
            }
            let fill = pal.status(node.status);
            let outline = if node.on_path && !self.hide_path {
                Stroke::new((2.5 * scale).clamp(1.5, 4.0), pal.path)
            } else {
                Stroke::new(1.0, pal.text.gamma_multiply(0.7))
            };
            let node_rect = Rect::from_center_size(c, Vec2::splat(2.0 * r));
            match node.kind {
                NodeKind::Or => {
                    painter.rect_filled(node_rect, 2.0, fill);
                    painter.rect_stroke(node_rect, 2.0, outline, StrokeKind::Outside);
                }
                NodeKind::And => {
                    painter.circle_filled(c, r, fill);
                    painter.circle_stroke(c, r, outline);
                }
                NodeKind::Chance => {
                    let pts = vec![
                        c + Vec2::new(0.0, -r * 1.2),
                        c + Vec2::new(r * 1.2, 0.0),
                        c + Vec2::new(0.0, r * 1.2),
                        c + Vec2::new(-r * 1.2, 0.0),
                    ];
                    painter.add(egui::Shape::convex_polygon(pts, fill, outline));
                }
            }
            if node.terminal && detail {
                painter.circle_filled(c, r * 0.25, pal.text);
            }
            if selected == Some(node.id) {
                painter.rect_stroke(
                    node_rect.expand(4.0),
                    4.0,
                    Stroke::new(2.0, pal.selected),
                    StrokeKind::Outside,
                );
            }
            if detail {
                let label = label_text(snap, node);
                painter.text(
                    c + Vec2::new(0.0, r + 2.0),
                    Align2::CENTER_TOP,
                    label,
                    small.clone(),
                    pal.text,
                );
                if node.truncated {
                    let hidden = if node.descendants > 0 {
                        format!("▸ {}", node.descendants)
                    } else {
                        format!("▸ {}", node.n_children)
                    };
                    painter.text(
                        c + Vec2::new(0.0, r + 2.0 + small.size * 1.2),
                        Align2::CENTER_TOP,
                        hidden,
                        tiny.clone(),
                        pal.text.gamma_multiply(0.7),
                    );
                }
            } else if node.truncated {
                painter.circle_filled(c + Vec2::new(0.0, r * 1.8), 1.5, pal.text);
            }
            // One interactive region per visible node: click, hover and
            // the accessible name (so tests and screen readers find it).
            let hit = ui.interact(
                node_rect.expand(2.0),
                response.id.with(node.id),
                Sense::click(),
            );
            let name = node_name(snap, node);
            let sel = selected == Some(node.id);
            hit.widget_info(|| {
                let mut info = egui::WidgetInfo::labeled(egui::Role::Button, true, &name);
                info.selected = Some(sel);
                info
            });
            if hit.hovered() {
                hovered = Some(i);
            }
            if hit.clicked() {
                if self.hide_path {
                    actions.push(TreeAction::Predict(node.id));
                } else {
                    self.selected = Some(node.id);
                    actions.push(TreeAction::Select(node.id));
                }
            }
            if hit.double_clicked() && node.n_children > 0 {
                if !self.collapsed.remove(&node.id) {
                    self.collapsed.insert(node.id);
                }
                actions.push(TreeAction::ViewChanged);
            }
            let id = node.id;
            let collapsed = self.collapsed.contains(&id);
            let is_root = node.parent.is_none();
            hit.context_menu(|ui| {
                if ui.button("Inspect").clicked() {
                    self.selected = Some(id);
                    actions.push(TreeAction::Select(id));
                    ui.close();
                }
                let label = if collapsed { "Expand" } else { "Collapse" };
                if ui.button(label).clicked() {
                    if collapsed {
                        self.collapsed.remove(&id);
                    } else {
                        self.collapsed.insert(id);
                    }
                    actions.push(TreeAction::ViewChanged);
                    ui.close();
                }
                if !is_root && ui.button("Show only this subtree").clicked() {
                    self.focus = Some(id);
                    self.fit_pending = true;
                    actions.push(TreeAction::ViewChanged);
                    ui.close();
                }
            });
        }
        if let Some(i) = hovered {
            let node = &snap.nodes[i];
            response
                .clone()
                .on_hover_ui_at_pointer(|ui| node_tooltip(ui, snap, node));
        }
        actions
    }

    /// Scrolls so the deepest shown node of the selection path is inside
    /// the view (PRODUCT.md "follow the MPN").
    fn follow(&mut self, snap: &Snapshot, rect: Rect) {
        let Some(last) = snap
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.on_path)
            .max_by_key(|(_, n)| n.depth)
            .map(|(i, _)| i)
        else {
            return;
        };
        let p = to_vec(self.layout.pos[last]);
        let screen = self.pan + Vec2::new(p.x * SLOT * self.zoom, p.y * LEVEL * self.zoom);
        let margin = 60.0f32.min(rect.width() / 4.0).min(rect.height() / 4.0);
        let size = rect.size();
        if screen.x < margin || screen.x > size.x - margin {
            self.pan.x += size.x / 2.0 - screen.x;
        }
        if screen.y < margin || screen.y > size.y - margin {
            self.pan.y += size.y / 2.0 - screen.y;
        }
    }

    /// Zoom and pan so the whole layout fits.
    fn fit(&mut self, rect: Rect) {
        let w = (self.layout.width - 1.0).max(0.0) * SLOT + 4.0 * RADIUS;
        let h = self.layout.depth * LEVEL + 5.0 * RADIUS;
        let zx = (rect.width() - 40.0).max(50.0) / w.max(1.0);
        let zy = (rect.height() - 40.0).max(50.0) / h.max(1.0);
        self.zoom = zx.min(zy).clamp(0.05, 1.6);
        let content = Vec2::new(
            (self.layout.width - 1.0).max(0.0) * SLOT * self.zoom,
            self.layout.depth * LEVEL * self.zoom,
        );
        self.pan = (rect.size() - content) / 2.0;
        self.pan.y = self.pan.y.min(30.0 * self.zoom.max(0.5));
    }
}

/// A dashed straight edge (a second parent of a shared node).
fn dashed(painter: &egui::Painter, a: Pos2, b: Pos2, stroke: Stroke) {
    painter.extend(egui::Shape::dashed_line(&[a, b], stroke, 5.0, 4.0));
}

/// A back-edge from the node at `from` up to its ancestor at `to`: a
/// dashed curve bulging to the right with an arrowhead at the ancestor,
/// so the loop reads as a loop and not as a tree edge.
fn back_edge(painter: &egui::Painter, from: Pos2, to: Pos2, r: f32, scale: f32, pal: &Palette) {
    let stroke = Stroke::new((2.0 * scale).clamp(1.0, 3.0), pal.back);
    let a = from + Vec2::new(r, 0.0);
    let b = to + Vec2::new(r, 0.0);
    let bulge = ((a - b).length() * 0.35).max(3.0 * r);
    let c1 = a + Vec2::new(bulge, 0.0);
    let c2 = b + Vec2::new(bulge, 0.0);
    let pts: Vec<Pos2> = (0..=24)
        .map(|k| {
            let t = k as f32 / 24.0;
            let u = 1.0 - t;
            (a.to_vec2() * (u * u * u)
                + c1.to_vec2() * (3.0 * u * u * t)
                + c2.to_vec2() * (3.0 * u * t * t)
                + b.to_vec2() * (t * t * t))
                .to_pos2()
        })
        .collect();
    painter.extend(egui::Shape::dashed_line(&pts, stroke, 6.0, 4.0));
    // Arrowhead at the ancestor, along the curve's last direction.
    let dir = (pts[24] - pts[22]).normalized();
    let side = Vec2::new(-dir.y, dir.x);
    let tip = pts[24];
    let len = (7.0 * scale).clamp(4.0, 10.0);
    painter.add(egui::Shape::convex_polygon(
        vec![
            tip,
            tip - dir * len + side * len * 0.5,
            tip - dir * len - side * len * 0.5,
        ],
        pal.back,
        Stroke::NONE,
    ));
}

/// Tooltip: every value of a node and its status.
fn node_tooltip(ui: &mut egui::Ui, snap: &Snapshot, node: &SnapNode) {
    let mv = if node.move_label.is_empty() {
        "root".to_string()
    } else {
        node.move_label.clone()
    };
    ui.strong(format!(
        "{mv} ({}, depth {})",
        match node.kind {
            NodeKind::Or => "OR",
            NodeKind::And => "AND",
            NodeKind::Chance => "chance",
        },
        node.depth
    ));
    for (n, v) in snap.value_names.iter().zip(&node.values) {
        ui.label(format!("{n} = {}", fmt_value(*v)));
    }
    ui.label(format!(
        "{:?}{}",
        node.status,
        if node.terminal { ", terminal" } else { "" }
    ));
    ui.label(format!(
        "{} children{}",
        node.n_children,
        if node.expanded { "" } else { " (not expanded)" }
    ));
    if node.descendants > 0 {
        ui.label(format!("{} nodes below", node.descendants));
    }
    ui.weak("click: inspect · double-click: collapse/expand · right-click: menu");
}
