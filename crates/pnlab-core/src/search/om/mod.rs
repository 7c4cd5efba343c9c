//! Opponent-model search (Carmel & Markovitch 1996; Hsu's lecture notes):
//! the searcher judges positions with its own evaluation f1
//! ([`Game::evaluate`]) and knows that the opponent judges them with f2
//! ([`Game::evaluate_model`]: a tree's `eval2=` hints, Othello's plain
//! disc count) and plays minimax on f2.
//!
//! # The values
//!
//! Depth-limited to `depth` plies, full width; every node gets two values
//! from MAX's (the root player's) point of view:
//! - v₂, the model's value: plain minimax on f2 (a finished game is worth
//!   its terminal value, ±10000 or 0);
//! - v, what MAX will really get against that opponent: at a leaf f1 (or
//!   the terminal value, a draw counting −`contempt`); at a MAX node the
//!   highest v of the children (MAX chooses by its own judgement); at a
//!   MIN node the v of the child the opponent picks, the one with the
//!   least v₂ (leftmost on ties).
//!
//! MAX plays the root child with the highest v. With `model` equal to
//! `eval` (the searcher's own evaluation, f1 by default) the opponent is
//! modelled as judging like MAX: v = v₂ = the minimax value of plain
//! alpha-beta, so the two choices can be compared on one position; with
//! `eval = f2, model = f2` the search plays the modelled opponent itself.
//!
//! # Pruning
//!
//! Alpha-beta's cut-offs do not apply to v: a MIN node's v is that of
//! the model's reply, not a minimum, so a bound on it says nothing about
//! the others. One cut-off stays sound (`prune = true`): a MAX node below
//! a MIN node stops as soon as its v₂ reaches the MIN node's best v₂ so
//! far, since v₂ only grows at a MAX node and the opponent picks a
//! strictly lower one (the *opponent-model cut-off*; Carmel & Markovitch's
//! αβ* prunes more). Results are the same with and without it.
//!
//! # The contempt factor
//!
//! `contempt = c` values a draw at −c for MAX (the model values it at 0):
//! c > 0 avoids draws against an opponent one expects to beat, c < 0
//! seeks them against a stronger one (the lecture's remark: drawing a
//! weaker opponent is a waste, drawing a stronger one a gain).
//!
//! The run ends `proved`/`disproved` when the search reached no leaf at
//! its depth limit (v > 0 for `win`, ≥ 0 for `not-lose`: what MAX gets
//! against the modelled opponent), else `unknown` with reason
//! `depth-limit`. The JSON adds `value` (v), `model_value` (v₂) and
//! `om_cutoffs`.

pub mod engine;
mod view;

use crate::game::Game;

use super::snapshot::{Snapshot, ViewRequest};
use super::{
    legal_move_label, QuestionKind, Search, SearchError, SearchSetup, StatsSample, Status,
    StopReason,
};

pub use engine::{Engine, OmKind, OmRec};

crate::choice_enum! {
    /// One of the two evaluations.
    pub enum Model {
        /// The game's evaluation ([`Game::evaluate`]).
        F1 = "f1",
        /// The game's second evaluation ([`Game::evaluate_model`]).
        F2 = "f2",
    }
}

crate::options! {
    /// Everything that shapes one run (its parameters described once; the
    /// CLI, the app and the JSON read them).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct OmOptions {
        /// Search depth in plies.
        pub depth: u32 => {
            "depth", int(1, 32) = 4,
            "Search depth in plies; unfinished positions there are evaluated (f1 for the searcher, f2 for the model)"
        },
        /// The opponent's evaluation.
        pub model: Model => {
            "model", choice = Model::F2,
            "The opponent's evaluation: f2 (the game's second evaluation, a tree's eval2=) or f1; equal to `eval` it is plain minimax"
        },
        /// The searcher's own evaluation.
        pub own: Model => {
            "eval", choice = Model::F1,
            "The searcher's own evaluation: f1 (the game's evaluation, a tree's eval=) or f2 (to play the modelled opponent)"
        },
        /// Contempt factor: a draw is worth −`contempt` to the searcher.
        pub contempt: i32 => {
            "contempt", int(-10_000, 10_000) = 0,
            "Contempt factor c: a draw is worth −c to the searcher (c > 0 avoids draws, c < 0 seeks them)"
        },
        /// Whether the opponent-model cut-off is on.
        pub prune: bool => {
            "prune", flag = true,
            "Opponent-model cut-off: a MAX node stops once the opponent would not pick it (same result, fewer nodes)"
        },
    }
    extra {
        /// Nodes kept for the viewers.
        pub record_limit: usize = 200_000,
    }
}

/// Registry constructor.
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let opts = OmOptions::from_params(&setup.params)?;
    let p = &setup.position;
    if !p.has_evaluation() {
        return Err(SearchError::unsupported(format!(
            "it needs a static evaluation, which {} does not have",
            p.kind()
        )));
    }
    let has_model = crate::with_position!(p, g => g.evaluate_model().is_some());
    if (opts.model == Model::F2 || opts.own == Model::F2) && !has_model {
        return Err(SearchError::unsupported(format!(
            "with f2 it needs a second evaluation, which {} does not have (use model = f1, eval = f1)",
            p.kind()
        )));
    }
    let max = setup.root_question().attacker;
    let question = setup.question;
    Ok(crate::with_position!(p, g => {
        Box::new(Om::new(Engine::new(g.clone(), max, opts), question)) as Box<dyn Search>
    }))
}

/// The opponent-model search as a [`Search`].
#[derive(Clone)]
pub struct Om<G: Game> {
    engine: Engine<G>,
    question: QuestionKind,
    status: Status,
}

impl<G: Game> Om<G> {
    /// Wraps an engine; `question` decides the final status.
    pub fn new(engine: Engine<G>, question: QuestionKind) -> Om<G> {
        Om {
            engine,
            question,
            status: Status::Running,
        }
    }

    /// The root's (v, v₂) once known.
    pub fn values(&self) -> Option<(i64, i64)> {
        self.engine.result.map(|(v, v2, _)| (v, v2))
    }

    /// The root child MAX plays, once known.
    pub fn best_child(&self) -> Option<u32> {
        self.engine.result.and_then(|r| r.2)
    }

    /// The engine (viewers, tests).
    pub fn engine(&self) -> &Engine<G> {
        &self.engine
    }
}

impl<G: Game> Search for Om<G> {
    crate::search::arena_search::checkpoint_by_clone!();

    fn algo(&self) -> &'static str {
        "om"
    }

    /// One node visit.
    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        self.engine.step();
        if let Some((v, _, _)) = self.engine.result {
            self.status = if self.engine.horizon {
                Status::Unknown(StopReason::DepthLimit)
            } else if match self.question {
                QuestionKind::Win | QuestionKind::Score => v > 0,
                QuestionKind::NotLose => v >= 0,
            } {
                Status::Proved
            } else {
                Status::Disproved
            };
        }
        self.status
    }

    crate::search::arena_search::status_accessors!();

    crate::search::arena_search::counter_accessors!(engine);

    fn value_names(&self) -> &'static [&'static str] {
        view::VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        view::snapshot(self, req)
    }

    fn sample(&self) -> StatsSample {
        let c = &self.engine.counters;
        let (v, v2) = self
            .values()
            .map_or((f64::NAN, f64::NAN), |(a, b)| (a as f64, b as f64));
        StatsSample::of_tree(c, vec![v, v2], self.best_child())
    }

    fn best_move(&self) -> Option<String> {
        legal_move_label(&self.engine.root, self.best_child()?)
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        let (v, v2) = match self.values() {
            Some((a, b)) => (a.into(), b.into()),
            None => (serde_json::Value::Null, serde_json::Value::Null),
        };
        m.insert("value".into(), v);
        m.insert("model_value".into(), v2);
        m.insert("om_cutoffs".into(), self.engine.om_cutoffs.into());
        m
    }
}
