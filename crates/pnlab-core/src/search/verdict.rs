//! What a run concluded, as typed words: the `outcome`, `answer` and
//! `stop_reason` of `pnlab solve --json` (docs/cli.md), and the question
//! asked, parsed once from the words every front end accepts.
//!
//! These were strings compared by text in several layers ("unknown",
//! "disproved"); as enums a misspelling is a compile error, and serde
//! writes the very words the JSON contract names.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::{Goal, Question, QuestionKind, Status, StopReason};

/// Whether the run answered its question (`outcome`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunOutcome {
    /// The attacker's question is answered yes.
    Proved,
    /// The attacker's question is answered no.
    Disproved,
    /// No answer: the run stopped (or was stopped) before one.
    Unknown,
}

impl RunOutcome {
    /// The JSON word.
    pub fn name(self) -> &'static str {
        match self {
            RunOutcome::Proved => "proved",
            RunOutcome::Disproved => "disproved",
            RunOutcome::Unknown => "unknown",
        }
    }

    /// Proved or disproved.
    pub fn is_answered(self) -> bool {
        self != RunOutcome::Unknown
    }
}

impl From<Status> for RunOutcome {
    fn from(status: Status) -> RunOutcome {
        match status {
            Status::Proved => RunOutcome::Proved,
            Status::Disproved => RunOutcome::Disproved,
            Status::Running | Status::Unknown(_) => RunOutcome::Unknown,
        }
    }
}

/// The answer in words (`answer`): the outcome read against the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// The side to move wins.
    Win,
    /// The side to move does not win (a draw or a loss).
    NotWin,
    /// The side to move at least draws.
    NotLose,
    /// The side to move loses.
    Loss,
    /// The attacker's score reaches the threshold.
    AtLeast,
    /// The attacker's score stays below the threshold.
    LessThan,
    /// The exact score was found (`--question score`; the value is in
    /// the record's `score`).
    Score,
    /// No answer.
    Unknown,
}

impl Answer {
    /// The answer `question` gets from a run that ended with `status`.
    pub fn of(question: &Question, status: Status) -> Answer {
        match (question.goal, status) {
            (Goal::Win, Status::Proved) => Answer::Win,
            (Goal::Win, Status::Disproved) => Answer::NotWin,
            (Goal::NotLose, Status::Proved) => Answer::NotLose,
            (Goal::NotLose, Status::Disproved) => Answer::Loss,
            (Goal::AtLeast(_), Status::Proved) => Answer::AtLeast,
            (Goal::AtLeast(_), Status::Disproved) => Answer::LessThan,
            _ => Answer::Unknown,
        }
    }

    /// The JSON word.
    pub fn name(self) -> &'static str {
        match self {
            Answer::Win => "win",
            Answer::NotWin => "not-win",
            Answer::NotLose => "not-lose",
            Answer::Loss => "loss",
            Answer::AtLeast => "at-least",
            Answer::LessThan => "less-than",
            Answer::Score => "score",
            Answer::Unknown => "unknown",
        }
    }
}

/// Why a run ended, as its record says it (`stop_reason`): solved, the
/// certificate check's verdict, or the search's own [`StopReason`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunEnd {
    /// Proved or disproved.
    Solved,
    /// Solved, and the answer's certificate passed its check (`--certify`).
    Certified,
    /// Solved, but the certificate failed its check: reported as no answer.
    Uncertified,
    /// Still running (a record taken from a search that was not stopped).
    Running,
    /// Stopped without an answer.
    Stopped(StopReason),
}

impl RunEnd {
    /// The JSON word.
    pub fn name(self) -> &'static str {
        match self {
            RunEnd::Solved => "solved",
            RunEnd::Certified => "certified",
            RunEnd::Uncertified => "uncertified",
            RunEnd::Running => "running",
            RunEnd::Stopped(r) => r.name(),
        }
    }
}

impl From<Status> for RunEnd {
    fn from(status: Status) -> RunEnd {
        match status {
            Status::Proved | Status::Disproved => RunEnd::Solved,
            Status::Running => RunEnd::Running,
            Status::Unknown(r) => RunEnd::Stopped(r),
        }
    }
}

impl Serialize for RunEnd {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl fmt::Display for RunEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for RunOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A question word that is none of `win`, `not-lose`, `score`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("question {given:?}: expected \"win\", \"not-lose\" or \"score\"")]
pub struct UnknownQuestion {
    /// The word given.
    pub given: String,
}

impl QuestionKind {
    /// Every question, in the order the front ends list them.
    pub const ALL: [QuestionKind; 3] = [
        QuestionKind::Win,
        QuestionKind::NotLose,
        QuestionKind::Score,
    ];

    /// The word of the command line and the JSON record.
    pub fn name(self) -> &'static str {
        match self {
            QuestionKind::Win => "win",
            QuestionKind::NotLose => "not-lose",
            QuestionKind::Score => "score",
        }
    }
}

impl FromStr for QuestionKind {
    type Err = UnknownQuestion;

    /// `win`, `not-lose` (also `not_lose`, Python's spelling of a
    /// keyword-like word) or `score`.
    fn from_str(s: &str) -> Result<QuestionKind, UnknownQuestion> {
        match s {
            "win" => Ok(QuestionKind::Win),
            "not-lose" | "not_lose" => Ok(QuestionKind::NotLose),
            "score" => Ok(QuestionKind::Score),
            other => Err(UnknownQuestion {
                given: other.to_string(),
            }),
        }
    }
}

impl fmt::Display for QuestionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;

    #[test]
    fn question_words_round_trip_and_match_serde() {
        for q in QuestionKind::ALL {
            assert_eq!(q.name().parse::<QuestionKind>(), Ok(q));
            assert_eq!(serde_json::to_value(q).unwrap(), q.name());
        }
        assert_eq!(
            "not_lose".parse::<QuestionKind>(),
            Ok(QuestionKind::NotLose)
        );
        let e = "draw".parse::<QuestionKind>().unwrap_err();
        assert!(e.to_string().contains("\"draw\""), "{e}");
    }

    #[test]
    fn serde_writes_the_names() {
        for s in [
            Status::Proved,
            Status::Disproved,
            Status::Running,
            Status::Unknown(StopReason::TimeLimit),
        ] {
            let o = RunOutcome::from(s);
            assert_eq!(serde_json::to_value(o).unwrap(), o.name());
            let e = RunEnd::from(s);
            assert_eq!(serde_json::to_value(e).unwrap(), e.name());
        }
        assert_eq!(
            RunEnd::from(Status::Unknown(StopReason::MaxNodes)).name(),
            "max-nodes"
        );
        let q = Question {
            attacker: Player::First,
            goal: Goal::NotLose,
        };
        for (status, word) in [
            (Status::Proved, "not-lose"),
            (Status::Disproved, "loss"),
            (Status::Unknown(StopReason::Cancelled), "unknown"),
        ] {
            let a = Answer::of(&q, status);
            assert_eq!(a.name(), word);
            assert_eq!(serde_json::to_value(a).unwrap(), word);
        }
    }
}
