//! Experiment tables as typed rows. Each table an experiment writes is a
//! list of one `#[derive(Serialize)]` struct (one field per column, in
//! column order; integers, reals, `Option` for an empty cell, enums as
//! their words). A [`Table`] keeps the rows both ways: as the CSV text the
//! `csv` crate writes from them, and as typed [`Cell`]s, which the Python
//! module hands over without reading any text back.

pub mod cells;
pub mod text;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use cells::{cells_of, Cell, RowError};
pub use text::{or_none, or_unknown, Fixed, Real};

/// A side in a two-player game with black and white stones or discs (the
/// first to move is Black), as the tables write it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Moves first.
    #[default]
    Black,
    /// Moves second.
    White,
}

/// One table of an experiment, typed and as CSV text.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The file's name without `.csv` (`deep-pn-sweep`, `runs`, …).
    pub name: String,
    /// Where the file goes, relative to the output folder.
    pub file: PathBuf,
    /// The header: the row struct's field names.
    pub columns: Vec<String>,
    /// The rows as typed cells, each as long as `columns`.
    pub rows: Vec<Vec<Cell>>,
    /// The CSV text (header first).
    pub csv: String,
}

impl Table {
    /// The table of `rows` to be written as `file` (relative to the output
    /// folder). The header comes from the row struct's field names (of a
    /// default row, so an empty table has its header too).
    pub fn new<R: Serialize + Default>(
        file: impl Into<PathBuf>,
        rows: &[R],
    ) -> Result<Table, RowError> {
        let file = file.into();
        let columns: Vec<String> = cells_of(&R::default())?
            .into_iter()
            .map(|(c, _)| c.to_string())
            .collect();
        let csv_error = |e: csv::Error| RowError(e.to_string());
        let mut out = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        out.write_record(&columns).map_err(csv_error)?;
        let mut typed = Vec::with_capacity(rows.len());
        for r in rows {
            out.serialize(r).map_err(csv_error)?;
            typed.push(cells_of(r)?.into_iter().map(|(_, c)| c).collect());
        }
        let bytes = out
            .into_inner()
            .map_err(|e| RowError(e.error().to_string()))?;
        Ok(Table {
            name: stem(&file),
            file,
            columns,
            rows: typed,
            csv: String::from_utf8(bytes).map_err(|e| RowError(e.to_string()))?,
        })
    }
}

/// A file's name without its extension.
fn stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
pub(crate) mod tests;
