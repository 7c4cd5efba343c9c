//! The record of one solved position: the fields of `pnlab solve --json`
//! (docs/cli.md), as one typed, serialisable struct. The CLI prints it,
//! the Python module returns it as a dict, the app's "Run as JSON" and
//! `--export run.json` start from it, so the field list exists once.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::RunRecord;
use pnlab_core::game::AnyPosition;
use pnlab_core::search::{Answer, Counters, Goal, Params, QuestionKind, RunEnd, RunOutcome};

/// One run as `pnlab solve --json` prints it (one object per line).
///
/// Field order is the order of the JSON object. Optional fields are left
/// out when they do not apply (`within` without a move limit, `playouts`
/// for searches without playouts, `expected` when the file states no
/// answer, `proof_file` without `--proof`); the algorithm-specific fields
/// (`value`, `nodes_visited`, `curve`, …) follow the counters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveRecord {
    /// The position's name (the inline notation, or the file's entry name).
    pub name: String,
    /// The game's CLI name.
    pub game: String,
    /// The position in the game's native notation.
    pub position: String,
    /// The algorithm's registry name.
    pub algo: String,
    /// Every parameter of the run, defaults filled in.
    pub params: Params,
    /// The run's seed.
    pub seed: u64,
    /// `win`, `not-lose` or `score`.
    pub question: QuestionKind,
    /// The attacker's move limit (`--within`, or the file's `within`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<u32>,
    /// The xiangqi repetition rule in force.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<String>,
    /// `proved`, `disproved` or `unknown`.
    pub outcome: RunOutcome,
    /// The answer in words: `win`, `not-win`, `not-lose`, `loss`, `score`,
    /// `unknown`.
    pub answer: Answer,
    /// The root move the algorithm names best, in notation.
    pub best_move: Option<String>,
    /// The run's counters ([`Counters`], listed there once): every
    /// counter but `live_nodes` (a snapshot's, not a run's), `time_ms`
    /// to three decimals, `playouts` only for searches that run them.
    #[serde(flatten, serialize_with = "record_counters")]
    pub counters: Counters,
    /// `solved` (`certified` with `--certify`), or why the search stopped
    /// without an answer (`uncertified`: a solved answer whose
    /// certificate failed its check).
    pub stop_reason: RunEnd,
    /// The answer the position's file states, when it states one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<ExpectedRecord>,
    /// Algorithm-specific fields ([`pnlab_core::search::Search::extra_json`]).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// Where `--proof` wrote the certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_file: Option<String>,
    /// The number of positions of the answer's certificate (with
    /// `--proof` or `--certify`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_positions: Option<usize>,
    /// With `--certify`: whether the answer's certificate was written and
    /// verified (false for an `unknown` run, which has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified: Option<bool>,
    /// With `--certify`: milliseconds spent writing and verifying the
    /// certificate (not part of `time_ms`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certify_ms: Option<f64>,
    /// With `--certify`: why a solved answer could not be certified (it is
    /// then reported `unknown`, stop reason `uncertified`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certify_error: Option<String>,
}

/// The known answer a position file states, as the record shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ExpectedRecord {
    /// `win`, `draw` or `loss` for the side to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The exact score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// Moves known to be best.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub best_moves: Vec<String>,
}

impl SolveRecord {
    /// The record of a run.
    pub fn of(run: &RunRecord<'_>) -> SolveRecord {
        let c = run.counters;
        let position = &run.entry.position;
        SolveRecord {
            name: run.entry.name.clone(),
            game: run.entry.game.name().to_string(),
            position: position.notation(),
            algo: run.algo.to_string(),
            params: run.params.clone(),
            seed: run.seed,
            question: match run.question.goal {
                Goal::NotLose => QuestionKind::NotLose,
                _ => QuestionKind::Win,
            },
            within: position.within_limit(),
            repetition: match position.shown() {
                AnyPosition::Xiangqi(g) => Some(g.repetition().name().to_string()),
                _ => None,
            },
            outcome: run.status.outcome(),
            answer: Answer::of(&run.question, run.status),
            best_move: run.facts.best_move.clone(),
            counters: c.clone(),
            stop_reason: RunEnd::from(run.status),
            expected: run.entry.expected.as_ref().map(|e| ExpectedRecord {
                result: e.result.clone(),
                value: e.value,
                best_moves: e.best_moves.clone(),
            }),
            extra: run.facts.extra.clone(),
            proof_file: None,
            proof_positions: None,
            certified: None,
            certify_ms: None,
            certify_error: None,
        }
    }

    /// The record as one JSON object. An algorithm-specific field never
    /// duplicates a contract field: a clash keeps the key once, where the
    /// contract puts it, with the algorithm's value.
    pub fn to_map(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            // A struct of plain fields always serialises to an object.
            _ => Map::new(),
        }
    }

    /// The `--json` line.
    pub fn to_line(&self) -> String {
        Value::Object(self.to_map()).to_string()
    }
}

/// The record's counters as JSON fields (see [`SolveRecord::counters`]).
fn record_counters<S: Serializer>(c: &Counters, s: S) -> Result<S::Ok, S::Error> {
    let mut map = match serde_json::to_value(c) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    map.remove("live_nodes");
    map.insert(
        "time_ms".into(),
        serde_json::json!((c.time_ms * 1000.0).round() / 1000.0),
    );
    if c.playouts == 0 {
        map.remove("playouts");
    }
    map.serialize(s)
}
