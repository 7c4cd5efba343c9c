//! A closed standard output ends every subcommand quietly and the same
//! way every time (docs/cli.md): no message, exit status 0 — whether the
//! reader was gone before the first line or left after reading one, as
//! `pnlab … | head -1` does. Never Rust's panic status 101, never a death
//! by SIGPIPE (141 in a shell), whose timing would decide the status.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::cli_runs;

/// Runs pnlab with a standard output whose reading end is already closed,
/// so its very first write fails; returns (exit status, stderr).
fn with_closed_stdout(args: &[&str]) -> (std::process::ExitStatus, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("run pnlab");
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_quiet(args: &[&str]) {
    let (status, stderr) = with_closed_stdout(args);
    assert_eq!(
        status.code(),
        Some(0),
        "pnlab {args:?} with a closed stdout ended with {status:?}; stderr: {stderr}"
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "pnlab {args:?} printed: {stderr}"
    );
}

/// Runs pnlab with `input` on its standard input, reads its first line
/// and closes the pipe, as `head -1` does; returns the exit status and the
/// line.
fn first_line_then_close(args: &[&str], input: &str) -> (std::process::ExitStatus, String) {
    let mut child = crate::common::spawn_with_input(args, input, Stdio::null());
    let mut line = String::new();
    let mut reader = BufReader::new(child.stdout.take().expect("piped"));
    reader.read_line(&mut line).expect("a first line");
    drop(reader);
    (child.wait().expect("wait"), line)
}

/// The race of issue #26 (141 on one run, 0 on the next): the reader
/// leaves after the first line while pnlab may or may not have written
/// the rest; every run ends with status 0. The second command writes more
/// than a pipe holds (300 JSON lines), so pnlab is still writing when the
/// reader leaves: with SIGPIPE's default action it died every time.
#[test]
fn head_1_gives_status_0_every_time() {
    let many = ".........\n".repeat(300);
    let commands: [(&[&str], &str); 2] = [
        (
            &[
                "perft",
                "--game",
                "tictactoe",
                ".........",
                "--depth",
                "3",
                "--divide",
            ],
            "",
        ),
        (&["solve", "--game", "tictactoe", "-", "--json"], &many),
    ];
    for (args, input) in commands {
        for _ in 0..8 {
            let (status, line) = first_line_then_close(args, input);
            assert!(!line.is_empty(), "{args:?}");
            assert_eq!(status.code(), Some(0), "{args:?}: {status:?}");
        }
    }
}

#[test]
fn solve_list_algos() {
    assert_quiet(&["solve", "--list-algos"]);
}

#[test]
fn solve_positions_stops_at_the_closed_pipe() {
    assert_quiet(&[
        "solve",
        "--game",
        "tictactoe",
        ".........",
        "x........",
        "xo.......",
        "--json",
    ]);
}

#[test]
fn perft() {
    assert_quiet(&[
        "perft",
        "--game",
        "tictactoe",
        ".........",
        "--depth",
        "2",
        "--divide",
    ]);
}

#[test]
fn bench() {
    assert_quiet(cli_runs::BENCH);
}

#[test]
fn experiment_list() {
    assert_quiet(&["experiment"]);
}

#[test]
fn lesson_check() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/lessons");
    assert_quiet(&["lesson", "--check", dir]);
}

#[test]
fn lesson_answers() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/lessons/01-and-or-trees.lesson.toml"
    );
    assert_quiet(&["lesson", file, "--answers"]);
}

#[test]
fn verify() {
    let dir = std::env::temp_dir().join(format!("pnlab-pipes-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("t.cert");
    let cert = cert.to_str().unwrap();
    let made = Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(["solve", "--game", "tictactoe", "xx.oo....", "--proof", cert])
        .output()
        .expect("run pnlab");
    assert!(made.status.success(), "{made:?}");
    assert_quiet(&["verify", cert]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scn() {
    assert_quiet(cli_runs::SCN);
}

#[test]
fn rscn() {
    assert_quiet(cli_runs::RSCN);
}

#[test]
fn tune() {
    assert_quiet(cli_runs::TUNE);
}

#[test]
fn experiment_settings_help() {
    assert_quiet(&["experiment", "eps-sweep", "--help"]);
}

/// The subcommands write their standard output through one function
/// (`outln!`, which ends quietly on a closed pipe): a `println!` in
/// their code would panic on one instead.
#[test]
fn no_subcommand_prints_around_the_closed_pipe_path() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cli");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            // (Standard error is not standard output.)
            let code = code.replace("eprintln!(", "").replace("eprint!(", "");
            assert!(
                !code.contains("println!(") && !code.contains("print!("),
                "{}:{}: prints to stdout around `outln!`: {line}",
                path.display(),
                i + 1
            );
        }
    }
}
