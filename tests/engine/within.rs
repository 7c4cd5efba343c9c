//! The mate question `--within N` for every game and every proof search:
//! each search's answer on the position wrapped by `AnyPosition::within`
//! equals a plain depth-limited AND/OR minimax written here (the attacker
//! must reach a finished game that answers the question yes within N of
//! its own moves; a position where the attacker has used up its moves and
//! the game goes on is a no), on seeded positions of tic-tac-toe, Connect
//! Four, Hex, Othello, P-games and xiangqi, for both questions.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::{AnyPosition, Game, GameKind, Player};
use pnlab::search::{Budget, Goal, Question, QuestionKind, Status};
use pnlab::with_position;

use crate::common;
use common::search_run::{algo_setup, build_and_run};
use common::{parse, random_walk, random_walks};

/// The depth-limited minimax: does `attacker` reach a finished game that
/// answers `goal` with yes within `left` more moves of its own?
fn wins_within<G: Game>(g: &G, attacker: Player, goal: Goal, left: u32) -> bool {
    if let Some(o) = g.outcome() {
        return Question { attacker, goal }.holds(o);
    }
    if left == 0 {
        return false;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let child = |m: &G::Move| {
        let mut c = g.clone();
        c.play(*m);
        c
    };
    if g.to_move() == attacker {
        moves
            .iter()
            .any(|m| wins_within(&child(m), attacker, goal, left - 1))
    } else {
        moves
            .iter()
            .all(|m| wins_within(&child(m), attacker, goal, left))
    }
}

/// `count` positions `plies` random moves from `start`.
fn walks(
    seed: u64,
    count: usize,
    start: &AnyPosition,
    plies: std::ops::Range<usize>,
) -> Vec<AnyPosition> {
    random_walks(start, count, plies, &mut SmallRng::seed_from_u64(seed))
}

/// Runs `algo` on `p` within `n`; the status, which must be final.
fn solve(algo: &str, p: &AnyPosition, n: u32, question: QuestionKind, seed: u64) -> Status {
    let setup = algo_setup(algo, &p.clone().within(n), &[], question, seed);
    let budget = Budget {
        max_nodes: Some(5_000_000),
        ..Budget::default()
    };
    build_and_run(algo, &setup, &budget).1
}

/// Checks every algorithm of `algos` on every position for N in `ns` and
/// both questions; returns the number of (position, N, question, algo)
/// answers compared and how many were yes.
fn check(positions: &[AnyPosition], ns: &[u32], algos: &[&str]) -> (usize, usize) {
    let (mut compared, mut yes) = (0, 0);
    for (i, p) in positions.iter().enumerate() {
        let attacker = p.default_attacker();
        for &n in ns {
            for (goal, question) in [
                (Goal::Win, QuestionKind::Win),
                (Goal::NotLose, QuestionKind::NotLose),
            ] {
                let want = with_position!(p, g => wins_within(g, attacker, goal, n));
                for algo in algos {
                    let got = solve(algo, p, n, question, i as u64);
                    let expected = if want {
                        Status::Proved
                    } else {
                        Status::Disproved
                    };
                    assert_eq!(
                        got,
                        expected,
                        "{algo} on {} `{}` within {n}, {goal:?}",
                        p.kind(),
                        p.notation()
                    );
                    compared += 1;
                    yes += usize::from(want);
                }
            }
        }
    }
    (compared, yes)
}

/// The proof searches that answer exactly on any finite tree.
const EXACT: &[&str] = &["pns", "deep-pn", "dfpn", "dfpn-eps", "deep-dfpn", "dfs"];

#[test]
fn tictactoe_every_search() {
    let empty = parse(GameKind::TicTacToe, ".........");
    let ps = walks(1, 25, &empty, 0..6);
    let mut algos = EXACT.to_vec();
    algos.extend(["ppn", "mcpn", "mcts-solver", "uct-solver"]);
    let (n, yes) = check(&ps, &[1, 2, 3], &algos);
    assert!(yes > 0 && yes < n, "{yes}/{n}");
}

#[test]
fn connect4_hex_pgame() {
    let c4 = walks(2, 15, &parse(GameKind::Connect4, ""), 14..26);
    let hex = walks(3, 15, &parse(GameKind::Hex, "4:"), 3..8);
    let pg = vec![
        parse(GameKind::PGame, "b=2,d=6,seed=1"),
        parse(GameKind::PGame, "b=3,d=5,seed=2"),
        parse(GameKind::PGame, "b=2,d=7,seed=3"),
    ];
    let mut all = c4;
    all.extend(hex);
    all.extend(pg);
    let (n, yes) = check(&all, &[1, 2, 3], EXACT);
    assert!(yes > 0 && yes < n, "{yes}/{n}");
}

#[test]
fn othello_endgames() {
    let start = parse(
        GameKind::Othello,
        "---------------------------OX------XO--------------------------- X",
    );
    let ps = walks(4, 8, &start, 50..54);
    let (n, yes) = check(&ps, &[1, 2], &["pns", "dfpn"]);
    assert!(n > 0 && yes <= n);
}

/// Xiangqi: positions a few random moves away from mate-in-1 and
/// mate-in-2 puzzles (so both answers occur), N = 1 and 2.
#[test]
fn xiangqi_near_mates() {
    let puzzles: Vec<&str> = include_str!("../data/xiangqi/xiangqi_mate_puzzles.tsv")
        .split('\n')
        .filter(|l| l.starts_with("puzzle_"))
        .filter(|l| matches!(l.split('\t').nth(3), Some("1" | "2")))
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    let mut rng = SmallRng::seed_from_u64(5);
    let mut ps = Vec::new();
    while ps.len() < 12 {
        let fen = puzzles[rng.random_range(0..puzzles.len())];
        let p = parse(GameKind::Xiangqi, fen);
        let plies = rng.random_range(0..3);
        ps.extend(random_walk(&p, plies, &mut rng));
    }
    let (n, yes) = check(&ps, &[1, 2], &["pns", "dfpn", "deep-pn"]);
    assert!(yes > 0 && yes < n, "{yes}/{n}");
}
