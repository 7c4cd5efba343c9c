//! The app's benchmark (issue #5, CLI `pnlab bench --ui`): the tree
//! view's frame time (egui pass + tessellation, no GPU) of the tidy tree,
//! the path view and the path view with the overview, on snapshots of
//! PNS trees of about 10⁴, 10⁵ and 10⁶ nodes, and PNS iterations per second
//! headless versus through the worker with a UI draining it at 60 frames
//! per second.

use crate::clock::{Duration, Instant};

use crate::app::driver::thread::ThreadDriver;
use crate::app::driver::{Command, DriverError, RunSpec, SearchDriver};
use crate::app::logic::RunState;
use crate::app::tree_view::{TreeMode, TreeView};
use crate::game::AnyPosition;
use crate::search::{registry, Algorithm, Params, QuestionKind, SearchSetup};

fn setup() -> SearchSetup {
    SearchSetup {
        // The empty Connect Four board: PNS grows a large tree without
        // finishing, which is what a frame-time test needs.
        position: AnyPosition::Connect4(crate::game::connect4::Connect4::default()),
        params: Params::defaults(crate::search::pns::PnsOptions::PARAMS),
        seed: 1,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Why the UI benchmark stopped: the layers' own errors, or a time
/// travel that did not arrive where it was sent.
#[derive(Debug, thiserror::Error)]
pub enum UiBenchError {
    /// The benchmark's search could not be built.
    #[error(transparent)]
    Search(#[from] crate::search::SearchError),
    /// A bundled benchmark set did not read.
    #[error(transparent)]
    Suite(#[from] crate::bench::SuiteError),
    /// The run thread refused a command or did not start.
    #[error(transparent)]
    Driver(#[from] DriverError),
    /// A driven run failed.
    #[error(transparent)]
    Run(#[from] crate::run::RunFault),
    /// Going back ended at another iteration than the one asked for.
    #[error("back to {target} from {from} ended at {reached}")]
    BackMissed {
        /// The iteration asked for.
        target: u64,
        /// Where the run stood.
        from: u64,
        /// Where it ended.
        reached: u64,
    },
}

/// Runs the UI benchmark up to trees of `max_nodes` nodes and returns one
/// JSON object per measurement (docs/cli.md `pnlab bench --ui`).
pub fn run(max_nodes: u64) -> Result<Vec<serde_json::Value>, UiBenchError> {
    let mut rows = frame_rows(max_nodes)?;
    let (throughput, mut w, mut run) = throughput_row()?;
    rows.push(throughput);
    rows.extend(driven_rows()?);
    rows.extend(back_rows(&mut w, &mut run)?);
    Ok(rows)
}

/// Frame times of the three pictures on PNS trees of 10⁴, 10⁵, … nodes
/// up to `max_nodes`.
fn frame_rows(max_nodes: u64) -> Result<Vec<serde_json::Value>, UiBenchError> {
    let mut rows = Vec::new();
    let mut search = registry::build("pns", &setup())?;
    let ctx = egui::Context::default();
    let mut target = 10_000u64;
    let mut generation = 0;
    while target <= max_nodes {
        while search.counters().nodes_created < target && !search.status().is_final() {
            search.step();
        }
        // The three pictures: the tidy tree, the path view, and the path
        // view with the overview strip (the engine's icicle data).
        for (name, mode, overview) in [
            ("tree", TreeMode::Tidy, false),
            ("path", TreeMode::Path, false),
            ("path+overview", TreeMode::Path, true),
        ] {
            let mut view = TreeView::default();
            view.mode = mode;
            view.show_overview = overview;
            view.reset_run();
            let req = view.request();
            let t = Instant::now();
            let snap = search.snapshot(&req);
            let snap_ms = t.elapsed().as_secs_f64() * 1e3;
            generation += 1;
            let mut frames = Vec::new();
            for _ in 0..30 {
                let input = egui::RawInput {
                    screen_rect: Some(egui::Rect::from_min_size(
                        egui::Pos2::ZERO,
                        egui::vec2(1200.0, 800.0),
                    )),
                    ..Default::default()
                };
                let t = Instant::now();
                let mut out = ctx.run_ui(input, |ui| {
                    view.ui(ui, Some(&snap), generation);
                });
                let shapes = std::mem::take(&mut out.shapes);
                let prims = ctx.tessellate(shapes, out.pixels_per_point);
                frames.push(t.elapsed().as_secs_f64() * 1e3);
                std::hint::black_box(prims);
                out.drop_without_applying_deltas();
            }
            rows.push(serde_json::json!({
                "suite": "ui",
                "view": name,
                "tree_nodes": search.counters().nodes_created,
                "snapshot_nodes": snap.nodes.len(),
                "snapshot_ms": (snap_ms * 1000.0).round() / 1000.0,
                "frame_ms_median": (median(frames.clone()) * 1000.0).round() / 1000.0,
                "frame_ms_max": (frames.iter().cloned().fold(0.0, f64::max) * 1000.0).round() / 1000.0,
            }));
        }
        target *= 10;
    }

    Ok(rows)
}

/// PNS iterations per second headless and through the thread driver
/// drained at 60 frames per second; returns the driver and its run,
/// which [`back_rows`] goes on with.
fn throughput_row() -> Result<(serde_json::Value, ThreadDriver, RunState), UiBenchError> {
    // Throughput: headless versus through the worker.
    // Long enough that start-up and the final 16 ms poll do not dominate.
    let iterations = 2_000_000u64;
    let mut s = registry::build("pns", &setup())?;
    let t = Instant::now();
    for _ in 0..iterations {
        s.step();
    }
    let headless = iterations as f64 / t.elapsed().as_secs_f64();
    let mut w = ThreadDriver::spawn(|| {})?;
    let mut run = RunState::default();
    w.send(Command::Load(RunSpec {
        algo: Algorithm::named("pns")?,
        setup: setup(),
    }))?;
    let t = Instant::now();
    w.send(Command::Step(iterations))?;
    w.send(Command::Sync(1))?;
    while run.synced < 1 {
        // A UI frame: drain within the budget, then wait for the next frame.
        run.drain(&mut w);
        std::thread::sleep(Duration::from_millis(16));
    }
    let worker = iterations as f64 / t.elapsed().as_secs_f64();
    let row = serde_json::json!({
        "suite": "ui-throughput",
        "algo": "pns",
        "game": "connect4",
        "headless_iterations_per_sec": headless.round(),
        "worker_iterations_per_sec": worker.round(),
        "worker_vs_headless": (1000.0 * worker / headless).round() / 1000.0,
    });
    Ok((row, w, run))
}

/// The page's PNS sets, bare and driven (see [`run`]).
fn driven_rows() -> Result<Vec<serde_json::Value>, UiBenchError> {
    let mut rows = Vec::new();
    // The page's PNS sets, bare and driven the way the app drives them
    // (cooperative slices, checkpoints, samples, snapshots): bench.html
    // reports the same two rows in the browser.
    for set in crate::bench::pns_sets()? {
        let info = Algorithm::named("pns")?;
        let params = Params::defaults(info.params);
        let bare = crate::bench::run_set(&set, "pns", &params)?;
        let mut driven = crate::run::driven::DrivenSet::new(
            &set,
            info,
            &params,
            crate::app::driver::cooperative::FRAME_BUDGET,
        );
        while !driven.slice(set.max_iterations)? {}
        let d = &driven.row;
        rows.push(serde_json::json!({
            "suite": "ui-driven",
            "set": set.name,
            "algo": "pns",
            "iterations": d.iterations,
            "bare_iterations": bare.iterations,
            "bare_iterations_per_sec": bare.iterations_per_sec().round(),
            "driven_iterations_per_sec": d.iterations_per_sec().round(),
            "driven_vs_bare": (1000.0 * d.iterations_per_sec() / bare.iterations_per_sec().max(1e-9)).round() / 1000.0,
            "slices": d.slices,
        }));
    }
    Ok(rows)
}

/// Going back in the driver's run: one iteration, to the middle, to the
/// start.
fn back_rows(
    w: &mut ThreadDriver,
    run: &mut RunState,
) -> Result<Vec<serde_json::Value>, UiBenchError> {
    let mut rows = Vec::new();
    // Time travel from the end of that run: Back one iteration, to the
    // middle and to the start, each replayed from the nearest checkpoint.
    // The first waits for the checkpoint the driver prepares near the end
    // while the run stands still (as it does while a teacher talks), so
    // one step Back replays a few hundred iterations, not a spacing.
    let top = run.iteration();
    let t = Instant::now();
    let prepared_after = loop {
        run.drain(w);
        if run.back_ready.is_some() || t.elapsed() > Duration::from_secs(120) {
            break t.elapsed().as_secs_f64() * 1e3;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let mut sync = 1;
    for target in [top.saturating_sub(1), top / 2, 1] {
        sync += 1;
        let t = Instant::now();
        w.send(Command::GoTo(target))?;
        w.send(Command::Sync(sync))?;
        while run.synced < sync {
            run.drain(w);
            std::thread::sleep(Duration::from_millis(1));
        }
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if run.iteration() != target {
            return Err(UiBenchError::BackMissed {
                target,
                from: top,
                reached: run.iteration(),
            });
        }
        rows.push(serde_json::json!({
            "suite": "ui-back",
            "algo": "pns",
            "game": "connect4",
            "from_iteration": top,
            "to_iteration": target,
            "ms": (ms * 10.0).round() / 10.0,
            "recent_checkpoint": run.back_ready,
            "prepared_in_ms": (prepared_after * 10.0).round() / 10.0,
        }));
    }
    Ok(rows)
}
