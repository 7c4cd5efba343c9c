//! `pnlab scn` and `pnlab rscn`: the JSON of the curves, the RSCN rows and
//! summaries, and the errors.

use serde_json::Value;

use crate::common;
use common::{pnlab_at_root, pnlab_refused};

/// `pnlab ARGS` run from the crate's root (where `positions/` and
/// `tests/data/` are), which must succeed: its JSON lines.
fn json_rows(args: &[&str]) -> Vec<Value> {
    let (code, out, err) = pnlab_at_root(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn scn_prints_the_curves_of_the_cutoff_tree() {
    let v = &json_rows(&[
        "scn",
        "positions/trees/scn-cutoff.tree",
        "--set",
        "T=100",
        "--set",
        "depth=3",
        "--json",
    ])[0];
    // The numbers worked out by hand in the tree file.
    let curve: Vec<(i64, Option<u64>, u64)> = v["curve"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["value"].as_i64().unwrap(),
                p["scn"].as_u64(),
                p["nodes"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(curve, [(50, Some(1), 3), (40, Some(2), 6), (40, None, 9)]);
    assert_eq!(v["value"], 40);
    assert_eq!(v["nodes_visited"], 18);
    assert_eq!(v["best_move"], "B");
}

#[test]
fn rscn_follows_tictactoe_self_play_to_the_end() {
    let rows = json_rows(&[
        "rscn",
        "--game",
        "tictactoe",
        ".........",
        "--self-play",
        "--set",
        "depth=9",
        "--set",
        "T=10",
        "--json",
    ]);
    // Nine moves fill the board: ten positions and the summary.
    assert_eq!(rows.len(), 11);
    let (positions, summary) = rows.split_at(10);
    assert_eq!(positions[9]["move"], Value::Null);
    assert!(!positions[9]["position"].as_str().unwrap().contains('.'));
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["ply"], i);
        assert_eq!(p["side"], if i % 2 == 0 { "first" } else { "second" });
        assert_eq!(p["curve"].as_array().unwrap().len(), 9);
        // RSCN from the printed r values: r_i − r_(i+1) for the first
        // player, r_i − r_(i−1) for the second.
        let r = |j: usize| positions[j]["r"].as_f64();
        let expect = if i % 2 == 0 {
            if i == 9 {
                None
            } else {
                r(i).zip(r(i + 1)).map(|(a, b)| a - b)
            }
        } else {
            r(i).zip(r(i - 1)).map(|(a, b)| a - b)
        };
        if let Some(x) = expect {
            assert!((p["rscn"].as_f64().unwrap() - x).abs() < 0.01, "ply {i}");
        }
    }
    assert_eq!(summary[0]["positions"], 10);
    assert!(summary[0].get("rscn_red").is_some() && summary[0].get("vl_black").is_some());
}

#[test]
fn rscn_along_given_moves_and_its_errors() {
    let rows = json_rows(&[
        "rscn", "--game", "connect4", "", "--moves", "4 4 3", "--set", "depth=4", "--json",
    ]);
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["move"], "4");
    assert_eq!(rows[3]["position"], "443");

    // Refused (exit 2), each with the words its message must hold.
    let refusals: [(&[&str], &str); 4] = [
        (&["rscn", "--game", "tictactoe", "........."], "--self-play"),
        (
            &["rscn", "--game", "connect", "5,5,4,1,1:", "--self-play"],
            "static evaluation",
        ),
        (
            &[
                "rscn",
                "--game",
                "tictactoe",
                ".........",
                "--moves",
                "b2 b2",
            ],
            "move 2",
        ),
        (
            &["scn", "--game", "tictactoe", ".........", "--set", "T=x"],
            "`T`",
        ),
    ];
    for (args, words) in refusals {
        let err = pnlab_refused(args);
        assert!(err.contains(words), "{args:?}: `{words}` missing in {err}");
    }
}

#[test]
fn rscn_follows_a_xiangqi_master_game_record() {
    // Game 4 of the sample file (Lv Qin – Lin HongMin, 1994): 36 full
    // moves and Red's 37th, i.e. 73 plies and 74 positions, all in the
    // record as written.
    let rows = json_rows(&[
        "rscn",
        "tests/data/xiangqi/sample_15_UCI_games.pgn",
        "--game-index",
        "4",
        "--set",
        "depth=2",
        "--set",
        "T=200",
        "--json",
    ]);
    let (positions, summary) = rows.split_at(rows.len() - 1);
    assert_eq!(positions.len(), 74);
    assert!(positions.iter().all(|r| r["game"] == 4));
    assert_eq!(positions[0]["move"], "h2e2");
    assert_eq!(positions[1]["move"], "h9g7");
    assert_eq!(positions[72]["move"], "f4e4");
    assert_eq!(positions[73]["move"], Value::Null);
    assert_eq!(
        positions[0]["fen"],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    for (i, r) in positions.iter().enumerate() {
        let side = if i % 2 == 0 { "red" } else { "black" };
        assert_eq!(r["side"], side, "ply {i}");
        assert_eq!(r["curve"].as_array().unwrap().len(), 2, "ply {i}");
    }
    assert_eq!(summary[0]["positions"], 74);
}
