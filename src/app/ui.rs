//! The window's frame: menu, toolbar, side panel, inspector and curves,
//! the tree in the middle, the status bar. It only draws and collects
//! what the user asked for ([`Requests`]); everything asked for during a
//! frame is applied at the end of it by the app state (`state`).

use super::board;
use super::controls;
use super::driver::Command;
use super::files::Export;
use super::inspector;
use super::lockstep::Pace;
use super::plots;
use super::race;
use super::state::PnlabApp;
use super::text;
use super::tree_view::TreeAction;
use crate::game::AnyPosition;

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
const DOCS: [(&str, &str); 4] = [
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
    /// File › Open recent.
    open_file: Option<std::path::PathBuf>,
    /// Tree view actions of the main tree.
    tree: Vec<TreeAction>,
    /// The challenger's tree asked for another view.
    race_view_changed: bool,
    /// Race mode switched on or off.
    set_race: Option<bool>,
    /// A ply of the open game record to make the root.
    record_ply: Option<usize>,
    /// The mate question's limit changed (the new limit).
    within: Option<Option<u32>>,
    /// View › RSCN along the game.
    start_rscn: bool,
}

impl PnlabApp {
    /// One frame of the whole window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.apply_settings(&ctx);
        self.take_events(&ctx);
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

        self.rscn.poll();
        if self.rscn.open {
            if let Some(k) = self.rscn.ui(&ctx) {
                self.show_rscn_ply(k);
            }
        }
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
            self.start_rscn();
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
                if let Err(e) = r.driver.send(Command::SetView(view)) {
                    self.messages.push(format!("error: race: {e}"));
                }
            }
        }
        self.settings.follow_mpn = self.tree.follow_mpn;
        self.settings.max_depth = self.tree.max_depth;
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
                if ui.button("Open…").clicked() {
                    req.open_dialog = true;
                    ui.close();
                }
                ui.menu_button("Open recent", |ui| {
                    if self.settings.recent.is_empty() {
                        ui.weak("no file opened yet");
                    }
                    for p in &self.settings.recent {
                        if ui.button(p).clicked() {
                            req.open_file = Some(p.into());
                            ui.close();
                        }
                    }
                });
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
                if ui
                    .button("RSCN along the game…")
                    .on_hover_text("the loaded game record's moves, or alpha-beta's self-play from the loaded position; RSCN per ply on a background thread")
                    .clicked()
                {
                    req.start_rscn = true;
                    ui.close();
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
            ui.strong(&self.entry.name);
        });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        let best = self.run.samples.last().and_then(|s| s.best_child);
        plots::counters_ui(ui, self.run.snapshot.as_ref(), best, self.correct.correct());
        if let Some(r) = self.run.budget_reached {
            ui.label(format!("paused: budget reached ({})", r.name()));
        }
        if let Some(p) = &self.run.proof {
            ui.label(format!(
                "{} certificate: {} positions, {:.1} KiB → {} (check it with pnlab verify)",
                if p.proved { "proof" } else { "disproof" },
                p.positions,
                p.bytes as f64 / 1024.0,
                p.path.display()
            ));
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
        self.question_ui(ui, req);
        match self.record.is_some() {
            true => self.board_and_record(ui, req),
            false => self.board(ui),
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

    /// The question asked of the side to move, with the mate question's
    /// limit next to it.
    fn question_ui(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        ui.horizontal(|ui| {
            ui.label("Question: the side to move wins");
            let mut on = self.within.is_some();
            let mut n = self.within.unwrap_or(1);
            let mut changed = ui
                .checkbox(&mut on, "within")
                .on_hover_text("The mate question: a win within N moves of the side to move")
                .changed();
            ui.add_enabled_ui(on, |ui| {
                changed |= ui
                    .add(egui::DragValue::new(&mut n).range(0..=crate::positions::MAX_WITHIN))
                    .on_hover_text("moves of the side to move")
                    .changed();
                ui.label(if n == 1 { "move" } else { "moves" });
            });
            if changed {
                req.within = Some(on.then_some(n));
            }
        });
    }

    /// The board of the shown node (or the root).
    fn board(&mut self, ui: &mut egui::Ui) {
        if let Some(snap) = self.run.snapshot.as_ref() {
            if let Some(mut input) = board::BoardInput::from_snapshot(snap) {
                input.last_move = self
                    .record
                    .as_ref()
                    .and_then(|r| r.last_move())
                    .map(str::to_string);
                let hex = matches!(input.position.shown(), AnyPosition::Hex(_));
                if hex && self.settings.heat_map {
                    input.heat = self.heat.get(input.position);
                }
                board::ui(ui, &input);
                if hex {
                    ui.checkbox(&mut self.settings.heat_map, "Resistance heat map")
                        .on_hover_text("Shade each empty cell by its share of the current in both players' resistor circuits (Anshelevich 2002)");
                }
            }
        }
    }

    /// The board with the game record's move list beside it; a click on a
    /// move makes the position after it the root, ←/→ (while the pointer
    /// is over the two) walk the game.
    fn board_and_record(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        let Some(view) = self.record.clone() else {
            return;
        };
        let width = ui.available_width();
        let area = ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width((width * 0.64).max(140.0));
                self.board(ui);
            });
            ui.vertical(|ui| {
                ui.label(view.describe());
                ui.horizontal(|ui| {
                    if ui.small_button("Start").clicked() {
                        req.record_ply = Some(0);
                    }
                    if ui.small_button("End").clicked() {
                        req.record_ply = Some(view.len());
                    }
                });
                ui.horizontal(|ui| {
                    if ui.small_button("Previous ply").clicked() {
                        req.record_ply = Some(view.ply.saturating_sub(1));
                    }
                    if ui.small_button("Next ply").clicked() {
                        req.record_ply = Some(view.ply + 1);
                    }
                });
                egui::ScrollArea::vertical()
                    .id_salt("record-moves")
                    .max_height(300.0)
                    .show(ui, |ui| {
                        let current = view.ply.checked_sub(1);
                        for row in view.rows() {
                            ui.horizontal(|ui| {
                                ui.monospace(format!("{:>3}.", row.number));
                                for (i, mv) in [row.first, row.second].into_iter().flatten() {
                                    let r = ui.selectable_label(
                                        current == Some(i),
                                        egui::RichText::new(mv).monospace(),
                                    );
                                    if r.clicked() {
                                        req.record_ply = Some(i + 1);
                                    }
                                }
                            });
                        }
                    });
            });
        });
        if ui.rect_contains_pointer(area.response.rect) {
            let (back, forward) = ui.ctx().input_mut(|i| {
                (
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowLeft),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowRight),
                )
            });
            if back {
                req.record_ply = Some(view.ply.saturating_sub(1));
            }
            if forward {
                req.record_ply = Some(view.ply + 1);
            }
        }
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
        if let Some(r) = self.race.as_mut() {
            ui.heading("Race");
            if let Some((both, only_a, only_b)) = r.overlay.diff(&self.run, &r.run) {
                ui.label(format!(
                    "expanded by both {both}, only A {only_a}, only B {only_b}"
                ));
                race::overlaid_curves(
                    ui,
                    &mut r.overlay,
                    &self.run,
                    &r.run,
                    self.correct.correct(),
                );
            }
            ui.separator();
        }
        ui.heading("Inspector");
        inspector::ui(ui, self.run.snapshot.as_ref(), self.tree.selected);
        if self.settings.show_plots {
            ui.separator();
            // The algorithm's own plots first (CNS's step plots belong next
            // to the inspector, alpha-beta's curves per depth), then the
            // common curves.
            let asked = super::algo_sections::plots_section(ui, &self.run, &mut self.tree);
            if asked.view_changed {
                req.tree.push(TreeAction::ViewChanged);
            }
            if let Some((name, v)) = asked.set_param {
                if let Ok(info) = crate::search::registry::find_algo(&self.algo) {
                    let value = crate::search::params::ParamValue::Int(v);
                    req.restart |= self.params.set_value(info.params, &name, value).is_ok();
                }
            }
            let note = self.correct.describe();
            if let Some(k) = self.curves.ui(ui, self.run.snapshot.as_ref(), &note) {
                req.commands.push(Command::GoTo(k));
            }
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
