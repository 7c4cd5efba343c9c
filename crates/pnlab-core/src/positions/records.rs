//! Xiangqi game-record files (`.pgn`, the PGN-like UCCI format read by
//! [`record`](crate::game::xiangqi::record)): one entry per game, holding
//! the position after the game's last move and the whole game as a
//! [`GameLine`], so a viewer can list the moves and step through them. A
//! game that does not read is an error of its own, naming the game and
//! the ply; the other games of the file still load.

use std::sync::Arc;

use crate::game::notation::FileError;
use crate::game::xiangqi::record;
use crate::game::{AnyPosition, Game};

use super::{stem, GameLine, PositionEntry};

/// Whether a line is a record's tag line (`[Event "…"]`), for sniffing.
pub(super) fn looks_like_tag(line: &str) -> bool {
    let Some(inner) = line.trim().strip_prefix('[') else {
        return false;
    };
    let name: String = inner
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    !name.is_empty() && inner[name.len()..].trim_start().starts_with('"')
}

/// Every game of a record file: the entries that read and the errors of
/// those that do not, in file order.
pub(super) fn read(file: &str, text: &str) -> (Vec<PositionEntry>, Vec<FileError>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for result in record::read(text) {
        match result {
            Ok(r) => {
                let title = r.title();
                let line = GameLine {
                    title: title.clone(),
                    tags: r.tags.clone(),
                    start: AnyPosition::Xiangqi(r.start.clone()),
                    moves: r.move_names(),
                };
                let last = r.position_after(r.moves.len());
                let mut notes = vec![format!(
                    "{} plies; the position after the last move.\n",
                    r.moves.len()
                )];
                notes.extend(r.tags.iter().map(|(k, v)| format!("- {k}: {v}")));
                let mut e = PositionEntry::new(
                    format!("{} #{}: {title}", stem(file), r.number),
                    last.into_any(),
                    r.line,
                );
                e.notes = notes.join("\n");
                e.record = Some(Arc::new(line));
                entries.push(e);
            }
            Err(e) => errors.push(FileError {
                file: file.to_string(),
                error: e.into(),
            }),
        }
    }
    if entries.is_empty() && errors.is_empty() {
        errors.push(super::file_error(
            file,
            1,
            1,
            "expected xiangqi game records (`[Event \"…\"]` tags, then moves like `1. h2e2 h9g7`), found no game",
        ));
    }
    (entries, errors)
}
