//! `pnlab bench`: a fixed, seeded suite that measures iterations, nodes and
//! bytes per node per algorithm and game (CLI.md). Run it before and after
//! a change; the numbers go in closing notes, never in tests.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use serde_json::json;

use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::{self, Budget, Params, QuestionKind, SearchSetup};

use super::UserError;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Only this algorithm.
    #[arg(long)]
    pub algo: Option<String>,
    /// Only this suite: othello-14, hex-4, connect4, xiangqi-mate,
    /// xiangqi-perft.
    #[arg(long)]
    pub suite: Option<String>,
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

/// A fixed set of positions and the per-position budget.
struct Suite {
    name: &'static str,
    game: GameKind,
    positions: Vec<AnyPosition>,
    /// How many times the set is run (small suites repeat for stable times).
    repeat: usize,
    max_iterations: u64,
    /// The algorithms run by default (all of [`DEFAULT_ALGOS`] if `None`).
    algos: Option<&'static [&'static str]>,
}

/// Names of the suites, in order.
const SUITES: &[&str] = &[
    "othello-14",
    "hex-4",
    "connect4",
    "xiangqi-mate",
    "xiangqi-perft",
];

/// The xiangqi mate puzzles: `FEN<TAB>N<TAB>id` lines, asked as "the side
/// to move wins within N moves".
fn xiangqi_mate_positions() -> Result<Vec<AnyPosition>, UserError> {
    include_str!("../../assets/bench/xiangqi-mate.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(';'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n: u32 = f
                .get(1)
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| UserError(format!("bench suite: bad line `{l}`")))?;
            let p = AnyPosition::parse(GameKind::Xiangqi, f[0])
                .map_err(|e| UserError(format!("bench suite: {e}")))?;
            Ok(p.within(n))
        })
        .collect()
}

fn load_suite(name: &str) -> Result<Suite, UserError> {
    let parse_lines =
        |kind: GameKind, text: &str, field: usize| -> Result<Vec<AnyPosition>, UserError> {
            text.lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with(';') && !l.starts_with('#'))
                .map(|l| {
                    let p = if field == 0 {
                        l.trim().to_string()
                    } else {
                        l.split_whitespace().next().unwrap_or("").to_string()
                    };
                    AnyPosition::parse(kind, &p).map_err(|e| UserError(format!("bench suite: {e}")))
                })
                .collect()
        };
    let suite = match name {
        "othello-14" => Suite {
            name: "othello-14",
            game: GameKind::Othello,
            positions: parse_lines(
                GameKind::Othello,
                include_str!("../../assets/bench/othello-14.obf"),
                0,
            )?,
            repeat: 1,
            max_iterations: 2_000_000,
            algos: None,
        },
        "hex-4" => Suite {
            name: "hex-4",
            game: GameKind::Hex,
            positions: vec![AnyPosition::parse(GameKind::Hex, "4:")
                .map_err(|e| UserError(format!("bench suite: {e}")))?],
            repeat: 20,
            max_iterations: 2_000_000,
            algos: None,
        },
        "connect4" => Suite {
            name: "connect4",
            game: GameKind::Connect4,
            positions: parse_lines(
                GameKind::Connect4,
                include_str!("../../assets/bench/connect4.txt"),
                1,
            )?,
            repeat: 1,
            max_iterations: 500_000,
            algos: None,
        },
        "xiangqi-mate" => Suite {
            name: "xiangqi-mate",
            game: GameKind::Xiangqi,
            positions: xiangqi_mate_positions()?,
            repeat: 1,
            max_iterations: 2_000_000,
            algos: Some(&["pns", "dfpn"]),
        },
        other => {
            return Err(UserError(format!(
                "unknown suite `{other}`; suites: {}",
                SUITES.join(", ")
            )))
        }
    };
    Ok(suite)
}

/// Algorithms benchmarked by default (those registered, in this order).
const DEFAULT_ALGOS: &[&str] = &[
    "pns",
    "deep-pn",
    "dfpn",
    "ppn",
    "mcpn",
    "mcts-solver",
    "uct-solver",
];

pub fn run(args: BenchArgs) -> Result<ExitCode, UserError> {
    if args.ui {
        return run_ui(args.ui_max_nodes);
    }
    let names: Vec<&str> = match &args.suite {
        Some(s) => vec![s.as_str()],
        None => SUITES.to_vec(),
    };
    let chosen = match &args.algo {
        Some(a) => Some(search::find_algo(a)?),
        None => None,
    };
    for name in names {
        if name == "xiangqi-perft" {
            for row in bench_xiangqi_perft()? {
                if args.json {
                    println!("{row}");
                } else {
                    println!(
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
        let suite = load_suite(name)?;
        let algos: Vec<&'static search::AlgoInfo> = match chosen {
            Some(a) => vec![a],
            None => suite
                .algos
                .unwrap_or(DEFAULT_ALGOS)
                .iter()
                .filter_map(|a| search::find_algo(a).ok())
                .collect(),
        };
        for info in &algos {
            let row = bench_one(&suite, info, args.max_iterations)?;
            if args.json {
                println!("{row}");
            } else {
                print_human(&row);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_one(
    suite: &Suite,
    info: &search::AlgoInfo,
    cap: Option<u64>,
) -> Result<serde_json::Value, UserError> {
    let budget = Budget {
        max_iterations: Some(cap.unwrap_or(suite.max_iterations)),
        time_limit: Some(Duration::from_secs(60)),
        ..Budget::default()
    };
    let (mut it, mut nodes, mut playouts, mut ms) = (0u64, 0u64, 0u64, 0f64);
    let (mut bytes, mut live) = (0u64, 0u64);
    let mut solved = 0usize;
    for _ in 0..suite.repeat {
        for (i, p) in suite.positions.iter().enumerate() {
            let setup = SearchSetup {
                position: p.clone(),
                params: Params::defaults(info.params),
                seed: i as u64,
                question: QuestionKind::Win,
                memory_limit_bytes: None,
            };
            let mut s = search::build(info.name, &setup).map_err(UserError)?;
            let st = search::run(s.as_mut(), &budget, None);
            if matches!(st, search::Status::Proved | search::Status::Disproved) {
                solved += 1;
            }
            let c = s.counters();
            it += c.iterations;
            nodes += c.nodes_created;
            playouts += c.playouts;
            ms += c.time_ms;
            bytes += c.peak_tree_bytes;
            live += c.live_nodes.max(1);
        }
    }
    let secs = (ms / 1000.0).max(1e-9);
    let mut row = json!({
        "suite": suite.name,
        "algo": info.name,
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
    if playouts > 0 {
        row["playouts_per_sec"] = json!((playouts as f64 / secs).round());
    }
    if info.name.starts_with("mcts") || info.name.starts_with("uct") {
        row["simulations_per_sec"] = json!((it as f64 / secs).round());
    }
    Ok(row)
}

/// Perft over the suite's positions, single-threaded, repetition off:
/// the game's own bulk-counting perft (the last ply's moves counted, not
/// played) and the generic perft through the `Game` trait (what `pnlab
/// perft` runs, one move list per node). Each count is checked against the
/// published one.
fn bench_xiangqi_perft() -> Result<Vec<serde_json::Value>, UserError> {
    use pnlab::game::xiangqi::{Repetition, Xiangqi};
    use pnlab::game::Game;
    let mut cases = Vec::new();
    for l in include_str!("../../assets/bench/xiangqi-perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(';'))
    {
        let f: Vec<&str> = l.split('\t').collect();
        let bad = || UserError(format!("bench suite: bad line `{l}`"));
        let g = Xiangqi::parse(f[0]).map_err(|e| UserError(format!("bench suite: {e}")))?;
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
                return Err(UserError(format!(
                    "xiangqi perft({depth}) of {} = {n}, published {want}",
                    g.notation()
                )));
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

fn print_human(row: &serde_json::Value) {
    println!(
        "{:<11} {:<12} {:>3}/{:<3} solved  {:>12} it/s  {:>12} nodes/s  {:>6} B/node  {:>9} ms",
        row["suite"].as_str().unwrap_or(""),
        row["algo"].as_str().unwrap_or(""),
        row["solved"],
        row["runs"],
        row["iterations_per_sec"],
        row["nodes_per_sec"],
        row["bytes_per_node"],
        row["time_ms"],
    );
}

#[cfg(feature = "gui")]
fn run_ui(max_nodes: u64) -> Result<ExitCode, UserError> {
    for row in pnlab::app::bench::run(max_nodes).map_err(UserError)? {
        println!("{row}");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "gui"))]
fn run_ui(_max_nodes: u64) -> Result<ExitCode, UserError> {
    Err(UserError(
        "--ui measures the app, but this pnlab was built without the `gui` feature".into(),
    ))
}
