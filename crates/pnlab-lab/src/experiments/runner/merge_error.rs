//! Why the folders given to `pnlab experiment merge` are not the complete
//! shards of one run: each cause with the paths and numbers that locate
//! it.

use std::path::PathBuf;

/// Why a merge refuses its shards.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No shard folder was named.
    #[error("experiment merge: name the shards' output directories")]
    NoShards,
    /// A folder holds no job file.
    #[error("{}: no `NAME.jobs.json` here (run the experiment with --shard K/N --out {})", .dir.display(), .dir.display())]
    NoJobFile {
        /// The folder.
        dir: PathBuf,
    },
    /// A folder holds several job files, so which to merge is unclear.
    #[error("{}: several job files ({}); give the one to merge", .dir.display(), list(.files))]
    SeveralJobFiles {
        /// The folder.
        dir: PathBuf,
        /// The job files in it.
        files: Vec<PathBuf>,
    },
    /// Two job files come from different runs.
    #[error("{} and {} are not shards of one run: their {differ} differ", .first.display(), .other.display())]
    NotOneRun {
        /// The first job file.
        first: PathBuf,
        /// The job file that differs from it.
        other: PathBuf,
        /// What differs (`seeds`, `settings`, …).
        differ: &'static str,
    },
    /// The same shard is given twice.
    #[error("shard {shard}/{of} is given twice ({})", .path.display())]
    ShardTwice {
        /// The shard (from 1).
        shard: usize,
        /// The shard count.
        of: usize,
        /// The second job file of that shard.
        path: PathBuf,
    },
    /// Some shards are missing.
    #[error("missing shard(s): {}", shards(.missing, *.of))]
    MissingShards {
        /// The missing shards (from 1).
        missing: Vec<usize>,
        /// The shard count.
        of: usize,
    },
    /// A job file holds a result of a job another shard runs.
    #[error("{}: job {job} of list {list} does not belong to shard {shard}/{of}", .path.display())]
    ForeignJob {
        /// The job file.
        path: PathBuf,
        /// The job list (an experiment may run several).
        list: usize,
        /// The job's number in its list.
        job: usize,
        /// The job file's shard (from 1).
        shard: usize,
        /// The shard count.
        of: usize,
    },
    /// The shards together hold fewer results than the run has jobs.
    #[error("the shards hold {held} of the {expected} job results (an interrupted shard?)")]
    Incomplete {
        /// Results held.
        held: usize,
        /// Jobs of the run.
        expected: usize,
    },
}

/// The paths, comma-separated.
fn list(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Shards `k/of`, comma-separated.
fn shards(missing: &[usize], of: usize) -> String {
    missing
        .iter()
        .map(|k| format!("{k}/{of}"))
        .collect::<Vec<_>>()
        .join(", ")
}
