//! What a page tells the world about its run, so that a test or a
//! script can check it from the page alone (the browser has no `--state`
//! file to write): one JSON object, logged to the console on a line that
//! starts with [`STATE_PREFIX`], and a document title that says where the
//! run stands. The object holds the run's `--json` fields (the same
//! names as `pnlab solve --json`) and, around them, what the panels show:
//! `position`, `game`, `algo`, `status`, `iteration`, `best_move`,
//! `correct_moves` (the exhaustive reference's, or null), `error` and the
//! `driver` that stepped it.
//!
//! Plain code: the desktop's tests build it from a real app.

use serde_json::{json, Value};

use crate::export::ExportFormat;

use super::state::PnlabApp;

/// The console line of the state object starts with this.
pub const STATE_PREFIX: &str = "pnlab-state ";
/// The console line of the first frame's time starts with this.
pub const FIRST_FRAME_PREFIX: &str = "pnlab-first-frame-ms ";
/// The console line of a live class's state (each time it changes)
/// starts with this: the room, this device's answer and verdict, and
/// where the step's nodes are drawn.
pub const LIVE_PREFIX: &str = "pnlab-live ";

/// The status word: `idle`, `running`, `paused`, `proved`, `disproved`
/// or `unknown` (the same word the status bar and `--state` use).
pub fn status_word(app: &PnlabApp) -> &'static str {
    app.run().status_word.word()
}

/// The state object (see the module's doc): the run's `--json` fields,
/// then everything `--state` writes on the desktop
/// ([`super::state_json::value`]), so a page and a window report alike.
pub fn state_json(app: &PnlabApp) -> Value {
    // The run's `--json` fields, as File › Export › Run as JSON writes them.
    let mut obj = app
        .export_text(ExportFormat::Json)
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .and_then(|v| match v {
            Value::Object(m) => Some(m),
            _ => None,
        })
        .unwrap_or_default();
    if let Value::Object(state) = super::state_json::value(app) {
        for (k, v) in state {
            obj.insert(k, v);
        }
    }
    obj.entry("outcome").or_insert(json!("unknown"));
    Value::Object(obj)
}

/// The document title: the position, and where its run stands.
pub fn title(app: &PnlabApp) -> String {
    let word = status_word(app);
    let name = app.opened.title();
    match word {
        "idle" => format!("pnlab — {name}"),
        _ => format!(
            "pnlab — {name}: {} {word} at iteration {}",
            app.algorithm.algo,
            app.run().iteration()
        ),
    }
}
