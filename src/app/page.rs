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

use serde_json::{json, Map, Value};

use crate::export::ExportFormat;
use crate::search::Status;

use super::state::PnlabApp;

/// The console line of the state object starts with this.
pub const STATE_PREFIX: &str = "pnlab-state ";
/// The console line of the first frame's time starts with this.
pub const FIRST_FRAME_PREFIX: &str = "pnlab-first-frame-ms ";

/// The status word: `idle`, `running`, `paused`, `proved`, `disproved`
/// or `unknown`.
pub fn status_word(app: &PnlabApp) -> &'static str {
    if app.run.running {
        return "running";
    }
    match app.run.status() {
        Some(Status::Proved) => "proved",
        Some(Status::Disproved) => "disproved",
        Some(Status::Unknown(_)) => "unknown",
        Some(Status::Running) if app.run.iteration() > 0 => "paused",
        _ => "idle",
    }
}

/// The state object (see the module's doc).
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
        .unwrap_or_else(Map::new);
    let error = app
        .messages
        .iter()
        .rev()
        .find(|m| m.starts_with("error"))
        .cloned();
    let best_move = app.run.facts.best_move.clone();
    let correct = app.correct.correct().map(|c| c.labels.clone());
    let fields = [
        ("position", json!(app.entry.name)),
        ("game", json!(app.entry.game.name())),
        ("algo", json!(app.algo)),
        ("status", json!(status_word(app))),
        ("iteration", json!(app.run.iteration())),
        ("best_move", json!(best_move)),
        ("correct_moves", json!(correct)),
        ("error", json!(error)),
        ("driver", json!(app.driver.kind().name())),
    ];
    for (k, v) in fields {
        obj.insert(k.to_string(), v);
    }
    obj.entry("outcome").or_insert(json!("unknown"));
    Value::Object(obj)
}

/// The document title: the position, and where its run stands.
pub fn title(app: &PnlabApp) -> String {
    let word = status_word(app);
    match word {
        "idle" => format!("pnlab — {}", app.entry.name),
        _ => format!(
            "pnlab — {}: {} {} at iteration {}",
            app.entry.name,
            app.algo,
            word,
            app.run.iteration()
        ),
    }
}
