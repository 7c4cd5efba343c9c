//! The web page's logic on the desktop: a link (the page's address) opens
//! a bundled position with an algorithm and an autoplay count, the app
//! runs it on the cooperative driver (the page's, stepped inside frames)
//! and reports a state that agrees with the engine run directly and with
//! the exhaustive reference. The page itself, in a real browser, is
//! tested by `tests/web/page.test.mjs`.
#![cfg(feature = "gui")]

use std::time::Duration;

use pnlab::app::driver::DriverKind;
use pnlab::app::launch_url::{self, UrlLaunch};
use pnlab::app::{configure, page, Hook, PnlabApp, Settings};
use pnlab::positions;
use pnlab::search::{self, Budget, Params, QuestionKind, SearchSetup, Status};

use crate::common;
use common::app_window::app_window;

/// The page's app: the cooperative driver, configured from `query` as
/// the web shell does (a lesson resolved to its first step's setting),
/// with the autoplay hook when the link asks for one.
fn page_app(query: &str) -> PnlabApp {
    let launch = launch_url::parse(query).expect("a good link");
    let (opts, _lesson) = launch.resolve().expect("the link resolves");
    let mut app = PnlabApp::with_driver(
        &egui::Context::default(),
        Settings::default(),
        DriverKind::Cooperative,
    );
    configure(&mut app, &egui::Context::default(), &opts).expect("the link opens");
    // As the page does: a lesson step's search stops at the step's own
    // iteration, so a lesson link's autoplay adds none.
    if let Some(n) = opts.autoplay {
        let n = if opts.lesson.is_some() { 0 } else { n };
        app.hook = Some(Hook::new(n, None));
    }
    app
}

/// Draws frames (each pumps the driver for its budget) until the hook
/// reports, or gives up after `frames`.
fn run_frames(app: PnlabApp, frames: usize) -> PnlabApp {
    let mut h = app_window(1500.0, 950.0, app);
    for _ in 0..frames {
        h.step();
        let done = h
            .state()
            .hook
            .as_ref()
            .is_none_or(|hook| hook.result.lock().unwrap().is_some());
        if done {
            break;
        }
    }
    h.into_state()
}

/// PNS on `file`'s first position, run directly by the engine.
fn engine_run(file: &str) -> (Status, u64, Option<String>) {
    let entry = positions::load_file(std::path::Path::new(file))
        .unwrap()
        .remove(0);
    let info = search::find_algo("pns").unwrap();
    let setup = SearchSetup {
        position: entry.position,
        params: Params::defaults(info.params),
        seed: 1,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    };
    let mut s = search::build("pns", &setup).unwrap();
    let st = search::run(s.as_mut(), &Budget::default(), None);
    (st, s.counters().iterations, s.best_move())
}

#[test]
fn the_seesaw_link_solves_on_the_cooperative_driver_as_the_engine_does() {
    let (status, iterations, best) = engine_run("positions/trees/seesaw.tree");
    // The file's notes: a win for the OR player (tests/tree_format.rs
    // checks that against the exhaustive reference).
    assert_eq!(status, Status::Proved);
    let app = page_app("?open=trees/seesaw.tree&algo=pns&autoplay=100000");
    let mut app = run_frames(app, 20_000);
    assert!(app.settle(Duration::from_secs(30)));
    let result = app.hook.as_ref().unwrap().result.lock().unwrap().clone();
    assert!(
        matches!(result, Some(Ok(()))),
        "the autoplay finished: {result:?}"
    );
    let state = page::state_json(&app);
    assert_eq!(state["driver"], "cooperative");
    assert_eq!(state["position"], "Seesaw");
    assert_eq!(state["algo"], "pns");
    assert_eq!(state["status"], "proved");
    assert_eq!(state["outcome"], "proved");
    assert_eq!(state["iteration"], iterations);
    assert_eq!(state["iterations"], iterations);
    assert_eq!(state["best_move"], serde_json::json!(best));
    assert_eq!(state["error"], serde_json::Value::Null);
    let correct = state["correct_moves"]
        .as_array()
        .expect("the exhaustive reference ran");
    assert!(correct.contains(&state["best_move"]), "{state}");
    assert!(page::title(&app).ends_with(&format!("pns proved at iteration {iterations}")));
}

#[test]
fn the_issue_link_pauses_after_twelve_iterations() {
    let app = page_app("?open=trees/seesaw.tree&algo=pns&autoplay=12");
    let mut app = run_frames(app, 5_000);
    assert!(app.settle(Duration::from_secs(30)));
    let state = page::state_json(&app);
    assert_eq!(state["status"], "paused");
    assert_eq!(state["iteration"], 12);
    assert_eq!(state["outcome"], "unknown");
}

#[test]
fn entry_algo_and_set_reach_the_run() {
    // The second position of the bundled tic-tac-toe file, with df-pn's
    // threshold trick switched on: what the link says is what runs.
    let app = page_app("?open=tictactoe.toml&entry=2&algo=dfpn-eps&set=eps=0.5&autoplay=5");
    let mut app = run_frames(app, 5_000);
    assert!(app.settle(Duration::from_secs(30)));
    let expected = positions::load_file(std::path::Path::new("positions/tictactoe.toml"))
        .unwrap()
        .remove(1);
    let state = page::state_json(&app);
    assert_eq!(state["position"], expected.name.as_str());
    assert_eq!(state["algo"], "dfpn-eps");
    assert_eq!(state["params"]["eps"], 0.5);
    assert!(state["iteration"].as_u64().unwrap() <= 5);
}

/// The error of configuring `app` from the link `launch`, which must
/// fail.
fn configure_error(app: &mut PnlabApp, launch: &UrlLaunch) -> String {
    configure(app, &egui::Context::default(), &launch.launch_options())
        .unwrap_err()
        .to_string()
}

#[test]
fn a_link_to_a_missing_file_or_a_bad_parameter_is_an_error_the_app_survives() {
    let launch = launch_url::parse("?open=trees/no-such.tree").unwrap();
    let mut app = PnlabApp::new(&egui::Context::default(), Settings::default());
    let err = configure_error(&mut app, &launch);
    assert!(err.contains("no-such.tree"), "{err}");
    let launch = UrlLaunch {
        algo: Some("pns".into()),
        set: vec![("tie".into(), "sideways".into())],
        ..UrlLaunch::default()
    };
    let err = configure_error(&mut app, &launch);
    assert!(err.contains("tie"), "{err}");
    // The app still runs its position.
    assert!(app.settle(Duration::from_secs(30)));
    assert_eq!(page::state_json(&app)["status"], "idle");
}

#[test]
fn every_bundled_file_can_be_linked() {
    // `open=` names a file relative to positions/: every bundled position
    // file (not the folder's README) is a valid link target.
    for f in positions::bundled() {
        let Some(rel) = f.path.strip_prefix("positions/") else {
            panic!("{} is not under positions/", f.path)
        };
        if rel.ends_with(".md") {
            continue;
        }
        let launch = launch_url::parse(&format!("?open={rel}")).unwrap();
        assert_eq!(launch.bundled_path().as_deref(), Some(f.path));
    }
}

#[test]
fn a_lesson_link_opens_its_first_step_and_runs_it() {
    // Lesson 2's first step: PNS with leftmost ties on the lecture's
    // most-proving-node tree at iteration 1 (the lesson player rebuilds
    // it); the link's autoplay runs nothing further, since the step's
    // question is about the tree at its own iteration.
    let file = "positions/trees/lecture-mpn.tree";
    let entry = positions::load_file(std::path::Path::new(file))
        .unwrap()
        .remove(0);
    let app = page_app("?lesson=02-pns-step-by-step&autoplay=1");
    let mut app = run_frames(app, 5_000);
    assert!(app.settle(Duration::from_secs(30)));
    let state = page::state_json(&app);
    assert_eq!(state["position"], entry.name.as_str());
    assert_eq!(state["algo"], "pns");
    assert_eq!(state["params"]["tie"], "leftmost");
    assert_eq!(state["iteration"], 1);
    assert_eq!(state["status"], "paused");
    assert_eq!(state["error"], serde_json::Value::Null);
}
