//! The in-app file chooser, used when the native dialog is unavailable
//! (no xdg desktop portal on a bare X session, a container, Xvfb): a path
//! field with completion and a directory list. It says why it appeared.
//! The listing and completion logic is plain and unit-tested; `ui` only
//! draws it. Also the recent-files list kept in the settings.

use crate::clock::{Duration, Instant};
use std::path::{Path, PathBuf};

/// Recent files kept at most.
pub const MAX_RECENT: usize = 8;

/// Puts `path` first in `recent`, without duplicates, at most
/// [`MAX_RECENT`] entries.
pub fn remember(recent: &mut Vec<String>, path: &str) {
    recent.retain(|p| p != path);
    recent.insert(0, path.to_string());
    recent.truncate(MAX_RECENT);
}

/// Why the native dialog cannot work here, when that can be told
/// beforehand: on Linux the dialog goes through the xdg desktop portal on
/// the session bus.
pub fn native_unavailable() -> Option<String> {
    if cfg!(target_os = "linux") && std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
        return Some(
            "the native file dialog needs an xdg desktop portal, and this session has no D-Bus \
             session bus"
                .into(),
        );
    }
    None
}

/// A native dialog that returned nothing faster than a person can cancel
/// one did not open at all.
pub fn returned_too_fast(started: Instant) -> bool {
    started.elapsed() < Duration::from_millis(150)
}

/// The entries of a directory: sub-directories then files, each sorted by
/// name; hidden entries (starting with `.`) left out.
pub fn list_dir(dir: &Path) -> std::io::Result<(Vec<String>, Vec<String>)> {
    let mut dirs = Vec::new();
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') {
            continue;
        }
        if e.path().is_dir() {
            dirs.push(name);
        } else {
            files.push(name);
        }
    }
    dirs.sort();
    files.sort();
    Ok((dirs, files))
}

/// Completions of a typed path: the entries of its directory whose names
/// start with what follows the last `/` (directories end with `/`).
pub fn complete(typed: &str) -> Vec<String> {
    let (dir, prefix) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let base = if dir.is_empty() {
        Path::new(".")
    } else {
        Path::new(dir)
    };
    let Ok((dirs, files)) = list_dir(base) else {
        return Vec::new();
    };
    dirs.into_iter()
        .map(|d| format!("{dir}{d}/"))
        .chain(files.into_iter().map(|f| format!("{dir}{f}")))
        .filter(|p| p[dir.len()..].starts_with(prefix))
        .collect()
}

/// What the chooser is for.
#[derive(Clone, Debug, PartialEq)]
pub enum ChooserPurpose {
    /// Open a position file.
    Open,
    /// Save an export (the app's `Export`) to a file.
    Save(super::files::Export),
    /// Save this text (the tree text window's) to a file.
    SaveText(String),
}

/// The chooser's state.
#[derive(Clone, Debug)]
pub struct FileChooser {
    /// What a chosen path is for.
    pub purpose: ChooserPurpose,
    /// The directory listed.
    pub dir: PathBuf,
    /// The path field.
    pub typed: String,
    /// Why the chooser is shown instead of the native dialog.
    pub reason: String,
}

impl FileChooser {
    /// A chooser in the current directory.
    pub fn new(purpose: ChooserPurpose, reason: String, default_name: &str) -> FileChooser {
        let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        FileChooser {
            purpose,
            typed: default_name.to_string(),
            dir,
            reason,
        }
    }

    /// Draws the chooser window. Returns `Some(Some(path))` when a path
    /// was chosen, `Some(None)` when cancelled, `None` while open.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<Option<PathBuf>> {
        let mut result = None;
        let title = match self.purpose {
            ChooserPurpose::Open => "Open a position file",
            ChooserPurpose::Save(_) | ChooserPurpose::SaveText(_) => "Save as",
        };
        egui::Window::new(title).collapsible(false).show(ctx, |ui| {
            ui.weak(&self.reason);
            ui.horizontal(|ui| {
                let l = ui.label("Path");
                let r = ui
                    .add(egui::TextEdit::singleline(&mut self.typed).desired_width(360.0))
                    .labelled_by(l.id);
                if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    result = Some(Some(self.resolve()));
                }
            });
            let completions = if self.typed.is_empty() {
                Vec::new()
            } else {
                complete(&self.typed)
            };
            if !completions.is_empty() && completions.len() <= 12 {
                ui.horizontal_wrapped(|ui| {
                    for c in completions {
                        if ui.small_button(&c).clicked() {
                            self.typed = c;
                        }
                    }
                });
            }
            ui.separator();
            ui.label(format!("{}", self.dir.display()));
            egui::ScrollArea::vertical()
                .max_height(280.0)
                .show(ui, |ui| {
                    if ui.button("⬆ ..").clicked() {
                        if let Some(p) = self.dir.parent() {
                            self.dir = p.to_path_buf();
                        }
                    }
                    match list_dir(&self.dir) {
                        Ok((dirs, files)) => {
                            for d in dirs {
                                if ui.button(format!("📁 {d}")).clicked() {
                                    self.dir.push(d);
                                }
                            }
                            for f in files {
                                if ui.selectable_label(false, &f).clicked() {
                                    self.typed = self.dir.join(&f).display().to_string();
                                }
                            }
                        }
                        Err(e) => {
                            ui.colored_label(
                                egui::Color32::RED,
                                format!("{}: {e}", self.dir.display()),
                            );
                        }
                    }
                });
            ui.horizontal(|ui| {
                let ok = match self.purpose {
                    ChooserPurpose::Open => "Open",
                    ChooserPurpose::Save(_) | ChooserPurpose::SaveText(_) => "Save",
                };
                if ui.button(ok).clicked() && !self.typed.is_empty() {
                    result = Some(Some(self.resolve()));
                }
                if ui.button("Cancel").clicked() {
                    result = Some(None);
                }
            });
        });
        result
    }

    /// The typed path, relative ones taken from the listed directory.
    fn resolve(&self) -> PathBuf {
        let p = PathBuf::from(&self.typed);
        if p.is_absolute() || self.typed.contains('/') {
            p
        } else {
            self.dir.join(p)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_newest_first_and_bounded() {
        let mut r = Vec::new();
        for k in 0..12 {
            remember(&mut r, &format!("f{k}"));
        }
        remember(&mut r, "f5");
        assert_eq!(r.len(), MAX_RECENT);
        assert_eq!(r[0], "f5");
        assert_eq!(r[1], "f11");
        assert_eq!(r.iter().filter(|p| *p == "f5").count(), 1);
    }

    #[test]
    fn completion_lists_matching_entries_directories_with_a_slash() {
        let dir = std::env::temp_dir().join(format!("pnlab-chooser-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("hexes")).unwrap();
        std::fs::write(dir.join("hex.toml"), "").unwrap();
        std::fs::write(dir.join("othello.obf"), "").unwrap();
        std::fs::write(dir.join(".hidden"), "").unwrap();
        let base = format!("{}/", dir.display());
        let got = complete(&format!("{base}he"));
        assert_eq!(
            got,
            vec![format!("{base}hexes/"), format!("{base}hex.toml")]
        );
        let all = complete(&base);
        assert_eq!(all.len(), 3, "{all:?}");
        let (dirs, files) = list_dir(&dir).unwrap();
        assert_eq!(dirs, vec!["hexes"]);
        assert_eq!(files, vec!["hex.toml", "othello.obf"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
