//! Running an experiment's jobs: the options every experiment shares
//! (`--jobs`, `--shard K/N`, `--out`, `--seed`, `--set`), the parallel job
//! runner that honours sharding and replays a merge's recorded results
//! ([`shards`]), and the stderr progress bar ([`progress`]).

pub mod merge_error;
pub mod progress;
pub mod shards;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use pnlab_core::params::ParamError;
use pnlab_core::search::{ParamSpec, Params};

use super::{ExperimentError, ExperimentReport};
use progress::Progress;
use shards::JobLog;

/// Older names of settings, read as the current name by an experiment
/// that has a setting of that name and none of the old one: `r` was
/// `deep-pn-sweep`'s R list before it took DeepPN's own name, and the
/// command lines recorded in results/ use it.
pub const SETTING_ALIASES: &[(&str, &str)] = &[("r", "R")];

/// Options shared by every experiment.
#[derive(Clone, Debug)]
pub struct ExperimentOptions {
    /// Worker threads (`--jobs`).
    pub jobs: usize,
    /// Run slice `k` (0-based) of `n` (`--shard K/N` is 1-based on the CLI).
    pub shard: (usize, usize),
    /// Folder for the CSV and JSON outputs (`--out`); without one the
    /// outputs stay in memory, in the report.
    pub out_dir: Option<PathBuf>,
    /// Base seed.
    pub seed: u64,
    /// Experiment-specific settings `NAME=VALUE` as given (e.g. a smaller
    /// size for a quick run), checked against the experiment's
    /// `ExperimentInfo::settings` by [`ExperimentOptions::params`].
    pub settings: Vec<(String, String)>,
    /// Print a progress bar on stderr.
    pub progress: bool,
    /// The job results of this run (recorded for `experiment merge`), and
    /// the results a merge replays instead of running the jobs.
    pub log: Arc<JobLog>,
    /// A caller following the run from another thread.
    pub observer: JobObserver,
}

/// Lets a caller follow a run and stop it from another thread (the Python
/// module's progress bars and Ctrl-C).
#[derive(Clone, Default)]
pub struct JobObserver {
    /// Called after every job with (jobs done, jobs of this shard in the
    /// current job list); an experiment may run several lists.
    pub on_progress: Option<Arc<dyn Fn(usize, usize) + Send + Sync>>,
    /// Once set, jobs not yet started are skipped (as jobs of another
    /// shard are) and `run_experiment` ends with an error instead of a
    /// report.
    pub cancel: Arc<AtomicBool>,
}

impl JobObserver {
    /// Whether the caller asked the run to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

impl std::fmt::Debug for JobObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobObserver")
            .field("on_progress", &self.on_progress.is_some())
            .field("cancel", &self.cancelled())
            .finish()
    }
}

impl Default for ExperimentOptions {
    fn default() -> Self {
        ExperimentOptions {
            jobs: 1,
            shard: (0, 1),
            out_dir: None,
            seed: 0,
            settings: Vec::new(),
            progress: false,
            log: Arc::default(),
            observer: JobObserver::default(),
        }
    }
}

impl ExperimentOptions {
    /// The settings checked against `specs` with the defaults filled in
    /// (an unknown name or a bad value is an error listing the valid
    /// settings and their ranges). Every experiment reads its settings
    /// this way, through [`typed_settings`](Self::typed_settings).
    pub fn params(&self, specs: &[ParamSpec]) -> Result<Params, ExperimentError> {
        let named = |n: &str| specs.iter().any(|s| s.name == n);
        let settings: Vec<(&str, &str)> = self
            .settings
            .iter()
            .map(|(name, value)| {
                let name = SETTING_ALIASES
                    .iter()
                    .find(|(alias, to)| alias == name && !named(alias) && named(to))
                    .map_or(name.as_str(), |(_, to)| to);
                (name, value.as_str())
            })
            .collect();
        Ok(Params::from_pairs(specs, &settings)?)
    }

    /// The settings read once, at the edge, into the experiment's typed
    /// struct (`read` is its `from_params`), with the checked set they came
    /// from (what the JSON summary records as `"settings"`):
    /// `let (settings, s) = opts.typed_settings(SETTINGS, TheSettings::from_params)?;`.
    pub fn typed_settings<S>(
        &self,
        specs: &[ParamSpec],
        read: fn(&Params) -> Result<S, ParamError>,
    ) -> Result<(Params, S), ExperimentError> {
        let params = self.params(specs)?;
        let typed = read(&params)?;
        Ok((params, typed))
    }

    /// Options for a quick run in the tests: outputs in a fresh temporary
    /// folder named after `tag`, the given settings, no progress bar.
    #[cfg(test)]
    pub(crate) fn for_test(tag: &str, settings: &[(&str, &str)]) -> ExperimentOptions {
        let dir = std::env::temp_dir().join(format!("pnlab-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        ExperimentOptions {
            out_dir: Some(dir),
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        }
    }

    /// The report of a run whose per-run table is `NAME.csv` (`rows`) and
    /// whose JSON summary is `NAME.json`, delivered ([`Self::deliver`]).
    pub fn write_outputs<R: Serialize + Default>(
        &self,
        name: &str,
        rows: &[R],
        json: serde_json::Value,
        summary: String,
    ) -> Result<ExperimentReport, ExperimentError> {
        let report = ExperimentReport::new(summary)
            .table(format!("{name}.csv"), rows)?
            .json(format!("{name}.json"), json);
        self.deliver(report)
    }

    /// Writes a finished run's outputs into the output folder, if the run
    /// has one, and returns the report listing them.
    pub fn deliver(
        &self,
        mut report: ExperimentReport,
    ) -> Result<ExperimentReport, ExperimentError> {
        if let Some(dir) = &self.out_dir {
            report.write(dir)?;
        }
        Ok(report)
    }

    /// Whether job number `i` belongs to this shard.
    pub fn in_shard(&self, i: usize) -> bool {
        i % self.shard.1 == self.shard.0
    }
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
    let job = |i: usize| -> Option<R> {
        if let Some(r) = opts.log.replayed(call, i) {
            return Some(r);
        }
        if opts.observer.cancelled() {
            return None;
        }
        let r = f(&jobs[i]);
        opts.log.record(call, i, &r);
        Some(r)
    };
    let done = AtomicUsize::new(0);
    let total = mine.len();
    let bar = opts.progress.then(|| Progress::new(total));
    let run_one = |i: usize| -> Option<(usize, R)> {
        let r = job(i)?;
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(hook) = &opts.observer.on_progress {
            hook(d, total);
        }
        if let Some(bar) = &bar {
            bar.done(d);
        }
        Some((i, r))
    };
    // A web page has no threads: the jobs run one after another there.
    #[cfg(target_arch = "wasm32")]
    let mut out: Vec<(usize, R)> = mine.iter().filter_map(|&i| run_one(i)).collect();
    #[cfg(not(target_arch = "wasm32"))]
    let mut out: Vec<(usize, R)> = {
        use rayon::prelude::*;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.jobs.max(1))
            .build()
            .expect("thread pool");
        pool.install(|| mine.par_iter().filter_map(|&i| run_one(i)).collect())
    };
    if let Some(bar) = bar {
        bar.finish();
    }
    out.sort_by_key(|(i, _)| *i);
    out
}

/// A name kept as `&'static str` in a job result (the alias keeps serde
/// from borrowing it from the input; [`algo_name`] or [`name_in`] read it
/// back).
pub(crate) type StaticName = &'static str;

/// Deserialises an algorithm's registry name kept as `&'static str` in a
/// job result (only a merge reads job results back); any other name is an
/// error, so nothing is interned or leaked.
pub(crate) fn algo_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    use serde::Deserialize;
    let s = String::deserialize(d)?;
    pnlab_core::search::algorithms()
        .iter()
        .find(|a| a.name == s)
        .map(|a| a.name)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown algorithm `{s}` in a job result")))
}

/// Deserialises a word that must be one of `options` (the words an
/// experiment writes in a job result) as the `&'static str` of the list.
pub(crate) fn name_in<'de, D: serde::Deserializer<'de>>(
    d: D,
    options: &[&'static str],
) -> Result<&'static str, D::Error> {
    use serde::Deserialize;
    let s = String::deserialize(d)?;
    options.iter().copied().find(|o| *o == s).ok_or_else(|| {
        serde::de::Error::custom(format!(
            "unexpected `{s}` in a job result; expected one of {}",
            options.join(", ")
        ))
    })
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
