//! The browser of what ships with pnlab (File › Positions and lessons…,
//! Teach › Lessons…): the catalogue's positions and lessons grouped by
//! topic or by game, each with its one-line description. A click on a
//! position loads it (the rest of its file is listed in the side panel), a
//! click on a lesson plays it; the window then closes. The files are
//! parsed once, when the browser first opens.

use crate::catalogue::{by_game, by_topic, catalogue, Item, ItemKind};
use crate::game::notation::FileError;
use crate::positions::{self, PositionEntry};

/// One bundled file, parsed.
pub struct BundledListing {
    /// Path inside `positions/`.
    pub path: &'static str,
    /// Its positions, or the parse error (a broken bundled file is shown,
    /// not hidden).
    pub entries: Result<Vec<PositionEntry>, FileError>,
}

/// Every bundled position file, parsed (the folder's README is not one).
pub fn bundled_listing() -> Vec<BundledListing> {
    positions::bundled_entries()
        .into_iter()
        .map(|(path, entries)| BundledListing { path, entries })
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

/// What the user picked in the browser.
#[derive(Debug)]
pub enum Pick {
    /// A position: its file and the file's entries, the chosen one first.
    Position(String, Vec<PositionEntry>),
    /// A bundled lesson (its path in the catalogue).
    Lesson(&'static str),
}

/// How the browser groups the catalogue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Grouping {
    /// Lessons, teaching trees, puzzles, endgames, records, experiments.
    #[default]
    Topic,
    /// One group per game.
    Game,
}

/// The browser window's state.
#[derive(Default)]
pub struct Browser {
    /// The window is open.
    pub open: bool,
    /// By topic or by game.
    pub grouping: Grouping,
    listing: Option<Vec<BundledListing>>,
    items: Option<Vec<Item>>,
}

/// The pick for catalogue item `item`: a lesson, or the position with the
/// rest of its file behind it.
pub fn pick_of(item: &Item, listing: &[BundledListing]) -> Pick {
    match &item.kind {
        ItemKind::Lesson { .. } => Pick::Lesson(item.path),
        ItemKind::Position { entry, position } => {
            let file = listing
                .iter()
                .find(|f| f.path == item.path)
                .and_then(|f| f.entries.as_ref().ok());
            match file {
                Some(entries) if *entry >= 1 && *entry <= entries.len() => {
                    Pick::Position(item.path.to_string(), chosen_first(entries, entry - 1))
                }
                _ => Pick::Position(item.path.to_string(), vec![(**position).clone()]),
            }
        }
    }
}

/// The line under an item's title: what it is and what it shows.
fn item_line(item: &Item) -> String {
    match &item.kind {
        ItemKind::Lesson { steps, minutes, .. } => {
            let time = minutes.map(|m| format!(", {m} min")).unwrap_or_default();
            format!("lesson, {steps} steps{time}: {}", item.description)
        }
        ItemKind::Position { .. } => item.description.clone(),
    }
}

/// The side of a thumbnail, in points.
pub const THUMBNAIL: f32 = 64.0;

/// A position item's thumbnail, drawn only when its row is in view (the
/// rows scrolled out of sight cost nothing); lessons and the games
/// without a picture keep the column empty, so the titles line up.
fn thumbnail(ui: &mut egui::Ui, item: &Item) {
    let size = egui::vec2(THUMBNAIL, THUMBNAIL);
    let area = egui::Rect::from_min_size(ui.cursor().min, size);
    let visible = ui.is_rect_visible(area);
    ui.vertical(|ui| {
        ui.set_width(THUMBNAIL);
        let drawn = match &item.kind {
            ItemKind::Position { position, .. } if visible => {
                super::board::thumbnail(ui, &position.position, THUMBNAIL)
            }
            _ => false,
        };
        if !drawn {
            ui.allocate_space(size);
        }
    });
}

impl Browser {
    /// Draws the window when open; returns what the user picked (the
    /// window then closes, so the board and the tree are seen at once).
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<Pick> {
        if !self.open {
            return None;
        }
        let listing = self.listing.get_or_insert_with(bundled_listing);
        let items = self.items.get_or_insert_with(catalogue);
        let mut open = self.open;
        let mut pick = None;
        let grouping = &mut self.grouping;
        egui::Window::new("Positions and lessons")
            .open(&mut open)
            .default_width(520.0)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Group by");
                    ui.selectable_value(grouping, Grouping::Topic, "topic");
                    ui.selectable_value(grouping, Grouping::Game, "game");
                });
                if items.is_empty() {
                    ui.weak("No bundled positions in this build.");
                }
                for f in listing.iter() {
                    if let Err(e) = &f.entries {
                        ui.colored_label(ui.visuals().error_fg_color, e.to_string());
                    }
                }
                let groups: Vec<(String, Vec<&Item>)> = match *grouping {
                    Grouping::Topic => by_topic(items)
                        .into_iter()
                        .map(|(t, v)| (t.title().to_string(), v))
                        .collect(),
                    Grouping::Game => by_game(items)
                        .into_iter()
                        .map(|(g, v)| (g.name().to_string(), v))
                        .collect(),
                };
                egui::ScrollArea::vertical()
                    .max_height(ctx.content_rect().height() * 0.7)
                    .show(ui, |ui| {
                        for (k, (title, group)) in groups.iter().enumerate() {
                            egui::CollapsingHeader::new(format!("{title} ({})", group.len()))
                                .id_salt(("browser-group", *grouping as u8, k))
                                .default_open(k == 0)
                                .show(ui, |ui| {
                                    for item in group {
                                        ui.horizontal(|ui| {
                                            thumbnail(ui, item);
                                            ui.vertical(|ui| {
                                                if ui.button(&item.title).clicked() {
                                                    pick = Some(pick_of(item, listing));
                                                }
                                                ui.weak(item_line(item));
                                            });
                                        });
                                    }
                                });
                        }
                    });
            });
        self.open = open && pick.is_none();
        pick
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
        let items = catalogue();
        let lesson = items
            .iter()
            .find(|i| matches!(i.kind, ItemKind::Lesson { .. }))
            .expect("a bundled lesson");
        assert!(matches!(pick_of(lesson, &listing), Pick::Lesson(p) if p == lesson.path));
        let pos = items
            .iter()
            .find(|i| matches!(&i.kind, ItemKind::Position { entry, .. } if *entry == 2))
            .expect("a second position of a file");
        match pick_of(pos, &listing) {
            Pick::Position(path, entries) => {
                assert_eq!(path, pos.path);
                assert_eq!(entries[0].name, pos.title);
                assert!(entries.len() >= 2);
            }
            other => panic!("{other:?}"),
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
