//! Files: opening position files (native dialog, drag-and-drop, the
//! bundled `positions/` browser) and saving exports; in a page the
//! browser's file picker, dropped files and downloads stand in for the
//! disk and its dialogs (`web`). The export formats
//! themselves are the engine's (`crate::export`, shared with `pnlab solve
//! --export`); the app adds the window as PNG. Everything is written
//! atomically. A bad file gives one message naming the file, line, column
//! and what was expected; the session is untouched.

use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use crate::export::ExportFormat;
use crate::positions::{self, PositionEntry};

use super::error::AppError;

/// An export the user asked for from the File menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// One of the engine's formats (tree, curves, run).
    File(ExportFormat),
    /// The window as a PNG screenshot.
    Png,
    /// The proof (or disproof) certificate of a solved run: made by the
    /// run machine, which holds the search, and written here
    /// ([`save_certificate`]; `pnlab verify FILE` checks it).
    Proof,
}

impl Export {
    /// The menu's entries, in order.
    pub const MENU: [(&'static str, Export); 6] = [
        ("Tree as DOT…", Export::File(ExportFormat::Dot)),
        ("Tree as SVG…", Export::File(ExportFormat::Svg)),
        ("Window as PNG…", Export::Png),
        ("Curves as CSV…", Export::File(ExportFormat::Csv)),
        ("Run as JSON…", Export::File(ExportFormat::Json)),
        ("Proof certificate…", Export::Proof),
    ];

    /// The file extension.
    pub fn ext(self) -> &'static str {
        match self {
            Export::File(f) => f.ext(),
            Export::Png => "png",
            Export::Proof => "proof",
        }
    }
}

/// Reads every position of a file; the error is the user-facing
/// `FILE:LINE:COL: expected …` line.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_path(path: &Path) -> Result<Vec<PositionEntry>, AppError> {
    checked(&path.display().to_string(), positions::load_file(path)?)
}

/// Reads every position of a bundled file (`positions/…`): in a page
/// there is no disk, so a path names a file compiled into the program.
#[cfg(target_arch = "wasm32")]
pub fn load_path(path: &Path) -> Result<Vec<PositionEntry>, AppError> {
    let name = path.display().to_string();
    let Some(file) = positions::bundled().iter().find(|f| f.path == name) else {
        return Err(AppError::NotBundled { name });
    };
    load_text(&name, file.text)
}

/// Reads every position of a text named `name` (a file the user gave the
/// page: picked or dropped).
pub fn load_text(name: &str, text: &str) -> Result<Vec<PositionEntry>, AppError> {
    checked(name, positions::load_text(name, text)?)
}

/// What every reader checks of the positions read from `file`, wherever
/// they came from (disk, the bundled folder, the browser): the algorithm
/// and parameters each suggests exist, and there is at least one.
fn checked(file: &str, entries: Vec<PositionEntry>) -> Result<Vec<PositionEntry>, AppError> {
    for e in &entries {
        crate::search::registry::check_suggestion(e)?;
    }
    if entries.is_empty() {
        return Err(AppError::NoPosition {
            file: file.to_string(),
        });
    }
    Ok(entries)
}

/// The native "open" dialog (rfd, xdg portal).
#[cfg(not(target_arch = "wasm32"))]
pub fn pick_open() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title("Open a position file")
        .pick_file()
}

/// The native "save" dialog for an export.
#[cfg(not(target_arch = "wasm32"))]
pub fn pick_save(default_name: &str, ext: &str) -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title("Export")
        .set_file_name(default_name)
        .add_filter(ext, &[ext])
        .save_file()
}

/// Writes `bytes` atomically.
#[cfg(not(target_arch = "wasm32"))]
pub fn save(path: &Path, bytes: &[u8]) -> Result<(), AppError> {
    Ok(crate::files::write_atomic(path, bytes)?)
}

/// In a page: hands `bytes` to the browser as a download named after
/// `path`'s file name (the browser asks where to keep it).
#[cfg(target_arch = "wasm32")]
pub fn save(path: &Path, bytes: &[u8]) -> Result<(), AppError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "pnlab-export".into());
    super::web::download(&name, bytes)
}

/// What a written certificate holds: the size a teacher quotes ("the
/// proof has 1,234 positions") and where it went.
#[derive(Clone, Debug, PartialEq)]
pub struct ProofSaved {
    /// The file written.
    pub path: PathBuf,
    /// Distinct positions in the certificate.
    pub positions: usize,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Proved (true) or disproved (false).
    pub proved: bool,
}

/// Saves the certificate the run machine made (atomically on the
/// desktop, a download in a page); the error is the status line's
/// message naming the file.
pub fn save_certificate(c: crate::run::CertificateReady) -> Result<ProofSaved, AppError> {
    match save(&c.path, c.text.as_bytes()) {
        Ok(()) => Ok(ProofSaved {
            bytes: c.text.len() as u64,
            path: c.path,
            positions: c.positions,
            proved: c.proved,
        }),
        Err(e) => Err(AppError::Proof {
            path: c.path,
            source: Box::new(e),
        }),
    }
}

/// Encodes an RGBA image as PNG bytes.
pub fn png_bytes(image: &egui::ColorImage) -> Result<Vec<u8>, AppError> {
    let [w, h] = image.size;
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| AppError::Png(Arc::new(e)))?;
        let data: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
        writer
            .write_image_data(&data)
            .map_err(|e| AppError::Png(Arc::new(e)))?;
        writer.finish().map_err(|e| AppError::Png(Arc::new(e)))?;
    }
    Ok(bytes)
}

/// True when an image is not a single flat colour (the headless check).
pub fn is_blank(image: &egui::ColorImage) -> bool {
    match image.pixels.first() {
        Some(first) => image.pixels.iter().all(|p| p == first),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip_has_the_png_signature_and_size() {
        let img = egui::ColorImage::new([3, 2], vec![egui::Color32::RED; 6]);
        let bytes = png_bytes(&img).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: width and height big-endian at offsets 16 and 20.
        assert_eq!(&bytes[16..20], &3u32.to_be_bytes());
        assert_eq!(&bytes[20..24], &2u32.to_be_bytes());
        assert!(is_blank(&img));
    }
}
