//! MCPN-search (Saito et al. 2006), docs/algorithms.md §5.2.
//!
//! PN-search rules (OR: pn = min pn(c), dn = Σ dn(c); AND: pn = Σ pn(c),
//! dn = min dn(c); least pn at OR, least dn at AND) over *real-valued*
//! numbers: an unknown frontier node gets pn = 1 − R', dn = R' where R' is
//! its playout win rate R clamped into [θ, 1 − θ]; terminal leaves are as
//! in PNS (0/∞). Expansion creates all children, each with its own K
//! playouts.
//!
//! As in PPN-search the solved status is kept in the arena's flags (a
//! node is proven only when a flag says so); the numbers of a solved node
//! are then set to the exact (0, ∞) or (∞, 0).

use crate::game::Game;

use super::arena::{flag_status, solved_flags};
use super::arena::{Arena, Idx, NONE, PROVEN, SOLVED, TERMINAL};
use super::arena_search::{delegate_to_core, next_on_path, ArenaSearch, SnapshotParts};
use super::playout::{clamp_rate, PlayoutOptions, Playouts};
use super::snapshot::{fmt_value, Inspection, NodeStatus, Snapshot, ViewRequest};
use super::{Counters, Question, Search, SearchError, SearchSetup, StatsSample, Status};

/// Values shown per node.
const VALUE_NAMES: &[&str] = super::pn::PN_DN_NAMES;

/// Real-valued proof and disproof numbers (∞ = `f64::INFINITY`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RealPnDn {
    /// Proof number, a real from the Monte-Carlo estimate (0 = proven).
    pub pn: f64,
    /// Disproof number, a real from the Monte-Carlo estimate (0 = disproven).
    pub dn: f64,
}

impl RealPnDn {
    /// A proven node: (0, ∞).
    pub const PROVEN: RealPnDn = RealPnDn {
        pn: 0.0,
        dn: f64::INFINITY,
    };
    /// A disproven node: (∞, 0).
    pub const DISPROVEN: RealPnDn = RealPnDn {
        pn: f64::INFINITY,
        dn: 0.0,
    };
}

/// MCPN-search on a game `G`.
#[derive(Clone)]
pub struct Mcpn<G: Game> {
    core: ArenaSearch<G, RealPnDn>,
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
        Box::new(Mcpn::new(g.clone(), q, k, theta, seed)) as Box<dyn Search>
    }))
}

impl<G: Game> Mcpn<G> {
    /// A search of `root` for `question` with `k` playouts per new node,
    /// clamp `theta` and RNG seed `seed`. The root gets its own playouts.
    pub fn new(root: G, question: Question, k: u32, theta: f64, seed: u64) -> Mcpn<G> {
        let mut counters = Counters::default();
        let mut playouts = Playouts::new(seed, k);
        let (flags, data) = leaf_value(&root, &question, theta, &mut playouts, &mut counters);
        let status = flag_status(flags);
        let core = ArenaSearch::new(root, question, flags, data, status, counters);
        Mcpn {
            core,
            theta,
            playouts,
        }
    }

    /// The arena (tests and comparisons).
    pub fn arena(&self) -> &Arena<G::Move, RealPnDn> {
        &self.core.arena
    }

    /// The root's numbers.
    pub fn root_value(&self) -> RealPnDn {
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

    /// The root child the search names as best (the move-choice
    /// rule for PNS and MCPN): the least pn at an OR root (a proven child
    /// when there is one), the least dn at an AND root; leftmost on ties.
    pub fn best_child(&self) -> Option<u32> {
        let root = self.core.arena.get(0);
        if !root.is_expanded() {
            return None;
        }
        let or = root.is_or();
        let key = |c: Idx| {
            let d = self.core.arena.get(c).data;
            if or {
                d.pn
            } else {
                d.dn
            }
        };
        let mut best = root.first_child;
        for c in root.children() {
            if key(c) < key(best) {
                best = c;
            }
        }
        Some(best - root.first_child)
    }

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let node = self.core.arena.get(id);
        let d = node.data;
        let mut formulas = Vec::new();
        let pair = format!("pn = {}, dn = {}", fmt_value(d.pn), fmt_value(d.dn));
        if node.is_terminal() {
            let what = if node.flags & PROVEN != 0 {
                "the attacker's goal holds"
            } else {
                "the goal fails"
            };
            formulas.push(("terminal".into(), format!("game over: {what} → {pair}")));
        } else if node.flags & SOLVED != 0 {
            let what = if node.flags & PROVEN != 0 {
                "proven (flag)"
            } else {
                "disproven (flag)"
            };
            formulas.push(("solved".into(), format!("{what} → {pair}")));
        } else if !node.is_expanded() {
            formulas.push((
                "pn".into(),
                format!(
                    "pn = 1 − R' = {} (R' = playout win rate over {} playouts, clamped into [{}, {}])",
                    fmt_value(d.pn),
                    self.playouts.k,
                    self.theta,
                    1.0 - self.theta
                ),
            ));
            formulas.push(("dn".into(), format!("dn = R' = {}", fmt_value(d.dn))));
        } else {
            let kids: Vec<RealPnDn> = node
                .children()
                .map(|c| self.core.arena.get(c).data)
                .collect();
            let shown = kids.len().min(12);
            let more = if kids.len() > shown { ", …" } else { "" };
            let pns: Vec<String> = kids[..shown].iter().map(|k| fmt_value(k.pn)).collect();
            let dns: Vec<String> = kids[..shown].iter().map(|k| fmt_value(k.dn)).collect();
            let (minf, sumf) = if node.is_or() {
                (("pn", &pns, d.pn), ("dn", &dns, d.dn))
            } else {
                (("dn", &dns, d.dn), ("pn", &pns, d.pn))
            };
            formulas.push((
                minf.0.into(),
                format!(
                    "{} = min({}{more}) = {}",
                    minf.0,
                    minf.1.join(", "),
                    fmt_value(minf.2)
                ),
            ));
            let plus_more = if more.is_empty() { "" } else { " + …" };
            formulas.push((
                sumf.0.into(),
                format!(
                    "{} = {}{plus_more} = {}",
                    sumf.0,
                    sumf.1.join(" + "),
                    fmt_value(sumf.2)
                ),
            ));
        }
        let choice = next_on_path(path, id).map(|c| {
            let cd = self.core.arena.get(c).data;
            let (rule, v) = if node.is_or() {
                ("least pn among unsolved children (OR)", cd.pn)
            } else {
                ("least dn among unsolved children (AND)", cd.dn)
            };
            format!(
                "picked child {} ({}): {rule} = {}",
                c - node.first_child + 1,
                self.core.move_label(c),
                fmt_value(v)
            )
        });
        self.core.inspection(id, formulas, choice)
    }
}

/// The values shown for a node: pn and dn.
fn values(d: RealPnDn) -> Vec<f64> {
    vec![d.pn, d.dn]
}

/// The child an unsolved expanded node selects (docs/algorithms.md §5.2 = §1):
/// least pn at OR, least dn at AND, solved children skipped, ties to the
/// leftmost. [`NONE`] when every child is solved.
pub fn select_child<M: Copy>(arena: &Arena<M, RealPnDn>, n: Idx) -> Idx {
    let node = arena.get(n);
    let or = node.is_or();
    let mut best = NONE;
    let mut best_v = f64::INFINITY;
    for c in node.children() {
        let cn = arena.get(c);
        if cn.flags & SOLVED != 0 {
            continue;
        }
        let v = if or { cn.data.pn } else { cn.data.dn };
        if best == NONE || v < best_v {
            best = c;
            best_v = v;
        }
    }
    best
}

/// Recomputes an expanded node from its children: solved flags from the
/// children's flags, then the numbers (exact when solved, else min / sum).
/// Returns whether anything changed.
pub fn update_node<M: Copy>(arena: &mut Arena<M, RealPnDn>, n: Idx) -> bool {
    let solved = solved_flags(arena, n);
    let node = *arena.get(n);
    let data = match flag_status(solved) {
        NodeStatus::Proven => RealPnDn::PROVEN,
        NodeStatus::Disproven => RealPnDn::DISPROVEN,
        NodeStatus::Unknown => {
            let (mut min_pn, mut sum_pn) = (f64::INFINITY, 0.0);
            let (mut min_dn, mut sum_dn) = (f64::INFINITY, 0.0);
            for c in node.children() {
                let d = arena.get(c).data;
                min_pn = min_pn.min(d.pn);
                min_dn = min_dn.min(d.dn);
                sum_pn += d.pn;
                sum_dn += d.dn;
            }
            if node.is_or() {
                RealPnDn {
                    pn: min_pn,
                    dn: sum_dn,
                }
            } else {
                RealPnDn {
                    pn: sum_pn,
                    dn: min_dn,
                }
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

/// Flags and numbers of a new node: PNS's at terminals, (1 − R', R') from
/// playouts otherwise.
fn leaf_value<G: Game>(
    g: &G,
    q: &Question,
    theta: f64,
    playouts: &mut Playouts,
    counters: &mut Counters,
) -> (u8, RealPnDn) {
    match g.outcome() {
        Some(o) if q.holds(o) => (TERMINAL | SOLVED | PROVEN, RealPnDn::PROVEN),
        Some(_) => (TERMINAL | SOLVED, RealPnDn::DISPROVEN),
        None => {
            let r = clamp_rate(playouts.win_rate(g, q, counters), theta);
            (0, RealPnDn { pn: 1.0 - r, dn: r })
        }
    }
}

impl<G: Game> Search for Mcpn<G> {
    fn checkpoint(&self) -> Option<Box<dyn Search>> {
        Some(Box::new(self.clone()))
    }

    delegate_to_core!(status: |n: &crate::search::arena::Node<G::Move, RealPnDn>| flag_status(n.flags));

    fn algo(&self) -> &'static str {
        "mcpn"
    }

    fn step(&mut self) -> Status {
        let core = &mut self.core;
        if core.status.is_final() {
            return core.status;
        }
        // 1. Selection (least pn at OR, least dn at AND, solved skipped).
        let iteration = core.counters.iterations + 1;
        let (pos, n, depth) = core.descend(iteration, select_child);
        // 2. Expansion: every child, each with its own K playouts.
        let (q, theta, playouts) = (core.question, self.theta, &mut self.playouts);
        core.expand(iteration, n, depth, &pos, |child, _, counters| {
            leaf_value(child, &q, theta, playouts, counters)
        });
        // 3. Update ancestors by the min/sum rules.
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
            label_values: vec![0, 1],
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
