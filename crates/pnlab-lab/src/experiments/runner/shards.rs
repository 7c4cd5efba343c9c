//! Sharded sweeps and `pnlab experiment merge OUT DIR...`.
//!
//! `--shard K/N` runs the jobs i with i mod N = K − 1. Besides its CSV and
//! JSON, a shard writes `NAME.jobs.json`: the experiment, seed, settings,
//! shard, the number of jobs of each job list it went through, and every
//! job's result as the experiment computed it. A merge reads the job files
//! of all N shards (one per directory), checks that they belong to the
//! same experiment, seed and settings and together cover every job once,
//! and then runs the experiment unsharded with those results replayed
//! instead of computed: the CSV and JSON are written by the experiment's
//! own code from the same results, so they are those of an unsharded run
//! (rows in job order), except the time columns, which hold the shards'
//! own timings.
//!
//! Results are kept as JSON; a real number is stored by its bits, so a
//! replayed result is exactly the computed one.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use pnlab_core::files::IoError;
use pnlab_core::game::notation::FileError;
use pnlab_core::game::ParseError;

use super::merge_error::MergeError;
use crate::experiments::{write_json, ExperimentError, ExperimentOptions};

/// First field of a job file.
const FORMAT: &str = "pnlab-experiment-jobs 1";

/// The job results of one run of an experiment: recorded as the jobs
/// finish, or given in advance to be replayed by a merge.
#[derive(Default)]
pub struct JobLog {
    /// Job lists started so far (an experiment may run several).
    calls: AtomicUsize,
    /// Number of jobs of each job list.
    totals: Mutex<Vec<usize>>,
    /// (job list, job, result) as computed here.
    recorded: Mutex<Vec<(usize, usize, Value)>>,
    /// Results to replay, by (job list, job).
    replay: Option<HashMap<(usize, usize), Value>>,
}

impl std::fmt::Debug for JobLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobLog")
            .field("calls", &self.calls.load(Ordering::Relaxed))
            .field("replay", &self.replay.as_ref().map(HashMap::len))
            .finish()
    }
}

/// Replaces every non-integer number by `{"$f64": "<bits in hex>"}`.
fn encode_floats(v: Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => {
            let bits = n.as_f64().unwrap_or(f64::NAN).to_bits();
            json!({ "$f64": format!("{bits:016x}") })
        }
        Value::Array(a) => Value::Array(a.into_iter().map(encode_floats).collect()),
        Value::Object(o) => {
            Value::Object(o.into_iter().map(|(k, v)| (k, encode_floats(v))).collect())
        }
        other => other,
    }
}

/// The inverse of [`encode_floats`].
fn decode_floats(v: Value) -> Value {
    match v {
        Value::Object(o) => {
            if o.len() == 1 {
                if let Some(Value::String(h)) = o.get("$f64") {
                    if let Ok(bits) = u64::from_str_radix(h, 16) {
                        return serde_json::Number::from_f64(f64::from_bits(bits))
                            .map_or(Value::Null, Value::Number);
                    }
                }
            }
            Value::Object(o.into_iter().map(|(k, v)| (k, decode_floats(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(decode_floats).collect()),
        other => other,
    }
}

impl JobLog {
    /// A log that replays `results` (by (job list, job)).
    pub fn replaying(results: HashMap<(usize, usize), Value>) -> JobLog {
        JobLog {
            replay: Some(results),
            ..JobLog::default()
        }
    }

    /// Whether this log replays a merge (every job of every list is then
    /// taken, whatever the shard).
    pub fn is_replay(&self) -> bool {
        self.replay.is_some()
    }

    /// Starts a job list of `jobs` jobs; returns its number.
    pub(super) fn begin_call(&self, jobs: usize) -> usize {
        let c = self.calls.fetch_add(1, Ordering::Relaxed);
        let mut t = self.totals.lock().unwrap_or_else(|e| e.into_inner());
        if t.len() <= c {
            t.resize(c + 1, 0);
        }
        t[c] = jobs;
        c
    }

    /// The replayed result of job `job` of list `call`, if any.
    pub(super) fn replayed<R: DeserializeOwned>(&self, call: usize, job: usize) -> Option<R> {
        let v = self.replay.as_ref()?.get(&(call, job))?;
        serde_json::from_value(decode_floats(v.clone())).ok()
    }

    /// Records a computed result.
    pub(super) fn record<R: Serialize>(&self, call: usize, job: usize, r: &R) {
        if let Ok(v) = serde_json::to_value(r) {
            self.recorded
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((call, job, encode_floats(v)));
        }
    }

    /// Number of jobs computed (not replayed) so far.
    pub fn computed(&self) -> usize {
        self.recorded.lock().map_or(0, |r| r.len())
    }
}

/// The job file of a run in `dir`.
pub fn log_path(dir: &Path, experiment: &str) -> PathBuf {
    dir.join(format!("{experiment}.jobs.json"))
}

/// Writes the job file of a finished run (see the module comment).
pub fn write_log(
    experiment: &str,
    dir: &Path,
    opts: &ExperimentOptions,
) -> Result<PathBuf, ExperimentError> {
    let mut results = opts
        .log
        .recorded
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    results.sort_by_key(|(c, j, _)| (*c, *j));
    let totals = opts
        .log
        .totals
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let path = log_path(dir, experiment);
    write_json(
        &path,
        &json!({
            "format": FORMAT,
            "experiment": experiment,
            "seed": opts.seed,
            "settings": opts.settings,
            "shard": [opts.shard.0 + 1, opts.shard.1],
            "totals": totals,
            "results": results.into_iter().map(|(c, j, v)| json!([c, j, v])).collect::<Vec<_>>(),
        }),
    )?;
    Ok(path)
}

/// One shard's job file, read back.
struct ShardLog {
    path: PathBuf,
    experiment: String,
    seed: u64,
    settings: Vec<(String, String)>,
    shard: (usize, usize),
    totals: Vec<usize>,
    results: Vec<(usize, usize, Value)>,
}

/// Finds and reads the job file in `dir` (or `dir` itself when it is a
/// file).
fn read_log(dir: &Path) -> Result<ShardLog, ExperimentError> {
    let path = if dir.is_file() {
        dir.to_path_buf()
    } else {
        let entries = std::fs::read_dir(dir).map_err(|e| IoError::new("read", dir, e))?;
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".jobs.json"))
            .collect();
        found.sort();
        match found.len() {
            1 => found.remove(0),
            0 => return Err(MergeError::NoJobFile { dir: dir.into() }.into()),
            _ => {
                return Err(MergeError::SeveralJobFiles {
                    dir: dir.into(),
                    files: found,
                }
                .into())
            }
        }
    };
    let name = path.display().to_string();
    let text = pnlab_core::files::read_text(&path)?;
    let located = |line: usize, col: usize, msg: String| {
        ExperimentError::File(FileError {
            file: name.clone(),
            error: ParseError::new(line, col, msg),
        })
    };
    let v: Value =
        serde_json::from_str(&text).map_err(|e| located(e.line(), e.column(), e.to_string()))?;
    let bad = |what: &str| located(1, 1, format!("expected {what} in a job file"));
    if v["format"] != FORMAT {
        return Err(bad(&format!("\"format\": \"{FORMAT}\"")));
    }
    let shard = v["shard"]
        .as_array()
        .and_then(|a| Some((a.first()?.as_u64()? as usize, a.get(1)?.as_u64()? as usize)))
        .filter(|(k, n)| *k >= 1 && k <= n)
        .ok_or_else(|| bad("\"shard\": [K, N]"))?;
    let settings: Vec<(String, String)> =
        serde_json::from_value(v["settings"].clone()).map_err(|_| bad("\"settings\""))?;
    let totals: Vec<usize> =
        serde_json::from_value(v["totals"].clone()).map_err(|_| bad("\"totals\""))?;
    let mut results = Vec::new();
    for r in v["results"].as_array().ok_or_else(|| bad("\"results\""))? {
        let (c, j, val) = r
            .as_array()
            .and_then(|a| Some((a.first()?.as_u64()?, a.get(1)?.as_u64()?, a.get(2)?.clone())))
            .ok_or_else(|| bad("results as [list, job, result]"))?;
        results.push((c as usize, j as usize, val));
    }
    Ok(ShardLog {
        experiment: v["experiment"]
            .as_str()
            .ok_or_else(|| bad("\"experiment\""))?
            .to_string(),
        seed: v["seed"].as_u64().ok_or_else(|| bad("\"seed\""))?,
        settings,
        shard: (shard.0 - 1, shard.1),
        totals,
        results,
        path,
    })
}

/// The shards of one run, read and checked: what a merge replays.
pub struct Gathered {
    /// The experiment's name.
    pub experiment: String,
    /// The run's seed.
    pub seed: u64,
    /// The run's settings as given.
    pub settings: Vec<(String, String)>,
    /// Every job's recorded result, by (job list, job).
    pub replay: HashMap<(usize, usize), Value>,
}

/// Reads the job files in `dirs` and checks that they are the shards of
/// one run (same experiment, seed, settings, shard count and job lists)
/// and together hold every job's result once.
pub fn gather(dirs: &[PathBuf]) -> Result<Gathered, ExperimentError> {
    if dirs.is_empty() {
        return Err(MergeError::NoShards.into());
    }
    let logs = dirs
        .iter()
        .map(|d| read_log(d))
        .collect::<Result<Vec<_>, _>>()?;
    let first = &logs[0];
    let n = first.shard.1;
    let mut seen = HashSet::new();
    for l in &logs {
        let differs = |differ: &'static str| {
            Err(MergeError::NotOneRun {
                first: first.path.clone(),
                other: l.path.clone(),
                differ,
            }
            .into())
        };
        if l.experiment != first.experiment {
            return differs("experiments");
        }
        if l.seed != first.seed {
            return differs("seeds");
        }
        if l.settings != first.settings {
            return differs("settings");
        }
        if l.shard.1 != n {
            return differs("shard counts");
        }
        if l.totals != first.totals {
            return differs("job lists");
        }
        if !seen.insert(l.shard.0) {
            return Err(MergeError::ShardTwice {
                shard: l.shard.0 + 1,
                of: n,
                path: l.path.clone(),
            }
            .into());
        }
    }
    let missing: Vec<usize> = (0..n)
        .filter(|k| !seen.contains(k))
        .map(|k| k + 1)
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::MissingShards { missing, of: n }.into());
    }
    let mut replay = HashMap::new();
    for l in logs.iter() {
        for (c, j, v) in &l.results {
            if *c >= first.totals.len() || *j >= first.totals[*c] || *j % n != l.shard.0 {
                return Err(MergeError::ForeignJob {
                    path: l.path.clone(),
                    list: *c,
                    job: *j,
                    shard: l.shard.0 + 1,
                    of: n,
                }
                .into());
            }
            replay.insert((*c, *j), v.clone());
        }
    }
    let expected: usize = first.totals.iter().sum();
    if replay.len() != expected {
        return Err(MergeError::Incomplete {
            held: replay.len(),
            expected,
        }
        .into());
    }
    Ok(Gathered {
        experiment: first.experiment.clone(),
        seed: first.seed,
        settings: first.settings.clone(),
        replay,
    })
}
