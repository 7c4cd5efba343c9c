//! The desktop app: watch a search grow, step by step.
//!
//! - `driver` runs a search behind one protocol (commands in, events
//!   out) with two drivers: a search thread (desktop) and a cooperative
//!   one stepped on the window's thread (a page without threads); the
//!   protocol itself is the run machine below the app (`crate::run`,
//!   in pnlab-lab), which the drivers only host.
//!   `logic` takes a run's events in (`RunLink` = a driver plus what the
//!   UI knows of its run); `status` turns them into the status word.
//! - `opened` owns the open position and everything derived from it
//!   (title, notes, root, moves, correct moves), rebuilt whenever the
//!   position changes; `fit` picks an algorithm that can search it.
//! - `state` is what the window holds (panels and owners) and how
//!   commands reach the runs; the decisions live in plain, unit-tested
//!   modules: `mirror` (which run a command goes to), `lockstep` (the
//!   race's chunks), `class_mode` (scoring predictions), `hook` (the
//!   scripted run), `state_json` (what `--state` writes), `counters`
//!   (which counters apply), `record_view` (a recorded game's plies).
//! - `ui` lays the frame out; `panels/` holds the panels that own their
//!   state (position, algorithm, status bar), and the other drawing
//!   modules: `tree_view`, `board` (one painter per game in `board/`),
//!   `inspector`, `controls`, `plots`, `race`, `browser`, `files`, `text`;
//!   `algo_sections` is the one place where an algorithm's own inspector
//!   section or plots are chosen.
//! - Exports and the tree layout are the engine's (`crate::export`,
//!   `crate::layout`), shared with the command line.
//!
//! This module is the eframe shell and the entry point the binary calls.

pub mod algo_sections;
#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub mod board;
pub mod browser;
pub mod class_mode;
pub mod conspiracy;
pub mod controls;
pub mod counters;
#[cfg(not(target_arch = "wasm32"))]
pub mod display;
pub mod driver;
pub mod error;
pub mod error_rate;
pub mod file_chooser;
pub mod files;
pub mod fit;
pub mod hook;
pub mod inspector;
pub mod launch_url;
pub mod lesson_player;
pub mod live;
pub mod lockstep;
pub mod logic;
pub mod mirror;
pub mod opened;
pub mod page;
pub mod panels;
pub mod plots;
pub mod presenter;
pub mod proof_view;
pub mod quiz;
pub mod race;
pub mod record_view;
pub mod rscn_view;
pub mod scn_curves;
pub mod state;
pub mod state_json;
pub mod status;
pub mod text;
pub mod tree_path;
pub mod tree_text;
pub mod tree_view;
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;

use std::path::PathBuf;

use driver::DriverKind;
use error::AppError;
pub use files::Export;
pub use hook::Hook;
pub use state::{PnlabApp, Settings};

/// Command-line options of the app (`pnlab FILE --algo A --set K=V
/// --autoplay N --state OUT.json --screenshot OUT.png`).
#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    /// Position file to open at start.
    pub open: Option<PathBuf>,
    /// Which of the file's positions (1-based; default the first).
    pub entry: Option<usize>,
    /// Algorithm to select at start.
    pub algo: Option<String>,
    /// Parameters `NAME=VALUE`.
    pub set: Vec<(String, String)>,
    /// Iterations to run after loading (headless hook).
    pub autoplay: Option<u64>,
    /// Screenshot to save after the autoplay, then exit.
    pub screenshot: Option<PathBuf>,
    /// Open the RSCN game-progress view at start (the loaded game
    /// record, or self-play from the loaded position).
    pub rscn: bool,
    /// The state JSON to write after the autoplay, then exit.
    pub state: Option<PathBuf>,
    /// How the search is driven (default: a thread where there are
    /// threads).
    pub driver: Option<DriverKind>,
    /// A position to start on, already read (`pnlab lesson FILE` passes
    /// its first step's position).
    pub position: Option<crate::positions::PositionEntry>,
    /// A lesson to play (`pnlab FILE.lesson.toml`, `pnlab lesson FILE`).
    pub lesson: Option<crate::lesson::Lesson>,
    /// The lesson step to start on (1-based).
    pub step: Option<usize>,
    /// Start in presenter mode.
    pub present: bool,
    /// The window's inner size in points.
    pub window: Option<(f32, f32)>,
}

/// The desktop's eframe shell around [`PnlabApp`].
#[cfg(not(target_arch = "wasm32"))]
struct Shell {
    app: PnlabApp,
}

#[cfg(not(target_arch = "wasm32"))]
impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.show(ui);
    }

    /// A scripted run sees no pointer: the pointer resting over the window
    /// would otherwise hover a button and catch its tooltip in the
    /// screenshot.
    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw: &mut egui::RawInput) {
        if self.app.hook.is_some() {
            raw.events.retain(|e| {
                !matches!(
                    e,
                    egui::Event::PointerMoved(_)
                        | egui::Event::MouseMoved(_)
                        | egui::Event::PointerButton { .. }
                        | egui::Event::MouseWheel { .. }
                )
            });
            raw.events.push(egui::Event::PointerGone);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.app.hook.is_none() {
            eframe::set_value(storage, eframe::APP_KEY, &self.app.settings_to_save());
        }
    }
}

/// Applies the launch options to a fresh app. Whatever goes wrong (a
/// broken file, an unknown algorithm) is shown in the window as a located
/// message and returned, so the caller can say it on stderr too; the app
/// stays usable either way.
pub fn configure(
    app: &mut PnlabApp,
    ctx: &egui::Context,
    opts: &LaunchOptions,
) -> Result<(), error::LaunchErrors> {
    let mut errors: Vec<AppError> = Vec::new();
    let mut algo_applied = false;
    if let Some(path) = &opts.open {
        match files::load_path(path) {
            Ok(mut entries) => {
                let k = opts.entry.unwrap_or(1);
                if k == 0 || k > entries.len() {
                    errors.push(AppError::NoSuchEntry {
                        file: path.display().to_string(),
                        entry: k,
                        count: entries.len(),
                    });
                } else {
                    let mut chosen = entries.remove(k - 1);
                    // The command line's algorithm is chosen before the
                    // file opens, so the open judges that one (no note
                    // about switching away from the start-up algorithm).
                    if let Some(a) = &opts.algo {
                        if app.algorithm.set_named(a, chosen.game, &opts.set).is_ok() {
                            chosen.algo = None;
                            algo_applied = true;
                        }
                    }
                    app.open_entry(chosen);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if let Some(entry) = &opts.position {
        app.load_entry(entry.clone());
    }
    if (!algo_applied || opts.position.is_some()) && (opts.algo.is_some() || !opts.set.is_empty()) {
        let algo = opts
            .algo
            .clone()
            .unwrap_or_else(|| app.algorithm.algo.name().to_string());
        if let Err(e) = app.set_algo(&algo, &opts.set) {
            errors.push(e.into());
        }
    }
    if let Some(l) = &opts.lesson {
        // Every step is played once now, so a broken one is reported when
        // the lesson opens (not when the class reaches it).
        if let Err(e) = l.check() {
            errors.push(AppError::Lesson(Box::new(e)));
        }
        app.open_lesson(l.clone());
        if let Some(k) = opts.step.filter(|&k| k > 1) {
            app.go_to_step(k - 1);
        }
        if opts.autoplay.is_some_and(|n| n > 0) {
            app.messages.push(
                "note: --autoplay adds no iterations to a lesson: each step runs its search to the step's own iteration (→ for the next step)".into(),
            );
        }
    }
    if opts.present {
        app.set_presenting(true);
    }
    if opts.rscn {
        app.start_rscn(ctx);
    }
    for e in &errors {
        app.messages.push(format!("error: {e}"));
    }
    match errors.is_empty() {
        true => Ok(()),
        false => Err(error::LaunchErrors(errors)),
    }
}

/// Opens the app window and returns when it closes. With `--autoplay`,
/// `--state` or `--screenshot` the window runs the hook and closes itself.
/// A broken file or flag still opens the window, with the located message
/// shown in it (and on stderr at once); the result is then that error, so
/// the exit status says it too. (The desktop shell; the page's is
/// `web::start`, built for wasm32.)
#[cfg(not(target_arch = "wasm32"))]
pub fn run_app(opts: LaunchOptions) -> Result<(), error::RunError> {
    if let Some(no_display) = display::missing_display() {
        return Err(no_display);
    }
    // Scripted: the window writes its files and closes. `--autoplay N`
    // alone plays N iterations and leaves the window open.
    let headless = opts.screenshot.is_some() || opts.state.is_some();
    let hook = (headless || opts.autoplay.is_some()).then(|| {
        // A lesson step runs its search to the step's own iteration and
        // no further: its question is about that tree.
        let steps = match opts.lesson {
            Some(_) => 0,
            None => opts.autoplay.unwrap_or(0),
        };
        let mut h = Hook::new(steps, opts.screenshot.clone());
        h.state = opts.state.clone();
        h.keep_open = !headless;
        h
    });
    let result = hook.as_ref().map(|h| h.result.clone());
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("pnlab")
            .with_inner_size(opts.window.map_or([1500.0, 950.0], |(w, h)| [w, h]))
            .with_drag_and_drop(true),
        // A saved window size must not override `--window WxH`.
        persist_window: !headless && opts.window.is_none(),
        ..Default::default()
    };
    let setup_error = std::sync::Arc::new(std::sync::Mutex::new(None::<error::LaunchErrors>));
    let setup_error_in = setup_error.clone();
    eframe::run_native(
        "pnlab",
        options,
        Box::new(move |cc| {
            let settings = if headless {
                Settings::default()
            } else {
                cc.storage
                    .and_then(|s| eframe::get_value::<Settings>(s, eframe::APP_KEY))
                    .unwrap_or_default()
            };
            let kind = opts.driver.unwrap_or_else(DriverKind::native);
            let mut app = PnlabApp::with_driver(&cc.egui_ctx, settings, kind);
            if let Err(e) = configure(&mut app, &cc.egui_ctx, &opts) {
                eprintln!("error: {e}");
                if let Ok(mut slot) = setup_error_in.lock() {
                    *slot = Some(e);
                }
            }
            app.hook = hook;
            Ok(Box::new(Shell { app }))
        }),
    )
    .map_err(error::RunError::Window)?;
    let hook_result = match result {
        None => Ok(()),
        Some(r) => match r.lock().ok().and_then(|mut s| s.take()) {
            Some(res) => res.map_err(error::RunError::Headless),
            None => Err(error::RunError::ClosedEarly),
        },
    };
    match setup_error.lock().ok().and_then(|mut s| s.take()) {
        // Already said on stderr when the window opened.
        Some(e) => Err(error::RunError::Input(e)),
        None => hook_result,
    }
}
