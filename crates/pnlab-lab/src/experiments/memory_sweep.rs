//! `pnlab experiment memory-sweep`: the memory-budget lab. The df-pn
//! family keeps its work in a transposition table that replaces entries
//! when full (the entries with the least work below them go first); PNS
//! keeps a tree and can only stop when it is full. This experiment runs
//! each under memory budgets from `min_kib` KiB, doubling, up to the first
//! budget the run no longer reaches, and records what the budget costs.
//!
//! Per position and algorithm: one run with no budget to speak of (4 GiB)
//! gives the answer and the peak bytes; then one run per budget below that
//! peak. Each row: time, MID calls (`iterations`; PNS: iterations),
//! expansions, re-expansions (df-pn family: expansions of a position
//! already expanded earlier in the run, whether its entry was kept or
//! replaced; PNS expands a node once and has none), revisits (§ seesaw
//! definition), entries evicted, peak bytes, and the answer. The answer
//! under a budget must be the unbudgeted one or `unknown` (a budget may
//! only cost time, never change an answer): the experiment counts the
//! rows where it is not (`answer_changes`, expected 0). Runs are capped at
//! `max_iterations` (a thrashing table ends `unknown (max-iterations)`).
//!
//! Sets: `othello` seeded random positions with `empties` empty squares
//! (the `deep-pn-sweep` generator) and the first `connect4` positions of
//! Pascal Pons's Test_L2_R1 set (the `connect4` bench suite).
//!
//! Settings: `othello` (8), `empties` (14), `connect4` (8, at most 20),
//! `algos` (`dfpn,dfpn-eps,deep-dfpn,pns`; `dfpn-eps` uses ε = 0.25,
//! `deep-dfpn` (E, D) = (2, 2)), `min_kib` (256), `max_iterations`
//! (20000000).
//!
//! Outputs: `memory-sweep.csv` (one row per run), `memory-sweep.json`
//! (per set, algorithm and budget: total MID calls, re-expansions and
//! time over the set, counting a position whose peak is below the budget
//! with its unbudgeted run; unknown runs; answer changes) and
//! `memory-sweep.svg` (total MID calls against the budget, log-log, one
//! line per set and algorithm; hollow markers where some run ended
//! unknown). Each job is one position with all its runs, so `--shard`
//! splits positions.

use serde_json::json;

use pnlab_core::game::{AnyPosition, Game, GameKind};
use pnlab_core::search::dfpn::{Dfpn, DfpnOptions};
use pnlab_core::search::pns::{Pns, PnsOptions};
use pnlab_core::search::{run as run_search, Budget, Goal, Question, Search, Status};

use super::instances::othello_instance;
use super::svg::{log_log_plot, Series};
use super::{instance_seed, run_jobs, ExperimentError, ExperimentOptions, ExperimentReport, Fixed};
use pnlab_core::search::params::ParamSpec;

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment memory-sweep
    /// --help` lists them with their ranges and defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct MemorySweepSettings {
        /// Random Othello positions drawn.
        pub othello: usize => {
            "othello", int(0, i64::MAX) = 8,
            "Random Othello positions (instances) drawn."
        },
        /// Empty squares of each Othello position.
        pub empties: u32 => (super::instances::empties_setting(14)),
        /// Connect Four positions from the bundled set.
        pub connect4: usize => {
            "connect4", int(0, 20) = 8,
            "Connect Four positions taken from the bundled 20-position set."
        },
        /// The algorithms run under each budget.
        pub algos: Vec<String> => {
            "algos", choice_list(ALGOS) = "dfpn,dfpn-eps,deep-dfpn,pns",
            "The algorithms run under each budget."
        },
        /// Smallest memory budget in KiB.
        pub min_kib: u64 => {
            "min_kib", int(1, i64::MAX) = 256,
            "Smallest memory budget in KiB; budgets double up to the peak."
        },
        /// Iteration cap per run.
        pub max_iterations: u64 => {
            "max_iterations", int(1, i64::MAX) = 20_000_000,
            "Iteration cap per run."
        },
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = MemorySweepSettings::PARAMS;

/// The "no budget" run's table budget.
const UNBOUNDED: u64 = 4 << 30;

/// The Connect Four set: Pascal Pons's Test_L2_R1, first 20 positions.
const CONNECT4: &str = include_str!("../../../../assets/bench/connect4.txt");

const ALGOS: &[&str] = &["dfpn", "dfpn-eps", "deep-dfpn", "pns"];

/// One position of a set.
#[derive(Clone, Debug)]
struct Instance {
    set: &'static str,
    index: usize,
    position: AnyPosition,
}

/// One run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct RunRow {
    #[serde(deserialize_with = "super::algo_name")]
    algo: super::StaticName,
    /// `None`: the unbudgeted run.
    budget_bytes: Option<u64>,
    status: Status,
    iterations: u64,
    nodes_expanded: u64,
    re_expansions: Option<u64>,
    revisits: u64,
    evicted: u64,
    peak_bytes: u64,
    time_ms: f64,
}

/// One algorithm's run on `g` with a table or tree budget.
fn run_one<G: Game>(g: &G, algo: &'static str, budget: Option<u64>, cap: u64) -> RunRow {
    let q = Question {
        attacker: g.to_move(),
        goal: Goal::Win,
    };
    let limits = Budget {
        max_iterations: Some(cap),
        max_memory_bytes: budget,
        ..Budget::default()
    };
    let table = budget.unwrap_or(UNBOUNDED);
    let opts = match algo {
        "dfpn-eps" => Some(DfpnOptions {
            eps: Some(0.25),
            budget_bytes: table,
            ..DfpnOptions::default()
        }),
        "deep-dfpn" => Some(DfpnOptions {
            deep: Some((2, 2)),
            budget_bytes: table,
            ..DfpnOptions::default()
        }),
        "dfpn" => Some(DfpnOptions {
            budget_bytes: table,
            ..DfpnOptions::default()
        }),
        _ => None,
    };
    // What differs between a table search and PNS's tree; the row is the same.
    let (status, c, re_expansions, revisits, evicted) = match opts {
        Some(o) => {
            let mut s = Dfpn::new(algo, g.clone(), q, o);
            s.count_re_expansions();
            let status = run_search(&mut s, &limits, None);
            let c = s.counters().clone();
            let revisits = c.revisits;
            (status, c, s.re_expansions(), revisits, s.table().evicted)
        }
        None => {
            let mut s = Pns::new(g.clone(), q, PnsOptions::default());
            let status = run_search(&mut s, &limits, None);
            (status, s.counters().clone(), None, 0, 0)
        }
    };
    RunRow {
        algo,
        budget_bytes: budget,
        status,
        iterations: c.iterations,
        nodes_expanded: c.nodes_expanded,
        re_expansions,
        revisits,
        evicted,
        peak_bytes: c.peak_tree_bytes,
        time_ms: c.time_ms,
    }
}

/// Every algorithm on `g`: the unbudgeted run, then the ladder of budgets
/// from `min` bytes up to the unbudgeted peak.
fn runs_for<G: Game>(g: &G, algos: &[&'static str], min: u64, cap: u64) -> Vec<RunRow> {
    let mut out = Vec::new();
    for &algo in algos {
        let free = run_one(g, algo, None, cap);
        let peak = free.peak_bytes;
        out.push(free);
        let mut b = min;
        while b < peak {
            out.push(run_one(g, algo, Some(b), cap));
            b = b.saturating_mul(2);
        }
    }
    out
}

fn solved(s: Status) -> Option<bool> {
    match s {
        Status::Proved => Some(true),
        Status::Disproved => Some(false),
        _ => None,
    }
}

/// Totals of one (set, algorithm, budget) cell.
#[derive(Default, Clone)]
struct Cell {
    iterations: u64,
    re_expansions: u64,
    time_ms: f64,
    unknown: usize,
    changed: usize,
    positions: usize,
}

/// One row of `memory-sweep.csv`: one run under one budget.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct BudgetRow {
    /// `othello` or `connect4`.
    pub set: &'static str,
    /// The position's number in its set.
    pub instance: usize,
    /// The position's notation.
    pub position: String,
    /// The search.
    pub algo: &'static str,
    /// The memory budget in KiB (`none`: unbudgeted).
    #[serde(serialize_with = "super::rows::or_none")]
    pub budget_kib: Option<u64>,
    /// How the run ended.
    pub outcome: &'static str,
    /// Why it stopped.
    pub stop_reason: &'static str,
    /// MID calls (PNS: iterations).
    pub iterations: u64,
    /// Nodes expanded.
    pub nodes_expanded: u64,
    /// Re-expansions (empty where the search does not count them).
    pub re_expansions: Option<u64>,
    /// Re-entries into a left subtree.
    pub revisits: u64,
    /// Entries or nodes evicted to stay in the budget.
    pub evicted: u64,
    /// Peak memory in bytes.
    pub peak_bytes: u64,
    /// Wall time in milliseconds.
    pub time_ms: Fixed<1>,
    /// Whether the budget changed the answer (it must not).
    pub answer_changed: bool,
}

/// The positions: `othello` seeded random Othello positions, then the
/// first `connect4` positions of the bundled Connect Four set.
fn instances(
    opts: &ExperimentOptions,
    othello: usize,
    empties: u32,
    connect4: usize,
) -> Result<Vec<Instance>, ExperimentError> {
    let c4_lines: Vec<&str> = CONNECT4
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    if connect4 > c4_lines.len() {
        return Err(ExperimentError::TooFewPositions {
            setting: "connect4",
            wanted: connect4,
            available: c4_lines.len(),
        });
    }
    let mut instances = Vec::new();
    for i in 0..othello {
        let g = othello_instance(instance_seed(opts.seed, i), empties)?;
        instances.push(Instance {
            set: "othello",
            index: i,
            position: g.into_any(),
        });
    }
    for (i, l) in c4_lines.iter().take(connect4).enumerate() {
        let moves = l.split_whitespace().next().unwrap_or("");
        let position = AnyPosition::parse(GameKind::Connect4, moves).map_err(|error| {
            ExperimentError::BadSetLine {
                set: "connect4",
                line: i + 1,
                error,
            }
        })?;
        instances.push(Instance {
            set: "connect4",
            index: i,
            position,
        });
    }
    Ok(instances)
}

/// The runs' rows and totals per (set, algorithm) and budget rung.
struct Tally {
    table: Vec<BudgetRow>,
    /// cells[(set, algo)][k]: budget min·2^k; the last rung any position
    /// needed bounds k.
    cells: Vec<((&'static str, &'static str), Vec<Cell>)>,
    answer_changes: usize,
}

/// Every run's row, and the totals of the budgeted runs per rung.
fn tally(
    instances: &[Instance],
    algos: &[&'static str],
    results: &[(usize, Vec<RunRow>)],
) -> Tally {
    let mut table = Vec::new();
    // cells[(set, algo)][k]: budget min·2^k; the last rung any position
    // needed bounds k.
    let mut cells: Vec<((&str, &str), Vec<Cell>)> = Vec::new();
    let mut answer_changes = 0usize;
    for (i, runs) in results {
        let inst = &instances[*i];
        for &algo in algos {
            let mine: Vec<&RunRow> = runs.iter().filter(|r| r.algo == algo).collect();
            let Some(free) = mine.iter().find(|r| r.budget_bytes.is_none()) else {
                continue;
            };
            let truth = solved(free.status);
            let key = (inst.set, algo);
            let at = match cells.iter().position(|(k, _)| *k == key) {
                Some(p) => p,
                None => {
                    cells.push((key, Vec::new()));
                    cells.len() - 1
                }
            };
            let ladder: Vec<&&RunRow> = mine.iter().filter(|r| r.budget_bytes.is_some()).collect();
            for (k, r) in ladder.iter().enumerate() {
                let got = solved(r.status);
                let changed = got.is_some() && got != truth;
                answer_changes += usize::from(changed);
                let v = &mut cells[at].1;
                if v.len() <= k {
                    v.resize(k + 1, Cell::default());
                }
                let c = &mut v[k];
                c.iterations += r.iterations;
                c.re_expansions += r.re_expansions.unwrap_or(0);
                c.time_ms += r.time_ms;
                c.unknown += usize::from(got.is_none());
                c.changed += usize::from(changed);
                c.positions += 1;
            }
            for r in mine.iter() {
                let got = solved(r.status);
                table.push(BudgetRow {
                    set: inst.set,
                    instance: inst.index,
                    position: inst.position.notation(),
                    algo,
                    budget_kib: r.budget_bytes.map(|b| b / 1024),
                    outcome: r.status.outcome_name(),
                    stop_reason: r.status.stop_reason_name(),
                    iterations: r.iterations,
                    nodes_expanded: r.nodes_expanded,
                    re_expansions: r.re_expansions,
                    revisits: r.revisits,
                    evicted: r.evicted,
                    peak_bytes: r.peak_bytes,
                    time_ms: Fixed(r.time_ms),
                    answer_changed: got.is_some() && got != truth,
                });
            }
        }
    }
    Tally {
        table,
        cells,
        answer_changes,
    }
}

/// The JSON rows per (set, algorithm, budget) and the plot's lines.
fn budget_rows(
    instances: &[Instance],
    results: &[(usize, Vec<RunRow>)],
    cells: &[((&str, &str), Vec<Cell>)],
    min_kib: u64,
) -> (Vec<serde_json::Value>, Vec<Series>) {
    // A position whose ladder ended below rung k (its peak was under that
    // budget) counts its unbudgeted run there.
    let rungs = cells.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    let mut rows = Vec::new();
    let mut series = Vec::new();
    for (key, v) in cells {
        let mut points = Vec::new();
        for k in 0..=rungs {
            let mut c = v.get(k).cloned().unwrap_or_default();
            for (i, runs) in results {
                if instances[*i].set != key.0 {
                    continue;
                }
                let mine: Vec<&RunRow> = runs.iter().filter(|r| r.algo == key.1).collect();
                let ladder = mine.iter().filter(|r| r.budget_bytes.is_some()).count();
                if ladder <= k {
                    if let Some(free) = mine.iter().find(|r| r.budget_bytes.is_none()) {
                        c.iterations += free.iterations;
                        c.re_expansions += free.re_expansions.unwrap_or(0);
                        c.time_ms += free.time_ms;
                        c.unknown += usize::from(solved(free.status).is_none());
                        c.positions += 1;
                    }
                }
            }
            let budget_kib = min_kib << k;
            points.push((
                budget_kib as f64 / 1024.0,
                c.iterations as f64,
                c.unknown > 0,
            ));
            rows.push(json!({
                "set": key.0,
                "algo": key.1,
                "budget_kib": budget_kib,
                "positions": c.positions,
                "total_iterations": c.iterations,
                "total_re_expansions": if key.1 == "pns" { json!(null) } else { json!(c.re_expansions) },
                "total_time_ms": (c.time_ms * 10.0).round() / 10.0,
                "unknown": c.unknown,
                "answer_changes": c.changed,
            }));
        }
        series.push(Series {
            label: format!("{} {}", key.0, key.1),
            points,
        });
    }
    (rows, series)
}

/// The table the command line prints.
fn summary_text(rows: &[serde_json::Value], answer_changes: usize) -> String {
    let mut summary =
        "set       algo        budget      MID calls  re-expansions  unknown  changed\n"
            .to_string();
    for r in rows {
        summary.push_str(&format!(
            "{:<9} {:<10} {:>7} KiB {:>12} {:>14} {:>8} {:>8}\n",
            r["set"].as_str().unwrap_or(""),
            r["algo"].as_str().unwrap_or(""),
            r["budget_kib"],
            r["total_iterations"],
            r["total_re_expansions"],
            r["unknown"],
            r["answer_changes"],
        ));
    }
    summary.push_str(&format!(
        "answers changed by a budget: {answer_changes} (must be 0)\n"
    ));
    summary
}

/// The experiment entry point.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (settings, s) = opts.typed_settings(SETTINGS, MemorySweepSettings::from_params)?;
    let (min_kib, cap) = (s.min_kib, s.max_iterations);
    let algos = super::static_names(&s.algos, ALGOS);
    let instances = instances(opts, s.othello, s.empties, s.connect4)?;
    let min = min_kib.saturating_mul(1024);
    let results = run_jobs(
        opts,
        &instances,
        |inst| pnlab_core::with_position!(&inst.position, g => runs_for(g, &algos, min, cap)),
    );
    let Tally {
        table,
        cells,
        answer_changes,
    } = tally(&instances, &algos, &results);
    let (rows, series) = budget_rows(&instances, &results, &cells, min_kib);
    let json = json!({
            "experiment": "memory-sweep",
            "settings": settings,
            "answer_changes": answer_changes,
            "note": "per budget: totals over the set; a position whose unbudgeted peak is below the budget counts its unbudgeted run",
            "rows": rows,
    });
    let svg = log_log_plot(
        "Work against memory budget (hollow: some runs unknown)",
        "budget (MiB per run)",
        "MID calls (PNS: iterations), total over the set",
        2.0,
        &series,
    );
    let summary = summary_text(&rows, answer_changes);
    let report = ExperimentReport::new(summary)
        .table("memory-sweep.csv", &table)?
        .json("memory-sweep.json", json)
        .file("memory-sweep.svg", svg.into_bytes());
    opts.deliver(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::test_run::TestRun;
    use pnlab_core::search::reference;

    /// Small positions and tiny budgets: the unbudgeted answers are the
    /// exhaustive reference's, and no budget changes an answer.
    #[test]
    fn budgets_never_change_an_answer() {
        let t = TestRun::new(
            "memory-sweep",
            &[
                ("othello", "3"),
                ("empties", "10"),
                ("connect4", "0"),
                ("min_kib", "1"),
                ("max_iterations", "300000"),
            ],
            run,
        );
        let summary = &t.report.summary;
        assert!(
            summary.contains("answers changed by a budget: 0"),
            "{summary}"
        );
        let csv = t.text("memory-sweep.csv");
        let lines: Vec<&str> = csv.lines().collect();
        let header: Vec<&str> = lines[0].split(',').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
        let mut budgeted = 0;
        for l in &lines[1..] {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f[col("answer_changed")], "false", "{l}");
            let g =
                pnlab_core::game::othello::Othello::parse(f[col("position")]).expect("position");
            let q = Question {
                attacker: g.to_move(),
                goal: Goal::Win,
            };
            let truth = if reference::answer_memo(&g, &q) {
                "proved"
            } else {
                "disproved"
            };
            let outcome = f[col("outcome")];
            if f[col("budget_kib")] == "none" {
                assert_eq!(outcome, truth, "{l}");
            } else {
                budgeted += 1;
                assert!(outcome == truth || outcome == "unknown", "{l}");
            }
        }
        assert!(budgeted > 0, "the budgets were never below a peak");
        let svg = t.text("memory-sweep.svg");
        assert_eq!(svg.matches("<polyline").count(), 4);
    }
}
