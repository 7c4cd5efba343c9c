//! Presenter mode (View › Present, F5; Esc leaves): one thing fills the
//! window for a projector — the tree, the board or the curves (P cycles)
//! — under a slim caption bar with the position, the algorithm, the
//! iteration and the lesson's caption. The side panels are hidden. The
//! tree's labels have a size of their own (Ctrl + / Ctrl −, kept in the
//! settings), so they stay readable from the back of a room whatever the
//! tree's zoom; a light high-contrast theme suits projectors that wash
//! out dark backgrounds.

use egui::{Color32, Key, KeyboardShortcut, Modifiers};

use super::board::{self, BoardInput};
use super::panels::Requests;
use super::state::PnlabApp;

/// The smallest and largest tree label size, in points.
pub const LABEL_RANGE: (f32, f32) = (12.0, 40.0);

/// The tree label size presenter mode starts with: 20 points stay above
/// 16 pixels on a 1024×768 projector at egui's default scale.
pub const DEFAULT_LABEL_PX: f32 = 20.0;

/// What fills the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// The search tree.
    #[default]
    Tree,
    /// The board of the shown node.
    Board,
    /// The curves.
    Curves,
}

impl Stage {
    /// The next one (the P key).
    pub fn next(self) -> Stage {
        match self {
            Stage::Tree => Stage::Board,
            Stage::Board => Stage::Curves,
            Stage::Curves => Stage::Tree,
        }
    }

    /// Its name in the caption bar.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Tree => "tree",
            Stage::Board => "board",
            Stage::Curves => "curves",
        }
    }
}

/// Presenter mode's state.
#[derive(Clone, Debug, Default)]
pub struct Presenter {
    /// The window is in presenter mode.
    pub on: bool,
    /// What fills it.
    pub stage: Stage,
    /// The tree's overview strip was shown before presenting.
    pub overview_was: bool,
}

/// The light high-contrast theme for projectors: black text on white,
/// strong strokes, no washed-out greys.
pub fn projector_visuals() -> egui::Visuals {
    let mut v = egui::Visuals::light();
    v.override_text_color = Some(Color32::BLACK);
    v.panel_fill = Color32::WHITE;
    v.window_fill = Color32::WHITE;
    v.extreme_bg_color = Color32::WHITE;
    v.widgets.noninteractive.fg_stroke = egui::Stroke::new(1.5, Color32::BLACK);
    v.widgets.inactive.fg_stroke = egui::Stroke::new(1.5, Color32::BLACK);
    v.widgets.noninteractive.bg_stroke = egui::Stroke::new(1.0, Color32::from_gray(60));
    v
}

/// The presenter's caption size for tree labels of `label_px` points:
/// a little smaller than the labels, never under 18 points.
pub fn caption_px(label_px: f32) -> f32 {
    (label_px * 0.95).max(18.0)
}

/// Scales the text styles of `ui` to the presenter's label size, so
/// plots (axes, ticks, legends) read like the tree's labels.
pub fn scale_text(ui: &mut egui::Ui, label_px: f32) {
    let style = ui.style_mut();
    for (ts, font) in style.text_styles.iter_mut() {
        font.size = match ts {
            egui::TextStyle::Heading => label_px * 1.2,
            egui::TextStyle::Small => label_px * 0.8,
            _ => label_px * 0.9,
        }
        .max(12.0);
    }
}

/// Ctrl + / Ctrl = grow the tree labels, Ctrl − shrink them (consumed, so
/// egui's own zoom does not also act).
fn label_size_keys(ctx: &egui::Context, px: &mut f32) -> bool {
    let grow = [Key::Plus, Key::Equals].iter().any(|&k| {
        ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, k)))
    });
    let shrink = ctx
        .input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::Minus)));
    let before = *px;
    if grow {
        *px += 2.0;
    }
    if shrink {
        *px -= 2.0;
    }
    *px = px.clamp(LABEL_RANGE.0, LABEL_RANGE.1);
    (*px - before).abs() > f32::EPSILON
}

impl PnlabApp {
    /// Switches presenter mode on or off.
    pub fn set_presenting(&mut self, on: bool) {
        if self.teach.presenter.on == on {
            return;
        }
        self.teach.presenter.on = on;
        self.tree.label_px = on.then_some(self.settings.tree_label_px);
        // The overview strip is for the desk; on the wall the tree gets
        // its height.
        if on {
            self.teach.presenter.overview_was = self.tree.show_overview;
            self.tree.show_overview = false;
        } else {
            self.tree.show_overview = self.teach.presenter.overview_was;
        }
        self.tree.request_fit();
        self.send(super::driver::Command::SetView(self.tree.request()));
    }

    /// F5 enters, Esc leaves, P cycles what fills the window, Ctrl ± sizes
    /// the tree's labels (while presenting).
    pub(super) fn presenter_keys(&mut self, ctx: &egui::Context) {
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F5)) {
            let on = !self.teach.presenter.on;
            self.set_presenting(on);
        }
        if !self.teach.presenter.on {
            return;
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape)) {
            self.set_presenting(false);
            return;
        }
        let typing = ctx.memory(|m| m.focused().is_some()) && ctx.egui_wants_keyboard_input();
        if !typing && ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::P)) {
            self.teach.presenter.stage = self.teach.presenter.stage.next();
        }
        if label_size_keys(ctx, &mut self.settings.tree_label_px) {
            self.tree.label_px = Some(self.settings.tree_label_px);
            self.tree.request_fit();
        }
    }

    /// Draws the presenter frame instead of the usual one; false when not
    /// presenting.
    pub(super) fn present_frame(&mut self, ui: &mut egui::Ui, req: &mut Requests) -> bool {
        if !self.teach.presenter.on {
            return false;
        }
        egui::Panel::top("presenter-caption").show(ui, |ui| self.caption_bar(ui, req));
        self.live_teacher_panel(ui);
        egui::CentralPanel::default().show(ui, |ui| {
            let rect = ui.available_rect_before_wrap();
            match self.teach.presenter.stage {
                Stage::Tree => self.present_tree(ui, req),
                Stage::Board => self.present_board(ui),
                Stage::Curves => {
                    let note = self.opened.correct.describe();
                    let px = self.settings.tree_label_px;
                    let picked = ui
                        .scope(|ui| {
                            scale_text(ui, px);
                            self.curves.ui(ui, self.main.state.snapshot.as_ref(), &note)
                        })
                        .inner;
                    if let Some(k) = picked {
                        req.commands.push(super::driver::Command::GoTo(k));
                    }
                }
            }
            self.verdict_overlay(ui, rect);
        });
        true
    }

    /// The tree; beside it the race's other side when a race runs, or
    /// the board of a board game, so a step that shows both shows both.
    fn present_tree(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        let run = &self.main.state;
        let px = self.settings.tree_label_px;
        if let Some(r) = self.race.as_mut() {
            r.tree.label_px = Some(px);
            let a = super::race::run_header("A", self.algorithm.algo, &self.algorithm.params);
            let b_head = super::race::run_header("B", r.algo, &r.params);
            let b = &r.link.state;
            let text = |t: String| egui::RichText::new(t).size(super::presenter::caption_px(px));
            ui.columns(2, |cols| {
                cols[0].label(text(format!(
                    "{a} · iteration {} · {}",
                    run.iteration(),
                    run.status_word.describe()
                )));
                req.tree.extend(
                    self.tree
                        .ui(&mut cols[0], run.snapshot.as_ref(), run.arrivals),
                );
                let nodes = b.snapshot.as_ref().map_or(0, |s| s.counters.nodes_created);
                cols[1].label(text(format!(
                    "{b_head} · iteration {} · {nodes} nodes · {}",
                    b.iteration(),
                    b.status_word.describe()
                )));
                let acted = r.tree.ui(&mut cols[1], b.snapshot.as_ref(), b.arrivals);
                req.race_view_changed |= !acted.is_empty();
            });
            return;
        }
        let board = run
            .snapshot
            .as_ref()
            .and_then(|s| s.position.as_ref())
            .is_some_and(crate::export::board::has_board);
        if !board {
            req.tree
                .extend(self.tree.ui(ui, run.snapshot.as_ref(), run.arrivals));
            return;
        }
        let avail = ui.available_rect_before_wrap();
        let split = avail.left() + avail.width() * 0.62;
        let tree_rect =
            egui::Rect::from_min_max(avail.min, egui::pos2(split - 8.0, avail.bottom()));
        let board_rect = egui::Rect::from_min_max(egui::pos2(split + 8.0, avail.top()), avail.max);
        let acted = ui
            .scope_builder(egui::UiBuilder::new().max_rect(tree_rect), |ui| {
                self.tree.ui(ui, run.snapshot.as_ref(), run.arrivals)
            })
            .inner;
        req.tree.extend(acted);
        ui.scope_builder(egui::UiBuilder::new().max_rect(board_rect), |ui| {
            self.present_board(ui);
        });
    }

    /// The board, as large as the window allows, centred.
    pub(in crate::app) fn present_board(&mut self, ui: &mut egui::Ui) {
        let snap = self.main.state.snapshot.as_ref();
        let input = snap
            .and_then(BoardInput::from_snapshot)
            .unwrap_or(BoardInput {
                position: self.opened.root(),
                path: &[],
                overlays: Vec::new(),
                last_move: None,
                shown_values: 2,
                heat: None,
                knowledge: None,
            });
        let avail = ui.available_rect_before_wrap();
        let side = avail.width().min(avail.height() - 40.0).max(100.0);
        let area = egui::Rect::from_center_size(avail.center(), egui::vec2(side, side + 40.0));
        ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
            board::ui(ui, &input);
        });
    }

    /// The slim bar over the presentation: position, algorithm, iteration,
    /// status, the lesson's step and caption, and the way out.
    fn caption_bar(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        let run = &self.main.state;
        let big = egui::TextStyle::Heading;
        let title = self.opened.title().to_string();
        let line = format!(
            "· {} · iteration {} · {}",
            self.algorithm.summary(),
            run.iteration(),
            run.status_word.describe()
        );
        // The buttons keep their place on the right; the title and the
        // status wrap in what is left, so nothing is drawn over anything.
        // The label size (Ctrl ±) is told on the buttons' hover.
        let px = self.settings.tree_label_px;
        let mut leave = false;
        let mut cycle = false;
        let stage = self.teach.presenter.stage;
        ui.horizontal_top(|ui| {
            let buttons = ui.spacing().interact_size.x * 6.0;
            let text_w = (ui.available_width() - buttons).max(120.0);
            ui.allocate_ui_with_layout(
                egui::vec2(text_w, 0.0),
                egui::Layout::left_to_right(egui::Align::Min).with_main_wrap(true),
                |ui| {
                    ui.set_max_width(text_w);
                    ui.label(egui::RichText::new(title).text_style(big.clone()).strong());
                    ui.add(egui::Label::new(egui::RichText::new(line).text_style(big)).wrap());
                },
            );
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
                let hint = format!("labels {px:.0} pt: Ctrl + and Ctrl − size them");
                if ui.button("Leave (Esc)").on_hover_text(&hint).clicked() {
                    leave = true;
                }
                if ui
                    .button(format!("Showing {} (P)", stage.name()))
                    .on_hover_text(format!("Cycle: tree, board, curves · {hint}"))
                    .clicked()
                {
                    cycle = true;
                }
            });
        });
        if leave {
            self.set_presenting(false);
        }
        if cycle {
            self.teach.presenter.stage = stage.next();
        }
        // Captions grow with the labels (Ctrl ±).
        self.lesson_strip(ui, req, caption_px(px));
    }
}
