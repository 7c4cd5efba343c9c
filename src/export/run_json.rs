//! The run as JSON: one object with the setup, the outcome and the
//! counters under their command-line names. `pnlab solve --json` prints it
//! on one line per position; the app's "Run as JSON" and `--export
//! run.json` write the same fields, pretty-printed, plus the tree facts
//! only a snapshot has (value names, the root's children, the switch
//! events, the selection path).

use serde_json::{json, Map, Value};

use crate::game::AnyPosition;
use crate::positions::PositionEntry;
use crate::search::{Counters, Goal, Params, Question, Search, Snapshot, Status};

/// What a run knows beyond its counters: the root move it names best and
/// its algorithm-specific fields (`value` for `pn-value`, …). Taken from
/// the live search, by the CLI after the run and by the app's worker with
/// every snapshot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunFacts {
    /// [`Search::best_move`].
    pub best_move: Option<String>,
    /// [`Search::extra_json`].
    pub extra: Map<String, Value>,
}

impl RunFacts {
    /// The facts of a search as it stands.
    pub fn of(s: &dyn Search) -> RunFacts {
        RunFacts {
            best_move: s.best_move(),
            extra: s.extra_json(),
        }
    }
}

/// One run, as the JSON output describes it.
pub struct RunRecord<'a> {
    /// The position (name, game, notation, expected result).
    pub entry: &'a PositionEntry,
    /// The algorithm's registry name.
    pub algo: &'a str,
    /// The parameters the run used.
    pub params: &'a Params,
    /// The run's seed.
    pub seed: u64,
    /// The question asked at the root.
    pub question: Question,
    /// Where the run stands.
    pub status: Status,
    /// The counters (`time_ms` filled by whoever drove the run).
    pub counters: &'a Counters,
    /// Best move and algorithm-specific fields.
    pub facts: &'a RunFacts,
}

impl RunRecord<'_> {
    /// The fields of the `--json` contract, in order.
    pub fn fields(&self) -> Map<String, Value> {
        let c = self.counters;
        let mut obj = Map::new();
        obj.insert("name".into(), json!(self.entry.name));
        obj.insert("game".into(), json!(self.entry.game.name()));
        obj.insert("position".into(), json!(self.entry.position.notation()));
        obj.insert("algo".into(), json!(self.algo));
        obj.insert(
            "params".into(),
            serde_json::to_value(self.params).unwrap_or(Value::Null),
        );
        obj.insert("seed".into(), json!(self.seed));
        obj.insert(
            "question".into(),
            json!(match self.question.goal {
                Goal::NotLose => "not-lose",
                _ => "win",
            }),
        );
        if let Some(n) = self.entry.position.within_limit() {
            obj.insert("within".into(), json!(n));
        }
        if let AnyPosition::Xiangqi(g) = self.entry.position.shown() {
            obj.insert("repetition".into(), json!(g.repetition().name()));
        }
        obj.insert("outcome".into(), json!(self.status.outcome_name()));
        obj.insert(
            "answer".into(),
            json!(self.question.answer_name(self.status)),
        );
        obj.insert("best_move".into(), json!(self.facts.best_move));
        obj.insert("iterations".into(), json!(c.iterations));
        obj.insert("nodes_created".into(), json!(c.nodes_created));
        obj.insert("nodes_expanded".into(), json!(c.nodes_expanded));
        obj.insert("max_depth".into(), json!(c.max_depth));
        obj.insert("seesaw_root_switches".into(), json!(c.seesaw_root_switches));
        obj.insert("seesaw_switches".into(), json!(c.seesaw_switches));
        obj.insert("revisits".into(), json!(c.revisits));
        obj.insert(
            "time_ms".into(),
            json!((c.time_ms * 1000.0).round() / 1000.0),
        );
        obj.insert("peak_tree_bytes".into(), json!(c.peak_tree_bytes));
        obj.insert("stop_reason".into(), json!(self.status.stop_reason_name()));
        if c.playouts > 0 {
            obj.insert("playouts".into(), json!(c.playouts));
        }
        if let Some(exp) = &self.entry.expected {
            let mut e = Map::new();
            if let Some(r) = &exp.result {
                e.insert("result".into(), json!(r));
            }
            if let Some(v) = exp.value {
                e.insert("value".into(), json!(v));
            }
            if !exp.best_moves.is_empty() {
                e.insert("best_moves".into(), json!(exp.best_moves));
            }
            obj.insert("expected".into(), Value::Object(e));
        }
        for (k, v) in &self.facts.extra {
            obj.insert(k.clone(), v.clone());
        }
        obj
    }

    /// The `--json` line: the contract fields on one line.
    pub fn line(&self) -> String {
        Value::Object(self.fields()).to_string()
    }
}

/// The contract fields plus, given a snapshot, the tree facts:
/// `value_names`, `root_children`, `switch_events`, `selection_path`.
pub fn with_tree(record: &RunRecord<'_>, snap: Option<&Snapshot>) -> Value {
    let mut obj = record.fields();
    if let Some(s) = snap {
        obj.insert("value_names".into(), json!(s.value_names));
        obj.insert("root_children".into(), json!(s.root_children));
        obj.insert("switch_events".into(), json!(s.switch_events));
        obj.insert("selection_path".into(), json!(s.selection_moves));
    }
    Value::Object(obj)
}

/// [`with_tree`] pretty-printed (the exported file).
pub fn pretty(record: &RunRecord<'_>, snap: Option<&Snapshot>) -> String {
    let v = with_tree(record, snap);
    let mut text =
        serde_json::to_string_pretty(&v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}
