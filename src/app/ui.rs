//! The window's frame: menu, toolbar, side panel, inspector and curves,
//! the tree in the middle, the status bar. It only draws and collects
//! what the user asked for ([`Requests`]); everything asked for during a
//! frame is applied at the end of it by the app state (`state`).

use std::path::PathBuf;

use super::board;
use super::controls;
use super::files::{self, Export};
use super::inspector;
use super::lockstep::Pace;
use super::plots;
use super::race;
use super::state::PnlabApp;
use super::text;
use super::tree_view::TreeAction;
use super::worker::Command;

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

/// What the user asked for during one frame.
#[derive(Default)]
struct Requests {
    /// Run commands (toolbar, keys, a click on a switch event).
    commands: Vec<Command>,
    /// The algorithm, its parameters or the seed changed.
    restart: bool,
    /// The challenger's algorithm or parameters changed.
    restart_race: bool,
    /// Exports to write.
    exports: Vec<Export>,
    /// File › Open.
    open_dialog: bool,
    /// Tree view actions of the main tree.
    tree: Vec<TreeAction>,
    /// The challenger's tree asked for another view.
    race_view_changed: bool,
    /// Race mode switched on or off.
    set_race: Option<bool>,
}

impl PnlabApp {
    /// One frame of the whole window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.apply_settings(&ctx);
        self.take_events(&ctx);
        let mut req = Requests::default();

        // Dropped files.
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(p) = dropped.first() {
            self.open_path(p);
        }

        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui, &mut req));
        egui::Panel::top("controls").show(ui, |ui| {
            let info = self.run_info();
            req.commands
                .extend(self.settings.controls.toolbar(ui, &info));
        });
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        egui::Panel::left("side")
            .default_size(330.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("side-scroll")
                    .show(ui, |ui| self.side_panel(ui, &mut req));
            });
        egui::Panel::right("inspector")
            .default_size(380.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("inspector-scroll")
                    .show(ui, |ui| self.right_panel(ui, &mut req));
            });
        egui::CentralPanel::default().show(ui, |ui| self.central(ui, &mut req));

        if let Some((source, entries)) = self.browser.ui(&ctx) {
            self.open_entries(source, entries);
        }

        // Keyboard shortcuts, then everything asked for in this frame.
        let info = self.run_info();
        req.commands
            .extend(self.settings.controls.shortcuts(&ctx, &info));
        self.apply_requests(&ctx, req);
        self.drive_race(&ctx);
        self.drive_hook(&ctx);
    }

    /// Applies what the frame collected.
    fn apply_requests(&mut self, ctx: &egui::Context, req: Requests) {
        if let Some(on) = req.set_race {
            self.set_race(ctx, on);
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
            if let Some(r) = self.race.as_ref() {
                let view = r.tree.request();
                if let Some(w) = r.worker.as_ref() {
                    if let Err(e) = w.send(Command::SetView(view)) {
                        self.messages.push(format!("error: race: {e}"));
                    }
                }
            }
        }
        self.settings.follow_mpn = self.tree.follow_mpn;
        self.settings.max_depth = self.tree.max_depth;
        if req.open_dialog {
            if let Some(p) = files::pick_open() {
                self.open_path(&p);
            }
        }
        for e in req.exports {
            self.export_with_dialog(ctx, e);
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open…").clicked() {
                    req.open_dialog = true;
                    ui.close();
                }
                if ui.button("Positions…").clicked() {
                    self.browser.open = true;
                    ui.close();
                }
                ui.menu_button("Export", |ui| {
                    for (label, e) in Export::MENU {
                        if ui.button(label).clicked() {
                            req.exports.push(e);
                            ui.close();
                        }
                    }
                });
            });
            ui.menu_button("View", |ui| {
                ui.checkbox(&mut self.settings.dark, "Dark theme");
                ui.checkbox(&mut self.settings.show_plots, "Curves");
                ui.horizontal(|ui| {
                    ui.label("Presentation zoom");
                    ui.add(
                        egui::DragValue::new(&mut self.settings.zoom)
                            .range(0.5..=3.0)
                            .speed(0.01),
                    );
                });
            });
            ui.menu_button("Help", |ui| {
                ui.label("space: run / pause");
                ui.label("→: step, ←: back, Home: reset");
                ui.label("tree: drag to pan, scroll to zoom, click a node to inspect,");
                ui.label("double-click to collapse, right-click for more");
            });
            ui.separator();
            ui.strong(&self.entry.name);
        });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        let best = self.run.samples.last().and_then(|s| s.best_child);
        plots::counters_ui(ui, self.run.snapshot.as_ref(), best, self.correct.correct());
        if let Some(r) = self.run.budget_reached {
            ui.label(format!("paused: budget reached ({})", r.name()));
        }
        if let Some(m) = self.messages.last().cloned() {
            ui.horizontal(|ui| {
                let color = if m.starts_with("error") {
                    ui.visuals().error_fg_color
                } else {
                    ui.visuals().text_color()
                };
                ui.colored_label(color, &m);
                if ui.small_button("Dismiss").clicked() {
                    self.messages.clear();
                }
            });
        }
    }

    fn side_panel(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        ui.heading("Position");
        ui.label(format!("{} ({})", self.entry.name, self.entry.game.name()));
        if !self.entry.notes.is_empty() {
            text::notes(ui, &self.entry.notes);
        }
        if let Some(exp) = &self.entry.expected {
            if let Some(r) = &exp.result {
                ui.label(format!("expected: {r}"));
            }
        }
        if let Some(snap) = self.run.snapshot.as_ref() {
            if let Some(input) = board::BoardInput::from_snapshot(snap) {
                board::ui(ui, &input);
            }
        }
        if !self.file_entries.is_empty() {
            ui.separator();
            ui.label(format!("In {}:", self.file_source));
            let mut chosen = None;
            egui::ScrollArea::vertical()
                .id_salt("file-entries")
                .max_height(160.0)
                .show(ui, |ui| {
                    for (i, e) in self.file_entries.iter().enumerate() {
                        if ui
                            .selectable_label(e.name == self.entry.name, &e.name)
                            .on_hover_text(&e.notes)
                            .clicked()
                        {
                            chosen = Some(i);
                        }
                    }
                });
            if let Some(i) = chosen {
                let e = self.file_entries[i].clone();
                self.load_entry(e);
            }
        }
        ui.separator();
        ui.heading("Algorithm");
        let mut seed = self.settings.seed;
        if controls::algorithm_panel(ui, &mut self.algo, &mut self.params, &mut seed) {
            self.settings.algo = self.algo.clone();
            req.restart = true;
        }
        self.settings.seed = seed;
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
            let mut seed = self.settings.seed;
            req.restart_race |=
                controls::algorithm_panel(ui, &mut r.algo, &mut r.params, &mut seed);
        });
    }

    fn right_panel(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        if let Some(r) = self.race.as_ref() {
            ui.heading("Race");
            if let (Some(a), Some(b)) = (self.run.snapshot.as_ref(), r.run.snapshot.as_ref()) {
                let (both, only_a, only_b) = race::expansion_diff(a, b);
                ui.label(format!(
                    "expanded by both {both}, only A {only_a}, only B {only_b}"
                ));
                race::overlaid_curves(
                    ui,
                    ("A", &self.run.samples, &a.value_names),
                    ("B", &r.run.samples, &b.value_names),
                    self.correct.correct(),
                );
            }
            ui.separator();
        }
        ui.heading("Inspector");
        inspector::ui(ui, self.run.snapshot.as_ref(), self.tree.selected);
        if self.settings.show_plots {
            ui.separator();
            let note = self.correct.describe();
            if let Some(k) = self.curves.ui(ui, self.run.snapshot.as_ref(), &note) {
                req.commands.push(Command::GoTo(k));
            }
            super::algo_sections::plots_section(ui, &self.run);
        }
    }

    fn central(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        match self.race.as_mut() {
            None => {
                req.tree
                    .extend(self.tree.toolbar(ui, self.run.snapshot.as_ref()));
                req.tree.extend(
                    self.tree
                        .ui(ui, self.run.snapshot.as_ref(), self.generation),
                );
            }
            Some(r) => {
                ui.columns(2, |cols| {
                    let a_label = format!("A: {} ({})", self.algo, self.params.summary());
                    cols[0].strong(a_label);
                    req.tree
                        .extend(self.tree.toolbar(&mut cols[0], self.run.snapshot.as_ref()));
                    req.tree.extend(self.tree.ui(
                        &mut cols[0],
                        self.run.snapshot.as_ref(),
                        self.generation,
                    ));
                    cols[1].strong(format!("B: {} ({})", r.algo, r.params.summary()));
                    if let Some(s) = r.run.snapshot.as_ref() {
                        cols[1].label(format!(
                            "B: iterations {} · nodes {} · {}",
                            s.counters.iterations,
                            s.counters.nodes_created,
                            plots::status_text(s)
                        ));
                    }
                    let b_actions =
                        r.tree
                            .ui(&mut cols[1], r.run.snapshot.as_ref(), r.run.arrivals);
                    req.race_view_changed = !b_actions.is_empty();
                });
            }
        }
    }

    fn apply_settings(&mut self, ctx: &egui::Context) {
        if !self.fonts_installed {
            ctx.set_fonts(app_fonts());
            self.fonts_installed = true;
        }
        if self.applied_dark != Some(self.settings.dark) {
            ctx.set_theme(if self.settings.dark {
                egui::Theme::Dark
            } else {
                egui::Theme::Light
            });
            self.applied_dark = Some(self.settings.dark);
        }
        let z = self.settings.zoom.clamp(0.5, 3.0);
        if (z - self.applied_zoom).abs() > 1e-3 {
            ctx.set_zoom_factor(z);
            self.applied_zoom = z;
        }
    }
}
