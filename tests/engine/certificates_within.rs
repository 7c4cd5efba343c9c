//! Certificates of the mate question "win within N" (`goal … within N`):
//! the checker counts the attacker's moves along every line.
//!
//! - Xiangqi mate puzzles of the test suite (verified shortest mates in
//!   `tests/data/xiangqi/xiangqi_mate_puzzles.tsv`): df-pn's proof at the
//!   verified N and its disproof at N − 1 (and PNS's, on some of them)
//!   both come with certificates that verify, and neither verifies with its limit moved the wrong way (the
//!   proof at N − 1, the disproof at N).
//! - Tic-tac-toe, Connect Four and Hex positions whose shortest win an
//!   exhaustive search (the reference, on the same wrapped position)
//!   finds: the same at that N and N − 1, with PNS and df-pn.
//! - The CLI: the issue's command writes a certificate of "not a win
//!   within 1" that `pnlab verify` accepts.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use pnlab::certificate::{verify, Certificate, Verdict};
use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::{proof, reference, Budget, QuestionKind, Status};
use pnlab::with_position;

use crate::common;
use common::pnlab;
use common::search_run::{algo_setup, build_and_run};

/// Solves `pos` under "win within `n`" and returns the status and the
/// certificate's text.
fn certified(algo: &str, pos: &AnyPosition, n: u32) -> (Status, Certificate) {
    let setup = algo_setup(algo, &pos.clone().within(n), &[], QuestionKind::Win, 0);
    let budget = Budget {
        max_nodes: Some(20_000_000),
        ..Budget::default()
    };
    let (s, st) = build_and_run(algo, &setup, &budget);
    let (cert, _) = proof::certificate(s.as_ref(), &setup, 50_000_000)
        .unwrap_or_else(|e| panic!("{algo} within {n} {}: {e}", pos.notation()));
    assert_eq!(cert.within, Some(n));
    let back = Certificate::parse(&cert.to_text()).expect("parses");
    (st, back)
}

fn valid_answer(c: &Certificate) -> Option<String> {
    match verify(c).expect("root parses") {
        Verdict::Valid { answer, .. } => Some(answer),
        Verdict::Invalid { .. } => None,
    }
}

/// Proved at `n` and disproved at `n − 1`, both certified; the limits
/// swapped are rejected.
fn check(algo: &str, pos: &AnyPosition, n: u32) {
    let name = pos.notation();
    let (st, mut proof) = certified(algo, pos, n);
    assert_eq!(st, Status::Proved, "{algo} {name} within {n}");
    assert_eq!(
        valid_answer(&proof).as_deref(),
        Some(format!("win within {n}").as_str()),
        "{algo} {name}\n{}",
        proof.to_text()
    );
    let (st, mut disproof) = certified(algo, pos, n - 1);
    assert_eq!(st, Status::Disproved, "{algo} {name} within {}", n - 1);
    assert_eq!(
        valid_answer(&disproof).as_deref(),
        Some(format!("not-win within {}", n - 1).as_str()),
        "{algo} {name}\n{}",
        disproof.to_text()
    );
    // A proof needs its N moves somewhere, a disproof is one because the
    // attacker runs out of them.
    proof.within = Some(n - 1);
    assert_eq!(
        valid_answer(&proof),
        None,
        "{algo} {name}: proof at {}",
        n - 1
    );
    disproof.within = Some(n);
    assert_eq!(
        valid_answer(&disproof),
        None,
        "{algo} {name}: disproof at {n}"
    );
    disproof.within = None;
    assert_eq!(
        valid_answer(&disproof),
        None,
        "{algo} {name}: disproof without a limit"
    );
}

/// The puzzles: (fen, verified shortest mate).
fn puzzles() -> Vec<(String, u32)> {
    include_str!("../data/xiangqi/xiangqi_mate_puzzles.tsv")
        .lines()
        .filter(|l| l.starts_with("puzzle_"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((f[1].to_string(), f[3].parse().ok()?))
        })
        .collect()
}

#[test]
fn xiangqi_puzzles_are_certified_at_n_and_n_minus_1() {
    let mut all = puzzles();
    all.shuffle(&mut SmallRng::seed_from_u64(26));
    let mut done = [0usize; 4];
    for (fen, n) in all {
        let k = n as usize;
        if done[k] >= 10 {
            continue;
        }
        let pos = AnyPosition::parse(GameKind::Xiangqi, &fen).expect("fen");
        check("dfpn", &pos, n);
        if done[k] < 4 {
            check("pns", &pos, n);
        }
        done[k] += 1;
        if done[1..].iter().all(|&d| d >= 10) {
            break;
        }
    }
    assert_eq!(done[1..], [10, 10, 10]);
}

/// The shortest win (in the attacker's moves) by the exhaustive
/// reference on the wrapped position, if there is one within `max`.
fn shortest_win(pos: &AnyPosition, max: u32) -> Option<u32> {
    (1..=max).find(|&n| {
        let w = pos.clone().within(n);
        let q = pnlab::search::Question {
            attacker: w.default_attacker(),
            goal: pnlab::search::Goal::Win,
        };
        with_position!(&w, g => reference::answer_memo(g, &q))
    })
}

fn random_position(start: &AnyPosition, plies: usize, rng: &mut SmallRng) -> Option<AnyPosition> {
    let mut p = start.clone();
    for _ in 0..plies {
        let moves = p.legal_move_names();
        if moves.is_empty() {
            return None;
        }
        p = p
            .after_move(&moves[rng.random_range(0..moves.len())])
            .ok()?;
    }
    p.outcome().is_none().then_some(p)
}

#[test]
fn other_games_are_certified_at_their_shortest_win() {
    let mut rng = SmallRng::seed_from_u64(0x3117);
    let starts = [
        (
            AnyPosition::parse(GameKind::TicTacToe, ".........").expect("ttt"),
            1..4,
            6,
        ),
        (
            AnyPosition::parse(GameKind::Connect4, "").expect("c4"),
            14..22,
            6,
        ),
        (
            AnyPosition::parse(GameKind::Hex, "4:").expect("hex"),
            2..6,
            6,
        ),
    ];
    for (start, plies, want) in starts {
        let mut found = 0;
        let mut tries = 0;
        while found < want {
            tries += 1;
            assert!(tries < 2_000, "{}: only {found} positions", start.kind());
            let Some(p) = random_position(&start, rng.random_range(plies.clone()), &mut rng) else {
                continue;
            };
            let Some(n) = shortest_win(&p, 4) else {
                continue;
            };
            for algo in ["pns", "dfpn"] {
                check(algo, &p, n);
            }
            found += 1;
        }
    }
}

#[test]
fn the_issues_within_1_disproof_verifies_from_the_cli() {
    let dir = crate::helpers::scratch_dir("within");
    let file = dir.join("w.cert");
    let f = file.to_str().expect("utf-8 path");
    let fen = "1C2kac2/1cCRa4/4b1n2/8p/P1b6/1N7/8P/4B4/4A4/3AK1r2 w - - 0 1";
    for (n, words) in [("1", "not-win within 1"), ("2", "win within 2")] {
        let (code, out, err) = pnlab(&[
            "solve", "--game", "xiangqi", fen, "--within", n, "--algo", "dfpn", "--proof", f,
        ]);
        assert_eq!(code, 0, "{out}{err}");
        let text = std::fs::read_to_string(&file).expect("written");
        assert!(text.contains(&format!("\ngoal win within {n}\n")), "{text}");
        let (code, out, err) = pnlab(&["verify", f]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.starts_with(&format!("valid: {words} (")), "{out}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
