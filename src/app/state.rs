//! What the window holds and how the user's commands reach the workers:
//! the [`PnlabApp`] state, loading positions and algorithms, routing
//! commands to the main run and the race's challenger, the race's
//! lockstep chunks, class-mode predictions, exports and the headless
//! hook. Drawing is in `ui`; the decisions are in plain modules
//! (`mirror`, `lockstep`, `class_mode`, `hook`) with unit tests.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::export::{self, ExportInput, RunRecord};
use crate::positions::{self, PositionEntry};
use crate::search::{registry, NodeId, Params, QuestionKind, SearchSetup};

use super::board::HeatCache;
use super::browser::Browser;
use super::class_mode::ClassMode;
use super::controls::{Controls, RunInfo};
use super::error_rate::CorrectMovesTask;
#[cfg(not(target_arch = "wasm32"))]
use super::file_chooser::{self, FileChooser};
use super::file_chooser::ChooserPurpose;
use super::files::{self, Export};
use super::hook::{Hook, HookStep, HookView};
use super::lockstep::{Progress, Tick, RACE_CHUNK};
use super::logic::RunState;
use super::mirror;
use super::plots::Curves;
use super::race::Race;
use super::record_view::{self, RecordView};
use super::rscn_view::RscnView;
use super::tree_view::TreeView;

/// Why the in-app chooser replaced a native dialog that did not open.
#[cfg(not(target_arch = "wasm32"))]
const DIALOG_FAILED: &str = "the native file dialog did not open (is an xdg desktop portal \
                             running?); choose the file here";
use super::driver::{self, Command, DriverKind, RunSpec, SearchDriver};
use crate::search::alphabeta::AlphaBetaOptions;

/// Settings kept between sessions (eframe storage).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Dark theme.
    pub dark: bool,
    /// Presentation zoom (egui zoom factor).
    pub zoom: f32,
    /// Step count, speed, budgets.
    pub controls: Controls,
    /// Keep the most-proving node in view.
    pub follow_mpn: bool,
    /// Levels the tree view asks for.
    pub max_depth: u32,
    /// The algorithm last used.
    pub algo: String,
    /// The seed last used.
    pub seed: u64,
    /// Show the curves under the inspector.
    pub show_plots: bool,
    /// Files opened lately, newest first (File › Open recent).
    pub recent: Vec<String>,
    /// Hex boards: shade empty cells by the resistance model's move score.
    pub heat_map: bool,
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
            recent: Vec::new(),
            heat_map: false,
        }
    }
}

/// Starts the app's driver of `kind`, falling back to the cooperative
/// driver (with a message) when no thread can be had.
pub(super) fn start_driver(
    ctx: &egui::Context,
    kind: DriverKind,
) -> (Box<dyn SearchDriver>, Vec<String>) {
    let wake = ctx.clone();
    match driver::start(kind, move || wake.request_repaint()) {
        Ok(d) => (d, Vec::new()),
        Err(e) => {
            let wake = ctx.clone();
            let d = driver::start(DriverKind::Cooperative, move || wake.request_repaint())
                .expect("the cooperative driver needs no thread");
            (
                d,
                vec![format!("note: {e}; stepping on the window's thread")],
            )
        }
    }
}

/// The whole app state.
pub struct PnlabApp {
    /// The main run's driver (one protocol, two drivers: `driver`).
    pub(super) driver: Box<dyn SearchDriver>,
    /// The main run as the UI sees it.
    pub run: RunState,
    /// The loaded position.
    pub entry: PositionEntry,
    /// The main run's algorithm.
    pub algo: String,
    /// The main run's parameters.
    pub params: Params,
    /// The main tree view.
    pub tree: TreeView,
    /// Persisted settings.
    pub settings: Settings,
    pub(super) curves: Curves,
    /// The Hex resistance heat map of the shown position.
    pub(super) heat: HeatCache,
    /// Whether the app's fonts went to the context already.
    pub(super) fonts_installed: bool,
    /// The loaded position's correct root moves (error-rate curves).
    pub correct: CorrectMovesTask,
    /// Positions of the last opened file (choose one to load).
    pub file_entries: Vec<PositionEntry>,
    /// Where `file_entries` came from.
    pub file_source: String,
    pub(super) browser: Browser,
    /// User-facing messages (errors first-class: `error: …`).
    pub messages: Vec<String>,
    /// Messages from callbacks on other threads (screenshots).
    pub(super) notices: Arc<Mutex<Vec<String>>>,
    next_sync: u64,
    /// Bumped on every new snapshot (tree layout cache key).
    pub(super) generation: u64,
    /// Bumped when the curves must be rebuilt.
    pub(super) epoch: u64,
    /// The headless hook, when the window was opened to take a screenshot.
    pub hook: Option<Hook>,
    /// The in-app file chooser, while it is open.
    pub chooser: Option<super::file_chooser::FileChooser>,
    /// Class mode's score.
    pub class: ClassMode,
    /// Race mode: the challenger run, if racing.
    pub race: Option<Race>,
    /// The RSCN game-progress view.
    pub rscn: RscnView,
    /// The window's context (wakes it from background threads).
    pub(super) ctx: egui::Context,
    pub(super) applied_zoom: f32,
    pub(super) applied_dark: Option<bool>,
    /// The game-record viewer, when the entry is a recorded game.
    pub record: Option<RecordView>,
    /// The mate question's limit: the side to move wins within this many
    /// of its own moves (`None`: a plain win).
    pub within: Option<u32>,
}

impl PnlabApp {
    /// Starts the worker (woken by `ctx`) and loads the default position.
    pub fn new(ctx: &egui::Context, settings: Settings) -> PnlabApp {
        PnlabApp::with_driver(ctx, settings, DriverKind::native())
    }

    /// [`PnlabApp::new`] with the driver of `kind` (tests run the page's
    /// cooperative driver on the desktop).
    pub fn with_driver(ctx: &egui::Context, settings: Settings, kind: DriverKind) -> PnlabApp {
        let (driver, mut messages) = start_driver(ctx, kind);
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
            driver,
            run: RunState::default(),
            entry: positions::default_position(),
            algo,
            params,
            tree,
            settings,
            curves: Curves::default(),
            heat: HeatCache::default(),
            fonts_installed: false,
            correct: CorrectMovesTask::default(),
            file_entries: Vec::new(),
            file_source: String::new(),
            browser: Browser::default(),
            messages,
            notices: Arc::new(Mutex::new(Vec::new())),
            next_sync: 0,
            generation: 0,
            epoch: 0,
            hook: None,
            chooser: None,
            class: ClassMode::default(),
            race: None,
            rscn: RscnView::default(),
            ctx: ctx.clone(),
            applied_zoom: 0.0,
            applied_dark: None,
            record: None,
            within: None,
        };
        let c = app.settings.controls.clone();
        app.send(Command::SetSpeed(c.speed_setting()));
        app.send(Command::SetBudget(c.budget()));
        let entry = app.entry.clone();
        app.load_entry(entry);
        app
    }

    /// Sends a command to the main run's worker.
    pub(super) fn send(&mut self, cmd: Command) {
        if let Err(e) = self.driver.send(cmd) {
            self.messages.push(format!("error: {e}"));
        }
    }

    /// Sends a command to the challenger run, if racing.
    fn send_race(&mut self, cmd: Command) {
        let Some(r) = self.race.as_mut() else { return };
        if let Err(e) = r.driver.send(cmd) {
            self.messages.push(format!("error: race: {e}"));
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
        if !self.run.wait_synced(self.driver.as_mut(), id, timeout) {
            return false;
        }
        if let Some(r) = self.race.as_mut() {
            let _ = r.driver.send(Command::Sync(id));
            return r.run.wait_synced(r.driver.as_mut(), id, timeout);
        }
        true
    }

    /// Starts or stops race mode (the challenger starts as a copy of the
    /// current algorithm and parameters).
    pub fn set_race(&mut self, ctx: &egui::Context, on: bool) {
        if !on {
            self.race = None;
            return;
        }
        match Race::new(ctx, self.driver.kind(), &self.algo) {
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
        r.lockstep.stop();
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
            position: record_view::with_question(&self.entry.position, self.within),
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
        self.record = entry.record.clone().map(RecordView::new);
        self.within = entry.position.within_limit();
        self.entry = entry;
        self.restart();
    }

    /// Makes the position after `ply` moves of the open game record the
    /// search root (nothing happens without a record or when the ply is
    /// the current one).
    pub fn go_to_ply(&mut self, ply: usize) {
        let Some(view) = self.record.as_mut() else {
            return;
        };
        if !view.go(ply) {
            return;
        }
        match view.position() {
            Ok(p) => {
                self.entry.position = p;
                self.restart();
            }
            Err(e) => self
                .messages
                .push(format!("error: {}: {e}", self.entry.name)),
        }
    }

    /// Asks the mate question with `within` moves (`None`: a plain win)
    /// and restarts the run.
    pub fn set_within(&mut self, within: Option<u32>) {
        self.within = within;
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
            Ok(entries) => {
                super::file_chooser::remember(
                    &mut self.settings.recent,
                    &path.display().to_string(),
                );
                self.open_entries(path.display().to_string(), entries)
            }
            Err(e) => self.messages.push(format!("error: {e}")),
        }
    }

    /// Loads the first of `entries`; several fill the side panel's list.
    pub(super) fn open_entries(&mut self, source: String, mut entries: Vec<PositionEntry>) {
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

    /// Applies one user command (toolbar, keyboard, curves): in race mode
    /// it is mirrored to the challenger and Run becomes lockstep chunks
    /// (`mirror::route`).
    pub fn apply(&mut self, cmd: Command) {
        let racing = self.race.is_some();
        let route = mirror::route(cmd, racing);
        if let Some(r) = self.race.as_mut() {
            if route.start_lockstep {
                r.lockstep.start();
            }
            if route.stop_lockstep {
                r.lockstep.stop();
            }
        }
        if let Some(c) = route.main {
            self.send(c);
        }
        if let Some(c) = route.challenger {
            self.send_race(c);
        }
    }

    /// Lockstep racing: when both runs finished their chunk, both (or the
    /// one behind) take the next one.
    pub(super) fn drive_race(&mut self, ctx: &egui::Context) {
        let Some(r) = self.race.as_ref() else { return };
        if !r.lockstep.racing {
            return;
        }
        ctx.request_repaint();
        let progress = |run: &RunState| Progress {
            done: run.status().is_none_or(|s| s.is_final()),
            iterations: run.iteration(),
            nodes: run.samples.last().map_or(1, |s| s.nodes),
            synced: run.synced,
        };
        let (a, b) = (progress(&self.run), progress(&r.run));
        let tick = match self.race.as_mut() {
            Some(r) => r.lockstep.tick(a, b),
            None => return,
        };
        let Tick::Chunk { a, b } = tick else { return };
        if a {
            self.send(Command::Step(RACE_CHUNK));
        }
        if b {
            self.send_race(Command::Step(RACE_CHUNK));
        }
        let id = self.sync();
        self.send_race(Command::Sync(id));
        if let Some(r) = self.race.as_mut() {
            r.lockstep.chunk_sent(id);
        }
    }

    /// What the controls need to know about the run.
    pub(super) fn run_info(&self) -> RunInfo {
        let racing = self.race.as_ref().is_some_and(|r| r.lockstep.racing);
        RunInfo {
            iteration: self.run.iteration(),
            max_iteration: self.run.max_iteration,
            running: self.run.running || racing,
            finished: self.run.status().is_some_and(|s| s.is_final()),
        }
    }

    /// Takes in worker events and keeps derived caches current.
    pub(super) fn take_events(&mut self, ctx: &egui::Context) {
        if self.run.drain(self.driver.as_mut()) {
            ctx.request_repaint();
        }
        if let Some(r) = self.race.as_mut() {
            if r.run.drain(r.driver.as_mut()) {
                ctx.request_repaint();
            }
            let errors: Vec<String> = r
                .run
                .errors
                .drain(..)
                .map(|e| format!("error: race: {e}"))
                .collect();
            self.messages.extend(errors);
        }
        let errors: Vec<String> = self
            .run
            .errors
            .drain(..)
            .map(|e| format!("error: {e}"))
            .collect();
        self.messages.extend(errors);
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

    /// Selects node `id` for the inspector, as a click on it does (tests and
    /// scripts use it when the node is scrolled out of view).
    pub fn inspect(&mut self, id: NodeId) {
        self.tree.selected = Some(id);
        self.send(Command::SetView(self.tree.request()));
    }

    /// Scores a class-mode prediction against the true most-proving node,
    /// then runs the iteration that reveals it.
    pub fn predict(&mut self, id: NodeId) {
        let Some(snap) = self.run.snapshot.as_ref() else {
            return;
        };
        if self.class.predict(snap, self.run.running, id) {
            self.send(Command::Step(1));
        }
    }

    /// The engine's export of the current run in `format`, or why not.
    pub fn export_text(&self, format: export::ExportFormat) -> Result<String, String> {
        let Some(snap) = self.run.snapshot.as_ref() else {
            return Err("nothing to export yet".into());
        };
        let setup = self.setup(self.params.clone());
        let record = RunRecord {
            entry: &self.entry,
            algo: &snap.algo,
            params: &self.params,
            seed: self.settings.seed,
            question: setup.root_question(),
            status: snap.status,
            counters: &snap.counters,
            facts: &self.run.facts,
        };
        let input = ExportInput {
            snapshot: snap,
            samples: &self.run.samples,
            correct: self.correct.correct(),
            record: &record,
        };
        Ok(export::render(format, &input))
    }

    /// Writes one export to `path` (the PNG arrives with a later frame).
    pub fn export_to(&mut self, ctx: &egui::Context, e: Export, path: &Path) {
        let format = match e {
            Export::File(f) => f,
            Export::Proof => {
                // The worker writes it and answers with its size.
                self.send(Command::SaveProof(path.to_path_buf()));
                return;
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
        let msg = match self
            .export_text(format)
            .and_then(|text| files::save(path, text.as_bytes()))
        {
            Ok(()) => format!("saved {}", path.display()),
            Err(e) => format!("error: {e}"),
        };
        self.messages.push(msg);
    }

    /// Asks for a file name and writes one export (in a page:
    /// `web::export_download`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn export_with_dialog(&mut self, ctx: &egui::Context, e: Export) {
        let Some(snap) = self.run.snapshot.as_ref() else {
            self.messages.push("error: nothing to export yet".into());
            return;
        };
        let name = format!("pnlab-{}.{}", snap.algo, e.ext());
        let purpose = ChooserPurpose::Save(e);
        if let Some(reason) = file_chooser::native_unavailable() {
            self.chooser = Some(FileChooser::new(purpose, reason, &name));
            return;
        }
        let started = crate::clock::now();
        match files::pick_save(&name, e.ext()) {
            Some(path) => self.export_to(ctx, e, &path),
            None if file_chooser::returned_too_fast(started) => {
                self.chooser = Some(FileChooser::new(purpose, DIALOG_FAILED.into(), &name));
            }
            None => {}
        }
    }

    /// File › Open: the native dialog, else the in-app chooser (in a
    /// page: the browser's file picker, `web`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn open_with_dialog(&mut self) {
        if let Some(reason) = file_chooser::native_unavailable() {
            self.chooser = Some(FileChooser::new(ChooserPurpose::Open, reason, ""));
            return;
        }
        let started = crate::clock::now();
        match files::pick_open() {
            Some(p) => self.open_path(&p),
            None if file_chooser::returned_too_fast(started) => {
                self.chooser = Some(FileChooser::new(
                    ChooserPurpose::Open,
                    DIALOG_FAILED.into(),
                    "",
                ));
            }
            None => {}
        }
    }

    /// Draws the in-app chooser when it is open and acts on its answer.
    pub(super) fn chooser_ui(&mut self, ctx: &egui::Context) {
        let Some(answer) = self.chooser.as_mut().and_then(|c| c.ui(ctx)) else {
            return;
        };
        let purpose = self.chooser.take().map(|c| c.purpose);
        match (answer, purpose) {
            (Some(p), Some(ChooserPurpose::Open)) => self.open_path(&p),
            (Some(p), Some(ChooserPurpose::Save(e))) => self.export_to(ctx, e, &p),
            _ => {}
        }
    }

    /// Opens the RSCN game-progress view: the loaded game record's moves,
    /// or the engine's self-play from the loaded position. Alpha-beta's
    /// T and depth come from the run's parameters when alpha-beta is the
    /// algorithm (else T = 600, depth 4).
    pub fn start_rscn(&mut self) {
        let opts = if self.algo == "alphabeta" {
            AlphaBetaOptions::from_params(&self.params).unwrap_or_default()
        } else {
            AlphaBetaOptions {
                max_depth: 4,
                ..AlphaBetaOptions::default()
            }
        };
        let opts = AlphaBetaOptions {
            record_limit: 0,
            ..opts
        };
        let (title, start, moves) = match &self.entry.record {
            Some(rec) => (
                format!("{}: the record's {} moves", rec.title, rec.moves.len()),
                rec.start.clone(),
                Some(rec.moves.clone()),
            ),
            None => (
                format!("{}: self-play by alpha-beta", self.entry.name),
                self.entry.position.clone(),
                None,
            ),
        };
        let wake = self.ctx.clone();
        self.rscn
            .start(title, start, moves, opts, move || wake.request_repaint());
    }

    /// Shows ply `k` of the RSCN view's game: loads its position.
    pub(super) fn show_rscn_ply(&mut self, k: usize) {
        if let Some(row) = self.rscn.rows().get(k) {
            let mut e = PositionEntry::new(format!("RSCN ply {k}"), row.position.clone(), 0);
            e.record = self.entry.record.clone();
            self.load_entry(e);
        }
    }

    /// Advances the headless hook: autoplay, then screenshot, then close.
    pub(super) fn drive_hook(&mut self, ctx: &egui::Context) {
        let view = HookView {
            synced: self.run.synced,
            computing: self.correct.is_computing() || self.rscn.is_computing(),
        };
        let Some(hook) = self.hook.as_mut() else {
            return;
        };
        ctx.request_repaint();
        match hook.step(view) {
            HookStep::Wait => {}
            HookStep::Start { steps } => {
                if steps > 0 {
                    self.send(Command::Step(steps));
                }
                let id = self.sync();
                if let Some(h) = self.hook.as_mut() {
                    h.running(id);
                }
            }
            HookStep::Shoot(path) => {
                let result = hook.result.clone();
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
            }
            // A page stays open: the web shell reports the run instead.
            #[cfg(target_arch = "wasm32")]
            HookStep::Close => self.hook = None,
            #[cfg(not(target_arch = "wasm32"))]
            HookStep::Close => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
    }
}
