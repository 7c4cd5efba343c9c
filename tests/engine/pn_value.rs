//! The value search (docs/algorithms.md §2) against the exhaustive negamax
//! reference (`search::reference::value_for`): exact values on every
//! reachable tic-tac-toe position, on tic-tac-toe with wide-ranging integer
//! scores (so probing and binary search both work), for either attacker and
//! with either inner search; on random Othello positions with ≤ 10 empties
//! and small P-games; and against published exact scores of 13-empty
//! Othello endgames (jeffreyan11 set, raw disc counts) and the 14-empty
//! FForum problems (tests/data/othello). Plus the
//! bracket, the sub-search list and the counters.

use std::collections::HashSet;

use pnlab::game::othello::random::random_othello;
use pnlab::game::othello::Othello;
use pnlab::game::pgame::PGame;
use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::tree::TreeGame;
use pnlab::game::{AnyPosition, Game, GameKind, Outcome, Player};
use pnlab::search::deep_pn::{DeepPnOptions, DpnForm};
use pnlab::search::pn_value::{Inner, PnValue};
use pnlab::search::{reference, QuestionKind, Search, Status, ViewRequest};

fn reachable_tictactoe() -> Vec<TicTacToe> {
    let mut out = pnlab::game::perft::reachable(&TicTacToe::new());
    out.sort_by_key(|g| g.notation());
    out
}

/// A game that plays as the one it wraps and differs only in its final
/// score (`|g| …`, `g` the wrapped game): the value search sees other
/// scores on the same tree.
macro_rules! rescored_game {
    ($(#[$doc:meta])* $name:ident($inner:ty), |$g:ident| $outcome:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        struct $name($inner);

        impl Game for $name {
            type Move = u8;
            fn kind(&self) -> GameKind {
                self.0.kind()
            }
            fn to_move(&self) -> Player {
                self.0.to_move()
            }
            fn legal_moves(&self, out: &mut Vec<u8>) {
                self.0.legal_moves(out)
            }
            fn play(&mut self, m: u8) {
                self.0.play(m)
            }
            fn outcome(&self) -> Option<Outcome> {
                let $g = &self.0;
                $outcome
            }
            fn hash(&self) -> u64 {
                self.0.hash()
            }
            fn format_move(&self, m: u8) -> String {
                self.0.format_move(m)
            }
            fn parse_move(&self, text: &str) -> Result<u8, pnlab::game::MoveError> {
                self.0.parse_move(text)
            }
            fn notation(&self) -> String {
                self.0.notation()
            }
            /// The board without the scoring rule (only the board views use it).
            fn into_any(self) -> AnyPosition {
                self.0.into_any()
            }
        }
    };
}

rescored_game!(
    /// Tic-tac-toe with integer scores that depend on how early the game ended
    /// (a win with e empty cells scores 3 + 13e, a loss −(5 + 11e), a draw
    /// −2 + e), so exact values range from about −100 to +120 and are often
    /// not ±1/0: the value search must probe far and binary-search.
    ScoredTicTacToe(TicTacToe),
    |g| {
        let o = g.outcome()?;
        let e = g.notation().chars().filter(|&c| c == '.').count() as i32;
        let score = match o.score.signum() {
            1 => 3 + 13 * e,
            -1 => -(5 + 11 * e),
            _ => e - 2,
        };
        Some(Outcome { score })
    }
);

fn run_value<G: Game>(g: &G, attacker: Player, inner: Inner) -> PnValue<G> {
    let mut s = PnValue::new(g.clone(), attacker, QuestionKind::Win, inner);
    let mut guard = 0;
    while !s.step().is_final() {
        guard += 1;
        assert!(guard < 2_000_000, "no termination on {g:?}");
    }
    s
}

/// The sub-search list is consistent with the true value: each target was
/// proved exactly when value ≥ target, and the last bracket is [v, v].
fn check_run<G: Game>(s: &PnValue<G>, want: i32, what: &str) {
    assert_eq!(s.value(), Some(want), "{what}");
    assert_eq!(s.bracket(), (Some(want), Some(want)), "{what}");
    let expected_status = if want >= 1 {
        Status::Proved
    } else {
        Status::Disproved
    };
    assert_eq!(s.status(), expected_status, "{what}");
    let mut total = 0;
    for sub in s.sub_searches() {
        let proved = want >= sub.target;
        assert_eq!(
            sub.outcome,
            if proved { "proved" } else { "disproved" },
            "{what}: target {}",
            sub.target
        );
        total += sub.iterations;
    }
    assert_eq!(s.counters().iterations, total, "{what}");
}

#[test]
fn exact_values_on_every_tictactoe_position() {
    let mut nonterminal = 0;
    for g in reachable_tictactoe() {
        let want = reference::value_for(&g, g.to_move());
        let s = run_value(&g, g.to_move(), Inner::Pns);
        check_run(&s, want, &g.notation());
        if g.outcome().is_none() {
            nonterminal += 1;
            // Values are ±1/0, so at most 1 → 2, or 1 → 0 (→ −1).
            assert!(
                (2..=3).contains(&s.sub_searches().len()),
                "{} {:?}",
                g.notation(),
                s.sub_searches()
            );
        } else {
            assert!(s.sub_searches().is_empty());
        }
    }
    assert_eq!(nonterminal, 5478 - 958);
}

#[test]
fn exact_values_for_the_player_not_to_move() {
    for g in reachable_tictactoe().iter().step_by(5) {
        let p = g.to_move().other();
        let want = reference::value_for(g, p);
        let s = run_value(g, p, Inner::Pns);
        check_run(&s, want, &format!("{} for {p:?}", g.notation()));
    }
}

#[test]
fn exact_scored_values_with_both_inner_searches() {
    let deep = Inner::DeepPn(DeepPnOptions {
        r: 0.65,
        form: DpnForm::Paper,
        ..DeepPnOptions::default()
    });
    let thesis = Inner::DeepPn(DeepPnOptions {
        r: 0.4,
        form: DpnForm::Thesis,
        ..DeepPnOptions::default()
    });
    let mut values = HashSet::new();
    let mut long_runs = 0;
    for (i, g) in reachable_tictactoe().iter().enumerate() {
        if i % 4 != 0 && i != 0 {
            continue;
        }
        let g = ScoredTicTacToe(*g);
        let p = g.to_move();
        let want = reference::value_for(&g, p);
        values.insert(want);
        let inners = if i % 12 == 0 {
            vec![Inner::Pns, deep, thesis]
        } else {
            vec![Inner::Pns]
        };
        for inner in inners {
            let s = run_value(&g, p, inner);
            check_run(&s, want, &format!("{} {inner:?}", g.notation()));
            if s.sub_searches().len() >= 6 {
                long_runs += 1;
            }
        }
    }
    // The scores really exercised probing and binary search.
    assert!(values.len() >= 10, "{values:?}");
    assert!(long_runs > 100, "{long_runs}");
}

#[test]
fn empty_board_probes_one_then_zero() {
    // Value 0 (a draw): "≥ 1" is disproved, then "≥ 0" proved (§2).
    let s = run_value(&TicTacToe::new(), Player::First, Inner::Pns);
    let t: Vec<(i32, &str)> = s
        .sub_searches()
        .iter()
        .map(|x| (x.target, x.outcome))
        .collect();
    assert_eq!(t, vec![(1, "disproved"), (0, "proved")]);
    let json = s.extra_json();
    assert_eq!(json["value"], serde_json::json!(0));
    let subs = json["sub_searches"].as_array().unwrap();
    assert_eq!(subs.len(), 2);
    assert_eq!(subs[0]["target"], serde_json::json!(1));
    assert_eq!(subs[0]["outcome"], serde_json::json!("disproved"));
    assert!(subs[0]["iterations"].as_u64().unwrap() > 10);
}

#[test]
fn snapshot_shows_the_bracket_narrowing() {
    let g = ScoredTicTacToe(TicTacToe::parse("x...o....").unwrap());
    let want = reference::value_for(&g, g.to_move());
    let mut s = PnValue::new(g, g.to_move(), QuestionKind::Win, Inner::Pns);
    let bracket = |s: &PnValue<ScoredTicTacToe>| {
        let snap = s.snapshot(&ViewRequest::default());
        assert_eq!(snap.algo, "pn-value");
        snap.extras
            .iter()
            .find(|(k, _)| k == "bracket")
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    let mut seen = vec![bracket(&s)];
    while !s.step().is_final() {
        let b = bracket(&s);
        if seen.last() != Some(&b) {
            seen.push(b);
        }
        // The sub-search's tree is in the snapshot.
        assert!(!s.snapshot(&ViewRequest::default()).nodes.is_empty());
    }
    seen.push(bracket(&s));
    assert_eq!(seen[0], "[-∞, +∞]");
    assert_eq!(seen.last().unwrap(), &format!("[{want}, {want}]"));
    assert!(seen.len() >= 4, "{seen:?}");
}

#[test]
fn terminal_root_has_its_score_and_no_sub_searches() {
    let g = TicTacToe::parse("xxxoo....").unwrap();
    let s = PnValue::new(g, g.to_move(), QuestionKind::Win, Inner::Pns);
    assert_eq!(s.value(), Some(reference::value_for(&g, g.to_move())));
    assert!(s.status().is_final());
}

#[test]
fn registry_builds_pn_value_with_deep_pn_inside() {
    use pnlab::search::{build, find_algo, Params, SearchSetup};
    let info = find_algo("pn-value").unwrap();
    let params = Params::from_pairs(info.params, &[("inner", "deep-pn"), ("R", "0.5")]).unwrap();
    let g = TicTacToe::parse("x...o....").unwrap();
    let setup = SearchSetup {
        position: AnyPosition::TicTacToe(g),
        params,
        seed: 0,
        question: QuestionKind::NotLose,
        memory_limit_bytes: None,
    };
    let mut s = build("pn-value", &setup).unwrap();
    assert_eq!(s.value_names(), &["pn", "dn", "deep", "dpn"]);
    while !s.step().is_final() {}
    let want = reference::value_for(&g, g.to_move());
    assert_eq!(s.extra_json()["value"], serde_json::json!(want));
    let st = if want >= 0 {
        Status::Proved
    } else {
        Status::Disproved
    };
    assert_eq!(s.status(), st);
}

#[test]
fn exact_othello_values_with_few_empties() {
    // Seeded random positions with 6–10 empties; scores are disc
    // differences with empties to the winner (the game's convention, which
    // the reference shares).
    let mut values = HashSet::new();
    for i in 0..10u64 {
        let empties = 6 + (i % 5) as u32;
        let g = random_othello(0x7A1E + i, empties).expect("position");
        let want = reference::value_for(&g, g.to_move());
        values.insert(want);
        let inner = if i % 3 == 0 {
            Inner::DeepPn(DeepPnOptions::default())
        } else {
            Inner::Pns
        };
        let s = run_value(&g, g.to_move(), inner);
        check_run(&s, want, &g.notation());
    }
    assert!(values.len() >= 5, "{values:?}");
}

#[test]
fn exact_pgame_values() {
    let mut checked = 0;
    for (b, d) in [(2, 8), (3, 5), (4, 4), (2, 12)] {
        for seed in 0..6u64 {
            let g = PGame::new(b, d, 1000 + seed).unwrap();
            for p in [Player::First, Player::Second] {
                let want = reference::value_for(&g, p);
                let s = run_value(&g, p, Inner::Pns);
                check_run(
                    &s,
                    want,
                    &format!("b={b},d={d},seed={} for {p:?}", 1000 + seed),
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 48);
}

rescored_game!(
    /// Othello scored the way the jeffreyan11 files score it: the raw disc
    /// difference, empties *not* given to the winner (see
    /// tests/data/othello/SOURCE.md). Only the final score differs from [`Othello`].
    RawScoreOthello(Othello),
    |g| {
        g.outcome()?;
        Some(Outcome {
            score: g.disc_count(Player::First) as i32 - g.disc_count(Player::Second) as i32,
        })
    }
);

/// (position, exact raw score for the side to move) for the first 24
/// positions with 13 empties of the vendored jeffreyan11 set
/// (tests/data/othello/jeffreyan11_eg_13_14.txt, SOURCE.md there).
fn jeffreyan11_sample() -> Vec<(RawScoreOthello, i32)> {
    let text = include_str!("../data/othello/jeffreyan11_eg_13_14.txt");
    let mut out = Vec::new();
    for line in text.lines() {
        let board = line.split_whitespace().next().unwrap_or("");
        if board.len() != 64 || board.chars().filter(|&c| c == '-').count() != 13 {
            continue;
        }
        if out.len() == 24 {
            break;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 4, "{line}");
        let side = match f[1] {
            "Black" => "X",
            "White" => "O",
            other => panic!("side {other}"),
        };
        let g = Othello::parse(&format!("{} {side}", f[0])).unwrap();
        let black_score: i32 = f[3].parse().unwrap();
        // The file scores from Black's side; the value search from the side
        // to move's.
        let want = if side == "X" {
            black_score
        } else {
            -black_score
        };
        out.push((RawScoreOthello(g), want));
    }
    assert_eq!(out.len(), 24);
    out
}

fn check_jeffreyan11(count: usize) {
    for (g, want) in jeffreyan11_sample().into_iter().take(count) {
        assert_eq!(g.0.empties(), 13);
        let s = run_value(&g, g.to_move(), Inner::Pns);
        check_run(&s, want, &g.notation());
    }
}

#[test]
fn published_13_empty_othello_scores_sample() {
    check_jeffreyan11(3);
}

/// 24 positions; the fast variant above runs the first 3 in every test
/// run.
#[test]
#[ignore]
fn published_13_empty_othello_scores_all() {
    check_jeffreyan11(24);
}

/// (position, exact score) of the FForum problems with 14 empties (#1–#7
/// of tests/data/othello/fforum-1-19.obf): the first `MOVE:score` of a
/// line is the best, from the side to move's point of view, empties to the
/// winner — the game's own convention.
fn fforum_14_empties() -> Vec<(Othello, i32)> {
    let text = include_str!("../data/othello/fforum-1-19.obf");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.len() > 66) {
        let mut parts = line.split(';');
        let pos = parts.next().unwrap().trim();
        let g = Othello::parse(pos).unwrap();
        if g.empties() != 14 {
            continue;
        }
        let best = parts.next().unwrap().trim();
        let score: i32 = best.split(':').nth(1).unwrap().trim().parse().unwrap();
        out.push((g, score));
    }
    assert_eq!(out.len(), 7);
    out
}

#[test]
fn fforum_5_exact_score() {
    // FForum #5 (G8:+32), the quickest of the seven 14-empty problems.
    let (g, want) = fforum_14_empties()[4];
    assert_eq!(want, 32);
    let s = run_value(&g, g.to_move(), Inner::Pns);
    check_run(&s, want, &g.notation());
}

/// All seven 14-empty FForum problems (a few seconds each in release); the
/// fast variant above runs #5 in every test run.
#[test]
#[ignore]
fn fforum_14_empty_exact_scores() {
    for (i, (g, want)) in fforum_14_empties().into_iter().enumerate() {
        let s = run_value(&g, g.to_move(), Inner::Pns);
        check_run(&s, want, &format!("FForum #{} {}", i + 1, g.notation()));
    }
}

#[test]
fn exact_values_of_the_shipped_trees() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees");
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("tree") {
            continue;
        }
        let g = TreeGame::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let attacker = g.default_attacker().unwrap_or_else(|| g.to_move());
        let want = reference::value_for(&g, attacker);
        for inner in [Inner::Pns, Inner::DeepPn(DeepPnOptions::default())] {
            let s = run_value(&g, attacker, inner);
            check_run(&s, want, &p.display().to_string());
        }
        if p.ends_with("scores.tree") {
            // The file's own comment: the exact minimax value is 3.
            assert_eq!(want, 3);
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
}
