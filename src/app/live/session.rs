//! What a device knows of its live class, updated from the server's
//! messages: plain state and decisions, unit-tested without a socket or
//! a window. The window asks it what to show and turns its
//! [`SessionEffect`]s into lesson moves (open the lesson, go to a step).

use crate::live::protocol::{
    ClientMsg, LiveAnswer, NodeCount, Phase, QuestionSummary, RoomState, ServerMsg, ValueCount,
};

/// Who this device is in the room.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// The projector: moves the class, sees the tallies.
    Teacher {
        /// The secret token (`None` until `Created`).
        token: Option<String>,
    },
    /// A student's device.
    Student {
        /// The key to rejoin with (`None` until `Joined`).
        key: Option<String>,
        /// The optional nickname sent when joining.
        nickname: Option<String>,
    },
}

/// The current question's tally, as the teacher sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// The step it is for.
    pub step: usize,
    /// Nodes picked, most first.
    pub nodes: Vec<NodeCount>,
    /// Values typed, most first.
    pub values: Vec<ValueCount>,
    /// Students who answered.
    pub answered: usize,
    /// Students connected.
    pub joined: usize,
}

/// A student's own verdict, as the server judged it with the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnVerdict {
    /// Whether they answered at all.
    pub answered: bool,
    /// Right or wrong.
    pub correct: bool,
    /// One line.
    pub headline: String,
    /// The engine's reason.
    pub explanation: Vec<String>,
}

/// The share right after a reveal (teacher).
#[derive(Clone, Debug, PartialEq)]
pub struct ShareRight {
    /// The engine's answer in words.
    pub answer: String,
    /// Students who answered.
    pub answered: usize,
    /// Of them, right.
    pub right: usize,
}

impl ShareRight {
    /// "7 of 9 right (78%)".
    pub fn text(&self) -> String {
        let pct = (100.0 * self.right as f64 / self.answered.max(1) as f64).round();
        format!("{} of {} right ({pct}%)", self.right, self.answered)
    }
}

/// What the window must do after a message.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionEffect {
    /// Play this lesson (its file's name and text).
    OpenLesson {
        /// The lesson's name.
        name: String,
        /// Its text.
        text: String,
    },
    /// Show step `k` (the class moved).
    GoToStep(usize),
    /// The answer is revealed: show it on the tree.
    Reveal,
}

/// A device's live class.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveSession {
    /// Teacher or student.
    pub role: Role,
    /// The room's join code (known once created or joined).
    pub code: Option<String>,
    /// The room as last heard.
    pub state: Option<RoomState>,
    /// Teacher: the current question's answers.
    pub tally: Option<Tally>,
    /// Student: the answer the server holds for the current step.
    pub my_answer: Option<LiveAnswer>,
    /// Student: the verdict after the reveal.
    pub verdict: Option<OwnVerdict>,
    /// Teacher: the share right after the reveal.
    pub share: Option<ShareRight>,
    /// Teacher: every question's tally (after End).
    pub summary: Vec<QuestionSummary>,
    /// The last refusal or connection trouble, for the status line.
    pub notice: Option<String>,
    /// True once the room ended.
    pub ended: bool,
}

impl LiveSession {
    /// A teacher about to create a room.
    pub fn teacher() -> LiveSession {
        LiveSession::new(Role::Teacher { token: None }, None)
    }

    /// A student about to join room `code`.
    pub fn student(code: &str, nickname: Option<String>) -> LiveSession {
        let code = code.trim().to_ascii_uppercase();
        LiveSession::new(
            Role::Student {
                key: None,
                nickname,
            },
            Some(code),
        )
    }

    fn new(role: Role, code: Option<String>) -> LiveSession {
        LiveSession {
            role,
            code,
            state: None,
            tally: None,
            my_answer: None,
            verdict: None,
            share: None,
            summary: Vec::new(),
            notice: None,
            ended: false,
        }
    }

    /// Whether this device is the teacher's.
    pub fn is_teacher(&self) -> bool {
        matches!(self.role, Role::Teacher { .. })
    }

    fn token(&self) -> Option<String> {
        match &self.role {
            Role::Teacher { token } => token.clone(),
            Role::Student { .. } => None,
        }
    }

    /// The first message after (re)connecting: create the room, resume
    /// it, or join (with the rejoin key once there is one).
    pub fn hello(&self, lesson: &str) -> ClientMsg {
        match (&self.role, &self.code) {
            (Role::Teacher { token: Some(t) }, Some(code)) => ClientMsg::Resume {
                code: code.clone(),
                token: t.clone(),
            },
            (Role::Teacher { .. }, _) => ClientMsg::Create {
                lesson: lesson.to_string(),
            },
            (Role::Student { key, nickname }, code) => ClientMsg::Join {
                code: code.clone().unwrap_or_default(),
                nickname: nickname.clone(),
                student: key.clone(),
            },
        }
    }

    /// The step the class is on.
    pub fn step(&self) -> Option<usize> {
        self.state.as_ref().map(|s| s.step)
    }

    /// The question's phase.
    pub fn phase(&self) -> Phase {
        self.state.as_ref().map_or(Phase::NoQuestion, |s| s.phase)
    }

    /// Whether a student may answer (or change the answer) now.
    pub fn may_answer(&self) -> bool {
        !self.is_teacher() && !self.ended && self.phase() == Phase::Open
    }

    /// A student's answer to the current step (`None` when answering is
    /// not open: the server would refuse it anyway).
    pub fn answer(&self, answer: LiveAnswer) -> Option<ClientMsg> {
        let step = self.step()?;
        self.may_answer()
            .then_some(ClientMsg::Answer { step, answer })
    }

    /// A teacher's command (`None` before the room exists).
    pub fn command(&self, what: TeacherCommand) -> Option<ClientMsg> {
        let token = self.token()?;
        Some(match what {
            TeacherCommand::Goto(step) => ClientMsg::Goto { token, step },
            TeacherCommand::Close => ClientMsg::Close { token },
            TeacherCommand::Reveal => ClientMsg::Reveal { token },
            TeacherCommand::End => ClientMsg::End { token },
        })
    }

    /// Takes one server message in.
    pub fn apply(&mut self, msg: ServerMsg) -> Vec<SessionEffect> {
        let mut effects = Vec::new();
        match msg {
            ServerMsg::Created {
                state,
                token,
                lesson_text,
            } => {
                self.role = Role::Teacher { token: Some(token) };
                self.code = Some(state.code.clone());
                effects.push(SessionEffect::OpenLesson {
                    name: state.lesson.clone(),
                    text: lesson_text,
                });
                self.take_state(state, &mut effects, true);
            }
            ServerMsg::Joined {
                state,
                student,
                lesson_text,
                answer,
            } => {
                if let Role::Student { key, .. } = &mut self.role {
                    *key = Some(student);
                }
                self.code = Some(state.code.clone());
                effects.push(SessionEffect::OpenLesson {
                    name: state.lesson.clone(),
                    text: lesson_text,
                });
                self.take_state(state, &mut effects, true);
                self.my_answer = answer;
            }
            ServerMsg::State { state } => self.take_state(state, &mut effects, false),
            ServerMsg::Accepted { step, answer } => {
                if self.step() == Some(step) {
                    self.my_answer = Some(answer);
                    self.notice = None;
                }
            }
            ServerMsg::Tally {
                step,
                nodes,
                values,
                answered,
                joined,
            } => {
                if self.step() == Some(step) {
                    // The counts travel with the tally (the room's state
                    // is sent again only when it moves).
                    if let Some(st) = self.state.as_mut() {
                        st.answered = answered;
                        st.joined = joined;
                    }
                    self.tally = Some(Tally {
                        step,
                        nodes,
                        values,
                        answered,
                        joined,
                    });
                }
            }
            ServerMsg::Verdict {
                step,
                answered,
                correct,
                headline,
                explanation,
            } => {
                if self.step() == Some(step) {
                    self.verdict = Some(OwnVerdict {
                        answered,
                        correct,
                        headline,
                        explanation,
                    });
                    effects.push(SessionEffect::Reveal);
                }
            }
            ServerMsg::Revealed {
                step,
                answer,
                answered,
                right,
            } => {
                if self.step() == Some(step) {
                    self.share = Some(ShareRight {
                        answer,
                        answered,
                        right,
                    });
                    effects.push(SessionEffect::Reveal);
                }
            }
            ServerMsg::Summary { questions } => self.summary = questions,
            ServerMsg::Ended => {
                self.ended = true;
                self.notice = Some("the class has ended".into());
            }
            ServerMsg::Rejected { reason } => self.notice = Some(reason),
        }
        effects
    }

    /// A new room state: a step change clears the step's answers and
    /// verdicts and moves the lesson (`first`: the lesson was just opened,
    /// so it goes to the room's step whatever it is).
    fn take_state(&mut self, state: RoomState, effects: &mut Vec<SessionEffect>, first: bool) {
        let moved = self.step() != Some(state.step);
        if moved || first {
            if moved {
                self.tally = None;
                self.my_answer = None;
                self.verdict = None;
                self.share = None;
            }
            effects.push(SessionEffect::GoToStep(state.step));
        }
        if state.phase == Phase::Open {
            // A re-opened question (the teacher came back to the step)
            // starts over.
            self.verdict = None;
            self.share = None;
        }
        if let Some(t) = self.tally.as_mut() {
            t.joined = state.joined;
            t.answered = state.answered;
        }
        self.state = Some(state);
    }

    /// The count of students who picked the node at `path`.
    pub fn picks_of(&self, path: &[String]) -> usize {
        self.tally.as_ref().map_or(0, |t| {
            t.nodes
                .iter()
                .find(|n| n.path == path)
                .map_or(0, |n| n.count)
        })
    }

    /// The status line: code, counts and the phase in words.
    pub fn status_line(&self) -> String {
        let Some(s) = &self.state else {
            return match &self.code {
                Some(c) => format!("joining class {c}…"),
                None => "starting a live class…".into(),
            };
        };
        let phase = match s.phase {
            Phase::NoQuestion => "no question on this step",
            Phase::Open => "answers open",
            Phase::Closed => "answers closed",
            Phase::Revealed => "answer revealed",
        };
        format!(
            "class {} · step {} / {} · {} joined · {} answered · {phase}",
            s.code,
            s.step + 1,
            s.steps,
            s.joined,
            s.answered
        )
    }
}

/// What the teacher's buttons send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeacherCommand {
    /// Show step k.
    Goto(usize),
    /// Stop taking answers.
    Close,
    /// Show the answer everywhere.
    Reveal,
    /// End the class.
    End,
}

/// The summary as CSV (one row per question; cells quoted).
pub fn summary_csv(rows: &[QuestionSummary]) -> String {
    fn cell(s: &str) -> String {
        format!("\"{}\"", s.replace('"', "\"\""))
    }
    let mut out = String::from("step,question,answer,answered,right,share_right,top_answers\n");
    for r in rows {
        let share = if r.answered == 0 {
            String::new()
        } else {
            format!("{:.3}", r.right as f64 / r.answered as f64)
        };
        out.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            r.step + 1,
            cell(&r.prompt),
            cell(&r.answer),
            r.answered,
            r.right,
            share,
            cell(&r.top.join("; "))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(step: usize, phase: Phase) -> RoomState {
        RoomState {
            code: "K7P2QX".into(),
            lesson: "lessons/x.lesson.toml".into(),
            steps: 5,
            step,
            phase,
            joined: 3,
            answered: 1,
            rejected: 0,
        }
    }

    #[test]
    fn a_student_follows_the_class_and_keeps_its_key_for_rejoining() {
        let mut s = LiveSession::student(" k7p2qx ", None);
        assert_eq!(
            s.hello("ignored"),
            ClientMsg::Join {
                code: "K7P2QX".into(),
                nickname: None,
                student: None
            }
        );
        let fx = s.apply(ServerMsg::Joined {
            state: state(2, Phase::Open),
            student: "abc".into(),
            lesson_text: "text".into(),
            answer: Some(LiveAnswer::Value("3".into())),
        });
        assert!(matches!(fx[0], SessionEffect::OpenLesson { .. }));
        assert_eq!(fx[1], SessionEffect::GoToStep(2));
        assert_eq!(s.my_answer, Some(LiveAnswer::Value("3".into())));
        assert!(matches!(s.hello(""), ClientMsg::Join { student: Some(k), .. } if k == "abc"));
        assert!(s.answer(LiveAnswer::Value("4".into())).is_some());
        // The teacher closes: no more answers; moves on: the answer goes.
        s.apply(ServerMsg::State {
            state: state(2, Phase::Closed),
        });
        assert!(s.answer(LiveAnswer::Value("4".into())).is_none());
        let fx = s.apply(ServerMsg::State {
            state: state(3, Phase::Open),
        });
        assert_eq!(fx, vec![SessionEffect::GoToStep(3)]);
        assert_eq!(s.my_answer, None);
    }

    #[test]
    fn a_tally_carries_the_counts_to_the_status_line() {
        let mut t = LiveSession::teacher();
        t.apply(ServerMsg::State {
            state: state(1, Phase::Open),
        });
        t.apply(ServerMsg::Tally {
            step: 1,
            nodes: vec![],
            values: vec![],
            answered: 7,
            joined: 9,
        });
        assert!(
            t.status_line().contains("9 joined · 7 answered"),
            "{}",
            t.status_line()
        );
    }

    #[test]
    fn a_verdict_for_another_step_is_ignored() {
        let mut s = LiveSession::student("K7P2QX", None);
        s.apply(ServerMsg::State {
            state: state(1, Phase::Revealed),
        });
        let fx = s.apply(ServerMsg::Verdict {
            step: 0,
            answered: true,
            correct: true,
            headline: "Right".into(),
            explanation: vec![],
        });
        assert!(fx.is_empty());
        assert_eq!(s.verdict, None);
    }

    #[test]
    fn teacher_commands_need_the_token_from_created() {
        let mut t = LiveSession::teacher();
        assert_eq!(t.command(TeacherCommand::Reveal), None);
        t.apply(ServerMsg::Created {
            state: state(0, Phase::NoQuestion),
            token: "secret".into(),
            lesson_text: String::new(),
        });
        assert_eq!(
            t.command(TeacherCommand::Goto(1)),
            Some(ClientMsg::Goto {
                token: "secret".into(),
                step: 1
            })
        );
        assert!(matches!(t.hello(""), ClientMsg::Resume { .. }));
    }

    #[test]
    fn the_summary_csv_quotes_every_text_cell() {
        let csv = summary_csv(&[QuestionSummary {
            step: 2,
            prompt: "Which \"node\", then?".into(),
            answer: "the node b".into(),
            answered: 4,
            right: 3,
            top: vec!["b: 3".into(), "c: 1".into()],
        }]);
        let row = csv.lines().nth(1).unwrap();
        assert_eq!(
            row,
            "3,\"Which \"\"node\"\", then?\",\"the node b\",4,3,0.750,\"b: 3; c: 1\""
        );
        assert_eq!(
            ShareRight {
                answer: String::new(),
                answered: 4,
                right: 3
            }
            .text(),
            "3 of 4 right (75%)"
        );
    }
}
