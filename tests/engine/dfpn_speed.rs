//! df-pn speed on Othello endgames with 14 empties (issue #3: MID calls/s
//! for the closing note). Each position is also checked against the
//! exhaustive reference, so the measured runs are right answers. Run with
//! `cargo test --release --no-default-features --test dfpn_speed -- --nocapture`
//! for the numbers; the dev profile checks the same answers more slowly.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::othello::Othello;
use pnlab::game::{AnyPosition, Game, GameKind};
use pnlab::search::dfpn::{Dfpn, DfpnOptions};
use pnlab::search::{reference, Goal, Question, Search, Status};

/// Seeded Othello positions with exactly `empties` empty squares (random
/// legal moves from the start, passes included).
fn othello_with_empties(seed: u64, count: usize, empties: u32) -> Vec<Othello> {
    let start = AnyPosition::parse(
        GameKind::Othello,
        "---------------------------OX------XO--------------------------- X",
    )
    .expect("start position");
    let AnyPosition::Othello(start) = start else {
        panic!("not othello")
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = start;
        while g.outcome().is_none() && g.empties() > empties {
            moves.clear();
            g.legal_moves(&mut moves);
            g.play(moves[rng.random_range(0..moves.len())]);
        }
        if g.outcome().is_none() && g.empties() == empties {
            out.push(g);
        }
    }
    out
}

#[test]
fn dfpn_mid_calls_per_second_on_othello_14_empties() {
    let mut total_calls = 0u64;
    let mut total_secs = 0.0;
    for g in othello_with_empties(14, 4, 14) {
        let q = Question {
            attacker: g.to_move(),
            goal: Goal::Win,
        };
        let mut s = Dfpn::new("dfpn", g, q, DfpnOptions::default());
        let t = Instant::now();
        while !s.step().is_final() {}
        let secs = t.elapsed().as_secs_f64();
        let c = s.counters();
        let expected = reference::answer(&g, &q);
        assert_eq!(
            Search::status(&s),
            if expected {
                Status::Proved
            } else {
                Status::Disproved
            },
            "{}",
            g.notation()
        );
        eprintln!(
            "{}: {:?}, {} MID calls, {} table entries, {:.3} s, {:.2} M MID calls/s",
            g.notation(),
            Search::status(&s),
            c.iterations,
            c.live_nodes,
            secs,
            c.iterations as f64 / secs / 1e6
        );
        total_calls += c.iterations;
        total_secs += secs;
    }
    eprintln!(
        "total: {total_calls} MID calls in {total_secs:.3} s = {:.2} M MID calls/s",
        total_calls as f64 / total_secs / 1e6
    );
    assert!(total_calls > 0);
}
