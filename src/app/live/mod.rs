//! The app's side of a live class (see `crate::live`): the teacher's
//! projector and each student's device are this same app, joined to a
//! room on a `pnlab serve` server.
//!
//! - `session`: what the device knows of the room (plain, tested);
//! - `socket`: the WebSocket, polled each frame;
//! - `qr`: the join address as a QR code;
//! - `panel`: the teacher's bar (join address, counts, buttons, the value
//!   histogram) and the student's strip;
//! - this file: starting or joining a class, and carrying the room's
//!   moves into the lesson player each frame.
//!
//! Both sides play the lesson themselves; only the step, the phase and
//! the answers travel. A student's device never judges an answer: the
//! server does, with the engine, and each device shows its own verdict
//! after the teacher's Reveal.

pub mod panel;
pub mod qr;
pub mod session;
pub mod socket;

use crate::lesson::path::{path_of, ChildIndex};
use crate::lesson::{self, Answer, AskKind, Lesson, NodePath, Response};
use crate::live::protocol::{LiveAnswer, Phase, ServerMsg};
use crate::search::NodeId;

use super::lesson_player::{ShownVerdict, RIGHT, WRONG};
use super::state::PnlabApp;
use session::{LiveSession, SessionEffect, TeacherCommand};
use socket::{LiveSocket, SocketEvent};

/// How long a dropped connection waits before it tries again (seconds).
const RECONNECT_AFTER_S: f64 = 2.0;

/// The colour a student's own pick is ringed in until the reveal.
pub const MY_PICK: egui::Color32 = egui::Color32::from_rgb(40, 110, 220);

/// A live class this window takes part in.
pub struct LiveClass {
    /// What the device knows of the room.
    pub session: LiveSession,
    /// The connection (`None` while waiting to reconnect).
    socket: Option<LiveSocket>,
    /// The server's `ws://…/live` address.
    url: String,
    /// The page's address (`http://host:port`), for the join link.
    pub origin: String,
    /// The lesson the room is on (what Create asked for).
    lesson: String,
    /// When to try again after a drop (the window's clock, seconds).
    retry_at: Option<f64>,
    /// Lines for the page's console (tests read them), taken each frame.
    pub console: Vec<String>,
}

impl LiveClass {
    /// The address students open: `http://host:port/?join=CODE`.
    pub fn join_url(&self) -> Option<String> {
        let code = self.session.code.as_ref()?;
        Some(format!(
            "{}/?join={code}",
            self.origin.trim_end_matches('/')
        ))
    }

    fn send(&mut self, msg: crate::live::protocol::ClientMsg) {
        if let Some(s) = self.socket.as_mut() {
            s.send(msg.to_text());
        }
    }
}

impl PnlabApp {
    /// Starts a live class on `lesson` (a lesson name the server offers)
    /// at the server behind `origin` (`http://host:port`): this window
    /// becomes the teacher's.
    pub fn start_live_class(&mut self, ctx: &egui::Context, origin: &str, lesson: &str) {
        self.connect_live(ctx, origin, LiveSession::teacher(), lesson);
        // The join address and its QR code first: the class joins now.
        self.teach.live_qr = true;
    }

    /// Joins room `code` at the server behind `origin` as a student.
    pub fn join_live_class(&mut self, ctx: &egui::Context, origin: &str, code: &str) {
        self.connect_live(ctx, origin, LiveSession::student(code, None), "");
    }

    fn connect_live(
        &mut self,
        ctx: &egui::Context,
        origin: &str,
        session: LiveSession,
        lesson: &str,
    ) {
        let Some(url) = socket::live_url(origin) else {
            self.messages.push(format!(
                "error: a live class needs a server address (http://…), not `{origin}`"
            ));
            return;
        };
        let mut live = LiveClass {
            session,
            socket: None,
            url,
            origin: origin.trim_end_matches('/').to_string(),
            lesson: lesson.to_string(),
            retry_at: None,
            console: Vec::new(),
        };
        match open_socket(ctx, &live.url) {
            Ok(s) => live.socket = Some(s),
            Err(e) => {
                self.messages.push(format!("error: {e}"));
                return;
            }
        }
        let hello = live.session.hello(&live.lesson);
        live.send(hello);
        self.teach.live = Some(live);
    }

    /// Leaves the live class (the room goes on for the others).
    pub fn leave_live_class(&mut self) {
        self.teach.live = None;
        self.tree.badges.clear();
    }

    /// A teacher's button: sent to the server (which answers every
    /// device, this one included).
    pub fn live_command(&mut self, what: TeacherCommand) {
        let Some(live) = self.teach.live.as_mut() else {
            return;
        };
        if let Some(msg) = live.session.command(what) {
            live.send(msg);
        }
    }

    /// Each frame: reads what arrived, reconnects a dropped connection,
    /// keeps the lesson on the room's step and the tree's badges on the
    /// current tally.
    pub(super) fn pump_live(&mut self, ctx: &egui::Context) {
        let Some(mut live) = self.teach.live.take() else {
            return;
        };
        let now = ctx.input(|i| i.time);
        if live.socket.is_none() && live.retry_at.is_some_and(|t| now >= t) {
            live.retry_at = None;
            match open_socket(ctx, &live.url) {
                Ok(s) => {
                    live.socket = Some(s);
                    let hello = live.session.hello(&live.lesson);
                    live.send(hello);
                }
                Err(e) => live.session.notice = Some(e),
            }
        }
        let mut effects = Vec::new();
        while let Some(ev) = live.socket.as_mut().and_then(LiveSocket::poll) {
            match ev {
                SocketEvent::Open => live.session.notice = None,
                SocketEvent::Text(t) => match ServerMsg::parse(&t) {
                    Ok(msg) => {
                        if let ServerMsg::Created { state, .. } = &msg {
                            live.console.push(format!("created {}", state.code));
                        }
                        effects.extend(live.session.apply(msg));
                    }
                    Err(e) => live.session.notice = Some(e.to_string()),
                },
                SocketEvent::Closed(why) => {
                    live.socket = None;
                    if !live.session.ended {
                        live.session.notice = Some(format!("{why}; reconnecting…"));
                        live.retry_at = Some(now + RECONNECT_AFTER_S);
                        ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                            RECONNECT_AFTER_S,
                        ));
                    }
                }
            }
        }
        let teacher = live.session.is_teacher();
        for fx in effects {
            match fx {
                SessionEffect::OpenLesson { name, text } => self.open_live_lesson(&name, &text),
                SessionEffect::GoToStep(k) => {
                    if self.teach.lesson.as_ref().is_some_and(|p| p.step != k) {
                        self.go_to_step(k);
                    }
                }
                SessionEffect::Reveal => self.show_live_reveal(&live),
            }
        }
        // The room's step is the class's: a student's device follows it;
        // the teacher's arrows and buttons move the room.
        if let (Some(p), Some(k)) = (self.teach.lesson.as_ref(), live.session.step()) {
            if p.step != k {
                if teacher {
                    if let Some(msg) = live.session.command(TeacherCommand::Goto(p.step)) {
                        live.send(msg);
                    }
                } else {
                    self.go_to_step(k);
                }
            }
        }
        self.tree.badges = if teacher {
            self.live_badges(&live)
        } else {
            Vec::new()
        };
        self.teach.live = Some(live);
    }

    /// Plays the room's lesson (unless this window already plays it: a
    /// reconnection keeps the step as it is).
    fn open_live_lesson(&mut self, name: &str, text: &str) {
        if self
            .teach
            .lesson
            .as_ref()
            .is_some_and(|p| p.lesson.file == name)
        {
            return;
        }
        match Lesson::load_text(name, text, &lesson::Bundled) {
            Ok(l) => self.open_lesson(l),
            Err(e) => self
                .messages
                .push(format!("error: the class's lesson: {e}")),
        }
    }

    /// The tally as counts on the step's nodes.
    fn live_badges(&self, live: &LiveClass) -> Vec<(NodeId, usize)> {
        let (Some(t), Some(st)) = (
            live.session.tally.as_ref(),
            self.teach.lesson.as_ref().and_then(|p| p.state.as_ref()),
        ) else {
            return Vec::new();
        };
        let index = ChildIndex::new(&st.snapshot);
        t.nodes
            .iter()
            .filter_map(|n| {
                let path = NodePath {
                    moves: n.path.clone(),
                    offsets: Vec::new(),
                };
                let id = index.resolve_id(&path, None).ok()?;
                Some((id, n.count))
            })
            .collect()
    }

    /// The reveal on this device: the student's own verdict (the
    /// server's, with the engine's reason), or the share right on the
    /// projector; the engine's answer ringed on the tree.
    fn show_live_reveal(&mut self, live: &LiveClass) {
        let mine = self.live_pick_id(live);
        let Some(p) = self.teach.lesson.as_mut() else {
            return;
        };
        let Some(q) = p.state.as_ref().and_then(|s| s.question.as_ref()) else {
            return;
        };
        let shown = match (&live.session.verdict, &live.session.share) {
            (Some(v), _) if !live.session.is_teacher() => ShownVerdict {
                correct: v.correct,
                headline: v.headline.clone(),
                lines: v.explanation.clone(),
            },
            (_, Some(share)) => ShownVerdict {
                correct: share.right * 2 >= share.answered.max(1),
                headline: format!("{} · the answer: {}", share.text(), share.answer),
                lines: q.reason.clone(),
            },
            _ => return,
        };
        let mut marks = Vec::new();
        if let Answer::Node(n) = &q.answer {
            if let Some(m) = mine.filter(|m| *m != n.id) {
                marks.push((m, WRONG));
            }
            marks.push((n.id, RIGHT));
        }
        p.verdict = Some(shown);
        self.tree.marks.retain(|(_, c)| *c != MY_PICK);
        self.tree.marks.extend(marks);
        self.send(super::driver::Command::SetView(self.tree.request()));
    }

    /// The node a student picked, in this step's tree.
    fn live_pick_id(&self, live: &LiveClass) -> Option<NodeId> {
        let Some(LiveAnswer::Node(moves)) = &live.session.my_answer else {
            return None;
        };
        let st = self.teach.lesson.as_ref()?.state.as_ref()?;
        let path = NodePath {
            moves: moves.clone(),
            offsets: Vec::new(),
        };
        ChildIndex::new(&st.snapshot).resolve_id(&path, None).ok()
    }

    /// A student's answer goes to the room instead of being judged here.
    /// True when this window is a student's in a live class (the answer
    /// was sent, or refused because answering is closed).
    pub(super) fn live_student_answer(&mut self, response: &Response) -> bool {
        let Some(live) = self.teach.live.as_mut() else {
            return false;
        };
        if live.session.is_teacher() {
            return false;
        }
        let answer = match response {
            Response::Text(t) => LiveAnswer::Value(t.trim().to_string()),
            Response::Path(p) => LiveAnswer::Node(p.moves.clone()),
            Response::Node(id) => {
                let Some(st) = self.teach.lesson.as_ref().and_then(|p| p.state.as_ref()) else {
                    return true;
                };
                let Some(i) = st.snapshot.nodes.iter().position(|n| n.id == *id) else {
                    return true;
                };
                LiveAnswer::Node(path_of(&st.snapshot, i).moves)
            }
        };
        match live.session.answer(answer) {
            Some(msg) => {
                live.send(msg);
                if let Response::Node(id) = response {
                    self.tree.marks.retain(|(_, c)| *c != MY_PICK);
                    self.tree.marks.push((*id, MY_PICK));
                }
            }
            None => {
                live.session.notice = Some("answers are closed for this step".into());
            }
        }
        true
    }

    /// Whether this window is a student's device in a live class.
    pub fn is_live_student(&self) -> bool {
        self.teach
            .live
            .as_ref()
            .is_some_and(|l| !l.session.is_teacher())
    }

    /// Whether a student may still answer: a node click is taken as an
    /// answer only then.
    pub(super) fn live_answering_open(&self) -> bool {
        self.teach
            .live
            .as_ref()
            .is_some_and(|l| l.session.may_answer())
    }

    /// The line the page logs for tests: the room, this device's answer
    /// and verdict, and where the step's nodes are drawn (so a test can
    /// tap one as a student would).
    pub fn live_state_json(&self) -> Option<serde_json::Value> {
        let live = self.teach.live.as_ref()?;
        let s = &live.session;
        let st = self.teach.lesson.as_ref().and_then(|p| p.state.as_ref());
        let nodes: Vec<serde_json::Value> = match st {
            Some(st) => self
                .tree
                .drawn
                .nodes
                .iter()
                .filter_map(|(id, rect)| {
                    let i = st.snapshot.nodes.iter().position(|n| n.id == *id)?;
                    let c = rect.center();
                    Some(serde_json::json!({
                        "path": path_of(&st.snapshot, i).moves,
                        "x": c.x, "y": c.y,
                    }))
                })
                .collect(),
            None => Vec::new(),
        };
        let question = st.and_then(|st| st.question.as_ref()).map(|q| {
            serde_json::json!({
                "kind": match q.kind {
                    AskKind::MostProving => "most-proving",
                    AskKind::Child => "child",
                    AskKind::Value => "value",
                },
            })
        });
        Some(serde_json::json!({
            "role": if s.is_teacher() { "teacher" } else { "student" },
            "code": s.code,
            "step": s.step(),
            "phase": s.state.as_ref().map(|st| st.phase),
            "joined": s.state.as_ref().map(|st| st.joined),
            "answered": s.state.as_ref().map(|st| st.answered),
            "lesson_step": self.teach.lesson.as_ref().map(|p| p.step),
            "iteration": self.main.state.iteration(),
            "step_iteration": st.map(|st| st.search.counters().iterations),
            "question": question,
            "my_answer": s.my_answer,
            "verdict": s.verdict.as_ref().map(|v| serde_json::json!({
                "correct": v.correct, "headline": v.headline,
            })),
            "tally": s.tally.as_ref().map(|t| serde_json::json!({
                "nodes": t.nodes, "values": t.values, "answered": t.answered,
            })),
            "share": s.share.as_ref().map(|x| serde_json::json!({
                "answered": x.answered, "right": x.right,
            })),
            "badges": self.tree.badges.len(),
            "notice": s.notice,
            "open": s.phase() == Phase::Open,
            "nodes": nodes,
        }))
    }
}

fn open_socket(ctx: &egui::Context, url: &str) -> Result<LiveSocket, String> {
    let wake = ctx.clone();
    LiveSocket::connect(url, move || wake.request_repaint())
}
