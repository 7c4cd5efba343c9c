//! `pnlab experiment hill-climb`: how well the thesis' hill-climbing for
//! Deep df-pn's (E, D) (Zhang 2019, Algorithm 1; docs/algorithms.md §4;
//! [`crate::search::dfpn::hill_climb`]) does on seeded random Othello
//! endgames, against df-pn and against the best point of the whole
//! `1..=e_max` × `1..=d_max` grid found by brute force.
//!
//! Per instance: df-pn (the baseline), the hill-climb (every probe is a
//! full capped solve), and the grid. node(E, D) is MID calls, as in the
//! thesis. The summary gives the mean ratios to df-pn of the climb's
//! choice and of the grid's best, how often the climb found the grid's
//! best value (or a point as good), and the probes it spent.
//!
//! Settings: `positions` (10), `empties` (12), `e_max` (6), `d_max` (6),
//! `max_nodes` (2000000).
//! Outputs: `hill-climb.csv` (one row per instance: dfpn calls, chosen E
//! and D, their calls, probes, grid-best E, D and calls) and
//! `hill-climb.json` (the means).

use crate::game::othello::Othello;
use crate::game::Game;
use crate::search::dfpn::hill_climb::{hill_climb, HillClimbResult};
use crate::search::dfpn::DfpnOptions;
use crate::search::{Params, QuestionKind, SearchSetup};

use super::deep_dfpn_grid::{othello_instances, solve_capped, solved};
use super::{run_jobs, write_json, Csv, ExperimentOptions, ExperimentReport, MeanRatios};
use crate::search::params::{ParamKind, ParamSpec};

/// The settings (`--set NAME=VALUE`; `pnlab experiment hill-climb --help`
/// lists them with their ranges and defaults).
pub const SETTINGS: &[ParamSpec] = &[
    super::deep_dfpn_grid::positions_setting(10),
    super::deep_dfpn_grid::empties_setting(12),
    ParamSpec {
        name: "e_max",
        kind: ParamKind::Int {
            min: 1,
            max: 1000,
            default: 6,
        },
        help: "Largest E of the (E, D) grid the climb is compared with.",
    },
    ParamSpec {
        name: "d_max",
        kind: ParamKind::Int {
            min: 1,
            max: 1000,
            default: 6,
        },
        help: "Largest D of the (E, D) grid the climb is compared with.",
    },
    super::deep_dfpn_grid::max_nodes_setting(2_000_000),
];

/// One instance's results.
#[derive(serde::Serialize, serde::Deserialize)]
struct Outcome {
    dfpn: Option<u64>,
    climb: HillClimbResult,
    /// The grid's best point and its MID calls (`None`: nothing solved).
    grid_best: Option<((u32, u32), u64)>,
}

fn run_instance(g: &Othello, e_max: u32, d_max: u32, cap: u64) -> Outcome {
    let base = solve_capped(g, "dfpn", DfpnOptions::default(), cap);
    let setup = SearchSetup {
        position: g.into_any(),
        params: Params::default(),
        seed: 0,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    };
    let climb = hill_climb(&setup, cap);
    let mut grid_best: Option<((u32, u32), u64)> = None;
    for e in 1..=e_max {
        for d in 1..=d_max {
            let o = DfpnOptions {
                deep: Some((e, d)),
                ..Default::default()
            };
            let r = solve_capped(g, "deep-dfpn", o, cap);
            if solved(r.status) && grid_best.is_none_or(|(_, v)| r.iterations < v) {
                grid_best = Some(((e, d), r.iterations));
            }
        }
    }
    Outcome {
        dfpn: solved(base.status).then_some(base.iterations),
        climb,
        grid_best,
    }
}

/// The experiment entry point.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, String> {
    let settings = opts.params(SETTINGS)?;
    let positions = settings.int("positions")? as usize;
    let empties = settings.int("empties")? as u32;
    let e_max = settings.int("e_max")? as u32;
    let d_max = settings.int("d_max")? as u32;
    let cap = settings.int("max_nodes")? as u64;
    let instances = othello_instances(opts, positions, empties)?;
    let results = run_jobs(opts, &instances, |g| run_instance(g, e_max, d_max, cap));

    let mut csv = Csv::new(&[
        "instance",
        "position",
        "dfpn_calls",
        "chosen_E",
        "chosen_D",
        "chosen_calls",
        "probes",
        "grid_best_E",
        "grid_best_D",
        "grid_best_calls",
    ]);
    let opt = |v: Option<u64>| v.map_or_else(String::new, |v| v.to_string());
    let mut ratios = MeanRatios::default();
    let mut probes = 0usize;
    let mut found_best = 0usize;
    let mut compared = 0usize;
    for (i, r) in &results {
        let c = &r.climb;
        csv.push(vec![
            i.to_string(),
            instances[*i].notation(),
            opt(r.dfpn),
            c.chosen.0.to_string(),
            c.chosen.1.to_string(),
            opt(c.chosen_nodes),
            c.probes.len().to_string(),
            r.grid_best.map_or(String::new(), |b| b.0 .0.to_string()),
            r.grid_best.map_or(String::new(), |b| b.0 .1.to_string()),
            opt(r.grid_best.map(|b| b.1)),
        ]);
        probes += c.probes.len();
        if let (Some(base), Some(chosen), Some((_, best))) = (r.dfpn, c.chosen_nodes, r.grid_best) {
            let base = base.max(1) as f64;
            ratios.add("chosen", chosen as f64 / base);
            ratios.add("grid best", best as f64 / base);
            ratios.add("chosen / grid best", chosen as f64 / best.max(1) as f64);
            compared += 1;
            if chosen <= best {
                found_best += 1;
            }
        }
    }
    let csv_path = opts.out_dir.join("hill-climb.csv");
    csv.write(&csv_path)?;
    let n = results.len().max(1) as f64;
    let mut summary = format!(
        "{} instances, Othello {empties} empties, seed {}, grid {e_max}×{d_max}, cap {cap} MID calls\n",
        results.len(),
        opts.seed
    );
    for (k, m, cnt) in ratios.means() {
        summary.push_str(&format!("  mean MID calls, {k:<20} {m:.3} (n={cnt})\n"));
    }
    summary.push_str(&format!(
        "  the climb matched the grid's best on {found_best} of {compared}; mean probes {:.1}\n",
        probes as f64 / n
    ));
    let json_path = opts.out_dir.join("hill-climb.json");
    write_json(
        &json_path,
        &serde_json::json!({
            "experiment": "hill-climb",
            "settings": settings,
            "instances": results.len(),
            "empties": empties,
            "seed": opts.seed,
            "grid": [e_max, d_max],
            "max_nodes": cap,
            "mean_ratios": ratios
                .means()
                .into_iter()
                .map(|(k, m, c)| serde_json::json!({"what": k, "mean": m, "n": c}))
                .collect::<Vec<_>>(),
            "climb_matched_grid_best": found_best,
            "compared": compared,
            "mean_probes": probes as f64 / n,
        }),
    )?;
    Ok(ExperimentReport {
        outputs: vec![csv_path, json_path],
        summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_climbs_choice_resolves_to_its_count_and_the_grid_is_never_worse_than_dfpn() {
        let opts = ExperimentOptions::for_test(
            "hill-climb",
            &[
                ("positions", "3"),
                ("empties", "9"),
                ("e_max", "3"),
                ("d_max", "3"),
            ],
        );
        let dir = opts.out_dir.clone();
        run(&opts).expect("experiment");
        let csv = std::fs::read_to_string(dir.join("hill-climb.csv")).unwrap();
        let instances = othello_instances(&opts, 3, 9).unwrap();
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        assert_eq!(rows.len(), 3);
        for (row, g) in rows.iter().zip(&instances) {
            let num = |i: usize| row[i].parse::<u64>().unwrap();
            let (e, d) = (num(3) as u32, num(4) as u32);
            // A fresh solve at the chosen point needs what the climb said.
            let again = solve_capped(
                g,
                "deep-dfpn",
                DfpnOptions {
                    deep: Some((e, d)),
                    ..Default::default()
                },
                2_000_000,
            );
            assert_eq!(again.iterations, num(5), "{row:?}");
            // The grid holds E = 1, which is df-pn (docs/algorithms.md §4).
            assert!(num(9) <= num(2), "{row:?}");
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
