//! `pnlab experiment eps-sweep`: the 1+ε trick (Pawlewicz & Lew 2007;
//! docs/algorithms.md §4) against plain df-pn over a list of ε, on seeded random
//! Othello endgames. The trick widens the threshold handed to the best
//! child so the search stays in a subtree longer before switching; what it
//! buys is fewer re-searches of subtrees already visited, measured here as
//! MID calls and the thesis' seesaw effect number (`revisits`, §9).
//!
//! Per instance: df-pn once (the baseline), then `dfpn-eps` for every ε.
//! Each run is capped at `max_nodes` MID calls; a capped run counts as
//! unsolved and is left out of the means (the summary counts them).
//!
//! Settings: `positions` (30), `empties` (12), `eps`
//! (`0.01,0.05,0.1,0.25,0.5,1,2,4`), `max_nodes` (2000000).
//! Outputs: `eps-sweep.csv` (one row per run: instance, position, algo,
//! eps, outcome, iterations, nodes_created, revisits,
//! seesaw_root_switches) and `eps-sweep.json` (per ε: mean ratio to df-pn
//! of MID calls and of revisits over instances both solved, unsolved
//! count).

use pnlab_core::game::othello::Othello;
use pnlab_core::game::Game;
use pnlab_core::search::dfpn::DfpnOptions;

use super::deep_dfpn_grid::{eps_runs, solve_capped, solved, GridRun};
use super::instances::{
    empties_setting, eps_setting, max_nodes_setting, othello_instances, positions_setting,
};
use super::{run_jobs, ExperimentError, ExperimentOptions, ExperimentReport, MeanRatios, Real};
use pnlab_core::search::params::ParamSpec;

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment eps-sweep
    /// --help` lists them with their ranges and defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct EpsSweepSettings {
        /// Random Othello positions drawn.
        pub positions: usize => (positions_setting(30)),
        /// Empty squares of each position.
        pub empties: u32 => (empties_setting(12)),
        /// The ε values of the 1+ε runs.
        pub eps: Vec<f64> => (eps_setting(
            "0.01,0.05,0.1,0.25,0.5,1,2,4",
            "The ε values of the 1+ε runs.",
        )),
        /// The MID-call cap of every run.
        pub max_nodes: u64 => (max_nodes_setting(2_000_000)),
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = EpsSweepSettings::PARAMS;

/// One row of `eps-sweep.csv`: a run of one instance.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct EpsRow {
    /// The instance's number.
    pub instance: usize,
    /// The position's notation.
    pub position: String,
    /// `dfpn` or `dfpn-eps`.
    pub algo: &'static str,
    /// The 1+ε trick's ε (empty for df-pn).
    pub eps: Option<Real>,
    /// How the run ended.
    pub outcome: &'static str,
    /// MID calls.
    pub iterations: u64,
    /// Table entries created.
    pub nodes_created: u64,
    /// Re-entries into a left subtree.
    pub revisits: u64,
    /// Changes of the root's pick.
    pub seesaw_root_switches: u64,
}

impl EpsRow {
    fn of(instance: usize, position: String, r: &GridRun) -> EpsRow {
        EpsRow {
            instance,
            position,
            algo: r.algo,
            eps: r.eps.map(Real),
            outcome: r.status.outcome_name(),
            iterations: r.iterations,
            nodes_created: r.nodes_created,
            revisits: r.revisits,
            seesaw_root_switches: r.root_switches,
        }
    }
}

/// df-pn, then 1+ε for every ε.
fn runs_for(g: &Othello, eps: &[f64], cap: u64) -> Vec<GridRun> {
    let mut out = vec![solve_capped(g, "dfpn", DfpnOptions::default(), cap)];
    out.extend(eps_runs(g, eps, cap));
    out
}

/// The experiment entry point.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (settings, s) = opts.typed_settings(SETTINGS, EpsSweepSettings::from_params)?;
    let eps = &s.eps;
    let instances = othello_instances(opts, s.positions, s.empties)?;
    let results = run_jobs(opts, &instances, |g| runs_for(g, eps, s.max_nodes));

    let mut rows = Vec::new();
    let mut calls = MeanRatios::default();
    let mut revisits = MeanRatios::default();
    let mut unsolved = vec![0usize; eps.len() + 1];
    for (i, runs) in &results {
        let base = &runs[0];
        for (k, r) in runs.iter().enumerate() {
            rows.push(EpsRow::of(*i, instances[*i].notation(), r));
            if !solved(r.status) {
                unsolved[k] += 1;
            }
            if k == 0 || !solved(base.status) || !solved(r.status) {
                continue;
            }
            let key = eps[k - 1].to_string();
            calls.add(&key, r.iterations as f64 / base.iterations.max(1) as f64);
            // A baseline with no revisits gives no ratio (0/0).
            if base.revisits > 0 {
                revisits.add(&key, r.revisits as f64 / base.revisits as f64);
            }
        }
    }

    let mut summary = format!(
        "{} instances, Othello {empties} empties, seed {}, cap {cap} MID calls; df-pn unsolved: {}\n\
         {:>8}  {:>16}  {:>16}  {:>8}\n",
        results.len(),
        opts.seed,
        unsolved[0],
        "eps",
        "MID calls / dfpn",
        "revisits / dfpn",
        "unsolved",
        empties = s.empties,
        cap = s.max_nodes,
    );
    let mut by_eps = Vec::new();
    for (k, x) in eps.iter().enumerate() {
        let key = x.to_string();
        let c = calls.mean(&key);
        let r = revisits.mean(&key);
        let fmt = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
        summary.push_str(&format!(
            "{key:>8}  {:>16}  {:>16}  {:>8}\n",
            fmt(c),
            fmt(r),
            unsolved[k + 1]
        ));
        by_eps.push(serde_json::json!({
            "eps": x,
            "mean_mid_calls_ratio": c,
            "mean_revisits_ratio": r,
            "unsolved": unsolved[k + 1],
        }));
    }
    opts.write_outputs(
        "eps-sweep",
        &rows,
        serde_json::json!({
            "experiment": "eps-sweep",
            "settings": settings,
            "instances": results.len(),
            "empties": s.empties,
            "seed": opts.seed,
            "max_nodes": s.max_nodes,
            "dfpn_unsolved": unsolved[0],
            "by_eps": by_eps,
        }),
        summary,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::test_run::TestRun;

    #[test]
    fn a_vanishing_eps_is_dfpn_and_the_outputs_have_every_run() {
        let t = TestRun::new(
            "eps-sweep",
            &[("positions", "3"), ("empties", "9"), ("eps", "1e-9,1")],
            run,
        );
        // Header + 3 positions × (df-pn + 2 ε).
        assert_eq!(t.text("eps-sweep.csv").lines().count(), 1 + 3 * 3);
        let json = t.json("eps-sweep.json");
        // docs/algorithms.md §4: ε → 0 performs exactly as df-pn.
        assert_eq!(json["by_eps"][0]["mean_mid_calls_ratio"], 1.0);
        assert_eq!(json["dfpn_unsolved"], 0);
        // The summary records every setting: the given ones as given
        // (lists normalised), the others at their defaults.
        let settings = &json["settings"];
        assert_eq!(settings["positions"], 3);
        assert_eq!(settings["eps"], "1e-9,1");
        assert_eq!(settings["max_nodes"], 2_000_000);
    }

    #[test]
    fn bad_eps_is_an_error() {
        let opts = ExperimentOptions {
            settings: vec![("eps".into(), "0.5,-1".into())],
            ..Default::default()
        };
        let e = run(&opts).unwrap_err().to_string();
        assert!(e.contains("`-1`") && e.contains("eps"), "{e}");
    }
}
