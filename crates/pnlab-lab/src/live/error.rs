//! The errors of the live-class server's parts that are not a refused
//! frame (see [`super::refusal`]): offering the lessons, starting the
//! server, the program client, the load bench, and the registry's
//! invariants that the tests and the fuzz check.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use pnlab_core::files::IoError;

use crate::lesson::LessonError;

use super::rooms::Role;

/// A lesson the server cannot offer or play.
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    /// `--lessons DIR` cannot be listed.
    #[error("--lessons {}: cannot read the folder: {source}", dir.display())]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// `--lessons DIR` holds no lesson file.
    #[error("--lessons {}: no *.lesson.toml file in the folder", dir.display())]
    NoLessons {
        /// The folder.
        dir: PathBuf,
    },
    /// A lesson file cannot be read.
    #[error("{}: cannot read the file: {}", .0.path.display(), .0.source)]
    Unreadable(IoError),
    /// A lesson file does not load or a step does not play.
    #[error(transparent)]
    Lesson(#[from] LessonError),
    /// Two lessons under one name (a folder's file named as a bundled one).
    #[error("--lessons {}: `{name}` twice", dir.display())]
    Twice {
        /// The folder.
        dir: PathBuf,
        /// The name.
        name: String,
    },
    /// No lesson has this name.
    #[error("no lesson `{name}` on this server")]
    NoSuchLesson {
        /// The name asked for.
        name: String,
    },
}

/// The server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The page's folder holds no `index.html`.
    #[error("--dist {}: no index.html in that folder; build the web page first with `scripts/web.sh` (it writes web/dist), or give --dist the folder that holds it", dist.display())]
    NoPage {
        /// The folder given.
        dist: PathBuf,
    },
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

/// The program client's connection failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The WebSocket cannot be opened.
    #[error("cannot connect to {url}: {source}")]
    Connect {
        /// The URL.
        url: String,
        /// The WebSocket library's reason.
        source: Box<tokio_tungstenite::tungstenite::Error>,
    },
    /// A frame cannot be sent.
    #[error("cannot send: {0}")]
    Send(Box<tokio_tungstenite::tungstenite::Error>),
}

/// The load bench did not run through.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The bench's runtime cannot start.
    #[error("cannot start the bench's threads: {0}")]
    Runtime(std::io::Error),
    /// The bench's stand-in page cannot be written.
    #[error(transparent)]
    Page(#[from] IoError),
    /// The server does not start.
    #[error(transparent)]
    Server(#[from] ServerError),
    /// A client's connection failed.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The bench's lesson does not play.
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
    /// The bench's lesson asks no value question.
    #[error("{lesson} asks no value question")]
    NoValueQuestion {
        /// The lesson.
        lesson: &'static str,
    },
    /// The server closed a connection the bench waited on.
    #[error("the connection closed while waiting for {what}")]
    Closed {
        /// The message awaited.
        what: &'static str,
    },
    /// A message did not come in time.
    #[error("no {what} within {limit:?}")]
    Timeout {
        /// The message awaited.
        what: &'static str,
        /// How long the bench waited.
        limit: Duration,
    },
    /// The room vanished before the bench measured it.
    #[error("the room is gone")]
    RoomGone,
    /// A simulated student's connection is missing.
    #[error("a student did not join")]
    StudentMissing,
    /// A simulated student's task failed.
    #[error("a simulated student's task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
    /// The handshake gate was closed.
    #[error("the handshake gate closed: {0}")]
    Gate(#[from] tokio::sync::AcquireError),
}

/// A broken invariant of the rooms' registry (a bug, found by the tests
/// or the fuzz).
#[derive(Debug, thiserror::Error)]
pub enum BrokenInvariant {
    /// More rooms than the limit.
    #[error("{0} rooms open")]
    TooManyRooms(usize),
    /// A room filed under another code than its own.
    #[error("room {code} calls itself {own}")]
    MisfiledRoom {
        /// The registry's key.
        code: String,
        /// The room's own code.
        own: String,
    },
    /// A room past its lesson's last step.
    #[error("room {code} on step {step}")]
    StepOutOfRange {
        /// The room.
        code: String,
        /// Its step (0-based).
        step: usize,
    },
    /// A phase that disagrees with whether the step asks.
    #[error("room {code}: phase {phase:?} on step {step}")]
    PhaseMismatch {
        /// The room.
        code: String,
        /// Its phase.
        phase: super::protocol::Phase,
        /// Its step (0-based).
        step: usize,
    },
    /// More students than the limit.
    #[error("room {code} has {students} students")]
    TooManyStudents {
        /// The room.
        code: String,
        /// Its students.
        students: usize,
    },
    /// The room's teacher connection does not teach it.
    #[error("room {code}: its teacher connection is {role:?}")]
    TeacherRole {
        /// The room.
        code: String,
        /// The connection's role (`None`: no such connection).
        role: Option<Role>,
    },
    /// A student's connection is not that student in the room.
    #[error("room {code}: a student's connection is {role:?}")]
    StudentRole {
        /// The room.
        code: String,
        /// The connection's role (`None`: no such connection).
        role: Option<Role>,
    },
    /// An answer stored for a step that asks nothing.
    #[error("room {code}: an answer to step {step}, which asks nothing")]
    AnswerWithoutQuestion {
        /// The room.
        code: String,
        /// The step (0-based).
        step: usize,
    },
    /// A stored answer the room would refuse.
    #[error("room {code}: a stored answer {answer:?} the room would refuse")]
    RefusableAnswer {
        /// The room.
        code: String,
        /// The answer.
        answer: super::protocol::LiveAnswer,
    },
    /// A connection teaching a room whose teacher is another.
    #[error("connection {conn} thinks it teaches {code}")]
    NotItsTeacher {
        /// The connection.
        conn: super::room::ConnId,
        /// The room it thinks it teaches.
        code: String,
    },
    /// A connection in a room that does not know it.
    #[error("connection {conn} thinks it is in {code}")]
    NotItsStudent {
        /// The connection.
        conn: super::room::ConnId,
        /// The room it thinks it is in.
        code: String,
    },
}
