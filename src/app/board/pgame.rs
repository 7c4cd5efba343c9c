//! P-games (docs/algorithms.md §10): the tree is implicit, so the board is the
//! game's description, the path's moves and the moves available here.

use super::BoardInput;

pub fn draw(ui: &mut egui::Ui, _side: f32, input: &BoardInput<'_>) -> bool {
    ui.monospace(input.position.notation());
    // Moves are named `index:value` (game::pgame); the path's values and
    // their sum are what decides a leaf (docs/algorithms.md §10).
    let values: Vec<i64> = input
        .path
        .iter()
        .filter_map(|m| m.split_once(':'))
        .filter_map(|(_, v)| v.trim_start_matches('+').parse().ok())
        .collect();
    if !values.is_empty() {
        let sum: i64 = values.iter().sum();
        let terms: Vec<String> = values.iter().map(|v| format!("{v:+}")).collect();
        ui.label(format!("path values {} = {sum:+}", terms.join(" ")));
    }
    moves_list(ui, input);
    true
}

/// The legal moves with the root's overlays (shared with the tree view).
pub(super) fn moves_list(ui: &mut egui::Ui, input: &BoardInput<'_>) {
    let moves = input.position.legal_move_names();
    if moves.is_empty() {
        return;
    }
    ui.label("moves here:");
    ui.horizontal_wrapped(|ui| {
        for m in moves {
            match input.overlay(&m) {
                Some(o) => ui.label(
                    egui::RichText::new(format!("{m} [{}]", o.text))
                        .color(super::overlay_color(o.status)),
                ),
                None => ui.label(m),
            };
        }
    });
}
