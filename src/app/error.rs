//! The app's errors, typed by where they came from (the search registry,
//! the driver, a file, a game record, the browser). Each one's text is the
//! line the message area shows; only the outermost shells (`configure`,
//! `run_app`) join them into plain strings for stderr and the exit status.

use crate::files::IoError;
use crate::game::notation::FileError;
use crate::game::MoveError;
use crate::search::SearchError;

use super::driver::DriverError;

/// Something the app could not do, and why.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AppError {
    /// An algorithm could not be built (unknown name, bad parameter, a
    /// position it cannot search).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The search thread did not take a command.
    #[error(transparent)]
    Driver(#[from] DriverError),
    /// A file could not be read or written.
    #[error(transparent)]
    Io(#[from] IoError),
    /// A position file is malformed (`FILE:LINE:COL: expected …`).
    #[error(transparent)]
    File(#[from] FileError),
    /// `--entry K` past the file's last position.
    #[error("{file}: --entry {entry}: the file holds {count} positions")]
    NoSuchEntry {
        /// The file.
        file: String,
        /// The entry asked for.
        entry: usize,
        /// How many it holds.
        count: usize,
    },
    /// A lesson that does not play (located in its file).
    #[error(transparent)]
    Lesson(Box<crate::lesson::LessonError>),
    /// A position file parsed but holds no position.
    #[error("{file}: the file holds no position")]
    NoPosition {
        /// The file's name or path.
        file: String,
    },
    /// In a page: a path that names no file compiled into the program.
    #[error(
        "{name}: no bundled file of that name (File › Positions… lists them; \
         open a file of your own with File › Open… or by dropping it on the page)"
    )]
    NotBundled {
        /// The path as given.
        name: String,
    },
    /// A move of an open game record does not play.
    #[error("{record}: {error}")]
    Record {
        /// The record's name.
        record: String,
        /// Why the move does not play.
        error: MoveError,
    },
    /// There is no run to export yet.
    #[error("nothing to export yet")]
    NothingToExport,
    /// An image could not be encoded as PNG.
    #[error("PNG: {0}")]
    Png(#[source] std::sync::Arc<png::EncodingError>),
    /// A certificate could not be saved.
    #[error("proof {}: {source}", path.display())]
    Proof {
        /// The file it was for.
        path: std::path::PathBuf,
        /// Why it was not written.
        source: Box<AppError>,
    },
    /// A headless screenshot came out as one flat colour.
    #[error("the screenshot is blank")]
    BlankScreenshot,
    /// A headless run did not finish in time.
    #[error("the headless run timed out")]
    Timeout,
    /// The browser refused something the page asked of it: its own
    /// words (a script error carries nothing but its text).
    #[error("{reason}")]
    Browser {
        /// The browser's reason.
        reason: String,
    },
    /// The page lacks a part every browser page has.
    #[error("the page has no {0}")]
    PageLacks(&'static str),
    /// The page could not make an element it needs.
    #[error("cannot make {0}")]
    CannotMake(&'static str),
    /// A file picked or dropped on the page could not be read.
    #[error("{name}: cannot read the file: {reason}")]
    Unreadable {
        /// The file's name.
        name: String,
        /// The browser's reason.
        reason: String,
    },
    /// A file picked or dropped on the page is not text.
    #[error("{0}: not a text file (UTF-8 expected)")]
    NotText(String),
}

/// Everything the launch options got wrong, each shown in the window as
/// its own message (the app opens anyway).
#[derive(Clone, Debug, Default)]
pub struct LaunchErrors(pub Vec<AppError>);

impl std::fmt::Display for LaunchErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LaunchErrors {}

/// Why a desktop run of the app ended badly, for the exit status: input
/// the user gave (a broken file, an unknown algorithm or parameter: exit
/// 2, as everywhere in pnlab) or the run itself (no window, a headless
/// run that failed: exit 1).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad input, already shown in the window as located messages.
    #[error("{0} (shown in the window)")]
    Input(LaunchErrors),
    /// No display variable is set: the window cannot open.
    #[error(
        "no display to open the app's window on (DISPLAY and WAYLAND_DISPLAY are not set); {}",
        super::display::HEADLESS_HINT
    )]
    NoDisplay,
    /// The window system refused the window.
    #[error("cannot open the window: {0}; if this machine has no display, {hint}", hint = super::display::HEADLESS_HINT)]
    Window(#[source] eframe::Error),
    /// A scripted run (screenshot, state) failed.
    #[error(transparent)]
    Headless(AppError),
    /// The window closed before a scripted run finished.
    #[error("the window closed before the headless run finished")]
    ClosedEarly,
}

#[cfg(not(target_arch = "wasm32"))]
impl RunError {
    /// The process exit status this error ends with.
    pub fn exit_code(&self) -> u8 {
        match self {
            RunError::Input(_) => 2,
            _ => 1,
        }
    }
}
