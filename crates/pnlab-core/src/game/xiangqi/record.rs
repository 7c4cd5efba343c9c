//! Game records in the PGN-like UCCI format: tag lines, then numbered move
//! pairs in UCCI coordinates, Red first.
//!
//! ```text
//! [Event "World Xiangqi Championships 1997"]
//! [Red "YAN Andrew"]
//! [Black "CHIU Yu Kuen"]
//!
//! 1. h2e2 h9g7 2. h0g2 g6g5 3. i0h0 i9h9 …
//! ```
//!
//! A tag line after move text starts the next game. Move numbers (`12.`,
//! `12...`), results (`1-0`, `0-1`, `1/2-1/2`, `*`), `{…}` comments and
//! `;` comments to the end of the line are skipped. A `[FEN "…"]` tag sets
//! the start position (the standard one otherwise).
//!
//! Each game is read on its own: a malformed tag, a bad FEN tag or an
//! illegal move makes that game a [`RecordError`] naming the game, the
//! ply and the place in the text, and the following games still load.
//! Moves are checked against the board alone: a record may go on past a
//! position that pnlab's repetition rule would end.

use super::board::Move;
use super::{fen, Xiangqi};
use crate::game::{Game, ParseError};

/// One game of a record file.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// 1-based line where the game starts.
    pub line: usize,
    /// Tags in file order (`Event`, `Red`, `Black`, …).
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start: Xiangqi,
    /// The moves, all legal.
    pub moves: Vec<Move>,
}

impl GameRecord {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// `Red – Black, Event` (whatever of it the tags give).
    pub fn title(&self) -> String {
        title_of(&self.tags, self.number)
    }

    /// The moves in UCCI coordinates.
    pub fn move_names(&self) -> Vec<String> {
        self.moves.iter().map(|&m| fen::move_name(m)).collect()
    }

    /// The position after `ply` moves (0 = the start), carrying the path
    /// from the start for the repetition rule.
    pub fn position_after(&self, ply: usize) -> Xiangqi {
        let mut g = self.start.clone();
        for &m in self.moves.iter().take(ply) {
            g.play(m);
        }
        g
    }

    /// Every position along the game: the start and the one after each
    /// move (`moves.len() + 1` of them).
    pub fn positions(&self) -> Vec<Xiangqi> {
        let mut g = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(g.clone());
        for &m in &self.moves {
            g.play(m);
            out.push(g.clone());
        }
        out
    }
}

/// A game that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: game {game} ({title}){}: {message}", ply.map(|p| format!(", ply {p}")).unwrap_or_default())]
pub struct RecordError {
    /// 1-based number of the game in its file.
    pub game: usize,
    /// The game's title from its tags.
    pub title: String,
    /// 1-based ply of the offending move, when a move is at fault.
    pub ply: Option<usize>,
    /// 1-based line of the fault.
    pub line: usize,
    /// 1-based column of the fault.
    pub col: usize,
    /// What was wrong.
    pub message: String,
}

impl From<RecordError> for ParseError {
    fn from(e: RecordError) -> ParseError {
        let ply = e.ply.map(|p| format!(", ply {p}")).unwrap_or_default();
        ParseError::new(
            e.line,
            e.col,
            format!("game {} ({}){ply}: {}", e.game, e.title, e.message),
        )
    }
}

fn title_of(tags: &[(String, String)], number: usize) -> String {
    let get = |k: &str| {
        tags.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    };
    match (get("Red"), get("Black"), get("Event")) {
        (Some(r), Some(b), Some(e)) => format!("{r} – {b}, {e}"),
        (Some(r), Some(b), None) => format!("{r} – {b}"),
        (_, _, Some(e)) => e.to_string(),
        _ => format!("game {number}"),
    }
}

/// A game being read.
struct Pending {
    number: usize,
    line: usize,
    tags: Vec<(String, String)>,
    position: Xiangqi,
    start: Option<Xiangqi>,
    moves: Vec<Move>,
    error: Option<RecordError>,
    has_moves: bool,
    in_comment: bool,
    ended: bool,
}

impl Pending {
    fn new(number: usize, line: usize) -> Pending {
        Pending {
            number,
            line,
            tags: Vec::new(),
            position: Xiangqi::start(),
            start: None,
            moves: Vec::new(),
            error: None,
            has_moves: false,
            in_comment: false,
            ended: false,
        }
    }

    fn fail(&mut self, ply: Option<usize>, line: usize, col: usize, message: String) {
        if self.error.is_none() {
            self.error = Some(RecordError {
                game: self.number,
                title: title_of(&self.tags, self.number),
                ply,
                line,
                col,
                message,
            });
        }
    }

    fn finish(self) -> Result<GameRecord, RecordError> {
        if let Some(mut e) = self.error {
            e.title = title_of(&self.tags, self.number);
            return Err(e);
        }
        Ok(GameRecord {
            number: self.number,
            line: self.line,
            start: self.start.unwrap_or_else(Xiangqi::start),
            tags: self.tags,
            moves: self.moves,
        })
    }

    /// A tag line `[Name "Value"]` (trimmed, starting at column `col`).
    fn tag(&mut self, text: &str, line: usize, col: usize) {
        let inner = text
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .map(str::trim);
        let parsed = inner.and_then(|t| {
            let (name, rest) = t.split_once(char::is_whitespace)?;
            let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
            Some((name.to_string(), value.replace("\\\"", "\"")))
        });
        let Some((name, value)) = parsed else {
            self.fail(
                None,
                line,
                col,
                format!("expected a tag line `[Name \"value\"]`, found `{text}`"),
            );
            return;
        };
        if name.eq_ignore_ascii_case("FEN") && self.error.is_none() {
            match Xiangqi::parse_fen(&value) {
                Ok(p) => {
                    self.position = p.clone();
                    self.start = Some(p);
                }
                Err(e) => {
                    // The value starts after `[FEN "`.
                    let at = text.find('"').map(|i| i + 1).unwrap_or(0);
                    let c = col + text[..at].chars().count() + e.col() - 1;
                    self.fail(None, line, c, format!("bad FEN tag: {e}"));
                }
            }
        }
        self.tags.push((name, value));
    }

    /// One whitespace-free token of move text at (line, col).
    fn token(&mut self, tok: &str, line: usize, col: usize) {
        if self.in_comment {
            if tok.contains('}') {
                self.in_comment = false;
            }
            return;
        }
        if tok.starts_with('{') {
            self.in_comment = !tok.contains('}');
            return;
        }
        // Any move text, even after an error, means a later tag line
        // starts the next game.
        self.has_moves = true;
        if self.ended || self.error.is_some() {
            return;
        }
        if matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*") {
            self.ended = true;
            return;
        }
        // `12.`, `12...`, or a number glued to its move (`12.h2e2`).
        let digits = tok.len() - tok.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (skip, rest) = if digits > 0 && tok[digits..].starts_with('.') {
            let r = tok[digits..].trim_start_matches('.');
            (tok.len() - r.len(), r)
        } else {
            (0, tok)
        };
        if rest.is_empty() {
            return;
        }
        let col = col + skip;
        let ply = self.moves.len() + 1;
        let m = match fen::read_coordinates(rest) {
            Ok(m) => m,
            Err(e) => return self.fail(Some(ply), line, col, e.to_string()),
        };
        if !self.position.board_moves().contains(&m) {
            let side = match self.position.to_move() {
                crate::game::Player::First => "Red",
                crate::game::Player::Second => "Black",
            };
            return self.fail(
                Some(ply),
                line,
                col,
                format!(
                    "illegal move `{rest}` for {side} in {}",
                    self.position.notation()
                ),
            );
        }
        self.position.play(m);
        self.moves.push(m);
    }
}

/// Reads every game of a record file, each on its own (see the module
/// documentation); an empty list when the text holds no game.
pub fn read(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    let mut out = Vec::new();
    let mut cur: Option<Pending> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let content = match raw.find(';') {
            Some(k) if !cur.as_ref().is_some_and(|p| p.in_comment) => &raw[..k],
            _ => raw,
        };
        let trimmed = content.trim();
        if trimmed.is_empty() {
            continue;
        }
        let col = crate::game::notation::col_of(raw, content.len() - content.trim_start().len());
        if trimmed.starts_with('[') && !cur.as_ref().is_some_and(|p| p.in_comment) {
            let new_game = cur.as_ref().is_none_or(|p| p.has_moves || p.ended);
            if new_game {
                if let Some(p) = cur.take() {
                    out.push(p.finish());
                }
                cur = Some(Pending::new(out.len() + 1, line));
            }
            if let Some(p) = cur.as_mut() {
                p.tag(trimmed, line, col);
            }
            continue;
        }
        let p = cur.get_or_insert_with(|| Pending::new(out.len() + 1, line));
        let mut at = 0;
        for tok in content.split_whitespace() {
            let start = at + content[at..].find(tok).unwrap_or(0);
            at = start + tok.len();
            p.token(tok, line, crate::game::notation::col_of(raw, start));
        }
    }
    if let Some(p) = cur {
        out.push(p.finish());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Event \"E1\"]\n[Red \"R1\"]\n[Black \"B1\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9\n\n[Event \"E2\"]\n[Red \"R2\"]\n[Black \"B2\"]\n\n1. c3c4 {a comment} g6g5 2. b0c2 1-0\n";

    #[test]
    fn reads_games_with_tags_and_moves() {
        let games = read(TWO);
        assert_eq!(games.len(), 2);
        let g1 = games[0].as_ref().unwrap();
        assert_eq!(g1.tag("Red"), Some("R1"));
        assert_eq!(g1.move_names(), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(g1.title(), "R1 – B1, E1");
        assert_eq!(g1.line, 1);
        let g2 = games[1].as_ref().unwrap();
        assert_eq!(g2.number, 2);
        assert_eq!(g2.line, 7);
        assert_eq!(g2.move_names(), ["c3c4", "g6g5", "b0c2"]);
        assert_eq!(g2.positions().len(), 4);
        assert_eq!(g2.positions()[0], Xiangqi::start());
    }

    #[test]
    fn an_illegal_move_fails_its_game_only() {
        let bad = TWO.replace("h0g2", "h0h5");
        let games = read(&bad);
        assert_eq!(games.len(), 2);
        let e = games[0].as_ref().unwrap_err();
        assert_eq!((e.game, e.ply, e.line, e.col), (1, Some(3), 5, 17));
        assert!(e.to_string().contains("game 1 (R1 – B1, E1), ply 3"), "{e}");
        assert!(e.message.contains("illegal move `h0h5` for Red"), "{e}");
        assert!(games[1].is_ok());
    }
}
