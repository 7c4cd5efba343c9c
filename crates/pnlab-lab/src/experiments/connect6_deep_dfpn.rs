//! `pnlab experiment connect6-deep-dfpn`: the thesis' Table 3.2 (Zhang
//! 2019, §3.3.4–3.3.6) on pnlab's Connect6 set: relevance-zone df-pn, the
//! 1+ε trick over a list of ε and Deep df-pn over an (E, D) grid and by
//! hill-climbing, each position's best case against df-pn.
//!
//! Every run is the zone search of [`connect6_runs`](super::connect6_runs)
//! (defender moves from relevance zones, the attacker's top 5 moves, a
//! VCDT win ends a line). The node number is the thesis' "VCDT node
//! number + Deep df-pn node number, including repeatedly traversed nodes"
//! (MID calls + the VCDT nodes of the run's distinct solves); the seesaw
//! effect number is the count of nodes traversed again (`revisits`). A run
//! that reaches `cap` on the node number is recorded as unsolved and, as
//! in the thesis, cannot be a best case. Per position the best Deep df-pn
//! run and the best 1+ε run are the proved runs with the fewest nodes;
//! the hill-climb (thesis Algorithm 1, [`climb`]) probes node(E, D) with
//! the same runs (a grid point is not run twice).
//!
//! The thesis' grid is E in 1..=20, D in 1..=15 and ε from 0.05 to 15 in
//! steps of 0.05, at caps of 160 000–500 000 nodes: the full-size command
//! is `pnlab experiment connect6-deep-dfpn --jobs 8 --set e_max=20 --set
//! d_max=15 --set eps_step=0.05 --set eps_max=15 --set cap=500000`. The
//! defaults
//! are a smaller grid a shared 2-core machine runs in minutes.
//!
//! Settings: `file` (the bundled `positions/connect6/generated.toml`, or a
//! path), `positions` (0 = all), `e_max` (6), `d_max` (6), `eps` (a list,
//! default `0.05,0.25,0.5,1,2,4`), or `eps_step` with `eps_max` (a grid
//! from `eps_step` to `eps_max`), `cap` (200000), `hill_climb` (true),
//! `vcdt_depth` (6) and `vcdt_nodes` (5000): the VCDT limits the set was
//! generated with.
//! Outputs: `connect6-deep-dfpn.csv` (one row per run) and
//! `connect6-deep-dfpn.json` (Table 3.2: per position df-pn, the best Deep
//! df-pn and 1+ε runs and the hill-climb's choice; averages).

use std::collections::HashMap;

use serde_json::json;

use pnlab_core::game::connect::vcdt::VcdtOptions;
use pnlab_core::game::connect::zone_game::VcdtCache;
use pnlab_core::game::connect::Connect;
use pnlab_core::game::AnyPosition;
use pnlab_core::positions::{bundled, load_file, load_text, PositionEntry};
use pnlab_core::search::dfpn::hill_climb::ClimbRule;
use pnlab_core::search::dfpn::{climb, DfpnOptions, HillClimbResult};
use pnlab_core::search::params::ParamSpec;

use super::connect6_runs::{settings, vcdt_depth_setting, vcdt_nodes_setting, zone_run, ZoneRun};
use super::{run_jobs, ExperimentError, ExperimentOptions, ExperimentReport, Fixed, Real};

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment
    /// connect6-deep-dfpn --help` lists them with their ranges and
    /// defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Connect6DeepDfpnSettings {
        /// The position file.
        pub file: String => {
            "file", text = DEFAULT_FILE,
            "The Connect6 position file (a bundled path or a file on disk)."
        },
        /// How many of the file's positions (0 = all).
        pub positions: usize => {
            "positions", int(0, i64::MAX) = 0,
            "Use the first N positions of the file (0 = all of them)."
        },
        /// Largest E of the grid.
        pub e_max: u32 => (super::instances::grid_setting("e_max", 6)),
        /// Largest D of the grid.
        pub d_max: u32 => (super::instances::grid_setting("d_max", 6)),
        /// The ε values of the 1+ε runs.
        pub eps: Vec<f64> => (super::instances::eps_setting(
            "0.05,0.25,0.5,1,2,4",
            "The ε values of the 1+ε runs (unless eps_step is set).",
        )),
        /// The step of the ε grid (0: use `eps`).
        pub eps_step: f64 => {
            "eps_step", real(0.0, 1e6) = 0.0,
            "When > 0, the ε list is eps_step, 2·eps_step, …, eps_max instead of eps."
        },
        /// The last ε of the grid.
        pub eps_max: f64 => {
            "eps_max", real(0.0, 1e6) = 15.0,
            "The last ε of the eps_step grid."
        },
        /// MID-call cap per run.
        pub cap: u64 => {
            "cap", int(1, i64::MAX) = 200_000,
            "MID-call cap per run; a capped run counts as unsolved."
        },
        /// Whether to hill-climb too.
        pub hill_climb: bool => {
            "hill_climb", flag = true,
            "Also hill-climb (E, D) from (1, 1) on every position."
        },
        /// VCDT's most attacker moves.
        pub vcdt_depth: u32 => (vcdt_depth_setting(6)),
        /// VCDT's node cap.
        pub vcdt_nodes: u64 => (vcdt_nodes_setting(5_000)),
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = Connect6DeepDfpnSettings::PARAMS;

/// The position set the experiment runs on by default.
pub const DEFAULT_FILE: &str = "positions/connect6/generated.toml";

/// The experiment's grid and cap.
#[derive(Clone, Debug)]
struct Plan {
    e_max: u32,
    d_max: u32,
    eps: Vec<f64>,
    cap: u64,
    hill_climb: bool,
    vcdt: VcdtOptions,
}

/// Every run on one position.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct PositionRuns {
    dfpn: ZoneRun,
    grid: Vec<ZoneRun>,
    eps: Vec<ZoneRun>,
    /// The hill-climbs (the thesis' rule first, then the first-minimum
    /// rule) and the runs of their probes outside the grid; empty when the
    /// climb is off.
    climb: Vec<(ClimbRule, HillClimbResult, Vec<ZoneRun>)>,
}

/// The Connect6 positions of `file` (bundled or on disk).
fn load_positions(file: &str) -> Result<Vec<(String, Connect)>, ExperimentError> {
    let entries: Vec<PositionEntry> = match bundled().iter().find(|f| f.path == file) {
        Some(f) => load_text(f.path, f.text)?,
        None => load_file(std::path::Path::new(file))?,
    };
    let mut out = Vec::new();
    for e in entries {
        match e.position {
            AnyPosition::Connect(c) => out.push((e.name, c)),
            _ => {
                return Err(ExperimentError::WrongGame {
                    file: file.to_string(),
                    name: e.name,
                    wanted: "connect",
                })
            }
        }
    }
    if out.is_empty() {
        return Err(ExperimentError::NoPositions {
            file: file.to_string(),
        });
    }
    Ok(out)
}

/// The ε list: `eps`, or the grid `eps_step, 2·eps_step, …, eps_max`.
fn eps_list(settings: &Connect6DeepDfpnSettings) -> Result<Vec<f64>, ExperimentError> {
    let step = settings.eps_step;
    if step > 0.0 {
        let max = settings.eps_max;
        let n = (max / step + 1e-9).floor() as usize;
        if !(1..=100_000).contains(&n) {
            return Err(ExperimentError::GridSize {
                max_setting: "eps_max",
                step_setting: "eps_step",
                values: n,
                limit: 100_000,
            });
        }
        // Rounded to 1e-9 so that 0.05 · 3 prints as 0.15.
        return Ok((1..=n)
            .map(|i| (i as f64 * step * 1e9).round() / 1e9)
            .collect());
    }
    Ok(settings.eps.clone())
}

/// Runs everything on one position; the runs share one VCDT cache.
fn run_position(pos: &Connect, plan: &Plan) -> PositionRuns {
    let zone = settings(pos, 5, plan.vcdt);
    let cache = VcdtCache::new();
    let run = |algo: &'static str, o: DfpnOptions| zone_run(pos, algo, o, zone, &cache, plan.cap);
    let deep = |e: u32, d: u32| {
        run(
            "deep-dfpn",
            DfpnOptions {
                deep: Some((e, d)),
                ..Default::default()
            },
        )
    };
    let dfpn = run("dfpn", DfpnOptions::default());
    let mut grid = Vec::new();
    for e in 1..=plan.e_max {
        for d in 1..=plan.d_max {
            grid.push(deep(e, d));
        }
    }
    let eps = plan
        .eps
        .iter()
        .map(|&x| {
            run(
                "dfpn-eps",
                DfpnOptions {
                    eps: Some(x),
                    ..Default::default()
                },
            )
        })
        .collect();
    let mut climbs = Vec::new();
    if plan.hill_climb {
        let mut known: HashMap<(u32, u32), ZoneRun> = grid
            .iter()
            .filter_map(|r: &ZoneRun| r.deep.map(|k| (k, r.clone())))
            .collect();
        for rule in [ClimbRule::Thesis, ClimbRule::FirstMinimum] {
            let mut extra = Vec::new();
            let result = climb(rule, |e, d| {
                let r = known.entry((e, d)).or_insert_with(|| {
                    let r = deep(e, d);
                    extra.push(r.clone());
                    r
                });
                r.proved().then(|| r.nodes())
            });
            climbs.push((rule, result, extra));
        }
    }
    PositionRuns {
        dfpn,
        grid,
        eps,
        climb: climbs,
    }
}

/// Whether a climbed run's nodes are within the thesis' 3.3 % of the
/// grid's best (`None` when either is missing).
fn within_gap(climbed: Option<&ZoneRun>, best: Option<&ZoneRun>) -> Option<bool> {
    let (c, b) = (climbed?, best?);
    Some(super::hill_climb::within_thesis_gap(c.nodes(), b.nodes()))
}

/// The proved run with the fewest nodes (ties: the first).
fn best(runs: &[ZoneRun]) -> Option<&ZoneRun> {
    runs.iter().filter(|r| r.proved()).min_by_key(|r| r.nodes())
}

/// `100 · (1 − x / base)`: the thesis' reduction percentage.
fn reduction(x: u64, base: u64) -> Option<f64> {
    (base > 0).then(|| 100.0 * (1.0 - x as f64 / base as f64))
}

fn run_json(r: Option<&ZoneRun>, base: &ZoneRun) -> serde_json::Value {
    match r {
        None => json!(null),
        Some(r) => json!({
            "E": r.deep.map(|x| x.0),
            "D": r.deep.map(|x| x.1),
            "eps": r.eps,
            "nodes": r.nodes(),
            "mid_calls": r.mid_calls,
            "vcdt_nodes": r.vcdt_nodes,
            "seesaw": r.revisits,
            "root_switches": r.root_switches,
            "time_ms": (r.time_ms * 10.0).round() / 10.0,
            "node_reduction_pct": reduction(r.nodes(), base.nodes()),
            "seesaw_reduction_pct": reduction(r.revisits, base.revisits),
        }),
    }
}

/// Table 3.2's "average" row for one column: the mean node and seesaw
/// numbers over the positions where the column has a run, and their
/// reductions against df-pn's means over the same positions.
fn average(rows: &[(&ZoneRun, Option<&ZoneRun>)]) -> serde_json::Value {
    let with: Vec<_> = rows
        .iter()
        .filter_map(|(b, r)| r.map(|r| (*b, r)))
        .collect();
    if with.is_empty() {
        return json!(null);
    }
    let n = with.len() as f64;
    let mean = |f: &dyn Fn(&ZoneRun) -> u64, pick_base: bool| -> f64 {
        with.iter()
            .map(|(b, r)| f(if pick_base { b } else { r }) as f64)
            .sum::<f64>()
            / n
    };
    let (nodes, base_nodes) = (mean(&|r| r.nodes(), false), mean(&|r| r.nodes(), true));
    let (seesaw, base_seesaw) = (mean(&|r| r.revisits, false), mean(&|r| r.revisits, true));
    let mean_pct = |f: &dyn Fn(&ZoneRun) -> u64| -> f64 {
        with.iter()
            .filter_map(|(b, r)| reduction(f(r), f(b)))
            .sum::<f64>()
            / n
    };
    json!({
        "positions": with.len(),
        "nodes": nodes,
        "seesaw": seesaw,
        "dfpn_nodes": base_nodes,
        "dfpn_seesaw": base_seesaw,
        "node_reduction_of_means_pct": 100.0 * (1.0 - nodes / base_nodes.max(1e-9)),
        "seesaw_reduction_of_means_pct": 100.0 * (1.0 - seesaw / base_seesaw.max(1e-9)),
        "mean_node_reduction_pct": mean_pct(&|r| r.nodes()),
        "mean_seesaw_reduction_pct": mean_pct(&|r| r.revisits),
    })
}

/// One row of `connect6-deep-dfpn.csv`: one zone search of a position.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ZoneRow {
    /// The position's number in the file (from 1).
    pub position: usize,
    /// The position's name.
    pub name: String,
    /// `dfpn`, `dfpn-eps` or `deep-dfpn`.
    pub algo: &'static str,
    /// Deep df-pn's E (empty for the others).
    #[serde(rename = "E")]
    pub e: Option<u32>,
    /// Deep df-pn's D.
    #[serde(rename = "D")]
    pub d: Option<u32>,
    /// 1+ε's ε.
    pub eps: Option<Real>,
    /// How the run ended.
    pub outcome: &'static str,
    /// The thesis' node number: MID calls + VCDT nodes.
    pub nodes: u64,
    /// MID calls.
    pub mid_calls: u64,
    /// Nodes of the distinct VCDT solves.
    pub vcdt_nodes: u64,
    /// Seesaw effect number (revisits).
    pub seesaw: u64,
    /// Root switches.
    pub root_switches: u64,
    /// Wall time in milliseconds.
    pub time_ms: Fixed<1>,
}

/// The rows of every run on position number `position` (from 1): df-pn,
/// the grid, the ε list, then the hill-climbs' probes outside the grid.
fn zone_rows(position: usize, name: &str, runs: &PositionRuns) -> Vec<ZoneRow> {
    let mut rows = Vec::new();
    let extra = runs.climb.iter().flat_map(|(_, _, x)| x.iter());
    for r in std::iter::once(&runs.dfpn)
        .chain(&runs.grid)
        .chain(&runs.eps)
        .chain(extra)
    {
        rows.push(ZoneRow {
            position,
            name: name.to_string(),
            algo: r.algo,
            e: r.deep.map(|x| x.0),
            d: r.deep.map(|x| x.1),
            eps: r.eps.map(Real),
            outcome: r.status.outcome_name(),
            nodes: r.nodes(),
            mid_calls: r.mid_calls,
            vcdt_nodes: r.vcdt_nodes,
            seesaw: r.revisits,
            root_switches: r.root_switches,
            time_ms: Fixed(r.time_ms),
        });
    }
    rows
}

/// The printed line of one position: df-pn, the best Deep df-pn and 1+ε
/// runs and the hill-climb's choice.
fn position_line(
    position: usize,
    base: &ZoneRun,
    bd: Option<&ZoneRun>,
    be: Option<&ZoneRun>,
    climbed: Option<&ZoneRun>,
) -> String {
    let cell = |r: Option<&ZoneRun>| match r {
        Some(r) => format!("{:>9} {:>7}", r.nodes(), r.revisits),
        None => format!("{:>9} {:>7}", "-", "-"),
    };
    format!(
        "{:<4} {} | {} {:>6} | {} {:>6} | {:>9} {:>6}\n",
        position,
        cell(base.proved().then_some(base)),
        cell(bd),
        bd.and_then(|r| r.deep)
            .map_or("-".into(), |(e, d)| format!("{e},{d}")),
        cell(be),
        be.and_then(|r| r.eps).map_or("-".into(), |x| x.to_string()),
        climbed.map_or("-".into(), |r| r.nodes().to_string()),
        climbed
            .and_then(|r| r.deep)
            .map_or("-".into(), |(e, d)| format!("{e},{d}")),
    )
}

/// The printed lines of the averages: each column against df-pn.
fn averages_text(averages: &serde_json::Value) -> String {
    let mut summary = String::new();
    for (label, key) in [
        ("Deep df-pn (best)", "deep_dfpn_best"),
        ("1+eps (best)", "eps_best"),
        ("hill-climb (thesis rule)", "hill_climb"),
        ("hill-climb (first minimum)", "hill_climb_first_minimum"),
    ] {
        let a = &averages[key];
        if a.is_null() {
            continue;
        }
        summary.push_str(&format!(
            "{label}: nodes {:.1} vs df-pn {:.1} ({:.1}% fewer; mean of per-position reductions {:.1}%), seesaw {:.1} vs {:.1} ({:.1}% fewer), {} positions\n",
            a["nodes"].as_f64().unwrap_or(0.0),
            a["dfpn_nodes"].as_f64().unwrap_or(0.0),
            a["node_reduction_of_means_pct"].as_f64().unwrap_or(0.0),
            a["mean_node_reduction_pct"].as_f64().unwrap_or(0.0),
            a["seesaw"].as_f64().unwrap_or(0.0),
            a["dfpn_seesaw"].as_f64().unwrap_or(0.0),
            a["seesaw_reduction_of_means_pct"].as_f64().unwrap_or(0.0),
            a["positions"],
        ));
    }
    summary
}

/// The experiment entry point.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (settings, s) = opts.typed_settings(SETTINGS, Connect6DeepDfpnSettings::from_params)?;
    let file = s.file.as_str();
    let mut positions = load_positions(file)?;
    match s.positions {
        0 => {}
        limit => positions.truncate(limit),
    }
    let plan = Plan {
        e_max: s.e_max,
        d_max: s.d_max,
        eps: eps_list(&s)?,
        cap: s.cap,
        hill_climb: s.hill_climb,
        vcdt: VcdtOptions {
            max_depth: s.vcdt_depth,
            max_nodes: s.vcdt_nodes,
        },
    };
    let results = run_jobs(opts, &positions, |(_, p)| run_position(p, &plan));
    let mut rows = Vec::new();
    let mut table = Vec::new();
    let (mut deep_rows, mut eps_rows) = (Vec::new(), Vec::new());
    // Per climbing rule: the (df-pn, climbed) pairs, and how often the
    // climb landed within the thesis' 3.3 % of the grid's best.
    let mut climb_rows: [Vec<(&ZoneRun, Option<&ZoneRun>)>; 2] = [Vec::new(), Vec::new()];
    let mut climb_close = [(0usize, 0usize); 2];
    let mut summary = format!(
        "Connect6 zone searches on {} positions of {file} (cap {} nodes; Deep df-pn E 1..={}, D 1..={}; {} values of ε)\n\
         {:<4} {:>9} {:>7} | {:>9} {:>7} {:>6} | {:>9} {:>7} {:>6} | {:>9} {:>6}\n",
        results.len(),
        plan.cap,
        plan.e_max,
        plan.d_max,
        plan.eps.len(),
        "pos",
        "dfpn",
        "seesaw",
        "deep",
        "seesaw",
        "E,D",
        "1+eps",
        "seesaw",
        "eps",
        "climb",
        "E,D"
    );
    for (i, runs) in &results {
        let name = &positions[*i].0;
        rows.extend(zone_rows(i + 1, name, runs));
        let base = &runs.dfpn;
        let (bd, be) = (best(&runs.grid), best(&runs.eps));
        let climbed_by: Vec<Option<&ZoneRun>> = runs
            .climb
            .iter()
            .map(|(_, c, _)| {
                runs.grid
                    .iter()
                    .chain(runs.climb.iter().flat_map(|(_, _, x)| x.iter()))
                    .find(|r| r.deep == Some(c.chosen) && r.proved())
            })
            .collect();
        let climbed = climbed_by.first().copied().flatten();
        table.push(json!({
            "position": i + 1,
            "name": name,
            "dfpn": run_json(base.proved().then_some(base), base),
            "deep_dfpn_best": run_json(bd, base),
            "eps_best": run_json(be, base),
            "hill_climbs": runs.climb.iter().zip(&climbed_by).map(|((rule, c, extra), r)| json!({
                "rule": rule.name(),
                "chosen": run_json(*r, base),
                "within_3_3_pct_of_grid_best": within_gap(*r, bd),
                "probes": c.probes.len(),
                "probes_outside_grid": extra.len(),
            })).collect::<Vec<_>>(),
        }));
        if base.proved() {
            deep_rows.push((base, bd));
            eps_rows.push((base, be));
            for (k, r) in climbed_by.iter().enumerate().take(2) {
                climb_rows[k].push((base, *r));
                if let Some(w) = within_gap(*r, bd) {
                    climb_close[k].1 += 1;
                    climb_close[k].0 += usize::from(w);
                }
            }
        }
        summary.push_str(&position_line(i + 1, base, bd, be, climbed));
    }
    let averages = json!({
        "deep_dfpn_best": average(&deep_rows),
        "eps_best": average(&eps_rows),
        "hill_climb": average(&climb_rows[0]),
        "hill_climb_first_minimum": average(&climb_rows[1]),
        "hill_climb_within_3_3_pct": {
            "thesis": {"positions": climb_close[0].1, "within": climb_close[0].0},
            "first_minimum": {"positions": climb_close[1].1, "within": climb_close[1].0},
        },
    });
    summary.push_str(&averages_text(&averages));
    if plan.hill_climb {
        summary.push_str(&format!(
            "hill-climb within 3.3% of the grid's best: thesis rule {} of {}, first minimum {} of {}\n",
            climb_close[0].0, climb_close[0].1, climb_close[1].0, climb_close[1].1
        ));
    }
    opts.write_outputs(
        "connect6-deep-dfpn",
        &rows,
        json!({
            "experiment": "connect6-deep-dfpn",
            "settings": settings,
            "file": file,
            "cap": plan.cap,
            "e_max": plan.e_max,
            "d_max": plan.d_max,
            "eps": plan.eps,
            "vcdt_depth": plan.vcdt.max_depth,
            "vcdt_nodes": plan.vcdt.max_nodes,
            "positions": table,
            "average": averages,
        }),
        summary,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eps_grid_has_the_thesis_values() {
        let o = ExperimentOptions::for_test("c6-eps", &[("eps_step", "0.05"), ("eps_max", "15")]);
        let s = Connect6DeepDfpnSettings::from_params(&o.params(SETTINGS).unwrap()).unwrap();
        let v = eps_list(&s).unwrap();
        assert_eq!(v.len(), 300);
        assert_eq!((v[0], v[2], v[299]), (0.05, 0.15, 15.0));
    }

    #[test]
    fn reductions_are_percentages_of_df_pn() {
        assert_eq!(reduction(25, 100), Some(75.0));
        assert_eq!(reduction(150, 100), Some(-50.0));
        assert_eq!(reduction(1, 0), None);
    }
}
