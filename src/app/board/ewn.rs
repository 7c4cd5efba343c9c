//! EinStein würfelt nicht! from its notation (`ROW/ROW/ROW/ROW/ROW
//! SIDE[DIE]`, see `game::ewn`): the 5×5 board with the two goal corners,
//! red cubes `1`–`6` and blue cubes (`a`–`f`, shown as 1–6), and beside it
//! the die: its face when rolled, a question mark when the roll is still
//! to come (a chance node). Overlays sit on the target squares of the
//! root's cube moves; the path's moves are numbered on their squares.

use egui::{Color32, Pos2, Rect, Stroke, StrokeKind, Vec2};

use super::{canvas, centered_text, grid_coordinates, overlay_color, BoardInput};

/// Red's and blue's cube colours.
const RED: Color32 = Color32::from_rgb(200, 45, 45);
const BLUE: Color32 = Color32::from_rgb(40, 90, 200);

/// The parsed notation: 25 squares row by row (`.`, `1`–`6`, `a`–`f`),
/// the side to move (`r`/`b`) and the die (`None`: not rolled yet).
pub fn parse(notation: &str) -> Option<(Vec<char>, char, Option<u8>)> {
    let (board, side) = notation.trim().split_once(' ')?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 5 || rows.iter().any(|r| r.chars().count() != 5) {
        return None;
    }
    let cells: Vec<char> = rows.concat().chars().collect();
    if !cells
        .iter()
        .all(|c| matches!(c, '.' | '1'..='6' | 'a'..='f'))
    {
        return None;
    }
    let mut s = side.chars();
    let who = s.next().filter(|c| matches!(c, 'r' | 'b'))?;
    let die = match s.next() {
        None => None,
        Some(d @ '1'..='6') => Some(d as u8 - b'0'),
        Some(_) => return None,
    };
    Some((cells, who, die))
}

/// The square a cube move goes to (`4b3` → index of b3), if `mv` is one.
pub fn target_square(mv: &str) -> Option<usize> {
    let mut c = mv.chars();
    let cube = c.next()?;
    let col = c.next()?;
    let row = c.next()?;
    if !cube.is_ascii_digit() || c.next().is_some() {
        return None;
    }
    let (x, y) = (col as i32 - 'a' as i32, row as i32 - '1' as i32);
    ((0..5).contains(&x) && (0..5).contains(&y)).then_some((y * 5 + x) as usize)
}

/// Pip positions of a die face (on a unit square, centre 0.5).
fn pips(n: u8) -> &'static [(f32, f32)] {
    const L: f32 = 0.25;
    const M: f32 = 0.5;
    const H: f32 = 0.75;
    match n {
        1 => &[(M, M)],
        2 => &[(L, L), (H, H)],
        3 => &[(L, L), (M, M), (H, H)],
        4 => &[(L, L), (H, L), (L, H), (H, H)],
        5 => &[(L, L), (H, L), (M, M), (L, H), (H, H)],
        _ => &[(L, L), (H, L), (L, M), (H, M), (L, H), (H, H)],
    }
}

pub fn draw(ui: &mut egui::Ui, side: f32, input: &BoardInput<'_>) -> bool {
    let notation = input.position.notation();
    let Some((cells, who, die)) = parse(&notation) else {
        return false;
    };
    let cell = side / 7.0;
    let (rect, p) = canvas(
        ui,
        Vec2::new(cell * 7.0, cell * 5.5),
        format!(
            "einstein board {notation}; die {}",
            die.map_or("not rolled".to_string(), |d| d.to_string())
        ),
    );
    let origin = rect.min + Vec2::new(cell * 0.4, cell * 0.4);
    let text = ui.visuals().text_color();
    grid_coordinates(&p, origin, cell, 5, cell * 0.2, cell * 0.25, text);
    let square = |i: usize| {
        Rect::from_min_size(
            origin + Vec2::new((i % 5) as f32 * cell, (i / 5) as f32 * cell),
            Vec2::splat(cell),
        )
    };
    for (i, ch) in cells.iter().enumerate() {
        let r = square(i);
        let fill = match i {
            0 => Color32::from_rgb(190, 200, 235),  // blue's goal
            24 => Color32::from_rgb(240, 200, 200), // red's goal
            _ => Color32::from_rgb(235, 225, 200),
        };
        p.rect_filled(r, 0.0, fill);
        p.rect_stroke(
            r,
            0.0,
            Stroke::new(1.0, Color32::from_gray(90)),
            StrokeKind::Inside,
        );
        let (colour, number) = match ch {
            '1'..='6' => (RED, *ch as u8 - b'0'),
            'a'..='f' => (BLUE, *ch as u8 - b'a' + 1),
            _ => continue,
        };
        let cube = r.shrink(cell * 0.12);
        p.rect_filled(cube, cell * 0.1, colour);
        centered_text(
            &p,
            cube.center(),
            &number.to_string(),
            cell * 0.45,
            Color32::WHITE,
        );
    }
    for o in &input.overlays {
        if let Some(sq) = target_square(&o.mv) {
            let r = square(sq).shrink(cell * 0.05);
            p.rect_stroke(
                r,
                2.0,
                Stroke::new(3.0, overlay_color(o.status)),
                StrokeKind::Inside,
            );
            centered_text(
                &p,
                r.left_top() + Vec2::new(cell * 0.5, cell * 0.85),
                &o.text,
                cell * 0.2,
                Color32::BLACK,
            );
        }
    }
    for (k, mv) in input.path.iter().enumerate() {
        if let Some(sq) = target_square(mv) {
            let c = square(sq).right_top() + Vec2::new(-cell * 0.15, cell * 0.15);
            p.circle_filled(c, cell * 0.13, Color32::from_rgb(255, 150, 20));
            centered_text(&p, c, &(k + 1).to_string(), cell * 0.18, Color32::BLACK);
        }
    }
    // The die, beside the board, in the colour of the side to roll or move.
    let die_rect = Rect::from_min_size(
        origin + Vec2::new(cell * 5.5, cell * 1.5),
        Vec2::splat(cell * 1.1),
    );
    let side_colour = if who == 'r' { RED } else { BLUE };
    p.rect_filled(die_rect, cell * 0.15, Color32::WHITE);
    p.rect_stroke(
        die_rect,
        cell * 0.15,
        Stroke::new(3.0, side_colour),
        StrokeKind::Inside,
    );
    match die {
        Some(d) => {
            for &(x, y) in pips(d) {
                let c = die_rect.min + die_rect.size() * Vec2::new(x, y);
                p.circle_filled(c, cell * 0.08, Color32::BLACK);
            }
        }
        None => centered_text(
            &p,
            die_rect.center(),
            "?",
            cell * 0.6,
            Color32::from_gray(60),
        ),
    }
    let caption = match (who, die) {
        ('r', None) => "red rolls",
        ('r', Some(_)) => "red moves",
        (_, None) => "blue rolls",
        _ => "blue moves",
    };
    centered_text(
        &p,
        Pos2::new(die_rect.center().x, die_rect.max.y + cell * 0.3),
        caption,
        cell * 0.22,
        text,
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_notation_and_the_die() {
        let (cells, who, die) = parse("123../45.../6...f/...ed/..cba r").unwrap();
        assert_eq!((cells[0], cells[24], who, die), ('1', 'a', 'r', None));
        let (_, who, die) = parse("123../45.../6...f/...ed/..cba b4").unwrap();
        assert_eq!((who, die), ('b', Some(4)));
        assert!(parse("123../45.../6...f/...ed r").is_none());
        assert!(parse("123../45.../6...f/...ed/..cba x").is_none());
    }

    #[test]
    fn cube_moves_name_their_target() {
        assert_eq!(target_square("4b3"), Some(2 * 5 + 1));
        assert_eq!(target_square("1a1"), Some(0));
        assert_eq!(target_square("6e5"), Some(24));
        assert_eq!(target_square("roll4"), None);
        assert_eq!(target_square("4f3"), None);
    }
}
