//! `pnlab bench`: a fixed, seeded suite that measures iterations, nodes and
//! bytes per node per algorithm and game (docs/cli.md). Run it before and after
//! a change; the numbers go in closing notes, never in tests.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use serde_json::json;

use pnlab::bench::{self, BenchSet};
use pnlab::game::{AnyPosition, Game};
use pnlab::params::bounds;
use pnlab::search::{self, Params};

use super::{bench_depth, parse_pairs, UsageError, UserError};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Only this algorithm.
    #[arg(long)]
    pub algo: Option<String>,
    /// Only this suite: othello-14, hex-4, connect4, othello-mid
    /// (alphabeta), xiangqi-mate, xiangqi-perft, xiangqi-mid (alphabeta),
    /// connect6, connect6-vcdt, cns-trees, cns-hex-8, resistance; or one of
    /// the suites run only when named: othello-16-random, othello-20-random,
    /// ffo-20-39, ffo-40-59 (the FFO endgame tests, dfpn-fast);
    /// connect4-l1r3, connect4-easy (Pons's Connect Four tests, dfpn-fast and dfpn);
    /// hex-7x7 (the empty 7×7 board and its 49 openings, dfpn-fast);
    /// connect4-score, connect4-score-easy, othello-score (the exact
    /// scores of the connect4-l1r3, connect4-easy and ffo-20-39 positions,
    /// dfpn-fast with --question score);
    /// live-class (a live-class server with 500 simulated students).
    #[arg(long)]
    pub suite: Option<String>,
    /// Algorithm parameter NAME=VALUE for the benchmarked algorithm
    /// (repeatable; needs --algo).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Threads for algorithms that search in parallel (sets their
    /// `threads` parameter; needs --algo).
    #[arg(long)]
    pub threads: Option<u32>,
    /// Print the suite's positions in their native notation, one per line,
    /// and exit (to run another program on the same set).
    #[arg(long)]
    pub positions: bool,
    /// Iteration cap per position (the suite's default otherwise).
    #[arg(long)]
    pub max_iterations: Option<u64>,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
    /// Measure the app instead: tree-view frame times at 10⁴, 10⁵, 10⁶
    /// nodes and search throughput through the worker versus headless.
    #[arg(long)]
    pub ui: bool,
    /// With --ui: the largest tree measured, in nodes.
    #[arg(long, default_value_t = 1_000_000)]
    pub ui_max_nodes: u64,
}

/// The largest tree `--ui` draws: its frame times are measured at sizes
/// up to this (a bigger one would only measure the machine's memory).
const MAX_UI_NODES: u64 = 10_000_000;

pub fn run(args: BenchArgs) -> Result<ExitCode, UserError> {
    if args.suite.as_deref() == Some(super::bench_live::SUITE) {
        return super::bench_live::run(args.json);
    }
    if args.ui {
        let max = bounds::count("--ui-max-nodes", args.ui_max_nodes, 1, MAX_UI_NODES)?;
        return run_ui(max);
    }
    // Depth-limited suites (alpha-beta) are measured on their own.
    if args.algo.as_deref().is_none_or(|a| a == bench_depth::ALGO) {
        for name in bench_depth::SUITES {
            if args.suite.as_deref().is_some_and(|s| s != *name) {
                continue;
            }
            if let Some(row) = bench_depth::run_suite(name) {
                if args.json {
                    outln!("{row}");
                } else {
                    print_human(&row);
                }
            }
        }
        if args.algo.is_some()
            || args
                .suite
                .as_deref()
                .is_some_and(|s| bench_depth::SUITES.contains(&s))
        {
            return Ok(ExitCode::SUCCESS);
        }
    }
    let names: Vec<&str> = match &args.suite {
        Some(s) => vec![s.as_str()],
        None => bench::DEFAULT_SUITES.to_vec(),
    };
    if args.positions {
        for name in &names {
            if *name == "xiangqi-perft" || *name == "connect6-vcdt" {
                continue;
            }
            for p in &bench::suite(name)?.positions {
                outln!("{}", p.notation());
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut pairs = parse_pairs(&args.set)?;
    if let Some(t) = args.threads {
        pairs.push(("threads".to_string(), t.to_string()));
    }
    if !pairs.is_empty() && args.algo.is_none() {
        return Err(UsageError::Needs {
            flags: "--set and --threads",
            needed: "--algo",
            why: "parameters belong to one algorithm",
        }
        .into());
    }
    let chosen = match &args.algo {
        Some(a) => Some(search::find_algo(a)?),
        None => None,
    };
    for name in names {
        if name == "xiangqi-perft" {
            for row in bench_xiangqi_perft()? {
                if args.json {
                    outln!("{row}");
                } else {
                    outln!(
                        "{:<13} {:<12} {:>11} leaves  {:>12} leaves/s  {:>9} ms",
                        row["suite"].as_str().unwrap_or(""),
                        row["method"].as_str().unwrap_or(""),
                        row["leaves"],
                        row["leaves_per_sec"],
                        row["time_ms"],
                    );
                }
            }
            continue;
        }
        if name == "connect6-vcdt" {
            let row = bench_connect6_vcdt()?;
            if args.json {
                outln!("{row}");
            } else {
                outln!(
                    "{:<13} {:>5} solves {:>4} wins {:>11} nodes  {:>12} nodes/s  {:>9} ms",
                    row["suite"].as_str().unwrap_or(""),
                    row["solves"],
                    row["wins"],
                    row["nodes"],
                    row["nodes_per_sec"],
                    row["time_ms"],
                );
            }
            continue;
        }
        if name == "resistance" {
            for row in bench_resistance() {
                if args.json {
                    outln!("{row}");
                } else {
                    outln!(
                        "resistance  {}x{}  {:>12} evaluations/s  ({} positions)",
                        row["size"],
                        row["size"],
                        row["evaluations_per_sec"],
                        row["positions"]
                    );
                }
            }
            continue;
        }
        let suite = bench::suite(name)?;
        let algos: Vec<&'static search::AlgoInfo> = match chosen {
            Some(a) => vec![a],
            None => suite
                .algos
                .unwrap_or(bench::DEFAULT_ALGOS)
                .iter()
                .filter_map(|a| search::find_algo(a).ok())
                .collect(),
        };
        for info in &algos {
            let params = info
                .params_from_pairs(suite.game, &pairs)
                .map_err(|source| UsageError::AlgoParam {
                    algo: info.name.to_string(),
                    source,
                })?;
            let row = bench_one(&suite, info, &params, args.max_iterations)?;
            if args.json {
                outln!("{row}");
            } else {
                print_human(&row);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_one(
    suite: &BenchSet,
    info: &search::AlgoInfo,
    params: &Params,
    cap: Option<u64>,
) -> Result<serde_json::Value, UserError> {
    let budget = pnlab::bench::run_budget(cap.unwrap_or(suite.max_iterations));
    let (mut it, mut nodes, mut playouts, mut ms) = (0u64, 0u64, 0u64, 0f64);
    let (mut bytes, mut live) = (0u64, 0u64);
    let mut solved = 0usize;
    let mut wrong = 0usize;
    let cpu_before = pnlab::clock::process_cpu_time();
    let each = |i: usize, st: search::Status, s: &dyn search::Search| {
        let c = s.counters();
        if matches!(st, search::Status::Proved | search::Status::Disproved) {
            solved += 1;
            let says = st == search::Status::Proved;
            if suite.answers.as_ref().and_then(|a| a.get(i)) == Some(&!says) {
                wrong += 1;
            }
            if suite.ask_score {
                let score = s.extra_json().get("score").and_then(|v| v.as_i64());
                let published = suite.scores.as_ref().and_then(|a| a.get(i));
                if published.is_some_and(|&p| Some(i64::from(p)) != score) {
                    wrong += 1;
                }
            }
        }
        it += c.iterations;
        nodes += c.nodes_created;
        playouts += c.playouts;
        ms += c.time_ms;
        bytes += c.peak_tree_bytes;
        live += c.live_nodes.max(1);
    };
    let (positions, repeat) = (&suite.positions, suite.repeat);
    let question = if suite.ask_score {
        search::QuestionKind::Score
    } else {
        search::QuestionKind::Win
    };
    pnlab::bench::run_positions_asking(
        positions, repeat, info.name, params, &budget, question, each,
    )?;
    let cpu_ms = pnlab::clock::process_cpu_time()
        .zip(cpu_before)
        .map(|(a, b)| (a - b).as_secs_f64() * 1000.0);
    let secs = (ms / 1000.0).max(1e-9);
    let mut row = json!({
        "suite": suite.name,
        "algo": info.name,
        "params": params,
        "game": suite.game.name(),
        "positions": suite.positions.len(),
        "runs": suite.positions.len() * suite.repeat,
        "solved": solved,
        "iterations": it,
        "iterations_per_sec": (it as f64 / secs).round(),
        "nodes_per_sec": (nodes as f64 / secs).round(),
        "bytes_per_node": ((bytes as f64 / live as f64) * 10.0).round() / 10.0,
        "time_ms": (ms * 10.0).round() / 10.0,
    });
    if let Some(cpu) = cpu_ms {
        row["cpu_ms"] = json!(cpu);
    }
    if suite.answers.is_some() || suite.ask_score {
        row["wrong"] = json!(wrong);
    }
    if suite.ask_score {
        row["question"] = json!("score");
    }
    if playouts > 0 {
        row["playouts_per_sec"] = json!((playouts as f64 / secs).round());
    }
    if info.name.starts_with("mcts") || info.name.starts_with("uct") {
        row["simulations_per_sec"] = json!((it as f64 / secs).round());
    }
    Ok(row)
}

/// Resistance evaluations (both circuits solved) per second on 8×8 and
/// 11×11 boards, over positions from seeded random play at every stage of
/// a game.
fn bench_resistance() -> Vec<serde_json::Value> {
    use pnlab::game::hex::Hex;
    use pnlab::game::Game;
    let mut rows = Vec::new();
    for n in [8u8, 11] {
        let mut positions = Vec::new();
        let mut x = 0x5EEDu64;
        for k in 0..20 {
            let Some(mut g) = Hex::new(n) else { continue };
            let mut moves = Vec::new();
            for _ in 0..(k * n as usize * n as usize) / 40 {
                moves.clear();
                g.legal_moves(&mut moves);
                x = pnlab::game::mix::splitmix64(x);
                let mut h = g;
                h.play(moves[(x % moves.len() as u64) as usize]);
                if h.outcome().is_some() {
                    break;
                }
                g = h;
            }
            positions.push(g);
        }
        let start = std::time::Instant::now();
        let mut evals = 0u64;
        while start.elapsed() < Duration::from_secs(2) {
            for g in &positions {
                std::hint::black_box(g.resistance_evaluation());
                evals += 1;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        rows.push(json!({
            "suite": "resistance",
            "size": n,
            "positions": positions.len(),
            "evaluations": evals,
            "evaluations_per_sec": (evals as f64 / secs).round(),
        }));
    }
    rows
}

/// Perft over the suite's positions, single-threaded, repetition off:
/// the game's own bulk-counting perft (the last ply's moves counted, not
/// played) and the generic perft through the `Game` trait (what `pnlab
/// perft` runs, one move list per node). Each count is checked against the
/// published one.
fn bench_xiangqi_perft() -> Result<Vec<serde_json::Value>, UserError> {
    use pnlab::game::xiangqi::{Repetition, Xiangqi};
    let mut cases = Vec::new();
    for l in include_str!("../../assets/bench/xiangqi-perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(';'))
    {
        let f: Vec<&str> = l.split('\t').collect();
        let bad = || UsageError::SuiteLine(l.to_string());
        let g = Xiangqi::parse(f[0]).map_err(UsageError::SuitePosition)?;
        let depth: u32 = f.get(1).and_then(|d| d.parse().ok()).ok_or_else(bad)?;
        let leaves: u64 = f.get(2).and_then(|d| d.parse().ok()).ok_or_else(bad)?;
        cases.push((g.with_repetition(Repetition::None), depth, leaves));
    }
    let mut rows = Vec::new();
    for method in ["bulk", "game-trait"] {
        let start = std::time::Instant::now();
        let mut total = 0u64;
        for (g, depth, want) in &cases {
            let n = match method {
                "bulk" => g.perft(*depth),
                _ => pnlab::game::perft::perft(g, *depth),
            };
            if n != *want {
                return Err(UsageError::PerftMismatch {
                    depth: *depth,
                    position: g.notation(),
                    counted: n,
                    published: *want,
                }
                .into());
            }
            total += n;
        }
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        rows.push(json!({
            "suite": "xiangqi-perft",
            "method": method,
            "positions": cases.len(),
            "leaves": total,
            "leaves_per_sec": (total as f64 / secs).round(),
            "time_ms": (secs * 10_000.0).round() / 10.0,
        }));
    }
    Ok(rows)
}

/// VCDT solves over the Connect6 set: in each position, after each of
/// the side to move's 5 best first stones (the zone searches' attacker
/// moves), the VCDT of the side to move with its second stone, at the
/// default depth and node limits. Reports VCDT nodes per second.
fn bench_connect6_vcdt() -> Result<serde_json::Value, UserError> {
    use pnlab::game::connect::heuristic::top_cells;
    use pnlab::game::connect::vcdt::{Vcdt, VcdtOptions};
    use pnlab::game::Game;
    let mut starts = Vec::new();
    for p in bench::suite("connect6")?.positions {
        let AnyPosition::Connect(g) = p else { continue };
        for c in top_cells(g.board(), g.to_move(), 5) {
            let mut child = g.clone();
            child.play(c);
            if child.outcome().is_none() {
                starts.push(child);
            }
        }
    }
    let start = std::time::Instant::now();
    let (mut nodes, mut wins) = (0u64, 0usize);
    for g in &starts {
        let mut v = Vcdt::new(g.board(), g.to_move(), g.rules().p, VcdtOptions::default());
        if v.solve(g.stones_left()).is_some() {
            wins += 1;
        }
        nodes += v.nodes();
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    Ok(json!({
        "suite": "connect6-vcdt",
        "solves": starts.len(),
        "wins": wins,
        "nodes": nodes,
        "nodes_per_sec": (nodes as f64 / secs).round(),
        "time_ms": (secs * 10_000.0).round() / 10.0,
    }))
}

fn print_human(row: &serde_json::Value) {
    outln!(
        "{:<17} {:<12} {:>3}/{:<3} solved  {:>12} it/s  {:>12} nodes/s  {:>6} B/node  {:>9} ms  {:>9} cpu ms",
        row["suite"].as_str().unwrap_or(""),
        row["algo"].as_str().unwrap_or(""),
        row["solved"],
        row["runs"],
        row["iterations_per_sec"],
        row["nodes_per_sec"],
        row["bytes_per_node"],
        row["time_ms"],
        row.get("cpu_ms").map_or("-".to_string(), |c| c.to_string()),
    );
}

#[cfg(feature = "gui")]
fn run_ui(max_nodes: u64) -> Result<ExitCode, UserError> {
    for row in pnlab::app::bench::run(max_nodes)? {
        outln!("{row}");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "gui"))]
fn run_ui(_max_nodes: u64) -> Result<ExitCode, UserError> {
    Err(super::UsageError::NotBuiltWith {
        feature: super::error::Feature::Gui,
        consequence: ", so --ui (which measures the app) cannot run",
    }
    .into())
}
