//! What can stop an experiment or a merge of shards: one typed error,
//! whose variants carry the lower layers' own errors (settings, searches,
//! position files, moves, I/O with the path).

use pnlab_core::files::IoError;
use pnlab_core::game::notation::FileError;
use pnlab_core::search::{ParamError, SearchError};

/// What can stop an experiment (or a merge of shards).
#[derive(Clone, Debug, thiserror::Error)]
pub enum ExperimentError {
    /// No experiment has this name.
    #[error("unknown experiment `{name}`; known experiments: {known}")]
    Unknown {
        /// The name given.
        name: String,
        /// Every registered name.
        known: String,
    },
    /// The caller stopped the run (`JobObserver::cancel`).
    #[error("experiment {0}: cancelled")]
    Cancelled(&'static str),
    /// A setting is unknown or out of range.
    #[error(transparent)]
    Setting(#[from] ParamError),
    /// A search could not be built.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A position file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// Reading or writing a file failed.
    #[error(transparent)]
    Io(#[from] IoError),
    /// A move could not be played.
    #[error(transparent)]
    Move(#[from] pnlab_core::game::MoveError),
    /// A P-game shape out of range.
    #[error(transparent)]
    PGame(#[from] pnlab_core::game::pgame::PGameSizeError),
    /// A position's notation could not be read.
    #[error(transparent)]
    Parse(#[from] pnlab_core::game::ParseError),
    /// A sharded run was given no output folder for its job file.
    #[error("a sharded run (--shard K/N) needs an output folder for the job file a merge reads")]
    ShardWithoutFolder,
    /// A table row could not be written.
    #[error(transparent)]
    Row(#[from] super::rows::RowError),
    /// The settings or the data do not fit together (the message says how).
    #[error("{0}")]
    Invalid(String),
    /// A job's failure read back from a shard's log by a merge (only its
    /// message is recorded).
    #[error("{0}")]
    Recorded(String),
}

/// A job's failure is recorded in the shard's log as its message.
impl serde::Serialize for ExperimentError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for ExperimentError {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ExperimentError, D::Error> {
        Ok(ExperimentError::Recorded(String::deserialize(d)?))
    }
}
