//! The desktop app: watch a search grow, step by step.
//!
//! - `worker` owns the running search on its own thread (commands in,
//!   events out, bounded channels); `logic` takes its events in.
//! - `state` is what the window holds and how commands reach the workers;
//!   the decisions live in plain, unit-tested modules: `mirror` (which run
//!   a command goes to), `lockstep` (the race's chunks), `class_mode`
//!   (scoring predictions), `hook` (the headless screenshot run),
//!   `record_view` (a recorded game's plies and the mate question).
//! - `ui` lays the frame out; the panels draw and collect commands:
//!   `tree_view`, `board` (one painter per game in `board/`),
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
pub mod driver;
pub mod error_rate;
pub mod file_chooser;
pub mod files;
pub mod fit;
pub mod hook;
pub mod inspector;
pub mod launch_url;
pub mod lockstep;
pub mod logic;
pub mod mirror;
pub mod page;
pub mod plots;
pub mod race;
pub mod record_view;
pub mod rscn_view;
pub mod scn_curves;
pub mod state;
pub mod status;
pub mod text;
pub mod tree_path;
pub mod tree_view;
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;

use std::path::PathBuf;

pub use files::Export;
pub use hook::Hook;
pub use state::{PnlabApp, Settings};

/// Command-line options of the app (`pnlab --open FILE --algo A --set K=V
/// --autoplay N --screenshot OUT.png`).
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

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.app.hook.is_none() {
            eframe::set_value(storage, eframe::APP_KEY, &self.app.settings);
        }
    }
}

/// Applies the launch options to a fresh app; errors are user-facing.
pub fn configure(app: &mut PnlabApp, opts: &LaunchOptions) -> Result<(), String> {
    if let Some(path) = &opts.open {
        let mut entries = files::load_path(path)?;
        let k = opts.entry.unwrap_or(1);
        if k == 0 || k > entries.len() {
            return Err(format!(
                "{}: --entry {k}: the file holds {} positions",
                path.display(),
                entries.len()
            ));
        }
        let chosen = entries.remove(k - 1);
        app.load_entry(chosen);
    }
    if opts.algo.is_some() || !opts.set.is_empty() {
        let algo = opts.algo.clone().unwrap_or_else(|| app.algo.clone());
        app.set_algo(&algo, &opts.set)?;
    }
    if opts.rscn {
        app.start_rscn();
    }
    Ok(())
}

/// Opens the app window and returns when it closes (the desktop shell;
/// the page's is `web::start`, built for wasm32). With `--autoplay` or
/// `--screenshot` the window runs the hook and closes itself; the result
/// says whether the screenshot was taken.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_app(opts: LaunchOptions) -> Result<(), String> {
    // Bad input fails before a window opens (exit status non-zero).
    if let Some(path) = &opts.open {
        files::load_path(path)?;
    }
    if let Some(a) = &opts.algo {
        let info = crate::search::registry::find_algo(a)?;
        crate::search::Params::from_pairs(info.params, &opts.set)?;
    }
    let headless = opts.autoplay.is_some() || opts.screenshot.is_some();
    let hook = headless.then(|| Hook::new(opts.autoplay.unwrap_or(0), opts.screenshot.clone()));
    let result = hook.as_ref().map(|h| h.result.clone());
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("pnlab")
            .with_inner_size([1500.0, 950.0])
            .with_drag_and_drop(true),
        persist_window: !headless,
        ..Default::default()
    };
    let setup_error = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
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
            let mut app = PnlabApp::new(&cc.egui_ctx, settings);
            if let Err(e) = configure(&mut app, &opts) {
                if let Ok(mut slot) = setup_error_in.lock() {
                    *slot = Some(e.clone());
                }
                app.messages.push(format!("error: {e}"));
            }
            app.hook = hook;
            Ok(Box::new(Shell { app }))
        }),
    )
    .map_err(|e| format!("cannot open the window: {e}"))?;
    if let Some(e) = setup_error.lock().ok().and_then(|mut s| s.take()) {
        return Err(e);
    }
    match result {
        None => Ok(()),
        Some(r) => match r.lock().ok().and_then(|mut s| s.take()) {
            Some(res) => res,
            None => Err("the window closed before the headless run finished".into()),
        },
    }
}
