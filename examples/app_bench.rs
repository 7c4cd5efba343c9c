//! Measures the app's costs (issue #5 "What it must show"): the tree
//! view's frame time (egui pass + tessellation, no GPU) on snapshots of
//! PNS trees of about 10⁴, 10⁵ and 10⁶ nodes, and PNS iterations per second
//! headless versus through the worker with a UI draining it at 60 frames
//! per second. `cargo run --release --example app_bench [MAX_NODES]`.

use std::time::{Duration, Instant};

use pnlab::app::logic::RunState;
use pnlab::app::tree_view::TreeView;
use pnlab::app::worker::{Command, RunSpec, WorkerHandle};
use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::{registry, Params, QuestionKind, SearchSetup, ViewRequest};

fn setup() -> SearchSetup {
    SearchSetup {
        // The empty Connect Four board: PNS grows a large tree without
        // finishing, which is what a frame-time test needs.
        position: AnyPosition::parse(GameKind::Connect4, "").expect("empty board"),
        params: Params::defaults(registry::find_algo("pns").expect("pns").params),
        seed: 1,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let max_nodes: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut search = registry::build("pns", &setup()).expect("pns builds");
    let ctx = egui::Context::default();
    let mut view = TreeView::default();
    let mut target = 10_000u64;
    let mut generation = 0;
    while target <= max_nodes {
        while search.counters().nodes_created < target && !search.status().is_final() {
            search.step();
        }
        let req = ViewRequest::default();
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
        println!(
            "tree of {} nodes: snapshot {} nodes in {snap_ms:.2} ms, tree-view frame median {:.2} ms (max {:.2})",
            search.counters().nodes_created,
            snap.nodes.len(),
            median(frames.clone()),
            frames.iter().cloned().fold(0.0, f64::max)
        );
        target *= 10;
    }

    // Throughput: headless versus through the worker.
    let iterations = 300_000u64;
    let mut s = registry::build("pns", &setup()).expect("pns builds");
    let t = Instant::now();
    for _ in 0..iterations {
        s.step();
    }
    let headless = iterations as f64 / t.elapsed().as_secs_f64();
    let w = WorkerHandle::spawn(|| {}).expect("worker");
    let mut run = RunState::default();
    w.send(Command::Load(RunSpec {
        algo: "pns".into(),
        setup: setup(),
    }))
    .expect("send");
    let t = Instant::now();
    w.send(Command::Step(iterations)).expect("send");
    w.send(Command::Sync(1)).expect("send");
    while run.synced < 1 {
        // A UI frame: drain within the budget, then wait for the next frame.
        run.drain(&w);
        std::thread::sleep(Duration::from_millis(16));
    }
    let worker = iterations as f64 / t.elapsed().as_secs_f64();
    println!(
        "PNS on Connect Four: headless {headless:.0} it/s, through the worker {worker:.0} it/s ({:.0}%)",
        100.0 * worker / headless
    );
}
