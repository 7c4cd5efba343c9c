//! The scripted app's state (`pnlab FILE --autoplay N --state OUT.json`):
//! one JSON object saying what the panels show, so tests and scripts can
//! check the app without reading pixels. The names are a contract
//! (docs/cli.md): `position`, `game`, `algo`, `status`, `iteration`,
//! `outcome`, `best_move`, `correct_moves` (a list, or null where no
//! reference exists), `error` (null or the message shown), and the
//! counters the status bar shows, under the `--json` names.

use serde_json::{json, Map, Value};

use super::counters;
use super::state::PnlabApp;

/// The state of `app` as a pretty-printed JSON object.
pub fn render(app: &PnlabApp) -> String {
    let v = value(app);
    serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string())
}

/// The state of `app` as a JSON value.
pub fn value(app: &PnlabApp) -> Value {
    let run = app.run();
    let opened = &app.opened;
    let snap = run.snapshot.as_ref();
    let mut obj = Map::new();
    obj.insert("position".into(), json!(opened.title()));
    obj.insert("game".into(), json!(opened.entry().game.name()));
    obj.insert("algo".into(), json!(app.algorithm.algo));
    // The parameters as the panel shows them and the run takes them: those
    // that apply to the open position's game.
    let params = app.main_setup().params;
    obj.insert(
        "params".into(),
        serde_json::to_value(&params).unwrap_or(Value::Null),
    );
    obj.insert("seed".into(), json!(app.algorithm.seed));
    obj.insert("driver".into(), json!(app.main.kind().name()));
    obj.insert("status".into(), json!(run.status_word.word()));
    obj.insert("status_text".into(), json!(run.status_word.describe()));
    obj.insert("iteration".into(), json!(run.iteration()));
    obj.insert(
        "outcome".into(),
        json!(snap.map_or("unknown", |s| s.status.outcome_name())),
    );
    obj.insert("best_move".into(), json!(run.facts.best_move));
    let correct = opened.correct.correct().map(|c| c.labels.clone());
    obj.insert("correct_moves".into(), json!(correct));
    obj.insert("moves".into(), json!(opened.moves()));
    obj.insert("within".into(), json!(opened.within()));
    if let Some(r) = opened.record() {
        obj.insert("ply".into(), json!(r.ply));
    }
    obj.insert("notes".into(), json!(opened.notes()));
    let error = app
        .messages
        .iter()
        .rev()
        .find(|m| m.starts_with("error"))
        .map(|m| m.trim_start_matches("error: ").to_string());
    obj.insert("error".into(), json!(error));
    obj.insert("messages".into(), json!(app.messages));
    if let Some(s) = snap {
        let mut c = Map::new();
        for item in counters::items(&s.algo, &s.counters) {
            c.insert(item.key.into(), json!(item.value));
        }
        c.insert("peak_tree_bytes".into(), json!(s.counters.peak_tree_bytes));
        c.insert("checkpoint_bytes".into(), json!(run.facts.checkpoint_bytes));
        c.insert("shown_nodes".into(), json!(s.nodes.len()));
        c.insert("total_nodes".into(), json!(s.total_nodes));
        obj.insert("counters".into(), Value::Object(c));
        // What the tree view says it shows, and once the root is solved
        // the proof's line of chosen moves (the winning move first).
        let proof = app.tree.proof_shown(s);
        obj.insert(
            "tree_view".into(),
            json!(super::tree_view::shown_text(s, proof.as_ref())),
        );
        obj.insert("proof_line".into(), json!(proof.map(|p| p.selection_moves)));
        obj.insert(
            "tree_moves".into(),
            json!(s
                .root_children
                .iter()
                .map(|c| c.move_label.clone())
                .collect::<Vec<_>>()),
        );
        obj.insert(
            "board".into(),
            json!(s.position.as_ref().map(|p| p.notation())),
        );
    } else {
        obj.insert("counters".into(), Value::Null);
    }
    Value::Object(obj)
}
