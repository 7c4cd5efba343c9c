//! Searches with chance nodes (lecture notes, after Ballard 1983):
//! `expectimax` (no pruning, the reference), `star1` (alpha-beta at MAX
//! and MIN nodes and the chance-node cut-offs I and II) and `star2`
//! (Star1 after probing one move below each outcome). The recursion is in
//! [`engine`]; [`record`] keeps what the viewers show; [`view`] builds the
//! snapshots and the inspector's text.
//!
//! Values are from the attacker's point of view (a tree's OR player, else
//! the side to move at the root), and every final score lies in the score
//! range [L, U] (parameters `L` and `U`; `auto` takes the range from the
//! game, or from a tree's leaves). A value search has no yes/no answer of
//! its own; like `pn-value`, the run ends `proved` when the value answers
//! the question with yes (expected score > 0 for `win`, ≥ 0 for
//! `not-lose`), else `disproved`, and reports the value itself in the JSON
//! field `value` with `nodes_visited`, `cutoffs_1`, `cutoffs_2` and
//! `probe_nodes`. One [`Search::step`] enters one node; `iterations`
//! counts the calls of `step()` like every other search (the first one
//! enters the root and its first child, so `nodes_visited` can run ahead).

pub mod engine;
pub mod record;
mod view;

use crate::game::{Game, Player};

use super::snapshot::{Snapshot, ViewRequest};
use super::{
    legal_move_label, Counters, QuestionKind, Search, SearchError, SearchSetup, StatsSample, Status,
};

pub use engine::{ChanceCounters, Engine, Variant};

crate::options! {
    /// The score range [L, U] of the chance searches (`auto`: from the game).
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct ChanceOptions {
        /// L, or `None` for auto.
        pub low: Option<f64> => {
            "L", real_or_auto(-1e12, 1e12),
            "Least possible final score (attacker's view); auto = from the game or the tree's leaves; must not exceed any score"
        },
        /// U, or `None` for auto.
        pub high: Option<f64> => {
            "U", real_or_auto(-1e12, 1e12),
            "Greatest possible final score (attacker's view); auto = from the game or the tree's leaves; must not be below any score"
        },
    }
}

/// The default budget for the record when the setup gives none: 64 MiB.
pub const DEFAULT_RECORD_BYTES: u64 = 64 << 20;

/// Registry constructor for `expectimax`.
pub fn build_expectimax(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    build(setup, Variant::Expectimax)
}

/// Registry constructor for `star1`.
pub fn build_star1(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    build(setup, Variant::Star1)
}

/// Registry constructor for `star2`.
pub fn build_star2(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    build(setup, Variant::Star2)
}

/// The score range [L, U] from the attacker's view: the game's range,
/// narrowed or widened by the parameters (a given L must not exceed the
/// game's least score, a given U must not be below its greatest).
pub fn score_range<G: Game>(
    g: &G,
    attacker: Player,
    l: Option<f64>,
    u: Option<f64>,
) -> Result<(f64, f64), SearchError> {
    let game = g.score_range().map(|(lo, hi)| match attacker {
        Player::First => (lo, hi),
        Player::Second => (-hi, -lo),
    });
    let (lo, hi) = match (game, l, u) {
        (Some((glo, ghi)), l, u) => {
            let lo = l.unwrap_or(glo);
            let hi = u.unwrap_or(ghi);
            if lo > glo {
                return Err(SearchError::unsupported(format!("L = {lo} is above the least score this position can end with ({glo}): the searches would prune wrongly")));
            }
            if hi < ghi {
                return Err(SearchError::unsupported(format!("U = {hi} is below the greatest score this position can end with ({ghi}): the searches would prune wrongly")));
            }
            (lo, hi)
        }
        (None, Some(lo), Some(hi)) => (lo, hi),
        (None, _, _) => {
            return Err(SearchError::unsupported(
                "this game does not give its score range: set both L and U",
            ))
        }
    };
    if lo > hi {
        return Err(SearchError::unsupported(format!(
            "L = {lo} is greater than U = {hi}"
        )));
    }
    Ok((lo, hi))
}

fn build(setup: &SearchSetup, variant: Variant) -> Result<Box<dyn Search>, SearchError> {
    let ChanceOptions { low: l, high: u } = ChanceOptions::from_params(&setup.params)?;
    let attacker = setup.root_question().attacker;
    let record_bytes = setup.memory_limit_bytes.unwrap_or(DEFAULT_RECORD_BYTES);
    let question = setup.question;
    crate::with_position!(&setup.position, g => {
        let range = score_range(g, attacker, l, u)?;
        let cap = (record_bytes / view::record_bytes::<_>(g)).max(1) as usize;
        Ok(Box::new(ChanceSearch::new(variant, g.clone(), attacker, range, question, cap)) as Box<dyn Search>)
    })
}

/// A chance search on a game `G`, stepped from outside.
#[derive(Clone)]
pub struct ChanceSearch<G: Game> {
    engine: Engine<G>,
    root: G,
    question: QuestionKind,
    status: Status,
    counters: Counters,
}

impl<G: Game> ChanceSearch<G> {
    /// A `variant` search of `root` with scores in `range` from
    /// `attacker`'s view, recording at most `max_records` nodes.
    pub fn new(
        variant: Variant,
        root: G,
        attacker: Player,
        range: (f64, f64),
        question: QuestionKind,
        max_records: usize,
    ) -> ChanceSearch<G> {
        let engine = Engine::new(variant, root.clone(), attacker, range, max_records);
        let mut s = ChanceSearch {
            engine,
            root,
            question,
            status: Status::Running,
            counters: Counters::default(),
        };
        s.sync();
        s
    }

    /// The root's value once known (attacker's view).
    pub fn value(&self) -> Option<f64> {
        self.engine.value
    }

    /// The engine (tests, viewers).
    pub fn engine(&self) -> &Engine<G> {
        &self.engine
    }

    /// Counters and status from the engine.
    fn sync(&mut self) {
        let c = &mut self.counters;
        let e = &self.engine;
        // Created: every recorded node (a node's children are recorded
        // when it is expanded, before they are entered) and every node
        // entered without a record. Re-entering a node creates nothing;
        // `nodes_visited` (JSON) counts the entries.
        c.nodes_created = e.records.recs.len() as u64 + e.counts.unrecorded;
        c.nodes_expanded = e.counts.expanded;
        c.max_depth = e.max_depth;
        c.live_nodes = e.records.recs.len() as u64;
        c.peak_tree_bytes = c.peak_tree_bytes.max(e.records.bytes());
        if self.status == Status::Running {
            if let Some(v) = e.value {
                let yes = match self.question {
                    QuestionKind::Win | QuestionKind::Score => v > 0.0,
                    QuestionKind::NotLose => v >= 0.0,
                };
                self.status = if yes {
                    Status::Proved
                } else {
                    Status::Disproved
                };
            }
        }
    }
}

impl<G: Game> Search for ChanceSearch<G> {
    crate::search::arena_search::checkpoint_by_clone!();

    fn algo(&self) -> &'static str {
        self.engine.variant.name()
    }

    /// Enters one node (docs/algorithms.md §0 for depth-first searches).
    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        self.engine.step();
        self.counters.iterations += 1;
        self.sync();
        self.status
    }

    crate::search::arena_search::status_accessors!();

    crate::search::arena_search::counter_accessors!();

    fn value_names(&self) -> &'static [&'static str] {
        view::VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        view::snapshot(self, req)
    }

    fn sample(&self) -> StatsSample {
        // No root switches are recorded here, so the seesaw counters stay 0.
        StatsSample::of_tree(&self.counters, view::root_values(self), self.best_child())
    }

    fn best_move(&self) -> Option<String> {
        legal_move_label(&self.root, self.best_child()?)
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let e = &self.engine;
        let mut m = serde_json::Map::new();
        let value = e
            .value
            .map_or(serde_json::Value::Null, serde_json::Value::from);
        m.insert("value".into(), value);
        m.insert("nodes_visited".into(), e.counts.nodes_visited.into());
        m.insert("cutoffs_1".into(), e.counts.cutoffs_1.into());
        m.insert("cutoffs_2".into(), e.counts.cutoffs_2.into());
        m.insert("probe_nodes".into(), e.counts.probe_nodes.into());
        m.insert("probes_reused".into(), e.counts.probes_reused.into());
        m.insert("ab_cutoffs".into(), e.counts.ab_cutoffs.into());
        m.insert("L".into(), e.low.into());
        m.insert("U".into(), e.high.into());
        m
    }
}

impl<G: Game> ChanceSearch<G> {
    /// The root child the search names as best: the MAX (MIN) root's
    /// child with the highest (lowest) value so far; none at a chance
    /// root.
    pub fn best_child(&self) -> Option<u32> {
        if self.engine.value.is_some() {
            return self.engine.best_child;
        }
        self.engine.stack.first().and_then(|f| f.best_child)
    }
}
