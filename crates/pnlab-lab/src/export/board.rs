//! A board as a drawing, for the lesson frames: the position beside the
//! tree (issue: a tic-tac-toe slide without its board). Grid games draw
//! their cells and stones (tic-tac-toe, Connect Four, Othello); every
//! other game with a board is written in its notation, wrapped, so a
//! frame never lacks the position. Hand-written trees and P-games have no
//! board.

use pnlab_core::game::{AnyPosition, GameKind, Player};

use super::drawing::{Anchor, Colour, Drawing, Shape, Stroke, TextStyle};

const LINE: Colour = Colour(0x33, 0x33, 0x33);
const BOARD: Colour = Colour(0xf4, 0xf1, 0xe8);

/// Stone colours: the first player dark, the second light.
fn stone(p: Player) -> (Colour, Colour) {
    match p {
        Player::First => (Colour(0x22, 0x22, 0x22), Colour(0xff, 0xff, 0xff)),
        Player::Second => (Colour(0xfa, 0xfa, 0xfa), Colour(0x11, 0x11, 0x11)),
    }
}

/// Whether `pos` has a board to show (not a tree or a P-game).
pub fn has_board(pos: &AnyPosition) -> bool {
    !matches!(pos.kind(), GameKind::Tree | GameKind::PGame)
}

/// A `cols × rows` grid of `side`-wide cells, `cell(c, r)` giving the
/// stone at column `c`, row `r` from the top; letters under the columns
/// and numbers beside the rows as `label(c, r)` names cells.
fn grid(
    cols: u8,
    rows: u8,
    width: f32,
    cell: impl Fn(u8, u8) -> Option<Player>,
    row_name: impl Fn(u8) -> String,
    font: f32,
) -> Drawing {
    let side = width / f32::from(cols);
    let margin = font * 1.3;
    let mut d = Drawing::new(
        width + margin,
        side * f32::from(rows) + margin,
        Colour(255, 255, 255),
    );
    d.shapes.push(Shape::Rect {
        at: (margin, 0.0),
        size: (width, side * f32::from(rows)),
        fill: Some(BOARD),
        stroke: Some(Stroke::solid(LINE, 2.0)),
    });
    for r in 0..rows {
        for c in 0..cols {
            let (x, y) = (margin + f32::from(c) * side, f32::from(r) * side);
            d.shapes.push(Shape::Rect {
                at: (x, y),
                size: (side, side),
                fill: None,
                stroke: Some(Stroke::solid(LINE, 1.0)),
            });
            if let Some(p) = cell(c, r) {
                let (fill, edge) = stone(p);
                d.shapes.push(Shape::Circle {
                    centre: (x + side / 2.0, y + side / 2.0),
                    r: side * 0.38,
                    fill: Some(fill),
                    stroke: Some(Stroke::solid(edge, 1.5)),
                });
            }
        }
        d.shapes.push(Shape::Text {
            at: (margin / 2.0, f32::from(r) * side + side / 2.0 + font * 0.35),
            anchor: Anchor::Middle,
            style: TextStyle::plain(font, LINE),
            text: row_name(r),
        });
    }
    for c in 0..cols {
        d.shapes.push(Shape::Text {
            at: (
                margin + (f32::from(c) + 0.5) * side,
                side * f32::from(rows) + font * 1.1,
            ),
            anchor: Anchor::Middle,
            style: TextStyle::plain(font, LINE),
            text: ((b'a' + c) as char).to_string(),
        });
    }
    d
}

/// The position as a drawing about `width` points wide with `font`-point
/// coordinates, or its notation in lines of at most `width` points;
/// `None` for a tree or a P-game.
pub fn board_drawing(pos: &AnyPosition, width: f32, font: f32) -> Option<Drawing> {
    let width = width - font * 1.3;
    match pos {
        AnyPosition::TicTacToe(g) => Some(grid(
            3,
            3,
            width,
            |c, r| g.cell(r * 3 + c),
            |r| (r + 1).to_string(),
            font,
        )),
        AnyPosition::Connect4(g) => Some(grid(
            pnlab_core::game::connect4::WIDTH,
            pnlab_core::game::connect4::HEIGHT,
            width,
            |c, r| g.cell(c, pnlab_core::game::connect4::HEIGHT - 1 - r),
            |r| (pnlab_core::game::connect4::HEIGHT - r).to_string(),
            font,
        )),
        AnyPosition::Othello(g) => Some(grid(
            8,
            8,
            width,
            |c, r| g.square(r * 8 + c),
            |r| (r + 1).to_string(),
            font,
        )),
        _ if has_board(pos) => Some(notation_block(pos, width, font)),
        _ => None,
    }
}

/// The board of `pos` (the inner position of a mate question) as an SVG
/// document, about 320 points wide: Python's `Position._repr_svg_`. A
/// position without a board (a tree, a P-game) shows its notation.
pub fn board_svg(pos: &AnyPosition) -> String {
    let shown = pos.shown();
    board_drawing(shown, 320.0, 13.0)
        .unwrap_or_else(|| notation_block(shown, 320.0, 13.0))
        .to_svg()
}

/// The notation in monospace lines that fit `width` points.
fn notation_block(pos: &AnyPosition, width: f32, font: f32) -> Drawing {
    let per_line = ((width / (font * 0.6)).floor() as usize).max(8);
    let text = pos.notation();
    let chars: Vec<char> = text.chars().collect();
    let lines: Vec<String> = chars.chunks(per_line).map(|c| c.iter().collect()).collect();
    let mut d = Drawing::new(
        width,
        (lines.len() as f32 + 1.0) * font * 1.4,
        Colour(255, 255, 255),
    );
    d.shapes.push(Shape::Text {
        at: (0.0, font),
        anchor: Anchor::Start,
        style: TextStyle::bold(font, LINE),
        text: format!("{} position", pos.kind().name()),
    });
    for (k, l) in lines.into_iter().enumerate() {
        d.shapes.push(Shape::Text {
            at: (0.0, font * (2.4 + 1.4 * k as f32)),
            anchor: Anchor::Start,
            style: TextStyle {
                mono: true,
                ..TextStyle::plain(font, LINE)
            },
            text: l,
        });
    }
    d
}
