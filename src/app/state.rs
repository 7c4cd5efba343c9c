//! What the window holds and how the user's commands reach the runs.
//!
//! [`PnlabApp`] holds panels and owners, not loose fields: the open
//! position and everything derived from it ([`Opened`]), the main run
//! ([`RunLink`], which talks only to its driver), the algorithm panel
//! (the one place the algorithm, its parameters and the seed live), the
//! position panel, the tree view, the curves, class mode, the race, the
//! file windows and the messages. Opening a position by any route goes
//! through [`PnlabApp::open_entry`], which replaces [`Opened`], forgets
//! the previous run and starts a new one with an algorithm that can
//! search the position (`fit`). Drawing is in `ui`; the decisions are in
//! plain modules (`fit`, `status`, `mirror`, `lockstep`, `class_mode`,
//! `hook`) with unit tests.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::export::{self, ExportInput, RunRecord};
use crate::positions::{self, PositionEntry};
use crate::search::{Algorithm, NodeId};

use super::browser::Browser;
use super::class_mode::ClassMode;
use super::controls::{Controls, RunInfo};
use super::driver::jobs::Job;
use super::driver::{self, Command, DriverKind, RunSpec, SearchDriver};
use super::error::AppError;
use super::file_chooser::{self, ChooserPurpose, FileChooser};
use super::files::{self, Export};
use super::fit;
use super::hook::{Hook, HookStep, HookView};
use super::lockstep::{Progress, Tick, RACE_CHUNK};
use super::logic::{RunLink, RunState};
use super::mirror;
use super::opened::Opened;
use super::panels::algorithm::AlgorithmPanel;
use super::panels::position::PositionPanel;
use super::plots::Curves;
use super::race::Race;
use super::rscn_view::RscnView;
use super::tree_view::TreeView;
use crate::search::alphabeta::AlphaBetaOptions;

/// Why the in-app chooser replaced a native dialog that did not open.
#[cfg(not(target_arch = "wasm32"))]
const DIALOG_FAILED: &str = "the native file dialog did not open (is an xdg desktop portal \
                             running?); choose the file here";

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
    /// The algorithm last used (written when the window closes; the
    /// algorithm panel holds the live choice).
    pub algo: String,
    /// The seed last used (likewise).
    pub seed: u64,
    /// Show the curves under the inspector.
    pub show_plots: bool,
    /// Files opened lately, newest first (File › Open recent).
    pub recent: Vec<String>,
    /// Hex boards: shade empty cells by the resistance model's move score.
    pub heat_map: bool,
    /// Presenter mode: the tree's label size in points (Ctrl ±).
    pub tree_label_px: f32,
    /// The light high-contrast theme for projectors.
    pub projector: bool,
    /// Show the left panel (position, algorithm, race, class mode).
    pub show_side: bool,
    /// Show the right panel (inspector and curves).
    pub show_inspector: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dark: true,
            zoom: 1.0,
            controls: Controls::default(),
            follow_mpn: true,
            max_depth: 8,
            // Every front end's default algorithm.
            algo: crate::search::DEFAULT_ALGO.into(),
            // The command line's default seed, so the app and `pnlab
            // solve` tell the same story.
            seed: 0,
            show_plots: true,
            recent: Vec::new(),
            heat_map: false,
            tree_label_px: super::presenter::DEFAULT_LABEL_PX,
            projector: false,
            show_side: true,
            show_inspector: true,
        }
    }
}

/// A position file being read in the background.
pub(super) struct Loading {
    /// What is being read (the file's path).
    pub source: String,
    job: Job<Result<Vec<PositionEntry>, AppError>>,
    /// Which of its positions to open (0-based).
    entry: usize,
    /// Remember the file among the recent ones.
    remember: bool,
}

/// How the window looks (applied to the context when it changes).
#[derive(Default)]
pub(super) struct Look {
    pub fonts_installed: bool,
    pub applied_zoom: f32,
    pub applied_dark: Option<bool>,
    pub applied_projector: Option<bool>,
}

/// The whole app state.
pub struct PnlabApp {
    /// Persisted settings.
    pub settings: Settings,
    /// The open position and everything derived from it.
    pub opened: Opened,
    /// The main run (A).
    pub main: RunLink,
    /// The main run's algorithm, parameters and seed.
    pub algorithm: AlgorithmPanel,
    /// The position panel (board, record, the file's other positions).
    pub position: PositionPanel,
    /// The main tree view.
    pub tree: TreeView,
    pub(super) curves: Curves,
    /// Class mode's score.
    pub class: ClassMode,
    /// Race mode: the challenger run, if racing.
    pub race: Option<Race>,
    pub(super) browser: Browser,
    /// The tree text window (the open tree's text, edited live).
    pub tree_text: super::tree_text::TreeText,
    /// The in-app file chooser, while it is open.
    pub chooser: Option<FileChooser>,
    /// The RSCN game-progress view.
    pub rscn: RscnView,
    /// User-facing messages (errors first-class: `error: …`).
    pub messages: Vec<String>,
    /// Messages from callbacks on other threads (screenshots).
    pub(super) notices: Arc<Mutex<Vec<String>>>,
    /// The headless hook, when the window was opened to take a screenshot.
    pub hook: Option<Hook>,
    pub(super) loading: Option<Loading>,
    pub(super) look: Look,
    /// Presenter mode and the lesson being played.
    pub teach: super::lesson_player::Teaching,
    /// Algorithms the driver refused for the open position (the next
    /// candidate is tried; reset when the position changes).
    refused: Vec<Algorithm>,
}

/// Starts a driver of `kind` woken by `ctx`, falling back to the
/// cooperative driver (with a message) when no thread can be had.
pub(super) fn start_driver(
    ctx: &egui::Context,
    kind: DriverKind,
) -> (Box<dyn SearchDriver>, Option<String>) {
    let wake = ctx.clone();
    match driver::start(kind, move || wake.request_repaint()) {
        Ok(d) => (d, None),
        Err(e) => {
            let wake = ctx.clone();
            let d = Box::new(driver::cooperative::CooperativeDriver::new(move || {
                wake.request_repaint()
            }));
            (
                d,
                Some(format!("note: {e}; stepping on the window's thread")),
            )
        }
    }
}

impl PnlabApp {
    /// An app with the desktop's driver (woken by `ctx`) on the default
    /// position.
    pub fn new(ctx: &egui::Context, settings: Settings) -> PnlabApp {
        PnlabApp::with_driver(ctx, settings, DriverKind::native())
    }

    /// An app whose runs use drivers of `kind`.
    pub fn with_driver(ctx: &egui::Context, settings: Settings, kind: DriverKind) -> PnlabApp {
        let (driver, note) = start_driver(ctx, kind);
        let mut messages: Vec<String> = note.into_iter().collect();
        // The saved settings name the algorithm; one this build does not
        // know is said, and the default one runs.
        let algo = Algorithm::named(&settings.algo).unwrap_or_else(|_| {
            let default = Algorithm::default();
            messages.push(format!(
                "note: algorithm {} is not available; using {default}",
                settings.algo
            ));
            default
        });
        let algorithm = AlgorithmPanel::new(algo, settings.seed);
        let mut tree = TreeView::default();
        tree.follow_mpn = settings.follow_mpn;
        tree.max_depth = settings.max_depth;
        tree.reset_run();
        let mut position = PositionPanel::default();
        position.heat_map = settings.heat_map;
        let mut app = PnlabApp {
            settings,
            opened: Opened::new(positions::default_position()),
            main: RunLink::new(driver),
            algorithm,
            position,
            tree,
            curves: Curves::default(),
            class: ClassMode::default(),
            race: None,
            browser: Browser::default(),
            tree_text: Default::default(),
            chooser: None,
            rscn: RscnView::default(),
            messages,
            notices: Arc::new(Mutex::new(Vec::new())),
            hook: None,
            loading: None,
            look: Look::default(),
            teach: Default::default(),
            refused: Vec::new(),
        };
        let c = app.settings.controls.clone();
        app.send(Command::SetSpeed(c.speed_setting()));
        app.send(Command::SetBudget(c.budget()));
        app.restart();
        app
    }

    /// The settings to keep, with the live algorithm and seed copied in.
    pub fn settings_to_save(&self) -> Settings {
        Settings {
            algo: self.algorithm.algo.name().to_string(),
            seed: self.algorithm.seed,
            follow_mpn: self.tree.follow_mpn,
            max_depth: self.tree.max_depth,
            heat_map: self.position.heat_map,
            ..self.settings.clone()
        }
    }

    /// The main run as the UI sees it.
    pub fn run(&self) -> &RunState {
        &self.main.state
    }

    /// Sends a command to the main run.
    pub(super) fn send(&mut self, cmd: Command) {
        if let Err(e) = self.main.send(cmd) {
            self.messages.push(format!("error: {e}"));
        }
    }

    /// Sends a command to the challenger run, if racing.
    fn send_race(&mut self, cmd: Command) {
        let Some(r) = self.race.as_mut() else { return };
        if let Err(e) = r.link.send(cmd) {
            self.messages.push(format!("error: race: {e}"));
        }
    }

    /// Waits until a slow load, the correct moves and every command sent
    /// so far are done (tests and the headless hook); false on timeout.
    pub fn settle(&mut self, timeout: Duration) -> bool {
        if let Some(mut l) = self.loading.take() {
            match l.job.wait(timeout) {
                Some(result) => self.finish_loading(l, result),
                None => {
                    self.loading = Some(l);
                    return false;
                }
            }
        }
        // Refused loads are followed by the next candidate: settle again
        // until a run started (or nothing fits).
        for _ in 0..crate::search::registry::algorithms().len() + 1 {
            if !self.main.settle(timeout) {
                return false;
            }
            if !self.take_refusal() {
                break;
            }
        }
        // The correct moves are part of what the UI shows (error curve).
        if !self.opened.correct.wait(timeout) {
            return false;
        }
        if let Some(r) = self.race.as_mut() {
            return r.link.settle(timeout);
        }
        true
    }

    /// Starts or stops race mode (the challenger starts as a copy of the
    /// current algorithm and parameters, and catches up with the main
    /// run's iteration before the race goes on).
    pub fn set_race(&mut self, ctx: &egui::Context, on: bool) {
        if !on {
            self.race = None;
            return;
        }
        match Race::new(ctx, self.main.kind(), self.algorithm.algo) {
            Ok(mut r) => {
                r.params = self.algorithm.params.clone();
                self.race = Some(r);
                self.restart_race();
            }
            Err(e) => self.messages.push(format!("error: {e}")),
        }
    }

    /// The setup of the main run: the chosen algorithm on the open
    /// position, with the chosen parameters that apply to its game.
    pub fn main_setup(&self) -> crate::search::SearchSetup {
        self.opened.setup(
            self.algorithm.algo,
            &self.algorithm.params,
            self.algorithm.seed,
        )
    }

    /// Restarts the challenger on the open position and brings it to the
    /// main run's iteration, so the two are compared at equal counts.
    pub fn restart_race(&mut self) {
        let catch_up = self.main.state.iteration();
        self.restart_race_to(catch_up);
    }

    /// Restarts the challenger and runs it `catch_up` iterations (a
    /// lesson's race step: where the lesson ran side B, since the main
    /// run may not have reached the step's iteration yet).
    pub fn restart_race_to(&mut self, catch_up: u64) {
        let Some(r) = self.race.as_ref() else { return };
        let algo = r.algo;
        let spec = RunSpec {
            algo,
            setup: self.opened.setup(algo, &r.params, self.algorithm.seed),
        };
        let budget = self.settings.controls.budget();
        let Some(r) = self.race.as_mut() else { return };
        r.tree.reset_run();
        r.lockstep.stop();
        let view = r.tree.request();
        let mut sent = r.link.send(Command::SetView(view));
        sent = sent.and(r.link.send(Command::SetBudget(budget)));
        sent = sent.and(r.link.load(spec));
        if catch_up > 0 {
            sent = sent.and(r.link.send(Command::RunTo(catch_up)));
        }
        if let Err(e) = sent {
            self.messages.push(format!("error: race: {e}"));
        }
    }

    /// Opens `entry`: everything shown is rebuilt from it, and a run
    /// starts with the entry's suggested algorithm (when valid), else the
    /// current one, else the first that can search the position.
    pub fn open_entry(&mut self, entry: PositionEntry) {
        if let Some(a) = entry.algo.clone() {
            if let Err(e) = self.algorithm.set_named(&a, entry.game, &entry.params) {
                self.messages.push(format!("error: {}: {e}", entry.name));
            }
        }
        self.opened = Opened::new(entry);
        self.refused.clear();
        self.restart();
    }

    /// The old name of [`open_entry`](PnlabApp::open_entry).
    pub fn load_entry(&mut self, entry: PositionEntry) {
        self.open_entry(entry);
    }

    /// Makes the position after `ply` moves of the open game record the
    /// search root.
    pub fn go_to_ply(&mut self, ply: usize) {
        match self.opened.go_to_ply(ply) {
            Ok(true) => {
                self.refused.clear();
                self.restart();
            }
            Ok(false) => {}
            Err(e) => self.messages.push(format!("error: {e}")),
        }
    }

    /// Asks the mate question with `within` moves (`None`: a plain win)
    /// and restarts the run.
    pub fn set_within(&mut self, within: Option<u32>) {
        self.opened.set_within(within);
        self.refused.clear();
        self.restart();
    }

    /// The mate question's limit.
    pub fn within(&self) -> Option<u32> {
        self.opened.within()
    }

    /// Sets the algorithm and `NAME=VALUE` parameters (the `--algo` and
    /// `--set` flags).
    pub fn set_algo(
        &mut self,
        algo: &str,
        pairs: &[(String, String)],
    ) -> Result<(), crate::search::SearchError> {
        self.algorithm
            .set_named(algo, self.opened.entry().game, pairs)?;
        self.refused.clear();
        self.restart();
        Ok(())
    }

    /// Starts a new run of the chosen algorithm on the open position; an
    /// algorithm that cannot search it is replaced by the first that can,
    /// and the switch is said in one line.
    pub fn restart(&mut self) {
        let (algo, params, note) = fit::choose(
            self.algorithm.algo,
            &self.algorithm.params,
            self.opened.root(),
        );
        if let Some(n) = note {
            self.messages.push(format!("note: {n}"));
        }
        self.algorithm.algo = algo;
        self.algorithm.params = params;
        self.tree.reset_run();
        self.curves = Curves::default();
        self.send(Command::SetView(self.tree.request()));
        let algo = self.algorithm.algo;
        let spec = RunSpec {
            algo,
            setup: self.main_setup(),
        };
        if let Err(e) = self.main.load(spec) {
            self.messages.push(format!("error: {e}"));
        }
        self.restart_race();
    }

    /// When the driver refused the last Load, tries the next algorithm
    /// that may search the position; true when it did.
    fn take_refusal(&mut self) -> bool {
        let Some(why) = self.main.state.load_failed.take() else {
            return false;
        };
        // The refusal was also pushed as an error; it is said once, here.
        self.main.state.errors.retain(|e| *e != why);
        let failed = self.algorithm.algo;
        self.refused.push(failed);
        let (algo, params, note) = fit::next_after(failed, &why, self.opened.root(), &self.refused);
        if algo == failed {
            self.messages.push(format!("error: {why}"));
            return false;
        }
        if let Some(n) = note {
            self.messages.push(format!("note: {n}"));
        }
        self.algorithm.algo = algo;
        self.algorithm.params = params;
        self.restart();
        true
    }

    /// Opens a position file in the background: one position opens at
    /// once, several fill the position panel's list; a bad file only adds
    /// its located message.
    pub fn open_path(&mut self, path: &Path) {
        if self.open_if_lesson(path) {
            return;
        }
        self.open_path_entry(path, 0, true);
    }

    /// [`open_path`](PnlabApp::open_path) choosing position `entry`
    /// (0-based) of the file.
    pub fn open_path_entry(&mut self, path: &Path, entry: usize, remember: bool) {
        if let Some(old) = self.loading.take() {
            old.job.cancel();
        }
        let source = path.display().to_string();
        let p = path.to_path_buf();
        match Job::start("pnlab-load", 64 << 20, move |_| files::load_path(&p)) {
            Some(job) => {
                self.loading = Some(Loading {
                    source,
                    job,
                    entry,
                    remember,
                })
            }
            None => {
                let result = files::load_path(path);
                self.finish_loading_result(&source, entry, remember, result);
            }
        }
    }

    /// A loaded (or failed) file: open it.
    fn finish_loading(&mut self, l: Loading, result: Result<Vec<PositionEntry>, AppError>) {
        self.finish_loading_result(&l.source, l.entry, l.remember, result);
    }

    fn finish_loading_result(
        &mut self,
        source: &str,
        entry: usize,
        remember: bool,
        result: Result<Vec<PositionEntry>, AppError>,
    ) {
        match result {
            Ok(mut entries) => {
                if entry >= entries.len() {
                    self.messages.push(format!(
                        "error: {source}: --entry {}: the file holds {} positions",
                        entry + 1,
                        entries.len()
                    ));
                    return;
                }
                if remember {
                    file_chooser::remember(&mut self.settings.recent, source);
                }
                let chosen = entries.swap_remove(entry);
                entries.insert(entry.min(entries.len()), chosen);
                self.open_entries(source.to_string(), entries, entry);
            }
            Err(e) => self.messages.push(format!("error: {e}")),
        }
    }

    /// Takes a finished background load in (once a frame).
    pub(super) fn poll_loading(&mut self) {
        let Some(mut l) = self.loading.take() else {
            return;
        };
        match l.job.poll() {
            Some(result) => self.finish_loading(l, result),
            None => self.loading = Some(l),
        }
    }

    /// Cancels the slow load under way.
    pub(super) fn cancel_loading(&mut self) {
        if let Some(l) = self.loading.take() {
            l.job.cancel();
            self.messages
                .push(format!("cancelled loading {}", l.source));
        }
    }

    /// What the status bar says about a load under way.
    pub(super) fn loading_text(&self) -> Option<String> {
        if let Some(l) = &self.loading {
            return Some(format!("reading {}…", l.source));
        }
        if self.main.state.awaiting_start {
            return Some(format!("starting {} on the position…", self.algorithm.algo));
        }
        if self.opened.correct.is_computing() {
            return Some("working out the correct moves (exhaustive search)…".into());
        }
        None
    }

    /// Opens entry `k` of `entries`; several fill the side panel's list.
    pub(super) fn open_entries(
        &mut self,
        source: String,
        mut entries: Vec<PositionEntry>,
        k: usize,
    ) {
        if entries.is_empty() {
            return;
        }
        if entries.len() == 1 {
            let e = entries.remove(0);
            self.messages.push(format!("opened {}", e.name));
            self.position.file_entries.clear();
            self.open_entry(e);
        } else {
            let k = k.min(entries.len() - 1);
            self.messages
                .push(format!("{source}: {} positions; choose one", entries.len()));
            self.position.file_source = source;
            let chosen = entries[k].clone();
            self.position.file_entries = entries;
            self.open_entry(chosen);
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
        let (a, b) = (progress(&self.main.state), progress(&r.link.state));
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
        let ida = self.main.sync();
        if let Some(r) = self.race.as_mut() {
            let idb = r.link.sync();
            r.lockstep.chunk_sent(ida, idb);
        }
    }

    /// What the controls need to know about the run.
    pub(super) fn run_info(&self) -> RunInfo {
        let racing = self.race.as_ref().is_some_and(|r| r.lockstep.racing);
        let run = &self.main.state;
        let over = |r: &RunState| r.status().is_some_and(|s| s.is_final());
        // While racing, Step and Run drive both sides: they stay on until
        // both are over.
        let b_over = self.race.as_ref().is_none_or(|r| over(&r.link.state));
        RunInfo {
            iteration: run.iteration(),
            max_iteration: run.max_iteration,
            running: run.running || racing,
            finished: over(run) && b_over,
            loaded: run.snapshot.is_some() && !run.awaiting_start,
        }
    }

    /// Takes in the runs' events and keeps derived caches current.
    pub(super) fn take_events(&mut self, ctx: &egui::Context) {
        self.poll_loading();
        if self.main.drain() {
            ctx.request_repaint();
        }
        self.mask_for_quiz();
        self.take_refusal();
        if let Some(r) = self.race.as_mut() {
            if r.link.drain() {
                ctx.request_repaint();
            }
            let errors = r.link.state.errors.drain(..);
            self.messages
                .extend(errors.map(|e| format!("error: race: {e}")));
        }
        let errors = self.main.state.errors.drain(..);
        self.messages.extend(errors.map(|e| format!("error: {e}")));
        if let Ok(mut n) = self.notices.lock() {
            self.messages.append(&mut n);
        }
        if self.opened.correct.poll() {
            ctx.request_repaint();
        } else if self.opened.correct.is_computing() || self.loading.is_some() {
            // Background jobs cannot wake the UI; look again soon.
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        let quiz = self.quiz();
        let run = &self.main.state;
        let names = run
            .snapshot
            .as_ref()
            .map(|s| s.value_names.clone())
            .unwrap_or_default();
        let correct = &self.opened.correct;
        let samples = match &quiz {
            Some(q) => q.curve_samples(&run.samples),
            None => &run.samples,
        };
        self.curves.sync(
            samples,
            &names,
            self.opened.generation + run.epoch,
            (correct.correct(), correct.generation),
        );
    }

    /// Selects node `id` for the inspector, as a click on it does (tests and
    /// scripts use it when the node is scrolled out of view).
    pub fn inspect(&mut self, id: NodeId) {
        self.tree.selected = Some(id);
        self.send(Command::SetView(self.tree.request()));
    }

    /// A click on a node while predictions are taken: a lesson's
    /// question first, else class mode, which scores it against the true
    /// most-proving node and shows the verdict; the search waits for
    /// [`reveal_class_step`](PnlabApp::reveal_class_step).
    pub fn predict(&mut self, id: NodeId) {
        if self.answer_lesson_node(id) {
            return;
        }
        let Some(snap) = self.main.state.snapshot.as_ref() else {
            return;
        };
        if self.class.predict(snap, self.main.state.running, id) {
            if let Some(p) = &self.class.pending {
                self.tree.marks = vec![
                    (p.predicted, super::lesson_player::WRONG),
                    (p.truth, super::lesson_player::RIGHT),
                ];
            }
        }
    }

    /// Class mode's reveal: the waiting verdict is cleared and the
    /// iteration that expands the most-proving node runs.
    pub fn reveal_class_step(&mut self) {
        if let Some(p) = self.class.reveal() {
            // The node the iteration expands stays marked, so the class
            // sees where the tree grew.
            self.tree.marks = vec![(p.truth, super::lesson_player::EXPANDED)];
            self.send(Command::Step(1));
        }
    }

    /// The engine's export of the current run in `format`, or why not.
    pub fn export_text(&self, format: export::ExportFormat) -> Result<String, AppError> {
        let run = &self.main.state;
        let Some(snap) = run.snapshot.as_ref() else {
            return Err(AppError::NothingToExport);
        };
        let setup = self.main_setup();
        let record = RunRecord {
            entry: self.opened.entry(),
            algo: &snap.algo,
            params: &self.algorithm.params,
            seed: self.algorithm.seed,
            question: setup.root_question(),
            status: snap.status,
            counters: &snap.counters,
            facts: &run.facts,
        };
        let input = ExportInput {
            snapshot: snap,
            samples: &run.samples,
            correct: self.opened.correct.correct(),
            record: &record,
        };
        Ok(export::render(format, &input))
    }

    /// Writes one export to `path` (the PNG arrives with a later frame).
    pub fn export_to(&mut self, ctx: &egui::Context, e: Export, path: &Path) {
        let format = match e {
            Export::File(f) => f,
            Export::Proof => {
                // The driver writes it and answers with its size.
                self.send(Command::Certificate(path.to_path_buf()));
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

    /// Asks for a file name and writes one export.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn export_with_dialog(&mut self, ctx: &egui::Context, e: Export) {
        let Some(snap) = self.main.state.snapshot.as_ref() else {
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

    /// File › Open: the native dialog, else the in-app chooser.
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
            (Some(p), Some(ChooserPurpose::SaveText(text))) => self.save_text(&p, &text),
            _ => {}
        }
    }

    /// Opens the RSCN game-progress view: the loaded game record's moves,
    /// or the engine's self-play from the loaded position. Alpha-beta's
    /// T and depth come from the run's parameters when alpha-beta is the
    /// algorithm (else T = 600, depth 4).
    pub fn start_rscn(&mut self, ctx: &egui::Context) {
        let opts = if self.algorithm.algo == "alphabeta" {
            match AlphaBetaOptions::from_params(&self.algorithm.params) {
                Ok(o) => o,
                Err(e) => {
                    // Surfaced, never replaced by defaults behind the user's back.
                    self.messages.push(format!("error: RSCN: {e}"));
                    return;
                }
            }
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
        let entry = self.opened.entry();
        let (title, start, moves) = match &entry.record {
            Some(rec) => (
                format!("{}: the record's {} moves", rec.title, rec.moves.len()),
                rec.start.clone(),
                Some(rec.moves.clone()),
            ),
            None => (
                format!("{}: self-play by alpha-beta", entry.name),
                self.opened.root().clone(),
                None,
            ),
        };
        let wake = ctx.clone();
        self.rscn
            .start(title, start, moves, opts, move || wake.request_repaint());
    }

    /// Shows ply `k` of the RSCN view's game: opens its position.
    pub(super) fn show_rscn_ply(&mut self, k: usize) {
        if let Some(row) = self.rscn.rows().get(k) {
            let mut e = PositionEntry::new(format!("RSCN ply {k}"), row.position.clone(), 0);
            e.record = self.opened.entry().record.clone();
            self.open_entry(e);
        }
    }

    /// Advances the headless hook: autoplay, then screenshot, then close.
    pub(super) fn drive_hook(&mut self, ctx: &egui::Context) {
        let view = HookView {
            synced: self.main.state.synced,
            computing: self.opened.correct.is_computing()
                || self.rscn.is_computing()
                || self.loading.is_some()
                || self.main.state.awaiting_start,
            ready: self.loading.is_none() && !self.main.state.awaiting_start,
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
                let id = self.main.sync();
                if let Some(h) = self.hook.as_mut() {
                    h.running(id);
                }
            }
            HookStep::WriteState(path) => {
                let text = super::state_json::render(self);
                let r = files::save(&path, text.as_bytes());
                if let Some(h) = self.hook.as_mut() {
                    h.state_written(r);
                }
            }
            HookStep::Shoot(path) => {
                let result = hook.result.clone();
                let wake = ctx.clone();
                ctx.request_screenshot(move |img| {
                    let r = if files::is_blank(&img) {
                        Err(AppError::BlankScreenshot)
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
            // `--autoplay N` alone: the run was played, the window is the
            // user's from now on.
            #[cfg(not(target_arch = "wasm32"))]
            HookStep::Close if hook.keep_open => self.hook = None,
            #[cfg(not(target_arch = "wasm32"))]
            HookStep::Close => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
    }
}
