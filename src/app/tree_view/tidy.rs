//! The tidy tree's frame, in the order it happens: the layout follows the
//! snapshot, the user pans and zooms, positions glide toward the layout,
//! then edges, nodes (each an interactive region) and labels are painted.
//! Each step is its own function so a frame reads as that list.

use std::collections::HashMap;

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

use super::{
    back_edge, dashed_outline, legend_galleys, legend_ui, live_badge, node_name, node_tooltip,
    to_vec, Palette, TreeAction, TreeView, READABLE_ZOOM,
};
use crate::layout::scene::{LabelKind, SceneLabel};
use crate::layout::{ApproxMeasure, Bounds, Point, SceneStyle, Tidy, TreeScene};
use crate::search::snapshot::{NodeKind, SnapNode, ValueSource};
use crate::search::Snapshot;

/// Where the scene lands on screen this frame.
struct Placed {
    /// The view's rectangle.
    rect: Rect,
    /// Screen position of the scene's origin.
    origin: Pos2,
    /// Each node's centre on screen.
    screen: Vec<Pos2>,
    /// Node half-size at this zoom.
    r: f32,
    /// The zoom.
    scale: f32,
    /// Whether labels are drawn (nodes large enough to read).
    detail: bool,
}

impl TreeView {
    /// The tidy tree: labels placed by [`TreeScene`] so that none
    /// overlaps another or a node (the others show on hover).
    pub(super) fn tidy_ui(
        &mut self,
        ui: &mut egui::Ui,
        snap: &Snapshot,
        generation: u64,
        actions: &mut Vec<TreeAction>,
    ) {
        let count = snap.nodes.len();
        let label = format!("search tree: {count} nodes");
        let (response, painter) = crate::app::tree_path::tree_canvas(ui, label);
        let rect = response.rect;
        // The legend sits in the bottom left corner: a fitted tree keeps
        // clear of it rather than drawing nodes under it.
        let pal = Palette::for_visuals(ui.visuals());
        let legend = legend_galleys(&painter, rect, snap, self.label_px, &pal);
        let legend_h: f32 = legend.iter().map(|g| g.size().y).sum();
        let fit_rect = if legend.is_empty() {
            rect
        } else {
            Rect::from_min_max(
                rect.min,
                Pos2::new(
                    rect.max.x,
                    (rect.max.y - legend_h - 10.0).max(rect.min.y + 80.0),
                ),
            )
        };
        self.follow_layout(snap, generation, rect, fit_rect);
        self.pan_and_zoom(ui, &response, rect);
        self.fit_if_pending(snap, rect, fit_rect);
        let shown_pos = self.glide(ui, snap);

        let scale = self.zoom;
        let mut style = SceneStyle {
            margin: 0.0,
            ..SceneStyle::default()
        }
        .zoomed(scale);
        if let Some(px) = self.label_px {
            style.font = px;
            style.small_font = px;
        }
        let r = style.radius;
        let detail = r >= 7.0;
        // The visible part in scene coordinates.
        let view = Bounds::from_min_size(-self.pan.x, -self.pan.y, rect.width(), rect.height());
        let scene = TreeScene::build(
            snap,
            &shown_pos,
            &style,
            &ApproxMeasure,
            detail.then_some(view),
        );
        let (sx, sy) = scene.shift;
        let origin = rect.min + self.pan - Vec2::new(sx, sy);
        let screen: Vec<Pos2> = scene
            .nodes
            .iter()
            .map(|b| origin + Vec2::new((b.min_x + b.max_x) / 2.0, (b.min_y + b.max_y) / 2.0))
            .collect();
        let painter = painter.with_clip_rect(rect);
        let placed = Placed {
            rect,
            origin,
            screen,
            r,
            scale,
            detail,
        };
        self.paint_edges(&painter, snap, &placed, &pal);
        self.drawn = super::DrawnTree {
            area: Some(rect),
            labels: Vec::new(),
            nodes: placed
                .screen
                .iter()
                .zip(&snap.nodes)
                .map(|(c, n)| (n.id, Rect::from_center_size(*c, Vec2::splat(2.0 * r))))
                .collect(),
            dropped: scene.dropped,
        };
        let hovered = self.nodes_ui(ui, &painter, &response, snap, &placed, &pal, actions);
        // Labels over the nodes and their rings (so a highlight never
        // covers a value), and transposition stubs with their badges.
        if detail {
            self.paint_labels(ui, &painter, snap, &scene.labels, &placed, &pal);
        }
        legend_ui(ui, &painter, rect, legend, &pal);
        if let Some(i) = hovered {
            let node = &snap.nodes[i];
            response
                .clone()
                .on_hover_ui_at_pointer(|ui| node_tooltip(ui, snap, node));
        }
    }

    /// A new snapshot generation gets a new layout, kept in place (or
    /// fitted, or scrolled to the selection path) as the user chose.
    fn follow_layout(&mut self, snap: &Snapshot, generation: u64, rect: Rect, fit_rect: Rect) {
        if generation != self.layout_generation {
            let before = std::mem::take(&mut self.layout_ids)
                .into_iter()
                .zip(self.layout.pos.iter().copied())
                .zip(self.layout.children.iter().map(Vec::len))
                .map(|((id, p), kids)| (id, (p, kids)))
                .collect::<HashMap<_, _>>();
            self.layout = Tidy::of(&snap.nodes);
            self.layout_ids = snap.nodes.iter().map(|n| n.id).collect();
            self.layout_generation = generation;
            if self.auto_fit {
                if !self.keep_in_place(snap, fit_rect, &before) {
                    self.fit_pending = true;
                }
            } else if self.follow_mpn {
                self.follow(snap, rect);
            }
        }
        if self.layout.pos.len() != snap.nodes.len() {
            self.layout = Tidy::of(&snap.nodes);
            self.layout_ids = snap.nodes.iter().map(|n| n.id).collect();
        }
    }

    /// Dragging pans; the wheel or a pinch zooms about the pointer.
    fn pan_and_zoom(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect) {
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
    }

    /// Fits the tree when a fit was asked for. A tree too wide to fit
    /// legibly keeps a readable zoom and scrolls to the selection path
    /// instead of shrinking to a strip.
    fn fit_if_pending(&mut self, snap: &Snapshot, rect: Rect, fit_rect: Rect) {
        if !self.fit_pending {
            return;
        }
        self.fit(fit_rect);
        if self.zoom < READABLE_ZOOM {
            self.zoom = READABLE_ZOOM;
            self.pan.y = 30.0;
            self.follow(snap, rect);
        }
        self.fit_pending = false;
    }

    /// Moves each node's displayed position part of the way toward its
    /// layout position (a new node starts at its parent's), and returns
    /// the positions to draw; asks for another frame while any moves.
    fn glide(&mut self, ui: &egui::Ui, snap: &Snapshot) -> Vec<Point> {
        let now = ui.input(|i| i.time);
        let dt = (now - self.last_time).clamp(0.0, 0.1) as f32;
        self.last_time = now;
        let mut moving = false;
        let mut next_shown = HashMap::with_capacity(snap.nodes.len());
        let mut shown_pos = Vec::with_capacity(snap.nodes.len());
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
            shown_pos.push(Point::new(p.x, p.y));
        }
        self.shown = next_shown;
        if moving {
            ui.ctx().request_repaint();
        }
        shown_pos
    }

    /// Edges, the selection path's last so they lie on top, then the
    /// back-edges (a move that repeats a position on its path) as loops.
    fn paint_edges(&self, painter: &egui::Painter, snap: &Snapshot, at: &Placed, pal: &Palette) {
        let visible = at.rect.expand(at.r * 3.0);
        let r = at.r;
        for pass_on_path in [false, true] {
            for (i, node) in snap.nodes.iter().enumerate() {
                let Some(p) = node.parent else { continue };
                let (a, b) = (at.screen[p as usize], at.screen[i]);
                let on_path = !self.hide_path && node.on_path && snap.nodes[p as usize].on_path;
                if on_path != pass_on_path {
                    continue;
                }
                if !visible.contains(a) && !visible.contains(b) {
                    continue;
                }
                let stroke = if on_path {
                    Stroke::new((3.0 * at.scale).clamp(1.5, 5.0), pal.path)
                } else {
                    Stroke::new(1.0, pal.edge)
                };
                painter.line_segment([a + Vec2::new(0.0, r), b - Vec2::new(0.0, r)], stroke);
            }
        }
        for e in snap.extra_edges.iter().filter(|e| e.back) {
            if let (Some(&pa), Some(&pb)) =
                (at.screen.get(e.from as usize), at.screen.get(e.to as usize))
            {
                back_edge(painter, pa, pb, r, at.scale, pal);
            }
        }
    }

    /// Paints every visible node and gives it its interactive region;
    /// returns the hovered node's index.
    #[allow(clippy::too_many_arguments)]
    fn nodes_ui(
        &mut self,
        ui: &mut egui::Ui,
        painter: &egui::Painter,
        response: &egui::Response,
        snap: &Snapshot,
        at: &Placed,
        pal: &Palette,
        actions: &mut Vec<TreeAction>,
    ) -> Option<usize> {
        let visible = at.rect.expand(at.r * 3.0);
        // A node whose value `cut-off` is 1 (alpha-beta's children never
        // searched) is struck through: it counts as a leaf.
        let cut_off = snap.value_names.iter().position(|n| n == "cut-off");
        let mut hovered = None;
        for (i, node) in snap.nodes.iter().enumerate() {
            let c = at.screen[i];
            if !visible.contains(c) {
                continue;
            }
            let node_rect = Rect::from_center_size(c, Vec2::splat(2.0 * at.r));
            let struck = cut_off.is_some_and(|k| node.values.get(k) == Some(&1.0));
            self.paint_node(painter, node, c, at, pal, struck);
            // One interactive region per visible node: click, hover and
            // the accessible name (so tests and screen readers find it).
            let hit = ui.interact(
                node_rect.expand(2.0),
                response.id.with(("node", node.id)),
                Sense::click(),
            );
            let sel = self.selected == Some(node.id);
            self.node_button(&hit, &node_name(snap, node), sel, node.id, actions);
            if hit.hovered() {
                hovered = Some(i);
            }
            self.node_menu(&hit, node, actions);
        }
        hovered
    }

    /// One node: its shape in its status colour, then its marks (terminal
    /// dot, hidden-children stub, cut-off stroke, class rings, live
    /// badge, selection ring).
    fn paint_node(
        &self,
        painter: &egui::Painter,
        node: &SnapNode,
        c: Pos2,
        at: &Placed,
        pal: &Palette,
        struck: bool,
    ) {
        let (r, scale) = (at.r, at.scale);
        let ghost = node.source == ValueSource::Ghost;
        let fill = if ghost {
            // Counted, not held: an outline only.
            Color32::TRANSPARENT
        } else {
            pal.status(node.status)
        };
        let outline = if ghost {
            Stroke::NONE
        } else if node.on_path && !self.hide_path {
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
        if ghost {
            dashed_outline(painter, node.kind, c, r, Stroke::new(1.2, pal.edge));
        }
        if node.terminal && at.detail {
            painter.circle_filled(c, r * 0.25, pal.text);
        }
        if node.truncated {
            // Hidden children: a small stub under the node.
            painter.line_segment(
                [c + Vec2::new(0.0, r), c + Vec2::new(0.0, r + 4.0)],
                Stroke::new(1.0, pal.text.gamma_multiply(0.7)),
            );
        }
        if struck {
            painter.line_segment(
                [node_rect.left_bottom(), node_rect.right_top()],
                Stroke::new(1.5, pal.text),
            );
        }
        for (k, (_, color)) in self.marks.iter().filter(|(m, _)| *m == node.id).enumerate() {
            painter.rect_stroke(
                node_rect.expand(7.0 + 5.0 * k as f32),
                6.0,
                Stroke::new(4.0, *color),
                StrokeKind::Outside,
            );
        }
        if let Some((_, count)) = self.badges.iter().find(|(b, _)| *b == node.id) {
            live_badge(painter, node_rect, *count, r);
        }
        if self.selected == Some(node.id) {
            painter.rect_stroke(
                node_rect.expand(4.0),
                4.0,
                Stroke::new(2.0, pal.selected),
                StrokeKind::Outside,
            );
        }
    }

    /// A double click collapses or expands a node; its context menu
    /// inspects it, collapses or expands it, or shows only its subtree.
    fn node_menu(&mut self, hit: &egui::Response, node: &SnapNode, actions: &mut Vec<TreeAction>) {
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

    /// The scene's labels: values, moves and thresholds; transposition
    /// stubs with their badges; loop marks.
    fn paint_labels(
        &mut self,
        ui: &egui::Ui,
        painter: &egui::Painter,
        snap: &Snapshot,
        labels: &[SceneLabel],
        at: &Placed,
        pal: &Palette,
    ) {
        for l in labels {
            let lr = crate::app::tree_path::to_rect(&l.bounds, at.origin);
            if !lr.intersects(at.rect) {
                continue;
            }
            let font = FontId::proportional(l.font);
            let on_path = snap.nodes[l.node].on_path && !self.hide_path;
            match l.kind {
                LabelKind::Values | LabelKind::Move | LabelKind::Threshold => {
                    // Values under the node (dimmed when stored or a
                    // ghost's counted value); the move left-aligned, in
                    // the path colour on the selection path; the
                    // thresholds in the path colour.
                    let source = snap.nodes[l.node].source;
                    let (anchor, align, color) = match l.kind {
                        LabelKind::Values if source != ValueSource::Computed => (
                            lr.center_top(),
                            Align2::CENTER_TOP,
                            pal.text.gamma_multiply(0.6),
                        ),
                        LabelKind::Values => (lr.center_top(), Align2::CENTER_TOP, pal.text),
                        LabelKind::Threshold => (lr.left_center(), Align2::LEFT_CENTER, pal.path),
                        _ => {
                            let color = if on_path { pal.path } else { pal.text };
                            (lr.left_center(), Align2::LEFT_CENTER, color)
                        }
                    };
                    if self.label_px.is_some() || l.kind == LabelKind::Move {
                        // Presenter mode: a backdrop so edges never cross
                        // the text.
                        painter.rect_filled(lr.expand(1.0), 3.0, ui.visuals().panel_fill);
                    }
                    let drawn = painter.text(anchor, align, &l.text, font, color);
                    self.drawn.labels.push((l.text.clone(), drawn));
                }
                LabelKind::Shared => {
                    let from = at.screen[l.node] + Vec2::new(at.r * 0.4, at.r);
                    let to = lr.left_top() + Vec2::new(0.0, lr.height() / 2.0);
                    let mid = Pos2::new(from.x, to.y);
                    let stroke = Stroke::new(1.0, pal.edge);
                    painter.add(egui::Shape::dashed_line(&[from, mid, to], stroke, 3.0, 2.0));
                    painter.text(
                        lr.left_center() + Vec2::new(2.0, 0.0),
                        Align2::LEFT_CENTER,
                        &l.text,
                        font,
                        pal.edge,
                    );
                }
                LabelKind::Loop => {
                    painter.text(
                        lr.left_center(),
                        Align2::LEFT_CENTER,
                        &l.text,
                        font,
                        pal.back,
                    );
                }
            }
        }
    }
}
