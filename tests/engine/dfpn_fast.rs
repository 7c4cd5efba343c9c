//! `dfpn-fast` and the parallel df-pn against the exhaustive reference
//! (`search::reference`, plain AND/OR evaluation with no proof-number
//! machinery) on seeded random positions: every option of the fast
//! configuration (initialisation, ordering, frontier solver threshold,
//! 1+ε, tiny lossy tables) and `threads = 2` for the whole df-pn family.
//! A run may never answer wrong, and within its budget must answer.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::othello::random::random_othello;
use pnlab::game::{AnyPosition, Game, GameKind};
use pnlab::search::{
    self, reference, Budget, Goal, Params, Question, QuestionKind, SearchSetup, Status,
};
use pnlab::with_position;

use crate::common;
use common::search_run::{algo_setup, build_and_run, iteration_budget, proved};
use common::{parse, random_walk};

/// Othello endgames with 9–13 empties from the experiments' generator.
fn othello(count: u64) -> Vec<AnyPosition> {
    (0..count)
        .map(|i| {
            let g = random_othello(0xFA57 + i, 9 + (i % 5) as u32).expect("position");
            g.into_any()
        })
        .collect()
}

fn other_games(count: usize) -> Vec<AnyPosition> {
    let mut rng = SmallRng::seed_from_u64(0xFA57);
    let mut out = Vec::new();
    while out.len() < count {
        let p = match out.len() % 3 {
            0 => random_walk(
                &parse(GameKind::Connect4, ""),
                rng.random_range(26..32),
                &mut rng,
            ),
            1 => random_walk(
                &parse(GameKind::Hex, "4:"),
                rng.random_range(4..9),
                &mut rng,
            ),
            _ => random_walk(
                &parse(GameKind::TicTacToe, "........."),
                rng.random_range(0..4),
                &mut rng,
            ),
        };
        out.extend(p);
    }
    out
}

/// Runs `algo` with `pairs` on `pos` for `q` and returns its answer.
fn answer(
    algo: &str,
    pairs: &[(&str, &str)],
    memory: Option<u64>,
    pos: &AnyPosition,
    q: QuestionKind,
) -> bool {
    let setup = SearchSetup {
        memory_limit_bytes: memory,
        ..algo_setup(algo, pos, pairs, q, 0)
    };
    let (_, st) = build_and_run(algo, &setup, &iteration_budget(20_000_000));
    proved(st, &format!("{algo} {pairs:?} on {}", pos.notation()))
}

fn truth(pos: &AnyPosition, q: QuestionKind) -> bool {
    let attacker = pos.default_attacker();
    let goal = match q {
        QuestionKind::Win | QuestionKind::Score => Goal::Win,
        QuestionKind::NotLose => Goal::NotLose,
    };
    with_position!(pos, g => reference::answer_memo(g, &Question { attacker, goal }))
}

fn check(positions: &[AnyPosition], algo: &str, pairs: &[(&str, &str)], memory: Option<u64>) {
    for (i, pos) in positions.iter().enumerate() {
        for q in [QuestionKind::Win, QuestionKind::NotLose] {
            assert_eq!(
                answer(algo, pairs, memory, pos, q),
                truth(pos, q),
                "#{i} {}: {algo} {pairs:?} {q:?} answered wrong",
                pos.notation()
            );
        }
    }
}

#[test]
fn fast_configurations_answer_like_the_reference_on_othello() {
    let set = othello(40);
    for pairs in [
        &[][..],
        &[("leaf_empties", "0")][..],
        &[("leaf_empties", "6"), ("init", "unit")][..],
        &[("leaf_empties", "4"), ("order", "generation")][..],
        &[("leaf_empties", "0"), ("eps", "0.5")][..],
    ] {
        check(&set, "dfpn-fast", pairs, None);
    }
}

#[test]
fn fast_df_pn_answers_like_the_reference_on_other_games() {
    let set = other_games(90);
    check(&set, "dfpn-fast", &[], None);
    check(
        &set,
        "dfpn-fast",
        &[("init", "unit"), ("eps", "0.25")],
        None,
    );
}

#[test]
fn tiny_lossy_tables_slow_the_search_but_never_change_an_answer() {
    // 4 KiB: a map of a few dozen entries within the budget (it counts
    // the map's real buckets, growth included), so entries are
    // overwritten all the time.
    check(
        &othello(12),
        "dfpn-fast",
        &[("leaf_empties", "3")],
        Some(1 << 12),
    );
    check(&other_games(30), "dfpn-fast", &[], Some(1 << 12));
}

#[test]
fn two_threads_give_the_sequential_answers() {
    let mut set = othello(16);
    set.extend(other_games(30));
    for algo in ["dfpn", "dfpn-eps", "deep-dfpn"] {
        check(&set, algo, &[("threads", "2")], None);
    }
    // `leaf_empties` is a parameter of Othello positions only.
    let pairs = [("threads", "2"), ("leaf_empties", "4")];
    check(&othello(16), "dfpn-fast", &pairs, None);
    check(&other_games(30), "dfpn-fast", &[("threads", "2")], None);
}

#[test]
fn a_parallel_run_reports_its_threads_and_work() {
    let pos = othello(1).remove(0);
    let setup = SearchSetup {
        memory_limit_bytes: Some(1 << 22),
        ..algo_setup("dfpn", &pos, &[("threads", "3")], QuestionKind::Win, 0)
    };
    let (s, st) = build_and_run("dfpn", &setup, &Budget::default());
    assert!(matches!(st, Status::Proved | Status::Disproved));
    assert_eq!(s.extra_json()["threads"], 3);
    assert!(s.counters().iterations > 0);
    assert!(s.counters().peak_tree_bytes <= 1 << 22);
}

/// A thread count the parameter's range refuses is an error, not a panic.
#[test]
fn thread_counts_out_of_range_are_refused() {
    let info = search::find_algo("dfpn").expect("registered");
    assert!(Params::from_pairs(info.params, &[("threads", "0")]).is_err());
    assert!(Params::from_pairs(info.params, &[("threads", "257")]).is_err());
}

/// `dfpn-fast`'s per-game parameters are offered on their game's positions
/// only, are an error naming that game elsewhere, are dropped from a set
/// taken to another game, and default when a set lacks them.
#[test]
fn per_game_parameters_of_dfpn_fast_belong_to_their_game() {
    let info = search::find_algo("dfpn-fast").expect("registered");
    let names = |k: GameKind| -> Vec<&str> { info.params_for(k).iter().map(|s| s.name).collect() };
    let connect4_only = ["tactics", "threat_init", "mirror", "leaf_cells"];
    for n in connect4_only {
        assert!(names(GameKind::Connect4).contains(&n), "{n}");
        assert!(!names(GameKind::Othello).contains(&n), "{n}");
        assert!(!names(GameKind::Hex).contains(&n), "{n}");
    }
    assert!(names(GameKind::Othello).contains(&"leaf_empties"));
    assert!(!names(GameKind::Connect4).contains(&"leaf_empties"));
    assert!(!names(GameKind::Hex).contains(&"leaf_empties"));

    let e = info
        .params_from_pairs(GameKind::Connect4, &[("leaf_empties", "12")])
        .expect_err("an Othello parameter on Connect Four")
        .to_string();
    assert!(
        e.contains("`leaf_empties` applies to othello positions only"),
        "{e}"
    );
    // Before any position is read, a name some game has is accepted.
    assert!(info
        .check_names(&[("leaf_cells".to_string(), "10".to_string())])
        .is_ok());

    let c4 = info
        .params_from_pairs(GameKind::Connect4, &[("leaf_cells", "10")])
        .expect("a Connect Four parameter");
    let on_othello = info.params_on(GameKind::Othello, &c4);
    assert!(on_othello.get("leaf_cells").is_none());
    assert!(on_othello.get("leaf_empties").is_some());
    assert_eq!(
        info.params_on(GameKind::Connect4, &c4).get("leaf_cells"),
        c4.get("leaf_cells")
    );

    // A set of the algorithm's own parameters alone runs a Connect Four
    // position exactly as the game's defaults do (one thread: the calls
    // are deterministic).
    let mut rng = SmallRng::seed_from_u64(0xC4);
    let start = parse(GameKind::Connect4, "");
    let pos = (0..100)
        .find_map(|_| random_walk(&start, 14, &mut rng))
        .expect("a position 14 plies in");
    let with_defaults = algo_setup("dfpn-fast", &pos, &[], QuestionKind::Win, 0);
    let bare = SearchSetup {
        params: Params::defaults(info.params),
        ..with_defaults.clone()
    };
    let budget = Budget::default();
    let (a, sa) = build_and_run("dfpn-fast", &with_defaults, &budget);
    let (b, sb) = build_and_run("dfpn-fast", &bare, &budget);
    assert_eq!(sa, sb);
    assert_eq!(a.counters().iterations, b.counters().iterations);
}
