//! Drawing the path view and the overview strip (the geometry is in
//! [`crate::layout::path`] and the overview data comes from the engine,
//! [`crate::search::overview`]); this file only paints and turns clicks
//! into changes of the [`TreeView`]'s state.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

use crate::layout::path::{rows, More, PathItem, PathStyle};
use crate::layout::{ApproxMeasure, Bounds, PathScene};
use crate::search::Snapshot;

use super::tree_view::{node_name, node_tooltip, Palette, TreeAction, TreeView};

/// What every part of one path-view frame draws with.
struct PathFrame {
    /// The view.
    rect: Rect,
    /// The scrolled content's corner.
    origin: Pos2,
    /// Moves, values, headers.
    font: FontId,
    /// The open/closed triangles.
    small_font: FontId,
    /// Colours.
    pal: Palette,
    /// The canvas's id, parent of every item's.
    id: egui::Id,
}

/// A layout box on screen, `origin` being the content's corner.
pub fn to_rect(b: &Bounds, origin: Pos2) -> Rect {
    Rect::from_min_max(
        origin + Vec2::new(b.min_x, b.min_y),
        origin + Vec2::new(b.max_x, b.max_y),
    )
}

/// The rest of the panel as a canvas to click and drag, announced to
/// screen readers (and the UI tests) as an image labelled `label`.
pub fn tree_canvas(ui: &mut egui::Ui, label: String) -> (egui::Response, egui::Painter) {
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
    (response, painter)
}

/// Text colour readable on `fill`.
fn on(fill: Color32) -> Color32 {
    let l = 0.299 * fill.r() as f32 + 0.587 * fill.g() as f32 + 0.114 * fill.b() as f32;
    if l > 140.0 {
        Color32::BLACK
    } else {
        Color32::WHITE
    }
}

impl TreeView {
    /// The path view of a path-view snapshot.
    pub(super) fn path_ui(
        &mut self,
        ui: &mut egui::Ui,
        snap: &Snapshot,
        actions: &mut Vec<TreeAction>,
    ) {
        let count = snap.nodes.len();
        let (response, painter) = tree_canvas(ui, format!("search tree, path view: {count} nodes"));
        let rect = response.rect;
        let style = self.path_style();
        let scene = PathScene::build(
            snap,
            &rows(&snap.nodes),
            rect.width(),
            &style,
            &self.row_starts,
            &ApproxMeasure,
        );
        self.scroll_path(
            ui,
            &response,
            (scene.content.max_y - rect.height()).max(0.0),
        );
        let frame = PathFrame {
            rect,
            origin: rect.min - Vec2::new(0.0, self.path_scroll),
            font: FontId::proportional(style.font),
            small_font: FontId::proportional((style.font - 2.0).max(10.0)),
            pal: Palette::for_visuals(ui.visuals()),
            id: response.id,
        };
        let painter = painter.with_clip_rect(rect);
        self.paint_headers(ui, &painter, snap, &scene, &frame);
        let mut hovered = None;
        for it in &scene.items {
            if self.path_item_ui(ui, &painter, snap, it, &frame, actions) {
                hovered = Some(it.node);
            }
        }
        for m in &scene.mores {
            self.more_ui(ui, &painter, m, &frame);
        }
        if let Some(i) = hovered {
            let node = &snap.nodes[i];
            response
                .clone()
                .on_hover_ui_at_pointer(|ui| node_tooltip(ui, snap, node));
        }
    }

    /// The path view's sizes; in presenter mode everything is scaled to
    /// the label size.
    fn path_style(&self) -> PathStyle {
        match self.label_px {
            Some(px) => {
                let d = PathStyle::default();
                let k = px / d.font;
                PathStyle {
                    font: px,
                    gap: d.gap * k,
                    header: d.header * k,
                    indent: d.indent * k,
                    item_width: (d.item_width.0 * k, d.item_width.1 * k),
                    margin: d.margin,
                }
            }
            None => PathStyle::default(),
        }
    }

    /// The wheel and a drag scroll the rows; following the most-proving
    /// node scrolls to the last row when the tree changed.
    fn scroll_path(&mut self, ui: &egui::Ui, response: &egui::Response, max_scroll: f32) {
        if response.hovered() {
            self.path_scroll -= ui.input(|i| i.smooth_scroll_delta.y);
        }
        if response.dragged() {
            self.path_scroll -= response.drag_delta().y;
        }
        if self.follow_mpn && self.path_follow_pending {
            self.path_scroll = max_scroll;
            self.path_follow_pending = false;
        }
        self.path_scroll = self.path_scroll.clamp(0.0, max_scroll);
    }

    /// Each row's header, with a short tick from the item that opens it.
    fn paint_headers(
        &self,
        ui: &egui::Ui,
        painter: &egui::Painter,
        snap: &Snapshot,
        scene: &PathScene,
        f: &PathFrame,
    ) {
        // Where each drawn item is, to hang rows under their parent item.
        let item_rect: std::collections::HashMap<usize, Rect> = scene
            .items
            .iter()
            .map(|it| (it.node, to_rect(&it.bounds, f.origin)))
            .collect();
        for h in &scene.headers {
            let r = to_rect(&h.bounds, f.origin);
            if let Some(from) = h.parent.and_then(|p| item_rect.get(&p)) {
                let on_path = h.parent.is_some_and(|p| snap.nodes[p].on_path) && !self.hide_path;
                let stroke = if on_path {
                    Stroke::new(2.0, f.pal.path)
                } else {
                    Stroke::new(1.0, f.pal.edge)
                };
                let a = from.center_bottom();
                painter.line_segment([a, Pos2::new(a.x, r.top())], stroke);
            }
            if r.intersects(f.rect) {
                painter.text(
                    r.left_center() + Vec2::new(4.0, 0.0),
                    Align2::LEFT_CENTER,
                    &h.text,
                    f.font.clone(),
                    ui.visuals().weak_text_color(),
                );
            }
        }
    }

    /// One item: a box in its status colour with its move and values, a
    /// triangle when it can be opened in place; clicks select (or
    /// predict), a double click or the menu opens it. True when hovered.
    fn path_item_ui(
        &mut self,
        ui: &mut egui::Ui,
        painter: &egui::Painter,
        snap: &Snapshot,
        it: &PathItem,
        f: &PathFrame,
        actions: &mut Vec<TreeAction>,
    ) -> bool {
        let r = to_rect(&it.bounds, f.origin);
        if !r.intersects(f.rect) {
            return false;
        }
        let node = &snap.nodes[it.node];
        let fill = f.pal.status(node.status);
        painter.rect_filled(r, 4.0, fill);
        let sel = self.selected == Some(node.id);
        if sel {
            painter.rect_stroke(
                r,
                4.0,
                Stroke::new(3.0, f.pal.selected),
                StrokeKind::Outside,
            );
        } else if node.on_path && !self.hide_path {
            painter.rect_stroke(r, 4.0, Stroke::new(3.0, f.pal.path), StrokeKind::Outside);
        }
        let text = on(fill);
        painter.text(
            r.center_top() + Vec2::new(0.0, 3.0),
            Align2::CENTER_TOP,
            &it.move_text,
            f.font.clone(),
            text,
        );
        painter.text(
            r.center_bottom() - Vec2::new(0.0, 3.0),
            Align2::CENTER_BOTTOM,
            &it.value_text,
            f.font.clone(),
            text,
        );
        let open = self.open.contains(&node.id);
        let expandable = node.n_children > 0 && !node.on_path;
        if expandable {
            painter.text(
                r.right_top() + Vec2::new(-3.0, 1.0),
                Align2::RIGHT_TOP,
                if open { "▾" } else { "▸" },
                f.small_font.clone(),
                text,
            );
        }
        let hit = ui.interact(r, f.id.with(("node", node.id)), Sense::click());
        self.node_button(&hit, &node_name(snap, node), sel, node.id, actions);
        let id = node.id;
        let toggle = |view: &mut TreeView, actions: &mut Vec<TreeAction>| {
            if !view.open.remove(&id) {
                view.open.insert(id);
            }
            actions.push(TreeAction::ViewChanged);
        };
        if hit.double_clicked() && expandable {
            toggle(self, actions);
        }
        let is_root = node.parent.is_none();
        hit.context_menu(|ui| {
            if expandable
                && ui
                    .button(if open { "Close" } else { "Open in place" })
                    .clicked()
            {
                toggle(self, actions);
                ui.close();
            }
            if !is_root && ui.button("Show only this subtree").clicked() {
                self.focus = Some(id);
                actions.push(TreeAction::ViewChanged);
                ui.close();
            }
        });
        hit.hovered()
    }

    /// A "more" button at the end of a row: shows the row's next items.
    fn more_ui(&mut self, ui: &mut egui::Ui, painter: &egui::Painter, m: &More, f: &PathFrame) {
        let r = to_rect(&m.bounds, f.origin);
        if !r.intersects(f.rect) {
            return;
        }
        let hit = ui.interact(r, f.id.with(("more", m.row, m.new_start)), Sense::click());
        let fill = if hit.hovered() {
            ui.visuals().widgets.hovered.bg_fill
        } else {
            ui.visuals().widgets.inactive.bg_fill
        };
        painter.rect_filled(r, 4.0, fill);
        painter.text(
            r.center(),
            Align2::CENTER_CENTER,
            &m.text,
            f.font.clone(),
            f.pal.text,
        );
        hit.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &m.text));
        if hit.clicked() {
            self.row_starts.insert(m.row, m.new_start);
        }
    }

    /// The overview strip: one band per depth, spans as wide as their
    /// subtrees, coloured by status, the selection path outlined. Clicking
    /// a span shows only that subtree in the main view.
    pub(super) fn overview_ui(
        &mut self,
        ui: &mut egui::Ui,
        snap: &Snapshot,
        actions: &mut Vec<TreeAction>,
    ) {
        let Some(o) = snap.overview.as_ref() else {
            ui.weak("overview: waiting for the worker");
            return;
        };
        if !o.exact {
            ui.weak("overview of the nodes shown (this search keeps no subtree sizes)");
        }
        let height = 72.0;
        let (response, painter) =
            ui.allocate_painter(Vec2::new(ui.available_width(), height), Sense::click());
        let rect = response.rect;
        let total = o.total.max(1) as f32;
        response.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Image,
                true,
                format!(
                    "tree overview: {} nodes, {} levels",
                    o.total,
                    o.levels.len()
                ),
            )
        });
        let pal = Palette::for_visuals(ui.visuals());
        let band = (height / o.levels.len().max(1) as f32).min(14.0);
        let pointer = response.hover_pos();
        let mut under = None;
        for (d, level) in o.levels.iter().enumerate() {
            let y = rect.min.y + d as f32 * band;
            for cell in level {
                let x0 = rect.min.x + cell.start as f32 / total * rect.width();
                let w = (cell.size as f32 / total * rect.width()).max(1.0);
                let r = Rect::from_min_size(Pos2::new(x0, y), Vec2::new(w, band - 1.0));
                let mut fill = pal.status(cell.status);
                if cell.id.is_none() {
                    fill = fill.gamma_multiply(0.55);
                }
                painter.rect_filled(r, 0.0, fill);
                if cell.on_path && !self.hide_path {
                    painter.rect_stroke(r, 0.0, Stroke::new(2.0, pal.path), StrokeKind::Inside);
                }
                if pointer.is_some_and(|p| r.contains(p)) {
                    under = Some(cell.clone());
                }
            }
        }
        if let Some(cell) = under {
            let text = match cell.id {
                Some(_) => format!(
                    "{} nodes · {:?} · click: show this subtree",
                    cell.size, cell.status
                ),
                None => format!("{} small subtrees, {} nodes", cell.merged, cell.size),
            };
            if let (Some(id), true) = (cell.id, response.clicked()) {
                self.focus = Some(id);
                self.request_fit();
                actions.push(TreeAction::ViewChanged);
            }
            response.on_hover_text(text);
        }
    }
}
