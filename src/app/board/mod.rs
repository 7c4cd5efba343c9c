//! Board views (issue #5 item 2, docs/architecture.md "Board view"): the position of
//! the selected node (or the root) for every game, the selection path's
//! moves numbered on the board and per-move overlays on the root's moves
//! (the algorithm's label values, coloured by status, like HexGui's pn/dn).
//!
//! Each game's view reads only the game's native notation (docs/cli.md), so it
//! draws exactly what the engine parsed and needs no game internals.

mod connect;
mod connect4;
mod ewn;
mod heat;
mod hex;
mod othello;
mod pgame;
mod tictactoe;
mod tree;
mod xiangqi;

pub use heat::{HeatCache, KnowledgeCache};
pub use hex::KNOWLEDGE_LEGEND;

use egui::{Color32, Pos2, Rect, Sense, Vec2};

use crate::game::{AnyPosition, Player};
use crate::search::snapshot::NodeStatus;
use crate::search::Snapshot;

/// A per-move overlay: text and a colour (status) for one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlay {
    /// The move, in the game's notation.
    pub mv: String,
    /// Every label value, full precision (tooltips).
    pub text: String,
    /// The label values, to be fitted to the cell by [`cell_label`].
    pub values: Vec<f64>,
    /// Colour.
    pub status: NodeStatus,
}

/// What a board view draws.
pub struct BoardInput<'a> {
    /// The position to draw.
    pub position: &'a AnyPosition,
    /// Moves from the search root to `position` (numbered on the board).
    pub path: &'a [String],
    /// Overlays on the moves of `position` (only at the root).
    pub overlays: Vec<Overlay>,
    /// The move that led to the root, when known (a game record's ply):
    /// marked as the last move while the path is empty.
    pub last_move: Option<String>,
    /// Values an overlay shows (2; all with the board's toggle).
    pub shown_values: usize,
    /// Hex: the resistance heat map (per cell, 1 = hottest, `None` on
    /// stones), when switched on.
    pub heat: Option<&'a [Option<f32>]>,
    /// Hex: the knowledge's cell statuses (dead, captured, dominated,
    /// outside the mustplay region), when switched on.
    pub knowledge: Option<&'a crate::game::hex::knowledge::Knowledge>,
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
                    values: snap
                        .label_values
                        .iter()
                        .filter_map(|&i| c.values.get(i).copied())
                        .collect(),
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
            last_move: None,
            shown_values: 2,
            heat: None,
            knowledge: None,
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

/// A heat-map colour: pale yellow (cool) to deep red (hot).
fn heat_color(h: f32) -> Color32 {
    let h = h.clamp(0.0, 1.0).sqrt();
    let lerp = |a: f32, b: f32| (a + (b - a) * h).round() as u8;
    Color32::from_rgb(lerp(250.0, 200.0), lerp(235.0, 20.0), lerp(170.0, 20.0))
}

/// Fill colours of the two players' stones.
fn stone(p: Player) -> Color32 {
    match p {
        Player::First => Color32::from_rgb(25, 25, 25),
        Player::Second => Color32::from_rgb(240, 240, 240),
    }
}

/// The colour of a number or mark drawn on `p`'s [`stone`]: white on the
/// first player's dark stone, black on the second's light one.
fn text_on_stone(p: Player) -> Color32 {
    match p {
        Player::First => Color32::WHITE,
        Player::Second => Color32::BLACK,
    }
}

/// The player whose stone a board character shows (`x`/`X` the first,
/// `o`/`O` the second), if any.
fn stone_owner(ch: char) -> Option<Player> {
    match ch.to_ascii_lowercase() {
        'x' => Some(Player::First),
        'o' => Some(Player::Second),
        _ => None,
    }
}

/// The name of the square in column `col`, row `row` (from 0) of a
/// lettered grid: `a1`, `b3`, … (the move names of these games).
fn square_name(col: usize, row: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Draws an overlay's values in a `w × h` box centred at `c`, fitted by
/// the one label rule ([`crate::layout::labels::fit_cell`]): font sized
/// to the cell, numbers shortened (`1.2k`, `∞`), nothing when even the
/// smallest font does not fit (the values are then in the tooltip, the
/// tree and the inspector). Every board painter calls this.
pub fn cell_label(
    p: &egui::Painter,
    c: Pos2,
    o: &Overlay,
    shown: usize,
    (w, h): (f32, f32),
    color: Color32,
) {
    use crate::layout::labels::{fit_cell, ApproxMeasure};
    let Some(l) = fit_cell(&o.values, shown, w, h, 16.0, &ApproxMeasure) else {
        return;
    };
    let line = l.font * 1.2;
    let top = c.y - line * l.lines.len() as f32 / 2.0 + line / 2.0;
    for (k, text) in l.lines.iter().enumerate() {
        centered_text(
            p,
            Pos2::new(c.x, top + k as f32 * line),
            text,
            l.font,
            color,
        );
    }
}

/// Draws the board of `input` in a square area of the available width.
pub fn ui(ui: &mut egui::Ui, input: &BoardInput<'_>) {
    let id = egui::Id::unique("board_all_values");
    let mut all = ui.data_mut(|d| *d.get_persisted_mut_or(id, false));
    let shown = if all { usize::MAX } else { 2 };
    let input = &BoardInput {
        position: input.position,
        path: input.path,
        overlays: input.overlays.clone(),
        last_move: input.last_move.clone(),
        shown_values: shown,
        heat: input.heat,
        knowledge: input.knowledge,
    };
    let pos = input.position.shown();
    // The width that is seen: a wide row above (in a narrow side panel at
    // projector sizes) can make the available width larger than the
    // panel, and the board would be cut at the panel's edge.
    let visible = ui.clip_rect().right() - ui.cursor().left();
    let side = ui.available_width().min(visible).clamp(120.0, 420.0);
    // One painter module per row of the game table (`game::game_table!`).
    let drawn = crate::game_table!(paint pos, (ui, side, input));
    if !drawn {
        // A notation the view does not recognise: show it as text.
        ui.monospace(pos.notation());
    }
    let to_move = match (pos.to_move(), pos) {
        (Player::First, AnyPosition::Xiangqi(_)) => "Red",
        (Player::Second, AnyPosition::Xiangqi(_)) => "Black",
        (Player::First, _) => "first player",
        (Player::Second, _) => "second player",
    };
    let check = match pos {
        AnyPosition::Xiangqi(g) if g.in_check() => " (in check)",
        _ => "",
    };
    let ended_by = match pos {
        AnyPosition::Xiangqi(g) if g.is_repetition() => " (a repeated position)",
        _ => "",
    };
    match pos.outcome() {
        Some(o) => ui.label(format!(
            "game over{ended_by}: score {} for the first player",
            o.score_for(Player::First)
        )),
        None => ui.label(format!("{to_move} to move{check}")),
    };
    if !input.path.is_empty() {
        ui.label(format!("path: {}", input.path.join(" ")));
    }
    if !input.overlays.is_empty() {
        if ui
            .checkbox(&mut all, "all values on the board")
            .on_hover_text("Board cells show two values; this shows every label value")
            .changed()
        {
            ui.data_mut(|d| d.insert_persisted(id, all));
        }
        let lines: Vec<String> = input
            .overlays
            .iter()
            .map(|o| format!("{} {}", o.mv, o.text))
            .collect();
        ui.weak(lines.join(" · "))
            .on_hover_text("the root's moves with every label value");
    }
}

/// A small picture of `position` (the browser's thumbnails): its game's
/// painter at `side` points with nothing on it. Games whose view is text
/// or carries controls (hand-written trees, P-games, Connect(m,k,p)) get
/// none: false, and nothing is drawn.
pub fn thumbnail(ui: &mut egui::Ui, position: &AnyPosition, side: f32) -> bool {
    let input = BoardInput {
        position,
        path: &[],
        overlays: Vec::new(),
        last_move: None,
        shown_values: 0,
        heat: None,
        knowledge: None,
    };
    let pos = position.shown();
    match pos {
        AnyPosition::TicTacToe(_)
        | AnyPosition::Connect4(_)
        | AnyPosition::Hex(_)
        | AnyPosition::Othello(_)
        | AnyPosition::Ewn(_)
        | AnyPosition::Xiangqi(_) => crate::game_table!(paint pos, (ui, side, &input)),
        _ => false,
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

/// Draws the coordinates of an `n`×`n` square grid whose top-left corner
/// is `origin`: the files `a`, `b`, … above it and the ranks `1`, `2`, …
/// to its left, each `margin` away from the grid, in text of `size`.
fn grid_coordinates(
    p: &egui::Painter,
    origin: Pos2,
    cell: f32,
    n: usize,
    margin: f32,
    size: f32,
    color: Color32,
) {
    for i in 0..n {
        let along = (i as f32 + 0.5) * cell;
        let file = ((b'a' + i as u8) as char).to_string();
        centered_text(p, origin + Vec2::new(along, -margin), &file, size, color);
        let rank = (i + 1).to_string();
        centered_text(p, origin + Vec2::new(-margin, along), &rank, size, color);
    }
}

/// Draws `text` centred at `c` in the largest size up to `size` that
/// keeps it within `max_width` (labels that fit at any zoom).
fn fitted_text(p: &egui::Painter, c: Pos2, text: &str, size: f32, max_width: f32, color: Color32) {
    let font = egui::FontId::proportional(size.max(1.0));
    let galley = p.layout_no_wrap(text.to_string(), font, color);
    let w = galley.size().x;
    let size = if w > max_width && w > 0.0 {
        (size * max_width / w).max(1.0)
    } else {
        size
    };
    centered_text(p, c, text, size, color);
}

/// Index in `path` of move `mv` (1-based number shown on the board).
fn path_number(path: &[String], mv: &str) -> Option<usize> {
    path.iter().rposition(|m| m == mv).map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use crate::layout::labels::{fit_cell, ApproxMeasure, MIN_CELL_FONT};

    /// Othello (cell side/8.5, box 0.9 × 0.8 cell) and Connect Four (cell
    /// side/7, box 0.7 × 0.6 cell, inside the disc): the widest values
    /// fit their box at the board's narrowest and widest area.
    #[test]
    fn labels_fit_othello_and_connect_four_cells() {
        let worst = [123_456.0, f64::INFINITY, 0.0701];
        for side in [120.0f32, 420.0] {
            for (name, cell, bw, bh) in [
                ("othello", side / 8.5, 0.9, 0.8),
                ("connect4", side / 7.0, 0.7, 0.6),
            ] {
                let (w, h) = (cell * bw, cell * bh);
                match fit_cell(&worst, 2, w, h, 16.0, &ApproxMeasure) {
                    Some(l) => {
                        let (lw, lh) = l.size(&ApproxMeasure);
                        assert!(lw <= w + 0.01 && lh <= h + 0.01, "{name} {side}");
                        assert!(l.font >= MIN_CELL_FONT);
                    }
                    None => assert!(side < 420.0, "{name} at {side} drew no label"),
                }
            }
        }
    }
}
