//! Connect Four 7×6: the notation is the Pons move string (1-based column
//! digits from the empty board, docs/cli.md); discs are dropped in that order.
//! The first player's discs are dark, the second's light; moves are the
//! column digits.

use egui::{Color32, Stroke, Vec2};

use super::{canvas, centered_text, overlay_color, stone, text_on_stone, BoardInput};
use crate::game::Player;

const COLS: usize = 7;

/// An empty cell: a darker shade of the board's blue.
const HOLE: Color32 = Color32::from_rgb(14, 38, 92);
const ROWS: usize = 6;

pub fn draw(ui: &mut egui::Ui, side: f32, input: &BoardInput<'_>) -> bool {
    let moves = input.position.notation();
    let mut grid = [[None::<(Player, usize)>; COLS]; ROWS];
    let mut height = [0usize; COLS];
    let digits: Vec<usize> = moves
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as usize)
        .collect();
    for (n, &d) in digits.iter().enumerate() {
        if d == 0 || d > COLS || height[d - 1] >= ROWS {
            return false;
        }
        let who = if n % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        grid[height[d - 1]][d - 1] = Some((who, n));
        height[d - 1] += 1;
    }
    let cell = side / COLS as f32;
    let size = Vec2::new(side, cell * (ROWS as f32 + 0.8));
    let (rect, p) = canvas(ui, size, format!("connect four board {moves}"));
    let top = rect.min.y + cell * 0.8;
    p.rect_filled(
        egui::Rect::from_min_size(
            egui::pos2(rect.min.x, top),
            Vec2::new(side, cell * ROWS as f32),
        ),
        6.0,
        Color32::from_rgb(30, 80, 170),
    );
    let first_path_move = digits.len().saturating_sub(input.path.len());
    for (row, line) in grid.iter().enumerate() {
        for (col, slot) in line.iter().enumerate() {
            let c = egui::pos2(
                rect.min.x + (col as f32 + 0.5) * cell,
                top + (ROWS - 1 - row) as f32 * cell + cell * 0.5,
            );
            match slot {
                Some((who, n)) => {
                    p.circle_filled(c, cell * 0.4, stone(*who));
                    if *n >= first_path_move {
                        let t = text_on_stone(*who);
                        centered_text(
                            &p,
                            c,
                            &(n - first_path_move + 1).to_string(),
                            cell * 0.35,
                            t,
                        );
                    }
                }
                None => {
                    // A hole shows the board's own blue, darker: the dark
                    // theme's background colour was the first player's
                    // near-black, so a full column and a playable one
                    // looked alike.
                    p.circle_filled(c, cell * 0.4, HOLE);
                }
            }
        }
    }
    for col in 0..COLS {
        let name = (col + 1).to_string();
        let c = egui::pos2(
            rect.min.x + (col as f32 + 0.5) * cell,
            rect.min.y + cell * 0.4,
        );
        match input.overlay(&name) {
            Some(o) => {
                p.circle_filled(c, cell * 0.38, overlay_color(o.status).gamma_multiply(0.5));
                super::cell_label(
                    &p,
                    c,
                    o,
                    input.shown_values,
                    (cell * 0.7, cell * 0.6),
                    ui.visuals().text_color(),
                );
            }
            None => centered_text(&p, c, &name, cell * 0.3, ui.visuals().weak_text_color()),
        }
    }
    p.rect_stroke(
        egui::Rect::from_min_size(
            egui::pos2(rect.min.x, top),
            Vec2::new(side, cell * ROWS as f32),
        ),
        6.0,
        Stroke::new(1.0, Color32::BLACK),
        egui::StrokeKind::Inside,
    );
    true
}
