//! Xiangqi 9×10 from a UCCI FEN, Red at the bottom: the lines with the
//! river between ranks 4 and 5 (the inner files stop at it), both palaces
//! with their diagonals, file letters a–i and rank digits 0–9 as in UCCI
//! move coordinates. Pieces are discs with a letter (K general, A advisor,
//! B elephant, N horse, R rook, C cannon, P pawn), red or black ink on
//! ivory, so they stay legible at any zoom without a CJK font. The last
//! move's two points are framed, a general in check gets a red ring, and
//! the root's moves carry their values on the target point (several moves
//! to one point: the first one's values and `+k`; hovering a point lists
//! them all).

use egui::{Color32, Pos2, Stroke, Vec2};

use super::{canvas, cell_label, fitted_text, overlay_color, BoardInput, Overlay};
use crate::game::AnyPosition;

const FILES: usize = 9;
const RANKS: usize = 10;

/// Ink of Red's pieces.
const RED_INK: Color32 = Color32::from_rgb(190, 30, 30);
/// Ink of Black's pieces.
const BLACK_INK: Color32 = Color32::from_rgb(20, 20, 20);
/// Board wood and line colours.
const WOOD: Color32 = Color32::from_rgb(226, 190, 130);
const LINE: Color32 = Color32::from_rgb(80, 50, 20);

/// The pieces of a FEN's board part: `(file, rank, letter)` with rank 0 =
/// Red's back rank; `None` if it is not a xiangqi FEN.
fn parse(notation: &str) -> Option<Vec<(usize, usize, char)>> {
    let board = notation.split_whitespace().next()?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != RANKS {
        return None;
    }
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = RANKS - 1 - i;
        let mut file = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file += d as usize;
            } else if "kabenhrcpKABENHRCP".contains(ch) {
                out.push((file, rank, ch));
                file += 1;
            } else {
                return None;
            }
        }
        if file != FILES {
            return None;
        }
    }
    Some(out)
}

/// The letter shown on a piece (FEN letters; `E`/`H` read as `B`/`N`).
fn letter(ch: char) -> char {
    match ch.to_ascii_uppercase() {
        'E' => 'B',
        'H' => 'N',
        c => c,
    }
}

/// `(file, rank)` of a UCCI point name like `e0`.
fn point(name: &str) -> Option<(usize, usize)> {
    let b = name.as_bytes();
    if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !b[1].is_ascii_digit() {
        return None;
    }
    Some(((b[0] - b'a') as usize, (b[1] - b'0') as usize))
}

/// Origin and target of a UCCI move like `h2e2`.
fn move_points(mv: &str) -> Option<((usize, usize), (usize, usize))> {
    Some((point(mv.get(0..2)?)?, point(mv.get(2..4)?)?))
}

/// The overlays grouped by target point, in the overlays' order.
fn by_target(overlays: &[Overlay]) -> Vec<((usize, usize), Vec<&Overlay>)> {
    let mut groups: Vec<((usize, usize), Vec<&Overlay>)> = Vec::new();
    for o in overlays {
        let Some((_, to)) = move_points(&o.mv) else {
            continue;
        };
        match groups.iter_mut().find(|(t, _)| *t == to) {
            Some((_, v)) => v.push(o),
            None => groups.push((to, vec![o])),
        }
    }
    groups
}

/// The board's geometry: its rectangle and the distance between two
/// lines, with a margin of one cell around the 8 × 9 grid for the labels.
#[derive(Clone, Copy)]
struct Grid {
    rect: egui::Rect,
    cell: f32,
}

impl Grid {
    /// The screen point of the intersection on `file`, `rank`.
    fn at(self, file: usize, rank: usize) -> Pos2 {
        self.rect.min
            + Vec2::new(
                (file as f32 + 1.0) * self.cell,
                (RANKS - rank) as f32 * self.cell,
            )
    }
}

pub fn draw(ui: &mut egui::Ui, side: f32, input: &BoardInput<'_>) -> bool {
    let notation = input.position.notation();
    let Some(pieces) = parse(&notation) else {
        return false;
    };
    let cell = side / (FILES as f32 + 1.0);
    let size = Vec2::new(cell * (FILES as f32 + 1.0), cell * (RANKS as f32 + 1.0));
    let (rect, p) = canvas(ui, size, format!("xiangqi board {notation}"));
    let g = Grid { rect, cell };
    draw_lines(&p, g);
    draw_coordinates(&p, g);
    // The last move: the path's last move, else the move into the root.
    let last = input.path.last().or(input.last_move.as_ref());
    if let Some((from, to)) = last.and_then(|m| move_points(m)) {
        for (f, r) in [from, to] {
            p.rect_stroke(
                egui::Rect::from_center_size(g.at(f, r), Vec2::splat(cell * 0.98)),
                2.0,
                Stroke::new((cell * 0.06).max(1.5), Color32::from_rgb(40, 120, 230)),
                egui::StrokeKind::Inside,
            );
        }
    }
    // The king in check is ringed: the side to move's.
    let in_check = match input.position.shown() {
        AnyPosition::Xiangqi(x) => x.in_check(),
        _ => false,
    };
    let red_to_move = notation.split_whitespace().nth(1) != Some("b");
    let checked_king = in_check.then_some(red_to_move);
    for &(f, r, ch) in &pieces {
        draw_piece(&p, g, (f, r, ch), checked_king, input.path);
    }
    draw_overlays(&p, g, &pieces, input);
    hover_list(ui, g, input);
    true
}

/// Wood, ranks and files (the inner files stop at the river), the river
/// and the palaces' diagonals.
fn draw_lines(p: &egui::Painter, g: Grid) {
    p.rect_filled(g.rect, 4.0, WOOD);
    let stroke = Stroke::new((g.cell * 0.03).max(1.0), LINE);
    for r in 0..RANKS {
        p.line_segment([g.at(0, r), g.at(FILES - 1, r)], stroke);
    }
    for f in 0..FILES {
        if f == 0 || f == FILES - 1 {
            p.line_segment([g.at(f, 0), g.at(f, RANKS - 1)], stroke);
        } else {
            p.line_segment([g.at(f, 0), g.at(f, 4)], stroke);
            p.line_segment([g.at(f, 5), g.at(f, RANKS - 1)], stroke);
        }
    }
    let river =
        egui::Rect::from_two_pos(g.at(0, 5), g.at(FILES - 1, 4)).shrink2(Vec2::new(0.0, 2.0));
    p.rect_filled(
        river,
        0.0,
        Color32::from_rgba_unmultiplied(90, 140, 200, 60),
    );
    fitted_text(
        p,
        river.center(),
        "river",
        g.cell * 0.4,
        river.width() * 0.5,
        LINE.gamma_multiply(0.6),
    );
    // Palaces: the diagonals of d0–f2 and d7–f9.
    for (low, high) in [(0, 2), (7, 9)] {
        p.line_segment([g.at(3, low), g.at(5, high)], stroke);
        p.line_segment([g.at(5, low), g.at(3, high)], stroke);
    }
}

/// Files under the board, ranks on the left.
fn draw_coordinates(p: &egui::Painter, g: Grid) {
    let cell = g.cell;
    for f in 0..FILES {
        let name = ((b'a' + f as u8) as char).to_string();
        let below = g.at(f, 0) + Vec2::new(0.0, cell * 0.62);
        fitted_text(p, below, &name, cell * 0.32, cell * 0.8, LINE);
    }
    for r in 0..RANKS {
        let left = g.at(0, r) - Vec2::new(cell * 0.68, 0.0);
        fitted_text(p, left, &r.to_string(), cell * 0.32, cell * 0.5, LINE);
    }
}

/// One piece: a disc in its side's ink with its letter; a red ring when
/// it is the king in check (`checked_king`: whether that king is Red's);
/// a badge with the number of the path's move that last arrived on it.
fn draw_piece(
    p: &egui::Painter,
    g: Grid,
    (f, r, ch): (usize, usize, char),
    checked_king: Option<bool>,
    path: &[String],
) {
    let cell = g.cell;
    let radius = cell * 0.43;
    let c = g.at(f, r);
    let red = ch.is_ascii_uppercase();
    let ink = if red { RED_INK } else { BLACK_INK };
    p.circle_filled(c, radius, Color32::from_rgb(250, 240, 215));
    p.circle_stroke(c, radius, Stroke::new((cell * 0.04).max(1.0), ink));
    p.circle_stroke(c, radius * 0.8, Stroke::new((cell * 0.015).max(0.5), ink));
    if letter(ch) == 'K' && checked_king == Some(red) {
        p.circle_stroke(
            c,
            radius * 1.12,
            Stroke::new((cell * 0.08).max(2.0), Color32::from_rgb(235, 20, 20)),
        );
    }
    fitted_text(
        p,
        c,
        &letter(ch).to_string(),
        radius * 1.15,
        radius * 1.3,
        ink,
    );
    let name = format!("{}{}", (b'a' + f as u8) as char, r);
    if let Some(n) = path
        .iter()
        .rposition(|m| m.get(2..4) == Some(name.as_str()))
        .map(|i| i + 1)
    {
        let badge = c + Vec2::new(radius * 0.8, -radius * 0.8);
        p.circle_filled(badge, radius * 0.38, Color32::from_rgb(40, 120, 230));
        fitted_text(
            p,
            badge,
            &n.to_string(),
            radius * 0.5,
            radius * 0.65,
            Color32::WHITE,
        );
    }
}

/// Overlays on the root's moves, on their target points. On an empty
/// point the chip sits on the point (clear of the neighbours' pieces); on
/// a capture the target piece gets a ring in the status colour and the
/// chip goes to the free square between four points, below and right of
/// it, so no piece is covered. Other moves to the same point are counted
/// on the chip and listed on hover.
fn draw_overlays(
    p: &egui::Painter,
    g: Grid,
    pieces: &[(usize, usize, char)],
    input: &BoardInput<'_>,
) {
    let cell = g.cell;
    for ((f, r), list) in &by_target(&input.overlays) {
        let c = g.at(*f, *r);
        let first = list[0];
        let occupied = pieces.iter().any(|&(pf, pr, _)| (pf, pr) == (*f, *r));
        let box_rect = if occupied {
            p.circle_stroke(
                c,
                cell * 0.47,
                Stroke::new((cell * 0.05).max(1.5), overlay_color(first.status)),
            );
            egui::Rect::from_center_size(
                c + Vec2::splat(cell * 0.5),
                Vec2::new(cell * 0.5, cell * 0.26),
            )
        } else {
            egui::Rect::from_center_size(c, Vec2::new(cell * 0.96, cell * 0.36))
        };
        p.rect_filled(
            box_rect,
            3.0,
            overlay_color(first.status).gamma_multiply(0.85),
        );
        cell_label(
            p,
            box_rect.center(),
            first,
            input.shown_values,
            (box_rect.width() * 0.95, box_rect.height()),
            Color32::WHITE,
        );
        if list.len() > 1 {
            let badge = box_rect.right_top() + Vec2::new(-cell * 0.08, 0.0);
            p.circle_filled(badge, cell * 0.14, Color32::from_rgb(40, 120, 230));
            fitted_text(
                p,
                badge,
                &format!("+{}", list.len() - 1),
                cell * 0.16,
                cell * 0.24,
                Color32::WHITE,
            );
        }
    }
}

/// Hovering a point lists every overlay of a move from or to it.
fn hover_list(ui: &egui::Ui, g: Grid, input: &BoardInput<'_>) {
    let Some(pos) = ui
        .ctx()
        .pointer_hover_pos()
        .filter(|pos| g.rect.contains(*pos))
    else {
        return;
    };
    let f = ((pos.x - g.rect.min.x) / g.cell - 1.0).round();
    let r = RANKS as f32 - ((pos.y - g.rect.min.y) / g.cell).round();
    if !((0.0..FILES as f32).contains(&f) && (0.0..RANKS as f32).contains(&r)) {
        return;
    }
    let name = format!("{}{}", (b'a' + f as u8) as char, r as usize);
    let lines: Vec<String> = input
        .overlays
        .iter()
        .filter(|o| o.mv.contains(&name))
        .map(|o| format!("{}: {}", o.mv, o.text))
        .collect();
    if lines.is_empty() {
        return;
    }
    egui::Tooltip::always_open(
        ui.ctx().clone(),
        ui.layer_id(),
        ui.scope_id().with("xiangqi-point"),
        egui::PopupAnchor::Pointer,
    )
    .show(|ui| {
        for l in lines {
            ui.label(l);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::snapshot::NodeStatus;

    #[test]
    fn reads_the_start_position_with_red_at_the_bottom() {
        let pieces = parse(crate::game::xiangqi::START_FEN).expect("start FEN");
        assert_eq!(pieces.len(), 32);
        assert!(pieces.contains(&(4, 0, 'K')), "red general on e0");
        assert!(pieces.contains(&(4, 9, 'k')), "black general on e9");
        assert!(pieces.contains(&(1, 2, 'C')) && pieces.contains(&(7, 7, 'c')));
        assert!(
            parse("8/9/9/9/9/9/9/9/9/9 w").is_none(),
            "a rank of 8 files"
        );
        assert!(parse("x.o.x.o..").is_none());
        assert_eq!(letter('e'), 'B');
        assert_eq!(letter('H'), 'N');
    }

    #[test]
    fn overlays_group_by_target_in_order() {
        let o = |mv: &str, t: &str| Overlay {
            mv: mv.into(),
            text: t.into(),
            values: Vec::new(),
            status: NodeStatus::Unknown,
        };
        let list = [o("b0c2", "1/1"), o("h2e2", "2/1"), o("b2e2", "3/1")];
        let g = by_target(&list);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].0, (2, 2));
        assert_eq!(g[1].0, (4, 2));
        let texts: Vec<&str> = g[1].1.iter().map(|o| o.text.as_str()).collect();
        assert_eq!(texts, ["2/1", "3/1"]);
        assert_eq!(move_points("h2e2"), Some(((7, 2), (4, 2))));
        assert_eq!(move_points("j2e2"), None);
    }
}
