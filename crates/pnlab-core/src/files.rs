//! Writing result files, the lowest layer every writer shares: atomic
//! writes (a temporary file in the same folder, then a rename, so a reader
//! never sees half a file), JSON summaries, RFC 4180 CSV tables, and the
//! I/O error that names the path it failed on.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A failed read or write, naming the path and what was being done.
#[derive(Clone, Debug, thiserror::Error)]
#[error("cannot {action} `{}`: {source}", path.display())]
pub struct IoError {
    /// What was being done (`write`, `create the folder`, `read`).
    pub action: &'static str,
    /// The path.
    pub path: PathBuf,
    /// The operating system's reason (shared, so the error can be cloned).
    pub source: Arc<std::io::Error>,
}

impl IoError {
    /// The error of `action` on `path`.
    pub fn new(action: &'static str, path: &Path, source: std::io::Error) -> IoError {
        IoError {
            action,
            path: path.to_path_buf(),
            source: Arc::new(source),
        }
    }
}

/// The largest file the program reads (position files, trees, lessons,
/// certificates, experiment outputs): far above any real one (the
/// biggest bundled file is under a megabyte), far below what would
/// exhaust the machine.
pub const MAX_READ_BYTES: u64 = 64 << 20;

/// Reads a whole text file, refusing what is not a regular file (a
/// device such as `/dev/zero`, a pipe, a folder) and files over
/// [`MAX_READ_BYTES`].
pub fn read_text(path: &Path) -> Result<String, IoError> {
    let io = |e| IoError::new("read", path, e);
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a device, a pipe or a folder)",
        )));
    }
    read_capped(file, MAX_READ_BYTES).map_err(io)
}

/// Reads text from `reader` (a file, standard input), at most `cap`
/// bytes: more is an error, not a partial text.
pub fn read_capped(reader: impl std::io::Read, cap: u64) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("longer than {} MiB, the most a file may hold", cap >> 20),
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// Writes `contents` to `path` atomically (temp file in the same folder,
/// then rename), creating the folder.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), IoError> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| IoError::new("create", dir, e))?;
        }
    }
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("out")
    ));
    std::fs::write(&tmp, contents).map_err(|e| IoError::new("write", &tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| IoError::new("write", path, e))
}

/// Writes a JSON value atomically, pretty-printed.
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), IoError> {
    // Serialising a `Value` into memory cannot fail (its keys are strings).
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    write_atomic(path, text.as_bytes())
}

/// A CSV table: a header and rows of already formatted cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Csv {
    /// Column names, written as the first line.
    pub header: Vec<String>,
    /// Rows of formatted cells, one per line (each as long as `header`).
    pub rows: Vec<Vec<String>>,
}

impl Csv {
    /// An empty table with these column names.
    pub fn new(header: &[&str]) -> Csv {
        Csv {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (as many cells as the header has columns).
    pub fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.header.len());
        self.rows.push(row);
    }

    /// RFC 4180 text: a cell holding a comma, a quote or a line break is
    /// quoted, its quotes doubled.
    pub fn to_text(&self) -> String {
        fn cell(s: &str) -> String {
            if s.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        }
        let mut out = String::new();
        for line in std::iter::once(&self.header).chain(self.rows.iter()) {
            out.push_str(&line.iter().map(|c| cell(c)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        out
    }

    /// Writes the table atomically.
    pub fn write(&self, path: &Path) -> Result<(), IoError> {
        write_atomic(path, self.to_text().as_bytes())
    }
}

/// Where a CSV text stops making sense (`LINE:COL: expected …`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: expected {expected}")]
pub struct CsvError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What the reader expected there.
    pub expected: String,
}

impl Csv {
    /// Reads RFC 4180 text (what [`Csv::to_text`] writes): the first line is
    /// the header; quoted cells may hold commas, quotes (doubled) and line
    /// breaks. Errors give `LINE:COL: what was expected`.
    pub fn parse(text: &str) -> Result<Csv, CsvError> {
        let mut lines: Vec<Vec<String>> = Vec::new();
        let mut row: Vec<String> = Vec::new();
        let mut cell = String::new();
        let mut chars = text.chars().peekable();
        let (mut line, mut col) = (1usize, 0usize);
        let mut quoted = false;
        let mut at_cell_start = true;
        while let Some(c) = chars.next() {
            col += 1;
            if quoted {
                match c {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        col += 1;
                        cell.push('"');
                    }
                    '"' => {
                        quoted = false;
                        if !matches!(chars.peek(), None | Some(',' | '\n' | '\r')) {
                            return Err(CsvError {
                                line,
                                col: col + 1,
                                expected: "`,` or the end of the line after a closing quote".into(),
                            });
                        }
                    }
                    '\n' => {
                        cell.push(c);
                        line += 1;
                        col = 0;
                    }
                    _ => cell.push(c),
                }
                continue;
            }
            match c {
                '"' if at_cell_start => {
                    quoted = true;
                    at_cell_start = false;
                    continue;
                }
                ',' => {
                    row.push(std::mem::take(&mut cell));
                    at_cell_start = true;
                    continue;
                }
                '\r' if chars.peek() == Some(&'\n') => continue,
                '\n' => {
                    row.push(std::mem::take(&mut cell));
                    lines.push(std::mem::take(&mut row));
                    line += 1;
                    col = 0;
                    at_cell_start = true;
                    continue;
                }
                _ => cell.push(c),
            }
            at_cell_start = false;
        }
        if quoted {
            return Err(CsvError {
                line,
                col,
                expected: "a closing quote (the quoted cell is not closed)".into(),
            });
        }
        if !cell.is_empty() || !row.is_empty() {
            row.push(cell);
            lines.push(row);
        }
        let mut lines = lines.into_iter();
        let header = lines.next().ok_or(CsvError {
            line: 1,
            col: 1,
            expected: "a header line".into(),
        })?;
        let mut csv = Csv {
            header,
            rows: Vec::new(),
        };
        for (i, r) in lines.enumerate() {
            if r.len() != csv.header.len() {
                return Err(CsvError {
                    line: i + 2,
                    col: 1,
                    expected: format!("{} cells, found {}", csv.header.len(), r.len()),
                });
            }
            csv.rows.push(r);
        }
        Ok(csv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let mut t = Csv::new(&["a", "b"]);
        t.push(vec!["x,y".into(), "say \"hi\"".into()]);
        t.push(vec!["plain".into(), "two\nlines".into()]);
        assert_eq!(
            t.to_text(),
            "a,b\n\"x,y\",\"say \"\"hi\"\"\"\nplain,\"two\nlines\"\n"
        );
    }

    #[test]
    fn write_errors_name_the_path() {
        let dir = std::env::temp_dir().join(format!("pnlab-files-{}", std::process::id()));
        let blocker = dir.join("file");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&blocker, b"x").unwrap();
        // A folder cannot be created under a plain file.
        let e = write_atomic(&blocker.join("out.csv"), b"y").unwrap_err();
        assert!(e.to_string().contains("file"), "{e}");
        assert_eq!(e.action, "create");
        write_atomic(&dir.join("ok.txt"), b"z").unwrap();
        assert_eq!(read_text(&dir.join("ok.txt")).unwrap(), "z");
        // A folder and a device are refused, not read.
        let e = read_text(&dir).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        #[cfg(unix)]
        {
            let e = read_text(Path::new("/dev/zero")).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        let e = read_capped(&b"12345"[..], 4).unwrap_err();
        assert!(e.to_string().contains("longer than"), "{e}");
        assert_eq!(read_capped(&b"1234"[..], 4).unwrap(), "1234");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
