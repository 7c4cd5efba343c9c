//! Tic-tac-toe: 3×3 grid, x black and o white, moves `a1`…`c3` (column
//! letter, row from the top, as in `game::tictactoe`).

use egui::{Color32, Rect, Stroke, StrokeKind, Vec2};

use super::{
    canvas, centered_text, overlay_color, path_number, square_name, stone, stone_owner,
    text_on_stone, BoardInput,
};
use crate::game::Player;

pub fn draw(ui: &mut egui::Ui, side: f32, input: &BoardInput<'_>) -> bool {
    let cells: Vec<char> = input
        .position
        .notation()
        .chars()
        .filter(|c| matches!(c, 'x' | 'o' | '.' | 'X' | 'O'))
        .collect();
    if cells.len() != 9 {
        return false;
    }
    let side = side.min(260.0);
    let (rect, p) = canvas(
        ui,
        Vec2::splat(side),
        format!("tic-tac-toe board {}", input.position.notation()),
    );
    let cell = side / 3.0;
    let line = ui.visuals().widgets.noninteractive.fg_stroke.color;
    for (i, ch) in cells.iter().enumerate() {
        let (col, row) = (i % 3, i / 3);
        let r = Rect::from_min_size(
            rect.min + Vec2::new(col as f32 * cell, row as f32 * cell),
            Vec2::splat(cell),
        );
        p.rect_stroke(r, 0.0, Stroke::new(1.0, line), StrokeKind::Inside);
        let name = square_name(col, row);
        let c = r.center();
        if let Some(w) = stone_owner(*ch) {
            p.circle_filled(c, cell * 0.36, stone(w));
            p.circle_stroke(c, cell * 0.36, Stroke::new(1.0, Color32::GRAY));
            let mark = if w == Player::First { "x" } else { "o" };
            let txt = text_on_stone(w);
            let label = path_number(input.path, &name).map_or(mark.to_string(), |n| n.to_string());
            centered_text(&p, c, &label, cell * 0.3, txt);
        } else if let Some(o) = input.overlay(&name) {
            p.rect_filled(
                r.shrink(3.0),
                3.0,
                overlay_color(o.status).gamma_multiply(0.35),
            );
            super::cell_label(
                &p,
                c,
                o,
                input.shown_values,
                (cell * 0.8, cell * 0.6),
                ui.visuals().text_color(),
            );
        }
        p.text(
            r.min + Vec2::new(3.0, 2.0),
            egui::Align2::LEFT_TOP,
            &name,
            egui::FontId::proportional(9.0),
            line,
        );
    }
    true
}
