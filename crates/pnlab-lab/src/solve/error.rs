//! The solve flow's errors, typed: what went wrong is a variant with its
//! facts, and where (a file, a line, a column) is a [`Location`] rather
//! than a prefix formatted by hand. The messages are the ones `pnlab
//! solve` prints after `error: `; Python maps the kinds to its exceptions
//! by variant, not by reading the text.

use std::fmt;
use std::path::PathBuf;

use pnlab_core::game::notation::FileError;
use pnlab_core::game::NoRepetitionRule;
use pnlab_core::params::bounds::RangeError;
use pnlab_core::positions::PositionEntry;
use pnlab_core::search::{ParamError, SearchError};

/// A place in the user's input: a file (`<inline>` for a command-line
/// argument, `-` for standard input, or a position's name), a 1-based
/// line and a 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file or the input's name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
}

impl Location {
    /// The start of a position entry: a problem with the entry as a whole
    /// (its parameters, its rule, its search) is located where it starts.
    pub fn of_entry(entry: &PositionEntry) -> Location {
        Location {
            file: entry.name.clone(),
            line: entry.line,
            col: 1,
        }
    }

    /// The first character of a named input.
    pub fn start_of(file: impl Into<String>) -> Location {
        Location {
            file: file.into(),
            line: 1,
            col: 1,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// Why a request, a position or a certificate failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// The request itself is wrong (a parameter, a budget, a combination
    /// of options, no position): nothing was solved.
    #[error(transparent)]
    Request(#[from] RequestError),
    /// One input or position cannot be read or searched; the others go on.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A certificate could not be made or written: the run stops.
    #[error(transparent)]
    Proof(#[from] CertificateError),
}

impl From<SolveError> for String {
    fn from(e: SolveError) -> String {
        e.to_string()
    }
}

/// A request that cannot run, found before any position is read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RequestError {
    /// `--threads N` for an algorithm that searches with one thread.
    #[error("--threads {threads}: `{algo}` searches with one thread; the df-pn family (dfpn, dfpn-eps, deep-dfpn, dfpn-fast) runs in parallel")]
    Threads {
        /// The threads asked for.
        threads: u32,
        /// The algorithm.
        algo: &'static str,
    },
    /// A parameter the algorithm does not take, or a bad value.
    #[error("--algo {algo}: {error}")]
    Param {
        /// The algorithm.
        algo: &'static str,
        /// What is wrong with the parameter.
        error: ParamError,
    },
    /// A budget out of range (`--time-limit`, `--memory`).
    #[error(transparent)]
    Range(#[from] RangeError),
    /// `--question score` for an algorithm that answers yes/no questions.
    #[error("--question score: `{algo}` answers yes/no questions; the score is found by `{scorer}` (Connect Four and Othello)")]
    ScoreAlgorithm {
        /// The algorithm asked.
        algo: &'static str,
        /// The one that finds scores.
        scorer: &'static str,
    },
    /// `--question score` with `--proof` or `--certify`.
    #[error("--question score: --proof and --certify certify yes/no answers; ask --question win for a certificate")]
    ScoreCertificate,
    /// No position named at all.
    #[error("no position given: name files, inline positions (with --game) or `-` for stdin")]
    NoPosition,
    /// An export file whose extension names no format.
    #[error(
        "{path}: unknown export format; expected a file name ending in .svg, .dot, .csv or .json"
    )]
    ExportFormat {
        /// The file name as given.
        path: String,
    },
    /// `--entry K` past the inputs' positions.
    #[error("--entry {wanted}: the input holds {held} position(s) (entries count from 1)")]
    Entry {
        /// The entry asked for (1-based).
        wanted: usize,
        /// The positions the inputs hold.
        held: usize,
    },
}

/// An input or a position that cannot be read or searched.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InputError {
    /// A file or an inline position that does not parse, or a file that
    /// cannot be read (located by the file layer).
    #[error(transparent)]
    File(#[from] FileError),
    /// An argument that is neither a file nor, without `--game`, a
    /// position.
    #[error("{at}: no such file; for an inline position give --game ({games})")]
    NoSuchFile {
        /// The argument.
        at: Location,
        /// The games `--game` takes.
        games: String,
    },
    /// Standard input could not be read.
    #[error("{at}: cannot read standard input: {reason}")]
    Stdin {
        /// Standard input's start.
        at: Location,
        /// The system's reason.
        reason: String,
    },
    /// A position read, but the request cannot apply to it.
    #[error("{at}: {problem}")]
    Entry {
        /// Where the position starts.
        at: Location,
        /// What does not apply (boxed: the search's errors are large, and
        /// every result of the solve flow carries this type).
        problem: Box<EntryProblem>,
    },
}

/// Why the request cannot apply to one position.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EntryProblem {
    /// `--repetition` on a game without the rule.
    #[error("--repetition: {0}")]
    Repetition(#[from] NoRepetitionRule),
    /// A parameter that does not apply on this position's game.
    #[error("--algo {algo}: {error}")]
    Param {
        /// The algorithm.
        algo: &'static str,
        /// What is wrong.
        error: ParamError,
    },
    /// The algorithm cannot search this position.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// A certificate that could not be made or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: --proof{}: {reason}", path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default())]
pub struct CertificateError {
    /// The position whose certificate failed.
    pub at: Location,
    /// The certificate file, when the failure is the certificate's own
    /// (none when the file could not be written).
    pub path: Option<PathBuf>,
    /// Why.
    pub reason: String,
}
