//! The one error type of lessons: every mistake in a lesson file (or in
//! a position file it names) is reported at its file, line and column
//! with what was expected, as the position readers do.

use pnlab_core::game::notation::FileError;

/// What is wrong, by kind (the message completes the location).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LessonErrorKind {
    /// The TOML does not parse, a key is unknown, a value has the wrong type.
    #[error("{0}")]
    Syntax(String),
    /// A required part is missing (a caption, a first position, …).
    #[error("{0}")]
    Missing(String),
    /// A caption's Markdown is malformed (an emphasis never closed, …).
    #[error("caption: {0}")]
    Caption(String),
    /// The position cannot be read (a file that does not exist, an entry
    /// it does not hold, a notation that does not parse).
    #[error("{0}")]
    Position(String),
    /// No algorithm has this name.
    #[error("{0}")]
    UnknownAlgorithm(String),
    /// A parameter is unknown or its value is out of range (the
    /// registry's description of the algorithm's parameters decides).
    #[error("{0}")]
    Parameter(String),
    /// The algorithm refuses the position (a proof search on chance nodes, …).
    #[error("{0}")]
    Search(String),
    /// The search ends before the iteration the step asks for.
    #[error(
        "the search ends at iteration {ended} ({status}); iteration {asked} cannot be reached"
    )]
    Unreachable {
        /// The iteration asked for.
        asked: u64,
        /// The iteration at which the search finished.
        ended: u64,
        /// Its final status in words.
        status: String,
    },
    /// A node path names no node of the tree at the step's iteration.
    #[error("{0}")]
    NoSuchNode(String),
    /// A board cell is not on the board, or the game has no board.
    #[error("{0}")]
    Cell(String),
    /// A panel cannot show anything for the step's algorithm.
    #[error("{0}")]
    Panel(String),
    /// The question cannot be asked at this step (no most-proving node
    /// once the search is over, a value the algorithm does not compute, …).
    #[error("{0}")]
    Question(String),
}

/// A located lesson error: `FILE:LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{file}:{line}:{col}: {kind}")]
pub struct LessonError {
    /// The lesson file, or the position file the mistake is in.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// What is wrong.
    pub kind: LessonErrorKind,
}

impl LessonError {
    /// An error at `file:line:col`.
    pub fn new(file: &str, line: usize, col: usize, kind: LessonErrorKind) -> LessonError {
        LessonError {
            file: file.to_string(),
            line,
            col,
            kind,
        }
    }

    /// A position file's own error, located in that file.
    pub fn from_file_error(e: FileError) -> LessonError {
        LessonError {
            file: e.file,
            line: e.error.line,
            col: e.error.col,
            kind: LessonErrorKind::Position(e.error.expected),
        }
    }
}
