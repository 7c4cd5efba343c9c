//! DeepPN's two switches for what the paper leaves open or defines once
//! (docs/algorithms.md §3): `ties` (equal DPN values: smaller δ first, or
//! move order only) and `solved` (whether solved children take part in a
//! node's deep value). Each is checked on a small tree worked by hand, and
//! every combination must still give the exhaustive reference's answer.

use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::tree::TreeGame;
use pnlab::game::{Game, Player};
use pnlab::search::deep_pn::{DeepPn, DeepPnOptions, DpnForm, DpnTie, SolvedDeep};
use pnlab::search::{reference, Goal, Question, Search};

use crate::common::search_run::{proved, run_to_end};

fn question<G: Game>(g: &G) -> Question {
    Question {
        attacker: g.default_attacker().unwrap_or_else(|| g.to_move()),
        goal: Goal::Win,
    }
}

fn options(r: f64, ties: DpnTie, solved: SolvedDeep) -> DeepPnOptions {
    DeepPnOptions {
        r,
        form: DpnForm::Paper,
        ties,
        solved,
    }
}

#[test]
fn ties_decide_between_equal_dpn_values() {
    // R = 0.5. Iteration 1 expands the root: A and B are frontier nodes at
    // depth 1 with pn = dn = 1, so both have DPN 0·0.5 + 1·0.5 and the same
    // δ; the leftmost, A, is expanded. A is an AND node with two unsolved
    // children at depth 2, so pn(A) = 2 and deep(A) = 1/2:
    // DPN(A) = (1 − 1/2)·0.5 + (1/2)·0.5 = 0.5 = DPN(B) (exact in binary).
    // `delta` prefers B (δ = 1 against 2); `leftmost` stays in A.
    let g = TreeGame::parse(
        "tree \"tie\"\nr or\n  A and\n    A1 or\n      A1a = win\n      A1b = loss\n    A2 or\n      A2a = win\n      A2b = loss\n  B and\n    B1 = win\n    B2 = loss\n",
    )
    .unwrap();
    for (ties, goes_to_b) in [(DpnTie::Delta, true), (DpnTie::Leftmost, false)] {
        let mut s = DeepPn::new(
            g.clone(),
            question(&g),
            options(0.5, ties, SolvedDeep::Skip),
        );
        s.step();
        s.step();
        let a = s.arena().get(0).first_child;
        let b = a + 1;
        assert_eq!(s.dpn(a), 0.5, "{ties:?}");
        assert_eq!(s.dpn(b), 0.5, "{ties:?}");
        let path = s.selection_path();
        assert_eq!(path[1] == b, goes_to_b, "{ties:?}: path {path:?}");
        if !goes_to_b {
            assert_eq!(path.len(), 3, "leftmost descends into A: {path:?}");
        }
    }
}

#[test]
fn solved_children_count_for_the_deep_value_only_when_asked() {
    // R = 0.1. r → A (AND) → a1 (OR, its only child a1x a win at depth 3),
    // a2 (OR, unsolved). Iteration 3 expands a1 (a1 and a2 tie, leftmost)
    // and proves it. With `skip`, a1 has no deep value and deep(A) comes
    // from a2: 1/2. With `count`, a1 keeps its child's 1/3 and its DPN
    // under A is ≈ 0.1·1 + 0.9/3 = 0.4 (δ = dn = ∞), below a2's
    // 0·0.1 + 0.9/2 = 0.45, so deep(A) = 1/3. Selection still goes to a2.
    let g = TreeGame::parse(
        "tree \"solved\"\nr or\n  A and\n    a1 or\n      a1x = win\n    a2 or\n      a2x = win\n      a2y = loss\n",
    )
    .unwrap();
    for (solved, deep_a1, deep_a) in [
        (SolvedDeep::Skip, None, 0.5),
        (SolvedDeep::Count, Some(1.0 / 3.0), 1.0 / 3.0),
    ] {
        let mut s = DeepPn::new(g.clone(), question(&g), options(0.1, DpnTie::Delta, solved));
        for _ in 0..3 {
            s.step();
        }
        let a = s.arena().get(0).first_child;
        let a1 = s.arena().get(a).first_child;
        let a2 = a1 + 1;
        assert_eq!(s.arena().get(a1).data.pn, 0, "a1 is proved");
        match deep_a1 {
            None => assert!(s.deep(a1).is_nan(), "{solved:?}: {}", s.deep(a1)),
            Some(d) => assert_eq!(s.deep(a1), d, "{solved:?}"),
        }
        assert_eq!(s.deep(a), deep_a, "{solved:?}");
        assert_eq!(s.selection_path(), vec![0, a, a2], "{solved:?}");
    }
}

#[test]
fn every_switch_keeps_the_answers() {
    let mut positions = vec![TicTacToe::new()];
    for p in [
        "x........",
        "x...o....",
        "xo.......",
        "x.o.x.o..",
        ".x..o....",
    ] {
        positions.push(TicTacToe::parse(p).unwrap());
    }
    let mut solved = 0;
    for g in &positions {
        for attacker in [Player::First, Player::Second] {
            let q = Question {
                attacker,
                goal: Goal::Win,
            };
            let want = reference::answer(g, &q);
            for ties in [DpnTie::Delta, DpnTie::Leftmost] {
                for sd in [SolvedDeep::Skip, SolvedDeep::Count] {
                    for r in [0.1, 0.4, 0.65] {
                        let mut s = DeepPn::new(*g, q, options(r, ties, sd));
                        let what = format!("{g:?} {attacker:?} {ties:?} {sd:?} R={r}");
                        let got = proved(run_to_end(&mut s, 1_000_000, &what), &what);
                        assert_eq!(got, want, "{what}");
                        solved += 1;
                    }
                }
            }
        }
    }
    assert_eq!(solved, 6 * 2 * 2 * 2 * 3);
}
