//! `dfpn-fast` and parallel df-pn: one df-pn engine over a shared,
//! lock-free transposition table ([`table`]), run by one or more threads
//! ([`worker`]), with the usual endgame-solver techniques as options:
//!
//! - `init = mobility`: df-pn+ style heuristic initialisation (Nagai
//!   2002): an unknown node counts (1, m) where the attacker moves and
//!   (m, 1) where the defender moves, m its number of legal moves, instead
//!   of (1, 1);
//! - `order = fastest`: children sorted by those numbers (fewest replies
//!   first) and a static square preference, so ties go the likelier way;
//! - `leaf_empties = N` (Othello): nodes with at most N empty squares are
//!   answered by an exact bitboard alpha-beta ([`othello_leaf`]) instead
//!   of being expanded;
//! - `eps`: the 1+ε trick (Pawlewicz & Lew 2007), 0 = off;
//! - a bucketed table of 16-byte entries replacing the least work
//!   ([`table`]) in place of the plain df-pn's hash map;
//! - `threads = T`: T threads share the table, each running MID from the
//!   root: a main thread that runs the sequential search and takes the
//!   helpers' proofs from the table, and T − 1 helpers steered apart by
//!   Kaneko's (2010) virtual proof numbers ([`worker`]).
//!
//! Every option keeps the answer exact; the plain `dfpn`, `dfpn-eps` and
//! `deep-dfpn` stay as they are (the experiments' algorithms) and never
//! use this engine (their threads are [`super::team`]).
//!
//! Stepping: with one thread, [`Search::step`] is one MID call, as in the
//! plain df-pn. With T > 1 threads a step is a round: the main thread
//! runs MID calls for [`ROUND_TIME`] (at most [`CALLS_PER_STEP`]) while
//! the helpers run until it is done (scoped threads that end with the
//! step, so the search is still paused between steps and owns no thread);
//! `iterations` then grows by up to [`CALLS_PER_STEP`] plus the helpers'
//! calls (at most [`HELPER_CALLS_CAP`] each) per step, and budgets are
//! checked at that grain. Helpers run at the system's idle priority
//! ([`helper_priority`]): they use a core nothing else wants, so on a
//! busy machine a parallel search is not slower than the sequential one. Runs with one thread are
//! deterministic; with several, the answer is (it is the game's), the
//! counters and the tree are not.

pub mod connect4_leaf;
pub mod connect4_rules;
pub mod connect4_score;
pub mod connect4_score_leaf;
pub(crate) mod helper_priority;
pub mod hex_rules;
pub mod othello_leaf;
mod pages;
mod retarget;
pub mod root_move;
pub mod rules;
pub mod score;
pub mod table;
mod view;
pub mod worker;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{AnyPosition, Game, GameKind};
use crate::search::params::{ParamSpec, Params};
use crate::search::pn::Pn;
use crate::search::seesaw::RootSwitches;
use crate::search::{Counters, Question, Search, SearchError, SearchSetup, Status, StopReason};

use super::mid::{solved, DfpnOptions};
use connect4_rules::{Connect4Options, Connect4Rules};
use hex_rules::{HexOptions, HexRules};
use root_move::RootMoveWork;
use rules::{AnyRules, OthelloRules, Rules};
use table::FastTable;
use worker::{Init, Shared, Worker};

/// How long the main thread runs MID calls in one round of a parallel
/// search. Every round spawns the helpers and ends by joining them, and a
/// helper must be scheduled to see that the round is over: rounds of a
/// thousand short calls (a millisecond) spent much of their time starting
/// and waiting for threads, so the two threads ran one after the other.
/// Ten milliseconds keep that cost small and a step still short for the
/// app and for time budgets.
pub const ROUND_TIME: crate::clock::Duration = crate::clock::Duration::from_millis(10);

/// At most this many MID calls of the main thread in one round of a
/// parallel search (it ends sooner when [`ROUND_TIME`] is up).
pub const CALLS_PER_STEP: u64 = 16384;

/// At most this many MID calls per helper in one round (the main thread
/// paces a round; the cap only bounds a round whose main thread is stuck
/// in one long frontier solve).
pub const HELPER_CALLS_CAP: u64 = 4 * CALLS_PER_STEP;

/// Memory budget of `dfpn-fast` when the setup gives none, shared as a
/// given budget is (half of it to Connect Four's frontier table); the
/// df-pn table may then grow past its share up to
/// [`default_table_growth_bytes`].
pub const DEFAULT_FAST_BUDGET_BYTES: u64 = 64 << 20;

/// How far the df-pn table of `dfpn-fast` may grow when the setup gives
/// no memory budget: half of the default memory budget (itself half of
/// the machine's memory, see [`crate::params::bounds::default_memory_mib`]), so a quarter
/// of the machine; in the browser [`DEFAULT_FAST_BUDGET_BYTES`].
///
/// Why grow at all: a long search that fills a fixed table overwrites
/// its least-worked entries and searches them again. FFO #58 stayed open
/// after 128.8 M MID calls in a full 64 MiB table and was proved in
/// 84.6 M with room to grow (`results/2026-11-29/ffo-55-58.md`). A short
/// search pays nothing for the room: the table starts at 4 MiB and
/// doubles only when three quarters of it are filled.
pub fn default_table_growth_bytes() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        DEFAULT_FAST_BUDGET_BYTES
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        ((crate::params::bounds::default_memory_mib() << 20) / 2).max(DEFAULT_FAST_BUDGET_BYTES)
    }
}

/// The default frontier threshold of `dfpn-fast` on Othello (empty
/// squares at or below which the alpha-beta answers): chosen from
/// measurements over the FFO #20–#49 positions and the
/// `othello-16-random` set (`results/ffo.md`, `results/defaults.md`).
/// With its table, ETC and stability cut-offs the frontier solver
/// answers a 16-empty node faster than df-pn above it would.
pub const DEFAULT_LEAF_EMPTIES: i64 = 16;

/// The `threads` parameter of the df-pn family.
pub const THREADS_PARAM: ParamSpec = ParamSpec::int(
    "threads",
    1,
    // A web page has no threads to share the table with.
    if cfg!(target_arch = "wasm32") { 1 } else { 256 },
    1,
    "Search threads sharing one table (Kaneko 2010's virtual proof numbers); 1 = the sequential search",
);

crate::choice_enum! {
    /// How `dfpn-fast` starts unknown nodes (`init`).
    pub enum InitRule {
        /// (1, 1), as plain df-pn.
        Unit = "unit",
        /// df-pn+ style mobility.
        Mobility = "mobility",
    }
}

crate::choice_enum! {
    /// How `dfpn-fast` orders children that tie (`order`).
    pub enum ChildOrder {
        /// Move-generation order.
        Generation = "generation",
        /// Fewest replies first, then a static square preference.
        Fastest = "fastest",
    }
}

crate::options! {
    /// The parameters of `dfpn-fast` on every game.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct FastParams {
        /// How unknown nodes start.
        pub init: InitRule => {
            "init", choice = InitRule::Mobility,
            "Unknown nodes: unit = (1, 1) as plain df-pn; mobility = (1, m) at the attacker's nodes and (m, 1) at the defender's (df-pn+ style)"
        },
        /// Child order for ties.
        pub order: ChildOrder => {
            "order", choice = ChildOrder::Fastest,
            "Child order for ties: generation = move-generation order; fastest = fewest replies first, then a static square preference"
        },
        /// ε of the 1+ε trick (0: off).
        pub eps: f64 => {
            "eps", real(0.0, 1000.0) = 0.0,
            "ε of the 1+ε trick, thδ(c1) = min(thφ, ⌈δ2·(1+ε)⌉); 0 = plain δ2 + 1"
        },
        /// Search threads.
        pub threads: u32 => THREADS_PARAM,
    }
}

/// Parameters of `dfpn-fast`.
pub const FAST_PARAMS: &[ParamSpec] = FastParams::PARAMS;

crate::options! {
    /// `dfpn-fast`'s parameters on Othello positions: its frontier solver.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct OthelloFastParams {
        /// Frontier threshold in empty squares (0 = off).
        pub leaf_empties: u32 => {
            "leaf_empties", int(0, 30) = DEFAULT_LEAF_EMPTIES,
            "Nodes with at most this many empty squares are solved by a bitboard alpha-beta (0 = off)"
        },
    }
}

/// `dfpn-fast`'s parameters on Othello positions.
pub const OTHELLO_FAST_PARAMS: &[ParamSpec] = OthelloFastParams::PARAMS;

crate::options! {
    /// `dfpn-fast`'s parameters on Connect Four positions: the game's
    /// knowledge and its frontier solver.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Connect4FastParams {
        /// Exact tactics.
        pub tactics: bool => {
            "tactics", flag = true,
            "A mover who completes four wins, one with no move surviving the reply loses, and only the surviving moves are expanded (exact)"
        },
        /// Threat-based initial numbers.
        pub threat_init: bool => {
            "threat_init", flag = true,
            "With init = mobility: the side with fewer cells where it completes four starts with a larger proof (or disproof) number"
        },
        /// Mirror positions share an entry.
        pub mirror: bool => {
            "mirror", flag = true,
            "A position and its mirror image share one table entry"
        },
        /// Frontier threshold in empty cells (0 = off).
        pub leaf_cells: u32 => {
            "leaf_cells", int(0, 42) = connect4_rules::DEFAULT_LEAF_CELLS,
            "Nodes with at most this many empty cells are solved by a null-window alpha-beta with its own table (0 = off)"
        },
    }
}

/// `dfpn-fast`'s parameters on Connect Four positions.
pub const CONNECT4_FAST_PARAMS: &[ParamSpec] = Connect4FastParams::PARAMS;

/// `vc_work`: how far each H-search goes, for every search that uses
/// Hex's virtual connections (`dfpn-fast`, `scns`).
pub const VC_WORK: ParamSpec = ParamSpec::int(
    "vc_work",
    1,
    100_000_000,
    crate::game::hex::vc::DEFAULT_MAX_WORK as i64,
    "Carrier combinations each H-search may try before it stops (more finds more connections, costs more per node)",
);

crate::options! {
    /// `dfpn-fast`'s parameters on Hex positions: the game's knowledge
    /// ([`hex_rules`]), each rule switchable on its own.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct HexFastParams {
        /// Dead-cell fill-in.
        pub dead: bool => {
            "dead", flag = true,
            "Fill dead cells (no winning chain of either player needs them) and never play there"
        },
        /// Captured-pair fill-in.
        pub captured: bool => {
            "captured", flag = true,
            "Fill captured pairs (two cells a player gets one of whatever happens, the other then dead) with their owner"
        },
        /// Dominated moves skipped.
        pub dominated: bool => {
            "dominated", flag = true,
            "Skip a move when a neighbouring move dominates it: the neighbour's stone would let the cell be filled with the mover's colour (dead, or one of a pair the mover captures), so the neighbour is at least as good"
        },
        /// H-search virtual connections.
        pub vcs: bool => {
            "vcs", flag = true,
            "H-search virtual connections: a virtual or semi-connection between the mover's edges wins, the opponent's virtual connection loses"
        },
        /// Must-play restriction.
        pub mustplay: bool => {
            "mustplay", flag = true,
            "With vcs: the mover plays only inside the common cells of the opponent's semi-connections between its edges"
        },
        /// Resistance tie order.
        pub resistance_order: bool => {
            "resistance_order", flag = true,
            "Children whose numbers tie go by the resistor model's move score, highest first"
        },
        /// Filled-board table key.
        pub fill_key: bool => {
            "fill_key", flag = true,
            "Positions with the same filled-in board share one table entry"
        },
        /// H-search work limit.
        pub vc_work: u32 => VC_WORK,
        /// H-search's AND rule through the edges.
        pub vc_over_edges: bool => {
            "vc_over_edges", flag = false,
            "With vcs: H-search may join two connections at an edge (cell-edge and edge-cell give cell-cell); many more combinations, seldom a new connection between the edges"
        },
        /// H-search on every child at its parent's expansion.
        pub vc_children: bool => {
            "vc_children", flag = true,
            "With vcs: run H-search on every child when its parent is expanded, so children start settled or with their mustplay size; off: only on the nodes df-pn enters (children start from the fill-in)"
        },
    }
}

/// `dfpn-fast`'s parameters on Hex positions.
pub const HEX_FAST_PARAMS: &[ParamSpec] = HexFastParams::PARAMS;

/// The per-game parameters of `dfpn-fast` (the registry offers each list
/// only on its game's positions).
pub const FAST_GAME_PARAMS: &[(GameKind, &[ParamSpec])] = &[
    (GameKind::Othello, OTHELLO_FAST_PARAMS),
    (GameKind::Connect4, CONNECT4_FAST_PARAMS),
    (GameKind::Hex, HEX_FAST_PARAMS),
];

/// The Hex options named by `params` (a set holding [`HEX_FAST_PARAMS`];
/// missing ones keep their defaults).
pub fn hex_options(params: &Params) -> Result<HexOptions, SearchError> {
    let p = HexFastParams::from_params(&Params::taken_from(HEX_FAST_PARAMS, params))?;
    Ok(HexOptions {
        dead: p.dead,
        captured: p.captured,
        dominated: p.dominated,
        vcs: p.vcs,
        mustplay: p.mustplay,
        resistance_order: p.resistance_order,
        fill_key: p.fill_key,
        vc_work: p.vc_work,
        vc_children: p.vc_children,
        vc_over_edges: p.vc_over_edges,
    })
}

/// How a fast df-pn is configured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastOptions {
    /// Thresholds, Deep df-pn's (E, D) and the table budget.
    pub base: DfpnOptions,
    /// How children missing from the table start.
    pub init: Init,
    /// Sort children by their initial numbers before the loop.
    pub order: bool,
    /// Othello frontier threshold (0 = off).
    pub leaf_empties: u32,
    /// Search threads sharing the table (1 = sequential).
    pub threads: u32,
    /// Connect Four's knowledge (`None`: the game's plain rules, as the
    /// parallel plain df-pn uses).
    pub connect4: Option<Connect4Options>,
    /// Hex's knowledge (`None`: the game's plain rules).
    pub hex: Option<HexOptions>,
    /// When set, the df-pn table may grow past its share of the budget up
    /// to this many bytes (`dfpn-fast` without a memory budget: see
    /// [`default_table_growth_bytes`]); the frontier tables keep theirs.
    pub table_growth_bytes: Option<u64>,
}

impl FastOptions {
    /// The options of a Connect Four search and its Connect Four part:
    /// with the frontier solver on, the memory budget is shared, half for
    /// the df-pn table and half for the frontier solver's (the win and the
    /// score search alike).
    pub fn split_for_connect4(self) -> (FastOptions, Connect4Options) {
        let mut opts = self;
        let mut c4 = opts.connect4.unwrap_or_default();
        if c4.leaf_cells > 0 {
            let half = opts.base.budget_bytes / 2;
            opts.base.budget_bytes = half;
            c4.leaf_table_bytes = half;
        }
        (opts, c4)
    }

    /// Bytes the df-pn table may grow to: its share of the budget, or
    /// the growth room when that is larger.
    pub fn table_bytes(&self) -> u64 {
        self.base
            .budget_bytes
            .max(self.table_growth_bytes.unwrap_or(0))
    }
}

impl Default for FastOptions {
    fn default() -> Self {
        FastOptions {
            base: DfpnOptions {
                budget_bytes: DEFAULT_FAST_BUDGET_BYTES,
                ..DfpnOptions::default()
            },
            init: Init::Mobility,
            order: true,
            leaf_empties: DEFAULT_LEAF_EMPTIES as u32,
            threads: 1,
            connect4: Some(Connect4Options::default()),
            hex: Some(HexOptions::default()),
            table_growth_bytes: None,
        }
    }
}

/// Registry constructor for `dfpn-fast`.
pub fn build_fast(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    if crate::with_position!(&setup.position, g => g.history_dependent()) {
        return Err(SearchError::unsupported(
            "dfpn-fast keys its table by position only, so it does not search \
                    positions whose results depend on the path (repetition rules, cyclic \
                    graphs); use dfpn or dfpn-ghi",
        ));
    }
    let opts = fast_options(setup)?;
    if setup.question == crate::search::QuestionKind::Score {
        return score::build(setup, opts);
    }
    Ok(new_fast("dfpn-fast", setup, opts))
}

/// The options `dfpn-fast` runs `setup` with: its parameters, and the
/// setup's memory budget, or without one the default share and the
/// growth room.
fn fast_options(setup: &SearchSetup) -> Result<FastOptions, SearchError> {
    let fast = FastParams::from_params(&setup.params)?;
    let eps = fast.eps;
    // A game's own parameters are in the set only for its positions (the
    // registry's `build` fills in their defaults there); elsewhere they
    // are not read and keep their defaults.
    let othello =
        OthelloFastParams::from_params(&Params::taken_from(OTHELLO_FAST_PARAMS, &setup.params))?;
    let c4 =
        Connect4FastParams::from_params(&Params::taken_from(CONNECT4_FAST_PARAMS, &setup.params))?;
    Ok(FastOptions {
        base: DfpnOptions {
            eps: (eps > 0.0).then_some(eps),
            deep: None,
            budget_bytes: setup
                .memory_limit_bytes
                .unwrap_or(DEFAULT_FAST_BUDGET_BYTES),
            // Refused above: the fast engine keys its table by position.
            ghi: super::ghi::Ghi::Stop,
        },
        init: match fast.init {
            InitRule::Unit => Init::Unit,
            InitRule::Mobility => Init::Mobility,
        },
        order: fast.order == ChildOrder::Fastest,
        leaf_empties: othello.leaf_empties,
        threads: fast.threads,
        connect4: Some(Connect4Options {
            tactics: c4.tactics,
            threat_init: c4.threat_init,
            mirror: c4.mirror,
            leaf_cells: c4.leaf_cells,
            ..Connect4Options::default()
        }),
        hex: Some(hex_options(&setup.params)?),
        table_growth_bytes: match setup.memory_limit_bytes {
            Some(_) => None,
            None => Some(default_table_growth_bytes()),
        },
    })
}

/// The fast engine on `setup`'s position with the game's rules: Othello's
/// bitboard ones, the generic ones elsewhere.
pub fn new_fast(name: &'static str, setup: &SearchSetup, opts: FastOptions) -> Box<dyn Search> {
    let q = setup.root_question();
    match &setup.position {
        AnyPosition::Othello(g) => {
            let rules = OthelloRules::new(opts.leaf_empties);
            Box::new(FastDfpn::new(name, *g, q, opts, rules))
        }
        AnyPosition::Connect4(g) if opts.connect4.is_some() => {
            let (opts, c4) = opts.split_for_connect4();
            let rules = Connect4Rules::new(c4);
            Box::new(FastDfpn::new(name, *g, q, opts, rules))
        }
        AnyPosition::Hex(g) if opts.hex.is_some() => {
            let rules = HexRules::new(opts.hex.unwrap_or_default());
            Box::new(FastDfpn::new(name, *g, q, opts, rules))
        }
        other => crate::with_position!(other, g => {
            Box::new(FastDfpn::new(name, g.clone(), q, opts, AnyRules)) as Box<dyn Search>
        }),
    }
}

/// What the threads share: the table, the rules and the options.
struct Engine<R> {
    question: Question,
    opts: FastOptions,
    rules: R,
    table: FastTable,
    stop: AtomicBool,
    parallel: bool,
}

impl<R> Engine<R> {
    /// The workers' view of the engine.
    fn shared<G: Game>(&self) -> Shared<'_, G, R>
    where
        R: Rules<G>,
    {
        let init = match (self.opts.init, self.opts.base.deep) {
            (Init::Mobility, _) => Init::Mobility,
            (_, Some(_)) => Init::Deep,
            _ => Init::Unit,
        };
        Shared {
            table: &self.table,
            rules: &self.rules,
            question: self.question,
            base: &self.opts.base,
            init,
            order: self.opts.order,
            reread: self.parallel,
            stop: &self.stop,
            _game: std::marker::PhantomData,
        }
    }
}

/// The fast / parallel df-pn on game `G` with rules `R`.
pub struct FastDfpn<G: Game, R: Rules<G>> {
    name: &'static str,
    root: G,
    root_moves: Vec<G::Move>,
    question: Question,
    engine: Engine<R>,
    workers: Vec<Worker<G>>,
    status: Status,
    counters: Counters,
    root_switches: RootSwitches,
    root_result: Option<(Pn, Pn)>,
    /// Index of the root child that wins for the mover, once the root is
    /// settled as a win for it ([`root_move`]).
    root_move: Option<u32>,
    /// The work naming that child took.
    root_move_work: RootMoveWork,
}

impl<G: Game, R: Rules<G>> FastDfpn<G, R> {
    /// A search of `root` for `question`; a finished root is solved at once.
    pub fn new(
        name: &'static str,
        root: G,
        question: Question,
        opts: FastOptions,
        rules: R,
    ) -> FastDfpn<G, R> {
        let threads = opts.threads.max(1);
        let mut root_moves = Vec::new();
        root.legal_moves(&mut root_moves);
        let mut s = FastDfpn {
            name,
            engine: Engine {
                question,
                opts,
                rules,
                table: FastTable::with_budget(opts.table_bytes(), threads > 1),
                stop: AtomicBool::new(false),
                parallel: threads > 1,
            },
            workers: (0..threads)
                .map(|i| Worker::new(root.clone(), i > 0))
                .collect(),
            root_moves,
            question,
            status: Status::Running,
            counters: Counters::default(),
            root_switches: RootSwitches::default(),
            root_result: None,
            root_move: None,
            root_move_work: RootMoveWork::default(),
            root,
        };
        if let Some(o) = s.root.outcome() {
            let r = solved(question.holds(o));
            s.finish(r);
        }
        s
    }

    /// The options.
    pub fn options(&self) -> &FastOptions {
        &self.engine.opts
    }

    /// The shared table.
    pub fn table(&self) -> &FastTable {
        &self.engine.table
    }

    fn finish(&mut self, r: (Pn, Pn)) {
        self.root_result = Some(r);
        self.status = if r.0 == 0 {
            Status::Proved
        } else if r.1 == 0 {
            Status::Disproved
        } else {
            Status::Unknown(StopReason::Exhausted)
        };
    }

    /// Sums the workers' counts into the search's counters and collects
    /// root picks (worker 0's) and the root result.
    fn collect(&mut self) {
        let c = &mut self.counters;
        c.iterations = 0;
        c.nodes_expanded = 0;
        c.nodes_created = 0;
        c.revisits = 0;
        for w in &self.workers {
            c.iterations += w.counters.calls;
            c.nodes_expanded += w.counters.expanded;
            c.nodes_created += w.counters.created;
            c.revisits += w.counters.revisits;
            c.max_depth = c.max_depth.max(w.counters.max_depth);
        }
        c.live_nodes = self.engine.table.used();
        // The table's pages, not its filled slots: the slots are spread
        // over every page, so all of them are resident.
        c.peak_tree_bytes = self.engine.table.peak_bytes();
        if let Some(w) = self.workers.first_mut() {
            for (it, mv) in w.root_picks.drain(..) {
                if let Some(k) = self.root_moves.iter().position(|&m| m == mv) {
                    self.root_switches.observe(it, k as u32, c);
                }
            }
        }
        let settled = self
            .workers
            .iter()
            .find_map(|w| w.result.map(|r| (r, w.root_win)));
        if let Some((r, hint)) = settled {
            self.finish(r);
            if self.mover_wins() {
                self.name_root_move(hint);
            }
        }
    }

    /// Does the side to move at the root win it (a proved OR root, a
    /// disproved AND root)?
    fn mover_wins(&self) -> bool {
        let or = self.root.to_move() == self.question.attacker;
        matches!(self.root_result, Some((p, d)) if (if or { p } else { d }) == 0)
    }

    /// Names the root child that wins for the mover ([`root_move`]),
    /// `hint` being the root loop's solving move if it had one.
    fn name_root_move(&mut self, hint: Option<G::Move>) {
        let mut work = RootMoveWork::default();
        let found = {
            let shared = self.engine.shared();
            root_move::find(&shared, &self.root, &self.root_moves, hint, &mut work)
        };
        self.root_move = found;
        self.root_move_work = work;
    }

    /// The table's entry for position `g` (under the rules' key).
    pub fn probe_position(&self, g: &G) -> Option<table::Found> {
        self.engine.table.probe(self.engine.rules.key(g))
    }

    /// Numbers of a root child from the table (terminal children by the
    /// rules).
    fn child_numbers(&self, m: G::Move) -> (Pn, Pn) {
        let mut c = self.root.clone();
        c.play(m);
        match c.outcome() {
            Some(o) => solved(self.question.holds(o)),
            None => match self.probe_position(&c) {
                Some(e) => (e.pn, e.dn),
                None => (1, 1),
            },
        }
    }

    /// Index (move-generation order) of the root child the search names
    /// as best: on a root the mover wins, the winning child
    /// [`root_move`] found; otherwise the least δ.
    pub fn best_child(&self) -> Option<u32> {
        if self.mover_wins() {
            return self.root_move;
        }
        let or = self.root.to_move() == self.question.attacker;
        let mut best: Option<(u32, Pn)> = None;
        for (i, &m) in self.root_moves.iter().enumerate() {
            let (p, d) = self.child_numbers(m);
            let a = if or { p } else { d };
            if best.is_none_or(|(_, b)| a < b) {
                best = Some((i as u32, a));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Root (pn, dn): final once solved, else worker 0's root frame, else
    /// (before the first call) the initial numbers the root starts with.
    pub fn root_numbers(&self) -> (Pn, Pn) {
        if let Some(r) = self.root_result {
            return r;
        }
        match self.workers.first().and_then(|w| w.frames().first()) {
            Some(f) => (f.pn, f.dn),
            None => {
                let sh = self.engine.shared();
                let or = self.root.to_move() == self.question.attacker;
                match sh.rules.inspect(&self.root) {
                    Ok(m) => sh.initial(&self.root, or, m, 0),
                    Err(o) => solved(self.question.holds(o)),
                }
            }
        }
    }
}

impl<G: Game, R: Rules<G>> Search for FastDfpn<G, R> {
    fn algo(&self) -> &'static str {
        self.name
    }

    /// One MID call (one thread), or a round of [`CALLS_PER_STEP`] calls
    /// per thread.
    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        self.engine.table.grow_if_full();
        let shared = self.engine.shared();
        if let [w] = self.workers.as_mut_slice() {
            w.step(&shared);
        } else {
            let round_over = AtomicBool::new(false);
            let (main, helpers) = self.workers.split_at_mut(1);
            std::thread::scope(|s| {
                for w in helpers.iter_mut() {
                    let (sh, over) = (&shared, &round_over);
                    s.spawn(move || {
                        helper_priority::yield_to_other_work();
                        w.run_until(sh, over, HELPER_CALLS_CAP)
                    });
                }
                main[0].run_for(&shared, ROUND_TIME, CALLS_PER_STEP);
                round_over.store(true, Ordering::Relaxed);
            });
        }
        if self.workers.iter().any(|w| w.result.is_some()) {
            for w in &mut self.workers {
                w.abandon(&shared);
            }
        }
        self.collect();
        self.status
    }

    super::table_search_accessors!();

    fn best_move(&self) -> Option<String> {
        let k = self.best_child()?;
        self.root_moves
            .get(k as usize)
            .map(|&m| self.root.format_move(m))
    }

    fn solved_at(&self, _path: &[u32], hash: u64) -> Option<bool> {
        let e = self.engine.table.probe(hash)?;
        super::view::node_status(e.pn, e.dn).solved()
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        let (solves, nodes) = self.workers.iter().fold((0, 0), |(a, b), w| {
            (a + w.counters.leaf_solves, b + w.counters.leaf_nodes)
        });
        m.insert("threads".into(), self.workers.len().into());
        let idle: u64 = self.workers.iter().map(|w| w.counters.idle_exits).sum();
        m.insert("idle_exits".into(), idle.into());
        if self.workers.len() > 1 {
            // Each thread's MID calls (the first is the main thread: its
            // count against the sequential search's is the speed-up the
            // parallel search could give on free cores) and the solved
            // children the main thread took from the helpers.
            let calls: Vec<u64> = self.workers.iter().map(|w| w.counters.calls).collect();
            m.insert("thread_calls".into(), calls.into());
            // And each thread's frontier positions: the frontier solver
            // does most of the work, so these say where the time went.
            let leaf: Vec<u64> = self.workers.iter().map(|w| w.counters.leaf_nodes).collect();
            m.insert("thread_leaf_nodes".into(), leaf.into());
            m.insert(
                "solved_by_helpers".into(),
                self.workers[0].counters.solved_by_helpers.into(),
            );
        }
        m.insert("leaf_solves".into(), solves.into());
        m.insert("leaf_nodes".into(), nodes.into());
        // Naming the winning move of a settled root (not in the counters).
        let w = &self.root_move_work;
        m.insert("root_move_leaf_solves".into(), w.leaf_solves.into());
        m.insert("root_move_leaf_nodes".into(), w.leaf_nodes.into());
        m.insert("root_move_calls".into(), w.calls.into());
        m.insert("tt_used".into(), self.engine.table.used().into());
        m.insert("tt_capacity".into(), self.engine.table.capacity().into());
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OTHELLO_START: &str =
        "---------------------------OX------XO--------------------------- X";

    fn setup(kind: GameKind, pos: &str, memory: Option<u64>) -> SearchSetup {
        let position = AnyPosition::parse(kind, pos).expect("a legal position");
        let mut s = SearchSetup::new("dfpn-fast", position, &[]).expect("dfpn-fast's defaults");
        s.memory_limit_bytes = memory;
        s
    }

    #[test]
    fn without_a_budget_the_table_may_grow_with_the_machine() {
        let growth = default_table_growth_bytes();
        // The default memory budget is at least 512 MiB, so the room is
        // at least 256 MiB: more than the fixed share of before.
        assert!(growth >= 256 << 20, "{growth}");
        for (kind, pos) in [
            (GameKind::Othello, OTHELLO_START),
            (GameKind::Connect4, "4453"),
            (GameKind::Hex, "5:c3"),
        ] {
            let opts = fast_options(&setup(kind, pos, None)).expect("options");
            assert_eq!(opts.table_bytes(), growth, "{kind:?}");
            // Connect Four's frontier table keeps its share of the
            // default budget; only the df-pn table grows.
            let (split, c4) = opts.split_for_connect4();
            assert_eq!(c4.leaf_table_bytes, DEFAULT_FAST_BUDGET_BYTES / 2);
            assert_eq!(split.table_bytes(), growth);
        }
    }

    #[test]
    fn a_given_budget_bounds_the_table() {
        let budget = 96 << 20;
        let opts =
            fast_options(&setup(GameKind::Othello, OTHELLO_START, Some(budget))).expect("options");
        assert_eq!(opts.table_bytes(), budget);
        let opts = fast_options(&setup(GameKind::Connect4, "4453", Some(budget))).expect("options");
        let (split, c4) = opts.split_for_connect4();
        assert_eq!(split.table_bytes() + c4.leaf_table_bytes, budget);
    }
}
