//! PNS against the exhaustive reference on every reachable tic-tac-toe
//! position (5,478 of them, tests/data/tictactoe_facts.json), for both
//! questions and every PNS option.

use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::Game;
use pnlab::search::pns::{Init, Pns, PnsOptions, Selection, Tie};
use pnlab::search::{reference, Goal, Question, Search, Status};

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
    let all_opts = [
        PnsOptions::default(),
        PnsOptions {
            tie: Tie::Deepest,
            ..Default::default()
        },
        PnsOptions {
            selection: Selection::Directed,
            ..Default::default()
        },
        PnsOptions {
            init: Init::Mobility,
            ..Default::default()
        },
    ];
    let mut checked = 0;
    for g in &positions {
        for goal in [Goal::Win, Goal::NotLose] {
            let q = Question {
                attacker: g.to_move(),
                goal,
            };
            let expected = reference::answer(g, &q);
            for opts in all_opts {
                let mut s = Pns::new(*g, q, opts);
                let mut st = s.status();
                let mut guard = 0;
                while !st.is_final() {
                    st = s.step();
                    guard += 1;
                    assert!(guard < 100_000, "PNS did not terminate on {}", g.notation());
                }
                let got = match st {
                    Status::Proved => true,
                    Status::Disproved => false,
                    other => panic!("unexpected {other:?}"),
                };
                assert_eq!(got, expected, "{} {goal:?} {opts:?}", g.notation());
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
