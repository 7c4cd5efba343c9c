//! Headless experiments that reproduce the papers (CLI `pnlab experiment
//! NAME`). Each experiment is one file with a `run(&ExperimentOptions)`
//! function registered in [`EXPERIMENTS`]; this module gives them the
//! shared pieces: options (`--jobs`, `--shard K/N`, `--out`, `--set`), a job
//! runner that honours sharding and parallelism, a stderr progress bar and
//! CSV/JSON writers that write atomically.
//!
//! # Settings
//!
//! Experiments describe their settings with the same [`ParamSpec`] the
//! algorithms use for their parameters, so the help text, the checks and
//! the JSON record all come from one description. To add an experiment:
//!
//! 1. In its file, declare the settings as one typed struct with
//!    [`pnlab_core::options!`]: one field per setting with its name, kind,
//!    range, default and a one-sentence help (lists of reals, integers or
//!    words are `real_list`, `int_list`, `choice_list`, file paths
//!    `text`, yes/no `flag`, a word from a fixed set a
//!    [`pnlab_core::choice_enum!`] so an unknown word is an error naming
//!    the allowed ones; a setting several experiments share is a const fn
//!    in [`instances`] given in parentheses; a default that depends on the
//!    data is a documented sentinel such as `0 = all`), and define
//!    `pub const SETTINGS: &[ParamSpec] = TheSettings::PARAMS;`.
//! 2. Register it in [`EXPERIMENTS`] with `settings: SETTINGS`.
//! 3. In `run`, read them once with
//!    `let (settings, s) = opts.typed_settings(SETTINGS, TheSettings::from_params)?;`,
//!    use the struct's fields (`s.name`), and write `"settings": settings`
//!    (every value, defaults filled in) into the JSON summary.
//!
//! [`run_experiment`] (and a merge of shards) checks the given settings
//! against the description before anything runs, so a typo or a value out
//! of range is an error that lists the valid settings and ranges, and
//! `pnlab experiment NAME --help` prints the description.

pub mod chance_compare;
pub mod chance_trees;
pub mod connect6_deep_dfpn;
pub mod connect6_positions;
pub mod connect6_runs;
pub mod deep_dfpn_grid;
pub mod deep_pn_hex;
pub mod deep_pn_summary;
pub mod deep_pn_sweep;
pub mod eps_sweep;
pub mod error;
pub mod hill_climb;
pub mod instances;
pub mod memory_sweep;
pub mod om_match;
pub mod pgame_compare;
pub mod rating;
pub mod registry;
pub mod report;
pub mod rows;
pub mod rscn;
pub mod runner;
pub mod scns_hex;
pub mod svg;
#[cfg(test)]
mod test_run;

#[cfg(doc)]
use pnlab_core::search::{ParamKind, ParamSpec, Params};

pub use error::{ExperimentError, MergeError, ProofGap};
pub use instances::instance_seed;
pub use pnlab_core::files::{write_atomic, write_json, IoError};
pub use registry::{find, merge, run_experiment, ExperimentInfo, EXPERIMENTS};
pub use report::{ExperimentReport, Summary};
pub use rows::{Cell, Fixed, Real, Table};
pub use runner::shards::JobLog;
pub(crate) use runner::{algo_name, name_in, StaticName};
pub use runner::{run_jobs, static_names, ExperimentOptions, JobObserver};

/// Means of ratios per configuration, in first-seen order: the papers'
/// "reduction rate" (mean over instances of run / baseline).
#[derive(Clone, Debug, Default)]
pub struct MeanRatios {
    rows: Vec<(String, f64, usize)>,
}

impl MeanRatios {
    /// Adds one instance's ratio to `key`'s running sum.
    pub fn add(&mut self, key: &str, ratio: f64) {
        match self.rows.iter_mut().find(|(k, _, _)| k == key) {
            Some(r) => {
                r.1 += ratio;
                r.2 += 1;
            }
            None => self.rows.push((key.to_string(), ratio, 1)),
        }
    }

    /// `(key, mean, count)` in first-seen order.
    pub fn means(&self) -> Vec<(String, f64, usize)> {
        self.rows
            .iter()
            .map(|(k, s, n)| (k.clone(), s / *n as f64, *n))
            .collect()
    }

    /// The mean ratio of `key`, or `None` if it never got one.
    pub fn mean(&self, key: &str) -> Option<f64> {
        self.rows
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, s, n)| s / *n as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pnlab_core::search::Params;

    #[test]
    fn every_experiment_describes_its_settings_once_with_valid_defaults() {
        for e in EXPERIMENTS {
            assert!(!e.settings.is_empty(), "{} has no settings", e.name);
            let mut names: Vec<&str> = e.settings.iter().map(|s| s.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), e.settings.len(), "{}: duplicate names", e.name);
            for s in e.settings {
                assert!(!s.help.is_empty(), "{}: `{}` has no help", e.name, s.name);
                // The default, written as text, parses back to itself.
                let text = s.default_value().to_string();
                assert_eq!(
                    s.parse_value(&text),
                    Ok(s.default_value()),
                    "{}: default of `{}`",
                    e.name,
                    s.name
                );
            }
            let p = Params::defaults(e.settings);
            assert_eq!(p.check(e.settings), Ok(()), "{}", e.name);
            assert_eq!(
                ExperimentOptions::default().params(e.settings).ok(),
                Some(p),
                "{}",
                e.name
            );
        }
    }

    #[test]
    fn a_bad_setting_stops_the_run_before_it_starts() {
        let info = find("eps-sweep").unwrap();
        let mut opts = ExperimentOptions::for_test("bad-setting", &[("empties", "60")]);
        let e = run_experiment(info, &opts).unwrap_err().to_string();
        assert!(e.contains("`empties`") && e.contains("[1, 59]"), "{e}");
        opts.settings = vec![("positoins".into(), "3".into())];
        let e = run_experiment(info, &opts).unwrap_err().to_string();
        for s in info.settings {
            assert!(e.contains(s.name), "{e} does not name {}", s.name);
        }
        assert!(
            !opts.out_dir.as_ref().unwrap().exists(),
            "nothing was written"
        );
    }

    /// Settings whose unknown words once fell back silently on a default
    /// (`_ => …`): every word they take (docs/cli.md) and the value it
    /// reads as.
    #[test]
    fn a_word_setting_reads_each_word_and_refuses_the_others() {
        for (exp, name, words) in [
            ("rscn", "order", &["game", "captures-first"][..]),
            ("scns-hex", "budget", &["units", "time"]),
            ("scns-hex", "cross", &["adjacent", "none", "all"]),
            ("pgame-compare", "norm", &["b", "nodes"]),
            ("pgame-compare", "values", &["signed", "symmetric"]),
            ("pgame-compare", "series", &["both", "1", "2"]),
            ("deep-pn-sweep", "shuffle", &["per-position", "per-run"]),
            ("deep-pn-sweep", "r1", &["copy", "run"]),
            (
                "chance-compare",
                "leaves",
                &["uniform", "ordered", "correlated"],
            ),
        ] {
            let info = find(exp).unwrap();
            let opts = ExperimentOptions::for_test("bad-word", &[(name, "sideways")]);
            let e = run_experiment(info, &opts).unwrap_err().to_string();
            assert!(e.contains(&format!("`{name}`")), "{exp}: {e}");
            assert!(e.contains("sideways"), "{exp}: {e}");
            for w in words {
                assert!(e.contains(w), "{exp}: {e} does not name `{w}`");
            }
            assert!(
                !opts.out_dir.as_ref().unwrap().exists(),
                "nothing was written"
            );
        }

        let read =
            |specs, name: &str, word: &str| Params::from_pairs(specs, &[(name, word)]).unwrap();
        let r = rscn::RscnSettings::from_params(&read(rscn::SETTINGS, "order", "captures-first"));
        let r = r.unwrap();
        assert_eq!(
            (r.order, r.set),
            (
                pnlab_core::search::alphabeta::MoveOrder::CapturesFirst,
                rscn::RscnSet::Tactical
            )
        );
        let s = scns_hex::ScnsHexSettings::from_params(&read(scns_hex::SETTINGS, "budget", "time"));
        assert_eq!(s.unwrap().budget, scns_hex::BudgetMode::Time);
        let p = pgame_compare::PgameCompareSettings::from_params(&read(
            pgame_compare::SETTINGS,
            "values",
            "symmetric",
        ))
        .unwrap();
        assert_eq!(
            (p.values, p.norm, p.series),
            (
                pnlab_core::game::pgame::MoveValues::Symmetric,
                pgame_compare::Norm::ByB,
                pgame_compare::Series::Both
            )
        );
        let p = pgame_compare::PgameCompareSettings::from_params(&read(
            pgame_compare::SETTINGS,
            "norm",
            "nodes",
        ));
        assert_eq!(p.unwrap().norm, pgame_compare::Norm::Nodes);
    }

    #[test]
    fn static_names_keep_the_listed_order() {
        let names = vec!["b".to_string(), "a".to_string()];
        assert_eq!(static_names(&names, &["a", "b", "c"]), vec!["b", "a"]);
    }
}
