//! The status bar: the status word from the run's state machine (with its
//! reason), the counters the algorithm keeps, the best move judged
//! against the open position's correct moves, the memory used against
//! the budget, the progress of a time travel or a slow load (each with
//! Cancel), and the latest message.

use crate::search::correct_moves::CorrectMoves;

use super::super::counters;
use super::super::driver::Command;
use super::super::logic::RunState;
use super::Requests;

/// What the status bar shows besides the run.
pub struct StatusInput<'a> {
    /// The open position's correct root moves, once known.
    pub correct: Option<&'a CorrectMoves>,
    /// Bytes the run holds (tree or table, and its checkpoints).
    pub memory_used: u64,
    /// The memory budget, when on.
    pub memory_budget: Option<u64>,
    /// A slow load under way: what it is doing.
    pub loading: Option<String>,
    /// The latest message, if any.
    pub message: Option<&'a str>,
    /// A lesson question is open: the best move and its verdict would
    /// give its answer away.
    pub quiz_open: bool,
}

/// `1.5 GB`, `320 MB`, `12 KB`.
pub fn bytes_text(b: u64) -> String {
    let b = b as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else {
        format!("{:.0} KB", b / 1e3)
    }
}

/// How the root was decided when the run is final before its first
/// iteration (a terminal root, or a threat search at the root).
pub fn decided_before_search(run: &RunState) -> Option<String> {
    let snap = run.snapshot.as_ref()?;
    if snap.counters.iterations > 0 || !snap.status.is_final() {
        return None;
    }
    let answer = snap.status.outcome_name();
    if let Some(n) = run.facts.extra.get("vcdt_nodes").and_then(|v| v.as_u64()) {
        if n > 0 {
            return Some(format!(
                "{answer} before the first iteration: the threat search (VCDT) at the root decided it ({n} VCDT nodes)"
            ));
        }
    }
    Some(format!(
        "{answer} before the first iteration: the root position is already decided"
    ))
}

/// Draws the status bar; a click on Cancel or Dismiss lands in `req`
/// (the returned flag: the messages were dismissed).
pub fn ui(ui: &mut egui::Ui, run: &RunState, input: &StatusInput<'_>, req: &mut Requests) -> bool {
    let mut dismissed = false;
    ui.horizontal_wrapped(|ui| {
        ui.strong(run.status_word.describe());
        ui.separator();
        if let Some(s) = run.snapshot.as_ref() {
            for item in counters::items(&s.algo, &s.counters) {
                ui.label(format!("{} {}", item.label, item.value))
                    .on_hover_text(item.key);
                ui.separator();
            }
            ui.label(format!("time {:.0} ms", s.counters.time_ms));
            ui.separator();
            let best = run.shown_sample().and_then(|x| x.best_child);
            let label = best
                .and_then(|i| s.root_children.get(i as usize))
                .map(|c| c.move_label.clone());
            if input.quiz_open {
                ui.label("best move hidden until the answer");
                ui.separator();
            } else if let Some(b) = label {
                let verdict = match input.correct {
                    Some(c) if c.is_correct(best) => " (correct)",
                    Some(_) => " (wrong)",
                    None => "",
                };
                ui.label(format!("best move {b}{verdict}"));
                ui.separator();
            }
        }
        let used = bytes_text(input.memory_used);
        match input.memory_budget {
            Some(b) => ui.label(format!("memory {used} of {}", bytes_text(b))),
            None => ui.label(format!("memory {used} (no budget)")),
        }
        .on_hover_text("the search's tree or table and its time-travel checkpoints; the budget is set under Budget");
    });
    if let Some(t) = run.travel {
        ui.horizontal(|ui| {
            ui.add(
                egui::ProgressBar::new(t.fraction())
                    .desired_width(240.0)
                    .text(format!("going to iteration {} (at {})", t.target, t.at)),
            );
            if ui.button("Cancel").clicked() {
                req.commands.push(Command::Pause);
            }
        });
    }
    if let Some(l) = &input.loading {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(l);
            if ui.button("Cancel").clicked() {
                req.cancel_load = true;
            }
        });
    }
    if let Some(d) = decided_before_search(run) {
        ui.label(d);
    }
    if let Some(p) = &run.proof {
        ui.label(format!(
            "{} certificate: {} positions, {:.1} KiB → {} (check it with pnlab verify)",
            if p.proved { "proof" } else { "disproof" },
            p.positions,
            p.bytes as f64 / 1024.0,
            p.path.display()
        ));
    }
    if let Some(m) = input.message {
        ui.horizontal(|ui| {
            let color = if m.starts_with("error") {
                ui.visuals().error_fg_color
            } else {
                ui.visuals().text_color()
            };
            ui.colored_label(color, m);
            if ui.small_button("Dismiss").clicked() {
                dismissed = true;
            }
        });
    }
    dismissed
}
