//! Every option of every subcommand, fed the values a careless or hostile
//! user gives (0, −1, NaN, ±infinity, 1e308, 1e20, u64::MAX): pnlab exits
//! 0 (the value is in range) or 2 with an `error:` line, and never panics
//! (Rust's status 101) or dies by a signal. The options are read from
//! each subcommand's `--help`, so an option added later is covered
//! without editing this list. Values that are out of range for a number
//! option (a negative or NaN time, a zero memory budget) must be exit 2
//! naming the option.

use std::path::{Path, PathBuf};

use crate::cli_runs;
use crate::common::pnlab_output as pnlab;

const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "NaN",
    "inf",
    "-inf",
    "1e308",
    "1e20",
    "18446744073709551615",
];

/// The long options that take a value, as `--help` lists them
/// (`--name <VALUE>`).
fn value_options(sub: &str, dir: &Path) -> Vec<String> {
    let out = pnlab(&[sub.to_string(), "--help".to_string()], dir);
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut names = Vec::new();
    for line in help.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("-h, ").unwrap_or(t);
        if let Some(rest) = t.strip_prefix("--") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if rest[name.len()..].starts_with(" <") || rest[name.len()..].starts_with("=<") {
                names.push(name);
            }
        }
    }
    assert!(
        !names.is_empty(),
        "no options found in `pnlab {sub} --help`:\n{help}"
    );
    names
}

/// A scratch folder for one subcommand's runs (files named `0`, `inf`, …
/// by path options land here).
fn scratch(sub: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pnlab-extremes-{}-{sub}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `base` with `--opt` (and its value) removed, then `--opt=value`.
fn with_option(base: &[&str], opt: &str, value: &str) -> Vec<String> {
    let flag = format!("--{opt}");
    let mut out: Vec<String> = Vec::new();
    let mut skip = false;
    for a in base {
        if skip {
            skip = false;
            continue;
        }
        if *a == flag {
            skip = true;
            continue;
        }
        out.push(a.to_string());
    }
    out.push(format!("{flag}={value}"));
    out
}

/// The number options whose extremes other than an in-range 0 or
/// u64::MAX are out of range: exit 2, naming the option.
const NUMBER_OPTIONS: &[&str] = &[
    "within",
    "max-iterations",
    "max-nodes",
    "time-limit",
    "memory",
    "seed",
    "threads",
    "export-depth",
    "export-nodes",
    "depth",
    "ui-max-nodes",
    "jobs",
    "game-index",
    "max-plies",
];

fn check_subcommand(sub: &str, base: &[&str]) {
    let dir = scratch(sub);
    let root = env!("CARGO_MANIFEST_DIR");
    let base: Vec<String> = base.iter().map(|a| a.replace("$ROOT", root)).collect();
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    for opt in value_options(sub, &dir) {
        for value in EXTREMES {
            let args = with_option(&base, &opt, value);
            let out = pnlab(&args, &dir);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let code = out.status.code();
            assert!(
                matches!(code, Some(0) | Some(2)),
                "pnlab {args:?} ended with {:?}; stderr: {stderr}",
                out.status
            );
            assert!(
                !stderr.contains("panicked"),
                "pnlab {args:?} panicked: {stderr}"
            );
            if code == Some(2) {
                assert!(
                    stderr.contains("error"),
                    "pnlab {args:?} exit 2 without an error line: {stderr}"
                );
            }
            // A time limit and a memory budget have no in-range extreme.
            let bad_number = matches!(opt.as_str(), "time-limit" | "memory")
                || !matches!(*value, "0" | "18446744073709551615" | "1e20");
            if NUMBER_OPTIONS.contains(&opt.as_str()) && bad_number {
                assert_eq!(code, Some(2), "pnlab {args:?} accepted {value}");
                assert!(
                    stderr.contains(&opt),
                    "pnlab {args:?}: the error does not name --{opt}: {stderr}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve() {
    check_subcommand(
        "solve",
        &["solve", "--game", "tictactoe", "xx.oo....", "--algo", "pns"],
    );
}

#[test]
fn perft() {
    check_subcommand(
        "perft",
        &["perft", "--game", "tictactoe", "xx.oo....", "--depth", "2"],
    );
}

#[test]
fn scn() {
    check_subcommand("scn", cli_runs::SCN);
}

#[test]
fn rscn() {
    check_subcommand("rscn", cli_runs::RSCN);
}

#[test]
fn tune() {
    check_subcommand("tune", cli_runs::TUNE);
}

#[test]
fn bench() {
    check_subcommand("bench", cli_runs::BENCH);
}

#[test]
fn experiment() {
    // `merge` of shards that do not exist: every option is read and
    // checked, and the run ends at once (exit 2) when they are good.
    check_subcommand(
        "experiment",
        &["experiment", "merge", "out", "no-such-shard"],
    );
}

#[test]
fn lesson() {
    check_subcommand(
        "lesson",
        &[
            "lesson",
            "$ROOT/lessons/01-and-or-trees.lesson.toml",
            "--answers",
        ],
    );
}
