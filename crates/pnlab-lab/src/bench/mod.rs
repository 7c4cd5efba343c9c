//! Search throughput on fixed sets, in code that runs wherever the engine
//! does: on the desktop and in a web page (`web/dist/bench.html` runs
//! [`pns_sets`] in the browser). The sets are `pnlab bench`'s suites of the
//! same names — same positions, same iteration caps, same seeds — so the
//! page's iterations per second stand against the desktop's on the same
//! work; the iteration totals must agree exactly (the searches are
//! deterministic), which `tests/web_bench.rs` checks against the CLI.

use rand::rngs::SmallRng;
use rand::Rng;

use pnlab_core::clock::Duration;
use pnlab_core::game::{AnyPosition, Game};
use pnlab_core::search::{self, Budget, Counters, Params, QuestionKind, SearchSetup, Status};

mod suites;

pub use suites::{suite, BenchSet, SuiteError, DEFAULT_ALGOS, DEFAULT_SUITES, NAMED_ONLY_SUITES};

/// The sets whose PNS rows the web page reproduces: `hex-4` (the empty
/// 4×4 board, 20 times) and `othello-14` (20 endgames with 14 empties).
pub fn pns_sets() -> Result<Vec<BenchSet>, SuiteError> {
    ["hex-4", "othello-14"].into_iter().map(suite).collect()
}

/// What one algorithm did on one set.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct BenchRow {
    /// The set's name.
    pub suite: String,
    /// The algorithm.
    pub algo: String,
    /// Runs (positions × repeat).
    pub runs: usize,
    /// Runs that proved or disproved their question.
    pub solved: usize,
    /// `step()` calls, all runs.
    pub iterations: u64,
    /// Nodes created, all runs.
    pub nodes: u64,
    /// Time inside the searches, all runs, in milliseconds.
    pub time_ms: f64,
}

impl BenchRow {
    /// Iterations per second of search time.
    pub fn iterations_per_sec(&self) -> f64 {
        self.iterations as f64 / (self.time_ms / 1000.0).max(1e-9)
    }
}

/// Runs `algo` with `params` on every position of `set`, `set.repeat`
/// times, as `pnlab bench` does.
pub fn run_set(
    set: &BenchSet,
    algo: &str,
    params: &Params,
) -> Result<BenchRow, search::SearchError> {
    let mut row = BenchRow {
        suite: set.name.to_string(),
        algo: algo.to_string(),
        ..BenchRow::default()
    };
    let budget = run_budget(set.max_iterations);
    run_positions(
        &set.positions,
        set.repeat,
        algo,
        params,
        &budget,
        |_, st, c| {
            row.runs += 1;
            if matches!(st, Status::Proved | Status::Disproved) {
                row.solved += 1;
            }
            row.iterations += c.iterations;
            row.nodes += c.nodes_created;
            row.time_ms += c.time_ms;
        },
    )?;
    Ok(row)
}

/// The budget of one bench run: `max_iterations`, and a minute at most
/// (a run that is far too slow still ends).
pub fn run_budget(max_iterations: u64) -> Budget {
    Budget {
        max_iterations: Some(max_iterations),
        time_limit: Some(Duration::from_secs(60)),
        ..Budget::default()
    }
}

/// Runs `algo` with `params` on every position, `repeat` times over, as
/// every bench suite is run: the question `win`, seed = the position's
/// index, within `budget`. `each(index, status, counters)` sees every run
/// as it ends.
pub fn run_positions(
    positions: &[AnyPosition],
    repeat: usize,
    algo: &str,
    params: &Params,
    budget: &Budget,
    mut each: impl FnMut(usize, Status, &Counters),
) -> Result<(), search::SearchError> {
    let question = QuestionKind::Win;
    run_positions_asking(
        positions,
        repeat,
        algo,
        params,
        budget,
        question,
        |i, st, s| each(i, st, s.counters()),
    )
}

/// [`run_positions`] asking `question` (the score suites ask
/// [`QuestionKind::Score`]); `each(index, status, search)` sees every
/// run's search as it ends (for the fields of its JSON, such as `score`).
pub fn run_positions_asking(
    positions: &[AnyPosition],
    repeat: usize,
    algo: &str,
    params: &Params,
    budget: &Budget,
    question: QuestionKind,
    mut each: impl FnMut(usize, Status, &dyn search::Search),
) -> Result<(), search::SearchError> {
    for _ in 0..repeat {
        for (i, p) in positions.iter().enumerate() {
            let setup = SearchSetup {
                position: p.clone(),
                params: params.clone(),
                seed: i as u64,
                question,
                memory_limit_bytes: None,
            };
            let mut s = search::build(algo, &setup)?;
            let st = search::run(s.as_mut(), budget, None);
            each(i, st, s.as_ref());
        }
    }
    Ok(())
}

/// `plies` seeded random moves from `start`, or `None` when the game
/// ended on the way or at the end: the depth-limited bench suites (and
/// tests that want positions deep into random games) draw their
/// positions this way, the same on every machine for a seed.
pub fn random_walk<G: Game>(start: &G, plies: usize, rng: &mut SmallRng) -> Option<G> {
    let mut g = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        g.play(moves[rng.random_range(0..moves.len())]);
    }
    g.outcome().is_none().then_some(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sets_read_and_a_small_run_counts_every_run() {
        let sets = pns_sets().unwrap();
        assert_eq!(sets[1].positions.len(), 20);
        let info = search::find_algo("pns").unwrap();
        let small = BenchSet {
            repeat: 2,
            max_iterations: 50,
            ..sets[1].clone()
        };
        let row = run_set(&small, "pns", &Params::defaults(info.params)).unwrap();
        assert_eq!(row.runs, 40);
        assert!(row.iterations <= 40 * 50 && row.iterations > 0);
    }
}
