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
        egui::CentralPanel::default().show(ui, |ui| {
            let rect = ui.available_rect_before_wrap();
            match self.teach.presenter.stage {
                Stage::Tree => {
                    let run = &self.main.state;
                    req.tree
                        .extend(self.tree.ui(ui, run.snapshot.as_ref(), run.arrivals));
                }
                Stage::Board => self.present_board(ui),
                Stage::Curves => {
                    let note = self.opened.correct.describe();
                    if let Some(k) = self.curves.ui(ui, self.main.state.snapshot.as_ref(), &note) {
                        req.commands.push(super::driver::Command::GoTo(k));
                    }
                }
            }
            self.verdict_overlay(ui, rect);
        });
        true
    }

    /// The board, as large as the window allows, centred.
    fn present_board(&mut self, ui: &mut egui::Ui) {
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
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(title).text_style(big.clone()).strong());
            ui.label(egui::RichText::new(line).text_style(big));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Leave (Esc)").clicked() {
                    self.set_presenting(false);
                }
                let stage = self.teach.presenter.stage;
                if ui
                    .button(format!("Showing {} (P)", stage.name()))
                    .on_hover_text("Cycle: tree, board, curves")
                    .clicked()
                {
                    self.teach.presenter.stage = stage.next();
                }
                ui.label(format!(
                    "labels {:.0} pt (Ctrl ±)",
                    self.settings.tree_label_px
                ));
            });
        });
        self.lesson_strip(ui, req, 18.0);
    }
}
