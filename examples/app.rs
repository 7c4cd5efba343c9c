//! Opens the app on an inline position, runs N iterations, saves a
//! screenshot of the real window and exits (manual runs under Xvfb, before
//! every file format is readable): `cargo run --example app -- GAME
//! NOTATION ITERATIONS OUT.png`. With no arguments it opens the app like
//! `pnlab` does.

use pnlab::app::{Hook, LaunchOptions, PnlabApp, Settings};
use pnlab::game::{AnyPosition, GameKind};
use pnlab::positions::PositionEntry;

struct Shell(PnlabApp);

impl eframe::App for Shell {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.0.show(ui);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        if let Err(e) = pnlab::app::run_app(LaunchOptions::default()) {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
        return;
    }
    let Some(game) = GameKind::from_name(&args[0]) else {
        eprintln!("error: unknown game {}", args[0]);
        std::process::exit(2);
    };
    let position = match AnyPosition::parse(game, &args[1]) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: <inline>:{e}");
            std::process::exit(2);
        }
    };
    let n: u64 = args[2].parse().unwrap_or(0);
    let out = std::path::PathBuf::from(&args[3]);
    let hook = Hook::new(n, Some(out));
    let result = hook.result.clone();
    let entry = PositionEntry {
        name: format!("{} {}", game.name(), args[1]),
        game,
        position,
        notes: String::new(),
        expected: None,
        algo: Some("pns".into()),
        params: Vec::new(),
        line: 1,
        record: None,
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1500.0, 950.0]),
        ..Default::default()
    };
    let r = eframe::run_native(
        "pnlab-example",
        options,
        Box::new(move |cc| {
            let mut app = PnlabApp::new(&cc.egui_ctx, Settings::default());
            app.load_entry(entry);
            app.hook = Some(hook);
            Ok(Box::new(Shell(app)))
        }),
    );
    if let Err(e) = r {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
    match result.lock().ok().and_then(|mut s| s.take()) {
        Some(Ok(())) => {}
        Some(Err(e)) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
        None => {
            eprintln!("error: the window closed early");
            std::process::exit(1);
        }
    }
}
