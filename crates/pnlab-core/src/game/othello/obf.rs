//! OBF notation (Edax's "Othello Board File" line): 64 characters `X`
//! (Black), `O` (White) or `-` (empty) for a1, b1, …, h1, a2, …, h8 (row by
//! row, row 1 first, letter = column), a space, then the side to move `X`
//! or `O`. In a file the line may go on with `; MOVE:score; …` — everything
//! from the first `;` is a comment here. Square and move names: `a1`…`h8`
//! and `pass`.

use crate::game::{ParseError, Player};

use super::{Othello, PASS};

/// What a board character means.
fn board_char(ch: char) -> Option<Option<Player>> {
    match ch {
        'X' | 'x' => Some(Some(Player::First)),
        'O' | 'o' => Some(Some(Player::Second)),
        '-' => Some(None),
        _ => None,
    }
}

const BOARD_CHARS: &str = "`X` (Black), `O` (White) or `-` (empty)";

/// Parses an OBF line (see the module doc). Columns in errors are 1-based
/// character positions in `text`.
pub fn parse(text: &str) -> Result<Othello, ParseError> {
    // The comment starts at the first `;`; columns stay those of `text`.
    let body = text.split(';').next().unwrap_or("");
    let mut chars = body.chars().enumerate().map(|(i, c)| (i + 1, c)).peekable();
    while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}

    let (mut black, mut white) = (0u64, 0u64);
    let mut squares = 0u32;
    let mut after_board = None; // (col, char) of the first non-board char
    for (col, ch) in chars.by_ref() {
        match board_char(ch) {
            Some(cell) => {
                if squares == 64 {
                    return Err(ParseError::at_col(
                        col,
                        format!("a space after the 64 squares, found a 65th square `{ch}`"),
                    ));
                }
                match cell {
                    Some(Player::First) => black |= 1 << squares,
                    Some(Player::Second) => white |= 1 << squares,
                    None => {}
                }
                squares += 1;
            }
            None => {
                after_board = Some((col, ch));
                break;
            }
        }
    }
    let end_col = body.chars().count() + 1;
    if squares < 64 {
        return Err(match after_board {
            Some((col, ch)) if !ch.is_whitespace() => ParseError::at_col(
                col,
                format!(
                    "{BOARD_CHARS} for square {}, found `{ch}`",
                    square_name(squares as u8)
                ),
            ),
            Some((col, _)) => ParseError::at_col(
                col,
                format!("64 squares of {BOARD_CHARS}, found only {squares}"),
            ),
            None => ParseError::at_col(
                end_col,
                format!("64 squares of {BOARD_CHARS}, found only {squares}"),
            ),
        });
    }
    match after_board {
        None => {
            return Err(ParseError::at_col(
                end_col,
                "a space and the side to move `X` or `O` after the 64 squares",
            ))
        }
        Some((col, ch)) if !ch.is_whitespace() => {
            return Err(ParseError::at_col(
                col,
                format!("a space after the 64 squares, found `{ch}`"),
            ))
        }
        Some(_) => {}
    }
    while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}
    let side = match chars.next() {
        None => {
            return Err(ParseError::at_col(end_col, "the side to move `X` or `O`"));
        }
        Some((_, 'X' | 'x')) => Player::First,
        Some((_, 'O' | 'o')) => Player::Second,
        Some((col, ch)) => {
            return Err(ParseError::at_col(
                col,
                format!("the side to move `X` (Black) or `O` (White), found `{ch}`"),
            ))
        }
    };
    while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}
    if let Some((col, ch)) = chars.next() {
        return Err(ParseError::at_col(
            col,
            format!(
                "the end of the position or a `;` comment after the side to move, found `{ch}`"
            ),
        ));
    }
    Ok(Othello::from_bitboards(black, white, side))
}

/// The OBF line without comment: `<64 squares> <side>`.
pub fn notation(g: &Othello) -> String {
    let mut s: String = (0..64u8)
        .map(|i| match g.square(i) {
            Some(Player::First) => 'X',
            Some(Player::Second) => 'O',
            None => '-',
        })
        .collect();
    s.push(' ');
    s.push(match g.side() {
        Player::First => 'X',
        Player::Second => 'O',
    });
    s
}

/// `a1`…`h8` for a square, `pass` for [`PASS`].
pub fn square_name(m: u8) -> String {
    if m >= PASS {
        return "pass".to_string();
    }
    format!("{}{}", (b'a' + m % 8) as char, m / 8 + 1)
}

/// Reads a move name: `a1`…`h8` (either case), or `pass`, `PS` or `@@`
/// for a pass. Does not check legality.
pub fn read_move(text: &str) -> Result<u8, crate::game::MoveError> {
    let t = text.trim().to_ascii_lowercase();
    if matches!(t.as_str(), "pass" | "ps" | "@@") {
        return Ok(PASS);
    }
    match t.as_bytes() {
        &[c @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok((r - b'1') * 8 + (c - b'a')),
        _ => Err(crate::game::MoveError::notation(
            text,
            "a square a1…h8 or `pass`",
        )),
    }
}
