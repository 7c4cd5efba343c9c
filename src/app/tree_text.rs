//! The tree text window (View › Tree text…, or "Edit tree text…" under
//! the notes): the open hand-written tree's text in an editor, so that a
//! teacher can make a new example in front of the class. Every edit is
//! read again with the tree format's own reader; a text that reads opens
//! as the position (the run restarts on it, as File › Open would), a text
//! that does not shows its located error under the editor while the last
//! tree that read keeps running. Save writes the text as a `.tree` file
//! (a download in a page).

use crate::game::GameKind;
use crate::game::ParseError;
use crate::positions::{self, PositionEntry};

/// What a teacher starts from when the open position is not a tree.
const NEW_TREE: &str = "# A new example: edit me, the tree opens as you type.
tree \"New tree\"
root or
  a and
    a1 = win
    a2 = loss
  b and
    b1 = win
    b2 = win
";

/// What the window asks the app to do.
#[derive(Debug)]
pub enum TreeTextAction {
    /// Open this entry (the edited text, read).
    Open(Box<PositionEntry>),
    /// Save the text (it reads) under this file name.
    Save(String, String),
}

/// The window's state.
#[derive(Default)]
pub struct TreeText {
    /// The window is shown.
    pub open: bool,
    /// The text being edited.
    text: String,
    /// The notation of the tree the text stands for: when the open
    /// position's differs, another tree was opened and the text follows it.
    synced: Option<String>,
    /// The located error of the text, when it does not read.
    error: Option<ParseError>,
}

/// The text shown for a tree entry: its notes as the leading comment
/// lines (which the reader takes back as notes), then the tree as the
/// format's writer prints it.
pub fn text_of(entry: &PositionEntry) -> String {
    let mut out = String::new();
    for line in entry.notes.lines() {
        if line.is_empty() {
            out.push_str("#\n");
        } else {
            out.push_str(&format!("# {line}\n"));
        }
    }
    out.push_str(&entry.position.notation());
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Reads an edited text as a tree file; the error is the reader's
/// `LINE:COL: expected …`.
pub fn read(text: &str) -> Result<PositionEntry, ParseError> {
    let mut entries = positions::load_text("edited.tree", text).map_err(|e| e.error)?;
    if entries.is_empty() {
        return Err(ParseError::new(1, 1, "a tree"));
    }
    Ok(entries.remove(0))
}

/// A file name for the tree titled `title`.
fn file_name(title: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let stem = stem.trim_matches('-');
    format!("{}.tree", if stem.is_empty() { "tree" } else { stem })
}

impl TreeText {
    /// The text being edited.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The located error of the text, when it does not read.
    pub fn error(&self) -> Option<&ParseError> {
        self.error.as_ref()
    }

    /// Follows the open position: a tree other than the one the text
    /// stands for replaces the text; any other game leaves the text (a
    /// new tree's template when empty).
    pub fn sync(&mut self, open: &PositionEntry) {
        if open.game != GameKind::Tree {
            if self.text.is_empty() {
                self.text = NEW_TREE.to_string();
            }
            return;
        }
        let notation = open.position.notation();
        if self.synced.as_deref() != Some(notation.as_str()) {
            self.text = text_of(open);
            self.synced = Some(notation);
            self.error = None;
        }
    }

    /// Replaces the text (an edit): the entry to open when it reads,
    /// else the error is kept for the window.
    pub fn set_text(&mut self, text: String) -> Option<PositionEntry> {
        self.text = text;
        match read(&self.text) {
            Ok(entry) => {
                self.error = None;
                self.synced = Some(entry.position.notation());
                Some(entry)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// Draws the window when open.
    pub fn ui(&mut self, ctx: &egui::Context, open: &PositionEntry) -> Option<TreeTextAction> {
        if !self.open {
            return None;
        }
        self.sync(open);
        let mut shown = self.open;
        let mut action = None;
        egui::Window::new("Tree text")
            .open(&mut shown)
            .default_width(420.0)
            .show(ctx, |ui| {
                if open.game == GameKind::Tree {
                    ui.label(format!("{}: each edit reopens the tree", open.name));
                } else {
                    ui.label(format!(
                        "The open position is a {} position; this text opens as a new tree",
                        open.game.name()
                    ));
                }
                let mut text = self.text.clone();
                let edit = egui::ScrollArea::vertical()
                    .max_height(ctx.content_rect().height() * 0.6)
                    .show(ui, |ui| {
                        ui.add(
                            egui::TextEdit::multiline(&mut text)
                                .code_editor()
                                .desired_width(f32::INFINITY)
                                .desired_rows(16),
                        )
                    })
                    .inner;
                if edit.changed() {
                    if let Some(entry) = self.set_text(text) {
                        action = Some(TreeTextAction::Open(Box::new(entry)));
                    }
                }
                if let Some(e) = &self.error {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        format!("error at {e} (the last tree that read keeps running)"),
                    );
                }
                let save = ui
                    .add_enabled(self.error.is_none(), egui::Button::new("Save…"))
                    .on_hover_text("write the text as a .tree file")
                    .on_disabled_hover_text("the text does not read yet");
                if save.clicked() {
                    let title = read(&self.text).map(|e| e.name).unwrap_or_default();
                    action = Some(TreeTextAction::Save(file_name(&title), self.text.clone()));
                }
            });
        self.open = shown;
        action
    }
}

impl super::PnlabApp {
    /// Draws the tree text window and acts on it: an edit that reads
    /// opens as the position (the run restarts), Save asks where to write.
    pub(super) fn tree_text_window(&mut self, ctx: &egui::Context) {
        match self.tree_text.ui(ctx, self.opened.entry()) {
            Some(TreeTextAction::Open(entry)) => {
                self.position.file_entries.clear();
                self.open_entry(*entry);
            }
            Some(TreeTextAction::Save(name, text)) => self.save_text_with_dialog(&name, text),
            None => {}
        }
    }

    /// Writes `text` to `path` (atomically; a download in a page).
    pub(super) fn save_text(&mut self, path: &std::path::Path, text: &str) {
        let msg = match super::files::save(path, text.as_bytes()) {
            Ok(()) => format!("saved {}", path.display()),
            Err(e) => format!("error: {e}"),
        };
        self.messages.push(msg);
    }

    /// Asks where to save the tree text: the native dialog, else the
    /// in-app chooser.
    #[cfg(not(target_arch = "wasm32"))]
    fn save_text_with_dialog(&mut self, name: &str, text: String) {
        use super::file_chooser::{self, ChooserPurpose, FileChooser};
        let purpose = ChooserPurpose::SaveText(text);
        if let Some(reason) = file_chooser::native_unavailable() {
            self.chooser = Some(FileChooser::new(purpose, reason, name));
            return;
        }
        let started = crate::clock::now();
        match super::files::pick_save(name, "tree") {
            Some(path) => {
                if let ChooserPurpose::SaveText(text) = purpose {
                    self.save_text(&path, &text);
                }
            }
            None if file_chooser::returned_too_fast(started) => {
                self.chooser = Some(FileChooser::new(
                    purpose,
                    "the native file dialog did not open; choose the file here".into(),
                    name,
                ));
            }
            None => {}
        }
    }

    /// In a page: the tree text as a download.
    #[cfg(target_arch = "wasm32")]
    fn save_text_with_dialog(&mut self, name: &str, text: String) {
        self.save_text(std::path::Path::new(name), &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seesaw() -> PositionEntry {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees/seesaw.tree");
        positions::load_file(&path).unwrap().remove(0)
    }

    #[test]
    fn the_shown_text_reads_back_to_the_same_tree_and_notes() {
        let entry = seesaw();
        let back = read(&text_of(&entry)).expect("reads");
        assert_eq!(back.position.notation(), entry.position.notation());
        assert_eq!(back.notes, entry.notes);
        assert_eq!(back.name, entry.name);
    }

    #[test]
    fn an_edit_that_reads_opens_and_a_broken_one_keeps_the_error() {
        let mut t = TreeText::default();
        t.sync(&seesaw());
        assert!(t.text().contains("Laaaaa = win"));
        let entry = t
            .set_text("tree \"Two\"\nr or\n  x = win\n  y = loss\n".into())
            .expect("reads");
        assert_eq!(entry.name, "Two");
        assert_eq!(entry.position.legal_move_names(), ["x", "y"]);
        // Opening it does not replace the text the user is typing.
        t.sync(&entry);
        assert!(t.text().starts_with("tree \"Two\""));
        assert!(t.set_text("r or\n  x = wim\n".into()).is_none());
        let e = t.error().expect("an error");
        assert_eq!(e.line, 2, "{e}");
        // Another tree opened elsewhere replaces the text and the error.
        t.sync(&seesaw());
        assert!(t.error().is_none());
        assert!(t.text().contains("Laaaaa = win"));
    }

    #[test]
    fn file_names_come_from_the_title() {
        assert_eq!(file_name("Seesaw"), "seesaw.tree");
        assert_eq!(file_name("My new tree!"), "my-new-tree.tree");
        assert_eq!(file_name(""), "tree.tree");
    }
}
