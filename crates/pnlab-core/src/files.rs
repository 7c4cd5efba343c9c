//! Writing result files, the lowest layer every writer shares: atomic
//! writes (a temporary file in the same folder, then a rename, so a reader
//! never sees half a file), JSON summaries, and the I/O error that names
//! the path it failed on.

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

#[cfg(test)]
mod tests {
    use super::*;

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
