//! The command-line contract (CLI.md): JSON fields, exit codes, and clear
//! errors with file, line and column on bad input.

use std::io::Write;
use std::process::{Command, Stdio};

fn pnlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .output()
        .expect("run pnlab");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn pnlab_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pnlab");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const REQUIRED_FIELDS: &[&str] = &[
    "name",
    "game",
    "position",
    "algo",
    "params",
    "seed",
    "outcome",
    "answer",
    "best_move",
    "iterations",
    "nodes_created",
    "nodes_expanded",
    "max_depth",
    "seesaw_root_switches",
    "seesaw_switches",
    "revisits",
    "time_ms",
    "peak_tree_bytes",
    "stop_reason",
];

#[test]
fn json_line_has_every_contract_field() {
    let (code, out, err) = pnlab(&["solve", "--game", "tictactoe", ".........", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON line");
    for f in REQUIRED_FIELDS {
        assert!(v.get(f).is_some(), "missing field {f} in {out}");
    }
    // Tic-tac-toe is a draw: the first player does not win, but does not lose.
    assert_eq!(v["outcome"], "disproved");
    assert_eq!(v["answer"], "not-win");
    assert_eq!(v["stop_reason"], "solved");
}

#[test]
fn not_lose_question_proves_the_draw() {
    let (code, out, _) = pnlab(&[
        "solve",
        "--game",
        "tictactoe",
        ".........",
        "--question",
        "not-lose",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["outcome"], "proved");
    assert_eq!(v["answer"], "not-lose");
}

#[test]
fn stdin_gives_one_line_per_position() {
    let (code, out, err) = pnlab_stdin(
        &["solve", "--game", "tictactoe", "-", "--json"],
        "x...o....\n\nxo.......\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn iteration_budget_ends_unknown() {
    let (code, out, _) = pnlab(&[
        "solve",
        "--game",
        "tictactoe",
        ".........",
        "--json",
        "--max-iterations",
        "10",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["outcome"], "unknown");
    assert_eq!(v["stop_reason"], "max-iterations");
    assert_eq!(v["iterations"], 10);
}

#[test]
fn illegal_inline_position_exits_2_with_column() {
    let (code, out, err) = pnlab(&["solve", "--game", "tictactoe", "x..?....."]);
    assert_eq!(code, 2);
    assert!(
        out.is_empty(),
        "nothing on stdout for a bad position: {out}"
    );
    assert!(err.starts_with("error: <inline>:1:4:"), "{err}");
}

#[test]
fn unknown_game_lists_the_games() {
    let (code, _, err) = pnlab(&["solve", "--game", "chess", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown game `chess`"), "{err}");
    assert!(err.contains("othello"), "{err}");
}

#[test]
fn unknown_parameter_lists_the_valid_ones() {
    let (code, _, err) = pnlab(&["solve", "--game", "tictactoe", ".........", "--set", "Q=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown parameter `Q`"), "{err}");
    assert!(err.contains("tie (one of leftmost|deepest"), "{err}");
}

#[test]
fn bad_parameter_value_names_the_range() {
    let (code, _, err) = pnlab(&[
        "solve",
        "--game",
        "tictactoe",
        ".........",
        "--set",
        "tie=middle",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value `middle`"), "{err}");
}

#[test]
fn unknown_algorithm_exits_2() {
    let (code, _, err) = pnlab(&[
        "solve",
        "--game",
        "tictactoe",
        ".........",
        "--algo",
        "magic",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown algorithm `magic`"), "{err}");
}

#[test]
fn missing_file_without_game_exits_2() {
    let (code, _, err) = pnlab(&["solve", "no/such/file.obf"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.obf:1:1"), "{err}");
}

#[test]
fn bad_line_in_a_file_names_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("pnlab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.ttt");
    std::fs::write(&f, "x........\nxo.......\nxq.......\n").unwrap();
    let (code, _, err) = pnlab(&["solve", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ttt:3:2:"), "{err}");
}

#[test]
fn perft_prints_the_count() {
    let (code, out, _) = pnlab(&["perft", "--game", "tictactoe", ".........", "--depth", "5"]);
    assert_eq!(code, 0);
    // tests/data/tictactoe_facts.json: 15,120 move sequences of 5 plies.
    assert_eq!(out.trim(), "15120");
}

const OTHELLO_START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn node_time_and_memory_budgets_end_unknown_with_their_reason() {
    for (flag, value, reason) in [
        ("--max-nodes", "5000", "max-nodes"),
        ("--time-limit", "0.3", "time-limit"),
        ("--memory", "1", "memory"),
    ] {
        let (code, out, err) = pnlab(&[
            "solve",
            "--game",
            "othello",
            OTHELLO_START,
            flag,
            value,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["outcome"], "unknown", "{flag}");
        assert_eq!(v["stop_reason"], reason, "{flag}");
    }
}

#[test]
fn obf_boards_starting_with_a_dash_are_positions_not_options() {
    let (code, out, err) = pnlab(&[
        "solve",
        "--game",
        "othello",
        OTHELLO_START,
        "--max-iterations",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["position"], OTHELLO_START);
    assert_eq!(v["iterations"], 3);
}

#[test]
fn othello_perft_matches_published_counts() {
    // Published: 4, 12, 56, 244, 1396, 8200, 55092, 390216 (depths 1-8).
    let (code, out, _) = pnlab(&["perft", "--game", "othello", OTHELLO_START, "--depth", "8"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "390216");
}
