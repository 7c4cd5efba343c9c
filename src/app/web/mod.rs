//! The web shell: the same app on a page's `<canvas>`, through eframe's
//! web runner (WebAssembly + WebGL). Built by `scripts/web.sh`.
//!
//! What differs from the desktop shell, and nothing else does:
//!
//! - the search is stepped by the cooperative driver on the page's one
//!   thread, a few milliseconds a frame (`driver::cooperative`); the
//!   background jobs run where they are started (`driver::jobs`);
//! - the page's address is the command line (`launch_url`): it opens a
//!   bundled position with an algorithm and an autoplay count;
//! - files come from the browser (its file picker, or dropped on the
//!   page) and exports leave as downloads ([`io`]);
//! - settings live in the browser's local storage (eframe's persistence);
//! - the page reports its run on the console and in its title (`page`),
//!   which is what the headless-browser test reads.

pub mod bench;
mod io;

use std::sync::{Arc, Mutex};

use wasm_bindgen::JsCast;

use super::error::AppError;
use super::files::Export;
use super::hook::Hook;
use super::launch_url::{self, UrlLaunch};
use super::page;
use super::state::PnlabApp;
use super::Settings;

pub use io::download;

/// The id of the page's canvas (`web/index.html`).
pub const CANVAS_ID: &str = "pnlab_canvas";
/// The id of the text shown while the page loads (removed on start).
pub const LOADING_ID: &str = "pnlab_loading";

/// Starts the app on the page (called by the binary's `main` on wasm32).
pub fn start() {
    // Rust's log lines (eframe's, ours) go to the browser console.
    let _ = eframe::WebLogger::init(log::LevelFilter::Info);
    let Some(window) = web_sys::window() else {
        return;
    };
    let query = window.location().search().unwrap_or_default();
    wasm_bindgen_futures::spawn_local(async move {
        let Some(document) = window.document() else {
            return;
        };
        if let Some(out) = document.get_element_by_id(bench::BENCH_ID) {
            // bench.html: the speed page, no app.
            bench::run_page(out).await;
            return;
        }
        let canvas = document
            .get_element_by_id(CANVAS_ID)
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        let Some(canvas) = canvas else {
            log::error!("pnlab: the page has no <canvas id=\"{CANVAS_ID}\">");
            return;
        };
        let runner = eframe::WebRunner::new();
        let started = runner
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(move |cc| Ok(Box::new(WebShell::new(cc, &query)))),
            )
            .await;
        if let Some(loading) = document.get_element_by_id(LOADING_ID) {
            match started {
                Ok(()) => loading.remove(),
                Err(e) => {
                    let msg = format!("pnlab could not start: {e:?}");
                    log::error!("{msg}");
                    loading.set_text_content(Some(&msg));
                }
            }
        }
    });
}

/// Writes `line` to the browser console as it is (the log crate's lines
/// carry a module prefix; the report lines are read by scripts).
pub fn console_line(line: &str) {
    web_sys::console::log_1(&wasm_bindgen::JsValue::from_str(line));
}

/// The page's eframe shell around [`PnlabApp`].
struct WebShell {
    app: PnlabApp,
    /// The address asked for an autoplay: report when it is done.
    autoplay: Option<LinkDone>,
    /// The first frame was timed.
    first_frame: bool,
    /// The title last written (the document's title is only set on change).
    title: String,
    /// The live-class line last logged.
    live_line: String,
}

impl WebShell {
    fn new(cc: &eframe::CreationContext<'_>, query: &str) -> WebShell {
        let settings = cc
            .storage
            .and_then(|s| eframe::get_value::<Settings>(s, eframe::APP_KEY))
            .unwrap_or_default();
        io::wake_with(&cc.egui_ctx);
        let mut app = PnlabApp::new(&cc.egui_ctx, settings);
        // A page opened by a link reports its state once the link's work
        // is done (at once when the link was refused).
        let autoplay = match launch_url::parse(query) {
            Ok(launch) if launch.is_empty() => None,
            Ok(launch) => Some(apply_launch(&mut app, &cc.egui_ctx, &launch)),
            Err(e) => {
                app.messages.push(format!("error: {e}"));
                Some(done())
            }
        };
        WebShell {
            app,
            autoplay,
            first_frame: false,
            title: String::new(),
            live_line: String::new(),
        }
    }

    /// What only a page does each frame, before the app draws: files the
    /// browser handed over (picked or dropped).
    fn take_files(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        for f in dropped {
            io::read_dropped(f);
        }
        for opened in io::take_opened() {
            self.app.open_user_file(&opened.name, opened.text);
        }
    }

    /// After the frame: the first frame's time, the autoplay's report,
    /// the title.
    fn report(&mut self) {
        if !self.first_frame {
            self.first_frame = true;
            let ms = web_sys::window()
                .and_then(|w| w.performance())
                .map(|p| p.now())
                .unwrap_or(f64::NAN);
            console_line(&format!("{}{ms:.0}", page::FIRST_FRAME_PREFIX));
        }
        if self.app.hook.is_none() {
            if let Some(result) = self.autoplay.take() {
                if let Some(Err(e)) = result.lock().ok().and_then(|r| r.clone()) {
                    self.app.messages.push(format!("error: {e}"));
                }
                console_line(&format!(
                    "{}{}",
                    page::STATE_PREFIX,
                    page::state_json(&self.app)
                ));
            }
        }
        // A live class's state, whenever it changes (tests follow it).
        if let Some(live) = self.app.live_state_json() {
            let line = live.to_string();
            if line != self.live_line {
                console_line(&format!("{}{line}", page::LIVE_PREFIX));
                self.live_line = line;
            }
        }
        let title = page::title(&self.app);
        if title != self.title {
            if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
                doc.set_title(&title);
            }
            self.title = title;
        }
    }
}

impl eframe::App for WebShell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.take_files(&ctx);
        self.app.show(ui);
        self.report();
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.app.settings);
    }
}

/// Where a link's work reports its end: the autoplay hook's outcome.
type LinkDone = Arc<Mutex<Option<Result<(), AppError>>>>;

/// A link whose work is already over.
fn done() -> LinkDone {
    Arc::new(Mutex::new(Some(Ok(()))))
}

/// Applies the address to a fresh app (a lesson opens in the lesson
/// player on its first step, as `pnlab FILE.lesson.toml` does on the
/// desktop); with
/// an autoplay count, starts the hook. Returns where the end of the
/// link's work will show.
fn apply_launch(app: &mut PnlabApp, ctx: &egui::Context, launch: &UrlLaunch) -> LinkDone {
    // A lesson opens in the lesson player (configure does it, as on the
    // desktop).
    let (opts, _lesson) = match launch.resolve() {
        Ok(resolved) => resolved,
        Err(e) => {
            app.messages.push(format!("error: {e}"));
            return done();
        }
    };
    // configure shows its own located messages in the page.
    if super::configure(app, ctx, &opts).is_err() {
        return done();
    }
    // A live class: the room lives on the server this page came from.
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    if let Some(code) = &launch.join {
        app.join_live_class(ctx, &origin, code);
    }
    if let Some(lesson) = launch.teach_path() {
        app.start_live_class(ctx, &origin, &lesson);
    }
    let Some(n) = opts.autoplay else {
        return done();
    };
    // A lesson step's search stops at the step's own iteration: its
    // question is about that tree.
    let n = if opts.lesson.is_some() { 0 } else { n };
    let hook = Hook::new(n, None);
    let result = hook.result.clone();
    app.hook = Some(hook);
    result
}

impl PnlabApp {
    /// A file the user gave the page (picked or dropped): read like one
    /// from the disk; a bad one only adds its located message.
    pub(super) fn open_user_file(&mut self, name: &str, text: Result<String, AppError>) {
        match text.and_then(|t| super::files::load_text(name, &t)) {
            Ok(entries) => self.open_entries(name.to_string(), entries, 0),
            Err(e) => self.messages.push(format!("error: {e}")),
        }
    }

    /// File › Open in a page: the browser's file picker (the file arrives
    /// with a later frame).
    pub(super) fn open_with_dialog(&mut self) {
        if let Err(e) = io::pick_file() {
            self.messages.push(format!("error: {e}"));
        }
    }

    /// File › Export in a page: a download with the name the desktop's
    /// dialog would suggest.
    pub(super) fn export_with_dialog(&mut self, ctx: &egui::Context, e: Export) {
        let Some(snap) = self.main.state.snapshot.as_ref() else {
            self.messages.push("error: nothing to export yet".into());
            return;
        };
        let name = format!("pnlab-{}.{}", snap.algo, e.ext());
        self.export_to(ctx, e, std::path::Path::new(&name));
    }
}
