//! The window's frame: menu, toolbar, side panel, inspector and curves,
//! the tree in the middle, the status bar. It only draws and collects
//! what the user asked for ([`Requests`]); everything asked for during a
//! frame is applied at the end of it by the app state (`state`).

use super::controls;
use super::driver::Command;
use super::files::Export;
use super::inspector;
use super::lockstep::Pace;
use super::panels::status_bar::{self, StatusInput};
use super::panels::Requests;
use super::race;
use super::state::PnlabApp;
use super::tree_view::TreeAction;

/// egui's default fonts with the monospace face (Hack) as a fallback for
/// proportional text: Ubuntu-Light has no arrows (← →), ceiling brackets
/// (⌈ ⌉), ∈ or ▸, which the formulas, help and tree labels use; without
/// the fallback they are drawn as boxes.
pub fn app_fonts() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    if fonts.font_data.contains_key("Hack") {
        if let Some(list) = fonts.families.get_mut(&egui::FontFamily::Proportional) {
            if !list.iter().any(|f| f == "Hack") {
                list.push("Hack".to_owned());
            }
        }
    }
    fonts
}

/// The documentation the Help menu links to (in the source tree's `docs/`).
const DOCS: [(&str, &str); 5] = [
    ("Teaching with pnlab (docs/teaching.md)", "teaching.md"),
    (
        "Algorithms and counters (docs/algorithms.md)",
        "algorithms.md",
    ),
    ("File formats (docs/formats.md)", "formats.md"),
    ("Command line (docs/cli.md)", "cli.md"),
    ("Architecture (docs/architecture.md)", "architecture.md"),
];

/// A `file://` link to a page of `docs/` (a section with `page#anchor`).
#[cfg(not(target_arch = "wasm32"))]
pub fn doc_url(page: &str) -> String {
    format!("file://{}/docs/{page}", env!("CARGO_MANIFEST_DIR"))
}

/// In a page: `docs/` next to the page (`scripts/web.sh` copies it).
#[cfg(target_arch = "wasm32")]
pub fn doc_url(page: &str) -> String {
    format!("docs/{page}")
}

/// How long a press may last and still be a click (egui's default is
/// 0.8 s). egui times a press by the frames that saw it go down and up,
/// and on a slow device (a phone or a projector laptop drawing a large tree
/// in software, a browser page doing the search on its one thread) a
/// single frame can outlast 0.8 s: a student's tap on a node then became a
/// long press and answered nothing. A longer limit keeps such taps clicks;
/// the price is a slower long press for a context menu on touch screens.
pub const LONGEST_CLICK_S: f64 = 3.0;

impl PnlabApp {
    /// One frame of the whole window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.apply_settings(&ctx);
        self.take_events(&ctx);
        self.pump_live(&ctx);
        let mut req = Requests::default();

        // Dropped files (a page reads them asynchronously: `web`).
        #[cfg(not(target_arch = "wasm32"))]
        let dropped: Vec<std::path::PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(p) = dropped.first() {
            req.open_file = Some(p.clone());
        }

        self.start_lesson_race(&ctx);
        self.teaching_keys(&ctx);
        if !self.live_student_frame(ui, &mut req) && !self.present_frame(ui, &mut req) {
            self.usual_frame(ui, &mut req);
        }

        self.rscn.poll();
        if self.rscn.open {
            if let Some(k) = self.rscn.ui(&ctx) {
                self.show_rscn_ply(k);
            }
        }
        self.browser_pick(&ctx);
        self.tree_text_window(&ctx);
        self.live_dialog(&ctx);

        // Keyboard shortcuts, then everything asked for in this frame.
        let info = self.run_info();
        req.commands
            .extend(self.settings.controls.shortcuts(&ctx, &info));
        self.apply_requests(&ctx, req);
        self.drive_race(&ctx);
        self.drive_hook(&ctx);
    }

    /// The usual frame: menu, toolbar, status bar, the lesson strip, the
    /// side panels (each can be hidden) and the tree.
    fn usual_frame(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui, req));
        egui::Panel::top("controls").show(ui, |ui| {
            let info = self.run_info();
            req.commands
                .extend(self.settings.controls.toolbar(ui, &info));
        });
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui, req));
        self.lesson_panel(ui, req);
        self.live_teacher_panel(ui);
        // At projector sizes (1024×768) the side panels give the tree
        // most of the width: their size follows the window's.
        let width = ui.ctx().content_rect().width();
        if self.settings.show_side {
            let panel = egui::Panel::left("side");
            let size = SideSize::of(width, 0.22, 170.0, 330.0);
            scrolled_side(ui, panel, size, "side-scroll", |ui| {
                self.side_panel(ui, req)
            });
        }
        if self.settings.show_inspector {
            let panel = egui::Panel::right("inspector");
            let size = SideSize::of(width, 0.24, 190.0, 380.0);
            scrolled_side(ui, panel, size, "inspector-scroll", |ui| {
                self.right_panel(ui, req)
            });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            let rect = ui.available_rect_before_wrap();
            self.central(ui, req);
            self.verdict_overlay(ui, rect);
        });
    }

    /// Applies what the frame collected.
    fn apply_requests(&mut self, ctx: &egui::Context, req: Requests) {
        if let Some(w) = req.within {
            self.set_within(w);
        }
        if let Some(ply) = req.record_ply {
            self.go_to_ply(ply);
        }
        if let Some(on) = req.set_race {
            self.set_race(ctx, on);
        }
        if req.start_rscn {
            self.start_rscn(ctx);
        }
        if req.cancel_load {
            self.cancel_loading();
        }
        if req.edit_tree_text {
            self.tree_text.open = true;
        }
        if let Some(e) = req.open_entry {
            self.open_entry(e);
        }
        if req.restart {
            self.restart();
        } else if req.restart_race {
            self.restart_race();
        }
        for c in req.commands {
            self.apply(c);
        }
        let mut view_changed = false;
        for a in req.tree {
            match a {
                TreeAction::Predict(id) => self.predict(id),
                TreeAction::Select(_) | TreeAction::ViewChanged => view_changed = true,
            }
        }
        if view_changed {
            self.send(Command::SetView(self.tree.request()));
        }
        if req.race_view_changed {
            if let Some(r) = self.race.as_mut() {
                let view = r.tree.request();
                if let Err(e) = r.link.send(Command::SetView(view)) {
                    self.messages.push(format!("error: race: {e}"));
                }
            }
        }
        if req.open_dialog {
            self.open_with_dialog();
        }
        if let Some(p) = req.open_file {
            self.open_path(&p);
        }
        self.chooser_ui(ctx);
        for e in req.exports {
            self.export_with_dialog(ctx, e);
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if menu_item(ui, "Open…", None) {
                    req.open_dialog = true;
                }
                ui.menu_button("Open recent", |ui| {
                    if self.settings.recent.is_empty() {
                        ui.weak("no file opened yet");
                    }
                    for p in &self.settings.recent {
                        if menu_item(ui, p, None) {
                            req.open_file = Some(p.into());
                        }
                    }
                });
                if menu_item(ui, "Positions and lessons…", None) {
                    self.browser.open = true;
                }
                ui.menu_button("Export", |ui| {
                    for (label, e) in Export::MENU {
                        if menu_item(ui, label, None) {
                            req.exports.push(e);
                        }
                    }
                });
            });
            ui.menu_button("View", |ui| {
                ui.checkbox(&mut self.settings.dark, "Dark theme");
                ui.checkbox(&mut self.settings.show_side, "Left panel (position, algorithm)");
                ui.checkbox(&mut self.settings.show_inspector, "Right panel (inspector)");
                ui.checkbox(&mut self.settings.show_plots, "Curves");
                let hover = "the open tree's text, edited live (or a new tree)";
                if menu_item(ui, "Tree text…", Some(hover)) {
                    req.edit_tree_text = true;
                }
                let hover = "the loaded game record's moves, or alpha-beta's self-play from the loaded position; RSCN per ply on a background thread";
                if menu_item(ui, "RSCN along the game…", Some(hover)) {
                    req.start_rscn = true;
                }
                ui.horizontal(|ui| {
                    ui.label("Presentation zoom");
                    ui.add(
                        egui::DragValue::new(&mut self.settings.zoom)
                            .range(0.5..=3.0)
                            .speed(0.01),
                    );
                });
            });
            self.teach_menu(ui, req);
            ui.menu_button("Help", |ui| {
                ui.label("space: run / pause");
                ui.label("→: step, ←: back, Home: reset");
                ui.label("game record: click a move, or ←/→ over the move list");
                ui.label("tree: drag to pan, scroll to zoom, click a node to inspect,");
                ui.label("double-click to collapse, right-click for more");
                ui.separator();
                for (title, file) in DOCS {
                    ui.hyperlink_to(title, doc_url(file));
                }
            });
            ui.separator();
            ui.strong(self.opened.title());
        });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        let budget = self.settings.controls.budget();
        let run = &self.main.state;
        // What the budget counts: the tree or table and the time-travel
        // checkpoints.
        let used = run.snapshot.as_ref().map_or(0, |s| {
            s.counters.peak_tree_bytes + run.facts.checkpoint_bytes
        });
        let loading = self.loading_text();
        let input = StatusInput {
            correct: self.opened.correct.correct(),
            memory_used: used,
            memory_budget: budget.max_memory_bytes,
            loading,
            message: self.messages.last().map(String::as_str),
            quiz_open: self.quiz().is_some(),
        };
        if status_bar::ui(ui, run, &input, req) {
            self.messages.clear();
        }
    }

    fn side_panel(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        let snap = self.main.state.snapshot.as_ref();
        self.position.ui(ui, &self.opened, snap, req);
        ui.separator();
        if self.algorithm.ui(ui, self.opened.entry().game) {
            req.restart = true;
        }
        ui.separator();
        self.race_section(ui, req);
        ui.separator();
        ui.heading("Class mode");
        if ui
            .checkbox(&mut self.class.on, "Predict the most-proving node")
            .on_hover_text("Hide the selection path; click the node you think is most-proving")
            .changed()
        {
            self.tree.hide_path = self.class.on;
        }
        let no_path = self
            .main
            .state
            .snapshot
            .as_ref()
            .is_some_and(|s| s.selection_path.is_empty() || s.status.is_final());
        if self.class.on && no_path {
            ui.weak("nothing to predict now: the run shows no selection path at this iteration (or it is over)");
        }
        if self.class.on || self.class.attempts > 0 {
            ui.label(self.class.score_text());
            if let Some(v) = &self.class.verdict {
                ui.label(v);
            }
        }
        ui.separator();
        ui.heading("Budget");
        req.commands.extend(self.settings.controls.budget_ui(ui));
    }

    fn race_section(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        ui.heading("Race");
        let mut on = self.race.is_some();
        if ui
            .checkbox(&mut on, "Race a second run (B)")
            .on_hover_text("Run a second algorithm or parameter set in lockstep")
            .changed()
        {
            req.set_race = Some(on);
        }
        let Some(r) = self.race.as_mut() else { return };
        ui.horizontal(|ui| {
            ui.label("Lockstep");
            for pace in [Pace::Iterations, Pace::Nodes] {
                ui.selectable_value(&mut r.lockstep.pace, pace, pace.label())
                    .on_hover_text(pace.help());
            }
        });
        ui.push_id("race-params", |ui| {
            // The race shares the main run's seed.
            let mut seed = self.algorithm.seed;
            req.restart_race |= controls::algorithm_panel(
                ui,
                self.opened.entry().game,
                &mut r.algo,
                &mut r.params,
                &mut seed,
            );
        });
    }

    fn right_panel(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        if let Some(r) = self.race.as_mut() {
            ui.heading("Race");
            if let Some((both, only_a, only_b)) = r.overlay.diff(&self.main.state, &r.link.state) {
                ui.label(format!(
                    "expanded by both {both}, only A {only_a}, only B {only_b}"
                ));
                race::overlaid_curves(
                    ui,
                    &mut r.overlay,
                    &self.main.state,
                    &r.link.state,
                    self.opened.correct.correct(),
                );
            }
            ui.separator();
        }
        ui.heading("Inspector");
        inspector::ui(ui, self.main.state.snapshot.as_ref(), self.tree.selected);
        if self.settings.show_plots {
            ui.separator();
            // The algorithm's own plots first (CNS's step plots belong next
            // to the inspector, alpha-beta's curves per depth), then the
            // common curves.
            let asked = super::algo_sections::plots_section(ui, &self.main.state, &mut self.tree);
            if asked.view_changed {
                req.tree.push(TreeAction::ViewChanged);
            }
            if let Some((name, v)) = asked.set_param {
                let info = self.algorithm.algo.info();
                let value = crate::search::params::ParamValue::Int(v);
                req.restart |= self
                    .algorithm
                    .params
                    .set_value(info.params, &name, value)
                    .is_ok();
            }
            let note = self.opened.correct.describe();
            if let Some(k) = self.curves.ui(ui, self.main.state.snapshot.as_ref(), &note) {
                req.commands.push(Command::GoTo(k));
            }
        }
    }

    fn central(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        let run = &self.main.state;
        match self.race.as_mut() {
            None => {
                req.tree
                    .extend(self.tree.toolbar(ui, run.snapshot.as_ref()));
                req.tree
                    .extend(self.tree.ui(ui, run.snapshot.as_ref(), run.arrivals));
            }
            Some(r) => {
                let a_label = race::run_header("A", self.algorithm.algo, &self.algorithm.params);
                if let Some(v) = race::fewer_nodes(run, &r.link.state) {
                    ui.strong(v);
                }
                ui.columns(2, |cols| {
                    cols[0].strong(a_label);
                    if let Some(s) = run.snapshot.as_ref() {
                        cols[0].label(format!(
                            "A: iterations {} · nodes {} · {}",
                            s.counters.iterations,
                            s.counters.nodes_created,
                            run.status_word.describe()
                        ));
                    }
                    req.tree
                        .extend(self.tree.toolbar(&mut cols[0], run.snapshot.as_ref()));
                    req.tree.extend(self.tree.ui(
                        &mut cols[0],
                        run.snapshot.as_ref(),
                        run.arrivals,
                    ));
                    cols[1].strong(race::run_header("B", r.algo, &r.params));
                    let b = &r.link.state;
                    if let Some(s) = b.snapshot.as_ref() {
                        cols[1].label(format!(
                            "B: iterations {} · nodes {} · {}",
                            s.counters.iterations,
                            s.counters.nodes_created,
                            b.status_word.describe()
                        ));
                    }
                    let b_actions = r.tree.ui(&mut cols[1], b.snapshot.as_ref(), b.arrivals);
                    req.race_view_changed = !b_actions.is_empty();
                });
            }
        }
    }

    fn apply_settings(&mut self, ctx: &egui::Context) {
        if !self.look.fonts_installed {
            ctx.set_fonts(app_fonts());
            ctx.options_mut(|o| o.input_options.max_click_duration = LONGEST_CLICK_S);
            self.look.fonts_installed = true;
        }
        let projector = self.settings.projector;
        if self.look.applied_dark != Some(self.settings.dark)
            || self.look.applied_projector != Some(projector)
        {
            ctx.set_visuals_of(
                egui::Theme::Light,
                if projector {
                    super::presenter::projector_visuals()
                } else {
                    egui::Visuals::light()
                },
            );
            ctx.set_theme(if self.settings.dark && !projector {
                egui::Theme::Dark
            } else {
                egui::Theme::Light
            });
            self.look.applied_dark = Some(self.settings.dark);
            self.look.applied_projector = Some(projector);
        }
        let z = self.settings.zoom.clamp(0.5, 3.0);
        if (z - self.look.applied_zoom).abs() > 1e-3 {
            ctx.set_zoom_factor(z);
            self.look.applied_zoom = z;
        }
    }
}

/// The widths of a side panel at a window `width` wide.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SideSize {
    /// The width it opens at.
    default: f32,
    /// The widest it may be dragged to.
    max: f32,
}

impl SideSize {
    /// `share` of the window's width, between `min` and `max`; never
    /// dragged wider than 28 % of the window (or `min`, on a small one).
    fn of(width: f32, share: f32, min: f32, max: f32) -> SideSize {
        SideSize {
            default: (width * share).clamp(min, max),
            max: (width * 0.28).max(min),
        }
    }
}

/// Shows `panel` (a left or right side panel) at `size`, its contents
/// in a vertical scroll area named `scroll_id`.
fn scrolled_side(
    ui: &mut egui::Ui,
    panel: egui::Panel,
    size: SideSize,
    scroll_id: &str,
    add: impl FnOnce(&mut egui::Ui),
) {
    panel
        .default_size(size.default)
        .max_size(size.max)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt(scroll_id)
                .show(ui, add);
        });
}

/// A menu entry, with `hover` as its tooltip when given; true when it was
/// clicked (the menu then closes).
fn menu_item<'a>(ui: &mut egui::Ui, label: impl egui::IntoAtoms<'a>, hover: Option<&str>) -> bool {
    let mut entry = ui.button(label);
    if let Some(h) = hover {
        entry = entry.on_hover_text(h);
    }
    let clicked = entry.clicked();
    if clicked {
        ui.close();
    }
    clicked
}
