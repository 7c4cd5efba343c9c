//! Position files: the project's TOML format and the native files (OBF,
//! Pons test files, Hex and tic-tac-toe lines, tree files), and the curated
//! `positions/` folder embedded in the binary.
//!
//! (Interface fixed here; the full readers are written on the `files`
//! branch.)

use std::path::Path;

use crate::game::notation::FileError;
use crate::game::{AnyPosition, GameKind, ParseError};

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
    pub name: String,
    pub game: GameKind,
    pub position: AnyPosition,
    pub notes: String,
    pub expected: Option<Expected>,
    /// Suggested algorithm and parameters.
    pub algo: Option<String>,
    pub params: Vec<(String, String)>,
    /// 1-based line of the entry in its file.
    pub line: usize,
}

/// A file of the curated `positions/` folder, embedded in the binary.
#[derive(Clone, Copy, Debug)]
pub struct BundledFile {
    pub path: &'static str,
    pub text: &'static str,
}

/// Reads every position of a file (format from the extension or content).
pub fn load_file(path: &Path) -> Result<Vec<PositionEntry>, FileError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| FileError {
        file: name.clone(),
        error: ParseError::new(1, 1, format!("cannot read the file: {e}")),
    })?;
    load_text(&name, &text)
}

/// Reads every position of a text whose file name is `file_name`.
pub fn load_text(file_name: &str, text: &str) -> Result<Vec<PositionEntry>, FileError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let position = AnyPosition::parse(GameKind::TicTacToe, t).map_err(|e| FileError {
            file: file_name.to_string(),
            error: e.offset(i + 1, 1),
        })?;
        out.push(PositionEntry {
            name: format!("{file_name}:{}", i + 1),
            game: GameKind::TicTacToe,
            position,
            notes: String::new(),
            expected: None,
            algo: None,
            params: Vec::new(),
            line: i + 1,
        });
    }
    Ok(out)
}

/// The embedded `positions/` folder.
pub fn bundled() -> &'static [BundledFile] {
    &[]
}

/// The position the app opens on.
pub fn default_position() -> PositionEntry {
    PositionEntry {
        name: "empty tic-tac-toe board".into(),
        game: GameKind::TicTacToe,
        position: AnyPosition::TicTacToe(crate::game::tictactoe::TicTacToe::new()),
        notes: String::new(),
        expected: None,
        algo: Some("pns".into()),
        params: Vec::new(),
        line: 1,
    }
}
