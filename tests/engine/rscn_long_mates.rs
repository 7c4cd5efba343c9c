//! The long mates of `pnlab experiment rscn --set set=long`
//! (`assets/rscn/long-mates.tsv`): every row has Red to move and a stated
//! shortest mate of 5 or more moves. For a few rows the claim is checked
//! here through certificates, which `pnlab::certificate::verify` checks
//! move by move independently of the search that wrote them: df-pn's
//! proof of "win within N" verifies, and so does its disproof of "win
//! within N − 1" (no shorter mate).

use pnlab::certificate::{verify, Certificate, Verdict};
use pnlab::game::{AnyPosition, GameKind, Player};
use pnlab::search::{proof, Budget, QuestionKind, Status};

use crate::common;
use common::search_run::{algo_setup, build_and_run};

/// (id, FEN, stated mate length).
fn rows() -> Vec<(String, String, u32)> {
    include_str!("../../assets/rscn/long-mates.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string(), f[2].parse().unwrap())
        })
        .collect()
}

/// The verified answer of df-pn's certificate for "win within `n`".
fn certified_answer(pos: &AnyPosition, n: u32) -> (Status, Option<String>) {
    let setup = algo_setup("dfpn", &pos.clone().within(n), &[], QuestionKind::Win, 0);
    let budget = Budget {
        max_nodes: Some(20_000_000),
        ..Budget::default()
    };
    let (s, st) = build_and_run("dfpn", &setup, &budget);
    let (cert, _) = proof::certificate(s.as_ref(), &setup, 50_000_000)
        .unwrap_or_else(|e| panic!("within {n} {}: {e}", pos.notation()));
    let back = Certificate::parse(&cert.to_text()).expect("parses");
    let answer = match verify(&back).expect("root parses") {
        Verdict::Valid { answer, .. } => Some(answer),
        Verdict::Invalid { .. } => None,
    };
    (st, answer)
}

#[test]
fn every_row_is_a_long_mate_with_red_to_move() {
    let rows = rows();
    assert!(!rows.is_empty());
    for (id, fen, n) in &rows {
        assert!(*n >= 5, "{id}: mate in {n}");
        let pos =
            AnyPosition::parse(GameKind::Xiangqi, fen).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(pos.to_move(), Player::First, "{id}");
    }
}

/// Each position appears once, so no game of the study counts twice.
#[test]
fn every_position_appears_once() {
    let rows = rows();
    let ids: std::collections::HashSet<_> = rows.iter().map(|r| &r.0).collect();
    let fens: std::collections::HashSet<_> = rows.iter().map(|r| &r.1).collect();
    assert_eq!(ids.len(), rows.len(), "an id appears twice");
    assert_eq!(fens.len(), rows.len(), "a position appears twice");
}

/// The colour-swapped position: ranks in reverse order, Red and Black
/// exchanged, the other side to move (how the set stores a puzzle that
/// had Black to move).
fn mirrored(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap();
    let side = if fields.next() == Some("w") { "b" } else { "w" };
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let rest: Vec<&str> = fields.collect();
    format!("{} {side} {}", ranks.join("/"), rest.join(" "))
}

/// Every row taken from the bundled puzzles is that puzzle's position
/// (mirrored when it had Black to move), so the set's provenance can be
/// checked against the source file.
#[test]
fn puzzle_rows_are_the_source_puzzles() {
    let source: std::collections::HashMap<&str, &str> =
        include_str!("../data/xiangqi/xiangqi_mate_puzzles.tsv")
            .split('\n')
            .filter(|l| l.starts_with("puzzle_"))
            .map(|l| {
                let mut f = l.split('\t');
                (f.next().unwrap(), f.next().unwrap())
            })
            .collect();
    let text = include_str!("../../assets/rscn/long-mates.tsv");
    let mut checked = 0;
    for line in text.lines().filter(|l| l.starts_with("puzzle_")) {
        let f: Vec<&str> = line.split('\t').collect();
        let original = *source
            .get(f[0])
            .unwrap_or_else(|| panic!("{} is not in the puzzle file", f[0]));
        let expected = if f[3] == "w" {
            original.to_string()
        } else {
            mirrored(original)
        };
        assert_eq!(f[1], expected, "{}", f[0]);
        assert_eq!(original.split_whitespace().nth(1), Some(f[3]), "{}", f[0]);
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn the_first_rows_are_certified_at_n_and_not_at_n_minus_1() {
    for (id, fen, n) in rows().into_iter().take(3) {
        let pos = AnyPosition::parse(GameKind::Xiangqi, &fen).unwrap();
        let (st, answer) = certified_answer(&pos, n);
        assert_eq!(st, Status::Proved, "{id} within {n}");
        assert_eq!(answer, Some(format!("win within {n}")), "{id}");
        let (st, answer) = certified_answer(&pos, n - 1);
        assert_eq!(st, Status::Disproved, "{id} within {}", n - 1);
        assert_eq!(answer, Some(format!("not-win within {}", n - 1)), "{id}");
    }
}
