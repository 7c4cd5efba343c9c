//! The app's window: state and frame layout, apart from the eframe shell
//! (STYLE.md "The app": egui_demo_lib). Actions asked for during a frame
//! are collected and applied at the end of it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::positions::{self, PositionEntry};
use crate::search::{registry, Params, QuestionKind, SearchSetup};

use super::board;
use super::controls::{self, ControlAction, Controls, RunInfo};
use super::error_rate::CorrectMovesTask;
use super::files;
use super::inspector;
use super::logic::RunState;
use super::plots::{self, Curves};
use super::race::{self, Race, RACE_CHUNK};
use super::tree_view::{TreeAction, TreeView};
use super::worker::{Command, RunSpec, WorkerHandle};

/// Settings kept between sessions (eframe storage).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    pub dark: bool,
    /// Presentation zoom (egui zoom factor).
    pub zoom: f32,
    pub controls: Controls,
    pub follow_mpn: bool,
    pub max_depth: u32,
    pub algo: String,
    pub seed: u64,
    pub show_plots: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dark: true,
            zoom: 1.0,
            controls: Controls::default(),
            follow_mpn: true,
            max_depth: 8,
            algo: "pns".into(),
            seed: 1,
            show_plots: true,
        }
    }
}

/// An export the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    Dot,
    Svg,
    Png,
    Csv,
    Json,
}

impl Export {
    fn ext(self) -> &'static str {
        match self {
            Export::Dot => "dot",
            Export::Svg => "svg",
            Export::Png => "png",
            Export::Csv => "csv",
            Export::Json => "json",
        }
    }
}

/// Class mode (issue #5 item 7): the path is hidden, the user clicks the
/// node they predict is most-proving, the app reveals it, scores the
/// prediction and runs the iteration.
#[derive(Clone, Debug, Default)]
pub struct ClassMode {
    pub on: bool,
    pub score: u32,
    pub attempts: u32,
    /// The last verdict shown to the class.
    pub verdict: Option<String>,
}

/// The headless hook's progress (`--autoplay N --screenshot OUT.png`).
enum HookPhase {
    Start,
    Running(u64),
    Settling(u32),
    Shooting,
    Done,
}

/// `pnlab --open … --autoplay N --screenshot OUT.png` (issue #5 item 10).
pub struct Hook {
    pub autoplay: u64,
    pub screenshot: Option<PathBuf>,
    phase: HookPhase,
    started: Instant,
    /// The outcome, read by `run_app` after the window closed.
    pub result: Arc<Mutex<Option<Result<(), String>>>>,
}

/// How long the headless hook may take before it gives up.
const HOOK_TIMEOUT: Duration = Duration::from_secs(300);

impl Hook {
    pub fn new(autoplay: u64, screenshot: Option<PathBuf>) -> Hook {
        Hook {
            autoplay,
            screenshot,
            phase: HookPhase::Start,
            started: Instant::now(),
            result: Arc::new(Mutex::new(None)),
        }
    }
}

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

/// The whole app state.
pub struct PnlabApp {
    worker: Option<WorkerHandle>,
    pub run: RunState,
    pub entry: PositionEntry,
    pub algo: String,
    pub params: Params,
    pub tree: TreeView,
    pub settings: Settings,
    curves: Curves,
    /// Whether [`app_fonts`] went to the context already.
    fonts_installed: bool,
    /// The loaded position's correct root moves (error-rate curves).
    pub correct: CorrectMovesTask,
    /// Positions of the last opened file (choose one to load).
    pub file_entries: Vec<PositionEntry>,
    pub file_source: String,
    show_browser: bool,
    /// User-facing messages (errors first-class: `error: …`).
    pub messages: Vec<String>,
    /// Messages from callbacks on other threads (screenshots).
    notices: Arc<Mutex<Vec<String>>>,
    next_sync: u64,
    /// Bumped on every new snapshot (tree layout cache key).
    generation: u64,
    /// Bumped when the curves must be rebuilt.
    epoch: u64,
    pub hook: Option<Hook>,
    pub class: ClassMode,
    /// Race mode: the challenger run, if racing.
    pub race: Option<Race>,
    applied_zoom: f32,
    applied_dark: Option<bool>,
}

impl PnlabApp {
    /// Starts the worker (woken by `ctx`) and loads the default position.
    pub fn new(ctx: &egui::Context, settings: Settings) -> PnlabApp {
        let wake_ctx = ctx.clone();
        let (worker, mut messages) = match WorkerHandle::spawn(move || wake_ctx.request_repaint()) {
            Ok(w) => (Some(w), Vec::new()),
            Err(e) => (None, vec![format!("error: {e}")]),
        };
        let algo = if registry::find_algo(&settings.algo).is_ok() {
            settings.algo.clone()
        } else {
            messages.push(format!(
                "note: algorithm {} is not available; using pns",
                settings.algo
            ));
            "pns".to_string()
        };
        let params = registry::find_algo(&algo)
            .map(|a| Params::defaults(a.params))
            .unwrap_or_default();
        let mut tree = TreeView::default();
        tree.follow_mpn = settings.follow_mpn;
        tree.max_depth = settings.max_depth;
        tree.reset_run();
        let mut app = PnlabApp {
            worker,
            run: RunState::default(),
            entry: positions::default_position(),
            algo,
            params,
            tree,
            settings,
            curves: Curves::default(),
            fonts_installed: false,
            correct: CorrectMovesTask::default(),
            file_entries: Vec::new(),
            file_source: String::new(),
            show_browser: false,
            messages,
            notices: Arc::new(Mutex::new(Vec::new())),
            next_sync: 0,
            generation: 0,
            epoch: 0,
            hook: None,
            class: ClassMode::default(),
            race: None,
            applied_zoom: 0.0,
            applied_dark: None,
        };
        let c = app.settings.controls.clone();
        app.send(Command::SetSpeed(c.speed_setting()));
        app.send(Command::SetBudget(c.budget()));
        let entry = app.entry.clone();
        app.load_entry(entry);
        app
    }

    fn send(&mut self, cmd: Command) {
        let r = match &self.worker {
            Some(w) => w.send(cmd),
            None => Err("the search thread is not running".to_string()),
        };
        if let Err(e) = r {
            self.messages.push(format!("error: {e}"));
        }
    }

    /// Waits until the worker has carried out every command sent so far
    /// (tests and the headless hook); false on timeout.
    pub fn settle(&mut self, timeout: Duration) -> bool {
        // The correct moves are part of what the UI shows (error curve).
        if !self.correct.wait(timeout) {
            return false;
        }
        let id = self.sync();
        let Some(w) = self.worker.as_ref() else {
            return false;
        };
        if !self.run.wait_synced(w, id, timeout) {
            return false;
        }
        if let Some(r) = self.race.as_mut() {
            if let Some(w) = r.worker.as_ref() {
                let _ = w.send(Command::Sync(id));
                return r.run.wait_synced(w, id, timeout);
            }
        }
        true
    }

    /// Sends a command to the challenger run, if racing.
    fn send_race(&mut self, cmd: Command) {
        let Some(r) = self.race.as_ref() else { return };
        let Some(w) = r.worker.as_ref() else { return };
        if let Err(e) = w.send(cmd) {
            self.messages.push(format!("error: race: {e}"));
        }
    }

    /// Starts or stops race mode (the challenger starts as a copy of the
    /// current algorithm and parameters).
    pub fn set_race(&mut self, ctx: &egui::Context, on: bool) {
        if !on {
            self.race = None;
            return;
        }
        match Race::new(ctx, &self.algo) {
            Ok(mut r) => {
                r.params = self.params.clone();
                self.race = Some(r);
                self.restart_race();
            }
            Err(e) => self.messages.push(format!("error: {e}")),
        }
    }

    /// Restarts the challenger on the current position.
    pub fn restart_race(&mut self) {
        let Some(r) = self.race.as_mut() else { return };
        r.tree.reset_run();
        r.racing = false;
        r.chunk_sync = None;
        let (algo, params, view) = (r.algo.clone(), r.params.clone(), r.tree.request());
        let spec = RunSpec {
            algo,
            setup: self.setup(params),
        };
        let c = self.settings.controls.clone();
        self.send_race(Command::SetView(view));
        self.send_race(Command::SetBudget(c.budget()));
        self.send_race(Command::Load(spec));
    }

    fn setup(&self, params: Params) -> SearchSetup {
        SearchSetup {
            position: self.entry.position.clone(),
            params,
            seed: self.settings.seed,
            question: QuestionKind::Win,
            memory_limit_bytes: None,
        }
    }

    fn sync(&mut self) -> u64 {
        self.next_sync += 1;
        let id = self.next_sync;
        self.send(Command::Sync(id));
        id
    }

    /// Loads a position entry: its suggested algorithm and parameters
    /// when valid (a bad suggestion is reported and the defaults used).
    pub fn load_entry(&mut self, entry: PositionEntry) {
        if let Some(a) = entry.algo.as_deref() {
            match registry::find_algo(a) {
                Ok(info) => {
                    self.algo = info.name.to_string();
                    match Params::from_pairs(info.params, &entry.params) {
                        Ok(p) => self.params = p,
                        Err(e) => {
                            self.messages.push(format!("error: {}: {e}", entry.name));
                            self.params = Params::defaults(info.params);
                        }
                    }
                }
                Err(e) => self.messages.push(format!("error: {}: {e}", entry.name)),
            }
        }
        self.entry = entry;
        self.restart();
    }

    /// Sets the algorithm and `NAME=VALUE` parameters (the `--algo` and
    /// `--set` flags).
    pub fn set_algo(&mut self, algo: &str, pairs: &[(String, String)]) -> Result<(), String> {
        let info = registry::find_algo(algo)?;
        let params = Params::from_pairs(info.params, pairs)?;
        self.algo = info.name.to_string();
        self.params = params;
        self.restart();
        Ok(())
    }

    /// Starts a new run of the current algorithm on the current position.
    pub fn restart(&mut self) {
        self.tree.reset_run();
        self.epoch += 1;
        self.send(Command::SetView(self.tree.request()));
        let setup = self.setup(self.params.clone());
        let best_moves = self
            .entry
            .expected
            .as_ref()
            .map(|e| e.best_moves.clone())
            .unwrap_or_default();
        self.correct
            .start(&setup.position, setup.root_question(), &best_moves);
        self.send(Command::Load(RunSpec {
            algo: self.algo.clone(),
            setup,
        }));
        self.restart_race();
    }

    /// Opens a position file: one position loads at once, several fill
    /// the chooser; a bad file only adds the error message.
    pub fn open_path(&mut self, path: &Path) {
        match files::load_path(path) {
            Ok(entries) => self.open_entries(path.display().to_string(), entries),
            Err(e) => self.messages.push(format!("error: {e}")),
        }
    }

    fn open_entries(&mut self, source: String, mut entries: Vec<PositionEntry>) {
        if entries.len() == 1 {
            let e = entries.remove(0);
            self.messages.push(format!("opened {}", e.name));
            self.file_entries.clear();
            self.load_entry(e);
        } else if !entries.is_empty() {
            self.messages
                .push(format!("{source}: {} positions; choose one", entries.len()));
            self.file_source = source;
            let first = entries[0].clone();
            self.file_entries = entries;
            self.load_entry(first);
        }
    }

    /// Applies one control action.
    /// In race mode every command goes to both runs; Run becomes lockstep
    /// chunks of [`RACE_CHUNK`] iterations.
    pub fn apply(&mut self, a: ControlAction) {
        let racing = self.race.is_some();
        let mirrored = match a {
            ControlAction::Step(n) => Some(Command::Step(n)),
            ControlAction::Run if racing => {
                if let Some(r) = self.race.as_mut() {
                    r.racing = true;
                }
                None
            }
            ControlAction::Run => {
                self.send(Command::Run);
                None
            }
            ControlAction::Pause => {
                if let Some(r) = self.race.as_mut() {
                    r.racing = false;
                    r.chunk_sync = None;
                }
                Some(Command::Pause)
            }
            ControlAction::Back(k) => Some(Command::Back(k)),
            ControlAction::GoTo(k) => Some(Command::GoTo(k)),
            ControlAction::Reset => Some(Command::Reset),
            ControlAction::SetSpeed(s) => Some(Command::SetSpeed(s)),
            ControlAction::SetBudget(b) => Some(Command::SetBudget(b)),
            ControlAction::Restart => {
                self.restart();
                None
            }
        };
        if let Some(cmd) = mirrored {
            let copy = match &cmd {
                Command::Step(n) => Some(Command::Step(*n)),
                Command::Pause => Some(Command::Pause),
                Command::Back(k) => Some(Command::Back(*k)),
                Command::GoTo(k) => Some(Command::GoTo(*k)),
                Command::Reset => Some(Command::Reset),
                Command::SetSpeed(s) => Some(Command::SetSpeed(*s)),
                Command::SetBudget(b) => Some(Command::SetBudget(*b)),
                _ => None,
            };
            self.send(cmd);
            if let Some(c) = copy {
                self.send_race(c);
            }
        }
    }

    /// Lockstep racing: when both runs finished their chunk (both answered
    /// the chunk's sync), both take the next one.
    fn drive_race(&mut self, ctx: &egui::Context) {
        let Some(r) = self.race.as_ref() else { return };
        if !r.racing {
            return;
        }
        ctx.request_repaint();
        if let Some(id) = r.chunk_sync {
            if self.run.synced < id || r.run.synced < id {
                return;
            }
        }
        let progress = |run: &RunState| race::Progress {
            done: run.status().is_none_or(|s| s.is_final()),
            iterations: run.iteration(),
            nodes: run.samples.last().map_or(1, |s| s.nodes),
        };
        let (step_a, step_b) = race::next_chunk(r.pace, progress(&self.run), progress(&r.run));
        if !step_a && !step_b {
            if let Some(r) = self.race.as_mut() {
                r.racing = false;
                r.chunk_sync = None;
            }
            return;
        }
        if step_a {
            self.send(Command::Step(RACE_CHUNK));
        }
        if step_b {
            self.send_race(Command::Step(RACE_CHUNK));
        }
        let id = self.sync();
        self.send_race(Command::Sync(id));
        if let Some(r) = self.race.as_mut() {
            r.chunk_sync = Some(id);
        }
    }

    fn run_info(&self) -> RunInfo {
        let racing = self.race.as_ref().is_some_and(|r| r.racing);
        RunInfo {
            iteration: self.run.iteration(),
            max_iteration: self.run.max_iteration,
            running: self.run.running || racing,
            finished: self.run.status().is_some_and(|s| s.is_final()),
        }
    }

    /// Takes in worker events and keeps derived caches current.
    fn take_events(&mut self, ctx: &egui::Context) {
        if let Some(w) = self.worker.as_ref() {
            if self.run.drain(w) {
                ctx.request_repaint();
            }
        }
        if let Some(r) = self.race.as_mut() {
            if let Some(w) = r.worker.as_ref() {
                if r.run.drain(w) {
                    ctx.request_repaint();
                }
            }
            let errors: Vec<String> = r
                .run
                .errors
                .drain(..)
                .map(|e| format!("error: race: {e}"))
                .collect();
            self.messages.extend(errors);
        }
        if let Ok(mut n) = self.notices.lock() {
            self.messages.append(&mut n);
        }
        self.generation = self.run.arrivals;
        let names = self
            .run
            .snapshot
            .as_ref()
            .map(|s| s.value_names.clone())
            .unwrap_or_default();
        if self.correct.poll() {
            ctx.request_repaint();
        } else if self.correct.is_computing() {
            // The evaluation thread cannot wake the UI; look again soon.
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        self.curves.sync(
            &self.run.samples,
            &names,
            self.epoch + self.run.epoch,
            (self.correct.correct(), self.correct.generation),
        );
    }

    /// One frame of the whole window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.apply_settings(&ctx);
        self.take_events(&ctx);
        let mut actions: Vec<ControlAction> = Vec::new();
        let mut exports: Vec<Export> = Vec::new();
        let mut open_dialog = false;

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

        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| {
                    if ui.button("Open…").clicked() {
                        open_dialog = true;
                        ui.close();
                    }
                    if ui.button("Positions…").clicked() {
                        self.show_browser = true;
                        ui.close();
                    }
                    ui.menu_button("Export", |ui| {
                        for (label, e) in [
                            ("Tree as DOT…", Export::Dot),
                            ("Tree as SVG…", Export::Svg),
                            ("Window as PNG…", Export::Png),
                            ("Curves as CSV…", Export::Csv),
                            ("Run as JSON…", Export::Json),
                        ] {
                            if ui.button(label).clicked() {
                                exports.push(e);
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
        });

        egui::Panel::top("controls").show(ui, |ui| {
            let info = self.run_info();
            actions.extend(self.settings.controls.toolbar(ui, &info));
        });

        egui::Panel::bottom("status").show(ui, |ui| {
            let best = self.run.samples.last().and_then(|s| s.best_child);
            plots::counters_ui(ui, self.run.snapshot.as_ref(), best, self.correct.correct());
            if let Some(r) = self.run.budget_reached {
                ui.label(format!("paused: budget reached ({})", r.name()));
            }
            let errors: Vec<String> = self
                .run
                .errors
                .drain(..)
                .map(|e| format!("error: {e}"))
                .collect();
            self.messages.extend(errors);
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
        });

        egui::Panel::left("side")
            .default_size(330.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("side-scroll")
                    .show(ui, |ui| {
                        self.side_panel(ui, &mut actions);
                    });
            });

        egui::Panel::right("inspector")
            .default_size(380.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("inspector-scroll")
                    .show(ui, |ui| {
                        if let Some(r) = self.race.as_ref() {
                            ui.heading("Race");
                            if let (Some(a), Some(b)) =
                                (self.run.snapshot.as_ref(), r.run.snapshot.as_ref())
                            {
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
                                actions.push(ControlAction::GoTo(k));
                            }
                        }
                    });
            });

        let mut tree_actions = Vec::new();
        let mut race_view_changed = false;
        egui::CentralPanel::default().show(ui, |ui| match self.race.as_mut() {
            None => {
                tree_actions.extend(self.tree.toolbar(ui, self.run.snapshot.as_ref()));
                tree_actions.extend(
                    self.tree
                        .ui(ui, self.run.snapshot.as_ref(), self.generation),
                );
            }
            Some(r) => {
                ui.columns(2, |cols| {
                    let a_label = format!("A: {} ({})", self.algo, self.params.summary());
                    cols[0].strong(a_label);
                    tree_actions
                        .extend(self.tree.toolbar(&mut cols[0], self.run.snapshot.as_ref()));
                    tree_actions.extend(self.tree.ui(
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
                    race_view_changed = !b_actions.is_empty();
                });
            }
        });
        if race_view_changed {
            if let Some(r) = self.race.as_ref() {
                let view = r.tree.request();
                self.send_race(Command::SetView(view));
            }
        }

        if self.show_browser {
            self.browser(&ctx);
        }

        // Keyboard shortcuts, then everything asked for in this frame.
        let info = self.run_info();
        actions.extend(self.settings.controls.shortcuts(&ctx, &info));
        for a in actions {
            self.apply(a);
        }
        let mut view_changed = false;
        for a in tree_actions {
            match a {
                TreeAction::Predict(id) => self.predict(id),
                TreeAction::Select(_) | TreeAction::ViewChanged => view_changed = true,
            }
        }
        if view_changed {
            self.send(Command::SetView(self.tree.request()));
        }
        self.settings.follow_mpn = self.tree.follow_mpn;
        self.settings.max_depth = self.tree.max_depth;
        if open_dialog {
            if let Some(p) = files::pick_open() {
                self.open_path(&p);
            }
        }
        for e in exports {
            self.export(&ctx, e);
        }
        self.drive_race(&ctx);
        self.drive_hook(&ctx);
    }

    /// Selects node `id` for the inspector, as a click on it does (tests and
    /// scripts use it when the node is scrolled out of view).
    pub fn inspect(&mut self, id: crate::search::snapshot::NodeId) {
        self.tree.selected = Some(id);
        self.send(Command::SetView(self.tree.request()));
    }

    /// Scores a class-mode prediction against the true most-proving node
    /// (the end of the current selection path), then runs the iteration.
    pub fn predict(&mut self, id: u64) {
        let Some(snap) = self.run.snapshot.as_ref() else {
            return;
        };
        if snap.status.is_final() || self.run.running {
            return;
        }
        let Some(&truth) = snap.selection_path.last() else {
            return;
        };
        let moves = if snap.selection_moves.is_empty() {
            "the root".to_string()
        } else {
            snap.selection_moves.join(" ")
        };
        self.class.attempts += 1;
        let verdict = if truth == id {
            self.class.score += 1;
            format!("correct: the most-proving node was {moves}")
        } else {
            format!("not this one: the most-proving node was {moves}")
        };
        self.class.verdict = Some(verdict);
        self.send(Command::Step(1));
    }

    fn side_panel(&mut self, ui: &mut egui::Ui, actions: &mut Vec<ControlAction>) {
        ui.heading("Position");
        ui.label(format!("{} ({})", self.entry.name, self.entry.game.name()));
        if !self.entry.notes.is_empty() {
            ui.weak(&self.entry.notes);
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
        let seed_before = self.settings.seed;
        let mut seed = self.settings.seed;
        if controls::algorithm_panel(ui, &mut self.algo, &mut self.params, &mut seed) {
            self.settings.seed = seed;
            self.settings.algo = self.algo.clone();
            actions.push(ControlAction::Restart);
        } else if seed != seed_before {
            self.settings.seed = seed;
        }
        ui.separator();
        ui.heading("Race");
        let mut on = self.race.is_some();
        if ui
            .checkbox(&mut on, "Race a second run (B)")
            .on_hover_text("Run a second algorithm or parameter set in lockstep")
            .changed()
        {
            let ctx = ui.ctx().clone();
            self.set_race(&ctx, on);
        }
        let mut restart_b = false;
        if let Some(r) = self.race.as_mut() {
            ui.horizontal(|ui| {
                ui.label("Lockstep");
                for pace in [race::Pace::Iterations, race::Pace::Nodes] {
                    ui.selectable_value(&mut r.pace, pace, pace.label())
                        .on_hover_text(match pace {
                            race::Pace::Iterations => {
                                "Both runs take the same number of iterations"
                            }
                            race::Pace::Nodes => {
                                "The run with fewer nodes steps until it catches up"
                            }
                        });
                }
            });
            ui.push_id("race-params", |ui| {
                let mut seed = self.settings.seed;
                restart_b = controls::algorithm_panel(ui, &mut r.algo, &mut r.params, &mut seed);
            });
        }
        if restart_b {
            self.restart_race();
        }
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
            ui.label(format!(
                "score {} / {}",
                self.class.score, self.class.attempts
            ));
            if let Some(v) = &self.class.verdict {
                ui.label(v);
            }
        }
        ui.separator();
        ui.heading("Budget");
        actions.extend(self.settings.controls.budget_ui(ui));
    }

    /// The browser of the embedded `positions/` folder.
    fn browser(&mut self, ctx: &egui::Context) {
        let mut open = self.show_browser;
        let mut load: Option<(String, Vec<PositionEntry>)> = None;
        egui::Window::new("Positions")
            .open(&mut open)
            .default_width(420.0)
            .show(ctx, |ui| {
                let files = positions::bundled();
                if files.is_empty() {
                    ui.weak("No bundled positions in this build.");
                }
                egui::ScrollArea::vertical()
                    .max_height(480.0)
                    .show(ui, |ui| {
                        for f in files {
                            let entries = match positions::load_text(f.path, f.text) {
                                Ok(e) => e,
                                Err(e) => {
                                    ui.colored_label(ui.visuals().error_fg_color, e.to_string());
                                    continue;
                                }
                            };
                            egui::CollapsingHeader::new(f.path).show(ui, |ui| {
                                for (i, e) in entries.iter().enumerate() {
                                    let r = ui.button(&e.name);
                                    let r = if e.notes.is_empty() {
                                        r
                                    } else {
                                        r.on_hover_text(&e.notes)
                                    };
                                    if r.clicked() {
                                        let mut v = entries.clone();
                                        let chosen = v.remove(i);
                                        v.insert(0, chosen);
                                        load = Some((f.path.to_string(), v));
                                    }
                                    if !e.notes.is_empty() {
                                        ui.weak(&e.notes);
                                    }
                                }
                            });
                        }
                    });
            });
        self.show_browser = open;
        if let Some((source, entries)) = load {
            if entries.len() > 1 {
                self.file_source = source;
                let first = entries[0].clone();
                self.file_entries = entries;
                self.load_entry(first);
            } else {
                self.open_entries(source, entries);
            }
        }
    }

    /// Asks for a file name and writes one export.
    fn export(&mut self, ctx: &egui::Context, e: Export) {
        let Some(snap) = self.run.snapshot.as_ref() else {
            self.messages.push("error: nothing to export yet".into());
            return;
        };
        let name = format!("pnlab-{}.{}", snap.algo, e.ext());
        let Some(path) = files::pick_save(&name, e.ext()) else {
            return;
        };
        self.export_to(ctx, e, &path);
    }

    /// Writes one export to `path` (the PNG arrives with a later frame).
    pub fn export_to(&mut self, ctx: &egui::Context, e: Export, path: &Path) {
        let Some(snap) = self.run.snapshot.as_ref() else {
            self.messages.push("error: nothing to export yet".into());
            return;
        };
        let bytes = match e {
            Export::Dot => files::to_dot(snap).into_bytes(),
            Export::Svg => files::to_svg(snap).into_bytes(),
            Export::Csv => {
                files::curves_csv(&self.run.samples, &snap.value_names, self.correct.correct())
                    .into_bytes()
            }
            Export::Json => {
                files::run_json(snap, &self.entry, &self.params, self.settings.seed).into_bytes()
            }
            Export::Png => {
                let notices = self.notices.clone();
                let path = path.to_path_buf();
                let wake = ctx.clone();
                ctx.request_screenshot(move |img| {
                    let msg = match files::png_bytes(&img).and_then(|b| files::save(&path, &b)) {
                        Ok(()) => format!("saved {}", path.display()),
                        Err(e) => format!("error: {e}"),
                    };
                    if let Ok(mut n) = notices.lock() {
                        n.push(msg);
                    }
                    wake.request_repaint();
                });
                return;
            }
        };
        let msg = match files::save(path, &bytes) {
            Ok(()) => format!("saved {}", path.display()),
            Err(e) => format!("error: {e}"),
        };
        self.messages.push(msg);
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

    /// Advances the headless hook: autoplay, then screenshot, then close.
    fn drive_hook(&mut self, ctx: &egui::Context) {
        let Some(hook) = self.hook.as_mut() else {
            return;
        };
        ctx.request_repaint();
        if hook.started.elapsed() > HOOK_TIMEOUT {
            if let Ok(mut r) = hook.result.lock() {
                r.get_or_insert(Err("the headless run timed out".into()));
            }
            hook.phase = HookPhase::Done;
        }
        match hook.phase {
            HookPhase::Start => {
                let n = hook.autoplay;
                if n > 0 {
                    self.send(Command::Step(n));
                }
                let id = self.sync();
                if let Some(h) = self.hook.as_mut() {
                    h.phase = HookPhase::Running(id);
                }
            }
            HookPhase::Running(id) => {
                // The error curve belongs in the picture: wait for the
                // correct moves too (the evaluation is capped).
                if self.run.synced >= id && !self.correct.is_computing() {
                    hook.phase = HookPhase::Settling(10);
                }
            }
            HookPhase::Settling(0) => {
                let result = hook.result.clone();
                match hook.screenshot.clone() {
                    Some(path) => {
                        let wake = ctx.clone();
                        ctx.request_screenshot(move |img| {
                            let r = if files::is_blank(&img) {
                                Err("the screenshot is blank".to_string())
                            } else {
                                files::png_bytes(&img).and_then(|b| files::save(&path, &b))
                            };
                            if let Ok(mut slot) = result.lock() {
                                *slot = Some(r);
                            }
                            wake.request_repaint();
                        });
                        hook.phase = HookPhase::Shooting;
                    }
                    None => {
                        if let Ok(mut slot) = result.lock() {
                            *slot = Some(Ok(()));
                        }
                        hook.phase = HookPhase::Done;
                    }
                }
            }
            HookPhase::Settling(k) => hook.phase = HookPhase::Settling(k - 1),
            HookPhase::Shooting => {
                if hook.result.lock().map(|r| r.is_some()).unwrap_or(true) {
                    hook.phase = HookPhase::Done;
                }
            }
            HookPhase::Done => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
    }
}
