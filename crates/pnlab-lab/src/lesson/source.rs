//! Where a lesson's position files are read from: the disk (a teacher's
//! own lessons and positions), the files compiled into the binary (the
//! bundled course, which must work from anywhere and in the browser), or
//! both. The lesson reader only asks for text by path.

use pnlab_core::positions::BUNDLED;

use super::bundled::LESSONS;

/// Why a file a lesson names cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// Not among the files compiled into the program.
    #[error("`{path}` is not among the bundled files")]
    NotBundled {
        /// The path asked for, as the bundled files are named.
        path: String,
    },
    /// Neither on the disk (the system's reason) nor bundled.
    #[error("cannot read `{path}`: {reason}")]
    Unreadable {
        /// The path asked for.
        path: String,
        /// The operating system's reason.
        reason: String,
    },
}

/// Reads the text of a file a lesson names (path already joined to the
/// lesson's folder, see [`pnlab_core::positions::reference`]).
pub trait Source {
    /// The file's text, or why it cannot be read.
    fn read(&self, path: &str) -> Result<String, SourceError>;
}

/// The embedded files: `positions/…` and `lessons/…` only.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bundled;

impl Source for Bundled {
    fn read(&self, path: &str) -> Result<String, SourceError> {
        let name = pnlab_core::positions::reference::bundled_name(path);
        BUNDLED
            .iter()
            .chain(LESSONS.iter())
            .find(|f| f.path == name)
            .map(|f| f.text.to_string())
            .ok_or(SourceError::NotBundled { path: name })
    }
}

/// The disk first (an edited file is what a teacher gets), then the
/// embedded files (so `lessons/x.lesson.toml` finds `positions/…` when
/// the program runs far from its sources).
#[derive(Clone, Copy, Debug, Default)]
pub struct DiskThenBundled;

impl Source for DiskThenBundled {
    fn read(&self, path: &str) -> Result<String, SourceError> {
        match pnlab_core::files::read_text(std::path::Path::new(path)) {
            Ok(text) => Ok(text),
            Err(e) => Bundled.read(path).map_err(|_| SourceError::Unreadable {
                path: path.to_string(),
                reason: e.source.to_string(),
            }),
        }
    }
}
