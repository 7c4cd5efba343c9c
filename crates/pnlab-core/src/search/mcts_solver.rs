//! MCTS solver and UCT solver (Winands, Björnsson, Saito 2008),
//! docs/algorithms.md §5.3.
//!
//! Each tree node keeps a visit count n, a playout count and the sum of
//! the playout results backed up through it, from the point of view of the
//! player who moved into it (negamax: win 1, draw 0, loss −1); the mean
//! v = sum / playouts is what the player choosing at the parent maximises.
//!
//! n counts *visits*, the iterations whose path went through the node (as
//! in Winands et al. 2008), not playouts: with K playouts per new node a
//! count of playouts would grow K times faster and shrink the UCT bonus
//! √(C ln n_p / n_i) and the final A/√n by √K (≈ 3.2 at K = 10), which is
//! not the algorithm the papers ran. The mean still averages every
//! playout.
//!
//! One iteration: descend from the root; at a node whose children are not
//! all in the tree yet, add the next one in move order (one new node per
//! iteration; "unvisited children first"), else pick a child — *pure* MCTS
//! the largest mean v, *UCT* the largest v + sqrt(C · ln n_parent / n) —
//! skipping children proven lost for the player to move. The new node gets
//! K playouts (its exact result K times when it is terminal) and the
//! results are backed up to the root.
//!
//! Solver back-up: a child proven won for the player to move proves its
//! parent won; a parent all of whose children are proven lost is proven
//! lost. "Won" is the attacker's question (a draw is a loss for a `win`
//! question), so the solver answers exactly what the other solvers answer;
//! proven status lives in the arena's flags (`SOLVED`, `PROVEN` = the
//! attacker's goal holds).
//!
//! Storage: when a node's children are first needed they are all created
//! at once as arena slots (the arena keeps siblings contiguous), but a slot
//! joins the tree only when the iteration that adds it gives it playouts;
//! `nodes_created` counts tree nodes (one per iteration plus the root) and
//! `live_nodes`/`peak_tree_bytes` count every slot honestly. Snapshots show
//! only nodes in the tree.
//!
//! Final move choice (§5.3): the root child maximising v + A/√n (A = 1),
//! where a child proven won for the root's mover counts as +∞ and one
//! proven lost as −∞ (the solver's values).

use crate::game::{Game, Player};

use super::arena::{flag_status, solved_flags};
use super::arena::{Arena, ArenaView, Idx, Node, NONE, PROVEN, SOLVED, TERMINAL};
use super::arena_search::{delegate_to_core, next_on_path, ArenaSearch, SnapshotParts};
use super::params::ParamSpec;
use super::playout::{Playouts, K_PARAM};
use super::snapshot::{
    fmt_value, Inspection, NodeId, NodeStatus, SnapNode, Snapshot, TreeAccess, ViewRequest,
};
use super::{Counters, Question, Search, SearchError, SearchSetup, StatsSample, Status};

/// `A`: weight of the final-choice bonus A/√n (shared with
/// `pgame-compare`, which passes it on; 0 picks the largest mean).
pub const A_PARAM: ParamSpec = ParamSpec::real(
    "A",
    0.0,
    100.0,
    1.0,
    "Final move choice: the root child maximising v + A/√n (docs/algorithms.md §5.3)",
);

crate::options! {
    /// The pure MCTS solver's options.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct PureOptions {
        /// Playouts per new node.
        pub k: u32 => K_PARAM,
        /// Final-choice bonus weight.
        pub a: f64 => A_PARAM,
    }
}

/// `C`: UCT's exploration constant (shared with `pgame-compare`, which
/// passes it on).
pub const C_PARAM: ParamSpec = ParamSpec::real(
    "C",
    0.0,
    100.0,
    2.0,
    "UCT exploration constant: select argmax v + sqrt(C · ln n_parent / n)",
);

crate::options! {
    /// The UCT solver's options.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct UctOptions {
        /// Playouts per new node.
        pub k: u32 => K_PARAM,
        /// Exploration constant.
        pub c: f64 => C_PARAM,
        /// Final-choice bonus weight.
        pub a: f64 => A_PARAM,
    }
}

/// Shown per node: the visit count n, the mean v and the playouts behind v.
const VALUE_NAMES: &[&str] = &["visits", "mean", "playouts"];

/// Child selection rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Largest mean (the PPN paper's "pure MCTS solver").
    Pure,
    /// UCT with constant C.
    Uct {
        /// Exploration constant: larger C tries less-visited children more.
        c: f64,
    },
}

/// Per-node statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct McStats {
    /// Iterations whose path went through the node, the n of UCT and of
    /// the final choice (0 = a slot not in the tree).
    pub visits: u32,
    /// Playout results backed up through the node (K per new node below
    /// it, K times the exact result for a terminal one).
    pub playouts: u32,
    /// Sum of those results from the view of the player who moved here.
    pub sum: f64,
}

impl McStats {
    /// Mean result v over all playouts (0 when unvisited).
    #[inline]
    pub fn mean(&self) -> f64 {
        if self.playouts == 0 {
            0.0
        } else {
            self.sum / self.playouts as f64
        }
    }
}

/// The MCTS / UCT solver on a game `G`.
#[derive(Clone)]
pub struct MctsSolver<G: Game> {
    core: ArenaSearch<G, McStats>,
    policy: Policy,
    a: f64,
    playouts: Playouts,
    /// Reused buffer: the nodes the current iteration went through.
    path: Vec<Idx>,
}

fn build_with(setup: &SearchSetup, policy: Policy, k: u32, a: f64) -> Box<dyn Search> {
    let q = setup.root_question();
    let seed = setup.seed;
    #[allow(clippy::clone_on_copy)] // some games are `Copy`, the macro serves all
    let s = crate::with_position!(&setup.position, g => {
        Box::new(MctsSolver::new(g.clone(), q, policy, k, a, seed)) as Box<dyn Search>
    });
    s
}

/// Registry constructor for `mcts-solver` (pure selection).
pub fn build_pure(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let o = PureOptions::from_params(&setup.params)?;
    Ok(build_with(setup, Policy::Pure, o.k, o.a))
}

/// Registry constructor for `uct-solver`.
pub fn build_uct(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let o = UctOptions::from_params(&setup.params)?;
    Ok(build_with(setup, Policy::Uct { c: o.c }, o.k, o.a))
}

impl<G: Game> MctsSolver<G> {
    /// A solver of `root` for `question`; the root is the first tree node
    /// and gets its K playouts at once (a terminal root is solved at once).
    pub fn new(root: G, question: Question, policy: Policy, k: u32, a: f64, seed: u64) -> Self {
        let mut counters = Counters::default();
        let mut playouts = Playouts::new(seed, k);
        // The root's value is from the view of the player who "moved into"
        // it: the opponent of its mover.
        let into = root.to_move().other();
        let (flags, stats) = new_node_value(&root, &question, into, &mut playouts, &mut counters);
        let status = flag_status(flags);
        MctsSolver {
            core: ArenaSearch::new(root, question, flags, stats, status, counters),
            policy,
            a,
            playouts,
            path: Vec::new(),
        }
    }

    /// The arena (tests).
    pub fn arena(&self) -> &Arena<G::Move, McStats> {
        &self.core.arena
    }

    /// The player to move at node `n`.
    #[inline]
    fn mover(&self, n: Idx) -> Player {
        if self.core.arena.get(n).is_or() {
            self.core.question.attacker
        } else {
            self.core.question.attacker.other()
        }
    }

    /// Whether child `c` is proven won / lost for the player to move at its
    /// parent (`or` = the parent is an OR node).
    #[inline]
    fn solved_for_mover(flags: u8, or: bool) -> Option<bool> {
        if flags & SOLVED == 0 {
            None
        } else {
            Some((flags & PROVEN != 0) == or)
        }
    }

    /// The first child of `n` not yet in the tree.
    fn first_unvisited(&self, n: Idx) -> Option<Idx> {
        let arena = &self.core.arena;
        arena
            .get(n)
            .children()
            .find(|&c| arena.get(c).data.visits == 0)
    }

    /// The child an expanded node whose children are all in the tree
    /// selects: largest mean (pure) or UCT value, skipping children proven
    /// lost for the mover; leftmost on ties. [`NONE`] if none is left.
    pub fn select(&self, n: Idx) -> Idx {
        let node = self.core.arena.get(n);
        let or = node.is_or();
        let ln_n = (node.data.visits.max(1) as f64).ln();
        let mut best = NONE;
        let mut best_v = f64::NEG_INFINITY;
        for c in node.children() {
            let cn = self.core.arena.get(c);
            if Self::solved_for_mover(cn.flags, or) == Some(false) {
                continue;
            }
            let v = match self.policy {
                Policy::Pure => cn.data.mean(),
                Policy::Uct { c: cc } => {
                    cn.data.mean() + (cc * ln_n / cn.data.visits.max(1) as f64).sqrt()
                }
            };
            if best == NONE || v > best_v {
                best = c;
                best_v = v;
            }
        }
        best
    }

    /// The child the next iteration goes to from `n` (a new node or a
    /// selected one); `None` for a node not expanded yet.
    fn next_child(&self, n: Idx) -> Option<Idx> {
        if !self.core.arena.get(n).is_expanded() {
            return None;
        }
        self.first_unvisited(n).or_else(|| {
            let c = self.select(n);
            (c != NONE).then_some(c)
        })
    }

    /// Root first, down to the node the next iteration will add.
    pub fn selection_path(&self) -> Vec<Idx> {
        let mut path = vec![0];
        let mut n = 0;
        if self.core.arena.get(0).flags & SOLVED != 0 {
            return path;
        }
        while let Some(c) = self.next_child(n) {
            path.push(c);
            if self.core.arena.get(c).data.visits == 0 {
                break;
            }
            n = c;
        }
        path
    }

    /// The final-choice score of a root child: v + A/√n, ±∞ when proven.
    fn choice_score(&self, c: Idx, root_or: bool) -> f64 {
        let cn = self.core.arena.get(c);
        match Self::solved_for_mover(cn.flags, root_or) {
            Some(true) => f64::INFINITY,
            Some(false) => f64::NEG_INFINITY,
            None => cn.data.mean() + self.a / (cn.data.visits as f64).sqrt(),
        }
    }

    /// The root child the solver names as best (§5.3 final choice), among
    /// children in the tree; leftmost on ties.
    pub fn best_child(&self) -> Option<u32> {
        let root = self.core.arena.get(0);
        let or = root.is_or();
        let mut best: Option<(Idx, f64)> = None;
        for c in root.children() {
            if self.core.arena.get(c).data.visits == 0 {
                continue;
            }
            let s = self.choice_score(c, or);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((c, s));
            }
        }
        best.map(|(c, _)| c - root.first_child)
    }

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let node = self.core.arena.get(id);
        let d = node.data;
        let mut formulas = vec![
            (
                "visits".to_string(),
                format!("n = {} (iterations through this node)", d.visits),
            ),
            (
                "mean".to_string(),
                format!(
                    "v = {} / {} playouts = {} (for the player who moved here)",
                    fmt_value(d.sum),
                    d.playouts,
                    fmt_value(d.mean())
                ),
            ),
        ];
        if node.flags & SOLVED != 0 {
            let what = if node.flags & PROVEN != 0 {
                "proven: the attacker's goal holds"
            } else {
                "disproven: the attacker's goal fails"
            };
            let why = if node.is_terminal() {
                "game over"
            } else {
                "solver back-up"
            };
            formulas.push(("solved".into(), format!("{what} ({why})")));
        }
        if node.parent != NONE {
            let p = self.core.arena.get(node.parent);
            if let Policy::Uct { c } = self.policy {
                let u = d.mean()
                    + (c * (p.data.visits.max(1) as f64).ln() / d.visits.max(1) as f64).sqrt();
                formulas.push((
                    "uct".into(),
                    format!(
                        "v + √(C·ln N / n) = {} + √({c}·ln {} / {}) = {}",
                        fmt_value(d.mean()),
                        p.data.visits,
                        d.visits,
                        fmt_value(u)
                    ),
                ));
            }
        }
        let choice = next_on_path(path, id).map(|c| {
            let rule = if self.core.arena.get(c).data.visits == 0 {
                "the next child not yet in the tree (one new node per iteration)".to_string()
            } else {
                match self.policy {
                    Policy::Pure => "largest mean v, proven-lost children skipped".to_string(),
                    Policy::Uct { c } => {
                        format!("largest v + √({c}·ln N / n), proven-lost children skipped")
                    }
                }
            };
            format!(
                "picked child {} ({}): {rule}",
                c - node.first_child + 1,
                self.core.move_label(c)
            )
        });
        self.core.inspection(id, formulas, choice)
    }
}

/// The values shown for a node: visits, mean and playouts.
fn values(d: &McStats) -> Vec<f64> {
    vec![d.visits as f64, d.mean(), d.playouts as f64]
}

/// Flags and statistics of a node joining the tree (one visit): a terminal
/// node gets its exact result K times and is solved; any other node K
/// playouts.
/// Results are from `into`'s point of view (the player who moved here).
fn new_node_value<G: Game>(
    g: &G,
    q: &Question,
    into: Player,
    playouts: &mut Playouts,
    counters: &mut Counters,
) -> (u8, McStats) {
    let k = playouts.k;
    match g.outcome() {
        Some(o) => {
            let flags = TERMINAL | SOLVED | if q.holds(o) { PROVEN } else { 0 };
            let r = o.score_for(into).signum() as f64;
            (
                flags,
                McStats {
                    visits: 1,
                    playouts: k,
                    sum: r * k as f64,
                },
            )
        }
        None => (
            0,
            McStats {
                visits: 1,
                playouts: k,
                sum: playouts.score_sum(g, into, counters),
            },
        ),
    }
}

impl<G: Game> Search for MctsSolver<G> {
    delegate_to_core!(status: |n: &crate::search::arena::Node<G::Move, McStats>| flag_status(n.flags));

    fn algo(&self) -> &'static str {
        match self.policy {
            Policy::Pure => "mcts-solver",
            Policy::Uct { .. } => "uct-solver",
        }
    }

    fn step(&mut self) -> Status {
        if self.core.status.is_final() {
            return self.core.status;
        }
        let iteration = self.core.counters.iterations + 1;
        let mut pos = self.core.root_pos.clone();
        let mut n: Idx = 0;
        self.path.clear();
        self.path.push(0);
        // 1. Descend until a child not yet in the tree is reached; a node's
        //    children become slots the first time the descent reaches it.
        let new = loop {
            if !self.core.arena.get(n).is_expanded() {
                self.core
                    .add_children(n, &pos, |_, _, _| (0, McStats::default()));
            }
            let (c, is_new) = match self.first_unvisited(n) {
                Some(c) => (c, true),
                None => (self.select(n), false),
            };
            self.core.follow(iteration, n, c, &mut pos);
            self.path.push(c);
            if is_new {
                break c;
            }
            n = c;
        };
        // 2. The new node's K playouts (or exact result).
        let into = self.mover(n);
        let (flags, stats) = new_node_value(
            &pos,
            &self.core.question,
            into,
            &mut self.playouts,
            &mut self.core.counters,
        );
        {
            let nm = self.core.arena.get_mut(new);
            nm.flags |= flags;
            nm.data = stats;
        }
        self.core.counters.iterations = iteration;
        self.core.counters.nodes_created += 1;
        self.core.counters.max_depth = self.core.counters.max_depth.max(self.path.len() as u32 - 1);
        // 3. Back-up: results with the sign of each node's "moved into"
        //    player, and solved status while it keeps changing.
        let mut solving = flags & SOLVED != 0;
        for i in (0..self.path.len() - 1).rev() {
            let x = self.path[i];
            if solving {
                let s = solved_flags(&self.core.arena, x);
                if s != 0 {
                    self.core.arena.get_mut(x).flags |= s;
                } else {
                    solving = false;
                }
            }
            let into_x = if x == 0 {
                self.mover(0).other()
            } else {
                self.mover(self.core.arena.get(x).parent)
            };
            let add = if into_x == into {
                stats.sum
            } else {
                -stats.sum
            };
            let xm = self.core.arena.get_mut(x);
            xm.data.visits = xm.data.visits.saturating_add(1);
            xm.data.playouts = xm.data.playouts.saturating_add(stats.playouts);
            xm.data.sum += add;
        }
        self.core.refresh_memory();
        self.core.settle(flag_status(self.core.arena.get(0).flags))
    }

    fn value_names(&self) -> &'static [&'static str] {
        VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let read = |n: &Node<G::Move, McStats>| (values(&n.data), flag_status(n.flags));
        let view = TreeOnly {
            inner: self.core.view(read),
        };
        let mut extras = vec![("K".into(), self.playouts.k.to_string())];
        if let Policy::Uct { c } = self.policy {
            extras.push(("C".into(), c.to_string()));
        }
        extras.push(("A".into(), self.a.to_string()));
        let parts = SnapshotParts {
            algo: self.algo(),
            value_names: VALUE_NAMES,
            label_values: vec![0, 1],
            selection_path: || self.selection_path(),
            explain: |i, path: &[Idx]| self.explain(i, path),
            extras,
        };
        self.core.snapshot(req, &view, parts)
    }

    fn sample(&self) -> StatsSample {
        let root = &self.core.arena.get(0).data;
        self.core.sample(values(root), self.best_child())
    }
}

/// The arena seen without the slots that have not joined the tree.
struct TreeOnly<V> {
    inner: V,
}

impl<'a, G: Game, F> TreeAccess for TreeOnly<ArenaView<'a, G, McStats, F>>
where
    F: Fn(&Node<G::Move, McStats>) -> (Vec<f64>, NodeStatus),
{
    fn root_id(&self) -> NodeId {
        0
    }

    fn children(&self, id: NodeId, out: &mut Vec<NodeId>) {
        let a = self.inner.arena;
        out.extend(
            a.get(id as Idx)
                .children()
                .filter(|&c| a.get(c).data.visits > 0)
                .map(|c| c as u64),
        );
    }

    fn describe(&self, id: NodeId) -> SnapNode {
        let mut n = self.inner.describe(id);
        let a = self.inner.arena;
        let kids = a
            .get(id as Idx)
            .children()
            .filter(|&c| a.get(c).data.visits > 0)
            .count();
        n.n_children = kids as u32;
        n.expanded = kids > 0;
        n
    }
}
