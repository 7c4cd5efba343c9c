//! Argument parsing and the subcommands. Errors a user can cause are
//! printed as `error: …` and give exit status 2 (docs/cli.md).
//!
//! Every line a subcommand prints goes through [`outln!`], which keeps the
//! closed-pipe convention: when nobody reads standard output any more
//! (`pnlab solve … | head -1`), the process ends at once, quietly, with
//! exit status 0 — the same whether the reader left before or after the
//! last line was written.

/// `println!` for the subcommands' standard output (see the module
/// documentation): a closed pipe ends the process with status 0, another
/// write error with a message and status 1.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::print_line(format_args!($($arg)*))
    };
}

mod bench;
mod bench_depth;
mod bench_live;
mod error;
mod experiment;
mod lesson;
mod perft;
mod rscn;
mod scn;
mod serve;
mod solve;
mod tune;
mod verify;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
pub use error::{UsageError, UserError};

/// A laboratory for proof-number search. With no subcommand, opens the app.
#[derive(Parser, Debug)]
#[command(name = "pnlab", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// App: open this position file (the same as `--open FILE`).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// App: open this position file at start.
    #[arg(long, value_name = "FILE")]
    pub open: Option<PathBuf>,
    /// App: which position of the file to start on (1-based; default 1).
    #[arg(long, value_name = "K")]
    pub entry: Option<usize>,
    /// App: algorithm to select at start.
    #[arg(long, value_name = "ALGO")]
    pub algo: Option<String>,
    /// App: parameter NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// App: open the RSCN game-progress view at start (the opened game
    /// record's moves, or self-play from the opened position).
    #[arg(long)]
    pub rscn: bool,
    /// Let position files and lessons name files by absolute path or
    /// outside their own folder (refused by default, since such files
    /// often come from others).
    #[arg(long, global = true)]
    pub allow_absolute_paths: bool,
    /// The app's window flags (also taken by `pnlab lesson FILE`).
    #[command(flatten)]
    pub app: AppFlags,
}

/// How the app's window starts and what a scripted run writes: the same
/// flags for `pnlab [FILE]` and `pnlab lesson FILE`.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct AppFlags {
    /// App: run this many iterations after loading.
    #[arg(long, value_name = "N")]
    pub autoplay: Option<u64>,
    /// App: save a PNG screenshot of the window after autoplay, then exit.
    #[arg(long, value_name = "OUT.png")]
    pub screenshot: Option<PathBuf>,
    /// App: start in presenter mode (the tree fills the window under a
    /// caption bar; F5 toggles, Esc leaves).
    #[arg(long)]
    pub present: bool,
    /// App: the window's size in points, `WxH` (screenshots at projector
    /// resolutions such as 1024x768).
    #[arg(long, value_name = "WxH")]
    pub window: Option<String>,
    /// App: with a lesson, the step to start on (1-based; default 1).
    #[arg(long, value_name = "K")]
    pub step: Option<usize>,
    /// App: after autoplay, write what the panels show as one JSON object
    /// (position, game, algo, status, iteration, outcome, best_move,
    /// correct_moves, error, counters), then exit.
    #[arg(long, value_name = "OUT.json")]
    pub state: Option<PathBuf>,
    /// App: how the search is driven: `thread` (a search thread, the
    /// desktop default) or `cooperative` (stepped on the window's thread
    /// within a per-frame budget, as in a browser).
    #[arg(long, value_name = "DRIVER")]
    pub driver: Option<String>,
}

/// The command line's description, with the help texts that depend on
/// the machine filled in (the default memory budget).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let mib = pnlab::params::bounds::default_memory_mib();
    let memory = format!(
        "Memory budget for the tree or table, in MiB [default: {mib}, half of this machine's memory]; a run that reaches it stops with stop reason `memory`"
    );
    Cli::command().mut_subcommand("solve", |c| c.mut_arg("memory", |a| a.help(memory)))
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve positions (files, inline notation, or `-` for stdin).
    Solve(solve::SolveArgs),
    /// Count the leaves of the legal-move tree to a depth.
    Perft(perft::PerftArgs),
    /// Fixed, seeded performance suite.
    Bench(bench::BenchArgs),
    /// Reproduce a paper's experiment (CSV + JSON summary).
    // `experiment NAME --help` lists NAME's settings, so the subcommand
    // handles `--help` itself (see `experiment::run`).
    #[command(disable_help_flag = true)]
    Experiment(experiment::ExperimentArgs),
    /// Hill-climb Deep df-pn's (E, D) on a position (thesis Algorithm 1).
    Tune(tune::TuneArgs),
    /// Check a proof certificate (from `solve --proof`) with the game rules alone.
    Verify(verify::VerifyArgs),
    /// Value and single-conspiracy-number curves per depth (alpha-beta).
    Scn(scn::ScnArgs),
    /// Relative single conspiracy numbers along a game or self-play.
    Rscn(rscn::RscnArgs),
    /// Lessons: check them headless (`--check PATH...`), print their
    /// answer key, write their frames, or open one in the app.
    Lesson(lesson::LessonArgs),
    /// Serve the web page, the lessons and live classes (students answer
    /// on their own devices) over HTTP.
    Serve(serve::ServeArgs),
}

/// Moves arguments that are board positions starting with `-` (Othello
/// OBF boards such as `---------------------------OX--… X`) behind a `--`
/// so the argument parser does not read them as options; positions keep
/// their relative order. Only `solve` takes several positions.
pub fn board_args_last(args: Vec<OsString>) -> Vec<OsString> {
    let looks_like_board = |a: &OsString| {
        a.to_str().is_some_and(|s| {
            s.len() >= 16
                && s.starts_with('-')
                && s.chars()
                    .all(|c| matches!(c, '-' | 'X' | 'O' | 'x' | 'o' | ' ' | ';'))
        })
    };
    if !args.iter().any(looks_like_board) || args.iter().any(|a| a == "--") {
        return args;
    }
    let (boards, mut rest): (Vec<OsString>, Vec<OsString>) =
        args.into_iter().partition(looks_like_board);
    rest.push(OsString::from("--"));
    rest.extend(boards);
    rest
}

/// Splits `NAME=VALUE`.
pub fn parse_pair(s: &str) -> Result<(String, String), UserError> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(UsageError::NotAPair(s.to_string()).into()),
    }
}

/// Every `--set NAME=VALUE` flag as a pair, or the error naming the first
/// that is not one.
pub fn parse_pairs(set: &[String]) -> Result<Vec<(String, String)>, UserError> {
    set.iter().map(|s| parse_pair(s)).collect()
}

/// Runs the parsed command line; user errors become `error: …` and exit 2.
pub fn run(mut cli: Cli) -> ExitCode {
    pnlab::positions::reference::allow_outside(cli.allow_absolute_paths);
    let result = match cli.command.take() {
        Some(Command::Solve(a)) => solve::run(a),
        Some(Command::Perft(a)) => perft::run(a),
        Some(Command::Bench(a)) => bench::run(a),
        Some(Command::Experiment(a)) => experiment::run(a),
        Some(Command::Tune(a)) => tune::run(a),
        Some(Command::Verify(a)) => verify::run(a),
        Some(Command::Scn(a)) => scn::run(a),
        Some(Command::Rscn(a)) => rscn::run(a),
        Some(Command::Lesson(a)) => lesson::run(a),
        Some(Command::Serve(a)) => serve::run(a),
        None if cli
            .open
            .as_ref()
            .or(cli.file.as_ref())
            .is_some_and(|p| pnlab::lesson::is_lesson_path(p)) =>
        {
            let path = cli.open.or(cli.file).unwrap_or_default();
            match pnlab::lesson::Lesson::load_file(&path) {
                Ok(l) => open_lesson(l, &cli.app),
                Err(e) => Err(e.into()),
            }
        }
        None => open_app(cli),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// How the app window starts: `--present`, `--window WxH`, `--step K`.
/// (Read by the app only: a build without it checks them and says why
/// it cannot open a window.)
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
pub(crate) struct ViewOptions {
    present: bool,
    window: Option<(f32, f32)>,
    step: Option<usize>,
}

/// Reads `--present`, `--window WxH` and `--step K`.
fn view_options(
    present: bool,
    window: Option<&str>,
    step: Option<usize>,
) -> Result<ViewOptions, UserError> {
    let window = match window {
        None => None,
        Some(w) => {
            let parsed = w
                .split_once(['x', 'X'])
                .and_then(|(a, b)| {
                    Some((a.trim().parse::<f32>().ok()?, b.trim().parse::<f32>().ok()?))
                })
                .filter(|&(a, b)| {
                    (200.0..=10_000.0).contains(&a) && (200.0..=10_000.0).contains(&b)
                });
            match parsed {
                Some(size) => Some(size),
                None => {
                    return Err(UsageError::BadValue {
                        flag: "--window",
                        value: w.to_string(),
                        expected: "WIDTHxHEIGHT in points, each 200 to 10000, such as 1024x768",
                    }
                    .into())
                }
            }
        }
    };
    Ok(ViewOptions {
        present,
        window,
        step,
    })
}

/// Writes one line to standard output for [`outln!`]. Rust leaves
/// SIGPIPE ignored, so a write to a pipe whose reader is gone fails with
/// `BrokenPipe` instead of killing the process (whose status, 141 or 0,
/// would then depend on whether the reader left before the last write);
/// that failure ends the process with status 0 every time.
pub fn print_line(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// Opens the app with the command line's app flags (no subcommand).
#[cfg(feature = "gui")]
fn open_app(cli: Cli) -> Result<ExitCode, UserError> {
    let view = view_options(cli.app.present, cli.app.window.as_deref(), cli.app.step)?;
    let driver = driver_kind(&cli.app)?;
    let set = parse_pairs(&cli.set)?;
    let opts = pnlab::app::LaunchOptions {
        open: cli.open.or(cli.file),
        entry: cli.entry,
        algo: cli.algo,
        set,
        autoplay: cli.app.autoplay,
        screenshot: cli.app.screenshot,
        rscn: cli.rscn,
        state: cli.app.state,
        driver,
        position: None,
        lesson: None,
        present: view.present,
        window: view.window,
        step: view.step,
    };
    match pnlab::app::run_app(opts) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(e.exit_code()))
        }
    }
}

/// `--driver thread|cooperative`.
#[cfg(feature = "gui")]
fn driver_kind(flags: &AppFlags) -> Result<Option<pnlab::app::driver::DriverKind>, UserError> {
    match flags.driver.as_deref() {
        None => Ok(None),
        Some("thread") => Ok(Some(pnlab::app::driver::DriverKind::Thread)),
        Some("cooperative") => Ok(Some(pnlab::app::driver::DriverKind::Cooperative)),
        Some(other) => Err(UsageError::BadValue {
            flag: "--driver",
            value: other.to_string(),
            expected: "`thread` or `cooperative`",
        }
        .into()),
    }
}

/// Opens the app on a lesson with the app's flags (`pnlab FILE.lesson.toml
/// …` and `pnlab lesson FILE …` alike), played from `--step K` or its
/// first step (→ / Space next, ← previous).
#[cfg(feature = "gui")]
fn open_lesson(l: pnlab::lesson::Lesson, flags: &AppFlags) -> Result<ExitCode, UserError> {
    let view = view_options(flags.present, flags.window.as_deref(), flags.step)?;
    if let Some(k) = view.step {
        if k == 0 || k > l.len() {
            return Err(UsageError::NoSuchStep {
                step: k,
                lesson: l.title.clone(),
                steps: l.len(),
            }
            .into());
        }
    }
    let opts = pnlab::app::LaunchOptions {
        lesson: Some(l),
        autoplay: flags.autoplay,
        screenshot: flags.screenshot.clone(),
        state: flags.state.clone(),
        driver: driver_kind(flags)?,
        present: view.present,
        window: view.window,
        step: view.step,
        ..Default::default()
    };
    match pnlab::app::run_app(opts) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(e.exit_code()))
        }
    }
}

/// Without the GUI a lesson can only be played headless.
#[cfg(not(feature = "gui"))]
fn open_lesson(_l: pnlab::lesson::Lesson, flags: &AppFlags) -> Result<ExitCode, UserError> {
    view_options(flags.present, flags.window.as_deref(), flags.step)?;
    Err(UsageError::NotBuiltWith {
        feature: error::Feature::Gui,
        consequence: ", so it cannot open a lesson in the app; `pnlab lesson --check FILE` plays it headless",
    }
    .into())
}

#[cfg(not(feature = "gui"))]
fn open_app(_cli: Cli) -> Result<ExitCode, UserError> {
    Err(UsageError::NotBuiltWith {
        feature: error::Feature::Gui,
        consequence: "; use a subcommand (see --help)",
    }
    .into())
}
