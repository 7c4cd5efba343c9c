//! What an experiment produced: its tables (typed rows), its JSON
//! summaries, any other file (a picture, a position file) and the text the
//! command line prints. The outputs are kept in memory; they become files
//! only when the run has an output folder ([`ExperimentReport::write`]).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::rows::Table;
use super::{write_atomic, write_json, ExperimentError};

/// One JSON summary of an experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The file's name without `.json`.
    pub name: String,
    /// Where the file goes, relative to the output folder.
    pub file: PathBuf,
    /// The summary.
    pub value: serde_json::Value,
}

/// What an experiment produced.
#[derive(Clone, Debug, Default)]
pub struct ExperimentReport {
    /// Its tables, the per-run table first.
    pub tables: Vec<Table>,
    /// Its JSON summaries, the main one first.
    pub summaries: Vec<Summary>,
    /// Other files (relative path, contents).
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// The files written (empty for a run without an output folder).
    pub outputs: Vec<PathBuf>,
    /// A short human summary (a table) printed by the CLI.
    pub summary: String,
}

impl ExperimentReport {
    /// A report with this human summary and no outputs yet.
    pub fn new(summary: String) -> ExperimentReport {
        ExperimentReport {
            summary,
            ..Default::default()
        }
    }

    /// Adds the table of `rows`, to be written as `file`.
    pub fn table<R: Serialize + Default>(
        mut self,
        file: impl Into<PathBuf>,
        rows: &[R],
    ) -> Result<ExperimentReport, ExperimentError> {
        self.tables.push(Table::new(file, rows)?);
        Ok(self)
    }

    /// Adds a JSON summary, to be written as `file`.
    pub fn json(mut self, file: impl Into<PathBuf>, value: serde_json::Value) -> ExperimentReport {
        let file = file.into();
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.summaries.push(Summary { name, file, value });
        self
    }

    /// Adds another file, to be written as `file`.
    pub fn file(mut self, file: impl Into<PathBuf>, contents: Vec<u8>) -> ExperimentReport {
        self.files.push((file.into(), contents));
        self
    }

    /// Writes every output under `dir` (tables, then summaries, then the
    /// other files, each atomically) and lists them in `outputs`.
    pub fn write(&mut self, dir: &Path) -> Result<(), ExperimentError> {
        for t in &self.tables {
            let path = dir.join(&t.file);
            write_atomic(&path, t.csv.as_bytes())?;
            self.outputs.push(path);
        }
        for s in &self.summaries {
            let path = dir.join(&s.file);
            write_json(&path, &s.value)?;
            self.outputs.push(path);
        }
        for (file, contents) in &self.files {
            let path = dir.join(file);
            write_atomic(&path, contents)?;
            self.outputs.push(path);
        }
        Ok(())
    }
}
