//! Reading the positions a solve request names: files (on disk, or the
//! embedded `positions/` folder), inline notation with a game, or `-` for
//! standard input (docs/cli.md `POSITION`).

use std::path::Path;

use pnlab_core::game::notation::FileError;
use pnlab_core::game::{AnyPosition, GameKind};
use pnlab_core::positions::{self, PositionEntry};
use pnlab_core::search::registry;

use super::{InputError, Location, SolveError};

/// Reads every position named in `inputs` (files, inline positions with
/// `game`, `-` for stdin). Errors are kept per input (and per game of a
/// game-record file) so the other positions are still searched.
pub fn read_inputs(
    inputs: &[String],
    game: Option<GameKind>,
) -> Vec<Result<Vec<PositionEntry>, SolveError>> {
    let mut out = Vec::new();
    for arg in inputs {
        let path = Path::new(arg);
        // A path that exists is read as a file (a device or a folder is
        // then refused with its reason, never read as notation).
        if arg != "-" && path.exists() {
            let (entries, errors) = positions::load_file_partial(path);
            push_checked(&mut out, entries);
            out.extend(errors.into_iter().map(|e| Err(file_error(e))));
            continue;
        }
        if let Some(file) = positions::bundled().iter().find(|f| f.path == arg) {
            // A path of the curated folder works from any directory.
            let (entries, errors) = positions::load_text_partial(file.path, file.text);
            push_checked(&mut out, entries);
            out.extend(errors.into_iter().map(|e| Err(file_error(e))));
            continue;
        }
        match read_argument(arg, game) {
            Ok(entries) => push_checked(&mut out, entries),
            Err(e) => out.push(Err(e)),
        }
    }
    out
}

/// Pushes the entries whose suggested algorithm and parameters the
/// registry accepts as one group, and a located error for each other one.
fn push_checked(
    out: &mut Vec<Result<Vec<PositionEntry>, SolveError>>,
    entries: Vec<PositionEntry>,
) {
    let mut good = Vec::with_capacity(entries.len());
    let mut bad = Vec::new();
    for e in entries {
        match registry::check_suggestion(&e) {
            Ok(()) => good.push(e),
            Err(err) => bad.push(Err(file_error(err))),
        }
    }
    out.push(Ok(good));
    out.extend(bad);
}

fn file_error(e: FileError) -> SolveError {
    SolveError::Input(InputError::File(e))
}

/// One input that is not a file: standard input or inline notation.
fn read_argument(arg: &str, game: Option<GameKind>) -> Result<Vec<PositionEntry>, SolveError> {
    if arg == "-" {
        let text = pnlab_core::files::read_capped(
            std::io::stdin().lock(),
            pnlab_core::files::MAX_READ_BYTES,
        )
        .map_err(|e| InputError::Stdin {
            at: Location::start_of("-"),
            reason: e.to_string(),
        })?;
        return match game {
            Some(g) => inline_lines(g, "-", &text),
            None => positions::load_text("-", &text).map_err(file_error),
        };
    }
    match game {
        Some(g) => inline_lines(g, "<inline>", arg),
        None => Err(InputError::NoSuchFile {
            at: Location::start_of(arg),
            games: GameKind::all_names(),
        }
        .into()),
    }
}

/// Inline notation (or stdin with a game): one position per non-empty
/// line, except trees whose whole text is one position.
fn inline_lines(
    kind: GameKind,
    source: &str,
    text: &str,
) -> Result<Vec<PositionEntry>, SolveError> {
    let chunks: Vec<(usize, &str)> = if kind == GameKind::Tree || text.trim().is_empty() {
        vec![(1, text)]
    } else {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l))
            .collect()
    };
    chunks
        .into_iter()
        .map(|(line, chunk)| {
            let position = AnyPosition::parse(kind, chunk).map_err(|e| {
                file_error(FileError {
                    file: source.to_string(),
                    error: e.offset(line, 1),
                })
            })?;
            let name = if source == "<inline>" {
                chunk.to_string()
            } else {
                format!("{source}:{line}")
            };
            Ok(PositionEntry::new(name, position, line))
        })
        .collect()
}
