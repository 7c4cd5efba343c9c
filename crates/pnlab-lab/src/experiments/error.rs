//! What can stop an experiment or a merge of shards: one typed error,
//! whose variants carry the lower layers' own errors (settings, searches,
//! position files, moves, I/O with the path) or the facts of the cause as
//! fields, so a caller can tell the causes apart without reading the
//! message.

use pnlab_core::files::IoError;
use pnlab_core::game::notation::FileError;
use pnlab_core::game::xiangqi::FenError;
use pnlab_core::game::ParseError;
use pnlab_core::search::{ParamError, SearchError};

pub use super::runner::merge_error::MergeError;

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
    #[error("experiment {experiment}: cancelled")]
    Cancelled {
        /// The experiment's name.
        experiment: &'static str,
    },
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
    Parse(#[from] ParseError),
    /// A sharded run was given no output folder for its job file.
    #[error("a sharded run (--shard K/N) needs an output folder for the job file a merge reads")]
    ShardWithoutFolder,
    /// The shards given to a merge are not the complete shards of one run.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// A table row could not be written.
    #[error(transparent)]
    Row(#[from] super::rows::RowError),
    /// A text setting holds a value (or a list item) the experiment cannot
    /// read: the settings' own checks only see the text.
    #[error("invalid {part} `{value}` in setting `{setting}`: expected {expected}")]
    BadSettingValue {
        /// The setting.
        setting: &'static str,
        /// `value`, or `item` for one item of a list.
        part: &'static str,
        /// The text given.
        value: String,
        /// What the setting takes.
        expected: &'static str,
    },
    /// A setting asks for more positions than the bundled set holds.
    #[error("setting `{setting}` must be at most {available}, got {wanted}")]
    TooFewPositions {
        /// The setting (named after the set).
        setting: &'static str,
        /// How many it asks for.
        wanted: usize,
        /// How many the set holds.
        available: usize,
    },
    /// A grid from a step up to a largest value, with too few or too many
    /// points for the run to be sensible.
    #[error("{max_setting} / {step_setting} must give 1 to {limit} values, got {values}")]
    GridSize {
        /// The setting of the grid's largest value.
        max_setting: &'static str,
        /// The setting of its step.
        step_setting: &'static str,
        /// The points the two give.
        values: usize,
        /// The most points allowed.
        limit: usize,
    },
    /// Random Othello positions need between 1 and 60 empty squares.
    #[error("empties must be in 1..=60, got {empties}")]
    EmptiesOutOfRange {
        /// The number asked for.
        empties: u32,
    },
    /// The random-play generator found no Othello position with this many
    /// empty squares for this seed.
    #[error("could not draw an Othello position with {empties} empties (seed {seed})")]
    NoRandomPosition {
        /// Empty squares asked for.
        empties: u32,
        /// The instance's seed.
        seed: u64,
    },
    /// Hex has no board of this size.
    #[error("no Hex board of size {size}")]
    NoHexBoard {
        /// The size asked for.
        size: u8,
    },
    /// A position file holds a position of another game.
    #[error("{file}: `{name}` is not a {wanted} position")]
    WrongGame {
        /// The file.
        file: String,
        /// The position's name in it.
        name: String,
        /// The game the experiment runs on.
        wanted: &'static str,
    },
    /// A position file holds no position.
    #[error("{file}: no positions")]
    NoPositions {
        /// The file.
        file: String,
    },
    /// A line of a bundled position set does not read as a position.
    #[error("{set} set line {line}: {error}")]
    BadSetLine {
        /// The set.
        set: &'static str,
        /// The line among the set's positions (from 1).
        line: usize,
        /// What is wrong with it.
        #[source]
        error: ParseError,
    },
    /// A bundled xiangqi position does not read as a FEN.
    #[error("{id}: {error}")]
    BadFen {
        /// The position's id in its set.
        id: String,
        /// What is wrong with it.
        #[source]
        error: FenError,
    },
    /// A search finished without naming the move to play.
    #[error("{algo} named no move at {position}")]
    NoMove {
        /// The search.
        algo: &'static str,
        /// The position, in notation.
        position: String,
    },
    /// A game not over has no legal move (the rules say it cannot happen).
    #[error("no legal move at {position}")]
    NoLegalMove {
        /// The position, in notation.
        position: String,
    },
    /// A game that cannot end in a draw ended without a winner.
    #[error("{game} has no draws")]
    DrawInDrawlessGame {
        /// The game.
        game: &'static str,
    },
    /// Searches that must agree on a value (the chance-node family and
    /// expectimax) do not.
    #[error("{algo} returned {value} on {instance}, expectimax {expectimax}")]
    ValueMismatch {
        /// The search that disagrees.
        algo: &'static str,
        /// The instance's name.
        instance: String,
        /// Its value.
        value: f64,
        /// Expectimax's value.
        expectimax: f64,
    },
    /// A proof read from a search's table does not hold (see
    /// [`ProofGap`]).
    #[error("{position}: {gap}")]
    BrokenProof {
        /// The position where the proof fails, in notation.
        position: String,
        /// How it fails.
        gap: ProofGap,
    },
    /// A job on one P-game tree failed.
    #[error("tree {tree}: {error}")]
    InTree {
        /// The tree's number in its series.
        tree: usize,
        /// What failed.
        #[source]
        error: Box<ExperimentError>,
    },
    /// A job's failure read back from a shard's log by a merge (only its
    /// message is recorded).
    #[error("{message}")]
    Recorded {
        /// The message the shard recorded.
        message: String,
    },
}

/// Where a proof held in a zone search's table fails to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofGap {
    /// A leaf of the proof is a finished game the attacker did not win.
    #[error("a finished game the attacker does not win")]
    AttackerDoesNotWin,
    /// At an attacker node no move leads to a proved position.
    #[error("no attacker move leads to a proved position")]
    NoProvedMove,
    /// At a defender node the defender completes a line of k.
    #[error("the defender completes k here")]
    DefenderCompletesK,
}

/// A job's failure is recorded in the shard's log as its message.
impl serde::Serialize for ExperimentError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for ExperimentError {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ExperimentError, D::Error> {
        Ok(ExperimentError::Recorded {
            message: String::deserialize(d)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::{find, run_experiment, ExperimentOptions};

    fn run_with(name: &str, settings: &[(&str, &str)]) -> ExperimentError {
        let opts = ExperimentOptions::for_test(&format!("error-{name}"), settings);
        let e = run_experiment(find(name).unwrap(), &opts).unwrap_err();
        assert!(!opts.out_dir.unwrap().exists(), "nothing was written");
        e
    }

    #[test]
    fn a_bad_rates_item_names_the_setting_and_the_item() {
        let e = run_with("scns-hex", &[("sizes", "4"), ("rates", "scns@4")]);
        let ExperimentError::BadSettingValue {
            setting,
            part,
            value,
            ..
        } = &e
        else {
            panic!("{e:?}");
        };
        assert_eq!(
            (*setting, *part, value.as_str()),
            ("rates", "item", "scns@4")
        );
        assert_eq!(
            e.to_string(),
            "invalid item `scns@4` in setting `rates`: expected PLAYER@SIZE=ITERATIONS_PER_MS"
        );
    }

    #[test]
    fn an_eps_grid_too_fine_gives_its_size() {
        // 15 / 2^-13 = 15 · 8192 = 122 880 values, over the limit.
        let e = run_with(
            "connect6-deep-dfpn",
            &[("eps_step", "0.0001220703125"), ("eps_max", "15")],
        );
        let ExperimentError::GridSize { values, limit, .. } = e else {
            panic!("{e:?}");
        };
        assert_eq!((values, limit), (122_880, 100_000));
    }

    #[test]
    fn a_merge_without_job_files_is_refused_with_the_folder() {
        let dir = std::env::temp_dir().join(format!("pnlab-merge-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("out");
        let e = crate::experiments::merge(&out, std::slice::from_ref(&dir), 1).unwrap_err();
        assert!(
            matches!(&e, ExperimentError::Merge(MergeError::NoJobFile { dir: d }) if *d == dir),
            "{e:?}"
        );
        let e = crate::experiments::merge(&out, &[], 1).unwrap_err();
        assert!(
            matches!(e, ExperimentError::Merge(MergeError::NoShards)),
            "{e:?}"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_recorded_failure_reads_back_as_its_message() {
        let e: ExperimentError = serde_json::from_str("\"tree 3: boom\"").unwrap();
        let ExperimentError::Recorded { message } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(message, "tree 3: boom");
        assert_eq!(serde_json::to_string(&e).unwrap(), "\"tree 3: boom\"");
    }

    #[test]
    fn missing_shards_are_listed_as_k_of_n() {
        let e = MergeError::MissingShards {
            missing: vec![2, 4],
            of: 4,
        };
        assert_eq!(e.to_string(), "missing shard(s): 2/4, 4/4");
    }
}
