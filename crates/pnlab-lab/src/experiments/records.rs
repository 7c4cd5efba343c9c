//! An experiment's outputs as records: the rows of the CSV files it wrote
//! and its JSON summaries, read back from the files the run itself wrote.
//! The Python module's `pnlab.experiment` returns these, so its records
//! are, by construction, the CSV that `pnlab experiment` writes.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{run_experiment, Csv, ExperimentError, ExperimentInfo, ExperimentOptions};

/// One CSV cell, typed the way a data-frame reader types it: an empty cell
/// is missing, then an integer, a real (`inf`, `NaN` included), `true` or
/// `false`, and otherwise text.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// An empty cell.
    Missing,
    /// A cell that reads as a 64-bit integer.
    Int(i64),
    /// A cell that reads as a real number.
    Real(f64),
    /// `true` or `false`.
    Bool(bool),
    /// Anything else.
    Text(String),
}

impl Cell {
    /// The typed value of a cell's text.
    pub fn of(text: &str) -> Cell {
        if text.is_empty() {
            Cell::Missing
        } else if let Ok(i) = text.parse::<i64>() {
            Cell::Int(i)
        } else if let Some(r) = real(text) {
            Cell::Real(r)
        } else {
            match text {
                "true" => Cell::Bool(true),
                "false" => Cell::Bool(false),
                _ => Cell::Text(text.to_string()),
            }
        }
    }
}

/// A real number as the experiments write them (Rust's `Display`, which
/// spells the non-finite values `inf`, `-inf` and `NaN`). Words such as
/// `infinity` or `nan` in a text column stay text.
fn real(text: &str) -> Option<f64> {
    let numeric = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    if numeric || matches!(text, "inf" | "-inf" | "NaN") {
        text.parse().ok()
    } else {
        None
    }
}

/// One CSV file of an experiment, typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The file's name without `.csv` (`deep-pn-sweep`, `runs`, …).
    pub name: String,
    /// Where the file was written.
    pub path: PathBuf,
    /// The header.
    pub columns: Vec<String>,
    /// The rows, each as long as `columns`.
    pub rows: Vec<Vec<Cell>>,
}

/// Everything one run of an experiment wrote, read back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExperimentRecords {
    /// The CSV files in the order the experiment lists its outputs (the
    /// first one is its per-run table).
    pub tables: Vec<Table>,
    /// The JSON files by name (without `.json`), in the same order.
    pub summaries: Vec<(String, Value)>,
    /// Every file written.
    pub outputs: Vec<PathBuf>,
    /// The human summary the CLI prints.
    pub text: String,
}

/// Runs experiment `info` with `opts` exactly as `pnlab experiment` does
/// and reads its CSV and JSON outputs back.
pub fn run_for_records(
    info: &ExperimentInfo,
    opts: &ExperimentOptions,
) -> Result<ExperimentRecords, ExperimentError> {
    let report = run_experiment(info, opts)?;
    let mut out = ExperimentRecords {
        outputs: report.outputs.clone(),
        text: report.summary,
        ..Default::default()
    };
    for path in &report.outputs {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let name = stem(path);
        match ext {
            "csv" => {
                let text = read(path)?;
                let csv = Csv::parse(&text)
                    .map_err(|e| ExperimentError::Invalid(format!("{}:{e}", path.display())))?;
                out.tables.push(Table {
                    name,
                    path: path.clone(),
                    columns: csv.header,
                    rows: csv
                        .rows
                        .iter()
                        .map(|r| r.iter().map(|c| Cell::of(c)).collect())
                        .collect(),
                });
            }
            "json" => {
                let value = serde_json::from_str(&read(path)?)
                    .map_err(|e| ExperimentError::Invalid(format!("{}: {e}", path.display())))?;
                out.summaries.push((name, value));
            }
            _ => {}
        }
    }
    Ok(out)
}

fn read(path: &Path) -> Result<String, ExperimentError> {
    std::fs::read_to_string(path)
        .map_err(|e| ExperimentError::Invalid(format!("cannot read {}: {e}", path.display())))
}

fn stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.strip_suffix(".csv")
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(&name)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::find;

    #[test]
    fn csv_text_reads_back_to_the_same_table() {
        let mut csv = Csv::new(&["name", "note", "n"]);
        csv.push(vec!["a".into(), "plain".into(), "1".into()]);
        csv.push(vec!["b, c".into(), "say \"hi\"\nthen go".into(), "".into()]);
        assert_eq!(Csv::parse(&csv.to_text()), Ok(csv));
    }

    #[test]
    fn bad_csv_is_located() {
        assert_eq!(
            Csv::parse("a,b\n1,2,3\n").unwrap_err().to_string(),
            "2:1: expected 2 cells, found 3"
        );
        assert!(Csv::parse("a\n\"open\n")
            .unwrap_err()
            .to_string()
            .contains("not closed"));
    }

    #[test]
    fn cells_are_typed_as_a_data_frame_reader_types_them() {
        assert_eq!(Cell::of(""), Cell::Missing);
        assert_eq!(Cell::of("-12"), Cell::Int(-12));
        assert_eq!(Cell::of("0.25"), Cell::Real(0.25));
        assert_eq!(Cell::of("1e-9"), Cell::Real(1e-9));
        assert_eq!(Cell::of("inf"), Cell::Real(f64::INFINITY));
        assert_eq!(Cell::of("true"), Cell::Bool(true));
        assert_eq!(Cell::of("nan"), Cell::Text("nan".into()));
        assert_eq!(Cell::of("deep-pn"), Cell::Text("deep-pn".into()));
        assert_eq!(Cell::of("e"), Cell::Text("e".into()));
    }

    #[test]
    fn the_records_are_the_rows_of_the_written_csv() {
        let info = find("eps-sweep").unwrap();
        let opts = ExperimentOptions::for_test(
            "records",
            &[("positions", "2"), ("empties", "8"), ("eps", "0.25")],
        );
        let rec = run_for_records(info, &opts).unwrap();
        let table = &rec.tables[0];
        assert_eq!(table.name, "eps-sweep");
        let written = Csv::parse(&std::fs::read_to_string(&table.path).unwrap()).unwrap();
        assert_eq!(table.columns, written.header);
        assert_eq!(table.rows.len(), written.rows.len());
        assert!(!table.rows.is_empty());
        for (typed, text) in table.rows.iter().zip(&written.rows) {
            let back: Vec<Cell> = text.iter().map(|c| Cell::of(c)).collect();
            assert_eq!(typed, &back);
        }
        assert_eq!(rec.summaries[0].0, "eps-sweep");
        assert!(rec.summaries[0].1.get("settings").is_some());
        let _ = std::fs::remove_dir_all(&opts.out_dir);
    }

    #[test]
    fn a_cancelled_run_ends_with_an_error() {
        let info = find("eps-sweep").unwrap();
        let opts =
            ExperimentOptions::for_test("cancelled", &[("positions", "2"), ("empties", "8")]);
        opts.observer
            .cancel
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let e = run_for_records(info, &opts).unwrap_err();
        assert!(e.to_string().contains("cancelled"), "{e}");
        let _ = std::fs::remove_dir_all(&opts.out_dir);
    }
}
