//! Conspiracy-number search (McAllester 1988) with proof and disproof
//! functions, and Sibling Conspiracy Number Search (Pawlewicz & Hayward
//! 2015).
//!
//! Every node keeps a *proof function* p(v) — how many leaves must change
//! value for the node's minimax value to reach at least v — and a
//! *disproof function* d(v) (at most v), stored as staircases
//! ([`staircase`]). A leaf of value x has p(v) = 0 for v ≤ x and 1 (a
//! heuristic leaf) or ∞ (a finished game) above; a MAX node takes the
//! minimum of its children's p and the sum of their d, a MIN node the
//! other way round. The root's functions give the *search interval*:
//! v_max = the largest v with p(v) ≤ Pmax, v_min = the smallest v with
//! d(v) ≤ Dmax. An iteration descends from the root to a frontier node,
//! at MAX nodes to the child with the least p(v_max) and at MIN nodes to
//! the least d(v_min) (ties: the leftmost; SCNS: the smaller relative move
//! error), expands it and updates the functions on the way back. The run
//! ends when v_max − v_min ≤ Δ, or at the budget.
//!
//! MAX is the attacker (the side the question is asked for), so MAX nodes
//! are the OR nodes of the proof searches. With the two-valued model
//! (`eval = win-loss`: a finished game is +∞ when it answers the question
//! yes and −∞ otherwise, every other leaf 0) p(+∞) and d(−∞) are exactly
//! PNS's proof and disproof numbers and CNS selects exactly what PNS
//! selects.
//!
//! # Choices the papers leave open
//!
//! - **Best-first over the arena**, not the SCNS paper's depth-first
//!   recursion with a transposition table: the paper needed the table to
//!   play 11×11 Hex for minutes per move in bounded memory; here the tree
//!   of a run fits in memory, and the arena gives the app the whole tree,
//!   the selection path and the seesaw counters of the other best-first
//!   searches for free. Leaves do not store their functions (they follow
//!   from the leaf's value), so the tree costs little beyond the arena.
//! - **A target strictly beyond the root value.** When no value above the
//!   root's minimax value v₀ is within Pmax conspirators, v_max is set by
//!   the cheapest step above v₀ instead (v_max = the largest v with
//!   p(v) ≤ max(Pmax, p(v₀⁺))), and likewise v_min; only a side that can
//!   no longer move at all (p = ∞ above v₀) gives v_max = v₀. So the
//!   interval is [v₀, v₀] exactly when the root's value is proven, Δ = 0
//!   runs until then, and the two-valued search equals PNS for every
//!   Pmax, Dmax.
//! - **Values are exact integers** in a fixed-point unit (1 for scores and
//!   evaluations, 1/1000 nat for SCNS's relative errors).
//! - **Best move**: the root child with the most expansions beneath it
//!   (SCNS paper §2.7), except that once the root's result is proven the
//!   move must keep it (a child with the same proven bound).

pub mod hex_vcs;
pub mod staircase;
pub mod values;
mod view;

use std::borrow::Cow;

use crate::game::{Game, Outcome, Player};

use super::arena::{Arena, Idx, NONE, TERMINAL};
use super::arena_search::{delegate_to_core, ArenaSearch};
use super::params::ParamSpec;
use super::pn::{Pn, INF, MAX_FINITE};
use super::snapshot::{NodeStatus, Snapshot, ViewRequest};
use super::{
    Counters, Question, Search, SearchError, SearchSetup, StatsSample, Status, StopReason,
};
use staircase::{Staircase, Value, NEG_INF, POS_INF};
use values::Model;

/// `Pmax`: conspirators allowed for MAX's target.
const PMAX: ParamSpec = ParamSpec::int(
    "Pmax",
    0,
    1_000_000_000,
    1,
    "Search interval: v_max = the largest value MAX reaches with at most Pmax leaves changing (SCNS paper eq. 6)",
);

/// `Dmax`: conspirators allowed for MIN's target.
const DMAX: ParamSpec = ParamSpec::int(
    "Dmax",
    0,
    1_000_000_000,
    1,
    "Search interval: v_min = the smallest value MIN reaches with at most Dmax leaves changing",
);

/// `delta`: the error tolerance Δ.
const DELTA: ParamSpec = ParamSpec::real(
    "delta",
    0.0,
    1e12,
    0.0,
    "Δ: stop once v_max − v_min ≤ Δ (in value units); 0 runs until the root's value is exact",
);

/// `eta` with `default`: CNS and SCNS describe it alike but for the
/// default.
const fn eta(default: f64) -> ParamSpec {
    ParamSpec::real(
        "eta",
        0.0,
        0.99,
        default,
        "η upper-bound approximation of the stored functions (SCNS paper Def. 4): heights within a factor 1 + η merge; 0 = exact",
    )
}

/// `eta` for CNS (exact by default).
const ETA: ParamSpec = eta(0.0);

/// `eta` for SCNS (the paper's value).
const ETA_SCNS: ParamSpec = eta(0.25);

crate::choice_enum! {
    /// CNS's `eval` parameter: the leaf value model it runs with.
    pub enum CnsEval {
        /// [`Model::Score`].
        Score = "score",
        /// [`Model::WinLoss`].
        WinLoss = "win-loss",
    }
}

crate::options! {
    /// CNS parameters (described once; CLI, UI and JSON use this list).
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct CnsParams {
        /// Pmax.
        pub pmax: Pn => PMAX,
        /// Dmax.
        pub dmax: Pn => DMAX,
        /// Δ.
        pub delta: f64 => DELTA,
        /// η.
        pub eta: f64 => ETA,
        /// The leaf value model.
        pub eval: CnsEval => {
            "eval", choice = CnsEval::Score,
            "score: finished games at their value, other leaves at the game's evaluation; win-loss: ±∞ by the question and 0 (CNS then is PNS)"
        },
    }
}

crate::options! {
    /// SCNS parameters.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct ScnsParams {
        /// Pmax.
        pub pmax: Pn => PMAX,
        /// Dmax.
        pub dmax: Pn => DMAX,
        /// Δ.
        pub delta: f64 => DELTA,
        /// η (the paper's 0.25 by default).
        pub eta: f64 => ETA_SCNS,
        /// δ of the logarithmic initialisation.
        pub log_delta: f64 => {
            "log_delta", real(0.01, 100.0) = 1.0,
            "δ of the logarithmic leaf initialisation (SCNS paper eq. 14), in nats: raising a leaf by δ·log₂k takes k conspirators"
        },
    }
}

/// Heights of the logarithmic initialisation stop at this many
/// conspirators, so that a leaf can still be raised to a win.
pub const LOG_INIT_CAP: Pn = 64;

/// The options of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CnsOptions {
    /// Pmax.
    pub pmax: Pn,
    /// Dmax.
    pub dmax: Pn,
    /// Δ in value units (as displayed).
    pub delta: f64,
    /// η (0 = exact functions).
    pub eta: f64,
    /// The leaf value model.
    pub model: Model,
    /// δ of the logarithmic initialisation in nats; `None` = the two-step
    /// leaf functions of McAllester.
    pub log_delta: Option<f64>,
    /// SCNS on Hex: the virtual connections it uses ([`hex_vcs`]).
    pub hex_vcs: Option<hex_vcs::HexVcs>,
}

impl CnsOptions {
    /// Plain CNS with the given model and the described defaults
    /// (Pmax = Dmax = 1, Δ = 0, η = 0, two-step leaves).
    pub fn cns(model: Model) -> CnsOptions {
        CnsOptions {
            model,
            ..CnsOptions::from(CnsParams::default())
        }
    }

    /// SCNS with the described defaults (Pmax = Dmax = 1, Δ = 0, η = 0.25,
    /// δ = 1).
    pub fn scns() -> CnsOptions {
        CnsOptions::from(ScnsParams::default())
    }
}

impl From<CnsParams> for CnsOptions {
    fn from(p: CnsParams) -> CnsOptions {
        CnsOptions {
            pmax: p.pmax,
            dmax: p.dmax,
            delta: p.delta,
            eta: p.eta,
            model: match p.eval {
                CnsEval::Score => Model::Score,
                CnsEval::WinLoss => Model::WinLoss,
            },
            log_delta: None,
            hex_vcs: None,
        }
    }
}

impl From<ScnsParams> for CnsOptions {
    fn from(p: ScnsParams) -> CnsOptions {
        CnsOptions {
            pmax: p.pmax,
            dmax: p.dmax,
            delta: p.delta,
            eta: p.eta,
            model: Model::Scef,
            log_delta: Some(p.log_delta),
            hex_vcs: None,
        }
    }
}

/// Registry constructor for `cns`.
pub fn build_cns(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let opts = CnsOptions::from(CnsParams::from_params(&setup.params)?);
    Ok(build_with(setup, "cns", opts))
}

/// Registry constructor for `scns`.
pub fn build_scns(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let mut opts = CnsOptions::from(ScnsParams::from_params(&setup.params)?);
    opts.hex_vcs = hex_vcs::HexVcs::from_params(&setup.params)?;
    Ok(build_with(setup, "scns", opts))
}

fn build_with(setup: &SearchSetup, algo: &'static str, opts: CnsOptions) -> Box<dyn Search> {
    let q = setup.root_question();
    #[allow(clippy::clone_on_copy)] // some games are `Copy`, the macro serves all
    let s = crate::with_position!(&setup.position, g => {
        Box::new(Cns::new(algo, g.clone(), q, opts)) as Box<dyn Search>
    });
    s
}

/// Per-node payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CnsData {
    /// The node's static value as a leaf (its evaluation, or its terminal
    /// value), attacker's view, in fixed-point units.
    pub value: Value,
    /// SCNS: the relative error e(parent → node) in fixed-point units
    /// (0 for CNS and at the root).
    pub err: Value,
    /// Expansions in the subtree below (and at) this node.
    pub expansions: u32,
}

/// The stored functions of an expanded node: p and the mirrored d̃(w) =
/// d(−w).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Functions {
    /// The proof function.
    pub p: Staircase,
    /// The disproof function, mirrored (non-decreasing).
    pub dm: Staircase,
}

/// The search interval and the root value it was computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// MINIMAX(root), where p and d meet at 0.
    pub value: Value,
    /// v_min.
    pub v_min: Value,
    /// v_max.
    pub v_max: Value,
}

impl Interval {
    /// v_max − v_min (0 for [+∞, +∞]; `None` when infinite).
    pub fn width(&self) -> Option<i128> {
        if self.v_min == self.v_max {
            return Some(0);
        }
        if self.v_min == NEG_INF || self.v_max == POS_INF {
            return None;
        }
        Some(self.v_max as i128 - self.v_min as i128)
    }
}

/// The interval of functions `p`, `dm` for thresholds `pmax`, `dmax` (see
/// the module documentation for the step beyond the root value).
pub fn interval_of(p: &Staircase, dm: &Staircase, pmax: Pn, dmax: Pn) -> Interval {
    // p(−∞) = 0 and d(+∞) = 0 always, so both searches succeed.
    let value = p.last_at_most(0).unwrap_or(NEG_INF);
    let far = |f: &Staircase, x: Value, bound: Pn| -> Value {
        if x == POS_INF {
            return POS_INF;
        }
        match f.at(x + 1) {
            INF => x,
            next => f.last_at_most(bound.max(next)).unwrap_or(x),
        }
    };
    let w0 = dm.last_at_most(0).unwrap_or(NEG_INF);
    debug_assert_eq!(w0, -value, "p and d meet at the minimax value");
    Interval {
        value,
        v_max: far(p, value, pmax),
        v_min: -far(dm, w0, dmax),
    }
}

/// Conspiracy-number search (and SCNS) on a game `G`.
#[derive(Clone)]
pub struct Cns<G: Game> {
    core: ArenaSearch<G, CnsData>,
    algo: &'static str,
    opts: CnsOptions,
    /// Functions of the expanded nodes, by arena index (`None` for leaves,
    /// whose functions follow from their value).
    funcs: Vec<Option<Box<Functions>>>,
    /// A non-terminal leaf's proof function for value 0; a leaf of value x
    /// has it shifted by x (and its mirrored disproof function shifted by
    /// −x).
    shape: Staircase,
    /// The current search interval.
    interval: Interval,
    /// Δ in fixed-point units.
    delta_units: i128,
    /// The question's threshold on the value scale.
    threshold: Value,
    /// (iteration, v_min, value, v_max) after every iteration.
    history: Vec<(u64, Value, Value, Value)>,
    /// Reused buffers.
    moves: Vec<G::Move>,
    scores: Vec<f64>,
    errors: Vec<Value>,
}

impl<G: Game> Cns<G> {
    /// A search of `root` for `question`; `algo` names it (`cns`, `scns`).
    pub fn new(algo: &'static str, root: G, question: Question, opts: CnsOptions) -> Cns<G> {
        let model = opts.model;
        let (flags, value) = match root.outcome() {
            Some(o) => (TERMINAL, model.terminal(&root, o, &question)),
            None => (
                0,
                match model {
                    Model::Score => values::clamp(values::for_attacker(
                        values::static_value(&root),
                        question.attacker,
                    )),
                    Model::WinLoss | Model::Scef => 0,
                },
            ),
        };
        let data = CnsData {
            value,
            err: 0,
            expansions: 0,
        };
        let shape = match opts.log_delta {
            Some(d) => Staircase::log_init(0, d * model.unit() as f64, LOG_INIT_CAP),
            None => Staircase::step_after(0, 1),
        };
        let core = ArenaSearch::new(
            root,
            question,
            flags,
            data,
            NodeStatus::Unknown,
            Counters::default(),
        );
        let mut s = Cns {
            core,
            algo,
            opts,
            funcs: vec![None],
            shape,
            interval: Interval {
                value,
                v_min: NEG_INF,
                v_max: POS_INF,
            },
            delta_units: (opts.delta * model.unit() as f64).round() as i128,
            threshold: model.threshold(&question),
            history: Vec::new(),
            moves: Vec::new(),
            scores: Vec::new(),
            errors: Vec::new(),
        };
        s.after_update();
        s
    }

    /// The arena (for tests and comparisons).
    pub fn arena(&self) -> &Arena<G::Move, CnsData> {
        &self.core.arena
    }

    /// The options of this run.
    pub fn options(&self) -> &CnsOptions {
        &self.opts
    }

    /// The current search interval.
    pub fn interval(&self) -> Interval {
        self.interval
    }

    /// (iteration, v_min, root value, v_max) after every iteration so far,
    /// in fixed-point units.
    pub fn interval_history(&self) -> &[(u64, Value, Value, Value)] {
        &self.history
    }

    /// Fixed-point units per displayed unit of value.
    pub fn unit(&self) -> Value {
        self.opts.model.unit()
    }

    /// Node `i`'s proof function.
    pub fn p_function(&self, i: Idx) -> Cow<'_, Staircase> {
        self.proof_shaped_function(i, false)
    }

    /// Node `i`'s disproof function, mirrored: d̃(w) = d(−w).
    pub fn dm_function(&self, i: Idx) -> Cow<'_, Staircase> {
        self.proof_shaped_function(i, true)
    }

    /// Node `i`'s proof function, or with `mirrored` its mirrored
    /// disproof function d̃; a leaf's is built from the proof shape.
    fn proof_shaped_function(&self, i: Idx, mirrored: bool) -> Cow<'_, Staircase> {
        match &self.funcs[i as usize] {
            Some(f) => Cow::Borrowed(if mirrored { &f.dm } else { &f.p }),
            None => {
                let (x, terminal) = self.leaf_seen_as_proof(i, mirrored);
                Cow::Owned(leaf_p(&self.shape, x, terminal))
            }
        }
    }

    /// Leaf `i`'s value as its proof-shaped function reads it (with
    /// `mirrored`, minus the value: a leaf's d̃ is the proof shape at −x),
    /// and whether the leaf is terminal.
    #[inline]
    fn leaf_seen_as_proof(&self, i: Idx, mirrored: bool) -> (Value, bool) {
        let node = self.core.arena.get(i);
        let x = node.data.value;
        (if mirrored { -x } else { x }, node.is_terminal())
    }

    /// p_i(v).
    #[inline]
    pub fn p_at(&self, i: Idx, v: Value) -> Pn {
        self.proof_shaped_at(i, v, false)
    }

    /// d_i(v).
    #[inline]
    pub fn d_at(&self, i: Idx, v: Value) -> Pn {
        self.proof_shaped_at(i, -v, true)
    }

    /// p_i(v), or with `mirrored` d̃_i(v) = d_i(−v), without building a
    /// leaf's staircase (a leaf's d̃ is the proof shape at minus its value).
    #[inline]
    fn proof_shaped_at(&self, i: Idx, v: Value, mirrored: bool) -> Pn {
        match &self.funcs[i as usize] {
            Some(f) if mirrored => f.dm.at(v),
            Some(f) => f.p.at(v),
            None => {
                let (x, terminal) = self.leaf_seen_as_proof(i, mirrored);
                leaf_at(&self.shape, x, terminal, v)
            }
        }
    }

    /// MINIMAX(i): where p_i and d_i meet at 0.
    pub fn minimax(&self, i: Idx) -> Value {
        self.p_function(i).last_at_most(0).unwrap_or(NEG_INF)
    }

    /// The proven bounds [L, U] on node `i`'s value: L the largest v with
    /// d(v⁻) = ∞ (the value cannot fall below it), U the largest v with
    /// p(v) finite.
    pub fn proven_bounds(&self, i: Idx) -> (Value, Value) {
        let lower = match self.dm_function(i).last_at_most(MAX_FINITE) {
            Some(w) => -w,
            None => POS_INF,
        };
        let upper = self
            .p_function(i)
            .last_at_most(MAX_FINITE)
            .unwrap_or(NEG_INF);
        (lower, upper)
    }

    /// Whether node `i`'s value is proven exactly.
    pub fn is_exact(&self, i: Idx) -> bool {
        let (l, u) = self.proven_bounds(i);
        l == u
    }

    /// Node `i`'s status for the question: proven when its value is
    /// certainly ≥ the threshold, disproven when certainly below.
    pub fn node_status(&self, i: Idx) -> NodeStatus {
        let (l, u) = self.proven_bounds(i);
        if l >= self.threshold {
            NodeStatus::Proven
        } else if u < self.threshold {
            NodeStatus::Disproven
        } else {
            NodeStatus::Unknown
        }
    }

    /// The child the expanded node `n` selects: least p(v_max) at MAX
    /// nodes, least d(v_min) at MIN nodes, ties to the smaller relative
    /// error, then the leftmost.
    pub fn pick(&self, n: Idx) -> Idx {
        let node = self.core.arena.get(n);
        let (or, iv) = (node.is_or(), self.interval);
        let mut best = NONE;
        let mut key = (INF, Value::MAX);
        for c in node.children() {
            let h = if or {
                self.p_at(c, iv.v_max)
            } else {
                self.d_at(c, iv.v_min)
            };
            let k = (h, self.core.arena.get(c).data.err);
            if best == NONE || k < key {
                best = c;
                key = k;
            }
        }
        best
    }

    /// The selection path from the root to the frontier node the next
    /// iteration expands (root first).
    pub fn selection_path(&self) -> Vec<Idx> {
        self.core
            .path_by(|a, n| a.get(n).is_expanded().then(|| self.pick(n)))
    }

    /// The root child the search names as best (module documentation).
    pub fn best_child(&self) -> Option<u32> {
        let root = self.core.arena.get(0);
        if !root.is_expanded() {
            return None;
        }
        let (l, u) = self.proven_bounds(0);
        let keeps = |c: Idx| {
            let (cl, cu) = self.proven_bounds(c);
            if root.is_or() {
                l == NEG_INF || cl == l
            } else {
                u == POS_INF || cu == u
            }
        };
        let mut best: Option<(Idx, u32)> = None;
        for c in root.children().filter(|&c| keeps(c)) {
            let e = self.core.arena.get(c).data.expansions;
            if best.is_none_or(|(_, be)| e > be) {
                best = Some((c, e));
            }
        }
        best.map(|(c, _)| c - root.first_child)
    }

    /// The exact value of the root as a game score (the score of the
    /// finished game its principal variation ends in), once proven.
    /// Only the `score` model's values are game scores; the others map
    /// every finished game to ±∞ and report none.
    pub fn exact_score(&self) -> Option<i32> {
        if self.opts.model != Model::Score || !self.is_exact(0) {
            return None;
        }
        let v = self.minimax(0);
        let mut n: Idx = 0;
        let mut pos = self.core.root_pos.clone();
        while self.core.arena.get(n).is_expanded() {
            let c = self
                .core
                .arena
                .get(n)
                .children()
                .find(|&c| self.is_exact(c) && self.minimax(c) == v)?;
            pos.play(self.core.arena.get(c).mv);
            n = c;
        }
        pos.outcome()
            .map(|o| o.score_for(self.core.question.attacker))
    }

    /// Values of the children of `pos` (node `n`, about to be expanded) for
    /// SCNS: the relative errors of the moves.
    /// Only the moves `keep` accepts are children.
    fn prepare_errors(&mut self, pos: &G, keep: impl Fn(G::Move) -> bool) {
        self.errors.clear();
        if self.opts.model == Model::Scef {
            self.moves.clear();
            pos.legal_moves(&mut self.moves);
            self.moves.retain(|&m| keep(m));
            values::relative_errors(pos, &self.moves, &mut self.scores, &mut self.errors);
        }
    }

    /// Counts an expansion at `n` on `n` and every ancestor (the best
    /// move is the root child with the most).
    fn count_expansion(&mut self, n: Idx) {
        let mut a = n;
        while a != NONE {
            let node = self.core.arena.get_mut(a);
            node.data.expansions = node.data.expansions.saturating_add(1);
            a = node.parent;
        }
    }

    /// Makes the frontier node `n` (position `pos`), which the
    /// connections show `winner` wins, a finished leaf of that value, and
    /// updates its ancestors: iteration `iteration` is spent on it.
    fn settle_by_connection(&mut self, iteration: u64, n: Idx, pos: &G, winner: Player) {
        let q = self.core.question;
        let value = self.opts.model.terminal(pos, Outcome::win_for(winner), &q);
        let node = self.core.arena.get_mut(n);
        node.flags |= TERMINAL;
        node.data.value = value;
        self.core.counters.iterations = iteration;
        let parent = node.parent;
        if parent != NONE {
            let (funcs, shape, eta) = (&mut self.funcs, &self.shape, self.opts.eta);
            self.core
                .update_from(parent, |a, x| recompute(a, funcs, shape, eta, x));
        }
        self.count_expansion(n);
        self.after_update();
    }

    /// Recomputes the interval after the tree changed, records it and
    /// decides whether the run is over.
    fn after_update(&mut self) {
        let root = self.p_function(0).into_owned();
        let root_dm = self.dm_function(0).into_owned();
        self.interval = interval_of(&root, &root_dm, self.opts.pmax, self.opts.dmax);
        let iv = self.interval;
        self.history
            .push((self.core.counters.iterations, iv.v_min, iv.value, iv.v_max));
        let done = iv.width().is_some_and(|w| w <= self.delta_units);
        if done {
            self.core.status = match self.node_status(0) {
                NodeStatus::Proven => Status::Proved,
                NodeStatus::Disproven => Status::Disproved,
                NodeStatus::Unknown => Status::Unknown(StopReason::Exhausted),
            };
        }
    }
}

/// p of a leaf of value `x` (terminal: one step to ∞).
fn leaf_p(shape: &Staircase, x: Value, terminal: bool) -> Staircase {
    if terminal {
        Staircase::step_after(x, INF)
    } else {
        shape.shifted(x)
    }
}

/// The mirrored d of a leaf of value `x`: the proof-function shape at −x.
fn leaf_dm(shape: &Staircase, x: Value, terminal: bool) -> Staircase {
    leaf_p(shape, -x, terminal)
}

/// A leaf's proof-shaped function at `v`, for a leaf at `x`.
#[inline]
fn leaf_at(shape: &Staircase, x: Value, terminal: bool, v: Value) -> Pn {
    if v <= x {
        0
    } else if terminal {
        INF
    } else {
        shape.at_shifted(v, x)
    }
}

/// Recomputes node `i`'s functions from its children (MAX: p = min, d =
/// sum; MIN: p = sum, d = min), applying the η approximation; returns
/// whether they changed.
fn recompute<M: Copy>(
    arena: &Arena<M, CnsData>,
    funcs: &mut [Option<Box<Functions>>],
    shape: &Staircase,
    eta: f64,
    i: Idx,
) -> bool {
    let node = arena.get(i);
    let (ps, dms): (Vec<Cow<Staircase>>, Vec<Cow<Staircase>>) = node
        .children()
        .map(|c| match &funcs[c as usize] {
            Some(f) => (Cow::Borrowed(&f.p), Cow::Borrowed(&f.dm)),
            None => {
                let d = arena.get(c);
                (
                    Cow::Owned(leaf_p(shape, d.data.value, d.is_terminal())),
                    Cow::Owned(leaf_dm(shape, d.data.value, d.is_terminal())),
                )
            }
        })
        .unzip();
    let ps: Vec<&Staircase> = ps.iter().map(|c| c.as_ref()).collect();
    let dms: Vec<&Staircase> = dms.iter().map(|c| c.as_ref()).collect();
    let (p, dm) = if node.is_or() {
        (Staircase::min_all(&ps), Staircase::sum_all(&dms))
    } else {
        (Staircase::sum_all(&ps), Staircase::min_all(&dms))
    };
    let new = Functions {
        p: p.approx(eta),
        dm: dm.approx(eta),
    };
    let slot = &mut funcs[i as usize];
    let changed = slot.as_deref() != Some(&new);
    if changed {
        *slot = Some(Box::new(new));
    }
    changed
}

impl<G: Game> Search for Cns<G> {
    delegate_to_core!();

    fn algo(&self) -> &'static str {
        self.algo
    }

    fn step(&mut self) -> Status {
        if self.core.status.is_final() {
            return self.core.status;
        }
        // 1. Selection: least p(v_max) at MAX, least d(v_min) at MIN.
        let iteration = self.core.counters.iterations + 1;
        let mut pos = self.core.root_pos.clone();
        let (mut n, mut depth) = (0 as Idx, 0u32);
        while self.core.arena.get(n).is_expanded() {
            let c = self.pick(n);
            self.core.follow(iteration, n, c, &mut pos);
            n = c;
            depth += 1;
        }
        if self.core.arena.get(n).is_terminal() {
            // Unreachable while v_max > v_min (a finished game has p and
            // d at 0 or ∞); kept so a wrong tree cannot loop forever.
            debug_assert!(false, "CNS selected a finished game");
            self.core.stop(StopReason::Exhausted);
            return self.core.status;
        }
        // 2. Expansion: every child with its value. On Hex with `vcs`
        //    the connections may settle the node instead, or narrow its
        //    moves to the mustplay region. The root is expanded even when
        //    they settle it, so that the search names the move that wins
        //    (its children are settled in turn as they are expanded).
        let cells = match self.opts.hex_vcs.and_then(|k| k.verdict(&pos)) {
            Some(Err(winner)) if n != 0 => {
                self.settle_by_connection(iteration, n, &pos, winner);
                return self.core.status;
            }
            Some(Ok(cells)) => Some(cells),
            Some(Err(_)) | None => None,
        };
        let keep = |m: G::Move| cells.is_none_or(|c| hex_vcs::move_in(c, m));
        self.prepare_errors(&pos, keep);
        let (model, q) = (self.opts.model, self.core.question);
        let parent = self.core.arena.get(n).data.value;
        let sigma = values::sigma(pos.to_move(), q.attacker);
        let errors = std::mem::take(&mut self.errors);
        let mut k = 0;
        let new = self
            .core
            .expand_where(iteration, n, depth, &pos, keep, |child, _, _| {
                let err = errors.get(k).copied().unwrap_or(0);
                k += 1;
                let (flags, value) = match child.outcome() {
                    Some(o) => (TERMINAL, model.terminal(child, o, &q)),
                    None => (
                        0,
                        values::clamp(match model {
                            Model::WinLoss => 0,
                            Model::Score => {
                                values::for_attacker(values::static_value(child), q.attacker)
                            }
                            Model::Scef => parent + sigma * err,
                        }),
                    ),
                };
                (
                    flags,
                    CnsData {
                        value,
                        err,
                        expansions: 0,
                    },
                )
            });
        self.errors = errors;
        self.funcs.resize(new.end as usize, None);
        // 3. Update the functions bottom-up while they change, and count
        //    the expansion on the whole path.
        let (funcs, shape, eta) = (&mut self.funcs, &self.shape, self.opts.eta);
        self.core
            .update_from(n, |a, x| recompute(a, funcs, shape, eta, x));
        self.count_expansion(n);
        self.after_update();
        self.core.status
    }

    fn value_names(&self) -> &'static [&'static str] {
        view::VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        self.make_snapshot(req)
    }

    fn sample(&self) -> StatsSample {
        let iv = self.interval();
        let unit = self.unit();
        StatsSample {
            interval: Some([display_value(iv.v_min, unit), display_value(iv.v_max, unit)]),
            ..self
                .core
                .sample(self.node_values(0, None), self.best_child())
        }
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.json_fields()
    }
}

/// `v` shown in value units (±∞ as infinities).
pub fn display_value(v: Value, unit: Value) -> f64 {
    match v {
        POS_INF => f64::INFINITY,
        NEG_INF => f64::NEG_INFINITY,
        _ => v as f64 / unit as f64,
    }
}
