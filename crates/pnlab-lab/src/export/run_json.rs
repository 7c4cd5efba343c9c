//! The run as JSON: one object with the setup, the outcome and the
//! counters under their command-line names. `pnlab solve --json` prints it
//! on one line per position; the app's "Run as JSON" and `--export
//! run.json` write the same fields, pretty-printed, plus the tree facts
//! only a snapshot has (value names, the root's children, the switch
//! events, the selection path).

use serde_json::{json, Map, Value};

use super::solve_record::SolveRecord;
use pnlab_core::positions::PositionEntry;
use pnlab_core::search::{Counters, Params, Question, Search, Snapshot, Status};

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
    /// Bytes the app's time-travel checkpoints hold besides the search's
    /// own tree (counted in the memory budget; 0 outside the app).
    pub checkpoint_bytes: u64,
}

impl RunFacts {
    /// The facts of a search as it stands.
    pub fn of(s: &dyn Search) -> RunFacts {
        RunFacts {
            best_move: s.best_move(),
            extra: s.extra_json(),
            checkpoint_bytes: 0,
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
    /// The typed record of the run ([`SolveRecord`]: the `--json`
    /// contract, one definition for the CLI, the app and Python).
    pub fn record(&self) -> SolveRecord {
        SolveRecord::of(self)
    }

    /// The fields of the `--json` contract, in order.
    pub fn fields(&self) -> Map<String, Value> {
        self.record().to_map()
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
