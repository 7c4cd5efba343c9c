//! The window's panels, each a struct that owns the state it draws and
//! has its own `ui` (in the manner of egui_demo_lib): the position
//! (notes, board, record, file list), the algorithm and its parameters,
//! the status bar. A panel never changes the run itself: it fills the
//! frame's [`Requests`], which the app applies at the end of the frame.
//! What a panel shows of the open position comes from
//! [`Opened`](super::opened::Opened), computed once per position.

pub mod algorithm;
pub mod position;
pub mod status_bar;

use std::path::PathBuf;

use crate::positions::PositionEntry;

use super::driver::Command;
use super::files::Export;
use super::tree_view::TreeAction;

/// What the user asked for during one frame.
#[derive(Default)]
pub struct Requests {
    /// Run commands (toolbar, keys, a click on a switch event).
    pub commands: Vec<Command>,
    /// The algorithm, its parameters or the seed changed.
    pub restart: bool,
    /// The challenger's algorithm or parameters changed.
    pub restart_race: bool,
    /// Exports to write.
    pub exports: Vec<Export>,
    /// File › Open.
    pub open_dialog: bool,
    /// File › Open recent, or a file dropped on the window.
    pub open_file: Option<PathBuf>,
    /// An entry of the open file's list, or of the browser.
    pub open_entry: Option<PositionEntry>,
    /// Tree view actions of the main tree.
    pub tree: Vec<TreeAction>,
    /// The challenger's tree asked for another view.
    pub race_view_changed: bool,
    /// Race mode switched on or off.
    pub set_race: Option<bool>,
    /// A ply of the open game record to make the root.
    pub record_ply: Option<usize>,
    /// The mate question's limit changed (the new limit).
    pub within: Option<Option<u32>>,
    /// View › RSCN along the game.
    pub start_rscn: bool,
    /// Cancel the slow load under way.
    pub cancel_load: bool,
    /// Show the tree text window.
    pub edit_tree_text: bool,
}
