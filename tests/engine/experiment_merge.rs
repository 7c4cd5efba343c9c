//! Sweeps beyond one machine: one experiment run in 3 shards (through
//! `scripts/sweep-parallel.sh` and GNU parallel when it is installed,
//! else shard by shard), merged with `pnlab experiment merge`, gives the
//! unsharded run's CSV, JSON and SVG except the time columns; a merge with
//! a shard missing is refused.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;
use common::pnlab;

const SETTINGS: &[&str] = &[
    "--set",
    "othello=5",
    "--set",
    "empties=8",
    "--set",
    "connect4=1",
    "--set",
    "min_kib=2",
    "--set",
    "max_iterations=200000",
];

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pnlab-merge-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn run_experiment(out: &Path, shard: Option<&str>) {
    let mut args = vec!["experiment", "memory-sweep", "--quiet", "--out", s(out)];
    if let Some(k) = shard {
        args.extend(["--shard", k]);
    }
    args.extend(SETTINGS);
    let (code, stdout, err) = pnlab(&args);
    assert_eq!(code, 0, "{stdout}{err}");
}

/// The CSV without its time columns.
fn csv_without_times(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).expect("csv");
    let rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let keep: Vec<bool> = rows[0].iter().map(|h| !h.contains("time_ms")).collect();
    rows.into_iter()
        .map(|r| {
            r.into_iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(c, _)| c)
                .collect()
        })
        .collect()
}

/// The JSON without keys that hold times.
fn json_without_times(path: &Path) -> Value {
    fn strip(v: Value) -> Value {
        match v {
            Value::Object(o) => Value::Object(
                o.into_iter()
                    .filter(|(k, _)| !k.contains("time_ms"))
                    .map(|(k, v)| (k, strip(v)))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.into_iter().map(strip).collect()),
            other => other,
        }
    }
    strip(serde_json::from_str(&std::fs::read_to_string(path).expect("json")).expect("valid"))
}

fn has_gnu_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU"))
}

#[test]
fn three_shards_merge_to_the_unsharded_run() {
    let dir = temp("three");
    let full = dir.join("full");
    run_experiment(&full, None);
    let merged = dir.join("merged");
    if has_gnu_parallel() {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/sweep-parallel.sh");
        let mut args = vec![
            "--shards",
            "3",
            "--out",
            s(&merged),
            "--pnlab",
            env!("CARGO_BIN_EXE_pnlab"),
            "memory-sweep",
        ];
        args.extend(SETTINGS);
        let out = Command::new(script).args(&args).output().expect("script");
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!("shards run through GNU parallel");
    } else {
        let mut dirs = Vec::new();
        for k in 1..=3 {
            let d = dir.join(format!("shard{k}"));
            run_experiment(&d, Some(&format!("{k}/3")));
            assert!(d.join("memory-sweep.jobs.json").is_file());
            dirs.push(d);
        }
        let mut args = vec!["experiment", "merge", s(&merged)];
        args.extend(dirs.iter().map(|d| s(d)));
        let (code, out, err) = pnlab(&args);
        assert_eq!(code, 0, "{out}{err}");
        eprintln!("GNU parallel not installed: shards run one by one");
    }
    assert_eq!(
        csv_without_times(&merged.join("memory-sweep.csv")),
        csv_without_times(&full.join("memory-sweep.csv"))
    );
    assert_eq!(
        json_without_times(&merged.join("memory-sweep.json")),
        json_without_times(&full.join("memory-sweep.json"))
    );
    assert_eq!(
        std::fs::read_to_string(merged.join("memory-sweep.svg")).expect("svg"),
        std::fs::read_to_string(full.join("memory-sweep.svg")).expect("svg")
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_merge_with_a_shard_missing_is_refused() {
    let dir = temp("missing");
    let (a, b) = (dir.join("a"), dir.join("b"));
    run_experiment(&a, Some("1/3"));
    run_experiment(&b, Some("3/3"));
    let (code, _, err) = pnlab(&["experiment", "merge", s(&dir.join("m")), s(&a), s(&b)]);
    assert_eq!(code, 2);
    assert!(err.contains("missing shard(s): 2/3"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
