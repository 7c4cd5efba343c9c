//! The command-line contract (docs/cli.md): JSON fields, exit codes, and clear
//! errors with file, line and column on bad input.

use std::path::{Path, PathBuf};

use pnlab::experiments::EXPERIMENTS;
use pnlab::search::{ListItem, ParamKind, ParamValue};

use crate::common;
use common::{pnlab, pnlab_json, pnlab_refused, pnlab_stdin};

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

/// `pnlab solve` of the empty tic-tac-toe board (a draw, by the rules)
/// with `flags` and `--json`, which must succeed: its record.
fn solve_empty_tictactoe(flags: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve", "--game", "tictactoe", ".........", "--json"];
    args.extend(flags);
    pnlab_json(&args)
}

#[test]
fn json_line_has_every_contract_field() {
    let v = solve_empty_tictactoe(&[]);
    for f in REQUIRED_FIELDS {
        assert!(v.get(f).is_some(), "missing field {f} in {v}");
    }
    // Tic-tac-toe is a draw: the first player does not win, but does not lose.
    assert_eq!(v["outcome"], "disproved");
    assert_eq!(v["answer"], "not-win");
    assert_eq!(v["stop_reason"], "solved");
}

#[test]
fn not_lose_question_proves_the_draw() {
    let v = solve_empty_tictactoe(&["--question", "not-lose"]);
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
    let v = solve_empty_tictactoe(&["--max-iterations", "10"]);
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
    // The values come from the game table, so none is missing (`ewn`
    // was once left out of a hand-written list).
    for cmd in ["solve", "perft", "scn", "tune"] {
        let err = pnlab_refused(&[cmd, "--game", "chess", "x"]);
        assert!(err.contains("invalid value 'chess'"), "{cmd}: {err}");
        for g in pnlab::game::GameKind::ALL {
            assert!(
                err.contains(g.name()),
                "{cmd}: {} missing in {err}",
                g.name()
            );
        }
    }
}

/// An unknown parameter, a value out of a parameter's range and an
/// unknown algorithm: each exits 2 with a message naming what was wrong
/// (and, for an unknown parameter, the valid ones).
#[test]
fn bad_parameters_and_algorithms_exit_2_naming_what_is_valid() {
    let cases: [(&str, &str, &[&str]); 3] = [
        (
            "--set",
            "Q=1",
            &["unknown parameter `Q`", "tie (one of leftmost|deepest"],
        ),
        ("--set", "tie=middle", &["invalid value `middle`"]),
        ("--algo", "magic", &["unknown algorithm `magic`"]),
    ];
    for (flag, value, expected) in cases {
        let err = pnlab_refused(&["solve", "--game", "tictactoe", ".........", flag, value]);
        for words in expected {
            assert!(
                err.contains(words),
                "{flag} {value}: `{words}` missing in {err}"
            );
        }
    }
}

#[test]
fn missing_file_without_game_exits_2() {
    let err = pnlab_refused(&["solve", "no/such/file.obf"]);
    assert!(err.contains("no/such/file.obf:1:1"), "{err}");
}

#[test]
fn bad_line_in_a_file_names_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("pnlab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.ttt");
    std::fs::write(&f, "x........\nxo.......\nxq.......\n").unwrap();
    let err = pnlab_refused(&["solve", f.to_str().unwrap()]);
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
        let v = pnlab_json(&[
            "solve",
            "--game",
            "othello",
            OTHELLO_START,
            flag,
            value,
            "--json",
        ]);
        assert_eq!(v["outcome"], "unknown", "{flag}");
        assert_eq!(v["stop_reason"], reason, "{flag}");
    }
}

#[test]
fn obf_boards_starting_with_a_dash_are_positions_not_options() {
    let v = pnlab_json(&[
        "solve",
        "--game",
        "othello",
        OTHELLO_START,
        "--max-iterations",
        "3",
        "--json",
    ]);
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

// `pnlab solve --export FILE`: the engine's exporters, which the app uses too.

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pnlab-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `pnlab solve --game tictactoe POSITIONS FLAGS --export FILE…`, which
/// must succeed: its standard output.
fn solve_exporting(positions: &[&str], flags: &[&str], exports: &[&Path]) -> String {
    let mut args = vec!["solve", "--game", "tictactoe"];
    args.extend(positions);
    args.extend(flags);
    for file in exports {
        args.extend(["--export", file.to_str().unwrap()]);
    }
    let (code, out, err) = pnlab(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

#[test]
fn tree_exports_show_the_root_and_its_nine_moves() {
    let dir = temp_dir("tree");
    let (svg, dot) = (dir.join("tree.svg"), dir.join("tree.dot"));
    solve_exporting(
        &["........."],
        &["--max-iterations", "30", "--export-depth", "1"],
        &[&svg, &dot],
    );
    // The empty board has nine moves (the rules), so one level below the
    // root is ten nodes and nine edges.
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    // Nodes are outlined shapes (labels sit on plain white rectangles).
    let nodes = svg
        .lines()
        .filter(|l| {
            (l.starts_with("<rect x=") || l.starts_with("<circle ")) && l.contains("stroke=")
        })
        .count();
    assert_eq!(nodes, 10, "{svg}");
    let dot = std::fs::read_to_string(&dot).unwrap();
    assert!(dot.starts_with("digraph pnlab {"));
    assert_eq!(dot.matches("[shape=").count(), 10, "{dot}");
    assert_eq!(dot.matches(" -> ").count(), 9, "{dot}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn curves_csv_has_a_row_per_iteration_and_json_repeats_the_json_line() {
    let dir = temp_dir("curves");
    let (csv, json) = (dir.join("curves.csv"), dir.join("run.json"));
    let out = solve_exporting(&["........."], &["--json"], &[&csv, &json]);
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let iterations = line["iterations"].as_u64().unwrap();
    assert!(iterations > 10);
    let csv = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].starts_with("iteration,nodes,"), "{}", rows[0]);
    // Tic-tac-toe is small enough for the exhaustive check, so the error
    // columns are there.
    assert!(rows[0].ends_with(",best_child,best_child_correct,error_share"));
    // A sample before the first step and one after each (short runs are
    // sampled at every iteration).
    assert_eq!(rows.len() as u64, 1 + iterations + 1);
    let last: Vec<&str> = rows.last().unwrap().split(',').collect();
    assert_eq!(last[0], iterations.to_string());
    // Every first move of tic-tac-toe draws and none wins, so for "does
    // the first player win?" every move is as good: the final choice is
    // correct.
    assert_eq!(last[last.len() - 2], "true", "{last:?}");

    let exported: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for (k, v) in line.as_object().unwrap() {
        if k != "time_ms" {
            assert_eq!(&exported[k], v, "field {k}");
        }
    }
    for k in [
        "value_names",
        "root_children",
        "switch_events",
        "selection_path",
    ] {
        assert!(exported.get(k).is_some(), "{k} missing");
    }
    assert_eq!(exported["root_children"].as_array().unwrap().len(), 9);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn several_positions_write_numbered_files() {
    let dir = temp_dir("numbered");
    let out = dir.join("tree.dot");
    solve_exporting(
        &["x........", "xo......."],
        &["--max-iterations", "5"],
        &[&out],
    );
    assert!(dir.join("tree-1.dot").is_file());
    assert!(dir.join("tree-2.dot").is_file());
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_export_extension_exits_2_before_solving() {
    let (code, out, err) = pnlab(&[
        "solve",
        "--game",
        "tictactoe",
        ".........",
        "--export",
        "tree.png",
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("tree.png: unknown export format"), "{err}");
}

// `pnlab experiment NAME --help` and the checks of `--set NAME=VALUE` for
// every registered experiment: the help lists every setting with its
// default, and an unknown setting or a bad value is exit 2 with a message
// naming the valid settings or the range. None of these runs an
// experiment: the checks come before any work.

/// The standard error of `pnlab experiment NAME --set SETTING`, which
/// must be refused (exit 2) before the output folder, which does not
/// exist, is ever written.
fn experiment_refusal(name: &str, setting: &str) -> String {
    pnlab_refused(&[
        "experiment",
        name,
        "--quiet",
        "--out",
        "/nonexistent/pnlab-never-written",
        "--set",
        setting,
    ])
}

#[test]
fn help_lists_every_setting_with_its_default() {
    for e in EXPERIMENTS {
        for flag in ["--help", "-h"] {
            let (code, out, err) = pnlab(&["experiment", e.name, flag]);
            assert_eq!(code, 0, "{} {flag}: {err}", e.name);
            assert!(out.contains(e.summary), "{}: {out}", e.name);
            for s in e.settings {
                let default = match s.default_value() {
                    ParamValue::Choice(t) if t.is_empty() => "default empty".to_string(),
                    v => format!("default {v}"),
                };
                let line = out
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{} ", s.name)))
                    .unwrap_or_else(|| panic!("{}: no line for `{}` in\n{out}", e.name, s.name));
                assert!(
                    line.contains(&default),
                    "{}: `{line}` lacks {default}",
                    e.name
                );
                assert!(line.contains(s.help), "{}: `{line}` lacks the help", e.name);
            }
            for common in ["--jobs", "--shard", "--out", "--seed", "--set", "--quiet"] {
                assert!(out.contains(common), "{}: {common} missing", e.name);
            }
        }
    }
}

#[test]
fn an_unknown_setting_names_every_valid_one() {
    for e in EXPERIMENTS {
        let err = experiment_refusal(e.name, "no_such_setting=1");
        assert!(err.contains("`no_such_setting`"), "{}: {err}", e.name);
        for s in e.settings {
            assert!(err.contains(s.name), "{}: {err} lacks {}", e.name, s.name);
        }
    }
}

/// A value just outside a numeric range (or an unknown word), per kind.
fn bad_value(kind: ParamKind) -> Option<String> {
    match kind {
        ParamKind::Int { min, .. } if min > i64::MIN => Some((min - 1).to_string()),
        ParamKind::Int { max, .. } => Some((max as i128 + 1).to_string()),
        ParamKind::Real { max, .. } => Some(format!("{}", max * 2.0 + 1.0)),
        ParamKind::Choice { .. } => Some("no-such-word".into()),
        ParamKind::List { item, .. } => Some(match item {
            ListItem::Real { max, .. } => format!("{},{}", max, max * 2.0 + 1.0),
            ListItem::Int { max, .. } => format!("{max},{}", max as i128 + 1),
            ListItem::Choice(_) => "no-such-word".into(),
        }),
        // Any text is accepted.
        ParamKind::Text { .. } | ParamKind::RealOrAuto { .. } => None,
    }
}

#[test]
fn a_bad_value_names_the_range() {
    let mut checked = 0;
    for e in EXPERIMENTS {
        for s in e.settings {
            let Some(v) = bad_value(s.kind) else { continue };
            let set = format!("{}={v}", s.name);
            let err = experiment_refusal(e.name, &set);
            assert!(
                err.contains(&format!("`{}`", s.name)) && err.contains(&s.range_text()),
                "{} {set}: {err}",
                e.name
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} settings checked");
}

#[test]
fn the_brief_examples_are_rejected_with_their_ranges() {
    let err = pnlab_refused(&["experiment", "eps-sweep", "--set", "positions=-3"]);
    assert!(err.contains("`-3`") && err.contains("integer ≥ 1"), "{err}");
    let err = pnlab_refused(&["experiment", "deep-pn-sweep", "--set", "r=0.5,1.5"]);
    assert!(
        err.contains("`1.5`") && err.contains("reals in [0, 1]"),
        "{err}"
    );
}

#[test]
fn the_list_points_to_the_settings_help_and_plain_help_stays_claps() {
    let (code, out, _) = pnlab(&["experiment"]);
    assert_eq!(code, 0);
    assert!(out.contains("pnlab experiment NAME --help"), "{out}");
    for e in EXPERIMENTS {
        assert!(out.contains(e.name), "{out}");
    }
    let (code, out, _) = pnlab(&["experiment", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Usage: pnlab experiment") && out.contains("--shard"),
        "{out}"
    );
    let err = pnlab_refused(&["experiment", "no-such-experiment", "--help"]);
    assert!(err.contains("known experiments"), "{err}");
}

/// Asserts that the solve record `v` (of `what`) lists none of the
/// parameters `names`.
fn assert_not_recorded(v: &serde_json::Value, names: &[&str], what: &str) {
    for name in names {
        assert!(v["params"].get(name).is_none(), "{what}: {name} in {v}");
    }
}

/// `dfpn-fast`'s per-game parameters: recorded only on their game's
/// positions, and an error (exit 2) naming the game elsewhere.
#[test]
fn dfpn_fast_records_and_checks_its_parameters_per_game() {
    let v = pnlab_json(&[
        "solve",
        "--game",
        "othello",
        "--algo",
        "dfpn-fast",
        "--json",
        "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
        "--set",
        "leaf_empties=20",
    ]);
    assert_eq!(v["params"]["leaf_empties"], 20, "{v}");
    assert_not_recorded(
        &v,
        &["tactics", "threat_init", "mirror", "leaf_cells"],
        "othello",
    );
    let err = pnlab_refused(&[
        "solve",
        "--game",
        "connect4",
        "4444",
        "--algo",
        "dfpn-fast",
        "--set",
        "leaf_empties=12",
    ]);
    assert!(
        err.contains("`leaf_empties` applies to othello positions only, not to connect4"),
        "{err}"
    );
    let (code, out, _) = pnlab(&["solve", "--list-algos"]);
    assert_eq!(code, 0);
    assert!(out.contains("on connect4 positions also: tactics"), "{out}");
}

#[test]
fn connect6_options_are_recorded_for_connect_positions_only() {
    for algo in ["pns", "dfpn", "dfpn-eps", "deep-dfpn"] {
        let v = pnlab_json(&["solve", "--game", "hex", "4:", "--algo", algo, "--json"]);
        assert_not_recorded(
            &v,
            &["zones", "attacker_moves", "vcdt_depth", "vcdt_nodes"],
            algo,
        );
    }
    // A connect position records them, with the values given.
    let v = pnlab_json(&[
        "solve",
        "--game",
        "connect",
        "5,5,4,1,1:c3 b2 c2",
        "--algo",
        "dfpn",
        "--set",
        "zones=on",
        "--set",
        "attacker_moves=0",
        "--json",
    ]);
    assert_eq!(v["params"]["zones"], "on", "{v}");
    assert_eq!(v["params"]["attacker_moves"], 0, "{v}");
    assert_eq!(v["zones"], true, "{v}");
    // Given for a Hex position they are an error naming the games.
    let err = pnlab_refused(&["solve", "--game", "hex", "3:", "--set", "zones=on"]);
    assert!(
        err.contains("applies to connect, connect6 positions only, not to hex"),
        "{err}"
    );
    // A name no game knows lists the algorithm's and the games' options.
    let err = pnlab_refused(&["solve", "--game", "hex", "3:", "--set", "zonez=on"]);
    assert!(
        err.contains("unknown parameter `zonez`") && err.contains("zones"),
        "{err}"
    );
}
