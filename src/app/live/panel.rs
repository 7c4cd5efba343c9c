//! What a live class adds to the window: the teacher's bar (join
//! address and QR code, live counts, the value histogram, the share
//! right, the buttons that move the class) and a student's whole frame,
//! laid out for a phone (caption and question on top, then the tree or
//! the board).

use egui::RichText;

use crate::live::protocol::{Phase, ValueCount};

use super::session::TeacherCommand;
use super::{qr, LiveClass};
use crate::app::panels::Requests;
use crate::app::state::PnlabApp;

/// The bars of the value histogram: the most typed value's is this wide.
const BAR_WIDTH: f32 = 220.0;

impl PnlabApp {
    /// The teacher's live bar, under the lesson strip (or the presenter's
    /// caption); nothing when this window is not a class's teacher.
    pub(in crate::app) fn live_teacher_panel(&mut self, ui: &mut egui::Ui) {
        let Some(live) = self.teach.live.as_ref() else {
            return;
        };
        if !live.session.is_teacher() {
            return;
        }
        let mut command = None;
        let mut leave = false;
        let mut toggle_qr = false;
        egui::Panel::top("live-class").show(ui, |ui| {
            let s = &live.session;
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Live class").strong().size(18.0));
                match live.join_url() {
                    Some(url) => {
                        ui.label(RichText::new("students join at").size(18.0));
                        ui.label(RichText::new(&url).monospace().strong().size(20.0));
                    }
                    None => {
                        ui.label("creating the room…");
                    }
                }
                if ui.button("QR code").clicked() {
                    toggle_qr = true;
                }
            });
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(s.status_line()).size(17.0));
                let phase = s.phase();
                if ui
                    .add_enabled(phase == Phase::Open, egui::Button::new("Close answers (C)"))
                    .clicked()
                {
                    command = Some(TeacherCommand::Close);
                }
                if ui
                    .add_enabled(
                        matches!(phase, Phase::Open | Phase::Closed),
                        egui::Button::new("Reveal (Enter)"),
                    )
                    .clicked()
                {
                    command = Some(TeacherCommand::Reveal);
                }
                if !s.ended && ui.button("End class").clicked() {
                    command = Some(TeacherCommand::End);
                }
                if s.ended && ui.button("Leave").clicked() {
                    leave = true;
                }
                if let Some(url) = summary_url(live) {
                    ui.hyperlink_to("summary (CSV)", url)
                        .on_hover_text("every question's anonymous tally, as CSV");
                }
            });
            if let Some(share) = &s.share {
                ui.label(
                    RichText::new(format!("{} · the answer: {}", share.text(), share.answer))
                        .strong()
                        .size(18.0),
                );
            }
            if let Some(t) = s.tally.as_ref().filter(|t| !t.values.is_empty()) {
                value_histogram(ui, &t.values);
            }
            if let Some(n) = &s.notice {
                ui.colored_label(ui.visuals().warn_fg_color, n);
            }
        });
        if toggle_qr {
            self.teach.live_qr = !self.teach.live_qr;
        }
        self.live_qr_window(ui.ctx());
        if let Some(c) = command {
            self.live_command(c);
        }
        if leave {
            self.leave_live_class();
        }
    }

    /// The teacher's keys in a live class: Enter reveals the answer (as
    /// in class mode), C closes the answers.
    pub(in crate::app) fn live_teacher_keys(&mut self, ctx: &egui::Context) {
        let Some(live) = self.teach.live.as_ref() else {
            return;
        };
        if !live.session.is_teacher() || ctx.egui_wants_keyboard_input() {
            return;
        }
        let phase = live.session.phase();
        let (enter, close) = ctx.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
                i.consume_key(egui::Modifiers::NONE, egui::Key::C),
            )
        });
        if enter && matches!(phase, Phase::Open | Phase::Closed) {
            self.live_command(TeacherCommand::Reveal);
        } else if close && phase == Phase::Open {
            self.live_command(TeacherCommand::Close);
        }
    }

    /// The join address large, with its QR code, over the tree until the
    /// teacher closes it.
    fn live_qr_window(&mut self, ctx: &egui::Context) {
        let Some(url) = self.teach.live.as_ref().and_then(LiveClass::join_url) else {
            return;
        };
        let mut open = self.teach.live_qr;
        egui::Window::new("Join the class")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-16.0, 120.0))
            .show(ctx, |ui| {
                let side = (ctx.content_rect().height() * 0.4).clamp(160.0, 420.0);
                qr::qr_ui(ui, &url, side);
                ui.label(RichText::new(&url).monospace().size(18.0));
            });
        self.teach.live_qr = open;
    }

    /// A student's device: the class's line, the lesson's caption and the
    /// question on top; the tree (or the board) below. True when it drew
    /// the frame.
    pub(in crate::app) fn live_student_frame(
        &mut self,
        ui: &mut egui::Ui,
        req: &mut Requests,
    ) -> bool {
        if !self.is_live_student() {
            return false;
        }
        egui::Panel::top("live-student").show(ui, |ui| {
            if let Some(live) = self.teach.live.as_ref() {
                let s = &live.session;
                ui.label(RichText::new(s.status_line()).size(14.0));
                if let Some(n) = &s.notice {
                    ui.colored_label(ui.visuals().warn_fg_color, n);
                }
                if let Some(a) = &s.my_answer {
                    let text = match a {
                        crate::live::protocol::LiveAnswer::Node(m) if m.is_empty() => {
                            "your answer: the root".to_string()
                        }
                        crate::live::protocol::LiveAnswer::Node(m) => {
                            format!("your answer: node {}", m.join(" "))
                        }
                        crate::live::protocol::LiveAnswer::Value(v) => format!("your answer: {v}"),
                    };
                    let more = if s.may_answer() {
                        " (you may change it until the teacher closes the question)"
                    } else {
                        ""
                    };
                    ui.label(RichText::new(format!("{text}{more}")).strong());
                }
            }
            ui.horizontal(|ui| {
                let board = &mut self.teach.live_board;
                ui.selectable_value(board, false, "Tree");
                ui.selectable_value(board, true, "Board");
            });
        });
        egui::Panel::top("live-lesson").show(ui, |ui| self.lesson_strip(ui, req, 15.0));
        egui::CentralPanel::default().show(ui, |ui| {
            let rect = ui.available_rect_before_wrap();
            if self.teach.live_board {
                self.present_board(ui);
            } else {
                let run = &self.main.state;
                req.tree
                    .extend(self.tree.ui(ui, run.snapshot.as_ref(), run.arrivals));
            }
            self.verdict_overlay(ui, rect);
        });
        true
    }
}

/// The teacher's link to the room's summary CSV on the server.
fn summary_url(live: &LiveClass) -> Option<String> {
    let code = live.session.code.as_ref()?;
    let super::session::Role::Teacher { token: Some(token) } = &live.session.role else {
        return None;
    };
    Some(format!(
        "{}/live/summary.csv?code={code}&token={token}",
        live.origin
    ))
}

/// One bar per value typed, most typed first.
fn value_histogram(ui: &mut egui::Ui, values: &[ValueCount]) {
    let most = values.iter().map(|v| v.count).max().unwrap_or(1).max(1);
    for v in values.iter().take(8) {
        ui.horizontal(|ui| {
            ui.add_sized(
                [80.0, 20.0],
                egui::Label::new(RichText::new(&v.value).monospace().size(17.0)),
            );
            let w = BAR_WIDTH * v.count as f32 / most as f32;
            let (rect, _) =
                ui.allocate_exact_size(egui::vec2(w.max(2.0), 18.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 2.0, egui::Color32::from_rgb(130, 60, 200));
            ui.label(RichText::new(v.count.to_string()).size(17.0));
        });
    }
}

/// Teach › Live class…: where the server is, which lesson, or a code to
/// join.
#[derive(Clone, Debug)]
pub struct LiveDialog {
    /// The server's address (`http://host:port`); a page uses its own.
    pub origin: String,
    /// The lesson to teach (a bundled lesson's name).
    pub lesson: String,
    /// A join code, to join as a student instead.
    pub code: String,
}

impl PnlabApp {
    /// Opens Teach › Live class… with the open lesson chosen.
    pub(in crate::app) fn open_live_dialog(&mut self) {
        let lesson = self
            .teach
            .lesson
            .as_ref()
            .map(|p| p.lesson.file.clone())
            .filter(|f| crate::lesson::bundled::LESSONS.iter().any(|l| l.path == *f))
            .unwrap_or_else(|| {
                crate::lesson::bundled::LESSONS
                    .first()
                    .map_or_else(String::new, |l| l.path.to_string())
            });
        self.teach.live_dialog = Some(LiveDialog {
            origin: page_origin().unwrap_or_else(|| "http://127.0.0.1:8080".into()),
            lesson,
            code: String::new(),
        });
    }

    /// Draws Teach › Live class… while it is open.
    pub(in crate::app) fn live_dialog(&mut self, ctx: &egui::Context) {
        let Some(mut d) = self.teach.live_dialog.take() else {
            return;
        };
        let mut open = true;
        let mut start = false;
        let mut join = false;
        egui::Window::new("Live class")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label(
                    "Every student answers on their own phone or laptop; the projector shows the \
                     class's answers. The room lives on a `pnlab serve` server.",
                );
                if page_origin().is_none() {
                    ui.horizontal(|ui| {
                        ui.label("server");
                        ui.text_edit_singleline(&mut d.origin);
                    });
                }
                egui::ComboBox::from_label("lesson")
                    .selected_text(d.lesson.trim_start_matches("lessons/"))
                    .show_ui(ui, |ui| {
                        for l in crate::lesson::bundled::LESSONS {
                            let name = l.path.trim_start_matches("lessons/");
                            ui.selectable_value(&mut d.lesson, l.path.to_string(), name);
                        }
                    });
                start = ui
                    .button("Start the class (this window is the projector)")
                    .clicked();
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label("or join with a code");
                    ui.add(egui::TextEdit::singleline(&mut d.code).desired_width(90.0));
                    join = ui
                        .add_enabled(!d.code.trim().is_empty(), egui::Button::new("Join"))
                        .clicked();
                });
            });
        if start {
            self.start_live_class(ctx, &d.origin, &d.lesson);
        } else if join {
            self.join_live_class(ctx, &d.origin, &d.code);
        } else if open {
            self.teach.live_dialog = Some(d);
        }
    }
}

/// The page's own address (`http://host:port`): the server that served
/// it holds the rooms. `None` on the desktop.
fn page_origin() -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window().and_then(|w| w.location().origin().ok())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}
