//! A small run of an experiment in a unit test: the options, the run,
//! the check that every table's CSV reads back as its typed cells, and
//! the output files read back, so each experiment's test says only what
//! it checks about its own outputs.

use std::path::PathBuf;

use super::rows::tests::assert_round_trip;
use super::{ExperimentError, ExperimentOptions, ExperimentReport};

/// A finished test run; its output folder is removed when it is dropped
/// (kept when the test fails, to be looked at).
pub(crate) struct TestRun {
    /// The options it ran with.
    pub opts: ExperimentOptions,
    /// What the run returned.
    pub report: ExperimentReport,
    dir: PathBuf,
}

impl TestRun {
    /// Runs `run` with `settings`, its outputs in a fresh folder named
    /// after `tag` ([`ExperimentOptions::for_test`]); a failed run fails
    /// the test with its error, and every table must round-trip.
    pub fn new(
        tag: &str,
        settings: &[(&str, &str)],
        run: fn(&ExperimentOptions) -> Result<ExperimentReport, ExperimentError>,
    ) -> TestRun {
        let opts = ExperimentOptions::for_test(tag, settings);
        let Some(dir) = opts.out_dir.clone() else {
            panic!("{tag}: a test run writes to a folder");
        };
        let report = run(&opts).unwrap_or_else(|e| panic!("{tag}: {e}"));
        for t in &report.tables {
            assert_round_trip(t);
        }
        TestRun { opts, report, dir }
    }

    /// The text of output file `name`.
    pub fn text(&self, name: &str) -> String {
        let path = self.dir.join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Output file `name` read as JSON.
    pub fn json(&self, name: &str) -> serde_json::Value {
        serde_json::from_str(&self.text(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

impl Drop for TestRun {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
