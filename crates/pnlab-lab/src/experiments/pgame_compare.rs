//! `pnlab experiment pgame-compare`: the PPN paper's two series
//! (Song, Iida, van den Herik 2019, §4; docs/algorithms.md §5, §10).
//!
//! 200 seeded P-game trees with b = 2, d = 20 and 200 with b = 8, d = 8,
//! question "does MAX win?"; PPN-search, PN-search, MCPN-search, the UCT
//! solver (C = 2) and the pure MCTS solver, K = 10 playouts per new node.
//! Per algorithm and series: mean time, mean iterations raw and normalised
//! (b MCTS iterations count as one expansion of a b-child node, as the
//! paper does) and the error rate of the move the algorithm names at each
//! (normalised) iteration.
//!
//! Correct moves: the root moves that win for MAX (exhaustive reference);
//! when MAX has none, the moves that at least draw; when it has none of
//! those either, every move is equally correct (the tree is lost whatever
//! MAX plays). Before an algorithm names any move, its choice counts as an
//! error; after it stops, its final choice stands. The curve CSV gives the
//! error rate over all trees (`error_rate`) and over the trees MAX wins
//! (`error_rate_won`, correct = winning moves only), since on a disproved
//! tree a "win" search has no reason to prefer a drawing move.
//!
//! Settings (`--set NAME=VALUE`): `trees` (per series, default 200),
//! `series` (`both`, `1` or `2`), `cap` (iteration cap per run in
//! normalised iterations, default 2000000), `K` (default 10), `C` (UCT,
//! default 2), `A` (the MCTS solvers' final choice v + A/√n, default 1;
//! 0 names the child with the largest mean), `norm` (how work is
//! counted: `b`, the paper's MCTS iterations divided by b, or `nodes`,
//! the tree nodes every algorithm created), `values` (the generator's
//! move values: `signed`, the papers', or `symmetric`, every move in
//! [−127, 127]), `algos` (comma-separated subset). `K`, `A`, `norm` and
//! `values` are the switches that isolate why our
//! order of the solvers differs from the paper's (one at a time against
//! the defaults; results/README.md).

use pnlab_core::clock::Instant;

use pnlab_core::game::pgame::{MoveValues, PGame};
use pnlab_core::game::{Game, Player};
use pnlab_core::search::registry::{build, find_algo};
use pnlab_core::search::{
    correct_moves, reference, Goal, Params, Question, QuestionKind, SearchSetup, Status,
};

use super::{run_jobs, ExperimentError, ExperimentOptions, ExperimentReport, Fixed};
use pnlab_core::search::mcts_solver::{A_PARAM, C_PARAM};
use pnlab_core::search::params::ParamSpec;
use pnlab_core::search::playout::K_PARAM;

const ALL_ALGOS: &[&str] = &["ppn", "pns", "mcpn", "uct-solver", "mcts-solver"];
pnlab_core::choice_enum! {
    /// Which series of P-game trees are run (`series`).
    pub enum Series {
        /// Both series.
        Both = "both",
        /// Series 1: b = 2, d = 20.
        One = "1",
        /// Series 2: b = 8, d = 8.
        Two = "2",
    }
}

impl Series {
    /// The (series, b, d) shapes run.
    fn shapes(self) -> Vec<(u32, u32, u32)> {
        match self {
            Series::Both => vec![(1, 2, 20), (2, 8, 8)],
            Series::One => vec![(1, 2, 20)],
            Series::Two => vec![(2, 8, 8)],
        }
    }
}

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment pgame-compare
    /// --help` lists them with their ranges and defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct PgameCompareSettings {
        /// Random trees per series.
        pub trees: usize => {
            "trees", int(1, i64::MAX) = 200,
            "Random P-game trees per series."
        },
        /// Which series.
        pub series: Series => {
            "series", choice = Series::Both,
            "Which series: 1 (b=2, d=20), 2 (b=8, d=8) or both."
        },
        /// Iteration cap per run.
        pub cap: u64 => {
            "cap", int(1, i64::MAX) = 2_000_000,
            "Iteration cap per run (a capped run counts the cap)."
        },
        /// Playouts' K.
        pub k: i64 => K_PARAM,
        /// MCTS's exploration constant C.
        pub c: f64 => C_PARAM,
        /// MCTS's A.
        pub a: f64 => A_PARAM,
        /// The work unit.
        pub norm: Norm => {
            "norm", choice = Norm::ByB,
            "Work unit: b (MCTS iterations divided by b, the paper's) or nodes (tree nodes created, every algorithm)."
        },
        /// How move values are drawn.
        pub values: MoveValues => {
            "values", choice = MoveValues::Signed,
            "P-game move values: signed (MAX [0, 127], MIN [-127, 0], the papers') or symmetric (both [-127, 127])."
        },
        /// The solvers compared.
        pub algos: Vec<String> => {
            "algos", choice_list(ALL_ALGOS) = "ppn,pns,mcpn,uct-solver,mcts-solver",
            "The solvers to compare."
        },
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = PgameCompareSettings::PARAMS;

/// One tree of one series.
struct TreeJob {
    series: u32,
    b: u32,
    d: u32,
    index: usize,
    seed: u64,
}

/// One algorithm's run on one tree.
#[derive(serde::Serialize, serde::Deserialize)]
struct RunResult {
    #[serde(deserialize_with = "super::algo_name")]
    algo: super::StaticName,
    status: Status,
    iterations: u64,
    norm_iterations: f64,
    time_ms: f64,
    nodes_created: u64,
    playouts: u64,
    /// (raw iteration, named root child) each time the choice changed.
    choices: Vec<(u64, Option<u32>)>,
    final_correct: bool,
}

/// A tree's reference data and its runs.
#[derive(serde::Serialize, serde::Deserialize)]
struct TreeResult {
    answer: bool,
    correct: Vec<bool>,
    runs: Vec<RunResult>,
}

fn is_mcts(algo: &str) -> bool {
    algo == "uct-solver" || algo == "mcts-solver"
}

/// The root moves counted as correct (see the module comment; the rule is
/// [`correct_moves::exhaustive`]'s with MAX to move).
fn correct_moves(g: &PGame) -> Vec<bool> {
    let q = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    correct_moves::exhaustive(g, &q, u64::MAX)
        .map(|c| c.correct)
        .unwrap_or_else(|| vec![true; g.branching() as usize])
}

pnlab_core::choice_enum! {
    /// How work is counted across the algorithms (`norm`).
    pub enum Norm {
        /// Iterations, an MCTS solver's divided by b (the paper's Figs. 8, 11).
        ByB = "b",
        /// Tree nodes created, for every algorithm.
        Nodes = "nodes",
    }
}

/// The switches passed on to the solvers and the work unit.
#[derive(Clone, Copy, Debug)]
struct RunSettings {
    k: i64,
    c: f64,
    a: f64,
    norm: Norm,
    cap_norm: u64,
}

/// The work done so far in raw units (iterations or nodes created).
fn work(s: &dyn pnlab_core::search::Search, norm: Norm) -> u64 {
    let c = s.counters();
    match norm {
        Norm::ByB => c.iterations,
        Norm::Nodes => c.nodes_created,
    }
}

fn run_one(
    algo: &'static str,
    g: &PGame,
    seed: u64,
    rs: RunSettings,
    correct: &[bool],
) -> Result<RunResult, ExperimentError> {
    let info = find_algo(algo)?;
    let mut params = Params::defaults(info.params);
    for (name, value) in [
        ("K", rs.k.to_string()),
        ("C", rs.c.to_string()),
        ("A", rs.a.to_string()),
    ] {
        if info.params.iter().any(|p| p.name == name) {
            params.set(info.params, name, &value)?;
        }
    }
    let setup = SearchSetup {
        position: g.clone().into_any(),
        params,
        seed,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    };
    let mut s = build(algo, &setup)?;
    let per = per_unit(algo, g.branching(), rs.norm);
    let cap = rs.cap_norm.saturating_mul(per);
    let mut choices: Vec<(u64, Option<u32>)> = vec![(0, None)];
    let mut time = 0.0f64;
    while !s.status().is_final() {
        if work(s.as_ref(), rs.norm) >= cap {
            s.stop(pnlab_core::search::StopReason::MaxIterations);
            break;
        }
        let t = Instant::now();
        s.step();
        time += t.elapsed().as_secs_f64();
        let bc = s.sample().best_child;
        if choices.last().map(|x| x.1) != Some(bc) {
            choices.push((work(s.as_ref(), rs.norm), bc));
        }
    }
    let c = s.counters();
    let last = choices.last().and_then(|x| x.1);
    Ok(RunResult {
        algo,
        status: s.status(),
        iterations: c.iterations,
        norm_iterations: work(s.as_ref(), rs.norm) as f64 / per as f64,
        time_ms: time * 1000.0,
        nodes_created: c.nodes_created,
        playouts: c.playouts,
        final_correct: last.is_some_and(|m| correct.get(m as usize).copied().unwrap_or(false)),
        choices,
    })
}

/// Raw work units per normalised one: b for an MCTS solver's iterations
/// under `norm=b`, else 1.
fn per_unit(algo: &str, b: u32, norm: Norm) -> u64 {
    if is_mcts(algo) && norm == Norm::ByB {
        u64::from(b)
    } else {
        1
    }
}

/// The named child after raw iteration `it` (the last change at or before).
fn choice_at(choices: &[(u64, Option<u32>)], it: u64) -> Option<u32> {
    let i = choices.partition_point(|&(j, _)| j <= it);
    if i == 0 {
        None
    } else {
        choices[i - 1].1
    }
}

/// Normalised iterations at which the error curve is sampled: every one up
/// to 100, then about 2% apart, up to `max`.
fn curve_grid(max: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (1..=max.min(100)).collect();
    let mut x = 100.0f64;
    while (x as u64) < max {
        x *= 1.02;
        let k = (x as u64).min(max);
        if v.last() != Some(&k) {
            v.push(k);
        }
    }
    v
}

/// A tree's exhaustively computed answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reference {
    /// The first player wins.
    #[default]
    Win,
    /// It does not.
    NotWin,
}

/// Whether a solved run's answer agrees with the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Agreement {
    /// It does.
    #[serde(rename = "yes")]
    Yes,
    /// It does not (a wrong answer; written loud).
    #[serde(rename = "NO")]
    No,
}

/// One row of `pgame-compare/runs.csv`: one algorithm on one tree.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct PgameRunRow {
    /// The series (1: b=2, d=20; 2: b=8, d=8).
    pub series: u32,
    /// Branching factor.
    pub b: u32,
    /// Depth.
    pub d: u32,
    /// The tree's number in its series.
    pub tree: usize,
    /// The tree's seed.
    pub seed: u64,
    /// The exhaustive answer.
    pub reference: Reference,
    /// Correct root moves (by exhaustive search).
    pub correct_moves: usize,
    /// The search.
    pub algo: &'static str,
    /// How the run ended.
    pub outcome: &'static str,
    /// Why it stopped.
    pub stop_reason: &'static str,
    /// Whether a solved run agrees with the reference (empty: unsolved).
    pub agrees: Option<Agreement>,
    /// Iterations.
    pub iterations: u64,
    /// Iterations in the normalised unit.
    pub norm_iterations: Fixed<3>,
    /// Wall time in milliseconds.
    pub time_ms: Fixed<3>,
    /// Nodes created.
    pub nodes_created: u64,
    /// Playouts.
    pub playouts: u64,
    /// Whether the move chosen at the end is correct.
    pub final_move_correct: bool,
}

/// One row of `pgame-compare/error_curve.csv`: an algorithm's error rate
/// at one normalised iteration.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CurveRow {
    /// The series.
    pub series: u32,
    /// Branching factor.
    pub b: u32,
    /// Depth.
    pub d: u32,
    /// The search.
    pub algo: &'static str,
    /// The normalised iteration.
    pub norm_iteration: u64,
    /// Share of trees whose chosen move is wrong there.
    pub error_rate: Fixed<4>,
    /// Trees of the series.
    pub trees: usize,
    /// The same share over the won trees.
    pub error_rate_won: Fixed<4>,
    /// Won trees of the series.
    pub won_trees: usize,
}

/// A series' shape and the work unit, as the tallies need them.
#[derive(Clone, Copy)]
struct Shape {
    series: u32,
    b: u32,
    d: u32,
    norm: Norm,
}

/// The outputs being built: the per-run rows, the error curves, the
/// summary rows and the printed table.
struct Tables {
    runs_rows: Vec<PgameRunRow>,
    curve_rows: Vec<CurveRow>,
    summary_rows: Vec<serde_json::Value>,
    table: String,
}

impl Default for Tables {
    fn default() -> Tables {
        Tables {
            runs_rows: Vec::new(),
            curve_rows: Vec::new(),
            summary_rows: Vec::new(),
            table: String::from(
                "series     algo         trees  won solved wrong  mean_iter  mean_norm_iter  mean_time_ms final_err\n",
            ),
        }
    }
}

impl Tables {
    /// Adds algorithm `algo` (run number `ai` of every tree) on the trees
    /// of one series: its run rows, its error curve, its summary row and
    /// line. Returns how many of its solved runs disagree with the
    /// reference.
    fn add_algo(
        &mut self,
        shape: Shape,
        ai: usize,
        algo: &'static str,
        mine: &[(&TreeJob, &TreeResult)],
    ) -> usize {
        let Shape {
            series: sn,
            b,
            d,
            norm,
        } = shape;
        let per = per_unit(algo, b, norm);
        let (mut n, mut solved, mut wrong, mut final_wrong) = (0usize, 0usize, 0usize, 0usize);
        let (mut it, mut nit, mut tm) = (0.0f64, 0.0f64, 0.0f64);
        let mut max_norm = 1u64;
        for (j, t) in mine {
            let r = &t.runs[ai];
            n += 1;
            it += r.iterations as f64;
            nit += r.norm_iterations;
            tm += r.time_ms;
            max_norm = max_norm.max(r.norm_iterations.ceil() as u64);
            let agrees = match r.status {
                Status::Proved => Some(t.answer),
                Status::Disproved => Some(!t.answer),
                _ => None,
            };
            if agrees.is_some() {
                solved += 1;
            }
            if agrees == Some(false) {
                wrong += 1;
            }
            if !r.final_correct {
                final_wrong += 1;
            }
            self.runs_rows.push(PgameRunRow {
                series: sn,
                b,
                d,
                tree: j.index,
                seed: j.seed,
                reference: if t.answer {
                    Reference::Win
                } else {
                    Reference::NotWin
                },
                correct_moves: t.correct.iter().filter(|&&x| x).count(),
                algo: r.algo,
                outcome: r.status.outcome_name(),
                stop_reason: r.status.stop_reason_name(),
                agrees: agrees.map(|a| if a { Agreement::Yes } else { Agreement::No }),
                iterations: r.iterations,
                norm_iterations: Fixed(r.norm_iterations),
                time_ms: Fixed(r.time_ms),
                nodes_created: r.nodes_created,
                playouts: r.playouts,
                final_move_correct: r.final_correct,
            });
        }
        let won = mine.iter().filter(|(_, t)| t.answer).count();
        let wrong_at = |t: &TreeResult, raw: u64| {
            let ch = choice_at(&t.runs[ai].choices, raw);
            !ch.is_some_and(|m| t.correct.get(m as usize).copied().unwrap_or(false))
        };
        for x in curve_grid(max_norm) {
            let raw = x * per;
            let errors = mine.iter().filter(|(_, t)| wrong_at(t, raw)).count();
            let errors_won = mine
                .iter()
                .filter(|(_, t)| t.answer && wrong_at(t, raw))
                .count();
            self.curve_rows.push(CurveRow {
                series: sn,
                b,
                d,
                algo,
                norm_iteration: x,
                error_rate: Fixed(errors as f64 / n.max(1) as f64),
                trees: n,
                error_rate_won: Fixed(errors_won as f64 / won.max(1) as f64),
                won_trees: won,
            });
        }
        let nf = n.max(1) as f64;
        self.table.push_str(&format!(
            "{sn} b={b},d={d:<2} {algo:<12} {n:>5} {won:>4} {solved:>6} {wrong:>5} {:>10.1} {:>15.1} {:>13.2} {:>9.3}\n",
            it / nf,
            nit / nf,
            tm / nf,
            final_wrong as f64 / nf
        ));
        self.summary_rows.push(serde_json::json!({
            "series": sn, "b": b, "d": d, "algo": algo, "trees": n,
            "won_trees": won, "solved": solved, "wrong": wrong,
            "mean_iterations": it / nf,
            "mean_norm_iterations": nit / nf,
            "mean_time_ms": tm / nf,
            "final_error_rate": final_wrong as f64 / nf,
        }));
        wrong
    }
}

/// The experiment entry point.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (settings, s) = opts.typed_settings(SETTINGS, PgameCompareSettings::from_params)?;
    let (norm, values) = (s.norm, s.values);
    let rs = RunSettings {
        k: s.k,
        c: s.c,
        a: s.a,
        norm,
        cap_norm: s.cap,
    };
    let algos = super::static_names(&s.algos, ALL_ALGOS);
    let shapes = s.series.shapes();
    let mut jobs = Vec::new();
    for &(sn, b, d) in &shapes {
        for i in 0..s.trees {
            jobs.push(TreeJob {
                series: sn,
                b,
                d,
                index: i,
                seed: opts.seed.wrapping_add(sn as u64 * 1_000_000 + i as u64),
            });
        }
    }
    let results = run_jobs(opts, &jobs, |job| -> Result<TreeResult, ExperimentError> {
        let g = PGame::with_values(job.b, job.d, job.seed, values)?;
        let answer = reference::answer(
            &g,
            &Question {
                attacker: Player::First,
                goal: Goal::Win,
            },
        );
        let correct = correct_moves(&g);
        let mut runs = Vec::new();
        for &a in &algos {
            runs.push(run_one(a, &g, job.seed, rs, &correct)?);
        }
        Ok(TreeResult {
            answer,
            correct,
            runs,
        })
    });
    let dir = std::path::Path::new("pgame-compare");
    let mut out = Tables::default();
    let mut wrong_total = 0usize;
    for &(sn, b, d) in &shapes {
        let mine: Vec<(&TreeJob, &TreeResult)> = results
            .iter()
            .filter_map(|(i, r)| {
                let j = &jobs[*i];
                match r {
                    Ok(t) if j.series == sn => Some((j, t)),
                    _ => None,
                }
            })
            .collect();
        if let Some((i, Err(e))) = results.iter().find(|(_, r)| r.is_err()) {
            return Err(ExperimentError::InTree {
                tree: jobs[*i].index,
                error: Box::new(e.clone()),
            });
        }
        for (ai, &algo) in algos.iter().enumerate() {
            let shape = Shape {
                series: sn,
                b,
                d,
                norm,
            };
            wrong_total += out.add_algo(shape, ai, algo, &mine);
        }
    }
    let summary = serde_json::json!({
        "experiment": "pgame-compare",
        "settings": settings,
        "trees_per_series": s.trees,
        "K": s.k, "C": s.c, "A": s.a, "norm": norm.name(), "values": values.name(), "cap_norm_iterations": s.cap,
        "seed": opts.seed,
        "shard": format!("{}/{}", opts.shard.0 + 1, opts.shard.1),
        "note": "means over runs that stopped at the cap count the cap; see runs.csv",
        "rows": out.summary_rows,
    });
    let mut table = out.table;
    if wrong_total > 0 {
        table.push_str(&format!(
            "WARNING: {wrong_total} runs disagreed with the exhaustive reference\n"
        ));
    }
    let report = ExperimentReport::new(table)
        .table(dir.join("runs.csv"), &out.runs_rows)?
        .table(dir.join("error_curve.csv"), &out.curve_rows)?
        .json(dir.join("summary.json"), summary);
    opts.deliver(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_lookup_and_grid() {
        let ch = vec![(0, None), (1, Some(0)), (5, Some(1))];
        assert_eq!(choice_at(&ch, 0), None);
        assert_eq!(choice_at(&ch, 4), Some(0));
        assert_eq!(choice_at(&ch, 5), Some(1));
        assert_eq!(choice_at(&ch, 99), Some(1));
        let g = curve_grid(1000);
        assert_eq!(g[0], 1);
        assert_eq!(*g.last().unwrap(), 1000);
        assert!(g.windows(2).all(|w| w[0] < w[1]));
    }
}
