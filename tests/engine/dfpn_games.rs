//! The df-pn family on the other games: every variant (with non-default
//! parameters too) against the exhaustive reference on seeded random
//! positions of Connect Four (≥ 30 stones), Othello (≤ 12 empties), Hex
//! 3×3 and 4×4 and small P-games, for both questions; and the exactness of Deep df-pn's
//! E = 1 / D ≤ 1 rows and of 1+ε with ε = 1e-9 (identical MID sequences
//! and counters to df-pn) on those positions.

use crate::common;
use common::search_run::{algo_setup, build_and_run, dfpn_special_cases, iteration_budget, proved};
use common::{parse, random_walk};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::{AnyPosition, Game, GameKind};
use pnlab::search::dfpn::DfpnOptions;
use pnlab::search::{reference, Goal, Question, QuestionKind, SearchSetup};
use pnlab::with_position;

fn positions(
    seed: u64,
    count: usize,
    make: impl Fn(&mut SmallRng) -> Option<AnyPosition>,
) -> Vec<AnyPosition> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 50 {
        tries += 1;
        if let Some(p) = make(&mut rng) {
            out.push(p);
        }
    }
    assert_eq!(out.len(), count, "could not generate the positions");
    out
}

fn connect4() -> Vec<AnyPosition> {
    positions(31, 150, |rng| {
        let n = rng.random_range(30..36);
        random_walk(&parse(GameKind::Connect4, ""), n, rng)
    })
}

fn othello(count: usize, plies: std::ops::Range<usize>) -> Vec<AnyPosition> {
    let start = parse(
        GameKind::Othello,
        "---------------------------OX------XO--------------------------- X",
    );
    positions(47 + plies.start as u64, count, move |rng| {
        let n = rng.random_range(plies.clone());
        random_walk(&start, n, rng)
    })
}

fn hex(size: u8, count: usize, plies: std::ops::Range<usize>) -> Vec<AnyPosition> {
    positions(300 + size as u64, count, move |rng| {
        let n = rng.random_range(plies.clone());
        random_walk(&parse(GameKind::Hex, &format!("{size}:")), n, rng)
    })
}

fn pgames() -> Vec<AnyPosition> {
    positions(5, 200, |rng| {
        let b = rng.random_range(2..5);
        let d = rng.random_range(2..7);
        let seed: u32 = rng.random();
        Some(parse(GameKind::PGame, &format!("b={b},d={d},seed={seed}")))
    })
}

const CONFIGS: &[(&str, &[(&str, &str)])] = &[
    ("dfpn", &[]),
    ("dfpn-eps", &[("eps", "0.5")]),
    ("dfpn-eps", &[("eps", "4")]),
    ("deep-dfpn", &[("E", "3"), ("D", "5")]),
    ("deep-dfpn", &[("E", "8"), ("D", "3")]),
    ("deep-dfpn", &[("E", "0"), ("D", "2")]),
    ("dfs", &[]),
];

fn check_against_reference(name: &str, list: &[AnyPosition], configs: &[(&str, &[(&str, &str)])]) {
    let mut runs = 0;
    for (i, pos) in list.iter().enumerate() {
        let attacker = pos.default_attacker();
        for (qk, goal) in [
            (QuestionKind::Win, Goal::Win),
            (QuestionKind::NotLose, Goal::NotLose),
        ] {
            let q = Question { attacker, goal };
            let truth = with_position!(pos, g => reference::answer(g, &q));
            for (algo, pairs) in configs {
                let setup = SearchSetup {
                    memory_limit_bytes: Some(64 << 20),
                    ..algo_setup(algo, pos, pairs, qk, i as u64)
                };
                let (_, st) = build_and_run(algo, &setup, &iteration_budget(5_000_000));
                let what = format!("{name} #{i} {} {algo} {pairs:?} {goal:?}", pos.notation());
                let got = proved(st, &format!("{what}: ended"));
                assert_eq!(got, truth, "{what}: wrong answer");
                runs += 1;
            }
        }
    }
    assert_eq!(runs, list.len() * 2 * configs.len());
}

#[test]
fn connect4_endgames_agree_with_the_reference() {
    check_against_reference("connect4", &connect4(), CONFIGS);
}

#[test]
fn othello_endgames_agree_with_the_reference() {
    // ≤ 8 empties for every variant, 10–12 empties for the df-pn searches
    // (the plain depth-first search is as slow as the reference there).
    check_against_reference("othello<=8", &othello(100, 52..57), CONFIGS);
    check_against_reference("othello<=12", &othello(20, 48..51), &CONFIGS[..5]);
}

#[test]
fn hex_positions_agree_with_the_reference() {
    // Hex 3×3 from the empty board on; Hex 4×4 with at least 8 stones for
    // every variant, and from 5 stones for the df-pn searches (the
    // reference and the plain depth-first search have no table, so fuller
    // 4×4 boards keep this file fast).
    check_against_reference("hex3", &hex(3, 60, 0..5), CONFIGS);
    check_against_reference("hex4>=8", &hex(4, 40, 8..11), CONFIGS);
    check_against_reference("hex4>=5", &hex(4, 6, 5..7), &CONFIGS[..5]);
}

#[test]
fn pgames_agree_with_the_reference() {
    check_against_reference("pgame", &pgames(), CONFIGS);
}

fn trace<G: Game>(g: &G, q: Question, opts: DfpnOptions) -> (Vec<(u32, u64, u32, u32)>, String) {
    common::dfpn_trace(g, q, opts)
}

#[test]
fn special_cases_perform_exactly_as_dfpn_on_every_game() {
    let specials = dfpn_special_cases(&[(1, 9), (6, 1), (2, 0)]);
    let mut all = connect4();
    all.truncate(15);
    all.extend(othello(15, 52..57));
    all.extend(pgames().into_iter().take(20));
    all.extend(hex(3, 10, 0..4));
    all.extend(hex(4, 10, 4..8));
    let mut compared = 0;
    for pos in &all {
        for goal in [Goal::Win, Goal::NotLose] {
            let q = Question {
                attacker: pos.default_attacker(),
                goal,
            };
            with_position!(pos, g => {
                let base = trace(g, q, DfpnOptions::default());
                for o in &specials {
                    let t = trace(g, q, *o);
                    assert_eq!(t.1, base.1, "{} {goal:?} {o:?}", pos.notation());
                    assert!(t.0 == base.0, "{} {goal:?} {o:?}: MID sequence differs", pos.notation());
                    compared += 1;
                }
            });
        }
    }
    assert_eq!(compared, all.len() * 2 * specials.len());
}

#[test]
fn generated_positions_have_the_stated_sizes() {
    for p in connect4() {
        let AnyPosition::Connect4(g) = &p else {
            panic!("not connect4")
        };
        assert!(g.stones() >= 30, "{}", p.notation());
    }
    for (list, lo, hi) in [(othello(100, 52..57), 0, 8), (othello(20, 48..51), 10, 12)] {
        for p in list {
            let AnyPosition::Othello(g) = &p else {
                panic!("not othello")
            };
            assert!((lo..=hi).contains(&g.empties()), "{} empties", g.empties());
        }
    }
}
