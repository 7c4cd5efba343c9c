//! `pnlab solve --certify`: every solved answer is checked by its own
//! certificate before it is printed (`"certified": true`, stop reason
//! `certified`); an unknown run has nothing to certify; a wrong answer
//! (df-pn with the naive treatment of cycles, which answers the lecture's
//! graph wrong) cannot be certified and is printed `unknown`, stop reason
//! `uncertified`, exit status 1.

use std::process::Command;

use serde_json::Value;

fn pnlab(args: &[&str]) -> (Option<i32>, Vec<Value>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .output()
        .expect("run pnlab");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (
        out.status.code(),
        lines,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn solved_answers_are_certified_in_every_game() {
    let runs: [&[&str]; 5] = [
        &["--game", "tictactoe", ".........", "x........", "xo......."],
        &[
            "--game",
            "connect4",
            "5554224333234511764415115",
            "--algo",
            "dfpn",
        ],
        &["--game", "hex", "3:", "4:b2", "--algo", "dfpn"],
        &[
            "positions/trees/ghi-lecture.tree",
            "--algo",
            "dfpn-ghi",
            "--question",
            "not-lose",
        ],
        &[
            "--game",
            "xiangqi",
            "1C2kac2/1cCRa4/4b1n2/8p/P1b6/1N7/8P/4B4/4A4/3AK1r2 w - - 0 1",
            "--within",
            "2",
            "--algo",
            "pns",
        ],
    ];
    let mut certified = 0;
    for run in runs {
        let mut args = vec!["solve", "--certify", "--json"];
        args.extend_from_slice(run);
        let (code, lines, err) = pnlab(&args);
        assert_eq!(code, Some(0), "{run:?}: {err}");
        for l in lines {
            assert_ne!(l["outcome"], "unknown", "{l}");
            assert_eq!(l["certified"], true, "{l}");
            assert_eq!(l["stop_reason"], "certified", "{l}");
            assert!(l["proof_positions"].as_u64().is_some_and(|n| n > 0), "{l}");
            assert!(l["certify_ms"].as_f64().is_some(), "{l}");
            certified += 1;
        }
    }
    assert_eq!(certified, 8);
}

#[test]
fn an_unknown_run_is_not_certified() {
    let (code, lines, err) = pnlab(&[
        "solve",
        "--game",
        "tictactoe",
        ".........",
        "--max-iterations",
        "3",
        "--certify",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(lines[0]["outcome"], "unknown");
    assert_eq!(lines[0]["certified"], false);
    assert_eq!(lines[0]["stop_reason"], "max-iterations");
    // Without --certify the fields are not there at all.
    let (_, lines, _) = pnlab(&["solve", "--game", "tictactoe", "x........", "--json"]);
    assert!(lines[0].get("certified").is_none(), "{}", lines[0]);
    assert_eq!(lines[0]["stop_reason"], "solved");
}

#[test]
fn a_wrong_answer_is_caught_and_reported_unknown() {
    // Plain df-pn with `ghi = naive` disproves A, which wins.
    let (code, lines, err) = pnlab(&[
        "solve",
        "positions/trees/ghi-lecture.tree",
        "--algo",
        "dfpn",
        "--set",
        "ghi=naive",
        "--certify",
        "--json",
    ]);
    assert_eq!(code, Some(1), "{err}");
    let l = &lines[0];
    assert_eq!(l["outcome"], "unknown", "{l}");
    assert_eq!(l["answer"], "unknown", "{l}");
    assert_eq!(l["stop_reason"], "uncertified", "{l}");
    assert_eq!(l["certified"], false, "{l}");
    assert!(
        l["certify_error"]
            .as_str()
            .is_some_and(|e| e.contains("no disproof tree")),
        "{l}"
    );
    assert!(err.contains("not certified"), "{err}");
    // The exact search answers it, certified.
    let (code, lines, _) = pnlab(&[
        "solve",
        "positions/trees/ghi-lecture.tree",
        "--algo",
        "dfpn-ghi",
        "--certify",
        "--json",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(lines[0]["outcome"], "proved");
    assert_eq!(lines[0]["certified"], true);
}
