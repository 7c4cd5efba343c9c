//! Board cells a lesson step highlights, named as the game names its
//! squares: a column letter and a row number (`c3`; xiangqi's rows count
//! from 0 as in its move notation `h2e2`). Checked against the game's
//! board; games drawn as trees only (hand-written trees, P-game trees)
//! have no cells.

use pnlab_core::game::{AnyPosition, GameKind};

/// A checked cell: its name and where it lies (0-based column from the
/// left, 0-based row in the game's own numbering: row 0 is `…1`, or
/// `…0` for xiangqi).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    /// The name as written, lower-cased (`c3`).
    pub name: String,
    /// Column, 0 = `a`.
    pub col: u8,
    /// Row, 0 = the first row of the game's notation.
    pub row: u8,
}

/// Columns, rows and the first row's number of a game's board.
fn grid(p: &AnyPosition) -> Option<(u8, u8, u8)> {
    let p = p.shown();
    Some(match p {
        AnyPosition::TicTacToe(_) => (3, 3, 1),
        AnyPosition::Connect4(_) => (7, 6, 1),
        AnyPosition::Hex(h) => (h.size(), h.size(), 1),
        AnyPosition::Othello(_) => (8, 8, 1),
        AnyPosition::Ewn(_) => (5, 5, 1),
        AnyPosition::Xiangqi(_) => (9, 10, 0),
        AnyPosition::Connect(c) => (c.rules().m.min(26), c.rules().n, 1),
        _ => return None,
    })
}

/// A cell name the position's board does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    /// The position has no board cells (a tree, a P-game).
    #[error(
        "a {0} position has no board cells; highlight nodes with `highlight = [\"…\"]` instead"
    )]
    NoBoard(&'static str),
    /// Not a cell of this board.
    #[error("expected a cell {first}…{last} of the {game} board, found `{found}`")]
    NotACell {
        /// The first cell's name.
        first: String,
        /// The last cell's name.
        last: String,
        /// The game.
        game: &'static str,
        /// The text given.
        found: String,
    },
}

/// Checks a cell name against the position's board.
pub fn parse_cell(p: &AnyPosition, text: &str) -> Result<Cell, CellError> {
    let kind: GameKind = p.kind();
    let Some((cols, rows, first)) = grid(p) else {
        return Err(CellError::NoBoard(kind.name()));
    };
    let t = text.trim().to_ascii_lowercase();
    let last_col = char::from(b'a' + cols - 1);
    let last_row = u32::from(first) + u32::from(rows) - 1;
    let expected = || CellError::NotACell {
        first: format!("a{first}"),
        last: format!("{last_col}{last_row}"),
        game: kind.name(),
        found: text.to_string(),
    };
    let mut chars = t.chars();
    let letter = chars
        .next()
        .filter(char::is_ascii_lowercase)
        .ok_or_else(expected)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(expected());
    }
    let row: u32 = digits.parse().map_err(|_| expected())?;
    let col = letter as u32 - 'a' as u32;
    if col >= u32::from(cols) || row < u32::from(first) || row > last_row {
        return Err(expected());
    }
    Ok(Cell {
        name: t,
        col: col as u8,
        row: (row - u32::from(first)) as u8,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pnlab_core::game::GameKind;

    #[test]
    fn cells_are_checked_against_each_board() {
        let ttt = AnyPosition::parse(GameKind::TicTacToe, ".........").unwrap();
        assert_eq!(
            parse_cell(&ttt, "C3").unwrap(),
            Cell {
                name: "c3".into(),
                col: 2,
                row: 2
            }
        );
        assert!(parse_cell(&ttt, "d1")
            .unwrap_err()
            .to_string()
            .contains("a1…c3"));
        assert!(parse_cell(&ttt, "a0").is_err());
        let hex = AnyPosition::parse(GameKind::Hex, "5:").unwrap();
        assert_eq!(parse_cell(&hex, "e5").unwrap().col, 4);
        assert!(parse_cell(&hex, "f1").is_err());
        let tree = AnyPosition::parse(GameKind::Tree, "a or\n  b = win\n").unwrap();
        assert!(parse_cell(&tree, "a1")
            .unwrap_err()
            .to_string()
            .contains("no board cells"));
    }
}
