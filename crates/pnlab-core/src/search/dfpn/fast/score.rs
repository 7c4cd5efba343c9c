//! The score question (`--question score`): the exact score of the root
//! for the side to move, found by `dfpn-fast` asking "is the score at
//! least t?" for a sequence of thresholds t over one transposition table.
//!
//! Scores: Othello's final disc difference (empty squares to the winner,
//! so every score is even), Connect Four's Pascal Pons score
//! ([`super::connect4_score`]). The search keeps a bracket [low, high]
//! known to hold the score (at first the game's whole range) and asks:
//!
//! 1. the win, t = 1 (on Othello t = 2, the same question as scores are
//!    even): the question df-pn is quickest at, and it halves the range;
//! 2. if the win is disproved, t = 0 (the draw);
//! 3. then bisection: t = the upper middle of the bracket (on Othello an
//!    even one); a proof raises `low` to t, a disproof lowers `high`
//!    below it, until low = high.
//!
//! Between the questions the fast df-pn keeps its table ([`FastDfpn::
//! retarget`]): the proofs and disproofs that still answer the next
//! question stay, and so do the frontier solvers' tables of score bounds,
//! which hold whatever the threshold. One [`Search::step`] is one step of
//! the df-pn under way; when it settles its question the bracket narrows
//! and the next question starts in the same step. The counters are totals
//! over the questions. The run ends proved when the side to move wins
//! (score ≥ 1), disproved otherwise; the score is in the JSON's `score`.

use serde_json::json;

use crate::game::{AnyPosition, Game};
use crate::search::seesaw::RootSwitches;
use crate::search::snapshot::{Snapshot, ViewRequest};
use crate::search::{
    Counters, Goal, Question, Search, SearchError, SearchSetup, StatsSample, Status, StopReason,
};

use super::connect4_score::Connect4ScoreRules;
use super::rules::{OthelloRules, Rules};
use super::{FastDfpn, FastOptions};

pub use super::retarget::threshold as attacker_threshold;

/// One question settled on the way (its iterations are MID calls).
pub use crate::search::sub_search::SubSearch as Probe;

/// The score search of a position (see [`build`]).
pub fn build(setup: &SearchSetup, opts: FastOptions) -> Result<Box<dyn Search>, SearchError> {
    let q = setup.root_question();
    match &setup.position {
        AnyPosition::Othello(g) => {
            let rules = OthelloRules::new(opts.leaf_empties);
            let dfpn = FastDfpn::new("dfpn-fast", *g, q, opts, rules);
            Ok(Box::new(ScoreSearch::new(dfpn, (-64, 64), 2)))
        }
        AnyPosition::Connect4(g) => {
            let (opts, c4) = opts.split_for_connect4();
            let rules = Connect4ScoreRules::new(c4);
            let dfpn = FastDfpn::new("dfpn-fast", *g, q, opts, rules);
            // What the stones allow: from a win with the next stone,
            // ⌊(43 − n)/2⌋ with n stones on the board, down to a loss to
            // the opponent's next one, −⌊(42 − n)/2⌋, narrower when
            // neither can happen.
            let range = super::connect4_score_leaf::score_range(g);
            Ok(Box::new(ScoreSearch::new(dfpn, range, 1)))
        }
        other => Err(SearchError::unsupported(format!(
            "the score question needs a game with scores (connect4: Pons's score; othello: the disc difference), not {}",
            other.kind().name()
        ))),
    }
}

/// The score search over a fast df-pn on game `G` with rules `R`.
pub struct ScoreSearch<G: Game, R: Rules<G>> {
    dfpn: FastDfpn<G, R>,
    /// Scores are multiples of this (2 on Othello).
    unit: i32,
    /// The score is known to be ≥ low and ≤ high.
    low: i32,
    high: i32,
    /// The threshold of the question under way.
    target: i32,
    score: Option<i32>,
    probes: Vec<Probe>,
    /// Totals of the settled questions.
    base: Counters,
    counters: Counters,
    root_switches: RootSwitches,
    /// The root move that secures `low` (named by the last proof).
    best_at_low: Option<String>,
    status: Status,
}

impl<G: Game, R: Rules<G>> ScoreSearch<G, R> {
    /// A score search with `dfpn` (built for the win question of the side
    /// to move), scores within `range` in steps of `unit`.
    pub fn new(dfpn: FastDfpn<G, R>, range: (i32, i32), unit: i32) -> ScoreSearch<G, R> {
        let mut s = ScoreSearch {
            dfpn,
            unit,
            low: range.0,
            high: range.1,
            target: unit,
            score: None,
            probes: Vec::new(),
            base: Counters::default(),
            counters: Counters::default(),
            root_switches: RootSwitches::default(),
            best_at_low: None,
            status: Status::Running,
        };
        let attacker = s.dfpn.question.attacker;
        let root = s.dfpn.root.clone();
        if let Err(o) = s.dfpn.engine.rules.inspect(&root) {
            // Finished, or settled by the game's rules: the score is known.
            s.counters.nodes_created = 1;
            s.finish(o.score_for(attacker));
        } else {
            s.ask(unit);
        }
        s
    }

    /// The exact score once known.
    pub fn score(&self) -> Option<i32> {
        self.score
    }

    /// The questions settled so far, in order.
    pub fn probes(&self) -> &[Probe] {
        &self.probes
    }

    /// The bracket [low, high] known to hold the score.
    pub fn bracket(&self) -> (i32, i32) {
        (self.low, self.high)
    }

    fn ask(&mut self, t: i32) {
        self.target = t;
        let q = Question {
            attacker: self.dfpn.question.attacker,
            goal: Goal::AtLeast(t),
        };
        self.dfpn.retarget(q);
    }

    fn finish(&mut self, v: i32) {
        self.low = v;
        self.high = v;
        self.score = Some(v);
        self.status = if v >= 1 {
            Status::Proved
        } else {
            Status::Disproved
        };
    }

    /// The next threshold after the bracket changed, or `None` once it
    /// has closed.
    fn next_target(&self, last: i32) -> Option<i32> {
        if self.low >= self.high {
            return None;
        }
        if last == self.unit && self.high < self.unit && self.low < 0 {
            // Not a win: is it a draw?
            return Some(0);
        }
        let steps = (self.high - self.low) / self.unit;
        Some(self.low + self.unit * ((steps + 1) / 2))
    }

    fn sync_counters(&mut self) {
        let time_ms = self.counters.time_ms;
        let s = self.dfpn.counters();
        let mut c = self.base.clone();
        c.iterations += s.iterations;
        c.nodes_created += s.nodes_created;
        c.nodes_expanded += s.nodes_expanded;
        c.revisits += s.revisits;
        c.max_depth = c.max_depth.max(s.max_depth);
        c.peak_tree_bytes = c.peak_tree_bytes.max(s.peak_tree_bytes);
        c.live_nodes = s.live_nodes;
        c.time_ms = time_ms;
        self.counters = c;
    }
}

impl<G: Game, R: Rules<G>> Search for ScoreSearch<G, R> {
    fn algo(&self) -> &'static str {
        self.dfpn.name
    }

    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        let st = self.dfpn.step();
        self.sync_counters();
        let Some(proved) = crate::search::sub_search::answer(st, &mut self.status) else {
            return self.status;
        };
        let t = self.target;
        let iterations = self.dfpn.counters().iterations;
        self.probes.push(Probe::new(t, proved, iterations));
        if proved {
            self.low = self.low.max(t);
            self.best_at_low = self.dfpn.best_move();
        } else {
            self.high = self.high.min(t - self.unit);
        }
        self.base = Counters {
            time_ms: 0.0,
            ..self.counters.clone()
        };
        match self.next_target(t) {
            Some(next) => self.ask(next),
            None => self.finish(self.low),
        }
        self.status
    }

    crate::search::arena_search::run_state_accessors!(no_stop;);

    fn stop(&mut self, reason: StopReason) {
        if !self.status.is_final() {
            self.dfpn.stop(reason);
            self.status = Status::Unknown(reason);
        }
    }

    fn value_names(&self) -> &'static [&'static str] {
        self.dfpn.value_names()
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let mut snap = self.dfpn.snapshot(req);
        let mut extras = vec![
            (
                "bracket".to_string(),
                format!("[{}, {}]", self.low, self.high),
            ),
            (
                "score".into(),
                self.score.map_or("unknown".into(), |v| v.to_string()),
            ),
            ("target".into(), format!("score ≥ {}", self.target)),
            ("questions settled".into(), self.probes.len().to_string()),
        ];
        extras.append(&mut snap.extras);
        snap.extras = extras;
        snap.status = self.status;
        snap.counters = self.counters.clone();
        snap
    }

    fn sample(&self) -> StatsSample {
        let mut s = self.dfpn.sample();
        s.iteration = self.counters.iterations;
        s.max_depth = self.counters.max_depth;
        s.revisits = self.counters.revisits;
        s
    }

    fn best_move(&self) -> Option<String> {
        let value_known = self.score.is_some();
        crate::search::sub_search::named_move(value_known, &self.best_at_low, || {
            self.dfpn.best_move()
        })
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = self.dfpn.extra_json();
        m.insert("score".into(), self.score.map_or(json!(null), |v| json!(v)));
        m.insert("score_low".into(), json!(self.low));
        m.insert("score_high".into(), json!(self.high));
        m.insert(
            "score_questions".into(),
            serde_json::to_value(&self.probes).unwrap_or_default(),
        );
        m
    }
}
