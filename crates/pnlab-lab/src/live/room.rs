//! One live class: its lesson, step, question phase, students and their
//! answers. A plain state machine (no clock of its own, no network): the
//! registry ([`super::rooms`]) routes messages to it and sends what it
//! returns.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Instant;

use crate::lesson::question::{parse_number, Verdict};

use super::lessons::{PlayedLesson, StepQuestion};
use super::protocol::{
    LiveAnswer, Phase, QuestionSummary, RoomState, ServerMsg, MAX_PATH_MOVES, MAX_VALUE_CHARS,
};
use super::refusal::AnswerRefusal;
use super::tally::{tally, top};

/// A connection's number, given by the server.
pub type ConnId = u64;

/// Answers shown in a question's summary row.
pub const SUMMARY_TOP: usize = 5;

/// A student: known by their rejoin key, never by name.
#[derive(Clone, Debug)]
pub struct Student {
    /// The nickname they chose, if any (memory only, never written).
    pub nickname: Option<String>,
    /// Their connection now (`None` while dropped).
    pub conn: Option<ConnId>,
    /// Their answer per step, with the order it was first given in.
    pub answers: HashMap<usize, (LiveAnswer, u64)>,
}

/// One room.
pub struct Room {
    /// The join code.
    pub code: String,
    /// The teacher token (secret).
    pub token: String,
    /// The lesson, played.
    pub lesson: Arc<PlayedLesson>,
    /// The step the class is on.
    pub step: usize,
    /// The question's phase.
    pub phase: Phase,
    /// Students by rejoin key.
    pub students: HashMap<String, Student>,
    /// The teacher's connection now.
    pub teacher: Option<ConnId>,
    /// Steps whose question was opened (for the summary).
    pub asked: BTreeSet<usize>,
    /// Messages refused so far.
    pub rejected: u64,
    /// When a message last moved the room (for the idle timeout).
    pub last_active: Instant,
    /// Answers given so far (orders them).
    answer_seq: u64,
}

impl Room {
    /// A room on `lesson` at its first step.
    pub fn new(code: String, token: String, lesson: Arc<PlayedLesson>, now: Instant) -> Room {
        let mut r = Room {
            code,
            token,
            lesson,
            step: 0,
            phase: Phase::NoQuestion,
            students: HashMap::new(),
            teacher: None,
            asked: BTreeSet::new(),
            rejected: 0,
            last_active: now,
            answer_seq: 0,
        };
        r.goto(0);
        r
    }

    /// The current step's question.
    pub fn question(&self) -> Option<&StepQuestion> {
        self.lesson
            .questions
            .get(self.step)
            .and_then(Option::as_ref)
    }

    /// Students connected now.
    pub fn joined(&self) -> usize {
        self.students.values().filter(|s| s.conn.is_some()).count()
    }

    /// Students who answered the current step.
    pub fn answered(&self) -> usize {
        self.students
            .values()
            .filter(|s| s.answers.contains_key(&self.step))
            .count()
    }

    /// The room as everyone sees it.
    pub fn state(&self) -> RoomState {
        RoomState {
            code: self.code.clone(),
            lesson: self.lesson.name.clone(),
            steps: self.lesson.steps(),
            step: self.step,
            phase: self.phase,
            joined: self.joined(),
            answered: self.answered(),
            rejected: self.rejected,
        }
    }

    /// Every connection in the room: the teacher's first.
    pub fn connections(&self) -> Vec<ConnId> {
        self.teacher
            .into_iter()
            .chain(self.students.values().filter_map(|s| s.conn))
            .collect()
    }

    /// Moves the class to `step` (in range): its question opens.
    pub fn goto(&mut self, step: usize) {
        self.step = step;
        self.phase = if self.question().is_some() {
            self.asked.insert(step);
            Phase::Open
        } else {
            Phase::NoQuestion
        };
    }

    /// Checks a student's answer to the current question: `Err` says why
    /// it is refused. A value answer comes back trimmed.
    pub fn check_answer(
        &self,
        step: usize,
        answer: &LiveAnswer,
    ) -> Result<LiveAnswer, AnswerRefusal> {
        if step != self.step {
            return Err(AnswerRefusal::StaleStep {
                on: self.step,
                sent: step,
            });
        }
        let Some(q) = self.question() else {
            return Err(AnswerRefusal::NoQuestion);
        };
        if self.phase != Phase::Open {
            return Err(AnswerRefusal::Closed);
        }
        match answer {
            LiveAnswer::Node(path) => {
                if !q.wants_node() {
                    return Err(AnswerRefusal::WantsValue);
                }
                if path.len() > MAX_PATH_MOVES {
                    return Err(AnswerRefusal::PathTooLong { moves: path.len() });
                }
                if !q.knows(path) {
                    return Err(AnswerRefusal::NoSuchNode { path: path.clone() });
                }
                Ok(answer.clone())
            }
            LiveAnswer::Value(text) => {
                if q.wants_node() {
                    return Err(AnswerRefusal::WantsNode);
                }
                let t = text.trim();
                if t.chars().count() > MAX_VALUE_CHARS {
                    return Err(AnswerRefusal::ValueTooLong);
                }
                if parse_number(t).is_none() {
                    return Err(AnswerRefusal::NotANumber {
                        text: t.to_string(),
                    });
                }
                Ok(LiveAnswer::Value(t.to_string()))
            }
        }
    }

    /// Takes student `key`'s (checked) answer to the current step.
    pub fn record_answer(&mut self, key: &str, answer: LiveAnswer) {
        self.answer_seq += 1;
        let (step, seq) = (self.step, self.answer_seq);
        if let Some(s) = self.students.get_mut(key) {
            let entry = s.answers.entry(step).or_insert((answer.clone(), seq));
            entry.0 = answer;
        }
    }

    /// The answers to `step` in the order first given.
    fn answers_to(&self, step: usize) -> Vec<&LiveAnswer> {
        let mut a: Vec<&(LiveAnswer, u64)> = self
            .students
            .values()
            .filter_map(|s| s.answers.get(&step))
            .collect();
        a.sort_by_key(|(_, seq)| *seq);
        a.into_iter().map(|(answer, _)| answer).collect()
    }

    /// The teacher's histogram of the current question.
    pub fn tally_msg(&self) -> ServerMsg {
        let (nodes, values) = tally(self.answers_to(self.step));
        ServerMsg::Tally {
            step: self.step,
            nodes,
            values,
            answered: self.answered(),
            joined: self.joined(),
        }
    }

    /// The engine's verdict on an answer to `q`.
    fn judge(q: &StepQuestion, answer: &LiveAnswer) -> Verdict {
        match answer {
            LiveAnswer::Node(path) => q.judge_node(path),
            LiveAnswer::Value(text) => q.judge_value(text),
        }
    }

    /// Reveals the current question: each connected student's verdict,
    /// then the share right for the teacher. Verdicts are computed once
    /// per distinct answer.
    pub fn reveal(&mut self) -> Vec<(ConnId, ServerMsg)> {
        self.phase = Phase::Revealed;
        let mut out = Vec::new();
        let Some(q) = self.question() else {
            return out;
        };
        let mut verdicts: HashMap<&LiveAnswer, Verdict> = HashMap::new();
        let (mut answered, mut right) = (0, 0);
        for s in self.students.values() {
            let given = s.answers.get(&self.step).map(|(a, _)| a);
            let verdict = given.map(|a| {
                verdicts
                    .entry(a)
                    .or_insert_with(|| Room::judge(q, a))
                    .clone()
            });
            if let Some(v) = &verdict {
                answered += 1;
                right += usize::from(v.correct);
            }
            if let Some(c) = s.conn {
                out.push((c, self.verdict_msg(q, verdict)));
            }
        }
        if let Some(t) = self.teacher {
            out.push((
                t,
                ServerMsg::Revealed {
                    step: self.step,
                    answer: q.question.answer_text(),
                    answered,
                    right,
                },
            ));
        }
        out
    }

    /// A student's verdict message (`None`: they did not answer).
    fn verdict_msg(&self, q: &StepQuestion, verdict: Option<Verdict>) -> ServerMsg {
        match verdict {
            Some(v) => ServerMsg::Verdict {
                step: self.step,
                answered: true,
                correct: v.correct,
                headline: v.headline,
                explanation: v.explanation,
            },
            None => ServerMsg::Verdict {
                step: self.step,
                answered: false,
                correct: false,
                headline: format!("No answer: the answer is {}.", q.question.answer_text()),
                explanation: q.question.reason.clone(),
            },
        }
    }

    /// Student `key`'s verdict on the current (revealed) question.
    pub fn verdict_for(&self, key: &str) -> Option<ServerMsg> {
        let q = self.question()?;
        let given = self.students.get(key)?.answers.get(&self.step);
        Some(self.verdict_msg(q, given.map(|(a, _)| Room::judge(q, a))))
    }

    /// Every question asked so far: its anonymous tally.
    pub fn summary(&self) -> Vec<QuestionSummary> {
        self.asked
            .iter()
            .filter_map(|&step| {
                let q = self.lesson.questions.get(step)?.as_ref()?;
                let answers = self.answers_to(step);
                let right = answers.iter().filter(|a| Room::judge(q, a).correct).count();
                let (nodes, values) = tally(answers.iter().copied());
                Some(QuestionSummary {
                    step,
                    prompt: q.question.prompt.clone(),
                    answer: q.question.answer_text(),
                    answered: answers.len(),
                    right,
                    top: top(&nodes, &values, SUMMARY_TOP),
                })
            })
            .collect()
    }

    /// The room's memory in bytes, counted from what it holds (the
    /// played lesson, shared by every room on it, is not counted): the
    /// students' records, keys, nicknames and answers.
    pub fn student_bytes(&self) -> usize {
        use std::mem::size_of;
        self.students
            .iter()
            .map(|(key, s)| {
                let answers: usize = s
                    .answers
                    .values()
                    .map(|(a, _)| {
                        size_of::<(usize, (LiveAnswer, u64))>()
                            + match a {
                                LiveAnswer::Node(p) => {
                                    p.iter().map(|m| size_of::<String>() + m.len()).sum()
                                }
                                LiveAnswer::Value(v) => v.len(),
                            }
                    })
                    .sum();
                size_of::<(String, Student)>()
                    + key.len()
                    + s.nickname.as_ref().map_or(0, String::len)
                    + answers
            })
            .sum()
    }
}
