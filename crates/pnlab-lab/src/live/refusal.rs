//! Why a room refuses a client's frame. The words are what the sender
//! reads in `Rejected` (the page shows them as they are), so each variant
//! carries the figures it names and builds its sentence here, once.

use super::error::CatalogueError;
use super::protocol::{ProtocolError, MAX_NICKNAME_CHARS, MAX_VALUE_CHARS};
use super::tally::node_text;

/// A refused frame: nothing changes, the sender is told why.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The frame is not a live-class message.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// A binary WebSocket frame.
    #[error("binary frames are not read: send JSON text")]
    Binary,
    /// The sender is over its message rate.
    #[error("too many messages: slow down")]
    SlowDown,
    /// The sender kept flooding: its connection is closed.
    #[error("too many messages: the connection is closed")]
    Flooding,
    /// The server has its most classes open.
    #[error("this server has {open} classes open, its limit: try again later")]
    ServerFull {
        /// Classes open now.
        open: usize,
    },
    /// The lesson asked for cannot be taught.
    #[error(transparent)]
    Lesson(#[from] CatalogueError),
    /// The lesson has no steps.
    #[error("`{lesson}` has no steps")]
    NoSteps {
        /// The lesson's name.
        lesson: String,
    },
    /// A teacher resumes a class that does not exist.
    #[error("no class `{}`", code.escape_default())]
    NoClass {
        /// The code given (normalised).
        code: String,
    },
    /// A student joins a class that does not exist.
    #[error("no class `{}`: check the code on the projector", code.escape_default())]
    NoClassToJoin {
        /// The code given (normalised).
        code: String,
    },
    /// A resume (or a summary) with another token than the class's.
    #[error("wrong teacher token")]
    WrongToken,
    /// A teacher command with another token than the class's.
    #[error("only the teacher can do that (wrong token)")]
    NotTeacher,
    /// A nickname over the limit.
    #[error("a nickname of at most {MAX_NICKNAME_CHARS} characters")]
    NicknameTooLong,
    /// A nickname with control characters.
    #[error("a nickname without control characters")]
    NicknameControl,
    /// The class has its most students.
    #[error("this class is full ({max} students): ask your teacher")]
    ClassFull {
        /// The room's limit.
        max: usize,
    },
    /// An answer from a connection in no class.
    #[error("join a class before answering")]
    NotJoined,
    /// A teacher command from a connection in no class.
    #[error("not in a class")]
    NotInClass,
    /// The sender's class was ended.
    #[error("the class has ended")]
    Ended,
    /// `goto` past the lesson's end.
    #[error("no step {}: the lesson has {steps}", step + 1)]
    NoSuchStep {
        /// The step asked for (0-based).
        step: usize,
        /// Steps in the lesson.
        steps: usize,
    },
    /// `close` with no open question.
    #[error("no open question to close")]
    NothingToClose,
    /// `reveal` with no question asked.
    #[error("no question to reveal")]
    NothingToReveal,
    /// The answer itself is refused.
    #[error(transparent)]
    Answer(#[from] AnswerRefusal),
}

/// Why a student's answer is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerRefusal {
    /// The answer is for another step than the class's.
    #[error("stale step: the class is on step {}, not {}", on + 1, sent + 1)]
    StaleStep {
        /// The class's step (0-based).
        on: usize,
        /// The answer's step (0-based).
        sent: usize,
    },
    /// The step asks nothing.
    #[error("this step asks no question")]
    NoQuestion,
    /// The question no longer takes answers.
    #[error("the question is closed")]
    Closed,
    /// A node for a value question.
    #[error("this question wants a value, not a node")]
    WantsValue,
    /// A value for a node question.
    #[error("this question wants a node, not a value")]
    WantsNode,
    /// A node path over the limit.
    #[error("a path of {moves} moves is too long")]
    PathTooLong {
        /// Its moves.
        moves: usize,
    },
    /// A path naming no node of the step's tree.
    #[error("no node `{}` in this step's tree", node_text(path))]
    NoSuchNode {
        /// The path's moves.
        path: Vec<String>,
    },
    /// A typed value over the limit.
    #[error("a value of at most {MAX_VALUE_CHARS} characters")]
    ValueTooLong,
    /// A typed value that is no number.
    #[error("`{}` is not a number", text.escape_default())]
    NotANumber {
        /// The value, trimmed.
        text: String,
    },
}
