//! `pnlab experiment deep-pn-sweep`: the DeepPN paper's R sweep (Ishitobi
//! et al. 2015, Figs. 3 and 5; docs/algorithms.md §3, §10).
//!
//! For each instance, PN-search runs once as the baseline and DeepPN runs
//! for every R in the list and both `dpn` forms; each run's iterations and
//! nodes are divided by PNS's on the same instance. Instances:
//! - **Othello**: `positions` seeded random positions with `empties` empty
//!   squares (default 16 = 44 uniformly random disc-placing moves from the
//!   start; forced passes are played and not counted). A walk that ends the
//!   game early, or stops on a finished position, is redrawn from the start
//!   with the same generator, so the list is deterministic for the seed.
//! - **Hex 4×4**: the empty board, `hex_runs` runs, run i with the legal
//!   moves shuffled with seed i
//!   ([`ShuffledMoves`](pnlab_core::game::shuffled::ShuffledMoves)): by default
//!   every position gets its own random order (`shuffle = per-position`,
//!   what the paper describes: "the legal moves of Hex are sorted randomly
//!   in every configuration"); `shuffle = per-run` keeps one permutation of
//!   the cells for the whole run. Each Hex run also records where its
//!   first winning opening comes in the root order ([`deep_pn_hex`](super::deep_pn_hex)).
//!
//! The question is the default one (does the side to move win?). "Nodes" is
//! `nodes_created`, the tree size (the paper's memory measure; in PNS and
//! DeepPN `nodes_expanded` equals `iterations`). Each run is capped at
//! `max_nodes` created nodes; a capped run is reported, never dropped
//! silently: the tables ([`deep_pn_summary`](super::deep_pn_summary)) give
//! the paired means over instances both solved, the means over instances
//! where every run solved, the counts of capped runs and the totals
//! counting capped runs at the cap.
//!
//! R = 1 is PN-search exactly (the same selection, iteration by iteration;
//! tests/deep_pn.rs checks it), so by default (`r1 = copy`) the R = 1 row
//! of each form is PNS's run copied, which saves two of the costliest runs
//! per instance; `r1 = run` runs it anyway.
//!
//! The defaults are the paper's full size (1,000 positions, R = 1.0 …
//! 0.05 in steps of 0.05); `pnlab experiment deep-pn-sweep --help` lists
//! the settings. A quick run: `--set positions=20 --set hex_runs=2`.
//!
//! Outputs in `--out`: `deep-pn-sweep.csv` (one row per run) and
//! `deep-pn-sweep.json` (the tables above, the PNS baselines and the Hex
//! runs' opening analysis).
//! Each job is one instance with all its runs, so `--shard` splits
//! instances.

use pnlab_core::game::shuffled::{ShuffleMode, ShuffledMoves};
use pnlab_core::game::{AnyPosition, Game, GameKind};
use pnlab_core::search::deep_pn::{DeepPn, DeepPnOptions, DpnForm, DpnTie, SolvedDeep};
use pnlab_core::search::params::ParamSpec;
use pnlab_core::search::pns::{Pns, PnsOptions};
use pnlab_core::search::{run, Budget, Goal, Question, Search};

use super::deep_pn_hex::{self, OpeningRow};
use super::deep_pn_summary::{InstanceRuns, RunResult, Summary};
use super::instances::othello_instance;
use super::{instance_seed, run_jobs, ExperimentError, ExperimentOptions, ExperimentReport, Fixed};

pnlab_core::choice_enum! {
    /// What the R = 1 row is (`r1`).
    pub enum RowR1 {
        /// Copied from PNS (the same search).
        Copy = "copy",
        /// Run anyway.
        Run = "run",
    }
}

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment deep-pn-sweep
    /// --help` lists them with their ranges and defaults). The R list has
    /// DeepPN's own name and range, `R` (`r`, which older recorded
    /// commands use, is read as `R`: see [`super::runner::SETTING_ALIASES`]).
    #[derive(Clone, Debug, PartialEq)]
    pub struct DeepPnSweepSettings {
        /// Random Othello positions drawn.
        pub positions: usize => {
            "positions", int(1, i64::MAX) = 1000,
            "Random Othello positions (instances) drawn for the sweep."
        },
        /// Empty squares of each position.
        pub empties: u32 => (super::instances::empties_setting(16)),
        /// Runs on the empty Hex 4×4 board.
        pub hex_runs: usize => {
            "hex_runs", int(1, i64::MAX) = 10,
            "Runs on the empty Hex 4×4 board, each with its own seeded move order."
        },
        /// Created-node cap per run.
        pub max_nodes: u64 => {
            "max_nodes", int(1, i64::MAX) = 20_000_000,
            "Created-node cap per run; a capped run counts as unsolved."
        },
        /// Which instance sets to run.
        pub games: Vec<String> => {
            "games", choice_list(&["othello", "hex"]) = "othello,hex",
            "Which instance sets to run."
        },
        /// The R values DeepPN runs with.
        pub r: Vec<f64> => (ParamSpec::list_of(
            DeepPnOptions::PARAMS[0],
            PAPER_RS,
            "The R values DeepPN runs with (each in both forms); DeepPN's R, in its range.",
        )),
        /// Hex move orders.
        pub shuffle: ShuffleMode => {
            "shuffle", choice = ShuffleMode::PerPosition,
            "Hex move orders: a random order per position, or one permutation kept per run."
        },
        /// What the R = 1 row is.
        pub r1: RowR1 => {
            "r1", choice = RowR1::Copy,
            "R = 1 row: copied from PNS (identical search), or run anyway."
        },
        /// DeepPN's tie rule, described once in [`DeepPnOptions`].
        pub ties: DpnTie => (DeepPnOptions::PARAMS[2]),
        /// DeepPN's solved-children switch, described once in
        /// [`DeepPnOptions`].
        pub solved: SolvedDeep => (DeepPnOptions::PARAMS[3]),
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = DeepPnSweepSettings::PARAMS;

/// The paper's R grid: 1.0, 0.95, …, 0.05.
const PAPER_RS: &str =
    "1.0,0.95,0.9,0.85,0.8,0.75,0.7,0.65,0.6,0.55,0.5,0.45,0.4,0.35,0.3,0.25,0.2,0.15,0.1,0.05";

/// One instance: a position (already wrapped for Hex) and its label.
#[derive(Clone, Debug)]
struct Instance {
    game: &'static str,
    index: usize,
    seed: u64,
    position: AnyPosition,
    /// Move-order seed and mode (Hex runs).
    shuffle: Option<(u64, ShuffleMode)>,
}

/// What one instance's job returns.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct InstanceResult {
    runs: Vec<RunResult>,
    /// Hex runs: the place of the first winning opening in the root order.
    first_win: Option<u32>,
    /// Hex runs: the number of root moves.
    root_moves: u32,
}

/// One row of `deep-pn-sweep.csv`: one run on one instance.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SweepRow {
    /// `othello` or `hex`.
    pub game: &'static str,
    /// The instance's number.
    pub instance: usize,
    /// The instance's seed.
    pub seed: u64,
    /// The position's notation.
    pub position: String,
    /// `pns` or `deep-pn`.
    pub algo: &'static str,
    /// DeepPN's form (empty for PNS).
    pub dpn: Option<&'static str>,
    /// DeepPN's R (1 for PNS).
    #[serde(rename = "R")]
    pub r: Fixed<2>,
    /// How the run ended.
    pub outcome: &'static str,
    /// Iterations.
    pub iterations: u64,
    /// Nodes created.
    pub nodes: u64,
    /// The deepest node.
    pub max_depth: u32,
    /// Changes of the root's pick.
    pub seesaw_root_switches: u64,
    /// Changes of pick anywhere.
    pub seesaw_switches: u64,
    /// Wall time in milliseconds.
    pub time_ms: Fixed<1>,
    /// Iterations over PNS's on the instance (when both solved).
    pub iterations_vs_pns: Option<Fixed<4>>,
    /// Nodes over PNS's on the instance (when both solved).
    pub nodes_vs_pns: Option<Fixed<4>>,
    /// A DeepPN run at R = 1 taken from PNS's run instead of run again.
    pub copied_from_pns: bool,
    /// Hex: the place of the first winning opening in the root order.
    pub first_winning_opening: Option<u32>,
}

/// Runs PNS and DeepPN for every R and form on `g` (R = 1 copied from
/// PNS unless `rerun_r1`).
fn run_instance<G: Game>(
    g: &G,
    rs: &[f64],
    deep: DeepPnOptions,
    budget: &Budget,
    rerun_r1: bool,
) -> Vec<RunResult> {
    let q = Question {
        attacker: g.default_attacker().unwrap_or_else(|| g.to_move()),
        goal: Goal::Win,
    };
    let mut out = Vec::new();
    let mut record = |algo, form, r, s: &mut dyn Search| {
        let status = run(s, budget, None);
        let c = s.counters();
        out.push(RunResult {
            algo,
            form,
            r,
            status,
            iterations: c.iterations,
            nodes: c.nodes_created,
            max_depth: c.max_depth,
            root_switches: c.seesaw_root_switches,
            switches: c.seesaw_switches,
            time_ms: c.time_ms,
            copied_from_pns: false,
        });
    };
    let mut pns = Pns::new(g.clone(), q, PnsOptions::default());
    record("pns", None, 1.0, &mut pns);
    drop(pns);
    for form in [DpnForm::Paper, DpnForm::Thesis] {
        for &r in rs {
            if r == 1.0 && !rerun_r1 {
                continue;
            }
            let mut s = DeepPn::new(g.clone(), q, DeepPnOptions { r, form, ..deep });
            record("deep-pn", Some(form), r, &mut s);
        }
    }
    if !rerun_r1 && rs.contains(&1.0) {
        let base = out[0].clone();
        for (k, form) in [DpnForm::Paper, DpnForm::Thesis].into_iter().enumerate() {
            // Keep the rows in R order: the copy goes where R = 1 stands.
            let at = 1 + k * rs.len() + rs.iter().position(|&r| r == 1.0).unwrap_or(0);
            let copy = RunResult {
                algo: "deep-pn",
                form: Some(form),
                copied_from_pns: true,
                ..base.clone()
            };
            out.insert(at.min(out.len()), copy);
        }
    }
    out
}

/// Runs one instance: the runs, and for a shuffled (Hex) one the place of
/// its first winning opening.
fn run_one<G: Game>(
    g: &G,
    rs: &[f64],
    deep: DeepPnOptions,
    budget: &Budget,
    rerun_r1: bool,
    opening: bool,
) -> InstanceResult {
    let runs = run_instance(g, rs, deep, budget, rerun_r1);
    let (first_win, root_moves) = if opening {
        let q = Question {
            attacker: g.default_attacker().unwrap_or_else(|| g.to_move()),
            goal: Goal::Win,
        };
        deep_pn_hex::first_winning_move(g, &q)
    } else {
        (None, 0)
    };
    InstanceResult {
        runs,
        first_win,
        root_moves,
    }
}

/// The experiment (registered as `deep-pn-sweep`). (`clone` is generic
/// over the games; some are `Copy`.)
#[allow(clippy::clone_on_copy)]
pub fn run_sweep(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (settings, cfg) = opts.typed_settings(SETTINGS, DeepPnSweepSettings::from_params)?;
    let rerun_r1 = cfg.r1 == RowR1::Run;
    let deep = DeepPnOptions {
        ties: cfg.ties,
        solved: cfg.solved,
        ..DeepPnOptions::default()
    };
    let rs = &cfg.r;
    let mut instances = Vec::new();
    for game in &cfg.games {
        match game.as_str() {
            "othello" => {
                for i in 0..cfg.positions {
                    let seed = instance_seed(opts.seed, i);
                    let g = othello_instance(seed, cfg.empties)?;
                    instances.push(Instance {
                        game: "othello",
                        index: i,
                        seed,
                        position: g.into_any(),
                        shuffle: None,
                    });
                }
            }
            "hex" => {
                let hex = AnyPosition::parse(GameKind::Hex, "4:")
                    .map_err(|_| ExperimentError::NoHexBoard { size: 4 })?;
                for i in 0..cfg.hex_runs {
                    instances.push(Instance {
                        game: "hex4",
                        index: i,
                        seed: opts.seed.wrapping_add(i as u64),
                        position: hex.clone(),
                        shuffle: Some((opts.seed.wrapping_add(i as u64), cfg.shuffle)),
                    });
                }
            }
            other => {
                return Err(ExperimentError::BadSettingValue {
                    setting: "games",
                    part: "item",
                    value: other.to_string(),
                    expected: "othello or hex",
                })
            }
        }
    }
    let budget = Budget {
        max_nodes: Some(cfg.max_nodes),
        ..Budget::default()
    };
    let results = run_jobs(opts, &instances, |inst| match inst.shuffle {
        None => {
            pnlab_core::with_position!(&inst.position, g => run_one(g, rs, deep, &budget, rerun_r1, false))
        }
        Some((s, mode)) => pnlab_core::with_position!(&inst.position, g => {
            run_one(&ShuffledMoves::with_mode(g.clone(), s, mode), rs, deep, &budget, rerun_r1, true)
        }),
    });
    let mut rows = Vec::new();
    let mut openings = Vec::new();
    for (i, res) in &results {
        let inst = &instances[*i];
        let runs = &res.runs;
        let base = runs.iter().find(|r| r.algo == "pns");
        if let (Some(first_win), Some(b)) = (res.first_win, base) {
            openings.push(opening_row(inst.index, first_win, res.root_moves, b, runs));
        }
        for r in runs {
            let ratio = |num: u64, den: u64| num as f64 / den.max(1) as f64;
            let both = base.filter(|b| b.solved() && r.solved());
            rows.push(SweepRow {
                game: inst.game,
                instance: inst.index,
                seed: inst.seed,
                position: inst.position.notation(),
                algo: r.algo,
                dpn: r.form.map(DpnForm::name),
                r: Fixed(r.r),
                outcome: r.status.outcome_name(),
                iterations: r.iterations,
                nodes: r.nodes,
                max_depth: r.max_depth,
                seesaw_root_switches: r.root_switches,
                seesaw_switches: r.switches,
                time_ms: Fixed(r.time_ms),
                iterations_vs_pns: both.map(|b| Fixed(ratio(r.iterations, b.iterations))),
                nodes_vs_pns: both.map(|b| Fixed(ratio(r.nodes, b.nodes))),
                copied_from_pns: r.copied_from_pns,
                first_winning_opening: res.first_win,
            });
        }
    }
    let table = Summary::build(
        &results
            .iter()
            .map(|(i, res)| InstanceRuns {
                game: instances[*i].game,
                runs: &res.runs,
            })
            .collect::<Vec<_>>(),
    );
    let cpu_s: f64 = results
        .iter()
        .flat_map(|(_, res)| &res.runs)
        .filter(|r| !r.copied_from_pns)
        .map(|r| r.time_ms)
        .sum::<f64>()
        / 1000.0;
    let name = if opts.shard.1 > 1 {
        format!("deep-pn-sweep.shard{}of{}", opts.shard.0 + 1, opts.shard.1)
    } else {
        "deep-pn-sweep".to_string()
    };
    let tables = table.to_json();
    let json = serde_json::json!({
        "experiment": "deep-pn-sweep",
        "settings": settings,
        "nodes_measure": "nodes_created",
        "ratio": "DeepPN / PNS: paired = mean over instances both solved of run/PNS; unpaired = mean of the solved runs / mean of PNS's solved runs; all_solved = over instances where every run solved",
        "search_seconds": cpu_s,
        "rows": tables["rows"],
        "pns": tables["pns"],
        "hex_openings": deep_pn_hex::to_json(&openings),
    });
    let mut summary = table.to_text();
    if !openings.is_empty() {
        summary.push('\n');
        summary.push_str(&deep_pn_hex::to_text(&openings));
    }
    summary.push_str(&format!(
        "search time: {cpu_s:.0} s of CPU (sum over runs)\n"
    ));
    let report = ExperimentReport::new(summary)
        .table(format!("{name}.csv"), &rows)?
        .json(format!("{name}.json"), json);
    opts.deliver(report)
}

/// A Hex run's opening analysis row: the DeepPN cost per form is the
/// geometric mean of its iterations over R < 1 (capped runs at the cap).
fn opening_row(
    instance: usize,
    first_win: u32,
    root_moves: u32,
    base: &RunResult,
    runs: &[RunResult],
) -> OpeningRow {
    let geo = |form: DpnForm| {
        let v: Vec<f64> = runs
            .iter()
            .filter(|r| r.form == Some(form) && r.r < 1.0)
            .map(|r| (r.iterations.max(1) as f64).ln())
            .collect();
        if v.is_empty() {
            f64::NAN
        } else {
            (v.iter().sum::<f64>() / v.len() as f64).exp()
        }
    };
    OpeningRow {
        instance,
        first_win,
        root_moves,
        pns_iterations: base.iterations,
        deep_iterations: [geo(DpnForm::Paper), geo(DpnForm::Thesis)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::instances::random_othello;
    use crate::experiments::test_run::TestRun;

    #[test]
    fn random_othello_positions_have_the_requested_empties() {
        for seed in 0..20 {
            let g = random_othello(seed, 16).expect("position");
            assert_eq!(g.empties(), 16);
            assert!(g.outcome().is_none());
            assert_eq!(random_othello(seed, 16), Some(g), "deterministic");
        }
    }

    /// The R list is DeepPN's `R`, with DeepPN's own range; `r` (older
    /// recorded command lines) is read as `R`.
    #[test]
    fn the_r_list_is_deep_pn_s_r_and_takes_r_as_an_alias() {
        let spec = SETTINGS.iter().find(|s| s.name == "R").expect("R");
        let deep = DeepPnOptions::PARAMS[0];
        assert_eq!(deep.name, "R");
        let (
            pnlab_core::search::ParamKind::List { item, .. },
            pnlab_core::search::ParamKind::Real { min, max, .. },
        ) = (spec.kind, deep.kind)
        else {
            panic!("R is a list of reals")
        };
        assert_eq!(item, pnlab_core::search::ListItem::Real { min, max });
        assert!(!SETTINGS.iter().any(|s| s.name == "r"));
        let by_alias = ExperimentOptions::for_test("alias", &[("r", "0.8,0.4")]);
        let by_name = ExperimentOptions::for_test("alias", &[("R", "0.8,0.4")]);
        let a = DeepPnSweepSettings::from_params(&by_alias.params(SETTINGS).unwrap()).unwrap();
        let b = DeepPnSweepSettings::from_params(&by_name.params(SETTINGS).unwrap()).unwrap();
        assert_eq!(a.r, vec![0.8, 0.4]);
        assert_eq!(a, b);
        let e = ExperimentOptions::for_test("alias", &[("r", "1.5")])
            .params(SETTINGS)
            .unwrap_err()
            .to_string();
        assert!(e.contains("`R`") && e.contains("[0, 1]"), "{e}");
    }

    #[test]
    fn quick_sweep_writes_csv_and_summary() {
        let t = TestRun::new(
            "dpn-sweep",
            &[
                ("games", "othello"),
                ("positions", "2"),
                ("empties", "9"),
                ("r", "1.0,0.5"),
                ("r1", "run"),
            ],
            run_sweep,
        );
        let csv = t.text("deep-pn-sweep.csv");
        // Header + 2 positions × (PNS + 2 forms × 2 R).
        assert_eq!(csv.lines().count(), 1 + 2 * 5);
        // R = 1 is PNS: ratio exactly 1 on every position (docs/algorithms.md
        // §3), here with the R = 1 runs really run.
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        for row in rows.iter().filter(|r| r[4] == "deep-pn" && r[6] == "1.00") {
            assert_eq!((row[14], row[15], row[16]), ("1.0000", "1.0000", "false"));
        }
        assert!(t.report.summary.contains("othello"));
    }

    /// Hex runs: R = 1 rows copied from PNS by default, each run's first
    /// winning opening recorded, and the two shuffles give different trees.
    #[test]
    fn hex_runs_record_their_first_winning_opening() {
        let mut costs = Vec::new();
        for shuffle in ["per-position", "per-run"] {
            let t = TestRun::new(
                &format!("dpn-hex-{shuffle}"),
                &[
                    ("games", "hex"),
                    ("hex_runs", "2"),
                    ("R", "1.0"),
                    ("shuffle", shuffle),
                ],
                run_sweep,
            );
            let csv = t.text("deep-pn-sweep.csv");
            let rows: Vec<Vec<String>> = csv
                .lines()
                .skip(1)
                .map(|l| l.split(',').map(str::to_string).collect())
                .collect();
            // 2 runs × (PNS + 2 copied R = 1 rows).
            assert_eq!(rows.len(), 6);
            for r in &rows {
                let first: u32 = r[17].parse().expect("first winning opening");
                assert!((1..=16).contains(&first));
                assert_eq!(r[16] == "true", r[4] == "deep-pn");
                assert_eq!(r[7], "proved", "the first player wins Hex 4×4");
            }
            costs.push(rows[0][8].clone());
            let json = t.text("deep-pn-sweep.json");
            assert!(json.contains("spearman_first_win_vs_pns"));
        }
        assert_ne!(
            costs[0], costs[1],
            "per-position and per-run orders are different searches"
        );
    }
}
