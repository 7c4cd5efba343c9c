//! Depth-limited alpha-beta with the single conspiracy number (SCN) of the
//! root, per depth of iterative deepening (Song & Iida 2017, 2018; Zhang's
//! 2019 thesis, chapter 4).
//!
//! # The search
//!
//! Iterative deepening d = 1, 2, …, `depth`: each depth is a fresh
//! fail-hard alpha-beta from the window (−∞, +∞), children in the game's
//! move order (or tactical moves first, `order = captures-first`), no
//! transposition table, no principal-variation search, no null move and no
//! aspiration window: those prune so much that the SCN degenerates to 1.
//! Values are from the root player's view: MAX is the side to move at the
//! root (in a hand-written tree MAX is always the OR player, whatever the
//! root's kind). Finished games take their terminal value (±10000 or 0,
//! see [`crate::game::eval`]), unfinished leaves at the depth limit their
//! static evaluation. A MAX node stops searching its children when its
//! value reaches β, a MIN node when it falls to α; with `prune = false`
//! every node is searched with (−∞, +∞), i.e. full-width minimax.
//!
//! # The single conspiracy number for a threshold T
//!
//! SCN counts how many leaves must change for MAX to reach a value ≥ T,
//! over the nodes the alpha-beta touches:
//! - a finished game (also at the depth limit): 0 if its value ≥ T, else
//!   ∞ (a finished game cannot change);
//! - an unfinished leaf at the depth limit: 0 if its evaluation ≥ T, else 1;
//! - a child that alpha-beta never searches because of a cut-off counts as
//!   a leaf with its own static evaluation (finished children 0 / ∞);
//! - a MAX node: the minimum over its children; a MIN node: the sum
//!   (saturating at ∞).
//!
//! With `prune = false` this is exactly the proof function p_root(T) of
//! conspiracy-number search (McAllester 1988) on the depth-limited tree.
//!
//! # Stepping
//!
//! The recursion lives on an explicit stack of frames, so one
//! [`Search::step`](crate::search::Search::step) visits exactly one node
//! (the root of a new depth, or the next child of the deepest open node),
//! then closes the frames that have finished. Each finished depth adds a
//! [`CurvePoint`] (depth, value, scn, nodes): the two curves of a position,
//! value against depth and SCN against depth. Once a depth searches the
//! whole game tree (no leaf at the depth limit), deeper searches would
//! repeat it node for node, so their points are copied; the curve always
//! has `depth` points.
//!
//! The run ends `proved`/`disproved` when the value is exact (the last
//! depth reached no horizon leaf) or beyond ±10000 (a forced win or loss
//! found inside the horizon), else `unknown` with stop reason
//! `depth-limit`.

mod engine;
pub mod rscn;
pub mod sequence;
mod trace;
mod view;

pub use engine::AlphaBeta;

use crate::game::eval::WIN;
use crate::with_position;

use super::pn::Pn;
use super::{Search, SearchError, SearchSetup};

/// Largest depth the `depth` parameter accepts.
pub const MAX_DEPTH: u32 = 64;

/// The per-node values a viewer shows, in this order.
///
/// `eval` is the static evaluation of a leaf at the depth limit or of a
/// cut-off child; `cut-off` is 1 for a child that was never searched.
pub const VALUE_NAMES: &[&str] = &["value", "α", "β", "scn", "eval", "cut-off"];

crate::choice_enum! {
    /// Move ordering at every node.
    #[derive(serde::Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum MoveOrder {
        /// The game's deterministic move order.
        Game = "game",
        /// Tactical moves ([`crate::game::Game::is_tactical`]) first, each
        /// group in the game's order.
        CapturesFirst = "captures-first",
    }
}

/// Nodes of the current depth's tree kept for the tree view when the
/// search is built from the registry (the CLI and the app).
pub const DEFAULT_RECORD_LIMIT: usize = 100_000;

crate::options! {
    /// Everything that shapes one alpha-beta run (its parameters described
    /// once; the CLI, the app and the JSON read them).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct AlphaBetaOptions {
        /// The SCN threshold T (root player's view).
        pub threshold: i32 => {
            "T", int(-(WIN as i64) * 10, WIN as i64 * 10) = 600,
            "SCN threshold: how many leaves must change for the root player to reach a value ≥ T (±10000 is a won game)"
        },
        /// The deepest iteration.
        pub max_depth: u32 => {
            "depth", int(1, MAX_DEPTH) = 6,
            "Deepest iteration of iterative deepening (plies); the curves have this many points"
        },
        /// Alpha-beta cut-offs (false: full-width minimax).
        pub prune: bool => {
            "prune", flag = true,
            "true: alpha-beta cut-offs; false: full-width minimax (SCN = the CNS proof function)"
        },
        /// Move ordering.
        pub order: MoveOrder => {
            "order", choice = MoveOrder::Game,
            "Move order: the game's own, or tactical moves (captures, wins and blocks, corners) first"
        },
    }
    extra {
        /// How many nodes of the current depth's tree to keep for viewers
        /// (0 keeps none: the fastest, for experiments and benchmarks).
        pub record_limit: usize = DEFAULT_RECORD_LIMIT,
    }
}

/// One completed depth of iterative deepening: a point of the value and
/// SCN curves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CurvePoint {
    /// The depth limit (plies).
    pub depth: u32,
    /// The root's minimax value at this depth (root player's view).
    pub value: i32,
    /// The root's SCN for the threshold T; `None` is ∞.
    #[serde(serialize_with = "serialize_scn")]
    pub scn: Pn,
    /// Nodes visited by this depth's search.
    pub nodes: u64,
    /// The best root move at this depth, in notation.
    pub best_move: Option<String>,
    /// The principal variation, in notation.
    pub pv: Vec<String>,
    /// True when this depth searched the whole game tree (no leaf at the
    /// depth limit): the value is the exact game value.
    pub exact: bool,
}

/// `null` for ∞, else the number (the JSON of the curves).
fn serialize_scn<S: serde::Serializer>(scn: &Pn, s: S) -> Result<S::Ok, S::Error> {
    if *scn == super::pn::INF {
        s.serialize_none()
    } else {
        s.serialize_u32(*scn)
    }
}

/// Registry constructor.
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let opts = AlphaBetaOptions::from_params(&setup.params)?;
    if !setup.position.has_evaluation() {
        return Err(SearchError::unsupported(format!(
            "it needs a static evaluation, which {} does not have",
            setup.position.kind()
        )));
    }
    let max = setup.root_question().attacker;
    let question = setup.question;
    Ok(with_position!(&setup.position, g => {
        Box::new(AlphaBeta::new(g.clone(), max, question, opts)) as Box<dyn Search>
    }))
}
