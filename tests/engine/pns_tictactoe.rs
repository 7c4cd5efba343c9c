//! PNS against the exhaustive reference on every reachable tic-tac-toe
//! position (5,478 of them, tests/data/tictactoe_facts.json), for both
//! questions and every PNS option.

use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::Game;
use pnlab::search::pns::{Pns, PnsOptions};
use pnlab::search::{reference, Goal, Question, Search, Status};

use crate::common;
use common::search_run::{pns_option_variants, proved, run_to_end, win_and_not_lose};

fn reachable() -> Vec<TicTacToe> {
    pnlab::game::perft::reachable(&TicTacToe::new())
}

#[test]
fn reachable_count_matches_published_figure() {
    assert_eq!(reachable().len(), 5478);
}

#[test]
fn pns_agrees_with_negamax_everywhere() {
    let positions = reachable();
    let mut checked = 0;
    for g in &positions {
        for q in win_and_not_lose(g.to_move()) {
            let expected = reference::answer(g, &q);
            for opts in pns_option_variants() {
                let mut s = Pns::new(*g, q, opts);
                let what = format!("PNS on {}", g.notation());
                let got = proved(run_to_end(&mut s, 100_000, &what), "unexpected");
                assert_eq!(got, expected, "{} {:?} {opts:?}", g.notation(), q.goal);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 5478 * 2 * 4);
}

#[test]
fn empty_board_is_a_draw() {
    let g = TicTacToe::new();
    for (goal, want) in [
        (Goal::Win, Status::Disproved),
        (Goal::NotLose, Status::Proved),
    ] {
        let mut s = Pns::new(
            g,
            Question {
                attacker: g.to_move(),
                goal,
            },
            PnsOptions::default(),
        );
        while !s.step().is_final() {}
        assert_eq!(s.status(), want);
    }
}
