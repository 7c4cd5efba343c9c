//! Deep DAGs written compactly: a `.tree` whose shared nodes form a chain
//! 100,000 deep, written flat (each shared node defined under the root
//! and naming the next). Its text form, the JSON record and the searches
//! stay linear in the file's size, so every algorithm runs under a 1 GiB
//! memory cap; and a proof far deeper than a call stack allows is
//! certified and checked.

use std::fmt::Write as _;
use std::path::PathBuf;

#[path = "common/mod.rs"]
mod common;
use common::pnlab_output as pnlab;

/// A chain `S0 → S1 → … → S{n-1}` of OR nodes, each also with a lost
/// leaf `X`, the last with a won leaf: every `Sk` is a win for the OR
/// player only through the whole chain below it. Every `Sk` is also a
/// child of a group node `Gj` (a thousand to a group, as a node has at
/// most 65,535 children) under the root, so the file is three levels deep
/// whatever `n` is.
fn chain(n: usize) -> String {
    let mut t = String::from("# a chain of shared nodes, written flat\nR and\n");
    for k in 0..n {
        if k % 1000 == 0 {
            let _ = writeln!(t, "  G{} and", k / 1000);
        }
        let _ = writeln!(t, "    S{k} or &s{k}");
        if k + 1 < n {
            let _ = writeln!(t, "      *s{}", k + 1);
        } else {
            t.push_str("      W = win\n");
        }
        let _ = writeln!(t, "      X{k} = loss");
    }
    t
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pnlab-deep-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The largest resident size of any child waited for so far, in bytes.
#[cfg(target_os = "linux")]
fn children_max_rss() -> u64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    assert_eq!(r, 0);
    // Linux reports kilobytes.
    u.ru_maxrss as u64 * 1024
}

#[cfg(target_os = "linux")]
#[test]
fn a_shared_chain_100000_deep_stays_linear_under_1_gib() {
    let dir = scratch("chain");
    let text = chain(100_000);
    let file = dir.join("chain.tree");
    std::fs::write(&file, &text).unwrap();
    let file = file.to_str().unwrap();
    for algo in ["pns", "dfpn", "dfpn-eps", "deep-dfpn", "mcts-solver", "dfs"] {
        let o = pnlab(
            &[
                "solve",
                file,
                "--algo",
                algo,
                "--max-iterations",
                "300",
                "--max-nodes",
                "3000000",
                "--memory",
                "512",
                "--json",
            ],
            &dir,
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{algo}: {:?} {err}", o.status);
        let out = String::from_utf8_lossy(&o.stdout);
        let record: serde_json::Value = serde_json::from_str(out.trim()).expect("one record");
        // The record's position (the root's text form) refers to the
        // shared nodes: about as long as the file, not 10^10 bytes.
        let position = record["position"].as_str().expect("position");
        assert!(
            position.len() < 2 * text.len(),
            "{algo}: the position field has {} bytes for a {}-byte file",
            position.len(),
            text.len()
        );
        let rss = children_max_rss();
        assert!(rss < 1 << 30, "{algo}: {rss} bytes resident");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text form parses back to the same graph: the record's `position`
/// solved again gives the same answer as the file.
#[test]
fn the_compact_text_form_reads_back() {
    let dir = scratch("reads-back");
    let file = dir.join("chain.tree");
    std::fs::write(&file, chain(600)).unwrap();
    let o = pnlab(
        &["solve", file.to_str().unwrap(), "--algo", "dfpn", "--json"],
        &dir,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let record: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).unwrap();
    let position = record["position"].as_str().unwrap();
    // The root is an AND node whose children are all the chain's nodes:
    // each is won only through the chain, which ends in a win.
    assert_eq!(record["outcome"], "proved");
    let again = dir.join("again.tree");
    std::fs::write(&again, position).unwrap();
    let o2 = pnlab(
        &["solve", again.to_str().unwrap(), "--algo", "dfpn", "--json"],
        &dir,
    );
    let r2: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&o2.stdout).trim()).unwrap();
    assert_eq!(r2["outcome"], "proved");
    assert_eq!(r2["position"], record["position"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A proof 1,000 plies deep (the writer once stopped at 400): certified
/// in memory, written, and checked by `pnlab verify`.
#[test]
fn a_proof_1000_plies_deep_is_certified() {
    let dir = scratch("certify");
    // A chain of single-child OR nodes, written flat: the only proof runs
    // to the end of the chain, 1,000 plies down.
    let mut t = String::from("R or\n");
    let n = 1_000;
    for k in 0..n {
        let _ = writeln!(t, "  S{k} or &s{k}");
        if k + 1 < n {
            let _ = writeln!(t, "    *s{}", k + 1);
        } else {
            t.push_str("    W = win\n");
        }
    }
    let file = dir.join("deep.tree");
    std::fs::write(&file, &t).unwrap();
    let cert = dir.join("deep.cert");
    let o = pnlab(
        &[
            "solve",
            file.to_str().unwrap(),
            "--algo",
            "dfpn",
            "--certify",
            "--proof",
            cert.to_str().unwrap(),
            "--json",
        ],
        &dir,
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out} {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(record["certified"], true, "{out}");
    let v = pnlab(&["verify", cert.to_str().unwrap()], &dir);
    let said = String::from_utf8_lossy(&v.stdout);
    assert!(v.status.success(), "{said}");
    assert!(said.starts_with("valid: win"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
