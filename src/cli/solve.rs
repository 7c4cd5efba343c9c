//! `pnlab solve`: one result per position, in input order (docs/cli.md).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use pnlab::export::{self, ExportFormat, ExportInput, RunFacts, RunRecord};
use pnlab::game::notation::FileError;
use pnlab::game::xiangqi::Repetition;
use pnlab::game::{AnyPosition, GameKind, UnknownGame};
use pnlab::positions::{self, PositionEntry};
use pnlab::search::correct_moves;
use pnlab::search::{
    self, params, Budget, Params, QuestionKind, SearchSetup, StatsSample, Status, ViewRequest,
};
use serde_json::{json, Value};

use super::{parse_pair, UserError};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Position files, inline positions (with --game) or `-` for stdin.
    /// (OBF boards that start with `-` are recognised anywhere on the line.)
    #[arg(value_name = "POSITION")]
    pub positions: Vec<String>,
    /// Game of inline positions: tictactoe, connect4, hex, othello, pgame,
    /// tree, xiangqi, connect, connect6.
    #[arg(long)]
    pub game: Option<String>,
    /// The mate question: the attacker must win within N of its own moves
    /// (any game; a position at the horizon counts as not won). Replaces a
    /// file's `within`.
    #[arg(long, value_name = "N")]
    pub within: Option<u32>,
    /// Xiangqi repetition rule: draw (default), perpetual-check-loses or
    /// none. Replaces a file's `repetition`.
    #[arg(long, value_name = "RULE")]
    pub repetition: Option<String>,
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
    /// Search threads (the df-pn family: dfpn, dfpn-eps, deep-dfpn,
    /// dfpn-fast); sets the algorithm's `threads` parameter.
    #[arg(long, value_name = "N")]
    pub threads: Option<u32>,
    /// Write the proof (or disproof) certificate of each solved position to
    /// FILE (FILE.2, FILE.3, … for the second, third position); check it
    /// with `pnlab verify FILE`.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<std::path::PathBuf>,
    /// Write the run to FILE after solving (repeatable); the extension
    /// chooses the format: .svg or .dot (the tree), .csv (the curves),
    /// .json (the run). With several positions the files are numbered
    /// (tree-1.svg, tree-2.svg, …).
    #[arg(long, value_name = "FILE")]
    pub export: Vec<PathBuf>,
    /// Levels of the tree the .svg/.dot exports show below the root.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub export_depth: u32,
    /// Nodes the .svg/.dot exports show at most (the path to the
    /// most-proving node is always included).
    #[arg(long, value_name = "N", default_value_t = 2_000)]
    pub export_nodes: usize,
}

/// Positions the certificate writer may evaluate itself (where the search
/// keeps nothing) before giving up.
const PROOF_WRITER_BUDGET: u64 = 200_000_000;

/// Where the certificate of the `index`-th position solved (0-based) goes.
fn proof_path(base: &Path, index: usize) -> std::path::PathBuf {
    if index == 0 {
        base.to_path_buf()
    } else {
        let mut s = base.as_os_str().to_os_string();
        s.push(format!(".{}", index + 1));
        s.into()
    }
}

/// The file an export of position `k` (1-based) of `total` goes to:
/// `FILE` itself for a single position, `STEM-k.EXT` otherwise.
fn numbered(path: &Path, k: usize, total: usize) -> PathBuf {
    if total <= 1 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum QuestionArg {
    Win,
    NotLose,
}

/// Reads every position named on the command line (files, inline
/// positions with `game`, `-` for stdin). Errors are collected per
/// argument (and per game of a game-record file) so the other positions
/// are still searched.
pub(super) fn read_inputs(
    inputs: &[String],
    game: Option<&str>,
) -> Vec<Result<Vec<PositionEntry>, String>> {
    let mut out = Vec::new();
    for arg in inputs {
        let path = Path::new(arg);
        if arg != "-" && path.is_file() {
            let (entries, errors) = positions::load_file_partial(path);
            out.push(Ok(entries));
            out.extend(errors.into_iter().map(|e| Err(e.to_string())));
            continue;
        }
        out.push(read_argument(arg, game));
    }
    out
}

/// One argument that is not a file on disk: standard input or inline
/// notation.
fn read_argument(arg: &str, game: Option<&str>) -> Result<Vec<PositionEntry>, String> {
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
    match game {
        Some(g) => inline_lines(g, "<inline>", arg),
        None => Err(format!(
            "{arg}:1:1: no such file; for an inline position give --game ({})",
            GameKind::all_names()
        )),
    }
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
            outln!("{:<12} {}", a.name, a.summary);
            outln!("{:<12} parameters: {}", "", params::describe(a.params));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let info = search::find_algo(&args.algo)?;
    let mut pairs = args
        .set
        .iter()
        .map(|s| parse_pair(s))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(t) = args.threads {
        if info.params.iter().all(|p| p.name != "threads") {
            if t != 1 {
                return Err(UserError(format!(
                    "--threads {t}: `{}` searches with one thread; the df-pn family (dfpn, dfpn-eps, deep-dfpn, dfpn-fast) runs in parallel",
                    info.name
                )));
            }
        } else {
            pairs.push(("threads".to_string(), t.to_string()));
        }
    }
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
    let repetition = match &args.repetition {
        Some(r) => Some(Repetition::from_name(r).map_err(|e| format!("--repetition: {e}"))?),
        None => None,
    };
    let question = match args.question {
        QuestionArg::Win => QuestionKind::Win,
        QuestionArg::NotLose => QuestionKind::NotLose,
    };
    let formats = args
        .export
        .iter()
        .map(|p| ExportFormat::from_path(p).map(|f| (p.clone(), f)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| UserError(e.to_string()))?;
    let view = ViewRequest {
        max_depth: args.export_depth,
        max_nodes: args.export_nodes,
        want_position: false,
        ..ViewRequest::default()
    };
    let mut bad_input = false;
    let mut proofs_written = 0usize;
    let mut write_failed = false;
    let groups = read_inputs(&args.positions, args.game.as_deref());
    let total: usize = groups
        .iter()
        .map(|g| g.as_ref().map_or(0, |v| v.len()))
        .sum();
    let mut k = 0;
    for group in groups {
        let entries = match group {
            Ok(e) => e,
            Err(msg) => {
                eprintln!("error: {msg}");
                bad_input = true;
                continue;
            }
        };
        for mut entry in entries {
            if let Some(rule) = repetition {
                match entry.position.clone().with_repetition(rule) {
                    Ok(p) => entry.position = p,
                    Err(e) => {
                        eprintln!("error: {}:{}:1: --repetition: {e}", entry.name, entry.line);
                        bad_input = true;
                        continue;
                    }
                }
            }
            if let Some(n) = args.within {
                entry.position = entry.position.within(n);
            }
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
            k += 1;
            let mut samples: Vec<StatsSample> = Vec::new();
            let status = if formats.is_empty() {
                search::run(s.as_mut(), &budget, None)
            } else {
                search::run_sampled(s.as_mut(), &budget, None, &mut samples)
            };
            let q = setup.root_question();
            let proof = match (&args.proof, status) {
                (Some(base), Status::Proved | Status::Disproved) => {
                    let path = proof_path(base, proofs_written);
                    proofs_written += 1;
                    Some(write_proof(&path, s.as_ref(), &setup)?)
                }
                _ => None,
            };
            let facts = RunFacts::of(s.as_ref());
            let record = RunRecord {
                entry: &entry,
                algo: info.name,
                params: &params,
                seed: args.seed,
                question: q,
                status,
                counters: s.counters(),
                facts: &facts,
            };
            let line = if args.json {
                let mut obj = record.fields();
                if let Some((path, n)) = &proof {
                    obj.insert("proof_file".into(), json!(path.display().to_string()));
                    obj.insert("proof_positions".into(), json!(n));
                }
                Value::Object(obj).to_string()
            } else {
                let mut line = human_line(&entry, &q, status, s.as_ref());
                if let Some((path, n)) = &proof {
                    line.push_str(&format!(
                        ", certificate ({n} positions) written to {}",
                        path.display()
                    ));
                }
                line
            };
            // (A closed pipe ends the process here: no more positions
            // are solved for nobody.)
            outln!("{line}");
            if formats.is_empty() {
                continue;
            }
            let snapshot = s.snapshot(&view);
            let wants_csv = formats.iter().any(|(_, f)| *f == ExportFormat::Csv);
            let correct = if wants_csv {
                let best = entry
                    .expected
                    .as_ref()
                    .map(|e| e.best_moves.clone())
                    .unwrap_or_default();
                correct_moves::for_position(
                    &entry.position,
                    &q,
                    &best,
                    correct_moves::DEFAULT_MAX_POSITIONS,
                )
            } else {
                None
            };
            let input = ExportInput {
                snapshot: &snapshot,
                samples: &samples,
                correct: correct.as_ref(),
                record: &record,
            };
            for (path, format) in &formats {
                let path = numbered(path, k, total);
                let text = export::render(*format, &input);
                if let Err(e) = export::write(&path, text.as_bytes()) {
                    eprintln!("error: {e}");
                    write_failed = true;
                }
            }
        }
    }
    Ok(if bad_input {
        ExitCode::from(2)
    } else if write_failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the certificate of a solved search to `path` (atomically);
/// returns the path and the certificate's number of positions.
fn write_proof(
    path: &Path,
    s: &dyn search::Search,
    setup: &SearchSetup,
) -> Result<(std::path::PathBuf, usize), UserError> {
    let (cert, stats) = search::proof::certificate(s, setup, PROOF_WRITER_BUDGET)
        .map_err(|e| UserError(format!("--proof {}: {e}", path.display())))?;
    pnlab::experiments::write_atomic(path, cert.to_text().as_bytes())
        .map_err(|e| UserError(format!("--proof: {e}")))?;
    Ok((path.to_path_buf(), stats.positions))
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
