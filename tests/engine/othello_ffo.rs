//! Othello's frontier solver and `dfpn-fast` against the published FFO
//! scores (the FForum problems #1–#22 as distributed with Edax, every
//! legal move with its exact score; see tests/data/othello/SOURCE.md and
//! the header of assets/bench/ffo-20-39.obf). The scores were computed by
//! other programs, so they check these searches independently of the
//! project's own reference.

use pnlab::game::othello::Othello;
use pnlab::game::{AnyPosition, Game};
use pnlab::search::dfpn::fast::othello_leaf::{self, LeafTable};
use pnlab::search::QuestionKind;

use crate::common;
use crate::helpers;
use common::search_run::{algo_setup, build_and_run, iteration_budget, proved};

/// A position of an OBF file and its moves with their published scores
/// (side to move's view).
struct Problem {
    pos: Othello,
    moves: Vec<(u8, i32)>,
}

fn problems(text: &str) -> Vec<Problem> {
    helpers::obf(text)
        .into_iter()
        .map(|o| {
            let moves: Vec<(u8, i32)> = o
                .moves
                .iter()
                .map(|(m, s)| (o.pos.parse_move(m).expect("a legal move"), *s))
                .collect();
            assert!(!moves.is_empty(), "{}", o.line);
            Problem { pos: o.pos, moves }
        })
        .collect()
}

fn ffo_1_19() -> Vec<Problem> {
    problems(include_str!("../data/othello/fforum-1-19.obf"))
}

fn best(p: &Problem) -> i32 {
    p.moves.iter().map(|m| m.1).max().expect("moves")
}

/// The exact score of every listed move of FFO #1–#19 (13–15 empties
/// after the move), by two null-window searches each (score ≥ v and not
/// ≥ v + 1, from the mover's side), over one shared table.
#[test]
fn the_frontier_solver_finds_every_published_move_score() {
    let table = LeafTable::with_bits(16);
    let mut checked = 0;
    for (i, p) in ffo_1_19().iter().enumerate() {
        for &(mv, score) in &p.moves {
            let mut c = p.pos;
            c.play(mv);
            // The child's mover is the opponent: its score is −score.
            let me = c.to_move();
            let (a, b) = (c.discs_of(me), c.discs_of(me.other()));
            let mut s = othello_leaf::Solver::new(&table);
            assert!(s.reaches(a, b, -score), "FFO #{} {}", i + 1, c.notation());
            assert!(
                !s.reaches(a, b, -score + 1),
                "FFO #{} {}",
                i + 1,
                c.notation()
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

fn dfpn_fast(pos: &AnyPosition, q: QuestionKind, pairs: &[(&str, &str)]) -> bool {
    let setup = algo_setup("dfpn-fast", pos, pairs, q, 0);
    let (_, st) = build_and_run("dfpn-fast", &setup, &iteration_budget(50_000_000));
    proved(st, &format!("{pairs:?} on {}", pos.notation()))
}

/// `dfpn-fast` with its defaults and with low frontier thresholds (so
/// that df-pn does most of the work) answers win and not-lose as the
/// published best scores say, on FFO #1–#19 and #20–#22.
#[test]
fn dfpn_fast_answers_the_ffo_problems() {
    let mut set = ffo_1_19();
    set.extend(
        problems(include_str!("../../assets/bench/ffo-20-39.obf"))
            .into_iter()
            .take(3),
    );
    for (i, p) in set.iter().enumerate() {
        let pos = p.pos.into_any();
        let v = best(p);
        for pairs in [&[][..], &[("leaf_empties", "8")][..]] {
            assert_eq!(
                dfpn_fast(&pos, QuestionKind::Win, pairs),
                v > 0,
                "FFO #{} {pairs:?}",
                i + 1
            );
            assert_eq!(
                dfpn_fast(&pos, QuestionKind::NotLose, pairs),
                v >= 0,
                "FFO #{} {pairs:?}",
                i + 1
            );
        }
    }
}
