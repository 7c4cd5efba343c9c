//! The settings that isolate why a paper's number and ours differ, each
//! on a small run through the CLI:
//!
//! - `chance-compare --set leaves=…`: sorting every move list best first
//!   permutes moves but changes no node's value, so the ordered trees have
//!   the uniform trees' values, tree by tree (and every run still returns
//!   expectimax's value, which the experiment checks itself).
//! - `pgame-compare --set norm=nodes`: the work of a run is the tree nodes
//!   it created. By the algorithms' definitions PN-search creates b
//!   children per iteration (1 + b·iterations with the root) and the MCTS
//!   solvers one node per iteration (1 + iterations); `norm=b` divides an
//!   MCTS solver's iterations by b.
//! - `pgame-compare --set A=…` and `K=…` are passed on and recorded.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;
use common::pnlab;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pnlab-switch-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Runs `pnlab experiment NAME --quiet --out DIR --set …`.
fn experiment(name: &str, out: &Path, settings: &[&str]) {
    let mut args = vec![
        "experiment",
        name,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    for s in settings {
        args.extend(["--set", s]);
    }
    let (code, stdout, err) = pnlab(&args);
    assert_eq!(code, 0, "{stdout}{err}");
}

/// A CSV as a header-indexed list of rows.
fn csv(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).expect("csv");
    let mut lines = text.lines();
    let head: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(str::to_string))
                .collect()
        })
        .collect()
}

#[test]
fn ordered_chance_trees_keep_every_tree_value() {
    let values = |leaves: &str| {
        let dir = temp(&format!("chance-{leaves}"));
        experiment(
            "chance-compare",
            &dir,
            &[
                "trees=6",
                "depths=1,2",
                "branchings=2",
                "ewn=0",
                &format!("leaves={leaves}"),
            ],
        );
        let json: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("chance-compare.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(json["leaves"], leaves);
        let rows = csv(&dir.join("chance-compare.csv"));
        let _ = std::fs::remove_dir_all(&dir);
        rows.into_iter()
            .filter(|r| r["algorithm"] == "expectimax")
            .map(|r| {
                (
                    r["depth"].clone(),
                    r["instance"].clone(),
                    r["value"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let uniform = values("uniform");
    let ordered = values("ordered");
    assert_eq!(uniform.len(), 12);
    assert_eq!(uniform, ordered);
    // Correlated trees are other trees: some value differs.
    assert_ne!(uniform, values("correlated"));
}

#[test]
fn nodes_created_count_as_the_algorithms_define_them() {
    let dir = temp("pgame-nodes");
    experiment(
        "pgame-compare",
        &dir,
        &[
            "trees=2",
            "series=2",
            "cap=400",
            "norm=nodes",
            "algos=pns,mcts-solver,uct-solver",
            "A=0",
            "K=3",
        ],
    );
    let rows = csv(&dir.join("pgame-compare/runs.csv"));
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("pgame-compare/summary.json")).unwrap(),
    )
    .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(summary["norm"], "nodes");
    assert_eq!(summary["A"].as_f64(), Some(0.0));
    assert_eq!(summary["K"].as_i64(), Some(3));
    assert_eq!(rows.len(), 6);
    for r in &rows {
        let it: u64 = r["iterations"].parse().unwrap();
        let nodes: u64 = r["nodes_created"].parse().unwrap();
        let norm: f64 = r["norm_iterations"].parse().unwrap();
        // The work unit is the nodes created, capped at 400.
        assert_eq!(norm, nodes as f64, "{r:?}");
        assert!(nodes <= 400 + 8, "{r:?}");
        match r["algo"].as_str() {
            "pns" => assert_eq!(nodes, 1 + 8 * it, "{r:?}"),
            _ => assert_eq!(nodes, 1 + it, "{r:?}"),
        }
    }
}

#[test]
fn by_b_divides_only_the_mcts_iterations() {
    let dir = temp("pgame-b");
    experiment(
        "pgame-compare",
        &dir,
        &["trees=1", "series=2", "cap=50", "algos=ppn,uct-solver"],
    );
    let rows = csv(&dir.join("pgame-compare/runs.csv"));
    let _ = std::fs::remove_dir_all(&dir);
    for r in &rows {
        let it: f64 = r["iterations"].parse().unwrap();
        let norm: f64 = r["norm_iterations"].parse().unwrap();
        let per = if r["algo"] == "uct-solver" { 8.0 } else { 1.0 };
        assert!((norm - it / per).abs() < 1e-3, "{r:?}");
    }
}

#[test]
fn an_unknown_switch_value_is_refused() {
    let dir = temp("pgame-bad");
    let (code, _, err) = pnlab(&[
        "experiment",
        "pgame-compare",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
        "--set",
        "norm=leaves",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("norm"), "{err}");
}
