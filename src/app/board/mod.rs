//! Board views (issue #5 item 2, PRODUCT.md "Board view"): the position of
//! the selected node (or the root) for every game, the selection path's
//! moves numbered on the board and per-move overlays on the root's moves
//! (the algorithm's label values, coloured by status, like HexGui's pn/dn).
//!
//! Each game's view reads only the game's native notation (CLI.md), so it
//! draws exactly what the engine parsed and needs no game internals.

mod connect4;
mod ewn;
mod hex;
mod othello;
mod pgame;
mod tictactoe;
mod tree;

use egui::{Color32, Pos2, Rect, Sense, Vec2};

use crate::game::{AnyPosition, Player};
use crate::search::snapshot::NodeStatus;
use crate::search::Snapshot;

/// A per-move overlay: text and a colour (status) for one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlay {
    pub mv: String,
    pub text: String,
    pub status: NodeStatus,
}

/// What a board view draws.
pub struct BoardInput<'a> {
    pub position: &'a AnyPosition,
    /// Moves from the search root to `position` (numbered on the board).
    pub path: &'a [String],
    /// Overlays on the moves of `position` (only at the root).
    pub overlays: Vec<Overlay>,
}

impl<'a> BoardInput<'a> {
    /// The snapshot's position with overlays from the root's children.
    pub fn from_snapshot(snap: &'a Snapshot) -> Option<BoardInput<'a>> {
        let position = snap.position.as_ref()?;
        let overlays = if snap.position_path.is_empty() {
            snap.root_children
                .iter()
                .map(|c| Overlay {
                    mv: c.move_label.clone(),
                    text: snap.label(&c.values, "/"),
                    status: c.status,
                })
                .collect()
        } else {
            Vec::new()
        };
        Some(BoardInput {
            position,
            path: &snap.position_path,
            overlays,
        })
    }

    fn overlay(&self, mv: &str) -> Option<&Overlay> {
        self.overlays.iter().find(|o| o.mv == mv)
    }
}

/// Colour of an overlay by status.
fn overlay_color(s: NodeStatus) -> Color32 {
    match s {
        NodeStatus::Proven => Color32::from_rgb(46, 160, 67),
        NodeStatus::Disproven => Color32::from_rgb(207, 57, 57),
        NodeStatus::Unknown => Color32::from_rgb(40, 110, 200),
    }
}

/// Fill colours of the two players' stones.
fn stone(p: Player) -> Color32 {
    match p {
        Player::First => Color32::from_rgb(25, 25, 25),
        Player::Second => Color32::from_rgb(240, 240, 240),
    }
}

/// Draws the board of `input` in a square area of the available width.
pub fn ui(ui: &mut egui::Ui, input: &BoardInput<'_>) {
    let pos = input.position.shown();
    let side = ui.available_width().clamp(120.0, 420.0);
    let drawn = match pos {
        AnyPosition::TicTacToe(_) => tictactoe::draw(ui, side, input),
        AnyPosition::Connect4(_) => connect4::draw(ui, side, input),
        AnyPosition::Hex(_) => hex::draw(ui, side, input),
        AnyPosition::Othello(_) => othello::draw(ui, side, input),
        AnyPosition::PGame(_) => pgame::draw(ui, input),
        AnyPosition::Tree(_) => tree::draw(ui, input),
        AnyPosition::Ewn(_) => ewn::draw(ui, side, input),
        AnyPosition::Xiangqi(_) | AnyPosition::Within(_) => false,
    };
    if !drawn {
        // A notation the view does not recognise: show it as text.
        ui.monospace(pos.notation());
    }
    let to_move = match pos.to_move() {
        Player::First => "first player",
        Player::Second => "second player",
    };
    match pos.outcome() {
        Some(o) => ui.label(format!(
            "game over: score {} for the first player",
            o.score_for(Player::First)
        )),
        None => ui.label(format!("{} to move", to_move)),
    };
    if !input.path.is_empty() {
        ui.label(format!("path: {}", input.path.join(" ")));
    }
}

/// Allocates a board area and its painter.
fn canvas(ui: &mut egui::Ui, size: Vec2, label: String) -> (Rect, egui::Painter) {
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
    (rect, ui.painter_at(rect))
}

/// Draws a move number or overlay text centred at `c`.
fn centered_text(p: &egui::Painter, c: Pos2, text: &str, size: f32, color: Color32) {
    p.text(
        c,
        egui::Align2::CENTER_CENTER,
        text,
        egui::FontId::proportional(size),
        color,
    );
}

/// Index in `path` of move `mv` (1-based number shown on the board).
fn path_number(path: &[String], mv: &str) -> Option<usize> {
    path.iter().rposition(|m| m == mv).map(|i| i + 1)
}
