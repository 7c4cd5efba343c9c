//! The depth-limited part of `pnlab bench`: alpha-beta (with single
//! conspiracy numbers, no tree recorded) to a fixed depth on fixed
//! middle-game positions, in nodes per second.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::json;

use pnlab::bench::random_walk;
use pnlab::game::othello::Othello;
use pnlab::game::xiangqi::Xiangqi;
use pnlab::game::Game;
use pnlab::search::alphabeta::{AlphaBeta, AlphaBetaOptions, MoveOrder};
use pnlab::search::QuestionKind;

/// Names of the depth-limited suites.
pub const SUITES: &[&str] = &["othello-mid", "xiangqi-mid"];

/// The algorithm these suites measure.
pub const ALGO: &str = "alphabeta";

/// `count` positions `plies` moves into seeded random games.
fn positions<G: Game>(start: &G, count: usize, plies: usize, seed: u64) -> Vec<G> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        if let Some(g) = random_walk(start, plies, &mut rng) {
            out.push(g);
        }
    }
    out
}

/// Runs alpha-beta to `depth` on each position; one JSON row.
fn measure<G: Game>(suite: &str, positions: &[G], depth: u32) -> serde_json::Value {
    let opts = AlphaBetaOptions {
        threshold: 600,
        max_depth: depth,
        prune: true,
        order: MoveOrder::Game,
        record_limit: 0,
    };
    let (mut nodes, mut steps) = (0u64, 0u64);
    let cpu_before = pnlab::clock::process_cpu_time();
    let start = Instant::now();
    for g in positions {
        let mut s = AlphaBeta::new(g.clone(), g.to_move(), QuestionKind::Win, opts);
        s.run_to_end();
        let c = pnlab::search::Search::counters(&s);
        nodes += c.nodes_created;
        steps += c.iterations;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let cpu_ms = pnlab::clock::process_cpu_time()
        .zip(cpu_before)
        .map(|(a, b)| (a - b).as_secs_f64() * 1000.0);
    let game = positions.first().map_or("", |g| g.kind().name());
    let mut row = json!({
        "suite": suite,
        "algo": ALGO,
        "game": game,
        "positions": positions.len(),
        "runs": positions.len(),
        "solved": 0,
        "depth": depth,
        "iterations": steps,
        "iterations_per_sec": (steps as f64 / secs).round(),
        "nodes_per_sec": (nodes as f64 / secs).round(),
        "bytes_per_node": 0.0,
        "time_ms": (secs * 10_000.0).round() / 10.0,
    });
    // On a machine shared with other work, wall time counts the waits for
    // a core; CPU time (one thread here) does not.
    if let Some(cpu) = cpu_ms {
        row["cpu_ms"] = json!(cpu);
        row["nodes_per_cpu_sec"] = json!((nodes as f64 * 1000.0 / cpu.max(1.0)).round());
    }
    row
}

/// The row of depth-limited suite `name`, `None` if it is not one.
pub fn run_suite(name: &str) -> Option<serde_json::Value> {
    match name {
        // 8 positions 24 plies into seeded random games, depth 7.
        "othello-mid" => Some(measure(name, &positions(&Othello::start(), 8, 24, 7), 7)),
        // The position after 30 plies of eight master games, depth 5.
        "xiangqi-mid" => Some(measure(name, &xiangqi_middle_games(), 5)),
        _ => None,
    }
}

/// The xiangqi-mid positions (`assets/bench/xiangqi-mid.txt`; the file is
/// fixed and checked by the bench's test, so a bad line is a build error
/// in spirit and skipped here).
fn xiangqi_middle_games() -> Vec<Xiangqi> {
    include_str!("../../assets/bench/xiangqi-mid.txt")
        .lines()
        .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
        .filter_map(|l| Xiangqi::parse_fen(l.trim()).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_xiangqi_mid_file_gives_eight_positions_with_red_to_move() {
        let g = super::xiangqi_middle_games();
        assert_eq!(g.len(), 8);
        assert!(g
            .iter()
            .all(|p| pnlab::game::Game::to_move(p) == pnlab::game::Player::First));
    }
}
