//! Hand-written AND/OR trees: the tree itself is the board (issue #5 item
//! 2), so the view shows the tree's text and the moves from here; the tree
//! view draws the search over it.

use super::BoardInput;

pub fn draw(ui: &mut egui::Ui, _side: f32, input: &BoardInput<'_>) -> bool {
    let text = input.position.notation();
    egui::ScrollArea::vertical()
        .id_salt("tree-text")
        .max_height(220.0)
        .show(ui, |ui| {
            ui.monospace(text);
        });
    super::pgame::moves_list(ui, input);
    true
}
