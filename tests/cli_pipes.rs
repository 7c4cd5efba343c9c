//! A closed standard output ends every subcommand quietly, as `ls | head`
//! does: no panic message, and the exit status is 0 or the conventional
//! death by SIGPIPE (141 in a shell), never Rust's panic status 101.

use std::process::{Command, Stdio};

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
    #[cfg(unix)]
    let by_sigpipe = {
        use std::os::unix::process::ExitStatusExt;
        status.signal() == Some(13)
    };
    #[cfg(not(unix))]
    let by_sigpipe = false;
    assert!(
        status.success() || by_sigpipe,
        "pnlab {args:?} with a closed stdout ended with {status:?}; stderr: {stderr}"
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "pnlab {args:?} printed: {stderr}"
    );
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
    assert_quiet(&[
        "bench",
        "--suite",
        "hex-4",
        "--algo",
        "pns",
        "--max-iterations",
        "10",
    ]);
}

#[test]
fn experiment_list() {
    assert_quiet(&["experiment"]);
}
