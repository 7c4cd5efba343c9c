//! The tables of `deep-pn-sweep`: per game, `dpn` form and R, DeepPN's work
//! against PN-search's, in the three ways the question can be asked.
//!
//! - **Paired** (per instance): the ratio run / PNS on the same instance,
//!   averaged over the instances both solved (the papers' "reduction
//!   rate"), with the median and the ratio of the totals beside it, which
//!   the few runs where DeepPN gets stuck do not dominate.
//! - **Unpaired** (the DeepPN paper's Hex figure): the mean of the R runs
//!   divided by one mean of the PNS runs. On Hex the ten runs differ only
//!   in move order, so this compares averages, not instances: one lucky
//!   PNS order lowers every R's ratio at once.
//! - **All solved**: the mean absolute counts and the mean ratio over the
//!   instances where *every* run of the game solved (PNS and every R of
//!   both forms), so every R is averaged over the same instances; beside it
//!   the number of such instances, the runs that hit the cap and the
//!   totals counting capped runs at the cap (a lower bound of their cost).
//!   Nothing is dropped silently.

use serde_json::json;

use pnlab_core::search::deep_pn::DpnForm;

use pnlab_core::search::Status;

/// One run's result.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RunResult {
    /// `pns` or `deep-pn`.
    #[serde(deserialize_with = "super::algo_name")]
    pub algo: super::StaticName,
    /// DeepPN's form (`None` for PNS).
    pub form: Option<DpnForm>,
    /// R (1 for PNS).
    pub r: f64,
    /// How the run ended.
    pub status: Status,
    /// Iterations (expansions).
    pub iterations: u64,
    /// Nodes created.
    pub nodes: u64,
    /// Deepest node.
    pub max_depth: u32,
    /// Seesaw root switches.
    pub root_switches: u64,
    /// Seesaw switches anywhere on the path.
    pub switches: u64,
    /// Time taken.
    pub time_ms: f64,
    /// An R = 1 row copied from PNS's run instead of rerun (`r1 = copy`).
    #[serde(default)]
    pub copied_from_pns: bool,
}

impl RunResult {
    /// Whether the run proved or disproved the root.
    pub fn solved(&self) -> bool {
        matches!(self.status, Status::Proved | Status::Disproved)
    }
}

/// Every run of one instance, in the order `run_instance` made them (PNS
/// first).
pub struct InstanceRuns<'a> {
    /// The game's label (`othello`, `hex4`).
    pub game: &'static str,
    /// The runs.
    pub runs: &'a [RunResult],
}

/// What every run of one kind (PNS, or one cell) adds up to, capped runs
/// included, so nothing is dropped silently.
#[derive(Default)]
struct RunTally {
    /// Runs that stopped unsolved (at the cap).
    capped: usize,
    /// Every run's iterations, solved or capped (capped ones at the cap).
    all_it: Vec<u64>,
    /// Iterations and nodes of the solved runs (for the unpaired mean).
    solved_it: Vec<u64>,
    solved_nodes: Vec<u64>,
    /// Over the instances where every run of the game solved.
    common_it: Vec<u64>,
    common_nodes: Vec<u64>,
}

impl RunTally {
    /// Counts `run`; `all_solved` says whether every run of its instance
    /// solved.
    fn add(&mut self, run: &RunResult, all_solved: bool) {
        self.all_it.push(run.iterations);
        if run.solved() {
            self.solved_it.push(run.iterations);
            self.solved_nodes.push(run.nodes);
        } else {
            self.capped += 1;
        }
        if all_solved {
            self.common_it.push(run.iterations);
            self.common_nodes.push(run.nodes);
        }
    }
}

/// One (game, form, R) cell.
struct Cell {
    game: &'static str,
    form: DpnForm,
    r: f64,
    /// Paired ratios over instances both solved: iterations, nodes.
    ratios_it: Vec<f64>,
    ratios_nodes: Vec<f64>,
    /// Totals over the paired instances: run and PNS.
    sum_it: u64,
    sum_nodes: u64,
    sum_pns_it: u64,
    sum_pns_nodes: u64,
    /// Runs of this cell that stopped unsolved where PNS solved.
    unsolved: usize,
    /// Instances where PNS itself stopped unsolved.
    pns_unsolved: usize,
    /// This cell's runs, whatever PNS did.
    tally: RunTally,
    /// Ratios to PNS over the instances where every run of the game solved.
    common_ratio_it: Vec<f64>,
    common_ratio_nodes: Vec<f64>,
}

/// PNS's numbers for one game.
#[derive(Default)]
struct Baseline {
    instances: usize,
    tally: RunTally,
}

/// The tables of one sweep.
pub struct Summary {
    cells: Vec<Cell>,
    baselines: Vec<(&'static str, Baseline)>,
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn mean_u(v: &[u64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<u64>() as f64 / v.len() as f64
    }
}

/// The median (robust against the runs where DeepPN gets stuck).
fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn ratio(num: u64, den: u64) -> f64 {
    num as f64 / den.max(1) as f64
}

impl Summary {
    /// The tables of `instances`.
    pub fn build(instances: &[InstanceRuns]) -> Summary {
        let mut s = Summary {
            cells: Vec::new(),
            baselines: Vec::new(),
        };
        for inst in instances {
            let Some(base) = inst.runs.iter().find(|r| r.algo == "pns") else {
                continue;
            };
            let all_solved = inst.runs.iter().all(RunResult::solved);
            let b = s.baseline(inst.game);
            b.instances += 1;
            b.tally.add(base, all_solved);
            for run in inst.runs {
                let Some(form) = run.form else { continue };
                let c = s.cell(inst.game, form, run.r);
                c.tally.add(run, all_solved);
                if !base.solved() {
                    c.pns_unsolved += 1;
                } else if !run.solved() {
                    c.unsolved += 1;
                } else {
                    c.ratios_it.push(ratio(run.iterations, base.iterations));
                    c.ratios_nodes.push(ratio(run.nodes, base.nodes));
                    c.sum_it += run.iterations;
                    c.sum_nodes += run.nodes;
                    c.sum_pns_it += base.iterations;
                    c.sum_pns_nodes += base.nodes;
                }
                if all_solved {
                    c.common_ratio_it
                        .push(ratio(run.iterations, base.iterations));
                    c.common_ratio_nodes.push(ratio(run.nodes, base.nodes));
                }
            }
        }
        s
    }

    fn baseline(&mut self, game: &'static str) -> &mut Baseline {
        let i = match self.baselines.iter().position(|(g, _)| *g == game) {
            Some(i) => i,
            None => {
                self.baselines.push((game, Baseline::default()));
                self.baselines.len() - 1
            }
        };
        &mut self.baselines[i].1
    }

    fn base_of(&self, game: &str) -> Option<&Baseline> {
        self.baselines
            .iter()
            .find(|(g, _)| *g == game)
            .map(|(_, b)| b)
    }

    fn cell(&mut self, game: &'static str, form: DpnForm, r: f64) -> &mut Cell {
        let i = match self
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
                    tally: RunTally::default(),
                    common_ratio_it: Vec::new(),
                    common_ratio_nodes: Vec::new(),
                });
                self.cells.len() - 1
            }
        };
        &mut self.cells[i]
    }

    /// The unpaired ratios of a cell: mean of its solved runs over the mean
    /// of PNS's solved runs (iterations, nodes).
    fn unpaired(&self, c: &Cell) -> (f64, f64) {
        match self.base_of(c.game) {
            Some(b) => (
                mean_u(&c.tally.solved_it) / mean_u(&b.tally.solved_it),
                mean_u(&c.tally.solved_nodes) / mean_u(&b.tally.solved_nodes),
            ),
            None => (f64::NAN, f64::NAN),
        }
    }

    /// The JSON rows (one per cell) and the PNS baselines.
    pub fn to_json(&self) -> serde_json::Value {
        let num = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
        let rows: Vec<_> = self
            .cells
            .iter()
            .map(|c| {
                let (un_it, un_nodes) = self.unpaired(c);
                let base = self.base_of(c.game);
                let capped_total_pns = base.map_or(0, |b| b.tally.all_it.iter().sum::<u64>());
                json!({
                    "game": c.game,
                    "dpn": c.form.name(),
                    "R": c.r,
                    "solved_pairs": c.ratios_it.len(),
                    "unsolved": c.unsolved,
                    "pns_unsolved": c.pns_unsolved,
                    "capped": c.tally.capped,
                    "mean_iterations_ratio": num(mean(&c.ratios_it)),
                    "mean_nodes_ratio": num(mean(&c.ratios_nodes)),
                    "median_iterations_ratio": num(median(&c.ratios_it)),
                    "median_nodes_ratio": num(median(&c.ratios_nodes)),
                    "total_iterations_ratio": num(ratio(c.sum_it, c.sum_pns_it)),
                    "total_nodes_ratio": num(ratio(c.sum_nodes, c.sum_pns_nodes)),
                    "unpaired_iterations_ratio": num(un_it),
                    "unpaired_nodes_ratio": num(un_nodes),
                    "all_solved_instances": c.tally.common_it.len(),
                    "all_solved_mean_iterations": num(mean_u(&c.tally.common_it)),
                    "all_solved_mean_nodes": num(mean_u(&c.tally.common_nodes)),
                    "all_solved_mean_iterations_ratio": num(mean(&c.common_ratio_it)),
                    "all_solved_mean_nodes_ratio": num(mean(&c.common_ratio_nodes)),
                    "capped_total_iterations": c.tally.all_it.iter().sum::<u64>(),
                    "capped_total_iterations_pns": capped_total_pns,
                })
            })
            .collect();
        let baselines: Vec<_> = self
            .baselines
            .iter()
            .map(|(g, b)| {
                json!({
                    "game": g,
                    "instances": b.instances,
                    "capped": b.tally.capped,
                    "mean_iterations_solved": num(mean_u(&b.tally.solved_it)),
                    "mean_nodes_solved": num(mean_u(&b.tally.solved_nodes)),
                    "all_solved_instances": b.tally.common_it.len(),
                    "all_solved_mean_iterations": num(mean_u(&b.tally.common_it)),
                    "all_solved_mean_nodes": num(mean_u(&b.tally.common_nodes)),
                    "capped_total_iterations": b.tally.all_it.iter().sum::<u64>(),
                })
            })
            .collect();
        json!({ "rows": rows, "pns": baselines })
    }

    /// The table the CLI prints.
    pub fn to_text(&self) -> String {
        let pct = |x: f64| {
            if x.is_finite() {
                format!("{:.1}%", 100.0 * x)
            } else {
                "–".to_string()
            }
        };
        let mut out = String::new();
        for (g, b) in &self.baselines {
            out.push_str(&format!(
                "{g}: PNS on {} instances, {} capped; every run solved on {} (PNS mean there {:.0} iterations, {:.0} nodes)\n",
                b.instances,
                b.tally.capped,
                b.tally.common_it.len(),
                mean_u(&b.tally.common_it),
                mean_u(&b.tally.common_nodes),
            ));
        }
        out.push_str(
            "game    dpn     R     paired it  nodes   median it  total it  | unpaired it  nodes  | all-solved it  nodes  | solved capped\n",
        );
        for c in &self.cells {
            let (un_it, un_nodes) = self.unpaired(c);
            out.push_str(&format!(
                "{:<7} {:<7} {:.2}  {:>9} {:>7} {:>9} {:>9}  | {:>9} {:>7}  | {:>11} {:>7}  | {:>6} {:>5}{}\n",
                c.game,
                c.form.name(),
                c.r,
                pct(mean(&c.ratios_it)),
                pct(mean(&c.ratios_nodes)),
                pct(median(&c.ratios_it)),
                pct(ratio(c.sum_it, c.sum_pns_it)),
                pct(un_it),
                pct(un_nodes),
                pct(mean(&c.common_ratio_it)),
                pct(mean(&c.common_ratio_nodes)),
                c.ratios_it.len(),
                c.tally.capped,
                if c.pns_unsolved > 0 {
                    format!(" (PNS capped on {})", c.pns_unsolved)
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
    use pnlab_core::search::{Status, StopReason};

    fn run(algo: &'static str, form: Option<DpnForm>, r: f64, it: u64, solved: bool) -> RunResult {
        RunResult {
            algo,
            form,
            r,
            status: if solved {
                Status::Proved
            } else {
                Status::Unknown(StopReason::MaxNodes)
            },
            iterations: it,
            nodes: 2 * it,
            max_depth: 0,
            root_switches: 0,
            switches: 0,
            time_ms: 0.0,
            copied_from_pns: false,
        }
    }

    /// Paired and unpaired statistics differ exactly as their definitions
    /// say, on numbers worked out by hand.
    #[test]
    fn paired_unpaired_and_all_solved_by_hand() {
        let p = Some(DpnForm::Paper);
        // Instance A: PNS 100, R 50. Instance B: PNS 300, R 600.
        // Instance C: PNS 200, R capped at 1000.
        let a = vec![
            run("pns", None, 1.0, 100, true),
            run("deep-pn", p, 0.5, 50, true),
        ];
        let b = vec![
            run("pns", None, 1.0, 300, true),
            run("deep-pn", p, 0.5, 600, true),
        ];
        let c = vec![
            run("pns", None, 1.0, 200, true),
            run("deep-pn", p, 0.5, 1000, false),
        ];
        let s = Summary::build(&[
            InstanceRuns {
                game: "x",
                runs: &a,
            },
            InstanceRuns {
                game: "x",
                runs: &b,
            },
            InstanceRuns {
                game: "x",
                runs: &c,
            },
        ]);
        let j = s.to_json();
        let row = &j["rows"][0];
        // Paired: mean(0.5, 2.0) = 1.25 over A and B.
        assert_eq!(row["mean_iterations_ratio"], 1.25);
        // Unpaired: mean(50, 600) = 325 over mean(100, 300, 200) = 200.
        assert_eq!(row["unpaired_iterations_ratio"], 1.625);
        // All solved: A and B only.
        assert_eq!(row["all_solved_instances"], 2);
        assert_eq!(row["all_solved_mean_iterations"], 325.0);
        assert_eq!(row["capped"], 1);
        assert_eq!(row["unsolved"], 1);
        assert_eq!(row["capped_total_iterations"], 1650);
        assert_eq!(row["capped_total_iterations_pns"], 600);
        assert_eq!(j["pns"][0]["all_solved_mean_iterations"], 200.0);
    }
}
