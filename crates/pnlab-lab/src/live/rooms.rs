//! The live rooms of one server: the registry of rooms and connections,
//! and what each incoming frame does. Synchronous and clock-free (the
//! time is passed in), so tests and the fuzz drive it directly; the
//! server ([`super::server`]) only moves frames between it and the
//! sockets.
//!
//! Every frame is checked before it changes anything: its size, its
//! JSON, the sender's rate, the room, the teacher token, the step, the
//! node. A refused frame is answered with `Rejected` (once per run of
//! refusals, for a flood) and counted in its room's `rejected` (or the
//! server's, for a sender in no room); the room is left as it was.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::RngCore;

use super::codes::{new_code, new_secret, normalise_code, same_secret};
use super::error::BrokenInvariant;
use super::lessons::Catalogue;
use super::protocol::{ClientMsg, LiveAnswer, Phase, ServerMsg, MAX_NICKNAME_CHARS};
use super::rate::{Admit, Bucket, RateLimit};
use super::refusal::Refusal;
use super::room::{ConnId, Room, Student};
use super::tally::summary_csv;

/// The server's limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Rooms open at once.
    pub max_rooms: usize,
    /// Students in one room (a dropped student keeps their seat).
    pub max_students: usize,
    /// A room nobody moved for this long is forgotten.
    pub idle: Duration,
    /// Each connection's message rate.
    pub rate: RateLimit,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rooms: 100,
            max_students: 1000,
            idle: Duration::from_secs(3 * 60 * 60),
            rate: RateLimit::default(),
        }
    }
}

/// What a connection is in a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Not in a room.
    Outside,
    /// The teacher of a room.
    Teacher {
        /// The room's code.
        code: String,
    },
    /// A student of a room.
    Student {
        /// The room's code.
        code: String,
        /// The student's rejoin key.
        key: String,
    },
}

/// One open connection.
struct Conn {
    role: Role,
    bucket: Bucket,
}

/// Messages to send, and whether the sender's connection is dropped.
#[derive(Debug, Default)]
pub struct Outcome {
    /// (recipient, message), in order.
    pub messages: Vec<(ConnId, ServerMsg)>,
    /// The sender keeps flooding: close its connection.
    pub close: bool,
}

/// The rooms and connections of one server.
pub struct Rooms {
    catalogue: Arc<Catalogue>,
    limits: Limits,
    rooms: HashMap<String, Room>,
    conns: HashMap<ConnId, Conn>,
    rng: Box<dyn RngCore + Send>,
    /// Refusals from senders in no room.
    outside_rejected: u64,
    /// Every refusal, all rooms (ended ones too) and outside.
    rejected_total: u64,
}

impl Rooms {
    /// The rooms of a server, with codes and secrets from the
    /// operating system's random numbers.
    pub fn new(catalogue: Arc<Catalogue>, limits: Limits) -> Rooms {
        use rand::TryRngCore;
        Rooms::with_rng(catalogue, limits, Box::new(rand::rngs::OsRng.unwrap_err()))
    }

    /// The same with another generator (seeded, for tests and the fuzz).
    pub fn with_rng(
        catalogue: Arc<Catalogue>,
        limits: Limits,
        rng: Box<dyn RngCore + Send>,
    ) -> Rooms {
        Rooms {
            catalogue,
            limits,
            rooms: HashMap::new(),
            conns: HashMap::new(),
            rng,
            outside_rejected: 0,
            rejected_total: 0,
        }
    }

    /// The lessons offered.
    pub fn catalogue(&self) -> &Arc<Catalogue> {
        &self.catalogue
    }

    /// A new connection.
    pub fn connect(&mut self, conn: ConnId, now: Instant) {
        self.conns.insert(
            conn,
            Conn {
                role: Role::Outside,
                bucket: Bucket::new(&self.limits.rate, now),
            },
        );
    }

    /// Handles one text frame from `conn` at `now`.
    pub fn receive(&mut self, conn: ConnId, text: &str, now: Instant) -> Outcome {
        match self.admit(conn, now) {
            Err(o) => o,
            Ok(()) => match ClientMsg::parse(text) {
                Ok(msg) => self.handle(conn, msg, now),
                Err(e) => self.refuse(conn, e.into()),
            },
        }
    }

    /// Refuses a frame the server does not read at all (a binary frame),
    /// counted and rate-limited like the rest.
    pub fn receive_binary(&mut self, conn: ConnId, now: Instant) -> Outcome {
        match self.admit(conn, now) {
            Err(o) => o,
            Ok(()) => self.refuse(conn, Refusal::Binary),
        }
    }

    /// The rate limit: `Err` holds the refusal.
    fn admit(&mut self, conn: ConnId, now: Instant) -> Result<(), Outcome> {
        if !self.conns.contains_key(&conn) {
            self.connect(conn, now);
        }
        let limit = self.limits.rate;
        let c = self.conns.get_mut(&conn).expect("connected above");
        match c.bucket.admit(&limit, now) {
            Admit::Yes => Ok(()),
            Admit::Refuse { first } => {
                let mut o = self.refuse(conn, Refusal::SlowDown);
                if !first {
                    o.messages.clear();
                }
                Err(o)
            }
            Admit::Drop => {
                self.count_refusal(conn);
                Err(Outcome {
                    close: true,
                    ..rejected(conn, Refusal::Flooding)
                })
            }
        }
    }

    /// The room code `conn` is in.
    fn room_of(&self, conn: ConnId) -> Option<&str> {
        match &self.conns.get(&conn)?.role {
            Role::Outside => None,
            Role::Teacher { code } | Role::Student { code, .. } => Some(code),
        }
    }

    fn count_refusal(&mut self, conn: ConnId) {
        let code = self.room_of(conn).map(str::to_string);
        self.count_refusal_in(code.as_deref());
    }

    /// Counts a refusal against room `code`, or outside any room.
    fn count_refusal_in(&mut self, code: Option<&str>) {
        self.rejected_total += 1;
        match code.and_then(|c| self.rooms.get_mut(c)) {
            Some(r) => r.rejected += 1,
            None => self.outside_rejected += 1,
        }
    }

    /// Counts a refusal against `conn`'s room and tells the sender why.
    fn refuse(&mut self, conn: ConnId, reason: Refusal) -> Outcome {
        self.count_refusal(conn);
        rejected(conn, reason)
    }

    /// Counts a refusal against room `code` (a wrong token for it).
    fn refuse_in(&mut self, conn: ConnId, code: &str, reason: Refusal) -> Outcome {
        self.count_refusal_in(Some(code));
        rejected(conn, reason)
    }

    fn handle(&mut self, conn: ConnId, msg: ClientMsg, now: Instant) -> Outcome {
        match msg {
            ClientMsg::Create { lesson } => self.create(conn, &lesson, now),
            ClientMsg::Resume { code, token } => self.resume(conn, &code, &token, now),
            ClientMsg::Join {
                code,
                nickname,
                student,
            } => self.join(conn, &code, nickname, student, now),
            ClientMsg::Answer { step, answer } => self.answer(conn, step, &answer, now),
            ClientMsg::Goto { token, step } => self.teacher(conn, &token, now, |r| {
                if step >= r.lesson.steps() {
                    return Err(Refusal::NoSuchStep {
                        step,
                        steps: r.lesson.steps(),
                    });
                }
                r.goto(step);
                Ok(broadcast_state(r, true))
            }),
            ClientMsg::Close { token } => self.teacher(conn, &token, now, |r| {
                if r.phase != Phase::Open {
                    return Err(Refusal::NothingToClose);
                }
                r.phase = Phase::Closed;
                Ok(broadcast_state(r, false))
            }),
            ClientMsg::Reveal { token } => self.teacher(conn, &token, now, |r| {
                if !matches!(r.phase, Phase::Open | Phase::Closed) {
                    return Err(Refusal::NothingToReveal);
                }
                let mut out = r.reveal();
                out.extend(broadcast_state(r, false));
                Ok(out)
            }),
            ClientMsg::End { token } => self.end(conn, &token),
        }
    }

    /// Leaves whatever room `conn` is in (a dropped or re-used connection).
    fn leave(&mut self, conn: ConnId) -> Vec<(ConnId, ServerMsg)> {
        let Some(c) = self.conns.get_mut(&conn) else {
            return Vec::new();
        };
        let role = std::mem::replace(&mut c.role, Role::Outside);
        match role {
            Role::Outside => Vec::new(),
            Role::Teacher { code } => {
                if let Some(r) = self.rooms.get_mut(&code) {
                    if r.teacher == Some(conn) {
                        r.teacher = None;
                    }
                }
                Vec::new()
            }
            Role::Student { code, key } => {
                let Some(r) = self.rooms.get_mut(&code) else {
                    return Vec::new();
                };
                if let Some(s) = r.students.get_mut(&key) {
                    if s.conn == Some(conn) {
                        s.conn = None;
                    }
                }
                r.teacher
                    .map(|t| (t, ServerMsg::State { state: r.state() }))
                    .into_iter()
                    .collect()
            }
        }
    }

    fn create(&mut self, conn: ConnId, lesson: &str, now: Instant) -> Outcome {
        if self.rooms.len() >= self.limits.max_rooms {
            return self.refuse(
                conn,
                Refusal::ServerFull {
                    open: self.rooms.len(),
                },
            );
        }
        let played = match self.catalogue.played(lesson) {
            Ok(p) => p,
            Err(e) => return self.refuse(conn, e.into()),
        };
        if played.steps() == 0 {
            return self.refuse(
                conn,
                Refusal::NoSteps {
                    lesson: lesson.to_string(),
                },
            );
        }
        let mut out = self.leave(conn);
        let code = loop {
            let c = new_code(&mut *self.rng);
            if !self.rooms.contains_key(&c) {
                break c;
            }
        };
        let token = new_secret(&mut *self.rng);
        let mut room = Room::new(code.clone(), token.clone(), played, now);
        room.teacher = Some(conn);
        let state = room.state();
        let lesson_text = room.lesson.text.clone();
        self.rooms.insert(code.clone(), room);
        self.set_role(conn, Role::Teacher { code });
        out.push((
            conn,
            ServerMsg::Created {
                state,
                token,
                lesson_text,
            },
        ));
        Outcome {
            messages: out,
            close: false,
        }
    }

    fn set_role(&mut self, conn: ConnId, role: Role) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.role = role;
        }
    }

    fn resume(&mut self, conn: ConnId, code: &str, token: &str, now: Instant) -> Outcome {
        let code = normalise_code(code);
        let Some(r) = self.rooms.get(&code) else {
            return self.refuse(conn, Refusal::NoClass { code });
        };
        if !same_secret(token, &r.token) {
            return self.refuse_in(conn, &code, Refusal::WrongToken);
        }
        let mut out = self.leave(conn);
        let old = self.rooms.get(&code).and_then(|r| r.teacher);
        if let Some(old) = old.filter(|&o| o != conn) {
            self.set_role(old, Role::Outside);
        }
        self.set_role(conn, Role::Teacher { code: code.clone() });
        let r = self.rooms.get_mut(&code).expect("looked up above");
        r.teacher = Some(conn);
        r.last_active = now;
        out.push((
            conn,
            ServerMsg::Created {
                state: r.state(),
                token: r.token.clone(),
                lesson_text: r.lesson.text.clone(),
            },
        ));
        if r.phase != Phase::NoQuestion {
            out.push((conn, r.tally_msg()));
        }
        Outcome {
            messages: out,
            close: false,
        }
    }

    fn join(
        &mut self,
        conn: ConnId,
        code: &str,
        nickname: Option<String>,
        key: Option<String>,
        now: Instant,
    ) -> Outcome {
        let code = normalise_code(code);
        if !self.rooms.contains_key(&code) {
            return self.refuse(conn, Refusal::NoClassToJoin { code });
        }
        let nickname = match check_nickname(nickname) {
            Ok(n) => n,
            Err(e) => return self.refuse_in(conn, &code, e),
        };
        let max = self.limits.max_students;
        let r = &self.rooms[&code];
        let rejoin = key.filter(|k| r.students.contains_key(k));
        if rejoin.is_none() && r.students.len() >= max {
            return self.refuse_in(conn, &code, Refusal::ClassFull { max });
        }
        let mut out = self.leave(conn);
        let key = match rejoin {
            Some(k) => k,
            None => loop {
                let k = new_secret(&mut *self.rng);
                if !self.rooms[&code].students.contains_key(&k) {
                    break k;
                }
            },
        };
        let old = self.rooms[&code].students.get(&key).and_then(|s| s.conn);
        if let Some(old) = old.filter(|&o| o != conn) {
            self.set_role(old, Role::Outside);
        }
        self.set_role(
            conn,
            Role::Student {
                code: code.clone(),
                key: key.clone(),
            },
        );
        let r = self.rooms.get_mut(&code).expect("looked up above");
        r.last_active = now;
        let s = r.students.entry(key.clone()).or_insert(Student {
            nickname: None,
            conn: None,
            answers: HashMap::new(),
        });
        s.conn = Some(conn);
        if nickname.is_some() {
            s.nickname = nickname;
        }
        let answer = s.answers.get(&r.step).map(|(a, _)| a.clone());
        out.push((
            conn,
            ServerMsg::Joined {
                state: r.state(),
                student: key.clone(),
                lesson_text: r.lesson.text.clone(),
                answer,
            },
        ));
        if r.phase == Phase::Revealed {
            out.extend(r.verdict_for(&key).map(|v| (conn, v)));
        }
        if let Some(t) = r.teacher {
            out.push((t, ServerMsg::State { state: r.state() }));
        }
        Outcome {
            messages: out,
            close: false,
        }
    }

    fn answer(&mut self, conn: ConnId, step: usize, answer: &LiveAnswer, now: Instant) -> Outcome {
        let Some(Role::Student { code, key }) = self.conns.get(&conn).map(|c| c.role.clone())
        else {
            return self.refuse(conn, Refusal::NotJoined);
        };
        let Some(r) = self.rooms.get_mut(&code) else {
            return self.refuse(conn, Refusal::Ended);
        };
        match r.check_answer(step, answer) {
            Err(e) => self.refuse(conn, e.into()),
            Ok(answer) => {
                r.record_answer(&key, answer.clone());
                r.last_active = now;
                let mut out = vec![(conn, ServerMsg::Accepted { step, answer })];
                out.extend(r.teacher.map(|t| (t, r.tally_msg())));
                Outcome {
                    messages: out,
                    close: false,
                }
            }
        }
    }

    /// A teacher command: the sender's room, its token checked, then `act`.
    fn teacher(
        &mut self,
        conn: ConnId,
        token: &str,
        now: Instant,
        act: impl FnOnce(&mut Room) -> Result<Vec<(ConnId, ServerMsg)>, Refusal>,
    ) -> Outcome {
        let Some(code) = self.room_of(conn).map(str::to_string) else {
            return self.refuse(conn, Refusal::NotInClass);
        };
        let Some(r) = self.rooms.get_mut(&code) else {
            return self.refuse(conn, Refusal::Ended);
        };
        if !same_secret(token, &r.token) {
            return self.refuse(conn, Refusal::NotTeacher);
        }
        match act(r) {
            Ok(messages) => {
                r.last_active = now;
                Outcome {
                    messages,
                    close: false,
                }
            }
            Err(e) => self.refuse(conn, e),
        }
    }

    fn end(&mut self, conn: ConnId, token: &str) -> Outcome {
        let Some(code) = self.room_of(conn).map(str::to_string) else {
            return self.refuse(conn, Refusal::NotInClass);
        };
        match self.rooms.get(&code) {
            None => return self.refuse(conn, Refusal::Ended),
            Some(r) if !same_secret(token, &r.token) => {
                return self.refuse(conn, Refusal::NotTeacher)
            }
            Some(_) => {}
        }
        let r = self.rooms.remove(&code).expect("looked up above");
        let mut out = vec![(
            conn,
            ServerMsg::Summary {
                questions: r.summary(),
            },
        )];
        out.extend(self.forget(&r));
        if !out[1..].iter().any(|(c, _)| *c == conn) {
            self.set_role(conn, Role::Outside);
            out.push((conn, ServerMsg::Ended));
        }
        Outcome {
            messages: out,
            close: false,
        }
    }

    /// Tells a removed room's connections it ended and frees them.
    fn forget(&mut self, r: &Room) -> Vec<(ConnId, ServerMsg)> {
        r.connections()
            .into_iter()
            .map(|c| {
                self.set_role(c, Role::Outside);
                (c, ServerMsg::Ended)
            })
            .collect()
    }

    /// A connection closed: it leaves its room (a student keeps their
    /// seat and answers, to rejoin with their key).
    pub fn disconnect(&mut self, conn: ConnId) -> Vec<(ConnId, ServerMsg)> {
        let out = self.leave(conn);
        self.conns.remove(&conn);
        out
    }

    /// Forgets rooms nobody moved for the idle time.
    pub fn expire(&mut self, now: Instant) -> Vec<(ConnId, ServerMsg)> {
        let idle = self.limits.idle;
        let old: Vec<String> = self
            .rooms
            .iter()
            .filter(|(_, r)| now.saturating_duration_since(r.last_active) >= idle)
            .map(|(c, _)| c.clone())
            .collect();
        let mut out = Vec::new();
        for code in old {
            if let Some(r) = self.rooms.remove(&code) {
                out.extend(self.forget(&r));
            }
        }
        out
    }

    /// The summary of room `code` as CSV, for its teacher's token.
    pub fn summary_csv(&mut self, code: &str, token: &str) -> Result<String, Refusal> {
        let code = normalise_code(code);
        let Some(r) = self.rooms.get_mut(&code) else {
            self.outside_rejected += 1;
            self.rejected_total += 1;
            return Err(Refusal::NoClass { code });
        };
        if !same_secret(token, &r.token) {
            r.rejected += 1;
            self.rejected_total += 1;
            return Err(Refusal::WrongToken);
        }
        Ok(summary_csv(&r.summary()))
    }

    /// A room's state (`None`: no such room).
    pub fn state(&self, code: &str) -> Option<super::protocol::RoomState> {
        self.rooms.get(&normalise_code(code)).map(Room::state)
    }

    /// A room, to look at.
    pub fn room(&self, code: &str) -> Option<&Room> {
        self.rooms.get(&normalise_code(code))
    }

    /// Rooms open.
    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    /// True when no room is open.
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// Every refusal so far (all rooms, ended ones too, and outside any).
    pub fn rejected_total(&self) -> u64 {
        self.rejected_total
    }

    /// Refusals of senders in no room.
    pub fn outside_rejected(&self) -> u64 {
        self.outside_rejected
    }

    /// Checks the registry's invariants (for tests and the fuzz): rooms
    /// and connections point at each other, steps and phases agree with
    /// the lesson, counts stay within the limits, every stored answer is
    /// one the room would take.
    pub fn check_invariants(&self) -> Result<(), BrokenInvariant> {
        use BrokenInvariant as B;
        if self.rooms.len() > self.limits.max_rooms {
            return Err(B::TooManyRooms(self.rooms.len()));
        }
        for (code, r) in &self.rooms {
            let code_ = || code.clone();
            if &r.code != code {
                return Err(B::MisfiledRoom {
                    code: code_(),
                    own: r.code.clone(),
                });
            }
            if r.step >= r.lesson.steps() {
                return Err(B::StepOutOfRange {
                    code: code_(),
                    step: r.step,
                });
            }
            let asks = r.question().is_some();
            if asks == (r.phase == Phase::NoQuestion) {
                return Err(B::PhaseMismatch {
                    code: code_(),
                    phase: r.phase,
                    step: r.step,
                });
            }
            if r.students.len() > self.limits.max_students {
                return Err(B::TooManyStudents {
                    code: code_(),
                    students: r.students.len(),
                });
            }
            if let Some(t) = r.teacher {
                let role = self.conns.get(&t).map(|c| &c.role);
                if role != Some(&Role::Teacher { code: code.clone() }) {
                    return Err(B::TeacherRole {
                        code: code_(),
                        role: role.cloned(),
                    });
                }
            }
            for (key, s) in &r.students {
                if let Some(c) = s.conn {
                    let role = self.conns.get(&c).map(|c| &c.role);
                    if role
                        != Some(&Role::Student {
                            code: code.clone(),
                            key: key.clone(),
                        })
                    {
                        return Err(B::StudentRole {
                            code: code_(),
                            role: role.cloned(),
                        });
                    }
                }
                for (&step, (a, _)) in &s.answers {
                    let q = r
                        .lesson
                        .questions
                        .get(step)
                        .and_then(Option::as_ref)
                        .ok_or_else(|| B::AnswerWithoutQuestion {
                            code: code_(),
                            step,
                        })?;
                    let fits = match a {
                        LiveAnswer::Node(p) => q.wants_node() && q.knows(p),
                        LiveAnswer::Value(v) => {
                            !q.wants_node() && crate::lesson::question::parse_number(v).is_some()
                        }
                    };
                    if !fits {
                        return Err(B::RefusableAnswer {
                            code: code_(),
                            answer: a.clone(),
                        });
                    }
                }
            }
        }
        for (id, c) in &self.conns {
            match &c.role {
                Role::Outside => {}
                Role::Teacher { code } => {
                    if self.rooms.get(code).and_then(|r| r.teacher) != Some(*id) {
                        return Err(B::NotItsTeacher {
                            conn: *id,
                            code: code.clone(),
                        });
                    }
                }
                Role::Student { code, key } => {
                    let s = self.rooms.get(code).and_then(|r| r.students.get(key));
                    if s.and_then(|s| s.conn) != Some(*id) {
                        return Err(B::NotItsStudent {
                            conn: *id,
                            code: code.clone(),
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// The answer to a refused message: the reason, to its sender only; the
/// connection stays open.
fn rejected(conn: ConnId, reason: Refusal) -> Outcome {
    Outcome {
        messages: vec![(
            conn,
            ServerMsg::Rejected {
                reason: reason.to_string(),
            },
        )],
        close: false,
    }
}

/// The new state to everyone in the room; with `tally`, the teacher's
/// histogram too (a step revisited keeps its answers).
fn broadcast_state(r: &Room, tally: bool) -> Vec<(ConnId, ServerMsg)> {
    let state = r.state();
    let mut out: Vec<(ConnId, ServerMsg)> = r
        .connections()
        .into_iter()
        .map(|c| {
            (
                c,
                ServerMsg::State {
                    state: state.clone(),
                },
            )
        })
        .collect();
    if tally && r.phase != Phase::NoQuestion {
        out.extend(r.teacher.map(|t| (t, r.tally_msg())));
    }
    out
}

/// A nickname as given: trimmed, empty is none, too long or with
/// control characters refused.
fn check_nickname(n: Option<String>) -> Result<Option<String>, Refusal> {
    let Some(n) = n else { return Ok(None) };
    let t = n.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if t.chars().count() > MAX_NICKNAME_CHARS {
        return Err(Refusal::NicknameTooLong);
    }
    if t.chars().any(char::is_control) {
        return Err(Refusal::NicknameControl);
    }
    Ok(Some(t.to_string()))
}
