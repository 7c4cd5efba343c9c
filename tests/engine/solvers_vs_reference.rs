//! Every registered algorithm against the exhaustive reference (plain
//! alpha-beta negamax, `search::reference`) on seeded random positions of
//! every game, for both questions (win, not-lose). Every run must answer
//! within its budget: `unknown` fails the test unless the (family,
//! algorithm) pair is listed in [`TOO_HARD`] with the reason; such runs
//! are counted and still may never answer wrong. `pn-value` must return
//! the exact minimax value.
//!
//! Position counts per game are the defaults below; `PNLAB_TEST_SCALE=k`
//! multiplies them for a longer soak run.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use std::collections::HashMap;

use pnlab::game::{AnyPosition, Game, GameKind, Player};
use pnlab::search::{
    self, reference, Budget, Goal, Params, Question, QuestionKind, SearchSetup, Status,
};
use pnlab::with_position;

use crate::common;
use common::{parse, random_walk};

struct Family {
    name: &'static str,
    count: usize,
    make: Make,
}

/// How a family's positions are drawn.
enum Make {
    /// A random walk from `start` (a `game` notation) of a number of
    /// plies drawn from `plies`.
    Walk {
        game: GameKind,
        start: &'static str,
        plies: std::ops::Range<usize>,
    },
    /// A generator of its own.
    With(fn(&mut SmallRng) -> Option<AnyPosition>),
}

impl Make {
    fn draw(&self, rng: &mut SmallRng) -> Option<AnyPosition> {
        match self {
            Make::Walk { game, start, plies } => {
                let n = rng.random_range(plies.clone());
                random_walk(&parse(*game, start), n, rng)
            }
            Make::With(make) => make(rng),
        }
    }
}

/// A family of random walks of 1000 positions.
fn walks(
    name: &'static str,
    game: GameKind,
    start: &'static str,
    plies: std::ops::Range<usize>,
) -> Family {
    Family {
        name,
        count: 1000,
        make: Make::Walk { game, start, plies },
    }
}

fn families() -> Vec<Family> {
    vec![
        walks("tictactoe", GameKind::TicTacToe, ".........", 0..7),
        walks("connect4 (>= 30 stones)", GameKind::Connect4, "", 30..34),
        walks("hex 3x3", GameKind::Hex, "3:", 0..5),
        walks("hex 4x4 (>= 7 stones)", GameKind::Hex, "4:", 7..11),
        // 52+ plies from the start leave at most 8 empty squares (passes
        // can make it fewer).
        walks(
            "othello (<= 8 empties)",
            GameKind::Othello,
            "---------------------------OX------XO--------------------------- X",
            52..57,
        ),
        Family {
            name: "pgame",
            count: 1000,
            make: Make::With(|rng| {
                let b = rng.random_range(2..5);
                let d = rng.random_range(2..7);
                let seed: u32 = rng.random();
                Some(parse(GameKind::PGame, &format!("b={b},d={d},seed={seed}")))
            }),
        },
        Family {
            name: "connect (3x3..6x6, k 3-5, p 1-2, q 1-2, <= 8 empties)",
            count: 300,
            make: Make::With(|rng| {
                let m: usize = rng.random_range(3..7);
                let n = rng.random_range(3..7);
                let k = rng.random_range(3..6).min(m.max(n));
                let p = rng.random_range(1..3);
                let q = rng.random_range(1..3);
                let start = parse(GameKind::Connect, &format!("{m},{n},{k},{p},{q}:"));
                let empties = rng.random_range(3..9);
                random_walk(&start, (m * n).saturating_sub(empties), rng)
            }),
        },
    ]
}

/// (family, algorithm, why): pairs allowed to stop `unknown` at the
/// budget. Empty today: every registered proof search answers every
/// position here within 2M iterations.
const TOO_HARD: &[(&str, &str, &str)] = &[];

fn excused(family: &str, algo: &str) -> Option<&'static str> {
    TOO_HARD
        .iter()
        .find(|(f, a, _)| *f == family && *a == algo)
        .map(|(_, _, why)| *why)
}

fn scale() -> usize {
    std::env::var("PNLAB_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// The algorithms checked here: every registered one. `alphabeta` is a
/// depth-limited search: given a depth beyond the end of every game here
/// it searches the whole tree and must answer exactly (its value is on
/// the evaluation scale, ±10000 for a win, compared with
/// [`eval_scale_value`]).
fn run_algo(algo: &str, pos: &AnyPosition, q: QuestionKind, seed: u64) -> (Status, Option<i64>) {
    let info = search::find_algo(algo).expect("registered");
    let mut params = Params::defaults(info.params);
    if algo == "alphabeta" {
        params.set(info.params, "depth", "64").unwrap();
    }
    // Opponent-model search with the opponent modelled by the searcher's
    // own evaluation is plain minimax (Carmel & Markovitch 1996): deep
    // enough, it must find the game's value too.
    if algo == "om" {
        // Its deepest setting; every game here ends within 32 plies.
        params.set(info.params, "depth", "32").unwrap();
        params.set(info.params, "model", "f1").unwrap();
        params.set(info.params, "eval", "f1").unwrap();
    }
    let setup = SearchSetup {
        position: pos.clone(),
        params,
        seed,
        question: q,
        memory_limit_bytes: None,
    };
    let mut s = search::build(algo, &setup).unwrap_or_else(|e| panic!("{algo}: {e}"));
    let budget = Budget {
        max_iterations: Some(2_000_000),
        ..Budget::default()
    };
    let st = search::run(s.as_mut(), &budget, None);
    let value = s.extra_json().get("value").and_then(|v| v.as_i64());
    (st, value)
}

/// The value a full-depth alpha-beta must return, computed here on its
/// own: plain minimax over the whole game tree from `attacker`'s view,
/// finished games at [`Game::terminal_value`] (the evaluation scale:
/// ±10000 for a win, a hand-written tree's own leaf scores), positions
/// memoised by hash (none of these games has a history).
fn eval_scale_value<G: Game>(g: &G, attacker: Player, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(o) = g.outcome() {
        let v = g.terminal_value(o);
        return if attacker == Player::First { v } else { -v };
    }
    if let Some(&v) = memo.get(&g.hash()) {
        return v;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let maximise = g.to_move() == attacker;
    let mut best = if maximise { i32::MIN } else { i32::MAX };
    for m in moves {
        let mut c = g.clone();
        c.play(m);
        let v = eval_scale_value(&c, attacker, memo);
        best = if maximise { best.max(v) } else { best.min(v) };
    }
    memo.insert(g.hash(), best);
    best
}

fn check_family(f: &Family) {
    let mut rng = SmallRng::seed_from_u64(0x5EED ^ f.name.len() as u64);
    let mut positions = Vec::new();
    let mut tries = 0;
    while positions.len() < f.count * scale() && tries < f.count * scale() * 200 {
        tries += 1;
        if let Some(p) = f.make.draw(&mut rng) {
            positions.push(p);
        }
    }
    assert!(
        positions.len() >= f.count * scale(),
        "{}: could only generate {} positions",
        f.name,
        positions.len()
    );
    let mut checked = 0usize;
    let mut unknown = 0usize;
    for (i, pos) in positions.iter().enumerate() {
        let attacker = pos.default_attacker();
        let truth_value = with_position!(pos, g => reference::value_for(g, attacker));
        let mut eval_value: Option<i32> = None;
        for algo in search::algorithms().iter().map(|a| a.name) {
            // The value searches of chance games (expectimax, star1,
            // star2) are checked against an exact expectimax in
            // tests/chance_search.rs, on games without chance nodes too.
            if search::registry::handles_chance(algo) {
                continue;
            }
            // The sampled Monte-Carlo and value searches are slower per
            // position; check them on a subset of each family.
            let heavy = !matches!(algo, "pns" | "dfpn" | "deep-pn");
            if heavy && i % 4 != 0 {
                continue;
            }
            if matches!(algo, "alphabeta" | "om") && !pos.has_evaluation() {
                continue;
            }
            for (qk, goal) in [
                (QuestionKind::Win, Goal::Win),
                (QuestionKind::NotLose, Goal::NotLose),
            ] {
                let q = Question { attacker, goal };
                let truth = with_position!(pos, g => reference::answer(g, &q));
                let (st, value) = run_algo(algo, pos, qk, i as u64);
                let got = match st {
                    Status::Proved => true,
                    Status::Disproved => false,
                    other => match excused(f.name, algo) {
                        Some(why) => {
                            eprintln!("{} #{i}: {algo} {goal:?} {other:?} ({why})", f.name);
                            unknown += 1;
                            continue;
                        }
                        None => panic!(
                            "{} #{i} {}: {algo} {goal:?} ended {other:?} within a 2M-iteration budget",
                            f.name,
                            pos.notation()
                        ),
                    },
                };
                assert_eq!(
                    got,
                    truth,
                    "{} #{i} {}: {algo} {goal:?} answered wrong",
                    f.name,
                    pos.notation()
                );
                if let Some(v) = value {
                    // Alpha-beta and opponent-model search (modelling the
                    // opponent by the searcher's own evaluation) report
                    // the value on the evaluation scale: exactly the
                    // minimax of the finished games' terminal values.
                    let want = if matches!(algo, "alphabeta" | "om") {
                        *eval_value.get_or_insert_with(|| {
                            with_position!(pos, g => eval_scale_value(g, attacker, &mut HashMap::new()))
                        }) as i64
                    } else {
                        truth_value as i64
                    };
                    assert_eq!(
                        v,
                        want,
                        "{} #{i} {}: {algo} value wrong",
                        f.name,
                        pos.notation()
                    );
                }
                checked += 1;
            }
        }
    }
    eprintln!(
        "{}: {} positions, {checked} runs agree with the reference, {unknown} excused unknown",
        f.name,
        positions.len()
    );
}

macro_rules! family_test {
    ($test:ident, $index:expr) => {
        #[test]
        fn $test() {
            let fams = families();
            check_family(&fams[$index]);
        }
    };
}

family_test!(tictactoe_random_positions, 0);
family_test!(connect4_endgame_positions, 1);
family_test!(hex3_random_positions, 2);
family_test!(hex4_random_positions, 3);
family_test!(othello_endgame_positions, 4);
family_test!(pgame_random_trees, 5);
family_test!(connect_small_members, 6);
