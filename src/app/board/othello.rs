//! Othello 8×8 from OBF (64 chars `X`/`O`/`-`, a1…h8 row by row, then the
//! side to move): discs, dots on the legal moves and overlays on the
//! root's moves.

use egui::{Color32, Rect, Stroke, StrokeKind, Vec2};

use super::{
    canvas, centered_text, grid_coordinates, overlay_color, path_number, square_name, stone,
    stone_owner, text_on_stone, BoardInput,
};

pub fn draw(ui: &mut egui::Ui, side: f32, input: &BoardInput<'_>) -> bool {
    let notation = input.position.notation();
    let cells: Vec<char> = notation.chars().take(64).collect();
    if cells.len() != 64
        || !cells
            .iter()
            .all(|c| matches!(c, 'X' | 'O' | '-' | 'x' | 'o'))
    {
        return false;
    }
    let legal = input.position.legal_move_names();
    let cell = side / 8.5;
    let (rect, p) = canvas(
        ui,
        Vec2::splat(cell * 8.5),
        format!("othello board {notation}"),
    );
    let origin = rect.min + Vec2::splat(cell * 0.5);
    let text = ui.visuals().text_color();
    grid_coordinates(&p, origin, cell, 8, cell * 0.25, cell * 0.3, text);
    for (i, ch) in cells.iter().enumerate() {
        let (c, r) = (i % 8, i / 8);
        let cr = Rect::from_min_size(
            origin + Vec2::new(c as f32 * cell, r as f32 * cell),
            Vec2::splat(cell),
        );
        p.rect_filled(cr, 0.0, Color32::from_rgb(30, 120, 60));
        p.rect_stroke(
            cr,
            0.0,
            Stroke::new(1.0, Color32::from_rgb(10, 60, 30)),
            StrokeKind::Inside,
        );
        let name = square_name(c, r);
        if let Some(w) = stone_owner(*ch) {
            p.circle_filled(cr.center(), cell * 0.4, stone(w));
            if let Some(n) = path_number(input.path, &name) {
                let t = text_on_stone(w);
                centered_text(&p, cr.center(), &n.to_string(), cell * 0.35, t);
            }
        } else if let Some(o) = input.overlay(&name) {
            p.rect_filled(
                cr.shrink(2.0),
                2.0,
                overlay_color(o.status).gamma_multiply(0.6),
            );
            super::cell_label(
                &p,
                cr.center(),
                o,
                input.shown_values,
                (cell * 0.9, cell * 0.8),
                Color32::WHITE,
            );
        } else if legal.iter().any(|m| m == &name) {
            p.circle_filled(cr.center(), cell * 0.1, Color32::from_gray(20));
        }
    }
    true
}
