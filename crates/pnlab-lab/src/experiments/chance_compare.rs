//! `pnlab experiment chance-compare`: nodes visited by `expectimax`,
//! `star1` and `star2` (Ballard 1983; Hsu's lecture notes) on random
//! chance trees, by depth and branching factor, and on random EinStein
//! würfelt nicht! endgames.
//!
//! A random tree of depth `d` and branching `b` has `d` rounds of MAX,
//! chance, MIN, chance (the *-minimax shape of the lecture): every
//! decision node has `b` moves, every chance node `b` equally likely
//! outcomes, and the leaves integer scores in [−10, 10], so L = −10 and
//! U = 10 come from the leaves. The setting `leaves` says how they are
//! scored ([`chance_trees`](super::chance_trees)): independently uniform
//! (the default), the same with the moves sorted best first, or
//! correlated along the path. The EWN
//! positions have one to three cubes a side (searched to the end of the
//! game; a position whose expectimax run needs more than `cap` nodes is
//! drawn again). Every run must return the same value as expectimax;
//! the experiment fails otherwise.
//!
//! Settings: `pnlab experiment chance-compare --help` lists them (trees
//! per pair, the depths and branchings, EinStein positions, the node cap).
//! Expectimax visits every leaf, so a (depth, branching) pair whose trees
//! have more than two million leaves (depth 3 × branching 4 in the
//! default grid) is left out and named in the summary and the JSON.
//! Outputs: `chance-compare.csv` (one row per instance and algorithm:
//! set, depth, branching, instance, algorithm, value, nodes visited,
//! cut-offs I, cut-offs II, probe nodes, probes the full pass reused) and `chance-compare.json`
//! (per configuration and algorithm: mean nodes and the mean ratio to
//! expectimax's nodes).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab_core::game::ewn::Ewn;
use pnlab_core::game::{AnyPosition, Game, GameKind};
use pnlab_core::search::params::ParamSpec;
use pnlab_core::search::{self, Budget, SearchSetup};

use super::chance_trees::{random_tree_text, LeafScores};
use super::{instance_seed, run_jobs, ExperimentError, ExperimentOptions, ExperimentReport, Real};

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment chance-compare
    /// --help` lists them with their ranges and defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct ChanceCompareSettings {
        /// Random trees per (depth, branching).
        pub trees: usize => {
            "trees", int(0, i64::MAX) = 20,
            "Random chance trees per (depth, branching)."
        },
        /// Depths of the random trees.
        pub depths: Vec<i64> => {
            "depths", int_list(1, 1000) = "1,2,3",
            "Depths of the random trees (rounds of max, chance, min, chance)."
        },
        /// Branching factors of the random trees.
        pub branchings: Vec<i64> => {
            "branchings", int_list(1, 1000) = "2,3,4",
            "Branching factors of the random trees."
        },
        /// Random EWN endgames.
        pub ewn: usize => {
            "ewn", int(0, i64::MAX) = 20,
            "Random EinStein würfelt nicht! endgames."
        },
        /// Node cap per run.
        pub cap: u64 => {
            "cap", int(1, i64::MAX) = 200_000,
            "Node cap per run; an instance where a run hits it is skipped."
        },
        /// Leaf scores of the random trees.
        pub leaves: LeafScores => {
            "leaves", choice = LeafScores::Uniform,
            "Leaf scores of the random trees: uniform (independent), ordered (the same, best move first everywhere) or correlated (sums of steps along the path)."
        },
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = ChanceCompareSettings::PARAMS;

/// The three algorithms, expectimax (the baseline) first.
pub const ALGOS: [&str; 3] = ["expectimax", "star1", "star2"];

/// One instance: a random tree (`depth`, `branching`) or an EWN endgame
/// (`depth` = 0).
#[derive(Clone, Debug)]
struct Instance {
    depth: u32,
    branching: u32,
    index: usize,
    seed: u64,
}

/// One algorithm's result on one instance.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Row {
    value: f64,
    nodes: u64,
    cut1: u64,
    cut2: u64,
    probes: u64,
    reused: u64,
}

/// A random EinStein endgame: one to three cubes a side, the side to
/// roll drawn at random (`None` when the game is already over).
pub fn random_ewn(seed: u64) -> Option<Ewn> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut board = ['.'; 25];
    let mut free: Vec<usize> = (1..24).collect();
    for red in [true, false] {
        let mut cubes: Vec<u8> = (1..=6).collect();
        for _ in 0..rng.random_range(1..=3) {
            let sq = free.swap_remove(rng.random_range(0..free.len()));
            let c = cubes.swap_remove(rng.random_range(0..cubes.len()));
            board[sq] = if red {
                (b'0' + c) as char
            } else {
                (b'a' + c - 1) as char
            };
        }
    }
    let rows: Vec<String> = board.chunks(5).map(|r| r.iter().collect()).collect();
    let side = if rng.random_bool(0.5) { "r" } else { "b" };
    let g = Ewn::parse(&format!("{} {side}", rows.join("/"))).ok()?;
    g.outcome().is_none().then_some(g)
}

/// Runs `algo` on `pos` to its end within `cap` iterations.
fn run_one(algo: &str, pos: &AnyPosition, cap: u64) -> Result<Option<Row>, ExperimentError> {
    // The algorithm's defaults, seed 0, the win question.
    let setup = SearchSetup::new(algo, pos.clone(), &[])?;
    let mut s = search::build(algo, &setup)?;
    let budget = Budget {
        max_iterations: Some(cap),
        ..Budget::default()
    };
    let status = search::run(s.as_mut(), &budget, None);
    if !status.is_final() || !matches!(status, search::Status::Proved | search::Status::Disproved) {
        return Ok(None);
    }
    let j = s.extra_json();
    let n = |k: &str| j.get(k).and_then(|v| v.as_u64()).unwrap_or(0);
    Ok(Some(Row {
        value: j.get("value").and_then(|v| v.as_f64()).unwrap_or(f64::NAN),
        nodes: n("nodes_visited"),
        cut1: n("cutoffs_1"),
        cut2: n("cutoffs_2"),
        probes: n("probe_nodes"),
        reused: n("probes_reused"),
    }))
}

/// The three runs on one instance (`None`: an EWN position too large).
fn run_instance(
    inst: &Instance,
    cap: u64,
    leaves: LeafScores,
) -> Result<Option<(String, Vec<Row>)>, ExperimentError> {
    let (pos, name) = if inst.depth == 0 {
        let mut seed = inst.seed;
        loop {
            if let Some(g) = random_ewn(seed) {
                break (AnyPosition::Ewn(g.clone()), g.notation());
            }
            seed = seed.wrapping_add(0x9E37);
        }
    } else {
        let text = random_tree_text(inst.seed, inst.depth, inst.branching, leaves);
        let pos = AnyPosition::parse(GameKind::Tree, &text)?;
        (pos, format!("tree-{}", inst.index))
    };
    let mut rows = Vec::new();
    for algo in ALGOS {
        match run_one(algo, &pos, cap)? {
            Some(r) => rows.push(r),
            None => return Ok(None),
        }
    }
    let want = rows[0].value;
    for (algo, r) in ALGOS.iter().zip(&rows) {
        if (r.value - want).abs() > 1e-9 * want.abs().max(1.0) {
            return Err(ExperimentError::ValueMismatch {
                algo,
                instance: name.clone(),
                value: r.value,
                expectimax: want,
            });
        }
    }
    Ok(Some((name, rows)))
}

/// Largest number of leaves of the random trees a run accepts.
const MAX_LEAVES: f64 = 2e6;

/// Which set a row of `chance-compare.csv` comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChanceSet {
    /// A random chance tree.
    #[default]
    Tree,
    /// An EinStein endgame.
    Ewn,
}

/// One row of `chance-compare.csv`: one algorithm on one instance.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ChanceRow {
    /// Random trees or EinStein endgames.
    pub set: ChanceSet,
    /// The trees' depth (0 for EinStein).
    pub depth: u32,
    /// The trees' branching (0 for EinStein).
    pub branching: u32,
    /// The instance's name.
    pub instance: String,
    /// Expectimax, Star1 or Star2.
    pub algorithm: &'static str,
    /// The root's value.
    pub value: Real,
    /// Nodes visited.
    pub nodes_visited: u64,
    /// Chance cut-offs I (m reached β).
    pub cutoffs_1: u64,
    /// Chance cut-offs II (M fell to α).
    pub cutoffs_2: u64,
    /// Nodes visited by Star2's probes.
    pub probe_nodes: u64,
    /// Probed first moves the full pass took without searching again.
    pub probes_reused: u64,
}

/// The experiment entry point.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (settings, s) = opts.typed_settings(SETTINGS, ChanceCompareSettings::from_params)?;
    let (cap, leaves) = (s.cap, s.leaves);
    // Items are in 1..=1000 (checked when the settings were read).
    let u32s = |v: Vec<i64>| v.into_iter().map(|x| x as u32).collect::<Vec<u32>>();
    let depths = u32s(s.depths);
    let branchings = u32s(s.branchings);
    // Expectimax visits every leaf: a (depth, branching) pair whose trees
    // have more than MAX_LEAVES leaves is left out and named in the
    // summary (the default grid's depth 3 × branching 4 has 4^12).
    let mut too_big = Vec::new();
    let mut jobs = Vec::new();
    for &d in &depths {
        for &b in &branchings {
            if f64::from(b).powi(4 * d as i32) > MAX_LEAVES {
                too_big.push(format!("d={d} b={b}"));
                continue;
            }
            for i in 0..s.trees {
                jobs.push(Instance {
                    depth: d,
                    branching: b,
                    index: i,
                    seed: instance_seed(opts.seed, jobs.len()),
                });
            }
        }
    }
    for i in 0..s.ewn {
        jobs.push(Instance {
            depth: 0,
            branching: 0,
            index: i,
            seed: instance_seed(opts.seed ^ 0xE3E, i),
        });
    }
    let results = run_jobs(opts, &jobs, |j| run_instance(j, cap, leaves));

    let mut table = Vec::new();
    // Per configuration: (label, [sum of nodes, sum of ratios] per algo, count, skipped).
    let mut configs: Vec<(String, [[f64; 2]; 3], usize, usize)> = Vec::new();
    for (i, r) in results {
        let inst = &jobs[i];
        let label = if inst.depth == 0 {
            "ewn".to_string()
        } else {
            format!("d={} b={}", inst.depth, inst.branching)
        };
        if configs.last().is_none_or(|c| c.0 != label) {
            configs.push((label.clone(), [[0.0; 2]; 3], 0, 0));
        }
        let cfg = configs.last_mut().expect("a configuration");
        let Some((name, rows)) = r? else {
            cfg.3 += 1;
            continue;
        };
        cfg.2 += 1;
        let base = rows[0].nodes.max(1) as f64;
        for (k, (algo, row)) in ALGOS.iter().zip(&rows).enumerate() {
            cfg.1[k][0] += row.nodes as f64;
            cfg.1[k][1] += row.nodes as f64 / base;
            table.push(ChanceRow {
                set: if inst.depth == 0 {
                    ChanceSet::Ewn
                } else {
                    ChanceSet::Tree
                },
                depth: inst.depth,
                branching: inst.branching,
                instance: name.clone(),
                algorithm: algo,
                value: Real(row.value),
                nodes_visited: row.nodes,
                cutoffs_1: row.cut1,
                cutoffs_2: row.cut2,
                probe_nodes: row.probes,
                probes_reused: row.reused,
            });
        }
    }
    let mut summary = format!(
        "nodes visited, mean over instances (ratio to expectimax), seed {}, {} leaves\n{:>10}  {:>5}  {:>18}  {:>18}  {:>18}\n",
        opts.seed, leaves.name(), "set", "n", ALGOS[0], ALGOS[1], ALGOS[2]
    );
    if !too_big.is_empty() {
        summary.push_str(&format!(
            "left out (trees of more than {MAX_LEAVES} leaves): {}\n",
            too_big.join(", ")
        ));
    }
    let mut rows_json = Vec::new();
    for (label, sums, n, skipped) in &configs {
        let m = (*n).max(1) as f64;
        let cell = |k: usize| format!("{:.0} ({:.3})", sums[k][0] / m, sums[k][1] / m);
        summary.push_str(&format!(
            "{label:>10}  {n:>5}  {:>18}  {:>18}  {:>18}\n",
            cell(0),
            cell(1),
            cell(2)
        ));
        let mut algos = serde_json::Map::new();
        for (k, a) in ALGOS.iter().enumerate() {
            algos.insert(
                a.to_string(),
                serde_json::json!({"mean_nodes": sums[k][0] / m, "mean_ratio": sums[k][1] / m}),
            );
        }
        rows_json.push(serde_json::json!({
            "set": label, "instances": n, "skipped_over_cap": skipped, "algorithms": algos,
        }));
    }
    opts.write_outputs("chance-compare", &table, serde_json::json!({
            "experiment": "chance-compare", "settings": settings, "seed": opts.seed, "cap": cap, "leaves": leaves.name(), "configurations": rows_json,
            "left_out_over_max_leaves": too_big,
        }), summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::test_run::TestRun;

    #[test]
    fn random_trees_have_the_lecture_shape() {
        let text = random_tree_text(1, 1, 2, LeafScores::Uniform);
        let pos = AnyPosition::parse(GameKind::Tree, &text).expect("a tree");
        // 1 + 2 + 4 + 8 + 16 nodes: MAX, chance, MIN, chance, leaves.
        assert_eq!(text.lines().count(), 1 + 31);
        assert!(text.contains("rab and") && text.contains("rabaa = "));
        assert!(!pnlab_core::with_position!(&pos, g => g.is_chance()));
        assert!(text.contains("\n  ra chance\n"));
    }

    #[test]
    fn a_small_run_agrees_and_counts_every_instance() {
        let t = TestRun::new(
            "chance-compare",
            &[
                ("trees", "3"),
                ("depths", "1"),
                ("branchings", "2,3"),
                ("ewn", "2"),
            ],
            run,
        );
        let csv = t.text("chance-compare.csv");
        let json = t.json("chance-compare.json");
        let configs = json["configurations"].as_array().unwrap();
        assert_eq!(configs.len(), 3);
        let counted: u64 = configs
            .iter()
            .map(|c| c["instances"].as_u64().unwrap() + c["skipped_over_cap"].as_u64().unwrap())
            .sum();
        assert_eq!(counted, 3 + 3 + 2);
        let done: u64 = configs
            .iter()
            .map(|c| c["instances"].as_u64().unwrap())
            .sum();
        assert_eq!(csv.lines().count() as u64, 1 + 3 * done);
        // Star1 never visits more nodes than expectimax on these trees.
        for c in configs {
            assert!(c["algorithms"]["star1"]["mean_ratio"].as_f64().unwrap() <= 1.0);
        }
    }

    /// A pair whose trees are too big for expectimax (depth 4 × branching
    /// 4: 4^16 leaves) is left out and named; the others still run.
    #[test]
    fn oversized_trees_are_left_out_and_named() {
        let t = TestRun::new(
            "chance-compare-big",
            &[
                ("trees", "1"),
                ("depths", "1,4"),
                ("branchings", "2,4"),
                ("ewn", "0"),
            ],
            run,
        );
        let summary = &t.report.summary;
        assert!(summary.contains("d=4 b=4"), "{summary}");
        let json = t.json("chance-compare.json");
        // 2^16 = 65,536 leaves is small enough; 4^16 is not.
        assert_eq!(
            json["left_out_over_max_leaves"],
            serde_json::json!(["d=4 b=4"])
        );
        assert_eq!(json["configurations"].as_array().unwrap().len(), 3);
    }
}
