//! Hex N×N as the rhombus of hexagons of docs/cli.md: cell `c3` = column c from
//! the left, row 3 from the top, a1 the top-left corner; cell (c, r)
//! touches (c±1, r), (c, r±1), (c+1, r−1) and (c−1, r+1), which is what
//! placing row r half a cell further right per row draws. Black (first)
//! joins the top and bottom rows, White the left and right columns: those
//! edges are coloured.

use egui::{Color32, Pos2, Sense, Shape, Stroke, Vec2};

use crate::game::hex::knowledge::CellStatus;

use super::{
    canvas, cell_label, centered_text, heat_color, overlay_color, square_name, stone,
    text_on_stone, BoardInput,
};

/// Cell width (flat side to flat side) and hexagon radius of an `n × n`
/// board drawn `side` points wide: the rhombus is 1.5 n cells wide plus
/// room for the row numbers and the edge colours.
pub(super) fn cell_size(n: usize, side: f32) -> (f32, f32) {
    let w = side / (1.5 * n as f32 + 1.15);
    (w, w / 3f32.sqrt())
}

/// The label box of a cell: the rectangle inside the hexagon (full width
/// between the flat sides, the radius high).
pub(super) fn label_box(w: f32, s: f32) -> (f32, f32) {
    (w * 0.9, s * 1.0)
}
use crate::game::Player;

/// How the cell statuses are drawn (shown under the board with them).
pub const KNOWLEDGE_LEGEND: &str =
    "grey with ×: dead · dot: captured (owner's colour) · ring: dominated · dim: outside the mustplay region · green edge: tried";

/// An empty cell's wood.
const BOARD: Color32 = Color32::from_rgb(205, 170, 110);

/// A cell outside the mustplay region: the wood, dimmed.
const OUTSIDE_MUSTPLAY: Color32 = Color32::from_rgb(115, 100, 75);

/// The green edge of a cell the solver tries.
const TRIED: Color32 = Color32::from_rgb(30, 150, 60);

/// Parses `SIZE: cell cell …` into the size and the played cells.
fn parse(notation: &str) -> Option<(usize, Vec<(usize, usize)>)> {
    let (size, rest) = notation.split_once(':')?;
    let n: usize = size.trim().parse().ok()?;
    if !(1..=26).contains(&n) {
        return None;
    }
    let mut cells = Vec::new();
    for tok in rest.split_whitespace() {
        let mut chars = tok.chars();
        let c = chars.next()?.to_ascii_lowercase();
        let col = (c as u8).checked_sub(b'a')? as usize;
        let row: usize = chars.as_str().parse().ok()?;
        if col >= n || row == 0 || row > n {
            return None;
        }
        cells.push((col, row - 1));
    }
    Some((n, cells))
}

fn hexagon(c: Pos2, s: f32) -> Vec<Pos2> {
    (0..6)
        .map(|k| {
            let a = std::f32::consts::PI / 3.0 * k as f32 + std::f32::consts::PI / 6.0;
            c + Vec2::new(a.cos(), a.sin()) * s
        })
        .collect()
}

pub fn draw(ui: &mut egui::Ui, side: f32, input: &BoardInput<'_>) -> bool {
    let notation = input.position.notation();
    let Some((n, cells)) = parse(&notation) else {
        return false;
    };
    let (w, s) = cell_size(n, side);
    // Room above for the column letters and left for the row numbers.
    let height = (n as f32 - 1.0) * 1.5 * s + 4.2 * s;
    let (rect, p) = canvas(ui, Vec2::new(side, height), format!("hex board {notation}"));
    let origin = rect.min + Vec2::new(1.6 * w, 2.4 * s);
    let center = |c: usize, r: usize| {
        origin + Vec2::new((c as f32 + r as f32 / 2.0) * w, r as f32 * 1.5 * s)
    };
    let black = Color32::from_rgb(30, 30, 30);
    let white = Color32::from_rgb(235, 235, 235);
    // Edges: black top/bottom, white left/right.
    let edge = (s * 0.35).max(2.0);
    let (tl, tr) = (center(0, 0), center(n - 1, 0));
    let (bl, br) = (center(0, n - 1), center(n - 1, n - 1));
    let up = Vec2::new(0.0, -s * 1.2);
    let side_off = Vec2::new(w * 0.75, 0.0);
    p.line_segment([tl + up, tr + up], Stroke::new(edge, black));
    p.line_segment([bl - up, br - up], Stroke::new(edge, black));
    p.line_segment([tl - side_off, bl - side_off], Stroke::new(edge, white));
    p.line_segment([tr + side_off, br + side_off], Stroke::new(edge, white));
    let mut owner = vec![None::<(Player, usize)>; n * n];
    for (k, &(c, r)) in cells.iter().enumerate() {
        owner[r * n + c] = Some((
            if k % 2 == 0 {
                Player::First
            } else {
                Player::Second
            },
            k,
        ));
    }
    let first_path = cells.len().saturating_sub(input.path.len());
    let text = ui.visuals().text_color();
    // Overlay numbers on the heat map's pale-to-red cells read best dark.
    let overlay_text = if input.heat.is_some() {
        Color32::BLACK
    } else {
        text
    };
    for r in 0..n {
        for c in 0..n {
            let ctr = center(c, r);
            let name = square_name(c, r);
            let status = input
                .knowledge
                .and_then(|k| k.cells.get(r * n + c).copied());
            let fill = match owner[r * n + c] {
                Some((pl, _)) => stone(pl),
                None => match (input.heat.and_then(|h| h[r * n + c]), input.overlay(&name)) {
                    (Some(h), _) => heat_color(h),
                    (None, Some(o)) => overlay_color(o.status).gamma_multiply(0.45),
                    (None, None) => BOARD,
                },
            };
            // Cells the solver never tries lose the root's colours.
            let fill = match status {
                Some(CellStatus::Dead) => Color32::from_gray(165),
                Some(CellStatus::OutsideMustplay) => OUTSIDE_MUSTPLAY,
                Some(CellStatus::Captured(_) | CellStatus::Dominated) => BOARD,
                _ => fill,
            };
            p.add(Shape::convex_polygon(
                hexagon(ctr, s * 0.97),
                fill,
                Stroke::new(1.0, Color32::from_gray(90)),
            ));
            if owner[r * n + c].is_none() {
                status_mark(&p, ctr, s, status);
            }
            match owner[r * n + c] {
                Some((pl, k)) if k >= first_path => {
                    let t = text_on_stone(pl);
                    centered_text(&p, ctr, &(k - first_path + 1).to_string(), s * 0.7, t);
                }
                // With the cell statuses shown, only the cells the solver
                // tries carry the root's numbers (the others are never
                // searched, their numbers are guesses).
                None if matches!(status, None | Some(CellStatus::Tried)) => {
                    if let Some(o) = input.overlay(&name) {
                        let label_box = label_box(w, s);
                        cell_label(&p, ctr, o, input.shown_values, label_box, overlay_text);
                    }
                }
                _ => {}
            }
        }
    }
    if let Some(k) = input.knowledge {
        // The status of the cell under the pointer, with the reason.
        let hover = ui.interact(
            rect,
            ui.make_persistent_id("hex-cell-status"),
            Sense::hover(),
        );
        let near = hover.hover_pos().and_then(|at| {
            (0..n * n)
                .map(|i| (i, center(i % n, i / n).distance(at)))
                .filter(|&(_, d)| d < s)
                .min_by(|a, b| a.1.total_cmp(&b.1))
        });
        if let Some((i, _)) = near {
            let st = k.cells[i];
            let owner = match st {
                CellStatus::Captured(Player::First) => " by Black",
                CellStatus::Captured(Player::Second) => " by White",
                _ => "",
            };
            let name = square_name(i % n, i / n);
            hover.on_hover_text_at_pointer(format!("{name}: {}{owner} — {}", st.name(), st.why()));
        }
    }
    for c in 0..n {
        let t = center(c, 0) + Vec2::new(0.0, -s * 1.9);
        centered_text(
            &p,
            t,
            &((b'a' + c as u8) as char).to_string(),
            s * 0.5,
            text,
        );
    }
    for r in 0..n {
        let t = center(0, r) - Vec2::new(w * 1.15, 0.0);
        centered_text(&p, t, &(r + 1).to_string(), s * 0.5, text);
    }
    true
}

/// The mark of an empty cell's status (see [`KNOWLEDGE_LEGEND`]).
fn status_mark(p: &egui::Painter, ctr: Pos2, s: f32, status: Option<CellStatus>) {
    let ink = Color32::from_gray(60);
    match status {
        Some(CellStatus::Dead) => {
            let d = s * 0.35;
            let stroke = Stroke::new((s * 0.12).max(1.5), ink);
            p.line_segment([ctr - Vec2::splat(d), ctr + Vec2::splat(d)], stroke);
            p.line_segment([ctr + Vec2::new(-d, d), ctr + Vec2::new(d, -d)], stroke);
        }
        Some(CellStatus::Captured(owner)) => {
            p.circle(ctr, s * 0.3, stone(owner), Stroke::new(1.0, ink));
        }
        Some(CellStatus::Dominated) => {
            p.circle_stroke(ctr, s * 0.3, Stroke::new((s * 0.1).max(1.5), ink));
        }
        Some(CellStatus::Tried) => {
            p.add(Shape::closed_line(
                hexagon(ctr, s * 0.85),
                Stroke::new((s * 0.12).max(2.0), TRIED),
            ));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::layout::labels::{fit_cell, ApproxMeasure};

    /// The label rule at every Hex size 2–11 on the board's widest and
    /// narrowest area: what is drawn fits the hexagon, and at the widest
    /// two values are drawn up to 8×8 (larger boards show them on hover
    /// or with the toggle when the cell is too small).
    #[test]
    fn labels_fit_the_hexagons_at_every_size() {
        let worst = [123_456.0, f64::INFINITY, 0.0701];
        for n in 2..=11 {
            for side in [120.0, 420.0] {
                let (w, s) = super::cell_size(n, side);
                let (bw, bh) = super::label_box(w, s);
                // The box lies inside the hexagon: half-width ≤ the flat
                // half-width, half-height ≤ where the slanted sides start.
                assert!(bw / 2.0 <= w / 2.0 && bh / 2.0 <= s / 2.0 + 0.01);
                // Coordinates: letters above row 1 and numbers left of
                // column a start inside the canvas.
                assert!(2.4 * s - 1.9 * s - 0.25 * s >= 0.0);
                assert!(1.6 * w - 1.15 * w - 0.25 * s >= 0.0, "{n} {side}");
                let right =
                    1.6 * w + 1.5 * (n as f32 - 1.0) * w + 0.75 * w + (s * 0.35).max(2.0) / 2.0;
                assert!(right <= side + 0.01, "{n} {side}: {right}");
                match fit_cell(&worst, 2, bw, bh, 16.0, &ApproxMeasure) {
                    Some(l) => {
                        let (lw, lh) = l.size(&ApproxMeasure);
                        assert!(lw <= bw + 0.01 && lh <= bh + 0.01, "{n} {side}");
                    }
                    None => assert!(side < 420.0 || n > 8, "hex {n} at {side} drew no label"),
                }
            }
        }
    }

    #[test]
    fn notation_is_read_as_column_letter_and_row_from_top() {
        let (n, cells) = super::parse("5:c3 b4").unwrap();
        assert_eq!(n, 5);
        assert_eq!(cells, vec![(2, 2), (1, 3)]);
        assert!(super::parse("3:d1").is_none());
    }
}
