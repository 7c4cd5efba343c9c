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
//! 1. In its file, define `pub const SETTINGS: &[ParamSpec]`: one entry per
//!    setting with its name, kind, range, default and a one-sentence help
//!    (lists of reals, integers or words are [`ParamKind::List`], file
//!    paths [`ParamKind::Text`], yes/no a `Choice` of
//!    [`FLAG`](crate::search::params::FLAG); a default that depends on the
//!    data is a documented sentinel such as `0 = all`).
//! 2. Register it in [`EXPERIMENTS`] with `settings: SETTINGS`.
//! 3. In `run`, read them with `let settings = opts.params(SETTINGS)?;`
//!    and the typed accessors ([`Params::int`], [`Params::real_list`],
//!    [`Params::flag`], …), and write `"settings": settings` (every value,
//!    defaults filled in) into the JSON summary.
//!
//! [`run_experiment`] (and a merge of shards) checks the given settings
//! against the description before anything runs, so a typo or a value out
//! of range is an error that lists the valid settings and ranges, and
//! `pnlab experiment NAME --help` prints the description.

pub mod chance_compare;
pub mod connect6_deep_dfpn;
pub mod connect6_positions;
pub mod connect6_runs;
pub mod deep_dfpn_grid;
pub mod deep_pn_hex;
pub mod deep_pn_summary;
pub mod deep_pn_sweep;
pub mod eps_sweep;
pub mod hill_climb;
pub mod memory_sweep;
pub mod merge;
pub mod om_match;
pub mod pgame_compare;
pub mod rating;
pub mod rscn;
pub mod scns_hex;
pub mod svg;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::de::DeserializeOwned;
use serde::Serialize;

#[cfg(doc)]
use crate::search::ParamKind;
use crate::search::{ParamSpec, Params};

pub use merge::{merge, JobLog};

/// Options shared by every experiment.
#[derive(Clone, Debug)]
pub struct ExperimentOptions {
    /// Worker threads (`--jobs`).
    pub jobs: usize,
    /// Run slice `k` (0-based) of `n` (`--shard K/N` is 1-based on the CLI).
    pub shard: (usize, usize),
    /// Directory for the CSV and JSON outputs.
    pub out_dir: PathBuf,
    /// Base seed.
    pub seed: u64,
    /// Experiment-specific settings `NAME=VALUE` as given (e.g. a smaller
    /// size for a quick run), checked against the experiment's
    /// [`ExperimentInfo::settings`] by [`ExperimentOptions::params`].
    pub settings: Vec<(String, String)>,
    /// Print a progress bar on stderr.
    pub progress: bool,
    /// The job results of this run (recorded for `experiment merge`), and
    /// the results a merge replays instead of running the jobs.
    pub log: Arc<JobLog>,
}

impl Default for ExperimentOptions {
    fn default() -> Self {
        ExperimentOptions {
            jobs: 1,
            shard: (0, 1),
            out_dir: PathBuf::from("results"),
            seed: 0,
            settings: Vec::new(),
            progress: false,
            log: Arc::default(),
        }
    }
}

impl ExperimentOptions {
    /// The settings checked against `specs` with the defaults filled in
    /// (an unknown name or a bad value is an error listing the valid
    /// settings and their ranges). Every experiment reads its settings
    /// this way: `let p = opts.params(SETTINGS)?;`.
    pub fn params(&self, specs: &[ParamSpec]) -> Result<Params, String> {
        Ok(Params::from_pairs(specs, &self.settings)?)
    }

    /// Options for a quick run in the tests: outputs in a fresh temporary
    /// folder named after `tag`, the given settings, no progress bar.
    #[cfg(test)]
    pub(crate) fn for_test(tag: &str, settings: &[(&str, &str)]) -> ExperimentOptions {
        let dir = std::env::temp_dir().join(format!("pnlab-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        ExperimentOptions {
            out_dir: dir,
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        }
    }

    /// Whether job number `i` belongs to this shard.
    pub fn in_shard(&self, i: usize) -> bool {
        i % self.shard.1 == self.shard.0
    }
}

/// What an experiment produced.
#[derive(Clone, Debug, Default)]
pub struct ExperimentReport {
    /// Files written.
    pub outputs: Vec<PathBuf>,
    /// A short human summary (a table) printed by the CLI.
    pub summary: String,
}

/// One registered experiment.
pub struct ExperimentInfo {
    /// The CLI name (`pnlab experiment NAME`).
    pub name: &'static str,
    /// One line for the list `pnlab experiment` prints without a name.
    pub summary: &'static str,
    /// Its settings (`--set NAME=VALUE`): names, ranges, defaults and help,
    /// listed by `pnlab experiment NAME --help`.
    pub settings: &'static [ParamSpec],
    /// The entry point: runs the jobs of this shard and writes the outputs.
    pub run: fn(&ExperimentOptions) -> Result<ExperimentReport, String>,
}

/// Every experiment, by stable CLI name (docs/cli.md).
pub static EXPERIMENTS: &[ExperimentInfo] = &[
    ExperimentInfo {
        name: "deep-pn-sweep",
        summary: "DeepPN R sweep vs PNS on random 16-empty Othello and shuffled Hex 4×4 (Ishitobi et al. 2015)",
        settings: deep_pn_sweep::SETTINGS,
        run: deep_pn_sweep::run_sweep,
    },
    ExperimentInfo {
        name: "deep-dfpn-grid",
        summary: "Deep df-pn (E, D) grid and 1+ε sweep vs df-pn on random Othello endgames (Zhang 2019 §3.3)",
        settings: deep_dfpn_grid::SETTINGS,
        run: deep_dfpn_grid::run,
    },
    ExperimentInfo {
        name: "pgame-compare",
        summary: "PPN paper: PPN, PNS, MCPN, UCT and MCTS solvers on 200 P-games b=2,d=20 and 200 b=8,d=8",
        settings: pgame_compare::SETTINGS,
        run: pgame_compare::run,
    },
    ExperimentInfo {
        name: "eps-sweep",
        summary: "1+ε trick vs df-pn over a list of ε on random Othello endgames: MID calls and revisits (Pawlewicz & Lew 2007; Zhang 2019)",
        settings: eps_sweep::SETTINGS,
        run: eps_sweep::run,
    },
    ExperimentInfo {
        name: "memory-sweep",
        summary: "df-pn family and PNS under table/tree memory budgets on Othello and Connect Four: work, re-expansions, peak bytes; answers never change, only become unknown",
        settings: memory_sweep::SETTINGS,
        run: memory_sweep::run,
    },
    ExperimentInfo {
        name: "scns-hex",
        summary: "SCNS vs the UCT solver vs alpha-beta (resistance evaluation) on 7×7 and 8×8 Hex: round robin at equal budgets, win rates, Elo, first-move quality (a small substitute for Pawlewicz & Hayward 2015)",
        settings: scns_hex::SETTINGS,
        run: scns_hex::run,
    },
    ExperimentInfo {
        name: "hill-climb",
        summary: "Hill-climbing for Deep df-pn's (E, D) vs the best of the (E, D) grid and df-pn, on random Othello endgames (Zhang 2019, Algorithm 1)",
        settings: hill_climb::SETTINGS,
        run: hill_climb::run,
    },
    ExperimentInfo {
        name: "connect6-positions",
        summary: "Generates Connect6 positions where the side to move wins: seeded heuristic play until df-pn with relevance zones proves a win",
        settings: connect6_positions::SETTINGS,
        run: connect6_positions::run,
    },
    ExperimentInfo {
        name: "connect6-deep-dfpn",
        summary: "Thesis Table 3.2 on the Connect6 set: relevance-zone df-pn vs 1+ε (ε list) and Deep df-pn ((E, D) grid and hill-climb), nodes (MID calls + VCDT nodes), seesaw, time (Zhang 2019 §3.3)",
        settings: connect6_deep_dfpn::SETTINGS,
        run: connect6_deep_dfpn::run,
    },
    ExperimentInfo {
        name: "rscn",
        summary: "RSCN of alpha-beta self-play on xiangqi: set=tactical (mate puzzles), drawn (attackers removed), handicap (openings; T=200, 600) (Zhang 2019 §4.3)",
        settings: rscn::SETTINGS,
        run: rscn::run,
    },
    ExperimentInfo {
        name: "chance-compare",
        summary: "Expectimax, Star1 and Star2: nodes visited on random chance trees by depth and branching and on EinStein endgames (Ballard 1983; lecture notes)",
        settings: chance_compare::SETTINGS,
        run: chance_compare::run,
    },
    ExperimentInfo {
        name: "om-match",
        summary: "Opponent-model search vs minimax on Othello against the modelled opponent (disc count) and weaker ones (Carmel & Markovitch 1996; lecture notes)",
        settings: om_match::SETTINGS,
        run: om_match::run,
    },
];

/// Runs experiment `info` with `opts`; a sharded run (`--shard K/N`, N >
/// 1) also writes its job file for `experiment merge` (see [`merge`]).
pub fn run_experiment(
    info: &ExperimentInfo,
    opts: &ExperimentOptions,
) -> Result<ExperimentReport, String> {
    opts.params(info.settings)?;
    let mut report = (info.run)(opts)?;
    if opts.shard.1 > 1 {
        report.outputs.push(merge::write_log(info, opts)?);
    }
    Ok(report)
}

/// A name kept as `&'static str` in a job result (the alias keeps serde
/// from borrowing it from the input; [`static_name`] reads it back).
pub(crate) type StaticName = &'static str;

/// Deserialises a name the experiments keep as `&'static str` (an
/// algorithm's or a game's): registry names map to themselves, any other
/// name is interned once for the life of the process (only a merge reads
/// names back).
pub(crate) fn static_name<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<&'static str, D::Error> {
    use serde::Deserialize;
    use std::collections::HashSet;
    static INTERNED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let s = String::deserialize(d)?;
    if let Some(a) = crate::search::algorithms().iter().find(|a| a.name == s) {
        return Ok(a.name);
    }
    let mut set = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
    let set = set.get_or_insert_with(HashSet::new);
    if let Some(&k) = set.get(s.as_str()) {
        return Ok(k);
    }
    let k: &'static str = Box::leak(s.into_boxed_str());
    set.insert(k);
    Ok(k)
}

/// Looks an experiment up.
pub fn find(name: &str) -> Result<&'static ExperimentInfo, String> {
    EXPERIMENTS.iter().find(|e| e.name == name).ok_or_else(|| {
        format!(
            "unknown experiment `{name}`; known experiments: {}",
            EXPERIMENTS
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// Runs `f` on every job of this shard, `opts.jobs` at a time, returning
/// the results in job order (with the job's index). Shows a progress bar on
/// stderr when `opts.progress`.
///
/// Every result is also recorded in `opts.log` (so the shards of a sweep
/// can be merged, see [`merge`]); a merge replays the recorded results
/// instead of running the jobs, which is why results must serialise.
pub fn run_jobs<J, R, F>(opts: &ExperimentOptions, jobs: &[J], f: F) -> Vec<(usize, R)>
where
    J: Sync,
    R: Send + Serialize + DeserializeOwned,
    F: Fn(&J) -> R + Sync,
{
    let call = opts.log.begin_call(jobs.len());
    let mine: Vec<usize> = (0..jobs.len())
        .filter(|&i| opts.in_shard(i) || opts.log.is_replay())
        .collect();
    let job = |i: usize| -> R {
        if let Some(r) = opts.log.replayed(call, i) {
            return r;
        }
        let r = f(&jobs[i]);
        opts.log.record(call, i, &r);
        r
    };
    let done = AtomicUsize::new(0);
    let total = mine.len();
    let start = Instant::now();
    let last_draw = Mutex::new(Instant::now());
    let run_one = |i: usize| {
        let r = job(i);
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        if opts.progress {
            let mut last = last_draw.lock().unwrap_or_else(|e| e.into_inner());
            if d == total || last.elapsed().as_millis() > 200 {
                *last = Instant::now();
                draw_progress(d, total, start.elapsed().as_secs_f64());
            }
        }
        (i, r)
    };
    // A web page has no threads: the jobs run one after another there.
    #[cfg(target_arch = "wasm32")]
    let mut out: Vec<(usize, R)> = mine.iter().map(|&i| run_one(i)).collect();
    #[cfg(not(target_arch = "wasm32"))]
    let mut out: Vec<(usize, R)> = {
        use rayon::prelude::*;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.jobs.max(1))
            .build()
            .expect("thread pool");
        pool.install(|| mine.par_iter().map(|&i| run_one(i)).collect())
    };
    if opts.progress {
        eprintln!();
    }
    out.sort_by_key(|(i, _)| *i);
    out
}

fn draw_progress(done: usize, total: usize, secs: f64) {
    let width = 30;
    let filled = (done * width).checked_div(total).unwrap_or(width);
    let eta = if done == 0 {
        0.0
    } else {
        secs / done as f64 * (total - done) as f64
    };
    eprint!(
        "\r[{}{}] {done}/{total} jobs, {secs:.0}s elapsed, ~{eta:.0}s left ",
        "#".repeat(filled),
        ".".repeat(width - filled)
    );
    let _ = std::io::stderr().flush();
}

/// Writes `contents` to `path` atomically (temp file in the same folder,
/// then rename), creating the folder.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
    }
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("out")
    ));
    std::fs::write(&tmp, contents).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes a JSON summary atomically, pretty-printed.
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    write_atomic(path, text.as_bytes())
}

/// The seed of instance `i` of an experiment run with base seed `base`
/// (instances stay the same when `--shard` splits the list).
pub fn instance_seed(base: u64, i: usize) -> u64 {
    base.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i as u64)
}

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

/// The registry names among `options` that `names` lists, in its order
/// (the names come from a list setting whose items were checked against
/// `options`, so none is dropped in practice).
pub fn static_names(names: &[String], options: &[&'static str]) -> Vec<&'static str> {
    names
        .iter()
        .filter_map(|n| options.iter().copied().find(|o| o == n))
        .collect()
}

/// A CSV table: a header and rows of already formatted cells.
#[derive(Clone, Debug, Default)]
pub struct Csv {
    /// Column names, written as the first line.
    pub header: Vec<String>,
    /// Rows of formatted cells, one per line (each as long as `header`).
    pub rows: Vec<Vec<String>>,
}

impl Csv {
    /// An empty table with these column names.
    pub fn new(header: &[&str]) -> Csv {
        Csv {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (as many cells as the header has columns).
    pub fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.header.len());
        self.rows.push(row);
    }

    /// RFC 4180 text.
    pub fn to_text(&self) -> String {
        fn cell(s: &str) -> String {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        }
        let mut out = String::new();
        for line in std::iter::once(&self.header).chain(self.rows.iter()) {
            out.push_str(&line.iter().map(|c| cell(c)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        out
    }

    /// Writes the table atomically.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        write_atomic(path, self.to_text().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                ExperimentOptions::default().params(e.settings),
                Ok(p),
                "{}",
                e.name
            );
        }
    }

    #[test]
    fn a_bad_setting_stops_the_run_before_it_starts() {
        let info = find("eps-sweep").unwrap();
        let mut opts = ExperimentOptions::for_test("bad-setting", &[("empties", "60")]);
        let e = run_experiment(info, &opts).unwrap_err();
        assert!(e.contains("`empties`") && e.contains("[1, 59]"), "{e}");
        opts.settings = vec![("positoins".into(), "3".into())];
        let e = run_experiment(info, &opts).unwrap_err();
        for s in info.settings {
            assert!(e.contains(s.name), "{e} does not name {}", s.name);
        }
        assert!(!opts.out_dir.exists(), "nothing was written");
    }

    #[test]
    fn static_names_keep_the_listed_order() {
        let names = vec!["b".to_string(), "a".to_string()];
        assert_eq!(static_names(&names, &["a", "b", "c"]), vec!["b", "a"]);
    }
}
