//! Budgets that hold inside long steps (`search::clock`): the inner loops
//! that one step can spend seconds in give up once the run's deadline has
//! passed, answer nothing they would have to take back, and poison no
//! cache. No test here depends on how fast the machine is: the deadlines
//! are already past when the work starts (or an hour away), so what
//! happens is decided before the first look at the clock.
//!
//! How close real runs stop to a time limit is measured by hand (see the
//! closing note of issue #26), not asserted here.

use std::time::Duration;

use pnlab::clock::{self, Instant};
use pnlab::game::connect::vcdt::VcdtOptions;
use pnlab::game::connect::zone_game::{ZoneContext, ZoneGame, ZoneSettings};
use pnlab::game::connect::Connect;
use pnlab::game::{AnyPosition, Game, GameKind, Player};
use pnlab::search::playout::Playouts;
use pnlab::search::{self, Budget, Counters, Goal, Question, QuestionKind, Status, StopReason};

use crate::common;
use common::search_run::{algo_setup, build_and_run};

/// A deadline that has passed.
fn past() -> Option<Instant> {
    Some(Instant::now())
}

/// White to move wins by a VCDT at once (positions/connect6/generated.toml,
/// game 2 of the generator).
const VCDT_ROOT: &str = "j10 j9 k8 h11 m6 l9 i9 h9 n9";

#[test]
fn a_vcdt_cut_short_finds_no_win_and_is_not_cached() {
    let pos = Connect::parse_connect6(VCDT_ROOT).expect("position");
    let ctx = ZoneContext::new(ZoneSettings {
        attacker: pos.to_move(),
        attacker_moves: 5,
        vcdt: VcdtOptions {
            max_depth: 6,
            max_nodes: 5_000,
        },
    });
    let g = ZoneGame::new(pos, ctx);
    {
        let _late = clock::deadline_scope(past());
        // Polls before the first reading of the clock: use them up.
        while !clock::interrupted() {}
        assert!(!g.vcdt_win(), "a solve past the deadline proves nothing");
        assert!(clock::tripped());
    }
    // The same context (and cache) without a deadline: the real answer.
    assert!(g.vcdt_win(), "the cut-short answer was cached");
    let _far = clock::deadline_scope(Some(Instant::now() + Duration::from_secs(3600)));
    assert!(g.vcdt_win());
}

#[test]
fn a_playout_batch_stops_after_one_playout_past_the_deadline() {
    let g = AnyPosition::parse(GameKind::TicTacToe, ".........").expect("ttt");
    let AnyPosition::TicTacToe(g) = g else {
        unreachable!()
    };
    let q = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    let mut c = Counters::default();
    let mut p = Playouts::new(1, 10);
    let r = {
        let _late = clock::deadline_scope(past());
        // Polls before the clock is read: use them up.
        while !clock::interrupted() {}
        p.win_rate(&g, &q, &mut c)
    };
    assert_eq!(c.playouts, 1);
    assert!(r == 0.0 || r == 1.0);
    p.win_rate(&g, &q, &mut c);
    assert_eq!(c.playouts, 11);
}

fn run(
    algo: &str,
    pos: &AnyPosition,
    pairs: &[(&str, &str)],
    budget: &Budget,
) -> Box<dyn search::Search> {
    let setup = algo_setup(algo, pos, pairs, QuestionKind::Win, 0);
    build_and_run(algo, &setup, budget).0
}

/// A budget whose deadline has passed by the first look at the clock.
fn at_once() -> Budget {
    Budget {
        time_limit: Some(Duration::from_nanos(1)),
        ..Budget::default()
    }
}

/// 26 empty squares, answered in one frontier solve of `dfpn-fast` with
/// `leaf_empties=26` (the old driver spent seconds to minutes in it,
/// whatever the time limit).
const OTHELLO_26: &str = "XOOOO---OXOO-----OXOO---O-OXO----OOOXX---XOOOO--OXXXOO--OX-XOO-- X";

#[test]
fn the_othello_frontier_solver_gives_up_and_answers_nothing() {
    let pos = AnyPosition::parse(GameKind::Othello, OTHELLO_26).expect("obf");
    let s = run("dfpn-fast", &pos, &[("leaf_empties", "26")], &at_once());
    assert_eq!(s.status(), Status::Unknown(StopReason::TimeLimit));
    let extra = s.extra_json();
    assert_eq!(extra["leaf_solves"], 0, "{extra:?}");
}

#[test]
fn a_connect6_zone_search_stops_inside_its_first_step() {
    // The position: each expansion runs hundreds of VCDT solves.
    let pos = AnyPosition::parse(GameKind::Connect6, "j10 i9 k9 g9").expect("connect6");
    for algo in ["pns", "dfpn"] {
        let s = run(algo, &pos, &[], &at_once());
        assert_eq!(s.status(), Status::Unknown(StopReason::TimeLimit), "{algo}");
        assert!(s.counters().iterations <= 1, "{algo}");
    }
}

/// Without a time limit nothing changes: the same run, twice, the same
/// counters (the deadline machinery reads no clock).
#[test]
fn runs_without_a_time_limit_stay_deterministic() {
    let pos = AnyPosition::parse(GameKind::Connect6, "j10 i9 k9 g9").expect("connect6");
    let budget = Budget {
        max_iterations: Some(3),
        ..Budget::default()
    };
    let a = run("pns", &pos, &[], &budget);
    let b = run("pns", &pos, &[], &budget);
    assert_eq!(a.counters().nodes_created, b.counters().nodes_created);
    assert_eq!(a.best_move(), b.best_move());
    assert_eq!(a.status(), Status::Unknown(StopReason::MaxIterations));
}
