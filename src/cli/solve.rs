//! `pnlab solve`: one result per position, in input order (CLI.md).

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use serde_json::{json, Map, Value};

use pnlab::game::notation::FileError;
use pnlab::game::{AnyPosition, GameKind, UnknownGame};
use pnlab::positions::{self, PositionEntry};
use pnlab::search::{self, params, Budget, Params, QuestionKind, SearchSetup, Status};

use super::{parse_pair, UserError};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Position files, inline positions (with --game) or `-` for stdin.
    /// (OBF boards that start with `-` are recognised anywhere on the line.)
    #[arg(value_name = "POSITION")]
    pub positions: Vec<String>,
    /// Game of inline positions: tictactoe, connect4, hex, othello, pgame, tree.
    #[arg(long)]
    pub game: Option<String>,
    /// Algorithm (see `--list-algos`).
    #[arg(long, default_value = "pns")]
    pub algo: String,
    /// Algorithm parameter NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// The attacker's question: does the side to move win, or at least draw?
    #[arg(long, value_enum, default_value = "win")]
    pub question: QuestionArg,
    /// Stop after this many iterations.
    #[arg(long)]
    pub max_iterations: Option<u64>,
    /// Stop after creating this many nodes.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds per position.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Memory budget for the tree or table, in MiB.
    #[arg(long, value_name = "MIB")]
    pub memory: Option<u64>,
    /// Seed of the run's random number generators.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// One JSON object per position per line.
    #[arg(long)]
    pub json: bool,
    /// List the algorithms with their parameters and exit.
    #[arg(long)]
    pub list_algos: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum QuestionArg {
    Win,
    NotLose,
}

/// Reads every position named on the command line. Errors are collected
/// per argument so the other positions are still solved.
fn read_positions(args: &SolveArgs) -> Vec<Result<Vec<PositionEntry>, String>> {
    let game = args.game.as_deref();
    args.positions
        .iter()
        .map(|arg| {
            if arg == "-" {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .map_err(|e| format!("-:1:1: cannot read standard input: {e}"))?;
                return match game {
                    Some(g) => inline_lines(g, "-", &text),
                    None => positions::load_text("-", &text).map_err(|e| e.to_string()),
                };
            }
            let path = Path::new(arg);
            if path.is_file() {
                return positions::load_file(path).map_err(|e| e.to_string());
            }
            match game {
                Some(g) => inline_lines(g, "<inline>", arg),
                None => Err(format!(
                    "{arg}:1:1: no such file; for an inline position give --game ({})",
                    GameKind::all_names()
                )),
            }
        })
        .collect()
}

/// Inline notation (or stdin with --game): one position per non-empty line,
/// except trees whose whole text is one position.
fn inline_lines(game: &str, source: &str, text: &str) -> Result<Vec<PositionEntry>, String> {
    let kind: GameKind = game.parse().map_err(|e: UnknownGame| e.to_string())?;
    let chunks: Vec<(usize, &str)> = if kind == GameKind::Tree || text.trim().is_empty() {
        vec![(1, text)]
    } else {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l))
            .collect()
    };
    chunks
        .into_iter()
        .map(|(line, chunk)| {
            let position = AnyPosition::parse(kind, chunk).map_err(|e| {
                FileError {
                    file: source.to_string(),
                    error: e.offset(line, 1),
                }
                .to_string()
            })?;
            let name = if source == "<inline>" {
                chunk.to_string()
            } else {
                format!("{source}:{line}")
            };
            Ok(PositionEntry::new(name, position, line))
        })
        .collect()
}

pub fn run(args: SolveArgs) -> Result<ExitCode, UserError> {
    if args.list_algos {
        for a in search::algorithms() {
            println!("{:<12} {}", a.name, a.summary);
            println!("{:<12} parameters: {}", "", params::describe(a.params));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let info = search::find_algo(&args.algo)?;
    let pairs = args
        .set
        .iter()
        .map(|s| parse_pair(s))
        .collect::<Result<Vec<_>, _>>()?;
    let params = Params::from_pairs(info.params, &pairs)
        .map_err(|e| format!("--algo {}: {e}", info.name))?;
    if let Some(t) = args.time_limit {
        if !(t.is_finite() && t > 0.0) {
            return Err(UserError(format!(
                "--time-limit {t}: expected a positive number of seconds"
            )));
        }
    }
    if args.positions.is_empty() {
        return Err(UserError(
            "no position given: name files, inline positions (with --game) or `-` for stdin".into(),
        ));
    }
    let budget = Budget {
        max_iterations: args.max_iterations,
        max_nodes: args.max_nodes,
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        max_memory_bytes: args.memory.map(|m| m.saturating_mul(1 << 20)),
    };
    let question = match args.question {
        QuestionArg::Win => QuestionKind::Win,
        QuestionArg::NotLose => QuestionKind::NotLose,
    };
    let mut bad_input = false;
    let stdout = std::io::stdout();
    for group in read_positions(&args) {
        let entries = match group {
            Ok(e) => e,
            Err(msg) => {
                eprintln!("error: {msg}");
                bad_input = true;
                continue;
            }
        };
        for entry in entries {
            let setup = SearchSetup {
                position: entry.position.clone(),
                params: params.clone(),
                seed: args.seed,
                question,
                memory_limit_bytes: budget.max_memory_bytes,
            };
            let mut s = match search::build(info.name, &setup) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {}:{}:1: {e}", entry.name, entry.line);
                    bad_input = true;
                    continue;
                }
            };
            let status = search::run(s.as_mut(), &budget, None);
            let q = setup.root_question();
            let line = if args.json {
                json_line(
                    &entry,
                    info.name,
                    &params,
                    args.seed,
                    &q,
                    status,
                    s.as_ref(),
                )
            } else {
                human_line(&entry, &q, status, s.as_ref())
            };
            let mut out = stdout.lock();
            if writeln!(out, "{line}").is_err() {
                // Nobody reads the results any more (a closed pipe): stop
                // rather than solve positions whose answers go nowhere.
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
    Ok(if bad_input {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn json_line(
    entry: &PositionEntry,
    algo: &str,
    params: &Params,
    seed: u64,
    q: &search::Question,
    status: Status,
    s: &dyn search::Search,
) -> String {
    let c = s.counters();
    let mut obj = Map::new();
    obj.insert("name".into(), json!(entry.name));
    obj.insert("game".into(), json!(entry.game.name()));
    obj.insert("position".into(), json!(entry.position.notation()));
    obj.insert("algo".into(), json!(algo));
    obj.insert(
        "params".into(),
        serde_json::to_value(params).unwrap_or(Value::Null),
    );
    obj.insert("seed".into(), json!(seed));
    obj.insert(
        "question".into(),
        json!(match q.goal {
            search::Goal::NotLose => "not-lose",
            _ => "win",
        }),
    );
    obj.insert("outcome".into(), json!(status.outcome_name()));
    obj.insert("answer".into(), json!(q.answer_name(status)));
    obj.insert("best_move".into(), json!(s.best_move()));
    obj.insert("iterations".into(), json!(c.iterations));
    obj.insert("nodes_created".into(), json!(c.nodes_created));
    obj.insert("nodes_expanded".into(), json!(c.nodes_expanded));
    obj.insert("max_depth".into(), json!(c.max_depth));
    obj.insert("seesaw_root_switches".into(), json!(c.seesaw_root_switches));
    obj.insert("seesaw_switches".into(), json!(c.seesaw_switches));
    obj.insert("revisits".into(), json!(c.revisits));
    obj.insert(
        "time_ms".into(),
        json!((c.time_ms * 1000.0).round() / 1000.0),
    );
    obj.insert("peak_tree_bytes".into(), json!(c.peak_tree_bytes));
    obj.insert("stop_reason".into(), json!(status.stop_reason_name()));
    if c.playouts > 0 {
        obj.insert("playouts".into(), json!(c.playouts));
    }
    if let Some(exp) = &entry.expected {
        let mut e = Map::new();
        if let Some(r) = &exp.result {
            e.insert("result".into(), json!(r));
        }
        if let Some(v) = exp.value {
            e.insert("value".into(), json!(v));
        }
        if !exp.best_moves.is_empty() {
            e.insert("best_moves".into(), json!(exp.best_moves));
        }
        obj.insert("expected".into(), Value::Object(e));
    }
    for (k, v) in s.extra_json() {
        obj.insert(k, v);
    }
    Value::Object(obj).to_string()
}

fn human_line(
    entry: &PositionEntry,
    q: &search::Question,
    status: Status,
    s: &dyn search::Search,
) -> String {
    let c = s.counters();
    let mut line = format!(
        "{}: {} ({}) after {} iterations, {} nodes, {:.1} ms",
        entry.name,
        status.outcome_name(),
        q.answer_name(status),
        c.iterations,
        c.nodes_created,
        c.time_ms
    );
    if let Status::Unknown(r) = status {
        line.push_str(&format!(", stopped: {}", r.name()));
    }
    if let Some(m) = s.best_move() {
        line.push_str(&format!(", best move {m}"));
    }
    if let Some(v) = s.extra_json().get("value") {
        line.push_str(&format!(", value {v}"));
    }
    line
}
