//! The live class's messages: JSON text frames over one WebSocket
//! (`/live`), tagged by `"type"`. Every field a client sends is checked
//! by the server (see `docs/live-class.md`); nothing a client sends is
//! trusted, and only the teacher's token moves the class.
//!
//! A node travels as its path of moves from the root (`["b", "e"]`; `[]`
//! is the root), never as a search-internal id: every device plays the
//! same lesson deterministically, so a path names the same node
//! everywhere.

use serde::{Deserialize, Serialize};

/// The largest text frame the server reads from a student (bytes).
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024;

/// The longest nickname (characters); longer ones are refused.
pub const MAX_NICKNAME_CHARS: usize = 24;

/// The longest typed value answer (characters).
pub const MAX_VALUE_CHARS: usize = 32;

/// The longest node path in an answer (moves).
pub const MAX_PATH_MOVES: usize = 256;

/// A student's answer to the current question.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LiveAnswer {
    /// A node, by its moves from the root.
    Node(Vec<String>),
    /// A typed value (`3`, `inf`, `∞`).
    Value(String),
}

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Opens a room on a lesson the server offers (its name as
    /// `GET /lessons` lists it); the sender becomes the teacher.
    Create {
        /// The lesson's name.
        lesson: String,
    },
    /// The teacher's device reconnects to its room.
    Resume {
        /// The room's join code.
        code: String,
        /// The teacher token `Created` gave.
        token: String,
    },
    /// A student joins (or, with `student`, rejoins after a dropped
    /// connection and keeps their answers).
    Join {
        /// The room's join code.
        code: String,
        /// An optional nickname (at most [`MAX_NICKNAME_CHARS`]).
        #[serde(default)]
        nickname: Option<String>,
        /// The key `Joined` gave this student before.
        #[serde(default)]
        student: Option<String>,
    },
    /// A student's answer (or a changed one) to step `step`'s question.
    Answer {
        /// The step the answer is for (a stale step is refused).
        step: usize,
        /// The answer.
        answer: LiveAnswer,
    },
    /// Teacher: show step `step` to the class (its question opens).
    Goto {
        /// The teacher token.
        token: String,
        /// 0-based step.
        step: usize,
    },
    /// Teacher: stop taking answers to the current question.
    Close {
        /// The teacher token.
        token: String,
    },
    /// Teacher: show every student whether they were right, and why.
    Reveal {
        /// The teacher token.
        token: String,
    },
    /// Teacher: end the class; the room is forgotten.
    End {
        /// The teacher token.
        token: String,
    },
}

/// Where the current step's question stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The step asks nothing.
    NoQuestion,
    /// Answers are taken (and may be changed).
    Open,
    /// Answers are no longer taken; not yet revealed.
    Closed,
    /// Everyone has seen the answer.
    Revealed,
}

/// The room as everyone sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomState {
    /// The join code.
    pub code: String,
    /// The lesson's name.
    pub lesson: String,
    /// Steps in the lesson.
    pub steps: usize,
    /// The step the class is on (0-based).
    pub step: usize,
    /// The question's phase.
    pub phase: Phase,
    /// Students connected now.
    pub joined: usize,
    /// Students who answered the current question.
    pub answered: usize,
    /// Messages the room refused so far (malformed, stale, forged,
    /// flooding): counted, never applied.
    pub rejected: u64,
}

/// How many picked one node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeCount {
    /// The node's moves from the root.
    pub path: Vec<String>,
    /// Students who picked it.
    pub count: usize,
}

/// How many typed one value (as typed, trimmed; equal numbers merged).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueCount {
    /// The value as the first student typed it.
    pub value: String,
    /// Students who typed it.
    pub count: usize,
}

/// One question's anonymous tally, for the end-of-class summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionSummary {
    /// The step (0-based).
    pub step: usize,
    /// The question's prompt.
    pub prompt: String,
    /// The engine's answer in words.
    pub answer: String,
    /// Students who answered.
    pub answered: usize,
    /// Of them, right.
    pub right: usize,
    /// The most picked nodes or values, most first, as `text: count`.
    pub top: Vec<String>,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// To the teacher: the room exists. Keep `token` secret.
    Created {
        /// The room.
        state: RoomState,
        /// The teacher token (unguessable).
        token: String,
        /// The lesson file's text (the teacher's device plays it).
        lesson_text: String,
    },
    /// To a student: they are in.
    Joined {
        /// The room.
        state: RoomState,
        /// The key to rejoin with after a dropped connection.
        student: String,
        /// The lesson file's text (the device plays it).
        lesson_text: String,
        /// Their answer to the current question, when rejoining.
        answer: Option<LiveAnswer>,
    },
    /// To everyone: the room changed (step, phase, counts).
    State {
        /// The room.
        state: RoomState,
    },
    /// To a student: their answer was taken.
    Accepted {
        /// The step.
        step: usize,
        /// The answer as the server holds it.
        answer: LiveAnswer,
    },
    /// To the teacher: the current question's answers so far.
    Tally {
        /// The step.
        step: usize,
        /// Nodes picked, most first.
        nodes: Vec<NodeCount>,
        /// Values typed, most first.
        values: Vec<ValueCount>,
        /// Students who answered.
        answered: usize,
        /// Students connected.
        joined: usize,
    },
    /// To a student, on Reveal: their own verdict with the engine's reason.
    Verdict {
        /// The step.
        step: usize,
        /// Whether they answered at all.
        answered: bool,
        /// Right or wrong.
        correct: bool,
        /// "Right: …" / "Not …: …" / "No answer: …".
        headline: String,
        /// The engine's reason.
        explanation: Vec<String>,
    },
    /// To the teacher, on Reveal: the share right.
    Revealed {
        /// The step.
        step: usize,
        /// The engine's answer in words.
        answer: String,
        /// Students who answered.
        answered: usize,
        /// Of them, right.
        right: usize,
    },
    /// To the teacher on End (and on request): every question's tally.
    Summary {
        /// One row per question asked.
        questions: Vec<QuestionSummary>,
    },
    /// The room ended (or was forgotten after its idle time).
    Ended,
    /// A message was refused; the connection and the room go on.
    Rejected {
        /// Why, in words.
        reason: String,
    },
}

/// A text frame that is not a live-class message.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// Over [`MAX_MESSAGE_BYTES`].
    #[error("message of {bytes} bytes; at most {MAX_MESSAGE_BYTES}")]
    TooLarge {
        /// The frame's size.
        bytes: usize,
    },
    /// Not JSON, or not one of the messages (JSON's own words: what and where).
    #[error("not a live-class message: {0}")]
    Json(#[from] serde_json::Error),
}

impl ClientMsg {
    /// Reads one text frame; the error says what was wrong.
    pub fn parse(text: &str) -> Result<ClientMsg, ProtocolError> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(ProtocolError::TooLarge { bytes: text.len() });
        }
        Ok(serde_json::from_str(text)?)
    }

    /// The frame to send.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl ServerMsg {
    /// Reads one text frame from the server.
    pub fn parse(text: &str) -> Result<ServerMsg, ProtocolError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The frame to send.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_reads_back_as_written() {
        let m = ClientMsg::Answer {
            step: 3,
            answer: LiveAnswer::Node(vec!["b".into(), "e".into()]),
        };
        let text = m.to_text();
        assert_eq!(
            text,
            r#"{"type":"answer","step":3,"answer":{"node":["b","e"]}}"#
        );
        assert_eq!(ClientMsg::parse(&text).ok(), Some(m));
    }

    #[test]
    fn unknown_fields_types_and_oversized_frames_are_refused() {
        assert!(ClientMsg::parse(r#"{"type":"goto","token":"x","step":1,"extra":1}"#).is_err());
        assert!(ClientMsg::parse(r#"{"type":"promote"}"#).is_err());
        let big = format!(r#"{{"type":"create","lesson":"{}"}}"#, "a".repeat(5000));
        let e = ClientMsg::parse(&big).unwrap_err();
        assert!(matches!(e, ProtocolError::TooLarge { bytes } if bytes == big.len()));
        assert!(e.to_string().contains("bytes"));
    }
}
