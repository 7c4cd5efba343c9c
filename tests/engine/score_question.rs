//! The score question (`--question score`, `dfpn-fast`): the exact score
//! for the side to move, checked against an exhaustive alpha-beta written
//! here (Othello: the final disc difference, empties to the winner;
//! Connect Four: Pascal Pons's score, computed from the number of stones
//! at the end as his test protocol defines it) on seeded random small
//! positions, and against published scores (Pons's `Test_L3_R1`, FForum
//! #1–#19 as distributed with Edax; see tests/data/*/SOURCE.md).

use pnlab::game::connect4::Connect4;
use pnlab::game::{AnyPosition, Game, GameKind, Player};
use pnlab::search::{self, Budget, QuestionKind, SearchSetup, Status};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::common;
use common::search_run::{algo_setup, build_and_run};

/// Pons's score of a finished Connect Four game for the side to move:
/// the winner (the player who moved last) scores 22 − k with its k-th
/// stone, so the side to move scores k − 22; a full board is a draw.
fn connect4_final(g: &Connect4) -> i32 {
    match g.outcome() {
        Some(o) if o.score != 0 => {
            let n = i32::from(g.stones());
            // The first player has ⌈n/2⌉ stones, the second ⌊n/2⌋.
            let k = if g.to_move() == Player::First {
                n / 2
            } else {
                (n + 1) / 2
            };
            k - 22
        }
        _ => 0,
    }
}

/// Fail-hard negamax with alpha-beta over the `Game` trait: the exact
/// score for the side to move of `g`, clamped to [alpha, beta].
fn negamax<G: Game>(g: &G, mut alpha: i32, beta: i32, last: &dyn Fn(&G) -> i32) -> i32 {
    if g.outcome().is_some() {
        return last(g).clamp(alpha, beta);
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    for m in moves {
        let mut c = g.clone();
        c.play(m);
        // A pass keeps the mover: its score is not negated.
        let v = if c.to_move() == g.to_move() {
            negamax(&c, alpha, beta, last)
        } else {
            -negamax(&c, -beta, -alpha, last)
        };
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

fn othello_final(g: &pnlab::game::othello::Othello) -> i32 {
    g.outcome().map_or(0, |o| o.score_for(g.to_move()))
}

/// The score `dfpn-fast` finds for `pos` (with `pairs`), from its JSON
/// field `score`; the run must end with an answer.
fn fast_score(pos: &AnyPosition, pairs: &[(&str, &str)]) -> (i32, Status) {
    let setup = algo_setup("dfpn-fast", pos, pairs, QuestionKind::Score, 0);
    let (s, st) = build_and_run("dfpn-fast", &setup, &Budget::default());
    assert!(st.is_final() && st != Status::Unknown(search::StopReason::Exhausted));
    let score = s
        .extra_json()
        .get("score")
        .and_then(|v| v.as_i64())
        .unwrap_or_else(|| panic!("no score for {} ({st:?})", pos.notation()));
    (score as i32, st)
}

/// Checks `dfpn-fast`'s score of `pos` against `truth` under each set of
/// parameters, and the status that goes with it.
fn check(pos: &AnyPosition, truth: i32, settings: &[&[(&str, &str)]]) {
    for pairs in settings {
        let (score, st) = fast_score(pos, pairs);
        assert_eq!(score, truth, "{} {pairs:?}", pos.notation());
        let wins = st == Status::Proved;
        assert_eq!(wins, truth >= 1, "{} {pairs:?}", pos.notation());
    }
}

#[test]
fn connect4_scores_match_an_exhaustive_search_on_random_positions() {
    let mut rng = SmallRng::seed_from_u64(36);
    let start = AnyPosition::Connect4(Connect4::new());
    // 28–33 stones played: 9–14 empty cells.
    let positions = common::random_walks(&start, 60, 28..34, &mut rng);
    let settings: &[&[(&str, &str)]] = &[
        // The frontier solver answers everything...
        &[],
        // ...or df-pn does, with the tactics and without.
        &[("leaf_cells", "0")],
        &[("leaf_cells", "0"), ("tactics", "off"), ("mirror", "off")],
        // A frontier part-way down.
        &[("leaf_cells", "6")],
    ];
    let mut seen = std::collections::BTreeSet::new();
    for pos in &positions {
        let AnyPosition::Connect4(g) = pos else {
            unreachable!()
        };
        let truth = negamax(g, -22, 22, &connect4_final);
        seen.insert(truth.signum());
        check(pos, truth, settings);
    }
    assert_eq!(seen.len(), 3, "wins, draws and losses all met");
}

#[test]
fn the_stones_alone_bound_the_connect4_score() {
    use pnlab::search::dfpn::fast::connect4_score_leaf::score_range;
    let mut rng = SmallRng::seed_from_u64(37);
    let start = AnyPosition::Connect4(Connect4::new());
    // 28–39 stones played: 3–14 empty cells.
    let positions = common::random_walks(&start, 120, 28..40, &mut rng);
    let (mut exact, mut open) = (0, 0);
    for pos in &positions {
        let AnyPosition::Connect4(g) = pos else {
            unreachable!()
        };
        let truth = negamax(g, -22, 22, &connect4_final);
        let (lowest, highest) = score_range(g);
        assert!(
            lowest <= truth && truth <= highest,
            "{}: {truth} not in [{lowest}, {highest}]",
            pos.notation()
        );
        if lowest == highest {
            exact += 1;
        } else {
            open += 1;
        }
    }
    assert!(exact > 0 && open > 0, "exact {exact}, open {open}");
}

#[test]
fn othello_scores_match_an_exhaustive_search_on_random_positions() {
    use pnlab::game::othello::random::random_othello;
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40u64 {
        let empties = 6 + (seed % 5) as u32;
        let Some(g) = random_othello(seed, empties) else {
            continue;
        };
        let truth = negamax(&g, -64, 64, &othello_final);
        seen.insert(truth.signum());
        let pos = g.into_any();
        check(
            &pos,
            truth,
            &[
                &[],
                &[("leaf_empties", "0")],
                &[("leaf_empties", "4"), ("init", "unit")],
            ],
        );
    }
    assert!(seen.len() >= 2, "both winners met: {seen:?}");
}

#[test]
fn connect4_scores_match_pons_published_scores() {
    let text = include_str!("../data/connect4/Test_L3_R1");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(120) {
        let (moves, score) = line.split_once(' ').expect("`<moves> <score>`");
        let pos = common::parse(GameKind::Connect4, moves);
        let truth: i32 = score.trim().parse().expect("a score");
        check(&pos, truth, &[&[], &[("leaf_cells", "4")]]);
        n += 1;
    }
    assert_eq!(n, 120);
}

#[test]
fn othello_scores_match_the_published_ffo_scores() {
    // FForum #1–#19: every legal move with its exact score, best first.
    let text = include_str!("../data/othello/fforum-1-19.obf");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(';'))
    {
        let pos = common::parse(GameKind::Othello, line);
        let best: i32 = line
            .split(';')
            .nth(1)
            .and_then(|m| m.split(':').nth(1))
            .and_then(|v| v.trim().parse().ok())
            .expect("a published score");
        check(&pos, best, &[&[]]);
        n += 1;
    }
    assert_eq!(n, 19);
}

#[test]
fn the_score_keeps_the_table_and_narrows_its_bracket() {
    // "4455" scores 18 for the side to move (Pons's blog), a position
    // the game's tactics do not settle at once.
    let pos = common::parse(GameKind::Connect4, "4455");
    let setup = algo_setup("dfpn-fast", &pos, &[], QuestionKind::Score, 0);
    let (s, st) = build_and_run("dfpn-fast", &setup, &Budget::default());
    assert_eq!(st, Status::Proved);
    let extra = s.extra_json();
    assert_eq!(extra["score"], 18);
    let qs = extra["score_questions"].as_array().expect("questions");
    // With four stones and no win now no score above ⌊(41 − 4)/2⌋ = 18
    // is possible: the bracket starts there and no question asks more.
    assert!(
        qs.iter().all(|q| q["target"].as_i64() <= Some(18)),
        "{qs:?}"
    );
    // The win first, then bisection: a handful of questions, each
    // threshold asked once.
    assert_eq!(qs[0]["target"], 1);
    assert!(qs.len() <= 6, "{qs:?}");
    let mut targets: Vec<i64> = qs.iter().map(|q| q["target"].as_i64().unwrap()).collect();
    targets.sort();
    targets.dedup();
    assert_eq!(targets.len(), qs.len());
}

#[test]
fn other_algorithms_and_games_refuse_the_score_question() {
    let pos = common::parse(GameKind::Connect4, "4455");
    let setup = algo_setup("pns", &pos, &[], QuestionKind::Score, 0);
    let e = search::build("pns", &setup).err().expect("refused");
    assert!(e.to_string().contains("dfpn-fast"), "{e}");
    let hex = common::parse(GameKind::Hex, "3:");
    let setup: SearchSetup = algo_setup("dfpn-fast", &hex, &[], QuestionKind::Score, 0);
    let e = search::build("dfpn-fast", &setup).err().expect("refused");
    assert!(e.to_string().contains("scores"), "{e}");
    // The CLI: a clear error, exit status 2.
    let (code, out, err) =
        common::pnlab(&["solve", "--game", "connect4", "--question", "score", "4455"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("--question score") && err.contains("dfpn-fast"),
        "{err}"
    );
    let (code, out, err) = common::pnlab(&[
        "solve",
        "--game",
        "connect4",
        "--question",
        "score",
        "--algo",
        "dfpn-fast",
        "--json",
        "4455",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON line");
    assert_eq!(v["score"], 18);
    assert_eq!(v["question"], "score");
}
