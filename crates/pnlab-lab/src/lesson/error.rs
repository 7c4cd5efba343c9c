//! The one error type of lessons: every mistake in a lesson file (or in
//! a position file it names) is reported at its file, line and column
//! with what was expected, as the position readers do.
//!
//! Each kind carries its data (the lower layer's own error where there is
//! one: [`ParamError`], [`SearchError`], [`ParseError`], …) and builds
//! its sentence from it, so a caller can tell the mistakes apart without
//! reading the words.

use pnlab_core::game::notation::{FileError, ParseError};
use pnlab_core::game::UnknownGame;
use pnlab_core::search::{ParamError, SearchError};

use super::cells::CellError;
use super::source::SourceError;

/// What is wrong, by kind (the message completes the location).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LessonErrorKind {
    // The file's shape: TOML, keys, values.
    /// The TOML does not parse, a key is unknown, a value has the wrong
    /// type (the TOML reader's own words).
    #[error("{message}")]
    Toml {
        /// The TOML reader's message.
        message: String,
    },
    /// `goal` is neither `win` nor `not-lose`.
    #[error(
        "expected `goal` to be `win` or `not-lose` (the attacker's question), found `{found}`"
    )]
    BadGoal {
        /// The word given.
        found: String,
    },
    /// `entry` beside an inline `notation`.
    #[error("`entry` chooses a position of a `file`; an inline `notation` is one position")]
    EntryWithNotation,
    /// `position` is neither a file reference nor an inline position.
    #[error("expected `position = {{ file = \"…\", entry = … }}` (a position file, relative to the lesson) or `position = {{ game = \"…\", notation = \"…\" }}` (inline)")]
    PositionForm,
    /// `reveal` on a step that asks nothing.
    #[error("`reveal` is the caption shown once the step's question is answered, and this step has no `ask`")]
    RevealWithoutAsk,
    /// A negative `seed`.
    #[error("expected a `seed` ≥ 0")]
    NegativeSeed,
    /// `iteration` is neither a number in range nor `"end"`.
    #[error("expected `iteration` to be a number of iterations from 0 to {max}, or \"end\" (run until the search finishes)")]
    BadIteration {
        /// The largest number of iterations a step may ask for.
        max: u64,
    },

    // A required part is missing.
    /// No `[lesson]` table.
    #[error("expected a `[lesson]` table with a `title` (and `summary`, `sources`, `minutes`)")]
    NoLessonTable,
    /// The lesson's title is blank.
    #[error("the lesson's `title` is empty")]
    EmptyTitle,
    /// No `[[step]]`.
    #[error("expected at least one `[[step]]` with a `caption`")]
    NoSteps,
    /// A step without a caption.
    #[error("step {step} has no `caption`")]
    NoCaption {
        /// The step, 1-based.
        step: usize,
    },
    /// The first step sets no position.
    #[error("the first step must set a `position` (later steps keep it until one sets another)")]
    FirstStepWithoutPosition,
    /// `params` before any step named an algorithm.
    #[error("`params` before any step set `algo`")]
    ParamsBeforeAlgo,
    /// A `value` question that does not say which value.
    #[error("a `value` question needs `value = \"pn\"` (or another value the algorithm shows) and `node = \"…\"`")]
    ValueNotNamed,

    // Captions.
    /// A caption's Markdown is malformed (an emphasis never closed, …).
    #[error("caption: {message}")]
    Caption {
        /// The caption reader's message.
        message: String,
    },

    // Positions.
    /// A position file's path leaves the places a lesson may read.
    #[error("{reason}")]
    Reference {
        /// Why the path is refused.
        reason: pnlab_core::positions::reference::RefusedPath,
    },
    /// A position file cannot be read.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// The lesson file itself cannot be read.
    #[error("cannot read the file: {reason}")]
    Unreadable {
        /// The operating system's reason.
        reason: String,
    },
    /// An inline position names no game.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// A position's notation does not parse; the location is the
    /// notation's own line and column.
    #[error("{}", .0.expected)]
    Notation(ParseError),
    /// A position's notation does not parse, located at the notation's
    /// start (the parser's line and column are in the message).
    #[error("{0}")]
    NotationWithin(ParseError),
    /// `entry` names no position of the file.
    #[error("{file} holds no position named `{name}`; it holds {holds}")]
    NoSuchEntry {
        /// The position file.
        file: String,
        /// The name asked for.
        name: String,
        /// The entries it holds, in words.
        holds: String,
    },
    /// `entry` is out of range (or neither a number nor a name).
    #[error("expected `entry` to be a position's number (1 to {count}) or name in {file}; it holds {holds}")]
    BadEntry {
        /// The position file.
        file: String,
        /// How many positions it holds.
        count: usize,
        /// The entries it holds, in words.
        holds: String,
    },
    /// The position file holds nothing.
    #[error("{file} holds no position")]
    EmptyPositionFile {
        /// The position file.
        file: String,
    },

    // Algorithms, parameters and searches.
    /// No algorithm has this name.
    #[error(transparent)]
    UnknownAlgorithm(SearchError),
    /// A parameter's TOML value is a table, an array or a date.
    #[error("parameter `{name}`: expected a string or a number, found {found}")]
    ParameterType {
        /// The parameter.
        name: String,
        /// The TOML type given.
        found: &'static str,
    },
    /// A parameter is unknown or its value is out of range (the
    /// registry's description of the algorithm's parameters decides).
    #[error("parameters for `{algo}`: {error}")]
    Parameter {
        /// The algorithm.
        algo: String,
        /// The parameters' own error.
        error: ParamError,
    },
    /// The algorithm refuses the position (a proof search on chance nodes, …).
    #[error(transparent)]
    Search(SearchError),
    /// `iteration = "end"` and the search does not finish.
    #[error("`{algo}` does not finish within {max} iterations; give a number of iterations instead of \"end\"")]
    NeverFinishes {
        /// The algorithm.
        algo: String,
        /// The iteration limit of a step.
        max: u64,
    },
    /// Reaching the step costs more than a class can wait for.
    #[error("`{algo}` needs {cost} to reach this step (stopped at iteration {iteration}); a step is shown at once in class, so ask for fewer iterations or a smaller position")]
    TooCostly {
        /// The algorithm.
        algo: String,
        /// The budget it went over.
        cost: StepCost,
        /// The iteration it was stopped at.
        iteration: u64,
    },
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

    // Nodes, cells, panels.
    /// A node path names no node of the tree at the step's iteration.
    #[error("node `{}` at iteration {iteration}: {reason}", moves.join(" "))]
    NoSuchNode {
        /// The path's moves.
        moves: Vec<String>,
        /// The step's iteration.
        iteration: u64,
        /// Why the path fails (the moves that would be valid).
        reason: String,
    },
    /// A board cell is not on the board, or the game has no board.
    #[error(transparent)]
    Cell(#[from] CellError),
    /// The `race` panel without a `race` setting.
    #[error("the `race` panel needs `race = {{ algo = \"…\", params = {{ … }} }}`: the setting it races against")]
    RaceWithoutSetting,
    /// The `functions` panel for an algorithm without them.
    #[error("the `functions` panel shows the proof and disproof functions of conspiracy-number searches (cns, scns); `{algo}` has none")]
    NoFunctions {
        /// The step's algorithm.
        algo: String,
    },
    /// The `scn` panel for another algorithm than alpha-beta.
    #[error("the `scn` panel shows alpha-beta's single conspiracy numbers per depth; `{algo}` is not alphabeta")]
    ScnNotAlphabeta {
        /// The step's algorithm.
        algo: String,
    },
    /// No panel has this name.
    #[error("unknown panel `{name}`; panels: {known}")]
    UnknownPanel {
        /// The name given.
        name: String,
        /// Every panel's name.
        known: String,
    },

    // Questions.
    /// No question kind has this name.
    #[error("unknown question kind `{name}`; kinds: {known}")]
    UnknownAskKind {
        /// The name given.
        name: String,
        /// Every kind's name.
        known: String,
    },
    /// A `most-proving` question names a node.
    #[error(
        "a `most-proving` question names no node: the answer is the node the search expands next"
    )]
    MostProvingNamesNode,
    /// A `value` key on another kind of question.
    #[error("only a `value` question names a `value`")]
    ValueOnValueQuestionsOnly,
    /// The open question's caption gives the answer away.
    #[error("the caption is on screen while the question is open, and {why}; write that part in the step's `reveal` caption (shown after the answer)")]
    GivesAway {
        /// What in the caption gives it away.
        why: String,
    },
    /// Asking about the next choice once the search is over.
    #[error("the search is over at iteration {iteration} ({status}): it expands nothing more and chooses no child; ask before it finishes")]
    SearchOver {
        /// The iteration it ended at.
        iteration: u64,
        /// Its final status in words.
        status: String,
    },
    /// The algorithm shows no selection path.
    #[error("`{algo}` shows no selection path")]
    NoSelectionPath {
        /// The step's algorithm.
        algo: String,
    },
    /// The next iteration does not expand the end of the path.
    #[error("`{algo}` does not expand the end of its path ({node}) in its next iteration, so it has no most-proving node to predict here; ask a `child` question instead")]
    NotExpandedNext {
        /// The step's algorithm.
        algo: String,
        /// The path's end, in words.
        node: String,
    },
    /// The child the search chooses next is not in its tree yet.
    #[error("at iteration {iteration} the search's next choice at {node} is the move `{chosen}`, which is not in its tree yet (`{algo}` adds it in the next iteration); ask at a later iteration, when the child exists")]
    ChildNotInTree {
        /// The step's iteration.
        iteration: u64,
        /// The asked node, in words.
        node: String,
        /// The move chosen.
        chosen: String,
        /// The step's algorithm.
        algo: String,
    },
    /// The asked node is not on the search's path (or is its end).
    #[error("the search's path at iteration {iteration} does not go through {node} and on to a child ({route}); ask about a node on it")]
    OffPath {
        /// The step's iteration.
        iteration: u64,
        /// The asked node, in words.
        node: String,
        /// Where the path goes, in words.
        route: String,
    },
    /// The algorithm shows no value of this name.
    #[error("`{algo}` shows no value `{value}`; its values: {known}")]
    NoSuchValue {
        /// The step's algorithm.
        algo: String,
        /// The value asked for.
        value: String,
        /// The values it shows.
        known: String,
    },
    /// The value is undefined at the node.
    #[error("{node} has no `{value}` (the algorithm leaves it undefined there)")]
    UndefinedValue {
        /// The asked node, in words.
        node: String,
        /// The value asked for.
        value: String,
    },
}

/// The budget a step's search went over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepCost {
    /// Its time, in seconds.
    #[error("more than {0} s")]
    Seconds(u64),
    /// Its tree's memory, in MiB.
    #[error("more than {0} MiB")]
    Mebibytes(u64),
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
    /// What is wrong (boxed: the kinds carry their data, and an error
    /// stays small on the happy path's stack).
    pub kind: Box<LessonErrorKind>,
}

impl LessonError {
    /// An error at `file:line:col`.
    pub fn new(file: &str, line: usize, col: usize, kind: LessonErrorKind) -> LessonError {
        LessonError {
            file: file.to_string(),
            line,
            col,
            kind: Box::new(kind),
        }
    }

    /// A position file's own error, located in that file.
    pub fn from_file_error(e: FileError) -> LessonError {
        LessonError {
            file: e.file,
            line: e.error.line,
            col: e.error.col,
            kind: Box::new(LessonErrorKind::Notation(e.error)),
        }
    }
}
