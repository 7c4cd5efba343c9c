//! The lesson player in the app: a lesson (`*.lesson.toml`) played step
//! by step. → or Space goes to the next step, ← to the previous one; the
//! state of a step is always rebuilt from the lesson by the headless
//! player ([`crate::lesson::play`]), never from what was played before:
//! the app then starts its own run with the step's position, algorithm,
//! parameters and seed and runs it to the step's iteration, so the tree,
//! the inspector and the curves are the live ones (the search ids are the
//! same as the player's, which resolved the step's nodes). The step's
//! caption is shown in the lesson strip (in presenter mode under the
//! caption bar), its highlights are ringed on the tree, its panels are
//! shown, and its question is asked: a click on a node (most-proving,
//! child) or a typed value, then the engine's answer with its reason.

use egui::{Color32, Key, Modifiers, RichText};

use crate::lesson::{
    self, Answer, AskKind, Block, Caption, Lesson, Panel, Response, Span, StepState,
};
use crate::search::{Algorithm, NodeId, SearchSetup};

use super::driver::{Command, RunSpec};
use super::opened::Opened;
use super::panels::Requests;
use super::plots::Curves;
use super::presenter::{Presenter, Stage};
use super::quiz::Quiz;
use super::state::PnlabApp;

/// Green of a right answer, red of a wrong one, amber of a highlight.
pub const RIGHT: Color32 = Color32::from_rgb(30, 150, 60);
/// See [`RIGHT`].
pub const WRONG: Color32 = Color32::from_rgb(200, 40, 40);
/// A lesson's highlighted nodes.
pub const HIGHLIGHT: Color32 = Color32::from_rgb(230, 170, 0);
/// The node an iteration just expanded (class mode's reveal).
pub const EXPANDED: Color32 = Color32::from_rgb(40, 110, 220);

/// A verdict as the window shows it, large over the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownVerdict {
    /// Right or wrong (the colour).
    pub correct: bool,
    /// One line.
    pub headline: String,
    /// The reason, one line each.
    pub lines: Vec<String>,
}

/// A lesson being played.
pub struct LessonPlayer {
    /// The lesson.
    pub lesson: Lesson,
    /// The step shown (0-based).
    pub step: usize,
    /// Its state, from the headless player.
    pub state: Option<StepState>,
    /// The value typed for a value question.
    pub typed: String,
    /// The verdict on this step's answer.
    pub verdict: Option<ShownVerdict>,
    /// Questions answered right, and answered, over the lesson.
    pub score: (u32, u32),
}

impl LessonPlayer {
    /// The step counter: "step 3 / 7".
    pub fn counter(&self) -> String {
        format!("step {} / {}", self.step + 1, self.lesson.len())
    }

    /// The step's question while it is open (asked, not yet answered):
    /// what the window must keep hidden ([`Quiz`]).
    pub fn open_quiz(&self) -> Option<Quiz> {
        if self.verdict.is_some() {
            return None;
        }
        let st = self.state.as_ref()?;
        let at = st.search.counters().iterations;
        st.question.as_ref().map(|q| Quiz::of(q, at))
    }

    /// Whether the step's question waits for a click on a node.
    pub fn waits_for_node(&self) -> bool {
        self.verdict.is_none()
            && self
                .state
                .as_ref()
                .and_then(|s| s.question.as_ref())
                .is_some_and(|q| matches!(q.kind, AskKind::MostProving | AskKind::Child))
    }
}

/// Teaching state the window holds: presenter mode and the lesson.
#[derive(Default)]
pub struct Teaching {
    /// Presenter mode.
    pub presenter: Presenter,
    /// The lesson being played.
    pub lesson: Option<LessonPlayer>,
    /// The race a step asked for, started on the next frame (it needs the
    /// window's context).
    pending_race: Option<PendingRace>,
    /// The live class this window is in (teacher or student).
    pub live: Option<super::live::LiveClass>,
    /// The teacher's join window (address and QR code) is open.
    pub live_qr: bool,
    /// A student's device shows the board instead of the tree.
    pub live_board: bool,
    /// Teach › Live class…, while open.
    pub live_dialog: Option<super::live::panel::LiveDialog>,
}

/// A step's race, to start: side B's setting and the iteration the
/// lesson player ran it to (the step's, or where B finished).
struct PendingRace {
    algo: String,
    params: Vec<(String, String)>,
    /// Where the lesson player stopped side B: its iteration, or
    /// `u64::MAX` when B finished (run to its end).
    iterations: u64,
}

impl PnlabApp {
    /// Opens `lesson` on its first step.
    pub fn open_lesson(&mut self, lesson: Lesson) {
        self.messages
            .push(format!("lesson: {} ({} steps)", lesson.title, lesson.len()));
        self.teach.lesson = Some(LessonPlayer {
            lesson,
            step: 0,
            state: None,
            typed: String::new(),
            verdict: None,
            score: (0, 0),
        });
        self.go_to_step(0);
    }

    /// Opens `path` as a lesson when it names one (a broken lesson gives
    /// its located message); false for any other file.
    pub fn open_if_lesson(&mut self, path: &std::path::Path) -> bool {
        if !lesson::is_lesson_path(path) {
            return false;
        }
        match Lesson::load_file(path) {
            Ok(l) => self.open_lesson(l),
            Err(e) => self.messages.push(format!("error: {e}")),
        }
        true
    }

    /// Closes the lesson (the run stays).
    pub fn close_lesson(&mut self) {
        self.teach.lesson = None;
        self.tree.marks.clear();
        self.tree.hide_path = self.class.on;
    }

    /// Shows step `k` of the open lesson, rebuilt from the lesson.
    pub fn go_to_step(&mut self, k: usize) {
        let Some(p) = self.teach.lesson.as_mut() else {
            return;
        };
        let k = k.min(p.lesson.len().saturating_sub(1));
        let state = match lesson::play(&p.lesson, k) {
            Ok(s) => s,
            Err(e) => {
                self.messages.push(format!("error: {e}"));
                return;
            }
        };
        p.step = k;
        p.typed.clear();
        p.verdict = None;
        let setting = state.setting.clone();
        let iterations = state.search.counters().iterations;
        let entry = (*setting.position.value).clone();
        if *self.opened.entry() != entry {
            self.opened = Opened::new(entry);
        }
        let game = self.opened.entry().game;
        if let Err(e) = self
            .algorithm
            .set_named(&setting.algo, game, &setting.params)
        {
            self.messages.push(format!("error: {e}"));
            return;
        }
        self.algorithm.seed = setting.seed;
        // The run the step shows: its own position, question and seed.
        self.tree.reset_run();
        // A lesson talks about the tree the search built, solved or not
        // (lesson 1 asks which branches the proof never needed).
        self.tree.proof_only = false;
        self.curves = Curves::default();
        self.tree.selected = state.select.as_ref().map(|s| s.id);
        self.tree.marks = state.highlights.iter().map(|h| (h.id, HIGHLIGHT)).collect();
        let asks_node = state
            .question
            .as_ref()
            .is_some_and(|q| matches!(q.kind, AskKind::MostProving | AskKind::Child));
        self.tree.hide_path = asks_node || self.class.on;
        if let Some(q) = state.question.as_ref().filter(|q| q.kind == AskKind::Child) {
            if let Some(n) = &q.node {
                self.tree.marks.push((n.id, HIGHLIGHT));
            }
        }
        self.send(Command::SetView(self.tree.request()));
        let algo = self.algorithm.algo;
        let spec = RunSpec {
            algo,
            setup: SearchSetup {
                position: setting.position.value.position.clone(),
                params: self.algorithm.params.clone(),
                seed: setting.seed,
                question: setting.goal,
                memory_limit_bytes: None,
            },
        };
        if let Err(e) = self.main.load(spec) {
            self.messages.push(format!("error: {e}"));
        }
        // Where the lesson player stopped: its iteration, or the end
        // when its search finished (a df-pn's last step returns to the
        // root without counting an iteration).
        if state.search.status().is_final() {
            self.send(Command::RunTo(u64::MAX));
        } else if iterations > 0 {
            self.send(Command::RunTo(iterations));
        }
        // The step's panels.
        let show = &setting.show;
        if show.contains(&Panel::Curves) {
            self.settings.show_plots = true;
        }
        if show.contains(&Panel::Inspector) {
            self.settings.show_inspector = true;
        }
        let stage = if show.contains(&Panel::Tree) {
            Stage::Tree
        } else if show.contains(&Panel::Board) {
            Stage::Board
        } else if show.contains(&Panel::Curves) {
            Stage::Curves
        } else {
            Stage::Tree
        };
        self.teach.presenter.stage = stage;
        self.race = None;
        self.teach.pending_race = state.race.as_ref().map(|r| PendingRace {
            algo: r.algo.clone(),
            params: r.params.clone(),
            iterations: if r.snapshot.status.is_final() {
                u64::MAX
            } else {
                r.snapshot.counters.iterations
            },
        });
        if let Some(p) = self.teach.lesson.as_mut() {
            p.state = Some(state);
        }
    }

    /// Starts the race a step asked for (needs the context).
    pub(super) fn start_lesson_race(&mut self, ctx: &egui::Context) {
        let Some(pending) = self.teach.pending_race.take() else {
            return;
        };
        self.set_race(ctx, true);
        let Some(r) = self.race.as_mut() else { return };
        let chosen = Algorithm::named(&pending.algo)
            .map_err(|e| e.to_string())
            .and_then(|a| {
                crate::search::Params::from_pairs(a.params, &pending.params)
                    .map(|p| (a, p))
                    .map_err(|e| e.to_string())
            });
        match chosen {
            Ok((a, p)) => {
                r.algo = a;
                r.params = p;
                // Side B starts where the lesson player ran it: the
                // step's iteration, or its end if it finished first.
                self.restart_race_to(pending.iterations);
            }
            Err(e) => self.messages.push(format!("error: race: {e}")),
        }
    }

    /// → / Space: next step; ←: previous step (while no text field has
    /// the keyboard). The keys are taken before the run's own shortcuts.
    pub(super) fn lesson_keys(&mut self, ctx: &egui::Context) {
        if self.is_live_student() {
            return;
        }
        let Some(p) = self.teach.lesson.as_ref() else {
            return;
        };
        if ctx.memory(|m| m.focused().is_some()) && ctx.egui_wants_keyboard_input() {
            return;
        }
        let step = p.step;
        let last = p.lesson.len().saturating_sub(1);
        let next = ctx.input_mut(|i| {
            i.consume_key(Modifiers::NONE, Key::ArrowRight)
                | i.consume_key(Modifiers::NONE, Key::Space)
        });
        let prev = ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::ArrowLeft));
        if next && step < last {
            self.go_to_step(step + 1);
        } else if prev && step > 0 {
            self.go_to_step(step - 1);
        }
    }

    /// A click on node `id` while the step asks for a node: judged by the
    /// engine's answer; true when it was taken as the answer.
    pub fn answer_lesson_node(&mut self, id: NodeId) -> bool {
        if let Some(live) = self.teach.live.as_ref() {
            // In a live class a student's click is an answer while the
            // question is open; the teacher's is a look at the node.
            if live.session.is_teacher() || !self.live_answering_open() {
                return false;
            }
        }
        let Some(p) = self.teach.lesson.as_ref() else {
            return false;
        };
        if !p.waits_for_node() {
            return false;
        }
        self.answer_lesson(Response::Node(id));
        true
    }

    /// Judges a response to the step's question and reveals the answer.
    pub fn answer_lesson(&mut self, response: Response) {
        if self.live_student_answer(&response) {
            return;
        }
        let Some(p) = self.teach.lesson.as_mut() else {
            return;
        };
        let Some(st) = p.state.as_ref() else { return };
        let Some(q) = st.question.as_ref() else {
            return;
        };
        if p.verdict.is_some() {
            return;
        }
        let v = q.check(&st.snapshot, &response);
        p.score.1 += 1;
        if v.correct {
            p.score.0 += 1;
        }
        let mut marks: Vec<(NodeId, Color32)> = Vec::new();
        if let Answer::Node(n) = &q.answer {
            if let Response::Node(given) = response {
                if given != n.id {
                    marks.push((given, WRONG));
                }
            }
            marks.push((n.id, RIGHT));
        }
        p.verdict = Some(ShownVerdict {
            correct: v.correct,
            headline: v.headline,
            lines: v.explanation,
        });
        self.tree.marks.extend(marks);
        self.tree.hide_path = self.class.on;
        // The reveal: the run's snapshot was masked while the question was
        // open; a fresh one brings back everything at once.
        self.send(Command::SetView(self.tree.request()));
    }

    /// The open lesson question, if any: what the window keeps hidden.
    pub fn quiz(&self) -> Option<Quiz> {
        self.teach.lesson.as_ref().and_then(LessonPlayer::open_quiz)
    }

    /// Masks the run's snapshot while a question is open (called as
    /// events arrive, so no frame ever draws an unmasked one).
    pub(super) fn mask_for_quiz(&mut self) {
        if let (Some(q), Some(s)) = (self.quiz(), self.main.state.snapshot.as_mut()) {
            q.mask(s);
        }
    }

    /// The lesson's strip: title, step counter, buttons, caption and the
    /// question (in presenter mode under the caption bar, otherwise its
    /// own panel). `size` is the caption's text size.
    pub(super) fn lesson_strip(&mut self, ui: &mut egui::Ui, _req: &mut Requests, size: f32) {
        let Some(p) = self.teach.lesson.as_ref() else {
            return;
        };
        let mut go = None;
        let mut close = false;
        let mut answer = None;
        let step = p.step;
        let last = p.lesson.len().saturating_sub(1);
        let student = self.is_live_student();
        ui.horizontal(|ui| {
            ui.label(RichText::new(&p.lesson.title).strong().size(size));
            ui.label(RichText::new(p.counter()).size(size));
            if student {
                // The teacher moves the class.
                return;
            }
            if ui
                .add_enabled(step > 0, egui::Button::new("← Previous"))
                .clicked()
            {
                go = Some(step - 1);
            }
            if ui
                .add_enabled(step < last, egui::Button::new("Next →"))
                .clicked()
            {
                go = Some(step + 1);
            }
            if p.score.1 > 0 {
                ui.label(format!("answers right {} / {}", p.score.0, p.score.1));
            }
            if ui.button("Close lesson").clicked() {
                close = true;
            }
        });
        if let Some(st) = p.state.as_ref() {
            if let Some(t) = &st.title {
                ui.label(RichText::new(t).strong().size(size + 2.0));
            }
            egui::ScrollArea::vertical()
                .id_salt("lesson-caption")
                // A third of the window: at 1024×768 a two-paragraph
                // caption shows whole (150 px cut lesson 9's second one).
                .max_height((ui.ctx().content_rect().height() * 0.33).max(150.0))
                .show(ui, |ui| {
                    caption_ui(ui, &st.caption, size);
                    // The answer's part of the caption waits for the reveal.
                    if let (Some(r), true) = (&st.reveal, p.verdict.is_some()) {
                        ui.add_space(size * 0.5);
                        caption_ui(ui, r, size);
                    }
                });
            if let Some(q) = &st.question {
                ui.separator();
                ui.label(
                    RichText::new(format!("Question: {}", q.prompt))
                        .strong()
                        .size(size),
                );
                if p.verdict.is_none() {
                    match q.kind {
                        AskKind::MostProving | AskKind::Child => {
                            ui.label(RichText::new("click a node of the tree to answer").italics());
                        }
                        AskKind::Value => {
                            let mut typed = p.typed.clone();
                            ui.horizontal(|ui| {
                                let r = ui.add(
                                    egui::TextEdit::singleline(&mut typed)
                                        .hint_text("a number, or inf")
                                        .desired_width(120.0),
                                );
                                let enter =
                                    r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
                                if ui.button("Answer").clicked() || enter {
                                    answer = Some(typed.clone());
                                }
                            });
                            if let Some(p) = self.teach.lesson.as_mut() {
                                p.typed = typed;
                            }
                        }
                    }
                }
            }
        }
        if self
            .teach
            .lesson
            .as_ref()
            .is_some_and(|p| p.verdict.is_some())
        {
            ui.label(RichText::new("the answer is shown over the tree").italics());
        }
        if let Some(a) = answer {
            self.answer_lesson(Response::Text(a));
        }
        if close {
            self.close_lesson();
        } else if let Some(k) = go {
            self.go_to_step(k);
        }
    }

    /// The lesson strip as its own panel (outside presenter mode).
    pub(super) fn lesson_panel(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        if self.teach.lesson.is_none() {
            return;
        }
        egui::Panel::top("lesson").show(ui, |ui| self.lesson_strip(ui, req, 15.0));
    }

    /// The verdict of the lesson's question or of class mode, large and
    /// coloured over the top of `rect` (the tree's area).
    pub(super) fn verdict_overlay(&mut self, ui: &mut egui::Ui, rect: egui::Rect) {
        let lesson_v = self.teach.lesson.as_ref().and_then(|p| p.verdict.clone());
        let v = lesson_v.or_else(|| self.class.shown());
        let Some(v) = v else { return };
        let color = if v.correct { RIGHT } else { WRONG };
        let width = (rect.width() - 40.0).max(200.0);
        let area = egui::Area::new(egui::Id::unique("verdict-overlay"))
            .order(egui::Order::Foreground)
            .fixed_pos(egui::pos2(rect.center().x - width / 2.0, rect.top() + 8.0));
        let mut reveal = false;
        area.show(ui.ctx(), |ui| {
            egui::Frame::new()
                .fill(ui.visuals().panel_fill.gamma_multiply(0.95))
                .stroke(egui::Stroke::new(4.0, color))
                .corner_radius(8.0)
                .inner_margin(12.0)
                .show(ui, |ui| {
                    ui.set_width(width - 24.0);
                    ui.label(RichText::new(&v.headline).size(28.0).strong().color(color));
                    for l in &v.lines {
                        ui.label(RichText::new(l).size(17.0).monospace());
                    }
                    if self.class.pending.is_some()
                        && ui
                            .button(RichText::new("Reveal: run the iteration (Enter)").size(18.0))
                            .clicked()
                    {
                        reveal = true;
                    }
                });
        });
        if reveal {
            self.reveal_class_step();
        }
    }
}

/// A caption drawn with the app's fonts at `size`.
pub fn caption_ui(ui: &mut egui::Ui, caption: &Caption, size: f32) {
    let spans_job = |ui: &egui::Ui, spans: &[Span]| {
        let mut job = egui::text::LayoutJob::default();
        for s in spans {
            let mut t = RichText::new(&s.text).size(size);
            if s.style.code {
                t = t.monospace().size(size - 1.0);
            }
            if s.style.strong {
                t = t.strong();
            }
            if s.style.emphasis {
                t = t.italics();
            }
            t.append_to(
                &mut job,
                ui.style(),
                egui::FontSelection::Default,
                egui::Align::LEFT,
            );
        }
        job
    };
    for b in &caption.blocks {
        match b {
            Block::Paragraph(spans) => {
                let job = spans_job(ui, spans);
                ui.label(job);
            }
            Block::List(items) => {
                for it in items {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(RichText::new("•").size(size));
                        let job = spans_job(ui, it);
                        ui.label(job);
                    });
                }
            }
            Block::Formula(f) => {
                ui.label(RichText::new(f).monospace().size(size));
            }
        }
    }
}

impl PnlabApp {
    /// The teaching keys, taken before the run's own shortcuts: F5, Esc,
    /// P and Ctrl ± (presenter), → Space ← (lesson), Enter (class mode's
    /// reveal).
    pub(super) fn teaching_keys(&mut self, ctx: &egui::Context) {
        self.presenter_keys(ctx);
        self.live_teacher_keys(ctx);
        if self.class.pending.is_some()
            && ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Enter))
        {
            self.reveal_class_step();
        }
        self.lesson_keys(ctx);
    }

    /// Class mode on or off (the selection path is hidden while on).
    pub fn set_class_mode(&mut self, on: bool) {
        self.class.on = on;
        self.class.pending = None;
        self.tree.marks.clear();
        self.tree.hide_path = on;
    }

    /// The Teach menu: presenter mode, the projector theme, class mode,
    /// the race, the lessons.
    pub(super) fn teach_menu(&mut self, ui: &mut egui::Ui, req: &mut Requests) {
        ui.menu_button("Teach", |ui| {
            if ui.button("Present (F5)").clicked() {
                self.set_presenting(true);
                ui.close();
            }
            ui.checkbox(
                &mut self.settings.projector,
                "Projector theme (light, high contrast)",
            );
            let mut class = self.class.on;
            if ui
                .checkbox(&mut class, "Class mode: predict the most-proving node")
                .changed()
            {
                self.set_class_mode(class);
            }
            let mut race = self.race.is_some();
            if ui.checkbox(&mut race, "Race a second run").changed() {
                req.set_race = Some(race);
            }
            ui.separator();
            if ui.button("Lessons…").clicked() {
                self.browser.open = true;
                ui.close();
            }
            match self.teach.live.is_some() {
                false => {
                    if ui
                        .button("Live class…")
                        .on_hover_text("every student answers on their own device")
                        .clicked()
                    {
                        self.open_live_dialog();
                        ui.close();
                    }
                }
                true => {
                    if ui.button("Leave the live class").clicked() {
                        self.leave_live_class();
                        ui.close();
                    }
                }
            }
            if self.teach.lesson.is_some() && ui.button("Close the lesson").clicked() {
                self.close_lesson();
                ui.close();
            }
        });
    }
}

impl PnlabApp {
    /// Acts on a pick in the browser: a position opens, a lesson plays.
    pub(super) fn browser_pick(&mut self, ctx: &egui::Context) {
        match self.browser.ui(ctx) {
            Some(super::browser::Pick::Position(source, entries)) => {
                self.open_entries(source, entries, 0)
            }
            Some(super::browser::Pick::Lesson(path)) => {
                match lesson::bundled_lessons()
                    .into_iter()
                    .find(|(p, _)| *p == path)
                {
                    Some((_, Ok(l))) => self.open_lesson(l),
                    Some((_, Err(e))) => self.messages.push(format!("error: {e}")),
                    None => self.messages.push(format!("error: {path}: no such lesson")),
                }
            }
            None => {}
        }
    }
}

impl PnlabApp {
    /// Opens the browser of positions and lessons.
    pub fn open_browser(&mut self) {
        self.browser.open = true;
    }
}
