//! PPN-search (Song, Iida, van den Herik 2019), docs/algorithms.md §5.1.
//!
//! One number per node, ppn, the estimated probability that the node is
//! proven: 1 / 0 at won / non-won terminals, the playout win rate R clamped
//! into [θ, 1 − θ] at unknown frontier nodes, 1 − Π(1 − ppn) at OR nodes
//! and Π ppn at AND nodes. Selection goes to the child with the largest ppn
//! at OR nodes and the smallest at AND nodes, skipping solved children;
//! expansion creates all children, each with its own K playouts; the
//! ancestors are updated bottom-up, stopping once a node is unchanged.
//!
//! Solved status lives in the arena's [`SOLVED`]/[`PROVEN`] flags and is
//! never read off the floats; the floats are kept as (ln p, ln(1 − p))
//! pairs ([`LogProb`]) so deep products and wide ORs keep their order.

use crate::game::Game;

use super::arena::{flag_status, solved_flags, Arena, Idx, NONE, PROVEN, SOLVED, TERMINAL};
use super::arena_search::{delegate_to_core, next_on_path, ArenaSearch, SnapshotParts};
use super::logprob::LogProb;
use super::playout::{clamp_rate, PlayoutOptions, Playouts};
use super::snapshot::{fmt_value, Inspection, NodeStatus, Snapshot, ViewRequest};
use super::{Counters, Question, Search, SearchError, SearchSetup, StatsSample, Status};

/// Values shown per node: ppn and its two logarithms (which stay exact
/// where the float ppn shows 0 or 1).
const VALUE_NAMES: &[&str] = &["ppn", "ln_ppn", "ln_1m_ppn"];

/// PPN-search on a game `G`.
#[derive(Clone)]
pub struct Ppn<G: Game> {
    core: ArenaSearch<G, LogProb>,
    theta: f64,
    playouts: Playouts,
}

/// Registry constructor.
#[allow(clippy::clone_on_copy)] // some games are `Copy`, the macro serves all
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let q = setup.root_question();
    let PlayoutOptions { k, theta } = PlayoutOptions::from_params(&setup.params)?;
    let seed = setup.seed;
    Ok(crate::with_position!(&setup.position, g => {
        Box::new(Ppn::new(g.clone(), q, k, theta, seed)) as Box<dyn Search>
    }))
}

impl<G: Game> Ppn<G> {
    /// A search of `root` for `question` with `k` playouts per new node,
    /// clamp `theta` and RNG seed `seed`. The root gets its own playouts.
    pub fn new(root: G, question: Question, k: u32, theta: f64, seed: u64) -> Ppn<G> {
        let mut counters = Counters::default();
        let mut playouts = Playouts::new(seed, k);
        let (flags, data) = leaf_value(&root, &question, theta, &mut playouts, &mut counters);
        let status = flag_status(flags);
        let core = ArenaSearch::new(root, question, flags, data, status, counters);
        Ppn {
            core,
            theta,
            playouts,
        }
    }

    /// The arena (tests and comparisons).
    pub fn arena(&self) -> &Arena<G::Move, LogProb> {
        &self.core.arena
    }

    /// The root's probability pair.
    pub fn root_value(&self) -> LogProb {
        self.core.arena.get(0).data
    }

    /// The child an unsolved expanded node selects ([`select_child`]).
    pub fn pick_child(&self, n: Idx) -> Idx {
        select_child(&self.core.arena, n)
    }

    /// Root first, down to the frontier node the next iteration expands.
    pub fn selection_path(&self) -> Vec<Idx> {
        self.core.unsolved_path(select_child)
    }

    /// The root child the search names as best (docs/algorithms.md §5.1 via the
    /// issue's move-choice rule): the largest ppn at an OR root (so a proven
    /// child when there is one), the smallest at an AND root.
    pub fn best_child(&self) -> Option<u32> {
        let arena = &self.core.arena;
        let root = arena.get(0);
        if !root.is_expanded() {
            return None;
        }
        let or = root.is_or();
        let mut best = root.first_child;
        for c in root.children() {
            let d = arena.get(c).data;
            let b = arena.get(best).data;
            if (or && d.greater(b)) || (!or && d.less(b)) {
                best = c;
            }
        }
        Some(best - root.first_child)
    }

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let node = self.core.arena.get(id);
        let d = node.data;
        let mut formulas = Vec::new();
        if node.is_terminal() {
            let what = if node.flags & PROVEN != 0 {
                "the attacker's goal holds → ppn = 1"
            } else {
                "the goal fails → ppn = 0"
            };
            formulas.push(("ppn".into(), format!("game over: {what}")));
        } else if node.flags & SOLVED != 0 {
            let what = if node.flags & PROVEN != 0 {
                "proven (flag) → ppn = 1"
            } else {
                "disproven (flag) → ppn = 0"
            };
            formulas.push(("ppn".into(), what.to_string()));
        } else if !node.is_expanded() {
            formulas.push((
                "ppn".into(),
                format!(
                    "ppn = R' = {} ({} playouts, R clamped into [{}, {}])",
                    fmt_value(d.prob()),
                    self.playouts.k,
                    self.theta,
                    1.0 - self.theta
                ),
            ));
        } else {
            let kids: Vec<LogProb> = node
                .children()
                .map(|c| self.core.arena.get(c).data)
                .collect();
            let shown = kids.len().min(12);
            let more = if kids.len() > shown { " · …" } else { "" };
            if node.is_or() {
                let terms: Vec<String> = kids[..shown]
                    .iter()
                    .map(|k| format!("(1 − {})", fmt_value(k.prob())))
                    .collect();
                formulas.push((
                    "ppn".into(),
                    format!(
                        "ppn = 1 − {}{more} = {}",
                        terms.join("·"),
                        fmt_value(d.prob())
                    ),
                ));
            } else {
                let terms: Vec<String> =
                    kids[..shown].iter().map(|k| fmt_value(k.prob())).collect();
                formulas.push((
                    "ppn".into(),
                    format!("ppn = {}{more} = {}", terms.join("·"), fmt_value(d.prob())),
                ));
            }
            formulas.push((
                "logs".into(),
                format!("ln ppn = {:.6e}, ln(1 − ppn) = {:.6e}", d.lp, d.lq),
            ));
        }
        let choice = next_on_path(path, id).map(|c| {
            let rule = if node.is_or() {
                "largest ppn among unsolved children (OR)"
            } else {
                "smallest ppn among unsolved children (AND)"
            };
            format!(
                "picked child {} ({}): {rule}, ppn = {}",
                c - node.first_child + 1,
                self.core.move_label(c),
                fmt_value(self.core.arena.get(c).data.prob())
            )
        });
        self.core.inspection(id, formulas, choice)
    }
}

/// The values shown for a node: ppn and its two logarithms.
fn values(d: LogProb) -> Vec<f64> {
    vec![d.prob(), d.lp, d.lq]
}

/// The child an unsolved expanded node selects (docs/algorithms.md §5.1):
/// largest ppn at OR, smallest at AND, solved children skipped, ties to the
/// leftmost. [`NONE`] when every child is solved.
pub fn select_child<M: Copy>(arena: &Arena<M, LogProb>, n: Idx) -> Idx {
    let node = arena.get(n);
    let or = node.is_or();
    let mut best = NONE;
    let mut best_v = LogProb::ZERO;
    for c in node.children() {
        let cn = arena.get(c);
        if cn.flags & SOLVED != 0 {
            continue;
        }
        let better = best == NONE
            || if or {
                cn.data.greater(best_v)
            } else {
                cn.data.less(best_v)
            };
        if better {
            best = c;
            best_v = cn.data;
        }
    }
    best
}

/// Recomputes an expanded node from its children: solved flags first (from
/// the children's flags only), then the value (exact 1 / 0 when solved,
/// else the OR/AND probability rule). Returns whether anything changed.
pub fn update_node<M: Copy>(arena: &mut Arena<M, LogProb>, n: Idx) -> bool {
    let solved = solved_flags(arena, n);
    let node = *arena.get(n);
    let data = match flag_status(solved) {
        NodeStatus::Proven => LogProb::ONE,
        NodeStatus::Disproven => LogProb::ZERO,
        NodeStatus::Unknown => {
            let kids = node.children().map(|c| arena.get(c).data);
            if node.is_or() {
                LogProb::or_all(kids)
            } else {
                LogProb::and_all(kids)
            }
        }
    };
    let flags = (node.flags & !(SOLVED | PROVEN)) | solved;
    let nm = arena.get_mut(n);
    let changed = nm.flags != flags || nm.data != data;
    nm.flags = flags;
    nm.data = data;
    changed
}

/// Flags and value of a new node: exact at terminals, R' from playouts
/// otherwise.
fn leaf_value<G: Game>(
    g: &G,
    q: &Question,
    theta: f64,
    playouts: &mut Playouts,
    counters: &mut Counters,
) -> (u8, LogProb) {
    match g.outcome() {
        Some(o) if q.holds(o) => (TERMINAL | SOLVED | PROVEN, LogProb::ONE),
        Some(_) => (TERMINAL | SOLVED, LogProb::ZERO),
        None => {
            let r = playouts.win_rate(g, q, counters);
            (0, LogProb::from_prob(clamp_rate(r, theta)))
        }
    }
}

impl<G: Game> Search for Ppn<G> {
    fn checkpoint(&self) -> Option<Box<dyn Search>> {
        Some(Box::new(self.clone()))
    }

    delegate_to_core!(status: |n: &crate::search::arena::Node<G::Move, _>| flag_status(n.flags));

    fn algo(&self) -> &'static str {
        "ppn"
    }

    fn step(&mut self) -> Status {
        let core = &mut self.core;
        if core.status.is_final() {
            return core.status;
        }
        // 1. Selection (max ppn at OR, min at AND, solved children skipped).
        let iteration = core.counters.iterations + 1;
        let (pos, n, depth) = core.descend(iteration, select_child);
        // 2. Expansion: every child, each with its own K playouts.
        let (q, theta, playouts) = (core.question, self.theta, &mut self.playouts);
        core.expand(iteration, n, depth, &pos, |child, _, counters| {
            leaf_value(child, &q, theta, playouts, counters)
        });
        // 3. Back-propagation by the AND/OR probability rules.
        core.update_from(n, update_node);
        core.settle(flag_status(core.arena.get(0).flags))
    }

    fn value_names(&self) -> &'static [&'static str] {
        VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let view = self.core.view(|n| (values(n.data), flag_status(n.flags)));
        let parts = SnapshotParts {
            algo: self.algo(),
            value_names: VALUE_NAMES,
            label_values: vec![0],
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
            .sample(values(self.root_value()), self.best_child())
    }
}
