//! UCCI FEN and UCCI move coordinates.
//!
//! FEN: ten ranks from Black's back rank (rank 9) down to Red's (rank 0),
//! separated by `/`; in each rank files a…i from left to right, a digit
//! 1–9 for that many empty points; uppercase = Red, lowercase = Black:
//! `K` general, `A` advisor, `B` or `E` elephant, `N` or `H` horse, `R`
//! rook, `C` cannon, `P` pawn. Then the side to move, `w` (or `r`) for Red,
//! `b` for Black. Up to four trailing fields (`- - 0 1`) are accepted and
//! ignored. The start position is
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! The reader rejects positions no game can reach where the rules make
//! that plain: not exactly one general per side, a general outside its
//! palace, an advisor or elephant off its points, a pawn behind its own
//! pawn line or off its file before crossing the river, more pieces of a
//! kind than a side starts with, and the side not to move in check. Each
//! error is a [`FenError`] with the column it refers to.
//!
//! Moves: `<from><to>` with files `a`–`i` and ranks `0`–`9` from Red's
//! side, e.g. `h2e2` (the central cannon opening).

use crate::game::{MoveError, ParseError, Player};

use super::board::{
    cell, cell_of, file_of, from_of, rank_of, to_of, Board, Move, ADVISOR, BLACK, CANNON, ELEPHANT,
    EMPTY, HORSE, KING, PAWN, POINTS, RED, ROOK,
};

/// A FEN that does not describe a xiangqi position; `col` is the 1-based
/// column (in characters) of the text the error refers to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but blanks.
    #[error("expected a xiangqi FEN (10 ranks separated by `/`, then `w` or `b`), found nothing")]
    Empty {
        /// 1-based column of the text the error points at.
        col: usize,
    },
    /// A letter that names no piece, or another stray character.
    #[error("unknown piece letter `{found}`; expected K A B/E N/H R C P (Red), k a b/e n/h r c p (Black) or a digit 1-9")]
    UnknownPiece {
        /// 1-based column of the text the error points at.
        col: usize,
        /// The character found.
        found: char,
    },
    /// A rank whose pieces and digits add up to more or fewer than 9 files.
    #[error("rank {rank} has {files} files; expected 9")]
    RankWidth {
        /// 1-based column of the text the error points at.
        col: usize,
        /// The board rank, 0-9 (9 = the FEN's first, Black's back rank).
        rank: usize,
        /// Files the rank adds up to.
        files: usize,
    },
    /// More or fewer than 10 ranks.
    #[error("expected 10 ranks separated by `/`, found {found}")]
    RankCount {
        /// 1-based column of the text the error points at.
        col: usize,
        /// Ranks the FEN has.
        found: usize,
    },
    /// The board is not followed by the side to move.
    #[error("expected the side to move (`w` for Red or `b` for Black) after the board")]
    MissingSide {
        /// 1-based column of the text the error points at.
        col: usize,
    },
    /// A side-to-move field that is not `w`, `r` or `b`.
    #[error("expected the side to move `w` (Red) or `b` (Black), found `{found}`")]
    BadSide {
        /// 1-based column of the text the error points at.
        col: usize,
        /// The field found.
        found: String,
    },
    /// More than the four ignored trailing fields.
    #[error("unexpected `{found}` after the FEN's fields")]
    Trailing {
        /// 1-based column of the text the error points at.
        col: usize,
        /// The first unexpected field.
        found: String,
    },
    /// Not exactly one general of a colour.
    #[error("{side} has {count} generals; expected exactly one")]
    GeneralCount {
        /// 1-based column of the text the error points at.
        col: usize,
        /// The colour, `Red` or `Black`.
        side: &'static str,
        /// How many the board has.
        count: usize,
    },
    /// A piece on a point its rules never let it reach.
    #[error("{piece} on {point}: {why}")]
    Misplaced {
        /// 1-based column of the text the error points at.
        col: usize,
        /// The piece, e.g. `Red pawn`.
        piece: &'static str,
        /// The point, `a0` … `i9`.
        point: String,
        /// Why no legal game puts it there.
        why: &'static str,
    },
    /// More pieces of a kind than a side has at the start.
    #[error("{side} has {count} {kind}s; a side has at most {max}")]
    TooMany {
        /// 1-based column of the text the error points at.
        col: usize,
        /// The colour, `Red` or `Black`.
        side: &'static str,
        /// The piece kind, in words.
        kind: &'static str,
        /// How many the board has.
        count: usize,
        /// The most a side starts with.
        max: usize,
    },
    /// The side to move could capture the other general.
    #[error("the side not to move is in check (the side to move could capture its general)")]
    OpponentInCheck {
        /// 1-based column of the text the error points at.
        col: usize,
    },
}

impl FenError {
    /// The 1-based column the error refers to.
    pub fn col(&self) -> usize {
        match self {
            FenError::Empty { col }
            | FenError::UnknownPiece { col, .. }
            | FenError::RankWidth { col, .. }
            | FenError::RankCount { col, .. }
            | FenError::MissingSide { col }
            | FenError::BadSide { col, .. }
            | FenError::Trailing { col, .. }
            | FenError::GeneralCount { col, .. }
            | FenError::Misplaced { col, .. }
            | FenError::TooMany { col, .. }
            | FenError::OpponentInCheck { col } => *col,
        }
    }
}

impl From<FenError> for ParseError {
    fn from(e: FenError) -> ParseError {
        ParseError::at_col(e.col(), e.to_string())
    }
}

/// The piece a FEN letter names.
fn piece_of_letter(c: char) -> Option<u8> {
    let kind = match c.to_ascii_uppercase() {
        'K' => KING,
        'A' => ADVISOR,
        'B' | 'E' => ELEPHANT,
        'N' | 'H' => HORSE,
        'R' => ROOK,
        'C' => CANNON,
        'P' => PAWN,
        _ => return None,
    };
    Some(kind | if c.is_ascii_uppercase() { RED } else { BLACK })
}

/// The FEN letter of a piece (uppercase Red, lowercase Black).
pub fn letter_of(piece: u8) -> char {
    let c = match piece & 7 {
        KING => 'K',
        ADVISOR => 'A',
        ELEPHANT => 'B',
        HORSE => 'N',
        ROOK => 'R',
        CANNON => 'C',
        PAWN => 'P',
        _ => '?',
    };
    if piece & BLACK != 0 {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

/// A kind's English name (for messages).
pub fn kind_name(piece: u8) -> &'static str {
    match piece & 7 {
        KING => "general",
        ADVISOR => "advisor",
        ELEPHANT => "elephant",
        HORSE => "horse",
        ROOK => "rook",
        CANNON => "cannon",
        PAWN => "pawn",
        _ => "piece",
    }
}

/// `Red` or `Black` for a piece.
fn side_name(piece: u8) -> &'static str {
    if piece & BLACK != 0 {
        "Black"
    } else {
        "Red"
    }
}

/// Name of a point: `a0` … `i9`.
pub fn point_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank)
}

/// A move in UCCI coordinates (`h2e2`).
pub fn move_name(m: Move) -> String {
    let (f, t) = (from_of(m), to_of(m));
    format!(
        "{}{}",
        point_name(file_of(f), rank_of(f)),
        point_name(file_of(t), rank_of(t))
    )
}

/// What a move in UCCI coordinates looks like.
const UCCI_MOVE: &str = "a move in UCCI coordinates like `h2e2` (files a-i, ranks 0-9)";

/// Reads UCCI coordinates into (from, to) cells, without checking
/// legality.
pub fn read_coordinates(text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let b = t.as_bytes();
    let point = |f: u8, r: u8| -> Option<usize> {
        let f = f.to_ascii_lowercase();
        ((b'a'..=b'i').contains(&f) && r.is_ascii_digit())
            .then(|| cell((f - b'a') as usize, (r - b'0') as usize))
    };
    match (b.len(), b) {
        (4, [f1, r1, f2, r2]) => match (point(*f1, *r1), point(*f2, *r2)) {
            (Some(from), Some(to)) => Ok(super::board::encode(from, to)),
            _ => Err(MoveError::notation(t, UCCI_MOVE)),
        },
        _ => Err(MoveError::notation(t, UCCI_MOVE)),
    }
}

/// Where a piece may stand at all (a reached position), or why not.
fn placement_error(piece: u8, file: usize, rank: usize) -> Option<&'static str> {
    let red = piece & BLACK == 0;
    // Ranks counted from the piece's own side.
    let own_rank = if red { rank } else { 9 - rank };
    let palace = (3..=5).contains(&file) && own_rank <= 2;
    match piece & 7 {
        KING if !palace => Some("a general never leaves its palace (files d-f, its first three ranks)"),
        ADVISOR
            if !matches!(
                (file, own_rank),
                (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)
            ) =>
        {
            Some("an advisor only stands on the five points of its palace's diagonals")
        }
        ELEPHANT
            if !matches!(
                (file, own_rank),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            ) =>
        {
            Some("an elephant only stands on its seven points on its own side of the river")
        }
        PAWN if own_rank < 3 => Some("a pawn behind its own pawn line (pawns never move back)"),
        PAWN if own_rank <= 4 && file % 2 == 1 => Some(
            "a pawn that has not crossed the river only moves forward, so it stays on its starting file (a, c, e, g or i)",
        ),
        _ => None,
    }
}

/// Most pieces of a kind a side has.
fn max_count(kind: u8) -> usize {
    match kind {
        KING => 1,
        PAWN => 5,
        _ => 2,
    }
}

/// Parses a UCCI FEN into a board (see the module documentation).
pub fn parse(text: &str) -> Result<Board, FenError> {
    // Columns are 1-based character positions in `text`.
    let chars: Vec<(usize, char)> = text.chars().enumerate().map(|(i, c)| (i + 1, c)).collect();
    let mut i = 0;
    while i < chars.len() && chars[i].1.is_whitespace() {
        i += 1;
    }
    if i == chars.len() {
        return Err(FenError::Empty { col: 1 });
    }
    let board_start = chars[i].0;
    // The board field, split into ranks (column of each rank's start).
    let mut ranks: Vec<(usize, Vec<(usize, char)>)> = vec![(board_start, Vec::new())];
    while i < chars.len() && !chars[i].1.is_whitespace() {
        let (col, c) = chars[i];
        if c == '/' {
            ranks.push((col + 1, Vec::new()));
        } else if let Some(last) = ranks.last_mut() {
            last.1.push((col, c));
        }
        i += 1;
    }
    let placed = Placed::of_ranks(&ranks, board_start)?;
    let board_end_col = chars.get(i).map(|c| c.0).unwrap_or(chars.len() + 1);
    let fields = fields_after(&chars[i..]);
    let side = side_to_move(&fields, board_end_col)?;
    if let Some((col, w)) = fields.get(5) {
        return Err(FenError::Trailing {
            col: *col,
            found: w.clone(),
        });
    }
    placed.check_placement(false)?;
    placed.check_counts()?;
    placed.check_placement(true)?;
    let board = Board::from_points(&placed.pieces, side);
    if board.opponent_in_check() {
        return Err(FenError::OpponentInCheck {
            col: fields.first().map(|f| f.0).unwrap_or(board_start),
        });
    }
    Ok(board)
}

/// The whitespace-separated fields after the board, with their columns.
fn fields_after(chars: &[(usize, char)]) -> Vec<(usize, String)> {
    let mut fields: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && chars[i].1.is_whitespace() {
            i += 1;
        }
        if i == chars.len() {
            break;
        }
        let col = chars[i].0;
        let mut word = String::new();
        while i < chars.len() && !chars[i].1.is_whitespace() {
            word.push(chars[i].1);
            i += 1;
        }
        fields.push((col, word));
    }
    fields
}

/// The side to move, the first field after the board (`board_end_col`
/// is where it is missing).
fn side_to_move(fields: &[(usize, String)], board_end_col: usize) -> Result<Player, FenError> {
    match fields.first() {
        None => Err(FenError::MissingSide { col: board_end_col }),
        Some((col, w)) => match w.as_str() {
            "w" | "W" | "r" | "R" => Ok(Player::First),
            "b" | "B" => Ok(Player::Second),
            _ => Err(FenError::BadSide {
                col: *col,
                found: w.clone(),
            }),
        },
    }
}

/// The pieces of the board field, with the column each was written at
/// (for placement errors).
struct Placed {
    pieces: [u8; POINTS],
    piece_col: [usize; POINTS],
    /// The column where the board field starts.
    board_start: usize,
}

impl Placed {
    /// Places the ranks of the board field (top rank first), each nine
    /// files wide; there must be ten of them.
    fn of_ranks(
        ranks: &[(usize, Vec<(usize, char)>)],
        board_start: usize,
    ) -> Result<Placed, FenError> {
        let mut placed = Placed {
            pieces: [EMPTY; POINTS],
            piece_col: [0usize; POINTS],
            board_start,
        };
        for (k, (rank_col, items)) in ranks.iter().enumerate().take(10) {
            let rank = 9 - k;
            let mut file = 0usize;
            for &(col, c) in items {
                if let Some(d) = c.to_digit(10).filter(|&d| d >= 1) {
                    file += d as usize;
                    continue;
                }
                let piece = piece_of_letter(c).ok_or(FenError::UnknownPiece { col, found: c })?;
                if file < 9 {
                    placed.pieces[rank * 9 + file] = piece;
                    placed.piece_col[rank * 9 + file] = col;
                }
                file += 1;
            }
            if file != 9 {
                return Err(FenError::RankWidth {
                    col: *rank_col,
                    rank,
                    files: file,
                });
            }
        }
        if ranks.len() != 10 {
            return Err(FenError::RankCount {
                col: board_start,
                found: ranks.len(),
            });
        }
        Ok(placed)
    }

    /// Every piece (the generals when `kings`, else the others) stands
    /// where its kind may stand.
    fn check_placement(&self, kings: bool) -> Result<(), FenError> {
        for (p, &piece) in self.pieces.iter().enumerate() {
            if piece == EMPTY || (piece & 7 == KING) != kings {
                continue;
            }
            let (file, rank) = (p % 9, p / 9);
            if let Some(why) = placement_error(piece, file, rank) {
                return Err(FenError::Misplaced {
                    col: self.piece_col[p],
                    piece: piece_desc(piece),
                    point: point_name(file, rank),
                    why,
                });
            }
        }
        Ok(())
    }

    /// One general a side, and no more of a kind than a side starts with.
    fn check_counts(&self) -> Result<(), FenError> {
        let mut counts = [[0usize; 8]; 2];
        for &piece in self.pieces.iter().filter(|&&piece| piece != EMPTY) {
            let s = usize::from(piece & BLACK != 0);
            counts[s][(piece & 7) as usize] += 1;
        }
        for (s, side_counts) in counts.iter().enumerate() {
            let color = if s == 0 { RED } else { BLACK };
            let n = side_counts[KING as usize];
            if n != 1 {
                return Err(FenError::GeneralCount {
                    col: self.col_of_nth(color | KING, 1),
                    side: side_name(color),
                    count: n,
                });
            }
            for kind in [ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN] {
                let n = side_counts[kind as usize];
                if n > max_count(kind) {
                    return Err(FenError::TooMany {
                        col: self.col_of_nth(color | kind, max_count(kind)),
                        side: side_name(color),
                        kind: kind_name(kind),
                        count: n,
                        max: max_count(kind),
                    });
                }
            }
        }
        Ok(())
    }

    /// The column of the `nth` (from 0) `piece` in point order: the one
    /// too many. The board's start when there is none.
    fn col_of_nth(&self, piece: u8, nth: usize) -> usize {
        (0..POINTS)
            .filter(|&p| self.pieces[p] == piece)
            .map(|p| self.piece_col[p])
            .nth(nth)
            .unwrap_or(self.board_start)
    }
}

/// `Red pawn`, `Black general`, … for messages.
fn piece_desc(piece: u8) -> &'static str {
    match (piece & BLACK != 0, piece & 7) {
        (false, KING) => "Red general",
        (false, ADVISOR) => "Red advisor",
        (false, ELEPHANT) => "Red elephant",
        (false, PAWN) => "Red pawn",
        (true, KING) => "Black general",
        (true, ADVISOR) => "Black advisor",
        (true, ELEPHANT) => "Black elephant",
        (true, PAWN) => "Black pawn",
        _ => "piece",
    }
}

/// The FEN of a board, `w`/`b` and the fields `- - 0 1`.
pub fn write(b: &Board) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            let piece = b.at(cell_of(rank * 9 + file));
            if piece == EMPTY {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                s.push(letter_of(piece));
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(match b.side() {
        Player::First => " w - - 0 1",
        Player::Second => " b - - 0 1",
    });
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn start_round_trips() {
        let b = parse(START).unwrap();
        assert_eq!(write(&b), START);
        assert_eq!(b.side(), Player::First);
        assert_eq!(b.piece_at(4, 0), RED | KING);
        assert_eq!(b.piece_at(1, 7), BLACK | CANNON);
        // E/H spellings and no trailing fields.
        let alt = parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w").unwrap();
        assert_eq!(alt, b);
    }

    #[test]
    fn moves_read_and_print() {
        let m = read_coordinates("h2e2").unwrap();
        assert_eq!(move_name(m), "h2e2");
        assert_eq!(from_of(m), cell(7, 2));
        assert_eq!(to_of(m), cell(4, 2));
        for bad in ["h2e", "j2e2", "h2ex", "", "h2e2e"] {
            assert!(read_coordinates(bad).is_err(), "{bad}");
        }
    }
}
