//! DeepPN (Ishitobi et al. 2015), docs/algorithms.md §3.
//!
//! PN-search whose selection mixes the usual proof numbers with a *deep
//! value* that grows as the search goes deeper:
//! - a frontier node at depth d has deep = 1/d (the root is expanded before
//!   any deep value is read);
//! - DPN(n) = (1 − 1/δ(n))·R + deep(n)·(1 − R), where δ(n) is the number n's
//!   parent minimises (pn under an OR parent, dn under an AND parent; for the
//!   usual alternating games this is n's own δ, and it stays right for two
//!   consecutive nodes of the same kind such as an Othello pass). The
//!   option `dpn = thesis` normalises with 1 − 1/(δ + 1) instead (the form
//!   the thesis prints);
//! - an internal node takes the deep value of its unsolved child with the
//!   least DPN; solved children are ignored;
//! - selection goes from the root to the unsolved child with the least DPN
//!   until it reaches a frontier node, which is expanded as in PNS.
//!
//! Deep values are always 1/d for the depth d of some frontier node, so a
//! node stores that depth (in the arena's spare `aux` field, 0 = none)
//! instead of a float: the node stays as small as a PNS node (28 bytes with
//! a one-byte move) and deep values are exact.
//!
//! Ties. DPN values are compared as floats; equal DPN values are broken by
//! the smaller δ, then by the leftmost child (`ties = delta`, the default;
//! `ties = leftmost` keeps move order only, a switch for isolating what
//! the paper leaves open). `solved = count` lets solved children take part
//! in the choice of a node's deep value (the paper's formula (2) ignores
//! them); selection skips solved children under either setting. With R = 1 the DPN is the
//! monotone map δ ↦ 1 − 1/δ, which can only merge different δ for huge δ
//! (> 2^26, where f64 runs out of digits): the δ tie-break then restores
//! PNS's order, so R = 1 selects exactly PNS's most-proving node (least δ,
//! leftmost among equals) — tests/deep_pn.rs checks this iteration by
//! iteration. Excluding solved children never changes that choice: at an
//! unsolved node the child with the least δ is itself unsolved.
//!
//! The default R = 0.65 follows the DeepPN paper's Othello experiments:
//! "if we have to choose the best R, then a value of around 0.65 is a good
//! compromise for most cases" (its mean iteration count bottomed out near
//! R = 0.4, but individual positions worsened sharply below R ≈ 0.4).

use crate::game::Game;

use super::arena::{Arena, Idx, Node, NONE};
use super::arena_search::{delegate_to_core, next_on_path, ArenaSearch, SnapshotParts};
use super::pn::{self, Pn};
use super::pns::{leaf_numbers, pn_dn_core, pn_dn_formulas, pn_status, PnDn};
use super::snapshot::{fmt_value, Inspection, Snapshot, ViewRequest};
use super::{Question, Search, SearchError, SearchSetup, StatsSample, Status};

/// The value names DeepPN shows per node.
pub const VALUE_NAMES: &[&str] = &["pn", "dn", "deep", "dpn"];

crate::choice_enum! {
    /// How δ is normalised in the DPN formula (docs/algorithms.md §3).
    #[derive(serde::Serialize, serde::Deserialize)]
    pub enum DpnForm {
        /// 1 − 1/δ (the 2015 paper).
        Paper = "paper",
        /// 1 − 1/(δ + 1) (the thesis).
        Thesis = "thesis",
    }
}

crate::choice_enum! {
    /// How children that tie on DPN are ordered (the paper leaves ties
    /// open; docs/algorithms.md §3).
    #[derive(serde::Serialize, serde::Deserialize)]
    pub enum DpnTie {
        /// The smaller δ first, then the leftmost: R = 1 is PNS exactly.
        Delta = "delta",
        /// The leftmost child (move generation order).
        Leftmost = "leftmost",
    }
}

crate::choice_enum! {
    /// Whether solved children take part in the choice of a node's deep
    /// value (the paper's formula (2) ignores them; docs/algorithms.md §3).
    #[derive(serde::Serialize, serde::Deserialize)]
    pub enum SolvedDeep {
        /// Ignored, as the paper defines it.
        Skip = "skip",
        /// Counted with their DPN (δ = 0 or ∞) and their last deep value;
        /// selection still never enters a solved child.
        Count = "count",
    }
}

crate::options! {
    /// DeepPN options (described once; `pn-value` shares them).
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct DeepPnOptions {
        /// R ∈ [0, 1].
        pub r: f64 => {
            "R", real(0.0, 1.0) = 0.65,
            "Weight of the proof numbers against the deep value: 1 = PN-search, 0 = depth-first; 0.65 is the DeepPN paper's recommended compromise for Othello"
        },
        /// How δ is normalised (`dpn=`).
        pub form: DpnForm => {
            "dpn", choice = DpnForm::Paper,
            "Normalisation of δ in DPN: paper 1 − 1/δ (Ishitobi et al. 2015) or thesis 1 − 1/(δ+1) (Zhang 2019)"
        },
        /// Tie rule among equal DPN values (`ties=`).
        pub ties: DpnTie => {
            "ties", choice = DpnTie::Delta,
            "Children tied on DPN: delta = the smaller δ, then the leftmost (R = 1 is PNS exactly); leftmost = move order only"
        },
        /// Whether solved children count for a node's deep value (`solved=`).
        pub solved: SolvedDeep => {
            "solved", choice = SolvedDeep::Skip,
            "Solved children in a node's deep value: skip (the paper's formula) or count them with their DPN and last deep value (selection skips them either way)"
        },
    }
}

/// Registry constructor. (`clone` is generic over the games; some are
/// `Copy`.)
#[allow(clippy::clone_on_copy)]
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let opts = DeepPnOptions::from_params(&setup.params)?;
    let q = setup.root_question();
    Ok(
        crate::with_position!(&setup.position, g => Box::new(DeepPn::new(g.clone(), q, opts)) as Box<dyn Search>),
    )
}

/// Whether a pn/dn pair is solved.
#[inline]
fn solved(d: PnDn) -> bool {
    d.pn == 0 || d.dn == 0
}

/// The number a parent minimises over its children: pn under an OR parent,
/// dn under an AND parent (the child's δ).
#[inline]
fn delta_for(parent_or: bool, d: PnDn) -> Pn {
    if parent_or {
        d.pn
    } else {
        d.dn
    }
}

/// The deep value carried by a node whose `aux` holds the depth of its
/// frontier node (NaN when it has none: a solved internal node, or the
/// unexpanded root).
#[inline]
fn deep_of(aux: u16) -> f64 {
    if aux == 0 {
        f64::NAN
    } else {
        1.0 / aux as f64
    }
}

impl DeepPnOptions {
    /// The normalised δ term of the DPN formula.
    #[inline]
    fn norm(self, delta: Pn) -> f64 {
        let d = delta as f64;
        match self.form {
            DpnForm::Paper => 1.0 - 1.0 / d,
            DpnForm::Thesis => 1.0 - 1.0 / (d + 1.0),
        }
    }
}

/// δ values whose DPN term is precomputed (larger ones are computed).
const DELTA_TABLE: usize = 4096;
/// Depths whose deep term is precomputed (deeper ones are computed).
const DEPTH_TABLE: usize = 256;

/// The DPN rule of one search: the options and both terms of the formula
/// precomputed for small δ and depths. Selection evaluates DPN for every
/// child on the path, twice per iteration (going down, and again while
/// updating the ancestors), and the two divisions were a third of
/// DeepPN's time on Othello endgames; a table lookup gives the very same
/// floats (the same operations on the same numbers, done once).
#[derive(Clone)]
struct DpnRule {
    opts: DeepPnOptions,
    /// `norm(δ) · R` for δ < [`DELTA_TABLE`].
    delta_term: Box<[f64]>,
    /// `deep(d) · (1 − R)` for depths d < [`DEPTH_TABLE`] (NaN at 0).
    depth_term: Box<[f64]>,
}

impl DpnRule {
    fn new(opts: DeepPnOptions) -> DpnRule {
        let r = opts.r;
        DpnRule {
            opts,
            delta_term: (0..DELTA_TABLE).map(|d| opts.norm(d as Pn) * r).collect(),
            depth_term: (0..DEPTH_TABLE)
                .map(|d| deep_of(d as u16) * (1.0 - r))
                .collect(),
        }
    }

    /// DPN of a child under a parent of the given kind (docs/algorithms.md §3).
    #[inline]
    fn dpn_of<M: Copy>(&self, parent_or: bool, child: &Node<M, PnDn>) -> f64 {
        let delta = delta_for(parent_or, child.data);
        let a = match self.delta_term.get(delta as usize) {
            Some(&t) => t,
            _ => self.opts.norm(delta) * self.opts.r,
        };
        let b = match self.depth_term.get(child.aux as usize) {
            Some(&t) => t,
            None => deep_of(child.aux) * (1.0 - self.opts.r),
        };
        a + b
    }

    /// Whether a child with DPN `v` and δ `d` is preferred to the best so
    /// far (`bv`, `bd`), which lies to its left: a smaller DPN, or with
    /// `ties = delta` an equal DPN and a smaller δ.
    #[inline]
    fn beats(&self, v: f64, d: Pn, bv: f64, bd: Pn) -> bool {
        v < bv || (self.opts.ties == DpnTie::Delta && v == bv && d < bd)
    }

    /// The unsolved child of `n` with the least DPN (ties: by the tie
    /// rule, see [`DpnRule::beats`]), with its DPN; `None` when every
    /// child is solved.
    #[inline]
    fn best_unsolved<M: Copy>(&self, arena: &Arena<M, PnDn>, n: Idx) -> Option<(Idx, f64)> {
        let node = arena.get(n);
        let or = node.is_or();
        let mut best: Option<(Idx, f64, Pn)> = None;
        for c in node.children() {
            let cn = arena.get(c);
            if solved(cn.data) {
                continue;
            }
            let v = self.dpn_of(or, cn);
            let d = delta_for(or, cn.data);
            let better = match best {
                None => true,
                Some((_, bv, bd)) => self.beats(v, d, bv, bd),
            };
            if better {
                best = Some((c, v, d));
            }
        }
        best.map(|(c, v, _)| (c, v))
    }

    /// The child selection moves to from the expanded, unsolved node `n`.
    #[inline]
    fn pick_child<M: Copy>(&self, arena: &Arena<M, PnDn>, n: Idx) -> Idx {
        match self.best_unsolved(arena, n) {
            Some((c, _)) => c,
            // Unreachable for an unsolved node (it always has an unsolved
            // child); the leftmost child keeps the step well defined.
            None => arena.get(n).first_child,
        }
    }

    /// Recomputes pn, dn and the deep value of `n` from its children (one
    /// pass: the least-DPN unsolved child is tracked alongside the sums);
    /// returns whether anything changed.
    #[inline]
    fn recompute<M: Copy>(&self, arena: &mut Arena<M, PnDn>, n: Idx) -> bool {
        let node = *arena.get(n);
        let or = node.is_or();
        let count_solved = self.opts.solved == SolvedDeep::Count;
        let (mut min_v, mut sum_v) = (pn::INF, 0 as Pn);
        // The least-DPN unsolved child (ties: smaller δ, then leftmost), as
        // in `best_unsolved`: its depth, DPN and δ.
        let mut best: Option<(u16, f64, Pn)> = None;
        for c in node.children() {
            let cn = arena.get(c);
            let cd = cn.data;
            let (m, s) = if or { (cd.pn, cd.dn) } else { (cd.dn, cd.pn) };
            sum_v = pn::add(sum_v, s);
            min_v = min_v.min(m);
            if !solved(cd) || count_solved {
                let v = self.dpn_of(or, cn);
                let better = match best {
                    None => true,
                    Some((_, bv, bd)) => self.beats(v, m, bv, bd),
                };
                if better {
                    best = Some((cn.aux, v, m));
                }
            }
        }
        let data = PnDn::from_min_sum(or, min_v, sum_v);
        // deep(n) = deep(c*), c* the unsolved child with the least DPN
        // (with `solved = count`: any child, and a solved node keeps one).
        let deep_depth = if solved(data) && !count_solved {
            0
        } else {
            best.map_or(0, |(aux, _, _)| aux)
        };
        arena.set_values(n, data, deep_depth)
    }
}

/// DeepPN on a game `G`.
#[derive(Clone)]
pub struct DeepPn<G: Game> {
    core: ArenaSearch<G, PnDn>,
    opts: DeepPnOptions,
    rule: DpnRule,
}

impl<G: Game> DeepPn<G> {
    /// A search of `root` for `question`; a terminal root is solved at once.
    pub fn new(root: G, question: Question, opts: DeepPnOptions) -> DeepPn<G> {
        let core = pn_dn_core(root, question);
        let opts = DeepPnOptions {
            r: opts.r.clamp(0.0, 1.0),
            ..opts
        };
        DeepPn {
            core,
            opts,
            rule: DpnRule::new(opts),
        }
    }

    /// The arena (for tests and comparisons).
    pub fn arena(&self) -> &Arena<G::Move, PnDn> {
        &self.core.arena
    }

    /// The options in use.
    pub fn options(&self) -> DeepPnOptions {
        self.opts
    }

    /// Root pn and dn.
    pub fn root_numbers(&self) -> PnDn {
        self.core.arena.get(0).data
    }

    /// The deep value of node `i` (NaN when it has none).
    pub fn deep(&self, i: Idx) -> f64 {
        deep_of(self.core.arena.get(i).aux)
    }

    /// DPN of node `i` as a viewer shows it: NaN for the root and for solved
    /// nodes (they take no part in selection).
    pub fn dpn(&self, i: Idx) -> f64 {
        self.node_dpn(self.core.arena.get(i))
    }

    fn node_dpn(&self, n: &Node<G::Move, PnDn>) -> f64 {
        if n.parent == NONE || solved(n.data) {
            return f64::NAN;
        }
        let parent_or = self.core.arena.get(n.parent).is_or();
        self.rule.dpn_of(parent_or, n)
    }

    fn best_unsolved(&self, n: Idx) -> Option<(Idx, f64)> {
        self.rule.best_unsolved(&self.core.arena, n)
    }

    /// The selection path from the root to the node the next iteration
    /// expands (root first).
    pub fn selection_path(&self) -> Vec<Idx> {
        let rule = &self.rule;
        self.core
            .path_by(|a, n| a.get(n).is_expanded().then(|| rule.pick_child(a, n)))
    }

    /// The values a viewer shows for a node: pn, dn, deep, DPN.
    fn node_values(&self, n: &Node<G::Move, PnDn>) -> Vec<f64> {
        vec![
            pn::to_f64(n.data.pn),
            pn::to_f64(n.data.dn),
            deep_of(n.aux),
            self.node_dpn(n),
        ]
    }

    /// The DPN formula of node `i` with its numbers filled in.
    fn dpn_formula(&self, i: Idx) -> String {
        let n = self.core.arena.get(i);
        if n.parent == NONE {
            return "DPN: not defined at the root (it has no parent to choose it)".into();
        }
        if solved(n.data) {
            return "DPN: not used (solved nodes are skipped by selection)".into();
        }
        let parent_or = self.core.arena.get(n.parent).is_or();
        let name = if parent_or { "pn" } else { "dn" };
        let delta = delta_for(parent_or, n.data);
        let r = self.opts.r;
        let norm = match self.opts.form {
            DpnForm::Paper => format!("(1 − 1/{})", pn::fmt(delta)),
            DpnForm::Thesis => format!("(1 − 1/({} + 1))", pn::fmt(delta)),
        };
        format!(
            "DPN = {norm}·{} + {}·{} = {}   (δ = {name} = {}, deep = {})",
            fmt_real(r),
            fmt_real(deep_of(n.aux)),
            fmt_real(1.0 - r),
            fmt_real(self.dpn(i)),
            pn::fmt(delta),
            fmt_real(deep_of(n.aux)),
        )
    }

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let node = self.core.arena.get(id);
        let mut formulas = pn_dn_formulas(&self.core.arena, id, "unit initialisation");
        let deep_line = if !node.is_expanded() {
            if node.parent == NONE {
                "deep: not needed before the root is expanded".to_string()
            } else {
                format!(
                    "deep = 1/depth = 1/{} = {}",
                    node.aux,
                    fmt_real(deep_of(node.aux))
                )
            }
        } else {
            match self.best_unsolved(id) {
                Some((c, v)) if !solved(node.data) => format!(
                    "deep = deep(child {}: {}) = {}  (its DPN {} is the least among unsolved children)",
                    c - node.first_child + 1,
                    self.core.move_label(c),
                    fmt_real(self.deep(c)),
                    fmt_real(v)
                ),
                _ => "deep: none (solved; no unsolved children to take it from)".to_string(),
            }
        };
        formulas.push(("deep".into(), deep_line));
        formulas.push(("dpn".into(), self.dpn_formula(id)));
        let choice = next_on_path(path, id).map(|c| self.explain_choice(id, c));
        self.core.inspection(id, formulas, choice)
    }

    /// Why selection went from `n` to child `c`.
    fn explain_choice(&self, n: Idx, c: Idx) -> String {
        let arena = &self.core.arena;
        let node = arena.get(n);
        let or = node.is_or();
        let v = self.rule.dpn_of(or, arena.get(c));
        let mut others = Vec::new();
        let mut ties = 0;
        let mut skipped = 0;
        for o in node.children() {
            let on = arena.get(o);
            if solved(on.data) {
                skipped += 1;
                continue;
            }
            let ov = self.rule.dpn_of(or, on);
            if ov == v {
                ties += 1;
            }
            others.push(format!("{} {}", self.core.move_label(o), fmt_real(ov)));
        }
        let rule = if ties > 1 {
            match self.opts.ties {
                DpnTie::Delta => {
                    format!("{ties} children tie on DPN; the smaller δ, then the leftmost wins")
                }
                DpnTie::Leftmost => format!("{ties} children tie on DPN; the leftmost wins"),
            }
        } else {
            "unique least".to_string()
        };
        let skip = if skipped > 0 {
            format!("; {skipped} solved children skipped")
        } else {
            String::new()
        };
        format!(
            "picked child {} ({}): least DPN = {} ({rule}{skip}); unsolved children: {}",
            c - node.first_child + 1,
            self.core.move_label(c),
            fmt_real(v),
            others.join(", ")
        )
    }

    /// The root child the search names as best: a child already solved in
    /// the root's favour if there is one, else the child selection would
    /// follow (least DPN), else the leftmost.
    pub fn best_child(&self) -> Option<u32> {
        let root = self.core.arena.get(0);
        if !root.is_expanded() || root.n_children == 0 {
            return None;
        }
        let or = root.is_or();
        let won = root
            .children()
            .find(|&c| delta_for(or, self.core.arena.get(c).data) == 0);
        let c = won
            .or_else(|| self.best_unsolved(0).map(|(c, _)| c))
            .unwrap_or(root.first_child);
        Some(c - root.first_child)
    }
}

/// A real number for formulas: 3 decimals, ∞, or – for NaN.
fn fmt_real(v: f64) -> String {
    if v.is_finite() && v.fract() != 0.0 {
        format!("{v:.3}")
    } else {
        fmt_value(v)
    }
}

impl<G: Game> Search for DeepPn<G> {
    delegate_to_core!(status: |n: &crate::search::arena::Node<G::Move, PnDn>| pn_status(n.data));

    fn algo(&self) -> &'static str {
        "deep-pn"
    }

    fn step(&mut self) -> Status {
        let core = &mut self.core;
        let Some(iteration) = core.next_iteration() else {
            return core.status;
        };
        // 1. Selection by least DPN over unsolved children.
        let rule = &self.rule;
        let (pos, n, depth) = core.descend(iteration, |a, n| rule.pick_child(a, n));
        // 2. Expansion: all children; each child's deep value is 1/(its
        //    depth), kept as the depth in `aux`.
        let q = core.question;
        let new = core.expand(iteration, n, depth, &pos, |child, is_or, _| {
            leaf_numbers(child, is_or, &q, false)
        });
        let child_depth = (depth + 1).min(u16::MAX as u32) as u16;
        for c in new {
            core.arena.get_mut(c).aux = child_depth;
        }
        // 3. Update ancestors bottom-up, stopping once nothing changes.
        core.update_from(n, |a, x| rule.recompute(a, x));
        core.settle(pn_status(core.arena.get(0).data))
    }

    fn value_names(&self) -> &'static [&'static str] {
        VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let view = self.core.view(|n| (self.node_values(n), pn_status(n.data)));
        let parts = SnapshotParts {
            algo: self.algo(),
            value_names: VALUE_NAMES,
            label_values: vec![0, 1, 3],
            selection_path: || self.selection_path(),
            explain: |i, path: &[Idx]| self.explain(i, path),
            extras: vec![
                ("R".into(), fmt_real(self.opts.r)),
                ("dpn".into(), self.opts.form.name().into()),
            ],
        };
        self.core.snapshot(req, &view, parts)
    }

    fn sample(&self) -> StatsSample {
        // The root has no DPN, so its values are what a viewer shows.
        let root = self.core.arena.get(0);
        self.core.sample(self.node_values(root), self.best_child())
    }
}
