//! Notation of the connect family.
//!
//! - Game `connect`: `m,n,k,p,q:` followed by the stones in play order,
//!   separated by spaces: `19,19,6,2,1:j10 k10 k11`.
//! - Game `connect6`: the stones alone on 19 × 19 (`j10 k10 k11`), or
//!   `SIZE:` and the stones on another square board (`15:h8 i8 i9`).
//!
//! A cell is a column name and a row number as in Hex: `a1` is the
//! top-left corner, columns run `a` … `z`, then `aa`, `ab`, … (spreadsheet
//! style) on boards wider than 26. Who placed a stone follows from its
//! place in the list (the first q stones are the first player's, then
//! turns of p stones alternate), so any prefix of a game is a position,
//! also one in the middle of a turn. Errors say where and what: a header
//! that does not parse, parameters out of range, a malformed cell, a cell
//! off the board, a cell taken twice, a stone after the game has ended.

use crate::game::ParseError;

use super::board::{Cell, MAX_SIDE};

/// Largest number of stones per turn (p and q).
pub const MAX_STONES_PER_TURN: u8 = 16;

/// The rules of one member Connect(m, n, k, p, q).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Columns.
    pub m: u8,
    /// Rows.
    pub n: u8,
    /// Stones in a row (or more) that win.
    pub k: u8,
    /// Stones per turn after the first.
    pub p: u8,
    /// Stones of the first player's first turn.
    pub q: u8,
}

impl Rules {
    /// Connect6: Connect(19, 19, 6, 2, 1).
    pub const CONNECT6: Rules = Rules {
        m: 19,
        n: 19,
        k: 6,
        p: 2,
        q: 1,
    };

    /// Tic-tac-toe: Connect(3, 3, 3, 1, 1).
    pub const TICTACTOE: Rules = Rules {
        m: 3,
        n: 3,
        k: 3,
        p: 1,
        q: 1,
    };

    /// Connect6's rules on a `size` × `size` board.
    pub fn connect6(size: u8) -> Rules {
        Rules {
            m: size,
            n: size,
            ..Rules::CONNECT6
        }
    }

    /// Whether these are Connect6 rules (k = 6, p = 2, q = 1) on a square
    /// board, the boards game `connect6` writes.
    pub fn is_connect6_family(&self) -> bool {
        self.k == 6 && self.p == 2 && self.q == 1 && self.m == self.n
    }

    /// Checks the ranges: 1 ≤ m, n ≤ 64, 1 ≤ k ≤ 64, 1 ≤ p, q ≤ 16.
    pub fn check(&self) -> Result<(), ConnectError> {
        let side = 1..=MAX_SIDE;
        let turn = 1..=MAX_STONES_PER_TURN;
        if !side.contains(&self.m) || !side.contains(&self.n) {
            return Err(ConnectError::BoardSize {
                m: self.m,
                n: self.n,
            });
        }
        if !(1..=MAX_SIDE).contains(&self.k) {
            return Err(ConnectError::RowLength(self.k));
        }
        if !turn.contains(&self.p) || !turn.contains(&self.q) {
            return Err(ConnectError::StonesPerTurn {
                p: self.p,
                q: self.q,
            });
        }
        Ok(())
    }
}

/// What is wrong with a connect position's text (each with the 1-based
/// column where it was found when it becomes a [`ParseError`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    /// No `:` after the `m,n,k,p,q` header.
    #[error("expected `m,n,k,p,q:` then the stones (e.g. `19,19,6,2,1:j10 k10 k11`)")]
    NoHeader,
    /// The header does not have five numbers.
    #[error("expected five numbers m,n,k,p,q before `:` (columns, rows, k in a row, stones per turn, first turn), found {0}")]
    HeaderLength(usize),
    /// A header field that is not a number.
    #[error("expected a number 1-{MAX_SIDE} for {field}, found `{text}`")]
    NotANumber {
        /// The field's letter (m, n, k, p or q).
        field: &'static str,
        /// What was written.
        text: String,
    },
    /// A Connect6 size that is not a number.
    #[error("expected a board size 6-{MAX_SIDE} before `:` (e.g. `15:h8 i8`), found `{0}`")]
    BadSize(String),
    /// Columns or rows out of range.
    #[error("board {m}x{n} out of range (columns and rows 1-{MAX_SIDE})")]
    BoardSize {
        /// Columns.
        m: u8,
        /// Rows.
        n: u8,
    },
    /// k out of range.
    #[error("k = {0} out of range (1-{MAX_SIDE})")]
    RowLength(u8),
    /// Stones per turn out of range.
    #[error("p = {p}, q = {q}: stones per turn must be 1-{MAX_STONES_PER_TURN}")]
    StonesPerTurn {
        /// Stones per turn.
        p: u8,
        /// Stones of the first turn.
        q: u8,
    },
    /// A Connect6 board size out of range.
    #[error("Connect6 board size {0} out of range (6-{MAX_SIDE})")]
    Connect6Size(u8),
    /// `connect6` named for rules that are not Connect6's.
    #[error("game connect6 is Connect(S, S, 6, 2, 1)")]
    NotConnect6,
    /// A token that is not a column name followed by a row number.
    #[error("expected a cell such as `j10` (column letters, row number), found `{cell}`")]
    MalformedCell {
        /// The token as written.
        cell: String,
    },
    /// A well-formed cell outside the board.
    #[error("cell {cell} is off the {m}x{n} board")]
    OffBoard {
        /// The cell as written.
        cell: String,
        /// Board width (columns).
        m: u8,
        /// Board height (rows).
        n: u8,
    },
    /// A cell that already holds a stone.
    #[error("cell {cell} is already taken")]
    Occupied {
        /// The cell as written.
        cell: String,
    },
    /// A stone after a stone completed k in a row or filled the board.
    #[error("stone {cell} comes after the game has ended")]
    AfterEnd {
        /// The stone's cell as written.
        cell: String,
    },
}

/// A [`ConnectError`] found at 1-based column `col` of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// 1-based column (characters).
    pub col: usize,
    /// What is wrong.
    pub error: ConnectError,
}

impl From<Located> for ParseError {
    fn from(l: Located) -> ParseError {
        ParseError::at_col(l.col, l.error.to_string())
    }
}

/// Column name: 0 → `a`, 25 → `z`, 26 → `aa`, …
pub fn column_name(mut x: u16) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'a' + (x % 26) as u8);
        if x < 26 {
            break;
        }
        x = x / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Name of cell `c` on a board with `m` columns (`a1` top-left).
pub fn cell_name(m: u8, c: Cell) -> String {
    let m = u16::from(m);
    format!("{}{}", column_name(c % m), c / m + 1)
}

/// Parses a cell name on an `m` × `n` board (letters case-insensitive).
pub fn parse_cell(m: u8, n: u8, text: &str) -> Result<Cell, ConnectError> {
    let letters = text.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (col_text, row_text) = text.split_at(letters);
    let malformed = || ConnectError::MalformedCell {
        cell: text.to_string(),
    };
    if letters == 0
        || letters > 3
        || row_text.is_empty()
        || row_text.len() > 4
        || !row_text.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(malformed());
    }
    let mut col: u32 = 0;
    for b in col_text.bytes() {
        col = col * 26 + u32::from(b.to_ascii_lowercase() - b'a') + 1;
    }
    let col = col - 1;
    let row: u32 = row_text.parse().map_err(|_| malformed())?;
    if row == 0 || row > u32::from(n) || col >= u32::from(m) {
        return Err(ConnectError::OffBoard {
            cell: text.to_string(),
            m,
            n,
        });
    }
    Ok(((row - 1) * u32::from(m) + col) as Cell)
}

/// The stone tokens after the header: (1-based column, text).
pub fn tokens(text: &str, start_col: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (byte, ch)) in (start_col..).zip(text.char_indices()) {
        if ch.is_whitespace() {
            if let Some((b, c)) = start.take() {
                out.push((c, &text[b..byte]));
            }
        } else if start.is_none() {
            start = Some((byte, col));
        }
    }
    if let Some((b, c)) = start {
        out.push((c, &text[b..]));
    }
    out
}

/// Splits `m,n,k,p,q:rest` into the rules and the rest with the column
/// where it starts.
pub fn parse_connect_header(text: &str) -> Result<(Rules, &str, usize), Located> {
    let Some((head, rest)) = text.split_once(':') else {
        return Err(Located {
            col: 1,
            error: ConnectError::NoHeader,
        });
    };
    let lead = head.len() - head.trim_start().len();
    let mut values = [0u8; 5];
    let mut col = 1 + head[..lead].chars().count();
    let parts: Vec<&str> = head.trim_start().split(',').collect();
    if parts.len() != 5 {
        return Err(Located {
            col,
            error: ConnectError::HeaderLength(parts.len()),
        });
    }
    for (i, part) in parts.iter().enumerate() {
        values[i] = part.trim().parse().map_err(|_| Located {
            col,
            error: ConnectError::NotANumber {
                field: ["m", "n", "k", "p", "q"][i],
                text: part.trim().to_string(),
            },
        })?;
        col += part.chars().count() + 1;
    }
    let rules = Rules {
        m: values[0],
        n: values[1],
        k: values[2],
        p: values[3],
        q: values[4],
    };
    rules.check().map_err(|error| Located { col: 1, error })?;
    Ok((rules, rest, head.chars().count() + 2))
}

/// Splits a `connect6` text: `[SIZE:]stones`.
pub fn parse_connect6_header(text: &str) -> Result<(Rules, &str, usize), Located> {
    let Some((head, rest)) = text.split_once(':') else {
        return Ok((Rules::CONNECT6, text, 1));
    };
    let size: u8 = head.trim().parse().map_err(|_| Located {
        col: 1,
        error: ConnectError::BadSize(head.trim().to_string()),
    })?;
    if !(6..=MAX_SIDE).contains(&size) {
        return Err(Located {
            col: 1,
            error: ConnectError::Connect6Size(size),
        });
    }
    Ok((Rules::connect6(size), rest, head.chars().count() + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_are_spreadsheet_style() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(27), "ab");
        assert_eq!(column_name(63), "bl");
        for m in [3u8, 19, 30, 64] {
            for c in 0..u16::from(m) * 4 {
                assert_eq!(parse_cell(m, 4, &cell_name(m, c)), Ok(c));
            }
        }
    }

    #[test]
    fn cells_are_checked() {
        assert_eq!(parse_cell(19, 19, "j10"), Ok(9 * 19 + 9));
        assert_eq!(parse_cell(19, 19, "A1"), Ok(0));
        assert!(matches!(
            parse_cell(19, 19, "t1"),
            Err(ConnectError::OffBoard { .. })
        ));
        assert!(matches!(
            parse_cell(19, 19, "a20"),
            Err(ConnectError::OffBoard { .. })
        ));
        for bad in ["1a", "a", "a0x", "-"] {
            assert!(
                matches!(
                    parse_cell(19, 19, bad),
                    Err(ConnectError::MalformedCell { .. })
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            parse_cell(19, 19, "a0"),
            Err(ConnectError::OffBoard { .. })
        ));
    }

    #[test]
    fn tokens_carry_their_columns() {
        assert_eq!(tokens(" a1  b2", 5), vec![(6, "a1"), (10, "b2")]);
    }
}
