//! A position's board as a picture ([`Drawing`], so SVG and PNG), drawn
//! with the app's colours and layout (`app::board`): tic-tac-toe's 3×3
//! grid with x and o stones, Connect Four's blue frame of 7×6 holes,
//! Othello's green 8×8 board with its coordinates. Games without a board
//! picture here (and positions a board cannot show) get a card with the
//! position's notation, one line per line of text, so every position has
//! a picture (Python's `Position._repr_svg_`).

use super::drawing::{Anchor, Colour, Drawing, Shape, Stroke, TextStyle};
use crate::game::{AnyPosition, Player};

const WHITE: Colour = Colour(255, 255, 255);
const LINE: Colour = Colour(0x8c, 0x8c, 0x8c);
const TEXT: Colour = Colour(0x1f, 0x23, 0x28);
const CONNECT4_FRAME: Colour = Colour(30, 80, 170);
const OTHELLO_GREEN: Colour = Colour(30, 120, 60);
const OTHELLO_LINE: Colour = Colour(10, 60, 30);

/// Fill of a player's stone (the app's `board::stone`).
fn stone(p: Player) -> Colour {
    match p {
        Player::First => Colour(25, 25, 25),
        Player::Second => Colour(240, 240, 240),
    }
}

/// The board of `pos` (the inner position of a mate question).
pub fn board_drawing(pos: &AnyPosition) -> Drawing {
    let shown = pos.shown();
    let notation = shown.notation();
    let drawn = match shown {
        AnyPosition::TicTacToe(_) => tictactoe(&notation),
        AnyPosition::Connect4(_) => connect4(&notation),
        AnyPosition::Othello(_) => othello(&notation),
        _ => None,
    };
    drawn.unwrap_or_else(|| text_card(&notation))
}

/// The board of `pos` as an SVG document.
pub fn board_svg(pos: &AnyPosition) -> String {
    board_drawing(pos).to_svg()
}

fn disc(d: &mut Drawing, centre: (f32, f32), r: f32, who: Player) {
    d.shapes.push(Shape::Circle {
        centre,
        r,
        fill: Some(stone(who)),
        stroke: Some(Stroke::solid(LINE, 1.0)),
    });
}

fn label(d: &mut Drawing, at: (f32, f32), size: f32, colour: Colour, text: &str) {
    d.shapes.push(Shape::Text {
        at,
        anchor: Anchor::Middle,
        style: TextStyle::plain(size, colour),
        text: text.to_string(),
    });
}

fn tictactoe(notation: &str) -> Option<Drawing> {
    let cells: Vec<char> = notation
        .chars()
        .filter(|c| matches!(c, 'x' | 'o' | '.' | 'X' | 'O'))
        .collect();
    if cells.len() != 9 {
        return None;
    }
    let cell = 60.0;
    let mut d = Drawing::new(cell * 3.0, cell * 3.0, WHITE);
    for (i, ch) in cells.iter().enumerate() {
        let (col, row) = ((i % 3) as f32, (i / 3) as f32);
        d.shapes.push(Shape::Rect {
            at: (col * cell, row * cell),
            size: (cell, cell),
            fill: None,
            stroke: Some(Stroke::solid(LINE, 1.0)),
        });
        d.shapes.push(Shape::Text {
            at: (col * cell + 3.0, row * cell + 11.0),
            anchor: Anchor::Start,
            style: TextStyle::plain(9.0, LINE),
            text: format!("{}{}", (b'a' + (i % 3) as u8) as char, i / 3 + 1),
        });
        let who = match ch.to_ascii_lowercase() {
            'x' => Player::First,
            'o' => Player::Second,
            _ => continue,
        };
        let c = (col * cell + cell / 2.0, row * cell + cell / 2.0);
        disc(&mut d, c, cell * 0.36, who);
        let (mark, ink) = match who {
            Player::First => ("x", WHITE),
            Player::Second => ("o", Colour(0, 0, 0)),
        };
        label(&mut d, (c.0, c.1 + cell * 0.1), cell * 0.3, ink, mark);
    }
    Some(d)
}

fn connect4(notation: &str) -> Option<Drawing> {
    const COLS: usize = 7;
    const ROWS: usize = 6;
    let mut grid = [[None::<Player>; COLS]; ROWS];
    let mut height = [0usize; COLS];
    for (n, ch) in notation.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let col = ch.to_digit(10)? as usize;
        if col == 0 || col > COLS || height[col - 1] >= ROWS {
            return None;
        }
        grid[height[col - 1]][col - 1] = Some(if n % 2 == 0 {
            Player::First
        } else {
            Player::Second
        });
        height[col - 1] += 1;
    }
    let cell = 40.0;
    let top = cell * 0.8;
    let mut d = Drawing::new(cell * COLS as f32, top + cell * ROWS as f32, WHITE);
    d.shapes.push(Shape::Rect {
        at: (0.0, top),
        size: (cell * COLS as f32, cell * ROWS as f32),
        fill: Some(CONNECT4_FRAME),
        stroke: None,
    });
    for col in 0..COLS {
        let x = (col as f32 + 0.5) * cell;
        label(
            &mut d,
            (x, top * 0.7),
            cell * 0.35,
            TEXT,
            &(col + 1).to_string(),
        );
        for (row, line) in grid.iter().enumerate() {
            let c = (x, top + (ROWS - 1 - row) as f32 * cell + cell * 0.5);
            match line[col] {
                Some(who) => disc(&mut d, c, cell * 0.4, who),
                None => d.shapes.push(Shape::Circle {
                    centre: c,
                    r: cell * 0.4,
                    fill: Some(WHITE),
                    stroke: None,
                }),
            }
        }
    }
    Some(d)
}

fn othello(notation: &str) -> Option<Drawing> {
    let cells: Vec<char> = notation.chars().take(64).collect();
    if cells.len() != 64 || !cells.iter().all(|c| "XOxo-".contains(*c)) {
        return None;
    }
    let cell = 32.0;
    let margin = cell * 0.5;
    let mut d = Drawing::new(margin + cell * 8.0, margin + cell * 8.0, WHITE);
    for i in 0..8 {
        let mid = margin + (i as f32 + 0.5) * cell;
        let letter = ((b'a' + i as u8) as char).to_string();
        label(&mut d, (mid, margin * 0.75), cell * 0.3, TEXT, &letter);
        label(
            &mut d,
            (margin * 0.5, mid + cell * 0.1),
            cell * 0.3,
            TEXT,
            &(i + 1).to_string(),
        );
    }
    for (i, ch) in cells.iter().enumerate() {
        let (c, r) = ((i % 8) as f32, (i / 8) as f32);
        let at = (margin + c * cell, margin + r * cell);
        d.shapes.push(Shape::Rect {
            at,
            size: (cell, cell),
            fill: Some(OTHELLO_GREEN),
            stroke: Some(Stroke::solid(OTHELLO_LINE, 1.0)),
        });
        let who = match ch.to_ascii_uppercase() {
            'X' => Player::First,
            'O' => Player::Second,
            _ => continue,
        };
        disc(
            &mut d,
            (at.0 + cell / 2.0, at.1 + cell / 2.0),
            cell * 0.4,
            who,
        );
    }
    Some(d)
}

/// The notation on a card, for positions without a board picture.
fn text_card(notation: &str) -> Drawing {
    let size = 13.0;
    let lines: Vec<&str> = notation.lines().collect();
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = (widest as f32 * size * 0.62 + 16.0).max(40.0);
    let height = lines.len().max(1) as f32 * size * 1.4 + 12.0;
    let mut d = Drawing::new(width, height, Colour(0xf3, 0xf4, 0xf6));
    for (i, line) in lines.iter().enumerate() {
        d.shapes.push(Shape::Text {
            at: (8.0, 6.0 + (i as f32 + 1.0) * size * 1.4 - size * 0.3),
            anchor: Anchor::Start,
            style: TextStyle {
                mono: true,
                ..TextStyle::plain(size, TEXT)
            },
            text: line.to_string(),
        });
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;

    fn pos(kind: GameKind, text: &str) -> AnyPosition {
        AnyPosition::parse(kind, text).unwrap()
    }

    fn circles(d: &Drawing, fill: Colour) -> usize {
        d.shapes
            .iter()
            .filter(|s| matches!(s, Shape::Circle { fill: Some(f), .. } if *f == fill))
            .count()
    }

    #[test]
    fn tictactoe_has_a_stone_per_mark() {
        let d = board_drawing(&pos(GameKind::TicTacToe, "x...o...x"));
        assert_eq!(circles(&d, stone(Player::First)), 2);
        assert_eq!(circles(&d, stone(Player::Second)), 1);
    }

    /// `4453`: X in column 4, O on top of it, X in 5, O in 3: two stones
    /// each and 42 − 4 empty holes.
    #[test]
    fn connect4_stacks_the_columns_played() {
        let d = board_drawing(&pos(GameKind::Connect4, "4453"));
        assert_eq!(circles(&d, stone(Player::First)), 2);
        assert_eq!(circles(&d, stone(Player::Second)), 2);
        assert_eq!(circles(&d, WHITE), 38);
    }

    /// The Othello start: two discs each on 64 green squares.
    #[test]
    fn othello_start_has_four_discs() {
        let start = format!(
            "{}OX{}XO{} X",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        );
        let d = board_drawing(&pos(GameKind::Othello, &start));
        assert_eq!(circles(&d, stone(Player::First)), 2);
        assert_eq!(circles(&d, stone(Player::Second)), 2);
        let squares = d
            .shapes
            .iter()
            .filter(|s| matches!(s, Shape::Rect { fill: Some(f), .. } if *f == OTHELLO_GREEN))
            .count();
        assert_eq!(squares, 64);
    }

    #[test]
    fn other_games_show_their_notation() {
        let svg = board_svg(&pos(GameKind::Hex, "3:a1 b2"));
        assert!(svg.starts_with("<svg") || svg.contains("<svg"));
        assert!(svg.contains("3:a1 b2"), "{svg}");
    }
}
