//! The native line-based files: Edax OBF, Pascal Pons's test files, Hex
//! and tic-tac-toe lines, xiangqi FEN lines, and whole-file trees. One position per line
//! (except trees); blank lines and comment lines are skipped; entries are
//! named `STEM #K` (K-th position of the file, so `fforum-1-19 #3` is FFO
//! problem 3).

use crate::game::notation::{col_of, FileError};
use crate::game::{AnyPosition, GameKind, ParseError};

use super::{file_error, result_of, stem, Expected, PositionEntry};

/// A game notation error at (line, col) of the file.
fn notation_error(file: &str, e: ParseError, line: usize, col: usize) -> FileError {
    FileError {
        file: file.to_string(),
        error: e.offset(line, col),
    }
}

fn entry(
    file: &str,
    k: usize,
    kind: GameKind,
    position: AnyPosition,
    line: usize,
) -> PositionEntry {
    debug_assert_eq!(kind, position.kind());
    PositionEntry::new(format!("{} #{k}", stem(file)), position, line)
}

/// Splits `raw` at the first `#`: (content, comment text).
fn split_hash(raw: &str) -> (&str, &str) {
    match raw.find('#') {
        Some(i) => (&raw[..i], raw[i + 1..].trim()),
        None => (raw, ""),
    }
}

/// The trimmed part of `s` and the byte offset where it starts in `s`.
fn trimmed(s: &str) -> (usize, &str) {
    let lead = s.len() - s.trim_start().len();
    (lead, s.trim())
}

/// OBF (Edax): `<64 squares> <side>[; MOVE:score; …]` per line. Lines
/// starting with `#`, `%` or `;` are comments. The annotations give the
/// exact final score of each move (side to move's view, empties to the
/// winner); the best of them is the position's value, the moves reaching
/// it are its best moves. Other text between `;` goes to the notes.
pub(super) fn read_obf(file: &str, text: &str) -> Result<Vec<PositionEntry>, FileError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') || t.starts_with(';') {
            continue;
        }
        let semi = raw.find(';').unwrap_or(raw.len());
        let (lead, body) = trimmed(&raw[..semi]);
        let position = AnyPosition::parse(GameKind::Othello, body)
            .map_err(|e| notation_error(file, e, ln, col_of(raw, lead)))?;
        let mut scored: Vec<(String, i32)> = Vec::new();
        let mut notes: Vec<&str> = Vec::new();
        let mut at = semi;
        while at < raw.len() {
            let start = at + 1;
            let end = raw[start..]
                .find(';')
                .map(|j| start + j)
                .unwrap_or(raw.len());
            let seg = &raw[start..end];
            at = end;
            let (off, s) = trimmed(seg);
            if s.is_empty() {
                continue;
            }
            let seg_col = col_of(raw, start + off);
            match s.split_once(':') {
                Some((mv, score)) => {
                    let mv = mv.trim();
                    let name = if mv.eq_ignore_ascii_case("ps") {
                        "pass".to_string()
                    } else {
                        mv.to_ascii_lowercase()
                    };
                    if let Err(e) = position.after_move(&name) {
                        return Err(file_error(
                            file,
                            ln,
                            seg_col,
                            format!("bad annotation move `{mv}`: {e}"),
                        ));
                    }
                    let score_text = score.trim();
                    let v: i32 = score_text.parse().map_err(|_| {
                        let sc = col_of(raw, start + off + s.find(':').unwrap_or(0) + 1);
                        file_error(
                            file,
                            ln,
                            sc,
                            format!(
                                "expected an integer score after `{mv}:`, found `{score_text}`"
                            ),
                        )
                    })?;
                    scored.push((name, v));
                }
                None => notes.push(s),
            }
        }
        let mut e = entry(file, out.len() + 1, GameKind::Othello, position, ln);
        e.notes = notes.join("; ");
        if let Some(best) = scored.iter().map(|&(_, v)| v).max() {
            e.expected = Some(Expected {
                result: Some(result_of(best)),
                value: Some(best),
                best_moves: scored
                    .iter()
                    .filter(|&&(_, v)| v == best)
                    .map(|(m, _)| m.clone())
                    .collect(),
            });
        }
        out.push(e);
    }
    Ok(out)
}

/// Pascal Pons's test files: `moves score` per line (1-based columns from
/// the empty board; score for the side to move: > 0 win, 0 draw, < 0 loss,
/// its size says how soon). The score may be left out; `#` starts a
/// comment (an extension: Pons's own files have none).
pub(super) fn read_pons(file: &str, text: &str) -> Result<Vec<PositionEntry>, FileError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let (content, comment) = split_hash(raw);
        if content.trim().is_empty() {
            continue;
        }
        let mut toks = Vec::new();
        let mut pos = 0;
        for tok in content.split_whitespace() {
            let at = pos + content[pos..].find(tok).unwrap_or(0);
            toks.push((at, tok));
            pos = at + tok.len();
        }
        if let Some(&(at, extra)) = toks.get(2) {
            return Err(file_error(
                file,
                ln,
                col_of(raw, at),
                format!("expected `moves score`, found an extra `{extra}`"),
            ));
        }
        let (m_at, moves) = toks[0];
        let position = AnyPosition::parse(GameKind::Connect4, moves)
            .map_err(|e| notation_error(file, e, ln, col_of(raw, m_at)))?;
        let mut e = entry(file, out.len() + 1, GameKind::Connect4, position, ln);
        if let Some(&(s_at, s)) = toks.get(1) {
            let v: i32 = s.parse().map_err(|_| {
                file_error(
                    file,
                    ln,
                    col_of(raw, s_at),
                    format!("expected an integer score after the moves, found `{s}`"),
                )
            })?;
            e.expected = Some(Expected {
                result: Some(result_of(v)),
                value: Some(v),
                best_moves: Vec::new(),
            });
        }
        e.notes = comment.to_string();
        out.push(e);
    }
    Ok(out)
}

/// Hex lines (`SIZE: cells`) or tic-tac-toe lines (9 cells): one position
/// per line in the game's notation, `#` starts a comment that becomes the
/// entry's notes.
pub(super) fn read_simple(
    file: &str,
    text: &str,
    kind: GameKind,
) -> Result<Vec<PositionEntry>, FileError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let (content, comment) = split_hash(raw);
        let (lead, body) = trimmed(content);
        if body.is_empty() {
            continue;
        }
        let position = AnyPosition::parse(kind, body)
            .map_err(|e| notation_error(file, e, ln, col_of(raw, lead)))?;
        let mut e = entry(file, out.len() + 1, kind, position, ln);
        e.notes = comment.to_string();
        out.push(e);
    }
    Ok(out)
}

/// A tree file: the whole text is one tree. Its name is the tree's title
/// (or the file name); its notes are the comment lines at the top.
pub(super) fn read_tree(file: &str, text: &str) -> Result<Vec<PositionEntry>, FileError> {
    let position = AnyPosition::parse(GameKind::Tree, text).map_err(|error| FileError {
        file: file.to_string(),
        error,
    })?;
    let name = match &position {
        AnyPosition::Tree(t) => t.title().map(str::to_string),
        _ => None,
    }
    .unwrap_or_else(|| stem(file));
    let notes: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .strip_prefix(' ')
                .unwrap_or(l.trim_start_matches('#'))
        })
        .collect();
    let mut e = entry(file, 1, GameKind::Tree, position, 1);
    e.name = name;
    e.notes = notes.join("\n").trim().to_string();
    Ok(vec![e])
}

/// Whether a line looks like a xiangqi FEN (ten `/`-separated ranks of
/// piece letters and digits), for format sniffing.
pub(super) fn looks_like_xiangqi_fen(line: &str) -> bool {
    let board = line.split_whitespace().next().unwrap_or("");
    board.split('/').count() == 10
        && board
            .chars()
            .all(|c| c == '/' || c.is_ascii_digit() || "kabenhrcpKABENHRCP".contains(c))
}

/// Xiangqi FEN lines (`.fen`): `FEN` per line, optionally followed by
/// `; name`; lines starting with `;` or `#` are comments. Entries without a
/// name are called `STEM #K`.
pub(super) fn read_fen(file: &str, text: &str) -> Result<Vec<PositionEntry>, FileError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        let semi = raw.find(';').unwrap_or(raw.len());
        let (lead, body) = trimmed(&raw[..semi]);
        let position = AnyPosition::parse(GameKind::Xiangqi, body)
            .map_err(|e| notation_error(file, e, ln, col_of(raw, lead)))?;
        let mut e = entry(file, out.len() + 1, GameKind::Xiangqi, position, ln);
        let name = raw.get(semi + 1..).unwrap_or("").trim();
        if !name.is_empty() {
            e.name = name.to_string();
        }
        out.push(e);
    }
    Ok(out)
}
