//! Parallel df-pn never stalls: every df-pn variant that takes `threads`
//! (`dfpn`, `deep-dfpn`, `dfpn-eps`, `dfpn-fast`), run with two threads on
//! seeded positions of Othello (12–14 empties), Connect Four and
//! tic-tac-toe and on the two 16-empty Othello positions where two
//! threads used to thrash for millions of MID calls, must answer as the
//! sequential search does (itself checked against the exhaustive
//! reference on the small positions, against a second engine on the
//! large ones) within a small multiple of the sequential search's MID
//! calls, counting both threads' calls.

use rand::rngs::SmallRng;
use rand::SeedableRng;

use pnlab::game::othello::random::random_othello;
use pnlab::game::{AnyPosition, Game, GameKind};
use pnlab::search::dfpn::fast::{CALLS_PER_STEP, HELPER_CALLS_CAP};
use pnlab::search::{reference, Budget, Goal, Question, QuestionKind, Status};
use pnlab::with_position;

use crate::common;
use common::search_run::{algo_setup, build_and_run, iteration_budget, proved};
use common::{parse, random_walks};

/// Both threads together may make this many times the sequential calls.
const FACTOR: u64 = 4;

/// Plus this many: a parallel step is a round of [`CALLS_PER_STEP`] calls
/// of the main thread and up to [`HELPER_CALLS_CAP`] of the helper, so a
/// run ends at that grain.
const SLACK: u64 = 2 * (CALLS_PER_STEP + HELPER_CALLS_CAP);

/// The two positions of `bench --suite othello-16-random` (the 6th and the
/// 12th) on which two threads of `dfpn` and `deep-dfpn` made 5–90 times
/// the sequential calls or did not finish.
const THRASHED: [&str; 2] = [
    "--O-X-X---OXXXXX--XXXO--XXOXOO--XXXXXO-OXXXXOXOOXXOXOOXOOOXX--OX X",
    "X----X-XOOOO-XXXXOX-OXXXXXOXXOX--XXOOXXXXX-OOXXOX-O-OXO---XXXXO- X",
];

/// Seeded small positions: Othello with 12–14 empties, Connect Four
/// after 24–30 random moves, tic-tac-toe after 0–3.
fn small_positions() -> Vec<AnyPosition> {
    let mut out: Vec<AnyPosition> = (0..6)
        .map(|i| {
            random_othello(0x7A2A + i, 12 + (i % 3) as u32)
                .expect("position")
                .into_any()
        })
        .collect();
    let mut rng = SmallRng::seed_from_u64(0x7A2A);
    let connect4 = parse(GameKind::Connect4, "");
    out.extend(random_walks(&connect4, 8, 24..31, &mut rng));
    let tictactoe = parse(GameKind::TicTacToe, ".........");
    out.extend(random_walks(&tictactoe, 4, 0..4, &mut rng));
    out
}

/// Runs `algo` with `threads` on `pos` (the Win question) for at most
/// `max_calls` MID calls: the status and the calls made.
fn run(algo: &str, threads: u32, pos: &AnyPosition, max_calls: u64) -> (Status, u64) {
    let threads = threads.to_string();
    let mut pairs = vec![("threads", threads.as_str())];
    if algo == "dfpn-fast" && pos.kind() == GameKind::Othello {
        // The frontier solver would answer these positions at the root;
        // a low threshold leaves the df-pn above it work to share.
        pairs.push(("leaf_empties", "6"));
    }
    let setup = algo_setup(algo, pos, &pairs, QuestionKind::Win, 0);
    let (s, st) = build_and_run(algo, &setup, &iteration_budget(max_calls));
    (st, s.counters().iterations)
}

fn truth(pos: &AnyPosition) -> bool {
    let attacker = pos.default_attacker();
    let q = Question {
        attacker,
        goal: Goal::Win,
    };
    with_position!(pos, g => reference::answer_memo(g, &q))
}

/// Two threads of `algo` on `pos` answer `expected` within the bound.
fn check_parallel(algo: &str, pos: &AnyPosition, expected: bool) {
    let (st1, calls1) = run(algo, 1, pos, 50_000_000);
    let what = format!("{algo} on {}", pos.notation());
    assert_eq!(
        proved(st1, &what),
        expected,
        "{what}: the sequential search answered wrong"
    );
    let bound = FACTOR * calls1 + SLACK;
    let (st2, calls2) = run(algo, 2, pos, bound + 1);
    assert!(
        st2.is_final(),
        "{what}: two threads did not finish in {bound} calls (one thread: {calls1})"
    );
    assert_eq!(
        proved(st2, &what),
        expected,
        "{what}: two threads answered wrong"
    );
    assert!(
        calls2 <= bound,
        "{what}: two threads made {calls2} calls, one thread {calls1}"
    );
}

const ALGOS: [&str; 4] = ["dfpn", "deep-dfpn", "dfpn-eps", "dfpn-fast"];

#[test]
fn two_threads_finish_near_the_sequential_calls_on_seeded_positions() {
    for pos in small_positions() {
        let expected = truth(&pos);
        for algo in ALGOS {
            check_parallel(algo, &pos, expected);
        }
    }
}

#[test]
fn two_threads_finish_on_the_positions_that_used_to_thrash() {
    for s in THRASHED {
        let pos = parse(GameKind::Othello, s);
        // A second engine (the fast one with its exact frontier
        // alpha-beta over the last 14 empties) gives the answer.
        let pairs = [("leaf_empties", "14")];
        let setup = algo_setup("dfpn-fast", &pos, &pairs, QuestionKind::Win, 0);
        let (_, st) = build_and_run("dfpn-fast", &setup, &Budget::default());
        let expected = proved(st, "dfpn-fast with leaf_empties = 14");
        for algo in ALGOS {
            check_parallel(algo, &pos, expected);
        }
    }
}
