//! The web page's bench (`web/dist/bench.html`, `pnlab::bench`) runs the
//! very work of `pnlab bench`'s suites of the same names: same positions,
//! seeds, repeats and caps, so the same iteration totals. Checked here
//! with a small cap against the command line, so the page's iterations
//! per second can be set against the desktop's.

use std::process::Command;

use pnlab::bench::{pns_sets, run_set, BenchSet};
use pnlab::search::{self, Params};

#[test]
fn the_page_sets_are_the_cli_suites_of_the_same_names() {
    const CAP: u64 = 1500;
    let info = search::find_algo("pns").unwrap();
    let params = Params::defaults(info.params);
    for set in pns_sets().unwrap() {
        let capped = BenchSet {
            max_iterations: CAP,
            ..set.clone()
        };
        let page = run_set(&capped, "pns", &params).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_pnlab"))
            .args(["bench", "--suite", set.name, "--algo", "pns", "--json"])
            .args(["--max-iterations", &CAP.to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let row: serde_json::Value = serde_json::from_str(
            String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(row["suite"], set.name);
        assert_eq!(row["runs"], page.runs as u64, "{}", set.name);
        assert_eq!(row["solved"], page.solved as u64, "{}", set.name);
        assert_eq!(row["iterations"], page.iterations, "{}", set.name);
    }
}
