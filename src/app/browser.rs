//! The browser of the bundled `positions/` folder (File › Positions…):
//! every embedded file with its positions and notes; a click loads the
//! position and lists the rest of its file in the side panel. The files
//! are parsed once, when the browser first opens.

use crate::positions::{self, PositionEntry};

/// One bundled file, parsed.
pub struct BundledListing {
    /// Path inside `positions/`.
    pub path: &'static str,
    /// Its positions, or the parse error (a broken bundled file is shown,
    /// not hidden).
    pub entries: Result<Vec<PositionEntry>, String>,
}

/// Every bundled position file, parsed (the folder's README is not one).
pub fn bundled_listing() -> Vec<BundledListing> {
    positions::bundled_entries()
        .into_iter()
        .map(|(path, entries)| BundledListing {
            path,
            entries: entries.map_err(|e| e.to_string()),
        })
        .collect()
}

/// The file's entries with the chosen one first (the one that loads).
pub fn chosen_first(entries: &[PositionEntry], i: usize) -> Vec<PositionEntry> {
    let mut v = entries.to_vec();
    if i < v.len() {
        let chosen = v.remove(i);
        v.insert(0, chosen);
    }
    v
}

/// The browser window's state.
#[derive(Default)]
pub struct Browser {
    /// The window is open.
    pub open: bool,
    listing: Option<Vec<BundledListing>>,
}

impl Browser {
    /// Draws the window when open; returns the file and its entries (the
    /// chosen one first) when the user picked a position.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<(String, Vec<PositionEntry>)> {
        if !self.open {
            return None;
        }
        let listing = self.listing.get_or_insert_with(bundled_listing);
        let mut open = self.open;
        let mut load = None;
        egui::Window::new("Positions")
            .open(&mut open)
            .default_width(440.0)
            .show(ctx, |ui| {
                if listing.is_empty() {
                    ui.weak("No bundled positions in this build.");
                }
                egui::ScrollArea::vertical()
                    .max_height(520.0)
                    .show(ui, |ui| {
                        for f in listing.iter() {
                            let entries = match &f.entries {
                                Ok(e) => e,
                                Err(e) => {
                                    ui.colored_label(ui.visuals().error_fg_color, e);
                                    continue;
                                }
                            };
                            egui::CollapsingHeader::new(f.path).show(ui, |ui| {
                                for (i, e) in entries.iter().enumerate() {
                                    if ui.button(&e.name).clicked() {
                                        load = Some((f.path.to_string(), chosen_first(entries, i)));
                                    }
                                    if !e.notes.is_empty() {
                                        super::text::notes(ui, &e.notes);
                                    }
                                }
                            });
                        }
                    });
            });
        self.open = open;
        load
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_file_parses_and_choosing_puts_the_entry_first() {
        let listing = bundled_listing();
        assert!(!listing.is_empty());
        for f in &listing {
            assert!(
                f.entries.is_ok(),
                "{}: {:?}",
                f.path,
                f.entries.as_ref().err()
            );
        }
        let many = listing
            .iter()
            .filter_map(|f| f.entries.as_ref().ok())
            .find(|e| e.len() >= 3)
            .expect("a bundled file with several positions");
        let v = chosen_first(many, 2);
        assert_eq!(v.len(), many.len());
        assert_eq!(v[0].name, many[2].name);
        assert_eq!(v[1].name, many[0].name);
    }
}
