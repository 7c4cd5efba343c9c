//! The correct root moves used for error-rate curves
//! (`search::correct_moves`) against an independent formulation: exact
//! minimax values from plain alpha-beta negamax (`reference::value_for`),
//! with the tier rule written out on values instead of yes/no answers.

use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::{AnyPosition, Game, Player};
use pnlab::positions;
use pnlab::search::correct_moves::{self, CorrectSource};
use pnlab::search::{reference, Goal, Question};

use crate::common;
use crate::helpers::cycled_p_games;
use common::children;

fn reachable_tictactoe() -> Vec<TicTacToe> {
    pnlab::game::perft::reachable(&TicTacToe::new())
}

/// The rule of `correct_moves`, on the attacker's exact values after each
/// move: the attacker wants the value over the goal's threshold (win > 0,
/// not-lose ≥ 0), falling back to a draw; the defender wants it under,
/// falling back to keeping the attacker from winning.
fn expected_by_values<G: Game>(g: &G, q: &Question) -> Vec<bool> {
    let values: Vec<i32> = children(g)
        .iter()
        .map(|c| reference::value_for(c, q.attacker))
        .collect();
    let pick = |f: &dyn Fn(i32) -> bool| values.iter().map(|&v| f(v)).collect::<Vec<bool>>();
    let tiers: Vec<Vec<bool>> = match (g.to_move() == q.attacker, q.goal) {
        (true, Goal::Win) => vec![pick(&|v| v > 0), pick(&|v| v >= 0)],
        (true, _) => vec![pick(&|v| v >= 0)],
        (false, Goal::Win) => vec![pick(&|v| v <= 0)],
        (false, _) => vec![pick(&|v| v < 0), pick(&|v| v <= 0)],
    };
    tiers
        .into_iter()
        .find(|t| t.iter().any(|&x| x))
        .unwrap_or_else(|| vec![true; values.len()])
}

fn questions() -> Vec<Question> {
    let mut out = Vec::new();
    for attacker in [Player::First, Player::Second] {
        for goal in [Goal::Win, Goal::NotLose] {
            out.push(Question { attacker, goal });
        }
    }
    out
}

#[test]
fn every_tictactoe_position_and_question_agrees_with_negamax_values() {
    let mut checked = 0;
    for g in reachable_tictactoe() {
        if g.outcome().is_some() {
            assert!(correct_moves::exhaustive(&g, &questions()[0], u64::MAX).is_none());
            continue;
        }
        for q in questions() {
            let got = correct_moves::exhaustive(&g, &q, u64::MAX).expect("unbounded");
            assert_eq!(got.source, CorrectSource::Exhaustive);
            assert_eq!(
                got.correct,
                expected_by_values(&g, &q),
                "{} {:?}",
                g.notation(),
                q
            );
            assert_eq!(got.labels.len(), got.correct.iter().filter(|&&c| c).count());
            checked += 1;
        }
    }
    // 5,478 reachable positions, 958 of them finished (published counts);
    // four questions each.
    assert_eq!(checked, (5478 - 958) * 4);
}

#[test]
fn random_pgames_agree_with_negamax_values() {
    for (seed, _, _, g) in cycled_p_games(0..200, 2..=5, 4..=8) {
        for q in questions() {
            let got = correct_moves::exhaustive(&g, &q, u64::MAX).unwrap();
            assert_eq!(got.correct, expected_by_values(&g, &q), "seed {seed} {q:?}");
        }
    }
}

#[test]
fn a_position_too_large_for_the_budget_falls_back_to_the_files_best_moves() {
    let text = include_str!("../data/othello/fforum-1-19.obf");
    let entries = positions::load_text("fforum-1-19.obf", text).unwrap();
    for e in entries.iter().take(7) {
        let best = &e.expected.as_ref().unwrap().best_moves;
        assert!(!best.is_empty(), "{}", e.name);
        let q = Question {
            attacker: e.position.to_move(),
            goal: Goal::Win,
        };
        // 14 empties are far more than 1,000 positions.
        let got = correct_moves::for_position(&e.position, &q, best, 1_000).unwrap();
        assert_eq!(got.source, CorrectSource::Annotated);
        let mut want: Vec<String> = best.iter().map(|m| m.to_lowercase()).collect();
        let mut have: Vec<String> = got.labels.iter().map(|m| m.to_lowercase()).collect();
        want.sort();
        have.sort();
        assert_eq!(have, want, "{}", e.name);
    }
    // With neither a budget nor an annotation nothing is known.
    let e = &entries[0];
    let q = Question {
        attacker: e.position.to_move(),
        goal: Goal::Win,
    };
    assert!(correct_moves::for_position(&e.position, &q, &[], 1_000).is_none());
    // A small position is solved exhaustively even when annotated.
    let ttt = AnyPosition::TicTacToe(TicTacToe::new());
    let got = correct_moves::for_position(&ttt, &q, &["a1".into()], 1_000_000).unwrap();
    assert_eq!(got.source, CorrectSource::Exhaustive);
}
