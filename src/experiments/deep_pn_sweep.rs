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
//!   moves in the order of the seeded permutation i
//!   ([`ShuffledMoves`](crate::game::shuffled::ShuffledMoves)).
//!
//! The question is the default one (does the side to move win?). "Nodes" is
//! `nodes_created`, the tree size (the paper's memory measure; in PNS and
//! DeepPN `nodes_expanded` equals `iterations`). Each run is capped at
//! `max_nodes` created nodes; a capped run counts as unsolved and is left
//! out of the ratio means (the summary says how many), as the paper leaves
//! out R = 0.
//!
//! Settings (`--set NAME=VALUE`): `positions` (100), `empties` (16),
//! `hex_runs` (10), `max_nodes` (20000000), `games` (`othello,hex`),
//! `r` (`1.0,0.9,0.8,0.7,0.6,0.5,0.4,0.3,0.2,0.1`). A quick run:
//! `--set positions=20 --set hex_runs=2`.
//!
//! Outputs in `--out`: `deep-pn-sweep.csv` (one row per run) and
//! `deep-pn-sweep.json` (per game, form and R: mean ratio of iterations and
//! of nodes over instances both PNS and the run solved — the paper's
//! "reduction rate" — plus the median ratios, the ratio of the totals and
//! the unsolved count).
//! Each job is one instance with all its runs, so `--shard` splits
//! instances.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::game::othello::Othello;
use crate::game::shuffled::ShuffledMoves;
use crate::game::{AnyPosition, Game, GameKind};
use crate::search::deep_pn::{DeepPn, DeepPnOptions, DpnForm};
use crate::search::params::{ListItem, ParamKind, ParamSpec};
use crate::search::pns::{Pns, PnsOptions};
use crate::search::{run, Budget, Goal, Question, Search, Status};

use super::{instance_seed, run_jobs, write_atomic, Csv, ExperimentOptions, ExperimentReport};

/// The settings (`--set NAME=VALUE`; `pnlab experiment deep-pn-sweep --help`
/// lists them with their ranges and defaults).
pub const SETTINGS: &[ParamSpec] = &[
    ParamSpec {
        name: "positions",
        kind: ParamKind::Int {
            min: 1,
            max: i64::MAX,
            default: 100,
        },
        help: "Random Othello positions (instances) drawn for the sweep.",
    },
    super::deep_dfpn_grid::empties_setting(16),
    ParamSpec {
        name: "hex_runs",
        kind: ParamKind::Int {
            min: 1,
            max: i64::MAX,
            default: 10,
        },
        help: "Runs on the empty Hex 4×4 board, each with its own seeded move order.",
    },
    ParamSpec {
        name: "max_nodes",
        kind: ParamKind::Int {
            min: 1,
            max: i64::MAX,
            default: 20_000_000,
        },
        help: "Created-node cap per run; a capped run counts as unsolved.",
    },
    ParamSpec {
        name: "games",
        kind: ParamKind::List {
            item: ListItem::Choice(&["othello", "hex"]),
            default: "othello,hex",
        },
        help: "Which instance sets to run.",
    },
    ParamSpec {
        name: "r",
        kind: ParamKind::List {
            item: ListItem::Real { min: 0.0, max: 1.0 },
            default: "1.0,0.9,0.8,0.7,0.6,0.5,0.4,0.3,0.2,0.1",
        },
        help: "The R values DeepPN runs with (each in both forms).",
    },
];

/// One instance: a position (already wrapped for Hex) and its label.
#[derive(Clone, Debug)]
struct Instance {
    game: &'static str,
    index: usize,
    seed: u64,
    position: AnyPosition,
    /// Move-order permutation seed (Hex runs).
    shuffle: Option<u64>,
}

/// One run's result.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct RunResult {
    #[serde(deserialize_with = "super::static_name")]
    algo: super::StaticName,
    form: Option<DpnForm>,
    r: f64,
    status: Status,
    iterations: u64,
    nodes: u64,
    max_depth: u32,
    root_switches: u64,
    switches: u64,
    time_ms: f64,
}

impl RunResult {
    fn solved(&self) -> bool {
        matches!(self.status, Status::Proved | Status::Disproved)
    }
}

/// A seeded random Othello position with `empties` empty squares reached
/// by uniformly random legal moves from the start; redrawn (same generator)
/// when the game ends on the way or the position is already finished.
pub fn random_othello(seed: u64, empties: u32) -> Option<Othello> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _attempt in 0..1000 {
        let mut g = Othello::start();
        while g.empties() > empties {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            g.play(m);
        }
        if g.empties() == empties && g.outcome().is_none() {
            return Some(g);
        }
    }
    None
}

/// Runs PNS and DeepPN for every R and form on `g`.
fn run_instance<G: Game>(g: &G, rs: &[f64], budget: &Budget) -> Vec<RunResult> {
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
        });
    };
    let mut pns = Pns::new(g.clone(), q, PnsOptions::default());
    record("pns", None, 1.0, &mut pns);
    drop(pns);
    for form in [DpnForm::Paper, DpnForm::Thesis] {
        for &r in rs {
            let mut s = DeepPn::new(g.clone(), q, DeepPnOptions { r, form });
            record("deep-pn", Some(form), r, &mut s);
        }
    }
    out
}

/// The experiment (registered as `deep-pn-sweep`). (`clone` is generic
/// over the games; some are `Copy`.)
#[allow(clippy::clone_on_copy)]
pub fn run_sweep(opts: &ExperimentOptions) -> Result<ExperimentReport, String> {
    let settings = opts.params(SETTINGS)?;
    let positions = settings.int("positions")? as usize;
    let empties = settings.int("empties")? as u32;
    let hex_runs = settings.int("hex_runs")? as usize;
    let max_nodes = settings.int("max_nodes")? as u64;
    let games = settings.text("games")?;
    let rs = settings.real_list("r")?;
    let mut instances = Vec::new();
    for game in games.split(',').map(str::trim) {
        match game {
            "othello" => {
                for i in 0..positions {
                    let seed = instance_seed(opts.seed, i);
                    let g = random_othello(seed, empties).ok_or_else(|| {
                        format!("could not draw an Othello position with {empties} empties (seed {seed})")
                    })?;
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
                    .map_err(|e| format!("Hex 4×4 is not available: {}", e.expected))?;
                for i in 0..hex_runs {
                    instances.push(Instance {
                        game: "hex4",
                        index: i,
                        seed: opts.seed.wrapping_add(i as u64),
                        position: hex.clone(),
                        shuffle: Some(opts.seed.wrapping_add(i as u64)),
                    });
                }
            }
            other => {
                return Err(format!(
                    "unknown game `{other}` in setting `games`; valid: othello, hex"
                ))
            }
        }
    }
    let budget = Budget {
        max_nodes: Some(max_nodes),
        ..Budget::default()
    };
    let results = run_jobs(opts, &instances, |inst| match inst.shuffle {
        None => crate::with_position!(&inst.position, g => run_instance(g, &rs, &budget)),
        Some(s) => crate::with_position!(&inst.position, g => {
            run_instance(&ShuffledMoves::new(g.clone(), s), &rs, &budget)
        }),
    });
    let mut csv = Csv::new(&[
        "game",
        "instance",
        "seed",
        "position",
        "algo",
        "dpn",
        "R",
        "outcome",
        "iterations",
        "nodes",
        "max_depth",
        "seesaw_root_switches",
        "seesaw_switches",
        "time_ms",
        "iterations_vs_pns",
        "nodes_vs_pns",
    ]);
    let mut table = Summary::default();
    for (i, runs) in &results {
        let inst = &instances[*i];
        let base = runs.iter().find(|r| r.algo == "pns");
        for r in runs {
            let ratio = |num: u64, den: u64| num as f64 / den.max(1) as f64;
            let both = base.filter(|b| b.solved() && r.solved());
            let (ri, rn) = match both {
                Some(b) => (
                    format!("{:.4}", ratio(r.iterations, b.iterations)),
                    format!("{:.4}", ratio(r.nodes, b.nodes)),
                ),
                None => (String::new(), String::new()),
            };
            csv.push(vec![
                inst.game.to_string(),
                inst.index.to_string(),
                inst.seed.to_string(),
                inst.position.notation(),
                r.algo.to_string(),
                r.form.map_or("", DpnForm::name).to_string(),
                format!("{:.2}", r.r),
                r.status.outcome_name().to_string(),
                r.iterations.to_string(),
                r.nodes.to_string(),
                r.max_depth.to_string(),
                r.root_switches.to_string(),
                r.switches.to_string(),
                format!("{:.1}", r.time_ms),
                ri,
                rn,
            ]);
            if let (Some(form), Some(b)) = (r.form, base) {
                table.add(inst.game, form, r.r, b, r);
            }
        }
    }
    let name = if opts.shard.1 > 1 {
        format!("deep-pn-sweep.shard{}of{}", opts.shard.0 + 1, opts.shard.1)
    } else {
        "deep-pn-sweep".to_string()
    };
    let csv_path = opts.out_dir.join(format!("{name}.csv"));
    let json_path = opts.out_dir.join(format!("{name}.json"));
    csv.write(&csv_path)?;
    let mut json = table.to_json(positions, empties, hex_runs, max_nodes);
    json["settings"] = serde_json::to_value(&settings).map_err(|e| e.to_string())?;
    let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
    write_atomic(&json_path, text.as_bytes())?;
    Ok(ExperimentReport {
        outputs: vec![csv_path, json_path],
        summary: table.to_text(),
    })
}

/// Accumulated ratios per (game, form, R).
#[derive(Default)]
struct Summary {
    cells: Vec<Cell>,
}

struct Cell {
    game: &'static str,
    form: DpnForm,
    r: f64,
    ratios_it: Vec<f64>,
    ratios_nodes: Vec<f64>,
    sum_it: u64,
    sum_nodes: u64,
    sum_pns_it: u64,
    sum_pns_nodes: u64,
    unsolved: usize,
    pns_unsolved: usize,
}

impl Summary {
    fn add(
        &mut self,
        game: &'static str,
        form: DpnForm,
        r: f64,
        base: &RunResult,
        run: &RunResult,
    ) {
        let idx = match self
            .cells
            .iter()
            .position(|c| c.game == game && c.form == form && c.r == r)
        {
            Some(i) => i,
            None => {
                self.cells.push(Cell {
                    game,
                    form,
                    r,
                    ratios_it: Vec::new(),
                    ratios_nodes: Vec::new(),
                    sum_it: 0,
                    sum_nodes: 0,
                    sum_pns_it: 0,
                    sum_pns_nodes: 0,
                    unsolved: 0,
                    pns_unsolved: 0,
                });
                self.cells.len() - 1
            }
        };
        let c = &mut self.cells[idx];
        if !base.solved() {
            c.pns_unsolved += 1;
        } else if !run.solved() {
            c.unsolved += 1;
        } else {
            c.ratios_it
                .push(run.iterations as f64 / base.iterations.max(1) as f64);
            c.ratios_nodes
                .push(run.nodes as f64 / base.nodes.max(1) as f64);
            c.sum_it += run.iterations;
            c.sum_nodes += run.nodes;
            c.sum_pns_it += base.iterations;
            c.sum_pns_nodes += base.nodes;
        }
    }

    fn mean(v: &[f64]) -> f64 {
        if v.is_empty() {
            f64::NAN
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    }

    /// The median (robust against the few runs where DeepPN gets stuck and
    /// needs many times PNS's effort, which dominate the mean).
    fn median(v: &[f64]) -> f64 {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        match v.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => v[n / 2],
            n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
        }
    }

    fn to_json(
        &self,
        positions: usize,
        empties: u32,
        hex_runs: usize,
        max_nodes: u64,
    ) -> serde_json::Value {
        use serde_json::json;
        let num = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
        let rows: Vec<_> = self
            .cells
            .iter()
            .map(|c| {
                json!({
                    "game": c.game,
                    "dpn": c.form.name(),
                    "R": c.r,
                    "solved_pairs": c.ratios_it.len(),
                    "unsolved": c.unsolved,
                    "pns_unsolved": c.pns_unsolved,
                    "mean_iterations_ratio": num(Self::mean(&c.ratios_it)),
                    "mean_nodes_ratio": num(Self::mean(&c.ratios_nodes)),
                    "median_iterations_ratio": num(Self::median(&c.ratios_it)),
                    "median_nodes_ratio": num(Self::median(&c.ratios_nodes)),
                    "total_iterations_ratio": num(c.sum_it as f64 / c.sum_pns_it.max(1) as f64),
                    "total_nodes_ratio": num(c.sum_nodes as f64 / c.sum_pns_nodes.max(1) as f64),
                })
            })
            .collect();
        json!({
            "experiment": "deep-pn-sweep",
            "settings": {
                "positions": positions,
                "empties": empties,
                "hex_runs": hex_runs,
                "max_nodes": max_nodes,
            },
            "nodes_measure": "nodes_created",
            "ratio": "DeepPN / PNS on the same instance; means over instances both solved",
            "rows": rows,
        })
    }

    fn to_text(&self) -> String {
        let mut out = String::from(
            "game    dpn     R     iter/PNS  nodes/PNS  median it  (total it, total nodes)  solved  unsolved\n",
        );
        for c in &self.cells {
            out.push_str(&format!(
                "{:<7} {:<7} {:.2}  {:>7.1}%  {:>8.1}%  {:>8.1}%   ({:>6.1}%, {:>6.1}%)        {:>5}  {:>3}{}\n",
                c.game,
                c.form.name(),
                c.r,
                100.0 * Self::mean(&c.ratios_it),
                100.0 * Self::mean(&c.ratios_nodes),
                100.0 * Self::median(&c.ratios_it),
                100.0 * c.sum_it as f64 / c.sum_pns_it.max(1) as f64,
                100.0 * c.sum_nodes as f64 / c.sum_pns_nodes.max(1) as f64,
                c.ratios_it.len(),
                c.unsolved,
                if c.pns_unsolved > 0 {
                    format!(" (PNS unsolved on {})", c.pns_unsolved)
                } else {
                    String::new()
                }
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_othello_positions_have_the_requested_empties() {
        for seed in 0..20 {
            let g = random_othello(seed, 16).expect("position");
            assert_eq!(g.empties(), 16);
            assert!(g.outcome().is_none());
            assert_eq!(random_othello(seed, 16), Some(g), "deterministic");
        }
    }

    #[test]
    fn quick_sweep_writes_csv_and_summary() {
        let opts = ExperimentOptions::for_test(
            "dpn-sweep",
            &[
                ("games", "othello"),
                ("positions", "2"),
                ("empties", "9"),
                ("r", "1.0,0.5"),
            ],
        );
        let dir = opts.out_dir.clone();
        let rep = run_sweep(&opts).expect("sweep");
        let csv = std::fs::read_to_string(dir.join("deep-pn-sweep.csv")).unwrap();
        // Header + 2 positions × (PNS + 2 forms × 2 R).
        assert_eq!(csv.lines().count(), 1 + 2 * 5);
        // R = 1 is PNS: ratio exactly 1 on every position (docs/algorithms.md §3).
        for line in csv
            .lines()
            .filter(|l| l.contains(",deep-pn,") && l.contains(",1.00,"))
        {
            assert!(line.ends_with(",1.0000,1.0000"), "{line}");
        }
        assert!(rep.summary.contains("othello"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
