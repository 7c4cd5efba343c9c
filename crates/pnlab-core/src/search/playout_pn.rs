//! The search MCPN-search and PPN-search share (docs/algorithms.md §5):
//! a best-first tree in the arena whose new nodes are valued by K playouts
//! each. Both select by their value (skipping solved children), expand a
//! frontier node into all its children, and update the ancestors
//! bottom-up, stopping once a node is unchanged; solved status is kept in
//! the arena's [`SOLVED`]/[`PROVEN`] flags, never read off the floats.
//!
//! They differ only in the number a node carries and its rules, which a
//! [`PlayoutRule`] states: MCPN's real-valued proof and disproof numbers
//! ([`super::mcpn`]), PPN's probability of being proven ([`super::ppn`]).

use crate::game::Game;

use super::arena::{flag_status, solved_flags, Arena, Idx, Node, NONE, PROVEN, SOLVED, TERMINAL};
use super::arena_search::{delegate_to_core, next_on_path, ArenaSearch, SnapshotParts};
use super::playout::{clamp_rate, PlayoutOptions, Playouts};
use super::snapshot::{Inspection, NodeStatus, Snapshot, ViewRequest};
use super::{Counters, Question, Search, SearchError, SearchSetup, StatsSample, Status};

/// What one playout-valued proof search carries per node and how it
/// combines, compares and explains it.
pub trait PlayoutRule: Clone + Send + Sync + 'static {
    /// The number kept per node.
    type Value: Copy + PartialEq + Send + Sync + 'static;
    /// The registry name.
    const ALGO: &'static str;
    /// Names of the values shown per node.
    const VALUE_NAMES: &'static [&'static str];
    /// Which of them a tree view prints on each node.
    const LABEL_VALUES: &'static [usize];
    /// The value of a proven node.
    const PROVEN: Self::Value;
    /// The value of a disproven node.
    const DISPROVEN: Self::Value;

    /// The value of an unknown frontier node whose playout win rate,
    /// clamped into [θ, 1 − θ], is `rate`.
    fn from_rate(rate: f64) -> Self::Value;
    /// The value of an unsolved expanded node from its children's values.
    fn combine(or: bool, children: impl Iterator<Item = Self::Value> + Clone) -> Self::Value;
    /// Whether `a` is strictly better than `b` for the side to move at an
    /// OR (`or`) or AND node: selection and the best root child take the
    /// first child no later one beats.
    fn better(or: bool, a: Self::Value, b: Self::Value) -> bool;
    /// The values shown for a node (aligned with `VALUE_NAMES`).
    fn values(v: Self::Value) -> Vec<f64>;
    /// The inspector's line for a game-over node with value `v`
    /// (`proven`: the attacker's goal holds there).
    fn terminal_formula(proven: bool, v: Self::Value) -> (String, String);
    /// The inspector's line for a node solved through its children.
    fn solved_formula(proven: bool, v: Self::Value) -> (String, String);
    /// The inspector's lines for a frontier node valued by `k` playouts,
    /// the rate clamped into [`theta`, 1 − `theta`].
    fn frontier_formulas(v: Self::Value, k: u32, theta: f64) -> Vec<(String, String)>;
    /// The inspector's lines for an unsolved expanded OR (`or`) or AND
    /// node from its children's values `kids`.
    fn expanded_formulas(or: bool, v: Self::Value, kids: &[Self::Value]) -> Vec<(String, String)>;
    /// Why a node at an OR (`or`) or AND node picked the child with value
    /// `child`: the rule and the child's number.
    fn choice(or: bool, child: Self::Value) -> String;
}

/// A playout-valued proof search on a game `G` with the rules `R`.
#[derive(Clone)]
pub struct PlayoutPn<G: Game, R: PlayoutRule> {
    core: ArenaSearch<G, R::Value>,
    theta: f64,
    playouts: Playouts,
}

/// Registry constructor for the search with rules `R`.
#[allow(clippy::clone_on_copy)] // some games are `Copy`, the macro serves all
pub fn build<R: PlayoutRule>(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let q = setup.root_question();
    let PlayoutOptions { k, theta } = PlayoutOptions::from_params(&setup.params)?;
    let seed = setup.seed;
    Ok(crate::with_position!(&setup.position, g => {
        Box::new(PlayoutPn::<_, R>::new(g.clone(), q, k, theta, seed)) as Box<dyn Search>
    }))
}

impl<G: Game, R: PlayoutRule> PlayoutPn<G, R> {
    /// A search of `root` for `question` with `k` playouts per new node,
    /// clamp `theta` and RNG seed `seed`. The root gets its own playouts.
    pub fn new(root: G, question: Question, k: u32, theta: f64, seed: u64) -> PlayoutPn<G, R> {
        let mut counters = Counters::default();
        let mut playouts = Playouts::new(seed, k);
        let (flags, data) =
            leaf_value::<G, R>(&root, &question, theta, &mut playouts, &mut counters);
        let status = flag_status(flags);
        let core = ArenaSearch::new(root, question, flags, data, status, counters);
        PlayoutPn {
            core,
            theta,
            playouts,
        }
    }

    /// The arena (tests and comparisons).
    pub fn arena(&self) -> &Arena<G::Move, R::Value> {
        &self.core.arena
    }

    /// The root's value.
    pub fn root_value(&self) -> R::Value {
        self.core.arena.get(0).data
    }

    /// The child an unsolved expanded node selects ([`select_child`]).
    pub fn pick_child(&self, n: Idx) -> Idx {
        select_child::<R, G::Move>(&self.core.arena, n)
    }

    /// Root first, down to the frontier node the next iteration expands.
    pub fn selection_path(&self) -> Vec<Idx> {
        self.core.unsolved_path(select_child::<R, G::Move>)
    }

    /// The root child the search names as best (the move-choice
    /// rule): the best value for the side to move at the root by
    /// [`PlayoutRule::better`] (so a proven child at an OR root when there
    /// is one), leftmost on ties.
    pub fn best_child(&self) -> Option<u32> {
        let arena = &self.core.arena;
        let root = arena.get(0);
        if !root.is_expanded() {
            return None;
        }
        let or = root.is_or();
        let mut best = root.first_child;
        for c in root.children() {
            if R::better(or, arena.get(c).data, arena.get(best).data) {
                best = c;
            }
        }
        Some(best - root.first_child)
    }

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let arena = &self.core.arena;
        let node = arena.get(id);
        let (d, proven) = (node.data, node.flags & PROVEN != 0);
        let formulas = if node.is_terminal() {
            vec![R::terminal_formula(proven, d)]
        } else if node.flags & SOLVED != 0 {
            vec![R::solved_formula(proven, d)]
        } else if !node.is_expanded() {
            R::frontier_formulas(d, self.playouts.k, self.theta)
        } else {
            let kids: Vec<R::Value> = node.children().map(|c| arena.get(c).data).collect();
            R::expanded_formulas(node.is_or(), d, &kids)
        };
        let choice = next_on_path(path, id).map(|c| {
            format!(
                "picked child {} ({}): {}",
                c - node.first_child + 1,
                self.core.move_label(c),
                R::choice(node.is_or(), arena.get(c).data)
            )
        });
        self.core.inspection(id, formulas, choice)
    }
}

/// The child an unsolved expanded node selects: the best by
/// [`PlayoutRule::better`], solved children skipped, ties to the leftmost.
/// [`NONE`] when every child is solved.
pub fn select_child<R: PlayoutRule, M: Copy>(arena: &Arena<M, R::Value>, n: Idx) -> Idx {
    let node = arena.get(n);
    let or = node.is_or();
    let mut best = NONE;
    for c in node.children() {
        let cn = arena.get(c);
        if cn.flags & SOLVED != 0 {
            continue;
        }
        if best == NONE || R::better(or, cn.data, arena.get(best).data) {
            best = c;
        }
    }
    best
}

/// Recomputes an expanded node from its children: solved flags first (from
/// the children's flags only), then the value (exact when solved, else the
/// rule's combination). Returns whether anything changed.
pub fn update_node<R: PlayoutRule, M: Copy>(arena: &mut Arena<M, R::Value>, n: Idx) -> bool {
    let solved = solved_flags(arena, n);
    let node = *arena.get(n);
    let data = match flag_status(solved) {
        NodeStatus::Proven => R::PROVEN,
        NodeStatus::Disproven => R::DISPROVEN,
        NodeStatus::Unknown => R::combine(node.is_or(), node.children().map(|c| arena.get(c).data)),
    };
    let flags = (node.flags & !(SOLVED | PROVEN)) | solved;
    let nm = arena.get_mut(n);
    let changed = nm.flags != flags || nm.data != data;
    nm.flags = flags;
    nm.data = data;
    changed
}

/// Flags and value of a new node: exact at terminals, from the clamped
/// playout win rate otherwise.
fn leaf_value<G: Game, R: PlayoutRule>(
    g: &G,
    q: &Question,
    theta: f64,
    playouts: &mut Playouts,
    counters: &mut Counters,
) -> (u8, R::Value) {
    match g.outcome() {
        Some(o) if q.holds(o) => (TERMINAL | SOLVED | PROVEN, R::PROVEN),
        Some(_) => (TERMINAL | SOLVED, R::DISPROVEN),
        None => {
            let r = playouts.win_rate(g, q, counters);
            (0, R::from_rate(clamp_rate(r, theta)))
        }
    }
}

impl<G: Game, R: PlayoutRule> Search for PlayoutPn<G, R> {
    delegate_to_core!(status: |n: &Node<G::Move, R::Value>| flag_status(n.flags));

    fn algo(&self) -> &'static str {
        R::ALGO
    }

    fn step(&mut self) -> Status {
        let core = &mut self.core;
        if core.status.is_final() {
            return core.status;
        }
        // 1. Selection (the rule's best child, solved children skipped).
        let iteration = core.counters.iterations + 1;
        let (pos, n, depth) = core.descend(iteration, select_child::<R, G::Move>);
        // 2. Expansion: every child, each with its own K playouts.
        let (q, theta, playouts) = (core.question, self.theta, &mut self.playouts);
        core.expand(iteration, n, depth, &pos, |child, _, counters| {
            leaf_value::<G, R>(child, &q, theta, playouts, counters)
        });
        // 3. Update ancestors by the rule's OR/AND combination.
        core.update_from(n, update_node::<R, G::Move>);
        core.settle(flag_status(core.arena.get(0).flags))
    }

    fn value_names(&self) -> &'static [&'static str] {
        R::VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let view = self
            .core
            .view(|n| (R::values(n.data), flag_status(n.flags)));
        let parts = SnapshotParts {
            algo: R::ALGO,
            value_names: R::VALUE_NAMES,
            label_values: R::LABEL_VALUES.to_vec(),
            selection_path: || self.selection_path(),
            explain: |i, path: &[Idx]| self.explain(i, path),
            extras: vec![
                ("K".into(), self.playouts.k.to_string()),
                ("theta".into(), self.theta.to_string()),
            ],
        };
        self.core.snapshot(req, &view, parts)
    }

    fn sample(&self) -> StatsSample {
        self.core
            .sample(R::values(self.root_value()), self.best_child())
    }
}
