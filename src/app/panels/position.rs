//! The position panel: the open position's title, notes, expected result
//! and question, its board (or the hand-written tree's text and moves)
//! with the game record's move list beside it, and the other positions
//! of the open file. Everything comes from [`Opened`]; the board shows
//! the run's snapshot only once the run on this position has sent one,
//! and the open position itself before that.

use crate::game::AnyPosition;
use crate::positions::PositionEntry;
use crate::search::Snapshot;

use super::super::board::{self, BoardInput, HeatCache, KnowledgeCache};
use super::super::opened::Opened;
use super::super::text;
use super::Requests;

/// The position panel's own state.
#[derive(Default)]
pub struct PositionPanel {
    /// The positions of the last opened file (choose one to load).
    pub file_entries: Vec<PositionEntry>,
    /// Where `file_entries` came from.
    pub file_source: String,
    /// The Hex resistance heat map of the shown position.
    heat: HeatCache,
    /// Hex boards: shade empty cells by the resistance model's score.
    pub heat_map: bool,
    /// The knowledge's report on the shown Hex position.
    knowledge: KnowledgeCache,
    /// Hex boards: mark dead, captured and dominated cells and the
    /// mustplay region.
    pub cell_status: bool,
}

impl PositionPanel {
    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        opened: &Opened,
        snap: Option<&Snapshot>,
        req: &mut Requests,
    ) {
        ui.heading("Position");
        let entry = opened.entry();
        ui.label(format!("{} ({})", opened.title(), entry.game.name()));
        if !opened.notes().is_empty() {
            text::notes(ui, opened.notes());
        }
        if entry.game == crate::game::GameKind::Tree
            && ui
                .small_button("Edit tree text…")
                .on_hover_text("edit the tree; each edit reopens it and restarts the search")
                .clicked()
        {
            req.edit_tree_text = true;
        }
        if let Some(r) = opened.expected_result() {
            ui.label(format!("expected: {r}"));
        }
        question_ui(ui, opened.within(), req);
        match opened.record() {
            Some(_) => self.board_and_record(ui, opened, snap, req),
            None => self.board(ui, opened, snap),
        }
        if !self.file_entries.is_empty() {
            ui.separator();
            ui.label(format!("In {}:", self.file_source));
            egui::ScrollArea::vertical()
                .id_salt("file-entries")
                .max_height(160.0)
                .show(ui, |ui| {
                    for e in &self.file_entries {
                        if ui
                            .selectable_label(e.name == entry.name, &e.name)
                            .on_hover_text(&e.notes)
                            .clicked()
                        {
                            req.open_entry = Some(e.clone());
                        }
                    }
                });
        }
    }

    /// The board of the shown node, or of the open position before the
    /// run's first snapshot.
    fn board(&mut self, ui: &mut egui::Ui, opened: &Opened, snap: Option<&Snapshot>) {
        let from_run = snap.and_then(BoardInput::from_snapshot);
        let mut input = from_run.unwrap_or(BoardInput {
            position: opened.root(),
            path: &[],
            overlays: Vec::new(),
            last_move: None,
            shown_values: 2,
            heat: None,
            knowledge: None,
        });
        input.last_move = opened
            .record()
            .and_then(|r| r.last_move())
            .map(str::to_string);
        let hex = matches!(input.position.shown(), AnyPosition::Hex(_));
        if hex && self.heat_map {
            input.heat = self.heat.get(input.position);
        }
        if hex && self.cell_status {
            input.knowledge = self.knowledge.get(input.position);
        }
        board::ui(ui, &input);
        if hex {
            ui.checkbox(&mut self.heat_map, "Resistance heat map")
                .on_hover_text("Shade each empty cell by its share of the current in both players' resistor circuits (Anshelevich 2002)");
            ui.checkbox(&mut self.cell_status, "Cell status (dead, captured, dominated, mustplay)")
                .on_hover_text("What dfpn-fast's Hex knowledge says about the shown position: cells it fills in, moves it skips, and the mustplay region the opponent's semi-connections leave");
            if let Some(k) = input.knowledge {
                ui.small(k.summary());
                ui.small(board::KNOWLEDGE_LEGEND);
            }
        }
    }

    /// The board with the game record's move list beside it; a click on a
    /// move makes the position after it the root, ←/→ (while the pointer
    /// is over the two) walk the game.
    fn board_and_record(
        &mut self,
        ui: &mut egui::Ui,
        opened: &Opened,
        snap: Option<&Snapshot>,
        req: &mut Requests,
    ) {
        let Some(view) = opened.record() else {
            return;
        };
        let width = ui.available_width();
        let area = ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width((width * 0.64).max(140.0));
                self.board(ui, opened, snap);
            });
            ui.vertical(|ui| {
                ui.label(view.describe());
                ui.horizontal(|ui| {
                    if ui.small_button("Start").clicked() {
                        req.record_ply = Some(0);
                    }
                    if ui.small_button("End").clicked() {
                        req.record_ply = Some(view.len());
                    }
                });
                ui.horizontal(|ui| {
                    if ui.small_button("Previous ply").clicked() {
                        req.record_ply = Some(view.ply.saturating_sub(1));
                    }
                    if ui.small_button("Next ply").clicked() {
                        req.record_ply = Some(view.ply + 1);
                    }
                });
                egui::ScrollArea::vertical()
                    .id_salt("record-moves")
                    .max_height(300.0)
                    .show(ui, |ui| {
                        let current = view.ply.checked_sub(1);
                        for row in view.rows() {
                            ui.horizontal(|ui| {
                                ui.monospace(format!("{:>3}.", row.number));
                                for (i, mv) in [row.first, row.second].into_iter().flatten() {
                                    let r = ui.selectable_label(
                                        current == Some(i),
                                        egui::RichText::new(mv).monospace(),
                                    );
                                    if r.clicked() {
                                        req.record_ply = Some(i + 1);
                                    }
                                }
                            });
                        }
                    });
            });
        });
        if ui.rect_contains_pointer(area.response.rect) {
            let (back, forward) = ui.ctx().input_mut(|i| {
                (
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowLeft),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowRight),
                )
            });
            if back {
                req.record_ply = Some(view.ply.saturating_sub(1));
            }
            if forward {
                req.record_ply = Some(view.ply + 1);
            }
        }
    }
}

/// The question asked of the side to move, with the mate question's
/// limit under it: on one row the two were wider than the side panel at
/// projector sizes (1024×768), and a row wider than the panel widens
/// everything after it, so text ran past the panel's edge.
fn question_ui(ui: &mut egui::Ui, within: Option<u32>, req: &mut Requests) {
    ui.label("Question: the side to move wins");
    ui.horizontal(|ui| {
        let mut on = within.is_some();
        let mut n = within.unwrap_or(1);
        let mut changed = ui
            .checkbox(&mut on, "within")
            .on_hover_text("The mate question: a win within N moves of the side to move")
            .changed();
        ui.add_enabled_ui(on, |ui| {
            changed |= ui
                .add(egui::DragValue::new(&mut n).range(0..=crate::positions::MAX_WITHIN))
                .on_hover_text("moves of the side to move")
                .changed();
            ui.label(if n == 1 { "move" } else { "moves" });
        });
        if changed {
            req.within = Some(on.then_some(n));
        }
    });
}
