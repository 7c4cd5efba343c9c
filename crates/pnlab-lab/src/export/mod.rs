//! Exports of a run, written the same way by the app (File › Export) and
//! the command line (`pnlab solve --export FILE`): the tree as Graphviz
//! DOT or SVG, the curves as CSV, the run as JSON. Each format is one
//! file here and takes plain engine data (a [`Snapshot`], the stats
//! samples, a [`RunRecord`]), so the two front ends cannot drift apart.
//!
//! Files are written atomically (temporary file, then rename), so an
//! interrupted export never leaves half a file under the chosen name.

pub mod board;
pub mod curves_csv;
pub mod dot;
pub mod drawing;
#[cfg(feature = "raster")]
pub mod raster;
pub mod run_json;
pub mod solve_record;
pub mod svg;

use std::path::Path;

pub use curves_csv::curves_csv;
pub use dot::to_dot;
pub use run_json::{RunFacts, RunRecord};
pub use svg::to_svg;

use pnlab_core::search::correct_moves::CorrectMoves;
use pnlab_core::search::{Snapshot, StatsSample};

/// A file format an export can be written in, chosen by the file's
/// extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The snapshot's tree as Graphviz DOT (`.dot`, `.gv`).
    Dot,
    /// The snapshot's tree as a standalone SVG picture (`.svg`).
    Svg,
    /// The curves, one row per stats sample (`.csv`).
    Csv,
    /// The run: setup, outcome, counters, root children (`.json`).
    Json,
}

/// An export the caller asked for that cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The file name's extension names no export format.
    #[error(
        "{path}: unknown export format; expected a file name ending in .svg, .dot, .csv or .json"
    )]
    UnknownFormat {
        /// The file name as given.
        path: String,
    },
    /// Writing the file failed.
    #[error(transparent)]
    Write(#[from] pnlab_core::files::IoError),
}

impl ExportFormat {
    /// Every format, in menu order.
    pub const ALL: [ExportFormat; 4] = [
        ExportFormat::Dot,
        ExportFormat::Svg,
        ExportFormat::Csv,
        ExportFormat::Json,
    ];

    /// The format a file name asks for, by its extension.
    pub fn from_path(path: &Path) -> Result<ExportFormat, ExportError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("dot") | Some("gv") => Ok(ExportFormat::Dot),
            Some("svg") => Ok(ExportFormat::Svg),
            Some("csv") => Ok(ExportFormat::Csv),
            Some("json") => Ok(ExportFormat::Json),
            _ => Err(ExportError::UnknownFormat {
                path: path.display().to_string(),
            }),
        }
    }

    /// The usual file extension.
    pub fn ext(self) -> &'static str {
        match self {
            ExportFormat::Dot => "dot",
            ExportFormat::Svg => "svg",
            ExportFormat::Csv => "csv",
            ExportFormat::Json => "json",
        }
    }
}

/// Everything an export may draw on. The tree formats need `snapshot`,
/// the curves `samples` (and `correct` for the error columns), the JSON
/// `record` (plus the snapshot's root children and switch events).
pub struct ExportInput<'a> {
    /// The run's tree, as far as it was asked for.
    pub snapshot: &'a Snapshot,
    /// Stats samples in iteration order.
    pub samples: &'a [StatsSample],
    /// The position's correct root moves, when known.
    pub correct: Option<&'a CorrectMoves>,
    /// Setup, outcome and counters of the run.
    pub record: &'a RunRecord<'a>,
}

/// The file contents of one export.
pub fn render(format: ExportFormat, input: &ExportInput<'_>) -> String {
    match format {
        ExportFormat::Dot => to_dot(input.snapshot),
        ExportFormat::Svg => to_svg(input.snapshot),
        ExportFormat::Csv => curves_csv(input.samples, &input.snapshot.value_names, input.correct),
        ExportFormat::Json => run_json::pretty(input.record, Some(input.snapshot)),
    }
}

/// Writes `contents` to `path` atomically.
pub fn write(path: &Path, contents: &[u8]) -> Result<(), ExportError> {
    Ok(pnlab_core::files::write_atomic(path, contents)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_chooses_the_format() {
        let f = |p: &str| ExportFormat::from_path(Path::new(p)).map_err(|e| e.to_string());
        assert_eq!(f("out/tree.svg"), Ok(ExportFormat::Svg));
        assert_eq!(f("tree.DOT"), Ok(ExportFormat::Dot));
        assert_eq!(f("curves.csv"), Ok(ExportFormat::Csv));
        assert_eq!(f("run.json"), Ok(ExportFormat::Json));
        let e = f("tree.png").unwrap_err();
        assert!(e.to_string().starts_with("tree.png: unknown export format"));
        assert!(f("tree").is_err());
    }
}
