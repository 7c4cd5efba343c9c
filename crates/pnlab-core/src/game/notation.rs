//! Parse errors shared by every notation and file format.
//!
//! A parser reports *where* (1-based line and column inside the text it was
//! given) and *what was expected*; the file layer adds the file name, so a
//! user sees `error: FILE:LINE:COL: expected …` (docs/cli.md).

use std::fmt;

/// A typed parse error: position inside the parsed text and what was
/// expected there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// 1-based line inside the parsed text.
    pub line: usize,
    /// 1-based column (in characters) inside that line.
    pub col: usize,
    /// What the parser expected, phrased to complete "expected …" or as a
    /// full sentence.
    pub expected: String,
}

impl ParseError {
    /// An error at 1-based `line` and `col` that completes "expected …".
    pub fn new(line: usize, col: usize, expected: impl Into<String>) -> ParseError {
        ParseError {
            line,
            col,
            expected: expected.into(),
        }
    }

    /// An error on the single line of an inline notation.
    pub fn at_col(col: usize, expected: impl Into<String>) -> ParseError {
        ParseError::new(1, col, expected)
    }

    /// Shifts an error found inside a sub-text that starts at (`line`,
    /// `col`) of an enclosing text (both 1-based).
    pub fn offset(mut self, line: usize, col: usize) -> ParseError {
        if self.line == 1 {
            self.col += col - 1;
        }
        self.line += line - 1;
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.expected)
    }
}

/// A parse error located in a named file (or `-` for standard input, or
/// `<inline>` for a command-line argument).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{error}")]
pub struct FileError {
    /// Where the text came from: a path, or `<inline>`.
    pub file: String,
    /// The error inside that text.
    pub error: ParseError,
}

/// Why a move given in notation cannot be played at a position (the
/// error of [`Game::parse_move`](super::Game::parse_move)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in the game's notation.
    #[error("expected {expected}, found `{text}`")]
    Notation {
        /// The text given.
        text: String,
        /// What a move looks like in this game.
        expected: String,
    },
    /// A move, but not a legal one at this position.
    #[error("`{text}` is not a legal move here ({why})")]
    Illegal {
        /// The move given.
        text: String,
        /// Why not (the cell is taken, the legal moves are …).
        why: String,
    },
    /// The game is over: no move is legal.
    #[error("`{text}` is not a move: the game is over")]
    GameOver {
        /// The move given.
        text: String,
    },
}

impl MoveError {
    /// `text` is not a move in notation; a move looks like `expected`.
    pub fn notation(text: &str, expected: impl Into<String>) -> MoveError {
        MoveError::Notation {
            text: text.trim().to_string(),
            expected: expected.into(),
        }
    }

    /// `text` is not legal here, because of `why`.
    pub fn illegal(text: &str, why: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            text: text.trim().to_string(),
            why: why.into(),
        }
    }

    /// `m` when it is `legal`, else the error that `text` is not legal
    /// here, because of `why`.
    pub fn unless_illegal<M>(legal: bool, m: M, text: &str, why: &str) -> Result<M, MoveError> {
        if legal {
            Ok(m)
        } else {
            Err(MoveError::illegal(text, why))
        }
    }

    /// `text` was given at a finished game.
    pub fn game_over(text: &str) -> MoveError {
        MoveError::GameOver {
            text: text.trim().to_string(),
        }
    }
}

/// Column (1-based, in characters) of byte offset `byte` in `line`.
pub fn col_of(line: &str, byte: usize) -> usize {
    line[..byte.min(line.len())].chars().count() + 1
}
