//! The EinStein würfelt nicht! notation (documented in `ewn/mod.rs`):
//! `ROW/ROW/ROW/ROW/ROW SIDE[DIE]`, with column-located errors.

use super::{Ewn, CUBES, GONE, SIZE};
use crate::game::{Game, ParseError, Player};

/// The cube on a square character: `1`–`6` red, `a`–`f` blue.
fn piece(ch: char) -> Option<(Player, u8)> {
    match ch {
        '1'..='6' => Some((Player::First, ch as u8 - b'0')),
        'a'..='f' => Some((Player::Second, ch as u8 - b'a' + 1)),
        _ => None,
    }
}

/// Parses a position.
pub(super) fn parse(text: &str) -> Result<Ewn, ParseError> {
    let lead = text.len() - text.trim_start().len();
    let body = text.trim();
    let col = |byte: usize| text[..byte].chars().count() + 1;
    let mut cubes = [[GONE; CUBES]; 2];
    let mut row = 0usize;
    let mut c = 0usize;
    let mut board_end = None;
    for (i, ch) in body.char_indices() {
        let at = lead + i;
        match ch {
            '/' => {
                if c != SIZE {
                    return Err(ParseError::at_col(
                        col(at),
                        format!("row {} has {c} squares, expected {SIZE}", row + 1),
                    ));
                }
                row += 1;
                c = 0;
                if row == SIZE {
                    return Err(ParseError::at_col(
                        col(at),
                        format!(
                            "expected a space and the side to move after {SIZE} rows, found `/`"
                        ),
                    ));
                }
            }
            ' ' => {
                board_end = Some(i);
                break;
            }
            _ => {
                if c == SIZE {
                    return Err(ParseError::at_col(
                        col(at),
                        format!(
                            "row {} is longer than {SIZE} squares: expected `/`",
                            row + 1
                        ),
                    ));
                }
                let sq = (row * SIZE + c) as u8;
                if ch != '.' {
                    let Some((p, cube)) = piece(ch) else {
                        return Err(ParseError::at_col(
                            col(at),
                            format!("expected `.`, a red cube `1`–`6` or a blue cube `a`–`f`, found `{ch}`"),
                        ));
                    };
                    let slot = &mut cubes[p.index()][cube as usize - 1];
                    if *slot != GONE {
                        return Err(ParseError::at_col(
                            col(at),
                            format!(
                                "`{ch}` is on the board twice (also on {})",
                                super::square_name(*slot)
                            ),
                        ));
                    }
                    *slot = sq;
                }
                c += 1;
            }
        }
    }
    let Some(end) = board_end else {
        return Err(ParseError::at_col(
            col(lead + body.len()),
            "expected a space and the side to move (`r` or `b`) after the board",
        ));
    };
    if row != SIZE - 1 || c != SIZE {
        return Err(ParseError::at_col(
            col(lead + end),
            format!(
                "the board has {} rows (the last with {c} squares), expected {SIZE} rows of {SIZE}",
                row + 1
            ),
        ));
    }
    let side_text = body[end..].trim_start();
    let side_at = lead + body.len() - side_text.len();
    let mut chars = side_text.chars();
    let to_move = match chars.next() {
        Some('r') => Player::First,
        Some('b') => Player::Second,
        _ => {
            return Err(ParseError::at_col(
                col(side_at),
                format!("expected the side to move, `r` (red) or `b` (blue), found `{side_text}`"),
            ))
        }
    };
    let die = match chars.as_str() {
        "" => None,
        d => match d.parse::<u8>() {
            Ok(v) if (1..=CUBES as u8).contains(&v) => Some(v),
            _ => {
                return Err(ParseError::at_col(
                    col(side_at + 1),
                    format!("expected the rolled number 1–6 after the side (or nothing before the roll), found `{d}`"),
                ))
            }
        },
    };
    let g = Ewn::from_parts(cubes, to_move, die);
    let red = g.cubes[0].iter().any(|&s| s != GONE);
    let blue = g.cubes[1].iter().any(|&s| s != GONE);
    if !red && !blue {
        return Err(ParseError::at_col(
            col(lead),
            "an empty board: expected at least one cube",
        ));
    }
    if g.cubes[0].contains(&super::RED_GOAL) && g.cubes[1].contains(&super::BLUE_GOAL) {
        return Err(ParseError::at_col(
            col(lead),
            "both players stand on their goal corners: at most one game can be won",
        ));
    }
    if die.is_some() && g.outcome().is_some() {
        return Err(ParseError::at_col(
            col(side_at + 1),
            "the game is over, so no die is rolled: leave the number out",
        ));
    }
    Ok(g)
}

/// The notation of a position (parses back to it).
pub(super) fn write(g: &Ewn) -> String {
    let mut out = String::new();
    for r in 0..SIZE {
        if r > 0 {
            out.push('/');
        }
        for c in 0..SIZE {
            out.push(match g.at((r * SIZE + c) as u8) {
                None => '.',
                Some((Player::First, k)) => (b'0' + k) as char,
                Some((Player::Second, k)) => (b'a' + k - 1) as char,
            });
        }
    }
    out.push(' ');
    out.push(match g.to_move {
        Player::First => 'r',
        Player::Second => 'b',
    });
    if let Some(d) = g.die {
        out.push((b'0' + d) as char);
    }
    out
}
