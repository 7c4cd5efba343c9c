//! Searches: the [`Search`] trait every algorithm implements, the counters of
//! docs/algorithms.md §0/§9, budgets and the driver, bounded snapshots, the
//! replay recorder and the registry that builds an algorithm by name.
//!
//! A search is a state machine stepped from outside: [`Search::step`] runs
//! one iteration and returns. It never owns a thread or a clock; the CLI,
//! the tests and the app's worker all drive the same `step()`.

pub mod algorithm;
pub mod alphabeta;
pub mod arena;
mod arena_search;
pub mod chance;
pub mod cns;
pub mod correct_moves;
pub mod deep_pn;
pub mod dfpn;
pub mod driver;
pub mod error_rate;
pub mod logprob;
pub mod mcpn;
pub mod mcts_solver;
pub mod om;
pub mod overview;
pub mod playout;
pub mod playout_pn;
pub mod pn;
pub mod pn_value;
pub mod pns;
pub mod ppn;
pub mod proof;
pub mod recorder;
pub mod reference;
pub mod registry;
pub mod seesaw;
pub mod snapshot;
pub mod sub_search;
#[doc(hidden)]
pub mod test_nodes;
pub mod verdict;
pub mod zones;

/// Parameter descriptions live below the engine layers (games describe
/// their own search options too); this path is kept for the searches.
pub use crate::params;

use crate::game::{AnyPosition, Game, Outcome, Player};

pub use algorithm::Algorithm;
pub use driver::{run, run_sampled, Budget};
pub use params::{ListItem, ParamError, ParamKind, ParamSpec, ParamValue, Params};
pub use registry::{algorithms, build, find_algo, AlgoInfo, DEFAULT_ALGO};
pub use snapshot::{NodeId, Snapshot, ViewRequest};
pub use verdict::{Answer, RunEnd, RunOutcome, UnknownQuestion};

/// Why a search could not be built (the registry's and every build
/// function's error).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// No algorithm has this name.
    #[error("unknown algorithm `{name}`; known algorithms: {known}")]
    UnknownAlgo {
        /// The name given.
        name: String,
        /// Every registered name.
        known: String,
    },
    /// A parameter is unknown, missing or out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The algorithm cannot search this position, and why.
    #[error("`{algo}` cannot search this position: {reason}")]
    Unsupported {
        /// The algorithm (filled in by [`registry::build`]).
        algo: String,
        /// Why not, and what to use instead where there is something.
        reason: String,
    },
}

impl SearchError {
    /// "This algorithm cannot search this position" with the reason; the
    /// registry names the algorithm.
    pub fn unsupported(reason: impl Into<String>) -> SearchError {
        SearchError::Unsupported {
            algo: String::new(),
            reason: reason.into(),
        }
    }
}

/// Why a search stopped without an answer (docs/cli.md `stop_reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The `--max-iterations` budget ran out.
    MaxIterations,
    /// The `--max-nodes` budget ran out.
    MaxNodes,
    /// The wall-clock budget (`--time-limit`) ran out.
    TimeLimit,
    /// The tree or table reached its memory limit.
    Memory,
    /// The user (or the app) asked it to stop.
    Cancelled,
    /// The algorithm ran out of things to do without a proof (e.g. a
    /// Monte-Carlo search whose tree cannot grow further).
    Exhausted,
    /// The search met a repetition (a position whose value depends on the
    /// path, the graph history interaction) that it cannot account for
    /// exactly, and stopped rather than risk a wrong answer.
    Cycles,
    /// A depth-limited search (alpha-beta) finished its deepest iteration
    /// without proving or disproving the question.
    DepthLimit,
    /// The search disproved the question in a game whose attacker moves
    /// were restricted (the relevance-zone searches' top-N attacker
    /// moves), which is not a disproof of the real game.
    RestrictedDisproof,
}

impl StopReason {
    /// The CLI/JSON name.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::MaxIterations => "max-iterations",
            StopReason::MaxNodes => "max-nodes",
            StopReason::TimeLimit => "time-limit",
            StopReason::Memory => "memory",
            StopReason::Cancelled => "cancelled",
            StopReason::Exhausted => "exhausted",
            StopReason::Cycles => "cycles",
            StopReason::DepthLimit => "depth-limit",
            StopReason::RestrictedDisproof => "restricted-disproof",
        }
    }
}

/// Where a search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase", tag = "state", content = "reason")]
pub enum Status {
    /// Still searching: `step()` may change the answer.
    Running,
    /// The attacker's question is answered yes.
    Proved,
    /// The attacker's question is answered no.
    Disproved,
    /// Stopped without an answer, and why.
    Unknown(StopReason),
}

impl Status {
    /// True once `step()` will no longer change the status.
    pub fn is_final(self) -> bool {
        !matches!(self, Status::Running)
    }

    /// What [`Search::stop`] means everywhere: a final status stays,
    /// otherwise the run ends `Unknown(reason)`.
    pub fn stop(&mut self, reason: StopReason) {
        if !self.is_final() {
            *self = Status::Unknown(reason);
        }
    }

    /// docs/cli.md `outcome`.
    pub fn outcome(self) -> RunOutcome {
        RunOutcome::from(self)
    }

    /// docs/cli.md `outcome`, as its word.
    pub fn outcome_name(self) -> &'static str {
        self.outcome().name()
    }

    /// docs/cli.md `stop_reason`, as its word.
    pub fn stop_reason_name(self) -> &'static str {
        RunEnd::from(self).name()
    }
}

/// The counters every algorithm reports (docs/algorithms.md §0, §9), under the
/// same names in the UI, the CLI and the JSON output.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Counters {
    /// Calls of `step()` (docs/algorithms.md §0 says what one iteration is per family).
    pub iterations: u64,
    /// Nodes or table entries created.
    pub nodes_created: u64,
    /// Nodes whose children were generated.
    pub nodes_expanded: u64,
    /// Deepest node reached, in plies from the root.
    pub max_depth: u32,
    /// Changes of the root's selected child (docs/algorithms.md §9).
    pub seesaw_root_switches: u64,
    /// Changes of the selected child at any node of the path (docs/algorithms.md §9).
    pub seesaw_switches: u64,
    /// Iterations that went back into a subtree they had left (docs/algorithms.md §9).
    pub revisits: u64,
    /// Filled by the driver (a search never reads the clock).
    pub time_ms: f64,
    /// Largest memory held by the tree or table so far, in bytes.
    pub peak_tree_bytes: u64,
    /// Nodes currently held (tree nodes or TT entries).
    pub live_nodes: u64,
    /// Monte-Carlo playouts run so far.
    pub playouts: u64,
}

/// A change of the root's selected child (docs/algorithms.md §9).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SwitchEvent {
    /// The iteration at which the selection changed.
    pub iteration: u64,
    /// Index of the previously selected root child.
    pub from: u32,
    /// Index of the newly selected root child.
    pub to: u32,
}

/// The goal of the attacker's question (docs/algorithms.md §0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Goal {
    /// The attacker wins (draws are not wins).
    Win,
    /// The attacker at least draws.
    NotLose,
    /// The attacker's score is at least this value (scored games).
    AtLeast(i32),
}

/// The yes/no question a proof search answers about the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Question {
    /// The player whose question is asked (OR nodes are its moves).
    pub attacker: Player,
    /// What counts as "yes" for the attacker.
    pub goal: Goal,
}

impl Question {
    /// Does a finished game answer the question with yes?
    #[inline]
    pub fn holds(&self, o: Outcome) -> bool {
        let s = o.score_for(self.attacker);
        match self.goal {
            Goal::Win => s > 0,
            Goal::NotLose => s >= 0,
            Goal::AtLeast(v) => s >= v,
        }
    }

    /// The answer in words (docs/cli.md `answer`) for a final status.
    pub fn answer_name(&self, status: Status) -> &'static str {
        Answer::of(self, status).name()
    }
}

/// Which question the user asked (CLI `--question`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuestionKind {
    /// Does the attacker win? (a draw is a "no")
    #[default]
    Win,
    /// Does the attacker at least draw?
    NotLose,
    /// What is the exact score for the side to move (Connect Four:
    /// Pons's score; Othello: the final disc difference)? Answered by a
    /// search over win-by-at-least-k questions
    /// ([`dfpn::fast::score`]); the run ends proved when the side to
    /// move wins (score ≥ 1), disproved otherwise.
    Score,
}

/// Everything needed to build a search.
#[derive(Clone, Debug)]
pub struct SearchSetup {
    /// The root position.
    pub position: AnyPosition,
    /// Algorithm parameters, already checked against the algorithm's specs.
    pub params: Params,
    /// Seed of every random choice, so a run is reproducible.
    pub seed: u64,
    /// The question asked at the root.
    pub question: QuestionKind,
    /// Memory budget for the search's tree or table, in bytes.
    pub memory_limit_bytes: Option<u64>,
}

impl SearchSetup {
    /// A setup for algorithm `algo` on `position`: its parameters (and
    /// the game's search options) from the `NAME=VALUE` pairs, defaults
    /// otherwise; seed 0, the question `win`, no memory limit (callers
    /// change the fields they need).
    pub fn new(
        algo: &str,
        position: AnyPosition,
        pairs: &[(&str, &str)],
    ) -> Result<SearchSetup, SearchError> {
        let params = find_algo(algo)?.params_from_pairs(position.kind(), pairs)?;
        Ok(SearchSetup {
            position,
            params,
            seed: 0,
            question: QuestionKind::Win,
            memory_limit_bytes: None,
        })
    }

    /// The question asked at the root (attacker = the position's default
    /// attacker, normally the side to move).
    pub fn root_question(&self) -> Question {
        Question {
            attacker: self.position.default_attacker(),
            goal: match self.question {
                // The score search asks its own thresholds; the root's
                // question is the win.
                QuestionKind::Win | QuestionKind::Score => Goal::Win,
                QuestionKind::NotLose => Goal::NotLose,
            },
        }
    }
}

/// One row of the live curves, taken after an iteration.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct StatsSample {
    /// Iteration after which the row was taken.
    pub iteration: u64,
    /// Nodes so far, the x axis of most curves: created (tree searches) or held (table searches).
    pub nodes: u64,
    /// Deepest node so far, in plies.
    pub max_depth: u32,
    /// Cumulative root switches (docs/algorithms.md §9).
    pub seesaw_root_switches: u64,
    /// Cumulative switches at any node (docs/algorithms.md §9).
    pub seesaw_switches: u64,
    /// Cumulative revisits (docs/algorithms.md §9).
    pub revisits: u64,
    /// The root's values, named by [`Search::value_names`] (∞ for INF).
    pub root_values: Vec<f64>,
    /// Index of the root child the algorithm currently names as best.
    pub best_child: Option<u32>,
    /// Conspiracy-number searches: the root's search interval
    /// [v_min, v_max] in value units (the app's interval curve).
    pub interval: Option<[f64; 2]>,
}

impl StatsSample {
    /// The sample of a search that keeps a tree: `nodes` counts the nodes
    /// created, and a tree node is never revisited, so `revisits` is 0.
    pub fn of_tree(c: &Counters, root_values: Vec<f64>, best_child: Option<u32>) -> StatsSample {
        StatsSample {
            nodes: c.nodes_created,
            revisits: 0,
            ..StatsSample::of_table(c, root_values, best_child)
        }
    }

    /// The sample of a search that keeps a transposition table: `nodes`
    /// counts the entries it holds, and `revisits` the re-expansions of
    /// positions whose entry was lost (docs/algorithms.md §9).
    pub fn of_table(c: &Counters, root_values: Vec<f64>, best_child: Option<u32>) -> StatsSample {
        StatsSample {
            iteration: c.iterations,
            nodes: c.live_nodes,
            max_depth: c.max_depth,
            seesaw_root_switches: c.seesaw_root_switches,
            seesaw_switches: c.seesaw_switches,
            revisits: c.revisits,
            root_values,
            best_child,
            interval: None,
        }
    }
}

/// The `k`-th legal move of `position` in notation: the move a search
/// names by its index among the root's children (`None` past the last).
pub fn legal_move_label<G: Game>(position: &G, k: u32) -> Option<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.get(k as usize).map(|&m| position.format_move(m))
}

/// A proof-family search, stepped from outside.
pub trait Search: Send {
    /// The registry name (`pns`, `deep-pn`, …).
    fn algo(&self) -> &'static str;
    /// Runs one iteration (docs/algorithms.md §0). After a final status further
    /// calls return it unchanged.
    fn step(&mut self) -> Status;
    /// The current status (the last `step()`'s answer).
    fn status(&self) -> Status;
    /// Ends the run with `Unknown(reason)` (budgets, cancellation).
    fn stop(&mut self, reason: StopReason);
    /// The counters so far.
    fn counters(&self) -> &Counters;
    /// Mutable counters, for the driver to fill in `time_ms`.
    fn counters_mut(&mut self) -> &mut Counters;
    /// Root switch events so far (none in a search that records no
    /// seesaw: chance nodes, OM, alpha-beta).
    fn switch_events(&self) -> &[SwitchEvent] {
        &[]
    }
    /// Names of the per-node values this algorithm shows.
    fn value_names(&self) -> &'static [&'static str];
    /// A bounded picture of the tree.
    fn snapshot(&self, req: &ViewRequest) -> Snapshot;
    /// A sample for the live curves.
    fn sample(&self) -> StatsSample;
    /// The root move the algorithm currently names as best, in notation.
    fn best_move(&self) -> Option<String>;
    /// What the search has established about the node reached from the
    /// root by `path` (child indices in the game's legal-move order), whose
    /// position hashes to `hash`: `Some(true)` when it proved the
    /// attacker's question there, `Some(false)` when it disproved it,
    /// `None` when it holds nothing solved for it (tree searches read the
    /// path, table searches the hash). The proof-certificate writer follows
    /// these answers; a search that keeps nothing returns `None` and the
    /// writer solves the positions itself.
    fn solved_at(&self, _path: &[u32], _hash: u64) -> Option<bool> {
        None
    }

    /// Algorithm-specific JSON fields (e.g. `value` for `pn-value`).
    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }

    /// A complete copy of the search as it stands, which steps on exactly
    /// as this one would (the app's time-travel checkpoints,
    /// `search::recorder`). `None` where a search cannot be copied: the
    /// recorder then replays it from the start.
    fn checkpoint(&self) -> Option<Box<dyn Search>> {
        None
    }
}

/// Searches for unit tests (public, hidden from the docs, because the
/// tests that use them live in several crates).
#[doc(hidden)]
pub mod test_support {
    use super::{registry, Search, SearchSetup};
    use crate::game::tictactoe::TicTacToe;
    use crate::game::AnyPosition;

    /// `algo` with parameters `pairs` (defaults otherwise) on the empty
    /// tic-tac-toe board, seed 0 (the default seed everywhere), asking whether the first player wins.
    pub fn on_empty_tictactoe(algo: &str, pairs: &[(&str, &str)]) -> Box<dyn Search> {
        let position = AnyPosition::TicTacToe(TicTacToe::new());
        let setup = SearchSetup::new(algo, position, pairs).unwrap();
        registry::build(algo, &setup).unwrap()
    }

    /// Checks a solver's answers (`solve`) on `g` against the exhaustive
    /// reference for every question about one of `goals`, for either
    /// attacker, goal by goal; `what` names the position in a failure.
    pub fn agrees_with_reference<G: crate::game::Game>(
        g: &G,
        goals: &[super::Goal],
        what: &str,
        mut solve: impl FnMut(&super::Question) -> bool,
    ) {
        let attackers = [crate::game::Player::First, crate::game::Player::Second];
        for &goal in goals {
            for attacker in attackers {
                let q = super::Question { attacker, goal };
                let expected = super::reference::answer(g, &q);
                assert_eq!(solve(&q), expected, "{what} {q:?}");
            }
        }
    }
}
