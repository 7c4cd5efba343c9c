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
    // What is visible: while a lesson question is open, the snapshot as
    // the window draws it (masked, see `quiz`), and no best move.
    let quiz = app.quiz();
    let masked = match (&quiz, run.snapshot.as_ref()) {
        (Some(q), Some(s)) => {
            let mut m = s.clone();
            q.mask(&mut m);
            Some(m)
        }
        _ => None,
    };
    let snap = masked.as_ref().or(run.snapshot.as_ref());
    let mut obj = Map::new();
    obj.insert("position".into(), json!(opened.title()));
    obj.insert("game".into(), json!(opened.entry().game.name()));
    obj.insert("algo".into(), json!(app.algorithm.algo.name()));
    // The parameters as the panel shows them and the run takes them: those
    // that apply to the open position's game.
    let params = serde_json::to_value(&app.main_setup().params).ok();
    obj.insert("params".into(), params.unwrap_or(Value::Null));
    obj.insert("seed".into(), json!(app.algorithm.seed));
    obj.insert("driver".into(), json!(app.main.kind().name()));
    obj.insert("status".into(), json!(run.status_word.word()));
    obj.insert("status_text".into(), json!(run.status_word.describe()));
    obj.insert("iteration".into(), json!(run.iteration()));
    obj.insert(
        "outcome".into(),
        json!(snap.map_or("unknown", |s| s.status.outcome_name())),
    );
    let open = quiz.is_some();
    let best_move = run.facts.best_move.clone().filter(|_| !open);
    obj.insert("best_move".into(), json!(best_move));
    let correct = opened.correct.correct().filter(|_| !open);
    obj.insert(
        "correct_moves".into(),
        json!(correct.map(|c| c.labels.clone())),
    );
    // The status bar's judgement of the best move.
    let verdict = correct.zip(best_move.as_ref()).map(|(c, b)| {
        if c.labels.contains(b) {
            "correct"
        } else {
            "wrong"
        }
    });
    obj.insert("verdict".into(), json!(verdict));
    obj.insert("question".into(), question(app));
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

/// The lesson step's question as the window shows it: while it is open,
/// what is asked and nothing of the answer; after the reveal, the answer,
/// whether the class was right, and the reason. `null` without one.
fn question(app: &PnlabApp) -> Value {
    let Some(p) = app.teach.lesson.as_ref() else {
        return Value::Null;
    };
    let Some(q) = p.state.as_ref().and_then(|s| s.question.as_ref()) else {
        return Value::Null;
    };
    let node = q.node.as_ref().map(|n| n.path.moves.join(" "));
    let mut obj = Map::new();
    obj.insert("open".into(), json!(p.verdict.is_none()));
    obj.insert("kind".into(), json!(q.kind));
    obj.insert("prompt".into(), json!(q.prompt));
    obj.insert("node".into(), json!(node));
    obj.insert("value".into(), json!(q.value_name));
    let revealed = p.verdict.as_ref();
    let answer = revealed.map(|_| match &q.answer {
        crate::lesson::Answer::Node(n) => json!(n.path.moves.join(" ")),
        crate::lesson::Answer::Number { shown, .. } => json!(shown),
    });
    obj.insert("answer".into(), json!(answer));
    obj.insert("correct".into(), json!(revealed.map(|v| v.correct)));
    let reason = revealed.map(|_| q.reason.clone()).unwrap_or_default();
    obj.insert("reason".into(), json!(reason));
    Value::Object(obj)
}
