//! `pnlab solve`: one result per position, in input order (docs/cli.md).
//! The flow itself (reading, searching, certificates, exports, the
//! record) is the engine's [`pnlab::solve`]; this file maps the flags to
//! a request and prints.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use pnlab::game::xiangqi::Repetition;
use pnlab::search::{self, params, Algorithm, QuestionKind};
use pnlab::solve::{SolveRecord, SolveRequest, Solver};

use super::{parse_pairs, UserError};

pub(super) use pnlab::solve::read_inputs;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Position files, inline positions (with --game) or `-` for stdin.
    /// (OBF boards that start with `-` are recognised anywhere on the line.)
    #[arg(value_name = "POSITION")]
    pub positions: Vec<String>,
    /// Game of inline positions.
    #[arg(long, value_enum)]
    pub game: Option<pnlab::game::GameKind>,
    /// The mate question: the attacker must win within N of its own moves
    /// (any game; a position at the horizon counts as not won). Replaces a
    /// file's `within`.
    #[arg(long, value_name = "N")]
    pub within: Option<u32>,
    /// Xiangqi repetition rule: draw (default), perpetual-check-loses or
    /// none. Replaces a file's `repetition`.
    #[arg(long, value_name = "RULE", value_parser = parse_repetition)]
    pub repetition: Option<Repetition>,
    /// Solve only the K-th position (1-based) of the inputs, counted
    /// across them in order.
    #[arg(long, value_name = "K")]
    pub entry: Option<usize>,
    /// Algorithm (see `--list-algos`).
    #[arg(long, default_value = search::DEFAULT_ALGO, value_parser = parse_algorithm)]
    pub algo: Algorithm,
    /// Algorithm parameter NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// The attacker's question: does the side to move win, or at least
    /// draw? `score`: its exact score (Connect Four: Pons's score;
    /// Othello: the final disc difference), with dfpn-fast.
    #[arg(long, default_value = "win", value_parser = parse_question)]
    pub question: QuestionKind,
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
    /// Verify each answer's certificate in memory before printing it:
    /// `"certified": true` and stop reason `certified` in --json; an
    /// answer that fails the check is printed `unknown` (stop reason
    /// `uncertified`) and the exit status is 1.
    #[arg(long)]
    pub certify: bool,
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

/// `--algo NAME`: the registry's handle (an unknown name lists the
/// known ones).
fn parse_algorithm(name: &str) -> Result<Algorithm, search::SearchError> {
    name.parse()
}

/// `--question WORD`.
fn parse_question(word: &str) -> Result<QuestionKind, search::UnknownQuestion> {
    word.parse()
}

/// `--repetition RULE`.
fn parse_repetition(
    name: &str,
) -> Result<Repetition, pnlab::game::xiangqi::repetition::UnknownRepetition> {
    Repetition::from_name(name)
}

pub fn run(args: SolveArgs) -> Result<ExitCode, UserError> {
    if args.list_algos {
        for a in search::algorithms() {
            outln!("{:<12} {}", a.name, a.summary);
            outln!("{:<12} parameters: {}", "", params::describe(a.params));
            for (game, own) in a.game_params {
                outln!(
                    "{:<12} on {} positions also: {}",
                    "",
                    game.name(),
                    params::describe(own)
                );
            }
            if a.game_options {
                outln!(
                    "{:<12} on connect, connect6 positions also: {}",
                    "",
                    params::describe(pnlab::game::GameKind::Connect6.search_options())
                );
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let request = SolveRequest {
        positions: args.positions,
        game: args.game,
        entry: args.entry,
        algo: args.algo,
        settings: parse_pairs(&args.set)?,
        threads: args.threads,
        question: args.question,
        within: args.within,
        repetition: args.repetition,
        max_iterations: args.max_iterations,
        max_nodes: args.max_nodes,
        time_limit: args.time_limit,
        memory_mib: args.memory,
        seed: args.seed,
        proof: args.proof,
        certify: args.certify,
        exports: args.export,
        export_depth: args.export_depth,
        export_nodes: args.export_nodes,
    };
    let mut solver = Solver::new(request)?;
    let mut bad_input = false;
    let mut write_failed = false;
    solver.solve_all(None, |result| {
        let solved = match result {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                bad_input = true;
                return ControlFlow::Continue(());
            }
        };
        let line = if args.json {
            solved.record.to_line()
        } else {
            human_line(&solved.record)
        };
        // (A closed pipe ends the process here: no more positions are
        // solved for nobody.)
        outln!("{line}");
        for e in &solved.export_errors {
            eprintln!("error: {e}");
            write_failed = true;
        }
        if let Some(e) = &solved.record.certify_error {
            eprintln!("error: {}: not certified: {e}", solved.record.name);
            write_failed = true;
        }
        ControlFlow::Continue(())
    })?;
    Ok(if bad_input {
        ExitCode::from(2)
    } else if write_failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The short human summary of one record.
fn human_line(r: &SolveRecord) -> String {
    let mut line = format!(
        "{}: {} ({}) after {} iterations, {} nodes, {:.1} ms",
        r.name,
        r.outcome,
        r.answer,
        r.counters.iterations,
        r.counters.nodes_created,
        r.counters.time_ms
    );
    if !r.outcome.is_answered() {
        line.push_str(&format!(", stopped: {}", r.stop_reason));
    }
    if let Some(m) = &r.best_move {
        line.push_str(&format!(", best move {m}"));
    }
    if let Some(v) = r.extra.get("score").filter(|v| !v.is_null()) {
        line.push_str(&format!(", score {v}"));
    }
    if let Some(v) = r.extra.get("value") {
        line.push_str(&format!(", value {v}"));
    }
    if let (Some(path), Some(n)) = (&r.proof_file, r.proof_positions) {
        line.push_str(&format!(", certificate ({n} positions) written to {path}"));
    }
    if r.certified == Some(true) {
        line.push_str(&format!(
            ", certified ({} positions checked in {:.1} ms)",
            r.proof_positions.unwrap_or(0),
            r.certify_ms.unwrap_or(0.0)
        ));
    }
    line
}
