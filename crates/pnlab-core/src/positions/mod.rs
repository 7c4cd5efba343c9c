//! Position files (docs/architecture.md "Position files"): the project's TOML format,
//! the native files (Edax OBF, Pascal Pons's test files, Hex and
//! tic-tac-toe lines, tree files, xiangqi FEN lines and game records), and
//! the curated `positions/` folder, embedded in the binary so the app
//! works from anywhere.
//!
//! The formats are documented for users in `positions/README.md`. Every
//! reader reports errors as a [`FileError`] (file, line, column, what was
//! expected) and never panics on bad input; a game's own notation errors
//! are shifted to where the notation stands in the file.
//!
//! The format is chosen by the file's extension (`.toml`, `.obf`, `.c4`,
//! `.hex`, `.ttt`, `.tree`, `.fen`, `.pgn`) and otherwise by its content
//! (Pons's files have no extension): see [`Format::sniff`].
//!
//! A game-record file holds many games, each read on its own: a broken
//! game is an error of its own while the others load ([`load_text_partial`]).

mod bundled;
mod lines;
mod records;
pub mod reference;
#[doc(hidden)]
pub mod toml_format;

use std::path::Path;
use std::sync::Arc;

use crate::files::IoError;
use crate::game::notation::FileError;
use crate::game::{AnyPosition, GameKind, ParseError};

pub use bundled::BUNDLED;
pub use toml_format::MAX_WITHIN;

/// A known result that ships with a position (from the file), from the
/// side to move's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expected {
    /// `win`, `draw` or `loss` for the side to move (or the tree's OR player).
    pub result: Option<String>,
    /// Exact score (Othello disc difference, Pons score, P-game value).
    pub value: Option<i32>,
    /// Moves known to be best.
    pub best_moves: Vec<String>,
}

/// One position read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEntry {
    /// Name shown in menus and reports (unique within its file).
    pub name: String,
    /// The game the position belongs to.
    pub game: GameKind,
    /// The parsed position.
    pub position: AnyPosition,
    /// Free text for the reader (where the position comes from, what it shows).
    pub notes: String,
    /// The known answer, when the file states one (checked by tests and benches).
    pub expected: Option<Expected>,
    /// Suggested algorithm and parameters.
    pub algo: Option<String>,
    /// Suggested `--set` parameters for `algo`, in file order.
    pub params: Vec<(String, String)>,
    /// Where the suggestion stands in its file, for a located error. The
    /// positions layer sits below the searches, so it reads `algo` and
    /// `params` as text; the registry checks them
    /// (`search::registry::check_suggestion`) when a file is read for
    /// solving or opened in the app.
    pub suggestion_at: Option<SuggestionAt>,
    /// 1-based line of the entry in its file.
    pub line: usize,
    /// The game the position was taken from, when the file is a game
    /// record (the position is then the one after its last move).
    pub record: Option<Arc<GameLine>>,
}

impl PositionEntry {
    /// An entry with no notes, expectation or suggested algorithm: what a
    /// bare notation line gives. Readers fill in the rest their format has.
    pub fn new(name: impl Into<String>, position: AnyPosition, line: usize) -> PositionEntry {
        PositionEntry {
            name: name.into(),
            game: position.kind(),
            position,
            notes: String::new(),
            expected: None,
            algo: None,
            params: Vec::new(),
            suggestion_at: None,
            line,
            record: None,
        }
    }
}

/// Where an entry's suggested `algo` and `params` stand in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuggestionAt {
    /// The file.
    pub file: String,
    /// (line, column) of the `algo` value, when the entry names one.
    pub algo: Option<(usize, usize)>,
    /// (line, column) of the `params` table, when the entry has one.
    pub params: Option<(usize, usize)>,
}

impl SuggestionAt {
    /// A located error at `at` in this file.
    pub fn error(&self, at: (usize, usize), expected: impl Into<String>) -> FileError {
        file_error(&self.file, at.0, at.1, expected)
    }
}

/// A recorded game: its start position and moves in notation, so that a
/// viewer can list the moves and make the position after any ply the root.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    /// `Red – Black, Event` or whatever the tags give.
    pub title: String,
    /// The record's tags in file order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: AnyPosition,
    /// The moves, in the game's notation, all legal.
    pub moves: Vec<String>,
}

impl GameLine {
    /// The position after the first `ply` moves (carrying the path from
    /// the start, for a repetition rule).
    pub fn position_after(&self, ply: usize) -> Result<AnyPosition, crate::game::MoveError> {
        let mut p = self.start.clone();
        for m in self.moves.iter().take(ply) {
            p = p.after_move(m)?;
        }
        Ok(p)
    }
}

/// A file of the curated `positions/` folder, embedded in the binary.
#[derive(Clone, Copy, Debug)]
pub struct BundledFile {
    /// Path from the repository root (`positions/…`), as a user would give it.
    pub path: &'static str,
    /// The file's contents, embedded at build time.
    pub text: &'static str,
}

/// The file formats this module reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The project's TOML (`[[position]]` tables).
    Toml,
    /// Edax OBF lines with `MOVE:score` annotations.
    Obf,
    /// Pascal Pons's test files: `moves score` per line.
    Pons,
    /// Hex lines: `SIZE: cells` per line.
    HexLines,
    /// Tic-tac-toe lines: 9 cells per line.
    TicTacToeLines,
    /// One hand-written tree.
    Tree,
    /// Xiangqi FEN lines (`FEN[; name]`).
    Fen,
    /// Xiangqi game records (PGN-like, UCCI moves).
    Records,
}

/// What the error says was tried when no format fits.
const TRIED: &str = "TOML (`[[position]]` tables), OBF (64 squares and the side to move), Pons (`moves score`), Hex lines (`SIZE: cells`), tic-tac-toe lines (9 cells), a tree (`LABEL or` …), xiangqi FEN lines and xiangqi game records (`[Event \"…\"]`, `1. h2e2 h9g7` …)";

impl Format {
    /// The format a file extension names, if any.
    pub fn from_extension(file_name: &str) -> Option<Format> {
        let ext = Path::new(file_name)
            .extension()?
            .to_str()?
            .to_ascii_lowercase();
        Some(match ext.as_str() {
            "toml" => Format::Toml,
            "obf" => Format::Obf,
            "c4" | "pons" => Format::Pons,
            "hex" => Format::HexLines,
            "ttt" => Format::TicTacToeLines,
            "tree" => Format::Tree,
            "fen" => Format::Fen,
            "pgn" => Format::Records,
            _ => return None,
        })
    }

    /// Guesses the format from the content: the first line that is not
    /// blank or a comment decides.
    pub fn sniff(text: &str) -> Option<Format> {
        if text.lines().any(|l| l.trim() == "[[position]]") {
            return Some(Format::Toml);
        }
        let first = text.lines().map(str::trim).find(|l| {
            !l.is_empty() && !l.starts_with('#') && !l.starts_with(';') && !l.starts_with('%')
        })?;
        if records::looks_like_tag(first) {
            return Some(Format::Records);
        }
        if lines::looks_like_xiangqi_fen(first) {
            return Some(Format::Fen);
        }
        let first = first.split('#').next().unwrap_or("").trim();
        let toks: Vec<&str> = first
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let all = |s: &str, f: fn(char) -> bool| !s.is_empty() && s.chars().all(f);
        if toks.len() == 2
            && toks[0].chars().count() == 64
            && all(toks[0], |c| matches!(c, 'X' | 'O' | 'x' | 'o' | '-'))
            && matches!(toks[1], "X" | "O" | "x" | "o")
        {
            return Some(Format::Obf);
        }
        if (toks.len() == 1 || toks.len() == 2)
            && all(toks[0], |c| c.is_ascii_digit())
            && toks.get(1).is_none_or(|s| s.parse::<i32>().is_ok())
            && !first.contains(':')
        {
            return Some(Format::Pons);
        }
        if let Some((size, _)) = first.split_once(':') {
            if all(size.trim(), |c| c.is_ascii_digit()) {
                return Some(Format::HexLines);
            }
        }
        let cells: String = first.chars().filter(|c| !matches!(c, ' ' | '/')).collect();
        if cells.chars().count() == 9
            && all(&cells, |c| matches!(c, 'x' | 'o' | 'X' | 'O' | '.' | '-'))
        {
            return Some(Format::TicTacToeLines);
        }
        if crate::game::tree::Tree::parse(text).is_ok() || first.starts_with("tree \"") {
            return Some(Format::Tree);
        }
        let words: Vec<&str> = first.split_whitespace().collect();
        if words.len() >= 2 && matches!(words[1], "or" | "and" | "=") {
            return Some(Format::Tree);
        }
        None
    }
}

/// Reads the text of another file named inside a file (TOML `file = …`).
pub(crate) trait Resolver {
    fn read(&self, path: &str) -> Result<String, IoError>;
}

/// The disk first (so an edited tree is what a TOML file on disk gets),
/// then the embedded files (so the bundled TOML files find their trees
/// when the program runs from anywhere).
struct DiskThenBundled;

impl Resolver for DiskThenBundled {
    fn read(&self, path: &str) -> Result<String, IoError> {
        match crate::files::read_text(Path::new(path)) {
            Ok(text) => Ok(text),
            Err(e) => {
                let name = reference::bundled_name(path);
                match BUNDLED.iter().find(|f| f.path == name) {
                    Some(f) => Ok(f.text.to_string()),
                    None => Err(e),
                }
            }
        }
    }
}

/// `rel` as named inside the position file `file_name`: joined to the
/// file's folder (see [`reference`]), or why it is refused.
pub(crate) fn relative_to(file_name: &str, rel: &str) -> Result<String, reference::RefusedPath> {
    reference::resolve(file_name, rel, reference::Reach::OwnFolder)
}

/// The file name without directories and extension (for entry names).
pub(crate) fn stem(file_name: &str) -> String {
    Path::new(file_name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| file_name.to_string())
}

/// Reads every position of a file (format from the extension or content).
pub fn load_file(path: &Path) -> Result<Vec<PositionEntry>, FileError> {
    let name = path.display().to_string();
    let text = crate::files::read_text(path).map_err(|e| FileError {
        file: name.clone(),
        error: ParseError::new(1, 1, format!("cannot read the file: {}", e.source)),
    })?;
    load_text(&name, &text)
}

/// Reads every position of a text whose file name is `file_name`.
pub fn load_text(file_name: &str, text: &str) -> Result<Vec<PositionEntry>, FileError> {
    let (entries, errors) = load_text_partial(file_name, text);
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(entries),
    }
}

/// Reads what can be read of a file: the positions, and the errors of the
/// parts that do not read. Only a game-record file has parts (its games);
/// any other file reads whole or gives one error and no positions.
pub fn load_text_partial(file_name: &str, text: &str) -> (Vec<PositionEntry>, Vec<FileError>) {
    let text = strip_bom(text);
    let format = Format::from_extension(file_name).or_else(|| Format::sniff(text));
    if format == Some(Format::Records) {
        return records::read(file_name, text);
    }
    match load_with(file_name, text, &DiskThenBundled) {
        Ok(entries) => (entries, Vec::new()),
        Err(e) => (Vec::new(), vec![e]),
    }
}

/// [`load_text_partial`] for a file on disk.
pub fn load_file_partial(path: &Path) -> (Vec<PositionEntry>, Vec<FileError>) {
    let name = path.display().to_string();
    match crate::files::read_text(path) {
        Ok(text) => load_text_partial(&name, &text),
        Err(e) => (
            Vec::new(),
            vec![FileError {
                file: name,
                error: ParseError::new(1, 1, format!("cannot read the file: {}", e.source)),
            }],
        ),
    }
}

/// Some editors start UTF-8 files with a byte-order mark.
fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn load_with(
    file_name: &str,
    text: &str,
    resolver: &dyn Resolver,
) -> Result<Vec<PositionEntry>, FileError> {
    let format = match Format::from_extension(file_name).or_else(|| Format::sniff(text)) {
        Some(f) => f,
        None => {
            let line = text
                .lines()
                .position(|l| !l.trim().is_empty())
                .map(|i| i + 1)
                .unwrap_or(1);
            let what = if text.trim().is_empty() {
                "the file is empty"
            } else {
                "unknown file format"
            };
            return Err(FileError {
                file: file_name.to_string(),
                error: ParseError::new(line, 1, format!("{what}: tried {TRIED}")),
            });
        }
    };
    read_format(format, file_name, text, resolver)
}

fn read_format(
    format: Format,
    file_name: &str,
    text: &str,
    resolver: &dyn Resolver,
) -> Result<Vec<PositionEntry>, FileError> {
    match format {
        Format::Toml => toml_format::read(file_name, text, resolver),
        Format::Obf => lines::read_obf(file_name, text),
        Format::Pons => lines::read_pons(file_name, text),
        Format::HexLines => lines::read_simple(file_name, text, GameKind::Hex),
        Format::TicTacToeLines => lines::read_simple(file_name, text, GameKind::TicTacToe),
        Format::Tree => lines::read_tree(file_name, text),
        Format::Fen => lines::read_fen(file_name, text),
        Format::Records => {
            let (entries, errors) = records::read(file_name, text);
            match errors.into_iter().next() {
                Some(e) => Err(e),
                None => Ok(entries),
            }
        }
    }
}

/// The embedded `positions/` folder (its README.md included, which holds
/// documentation rather than positions: [`bundled_entries`] skips it).
pub fn bundled() -> &'static [BundledFile] {
    BUNDLED
}

/// Every position of every embedded file, with the file it came from.
/// Files that do not load (a game not available in this build) are
/// returned as errors, not skipped.
pub fn bundled_entries() -> Vec<(&'static str, Result<Vec<PositionEntry>, FileError>)> {
    BUNDLED
        .iter()
        .filter(|f| !f.path.ends_with(".md"))
        .map(|f| (f.path, load_text(f.path, f.text)))
        .collect()
}

/// The path of the default teaching tree inside [`BUNDLED`].
pub const DEFAULT_TREE: &str = "positions/trees/seesaw.tree";

/// The position the app opens on: the seesaw teaching tree (issue #2).
pub fn default_position() -> PositionEntry {
    let loaded = BUNDLED
        .iter()
        .find(|f| f.path == DEFAULT_TREE)
        .and_then(|f| load_text(f.path, f.text).ok())
        .and_then(|v| v.into_iter().next());
    match loaded {
        Some(mut e) => {
            e.algo = Some("pns".into());
            e
        }
        // Only reachable if the embedded file were broken (a test checks
        // it is not): fall back to a position that always exists.
        None => PositionEntry {
            algo: Some("pns".into()),
            ..PositionEntry::new(
                "empty tic-tac-toe board",
                AnyPosition::TicTacToe(crate::game::tictactoe::TicTacToe::new()),
                1,
            )
        },
    }
}

/// `win`/`draw`/`loss` from a score's sign.
pub(crate) fn result_of(score: i32) -> String {
    match score.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
    .to_string()
}

/// A [`FileError`] for `file` at (line, col).
pub(crate) fn file_error(file: &str, line: usize, col: usize, msg: impl Into<String>) -> FileError {
    FileError {
        file: file.to_string(),
        error: ParseError::new(line, col, msg),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the embedded files, as when the program runs far from its
    /// sources.
    struct BundledOnly;
    impl Resolver for BundledOnly {
        fn read(&self, path: &str) -> Result<String, IoError> {
            BUNDLED
                .iter()
                .find(|f| f.path == path)
                .map(|f| f.text.to_string())
                .ok_or_else(|| {
                    let e = std::io::Error::new(std::io::ErrorKind::NotFound, "not embedded");
                    IoError::new("read", Path::new(path), e)
                })
        }
    }

    #[test]
    fn bundled_toml_files_find_their_trees_among_the_embedded_files() {
        let f = BUNDLED
            .iter()
            .find(|f| f.path == "positions/trees.toml")
            .expect("trees.toml is bundled");
        let entries = load_with(f.path, f.text, &BundledOnly).expect("loads without the disk");
        // One entry per `[[position]]` table of the file.
        assert_eq!(entries.len(), f.text.matches("\n[[position]]").count());
        assert!(entries.len() >= 8);
        assert!(entries.iter().all(|e| e.game == GameKind::Tree));
    }
}
