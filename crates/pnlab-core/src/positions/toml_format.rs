//! The project's own position file: TOML with one or many `[[position]]`
//! tables (documented in positions/README.md).
//!
//! ```toml
//! [[position]]
//! name = "FFO #1"
//! game = "othello"
//! position = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
//! expected = "win"        # win | draw | loss, for the side to move
//! value = 18              # exact score, side to move's view
//! best_moves = ["g8"]
//! algo = "pns"
//! params = { tie = "deepest" }
//! notes = "…"
//! ```
//!
//! `file = "trees/x.tree"` (relative to the TOML file) replaces `position`
//! when the notation lives in its own file. `within = N` asks the mate
//! question (the side to move wins within N of its own moves; `expected`
//! and `best_moves` then answer that question) and `repetition = "draw" |
//! "perpetual-check-loses" | "none"` sets a xiangqi position's repetition
//! rule. Errors carry the TOML file's
//! line and column: the `toml` crate gives byte spans, converted here, and
//! a game's notation error is shifted to where the string stands.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::game::notation::{col_of, FileError};
use crate::game::xiangqi::Repetition;
use crate::game::{AnyPosition, GameKind, UnknownGame};

use super::{file_error, relative_to, stem, Expected, PositionEntry, Resolver, SuggestionAt};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlFile {
    #[serde(default)]
    position: Vec<TomlPosition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPosition {
    game: Spanned<String>,
    position: Option<Spanned<String>>,
    file: Option<Spanned<String>>,
    name: Option<String>,
    notes: Option<String>,
    expected: Option<Spanned<String>>,
    value: Option<i32>,
    best_moves: Option<Spanned<Vec<String>>>,
    algo: Option<Spanned<String>>,
    params: Option<Spanned<toml::Table>>,
    within: Option<Spanned<i64>>,
    repetition: Option<Spanned<String>>,
}

/// The largest `within` a file may ask for (a sanity bound, not a limit
/// of the searches).
pub const MAX_WITHIN: u32 = 1000;

/// (line, col), both 1-based, of byte offset `byte` in `text`.
pub fn line_col(text: &str, byte: usize) -> (usize, usize) {
    let byte = byte.min(text.len());
    let mut b = byte;
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    let line_start = text[..b].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line = text[..b].matches('\n').count() + 1;
    let line_end = text[line_start..]
        .find('\n')
        .map(|i| line_start + i)
        .unwrap_or(text.len());
    (line, col_of(&text[line_start..line_end], b - line_start))
}

/// Byte offset where the *content* of the string whose TOML source spans
/// `span` starts, or `None` when columns inside cannot be mapped one to
/// one (a basic string with escapes).
pub fn content_start(text: &str, span: &Range<usize>) -> (usize, bool) {
    let raw = text.get(span.clone()).unwrap_or("");
    let exact = !(raw.starts_with('"') && raw.contains('\\'));
    if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        let mut s = span.start + 3;
        // TOML drops a newline right after the opening delimiter.
        if text[s..].starts_with("\r\n") {
            s += 2;
        } else if text[s..].starts_with('\n') {
            s += 1;
        }
        (s, exact)
    } else if raw.starts_with('"') || raw.starts_with('\'') {
        (span.start + 1, exact)
    } else {
        (span.start, false)
    }
}

/// Reads a TOML position file.
pub(super) fn read(
    file: &str,
    text: &str,
    resolver: &dyn Resolver,
) -> Result<Vec<PositionEntry>, FileError> {
    let reader = Reader {
        file,
        text,
        resolver,
    };
    let parsed: TomlFile = toml::from_str(text).map_err(|e| {
        let byte = e.span().map(|s| s.start).unwrap_or(0);
        reader.at(byte, e.message().trim().to_string())
    })?;
    if parsed.position.is_empty() {
        return Err(file_error(
            file,
            1,
            1,
            "expected at least one `[[position]]` table with `game` and `position` (see positions/README.md)",
        ));
    }
    // The header line of each table, for PositionEntry::line.
    let headers: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim().starts_with("[[position]]"))
        .map(|(i, _)| i + 1)
        .collect();
    parsed
        .position
        .into_iter()
        .enumerate()
        .map(|(k, p)| reader.entry(k, p, &headers))
        .collect()
}

/// The file being read, for the entries' errors and their file
/// references.
struct Reader<'a> {
    file: &'a str,
    text: &'a str,
    resolver: &'a dyn Resolver,
}

impl Reader<'_> {
    /// An error at byte `byte` of the file.
    fn at(&self, byte: usize, msg: String) -> FileError {
        let (l, c) = line_col(self.text, byte);
        file_error(self.file, l, c, msg)
    }

    /// The `k`-th `[[position]]` table as an entry; `headers` are the
    /// tables' header lines.
    fn entry(
        &self,
        k: usize,
        p: TomlPosition,
        headers: &[usize],
    ) -> Result<PositionEntry, FileError> {
        let (file, text) = (self.file, self.text);
        let game_span = p.game.span();
        let kind: GameKind = p
            .game
            .get_ref()
            .parse()
            .map_err(|e: UnknownGame| self.at(game_span.start, e.to_string()))?;
        let position = self.position(kind, &p, game_span.start)?;
        let position = self.with_rules(position, &p)?;
        let expected = self.expected(&p, &position)?;
        let algo_name = p.algo.as_ref().map(|a| a.get_ref().clone());
        let params = self.params(&p)?;
        // The registry checks the algorithm and its parameters
        // (`search::registry::check_suggestion`): the searches sit above
        // this layer.
        let suggestion_at = (p.algo.is_some() || p.params.is_some()).then(|| SuggestionAt {
            file: file.to_string(),
            algo: p.algo.as_ref().map(|a| line_col(text, a.span().start)),
            params: p.params.as_ref().map(|t| line_col(text, t.span().start)),
        });
        let line = headers
            .get(k)
            .copied()
            .unwrap_or_else(|| line_col(text, game_span.start).0);
        let name = p
            .name
            .unwrap_or_else(|| format!("{} #{}", stem(file), k + 1));
        Ok(PositionEntry {
            game: kind,
            notes: p.notes.unwrap_or_default().trim().to_string(),
            expected,
            algo: algo_name,
            params,
            suggestion_at,
            ..PositionEntry::new(name, position, line)
        })
    }

    /// The position of a table, from its `position` notation or the file
    /// its `file` names (exactly one of them); `game_at` is the byte of
    /// its `game`.
    fn position(
        &self,
        kind: GameKind,
        p: &TomlPosition,
        game_at: usize,
    ) -> Result<AnyPosition, FileError> {
        match (&p.position, &p.file) {
            (Some(_), Some(f)) => Err(self.at(
                f.span().start,
                "give either `position` or `file`, not both".into(),
            )),
            (None, None) => Err(self.at(
                game_at,
                "this position has neither `position = \"…\"` (the notation) nor `file = \"…\"` (a file holding it)".into(),
            )),
            (Some(s), None) => self.inline_position(kind, s),
            (None, Some(f)) => self.referenced_position(kind, f),
        }
    }

    /// A position written in the table: its errors point into the
    /// string (exactly when the string has no escapes).
    fn inline_position(
        &self,
        kind: GameKind,
        s: &Spanned<String>,
    ) -> Result<AnyPosition, FileError> {
        let (file, text) = (self.file, self.text);
        let span = s.span();
        AnyPosition::parse(kind, s.get_ref()).map_err(|e| {
            let (start, exact) = content_start(text, &span);
            let (l, c) = line_col(text, start);
            let error = if exact {
                e.offset(l, c)
            } else {
                crate::game::ParseError::new(l, c, e.to_string())
            };
            FileError {
                file: file.to_string(),
                error,
            }
        })
    }

    /// A position read from the file `f` names, relative to this file:
    /// its errors point into that file.
    fn referenced_position(
        &self,
        kind: GameKind,
        f: &Spanned<String>,
    ) -> Result<AnyPosition, FileError> {
        let path = relative_to(self.file, f.get_ref())
            .map_err(|m| self.at(f.span().start, m.to_string()))?;
        let body = self
            .resolver
            .read(&path)
            .map_err(|e| self.at(f.span().start, e.to_string()))?;
        let body = if kind == GameKind::Tree {
            body.as_str()
        } else {
            body.trim()
        };
        AnyPosition::parse(kind, body).map_err(|error| FileError {
            // Named without `x/..` steps (the file was read by
            // `path`, joined as written).
            file: super::reference::bundled_name(&path),
            error,
        })
    }

    /// The position with the table's `repetition` rule and `within`
    /// bound, if given.
    fn with_rules(
        &self,
        position: AnyPosition,
        p: &TomlPosition,
    ) -> Result<AnyPosition, FileError> {
        let position = match &p.repetition {
            None => position,
            Some(r) => {
                let rule = Repetition::from_name(r.get_ref())
                    .map_err(|e| self.at(r.span().start, e.to_string()))?;
                position
                    .with_repetition(rule)
                    .map_err(|e| self.at(r.span().start, e.to_string()))?
            }
        };
        Ok(match &p.within {
            None => position,
            Some(n) => match u32::try_from(*n.get_ref()) {
                Ok(moves) if moves <= MAX_WITHIN => position.within(moves),
                _ => {
                    return Err(self.at(
                        n.span().start,
                        format!(
                            "expected `within` between 0 and {MAX_WITHIN} (moves of the side to move), found {}",
                            n.get_ref()
                        ),
                    ))
                }
            },
        })
    }

    /// The table's expected result, value and best moves (each best move
    /// checked to be legal in `position`), if any is given.
    fn expected(
        &self,
        p: &TomlPosition,
        position: &AnyPosition,
    ) -> Result<Option<Expected>, FileError> {
        let expected_result = match &p.expected {
            None => None,
            Some(s) => match s.get_ref().as_str() {
                "win" | "draw" | "loss" => Some(s.get_ref().clone()),
                other => {
                    return Err(self.at(
                        s.span().start,
                        format!(
                        "expected `win`, `draw` or `loss` (for the side to move), found `{other}`"
                    ),
                    ))
                }
            },
        };
        let best_moves = match &p.best_moves {
            None => Vec::new(),
            Some(b) => {
                for m in b.get_ref() {
                    if let Err(e) = position.after_move(m) {
                        return Err(self.at(b.span().start, format!("best move `{m}`: {e}")));
                    }
                }
                b.get_ref().clone()
            }
        };
        Ok(
            if expected_result.is_some() || p.value.is_some() || !best_moves.is_empty() {
                Some(Expected {
                    result: expected_result,
                    value: p.value,
                    best_moves,
                })
            } else {
                None
            },
        )
    }

    /// The table's suggested parameters as texts; values other than
    /// strings, numbers and booleans are refused.
    fn params(&self, p: &TomlPosition) -> Result<Vec<(String, String)>, FileError> {
        let mut params = Vec::new();
        let Some(t) = &p.params else {
            return Ok(params);
        };
        for (key, v) in t.get_ref() {
            let value = match v {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    return Err(self.at(
                        t.span().start,
                        format!(
                            "parameter `{key}`: expected a string or a number, found {}",
                            other.type_str()
                        ),
                    ))
                }
            };
            params.push((key.clone(), value));
        }
        Ok(params)
    }
}
