//! DeepPN (Ishitobi et al. 2015), ALGORITHMS.md §3.
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
//! the smaller δ, then by the leftmost child. With R = 1 the DPN is the
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

use super::arena::{Arena, ArenaView, Idx, Node, NONE, OR, TERMINAL};
use super::params::{ParamKind, ParamSpec};
use super::pn::{self, Pn};
use super::pns::{pn_dn_formulas, pn_status, terminal_numbers, PnDn};
use super::seesaw::{note_pick, RootSwitches};
use super::snapshot::{collect_nodes, fmt_value, ChildSummary, Inspection, Snapshot, ViewRequest};
use super::{
    Counters, Question, Search, SearchSetup, StatsSample, Status, StopReason, SwitchEvent,
};

/// DeepPN parameters (described once).
pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "R",
        kind: ParamKind::Real {
            min: 0.0,
            max: 1.0,
            default: 0.65,
        },
        help: "Weight of the proof numbers against the deep value: 1 = PN-search, 0 = depth-first; 0.65 is the DeepPN paper's recommended compromise for Othello",
    },
    ParamSpec {
        name: "dpn",
        kind: ParamKind::Choice {
            options: &["paper", "thesis"],
            default: "paper",
        },
        help: "Normalisation of δ in DPN: paper 1 − 1/δ (Ishitobi et al. 2015) or thesis 1 − 1/(δ+1) (Zhang 2019)",
    },
];

/// The value names DeepPN shows per node.
pub const VALUE_NAMES: &[&str] = &["pn", "dn", "deep", "dpn"];

/// How δ is normalised in the DPN formula (ALGORITHMS.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DpnForm {
    /// 1 − 1/δ (the 2015 paper).
    Paper,
    /// 1 − 1/(δ + 1) (the thesis).
    Thesis,
}

impl DpnForm {
    /// The option's name.
    pub fn name(self) -> &'static str {
        match self {
            DpnForm::Paper => "paper",
            DpnForm::Thesis => "thesis",
        }
    }
}

/// DeepPN options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepPnOptions {
    /// R ∈ [0, 1].
    pub r: f64,
    pub form: DpnForm,
}

impl Default for DeepPnOptions {
    fn default() -> Self {
        DeepPnOptions {
            r: 0.65,
            form: DpnForm::Paper,
        }
    }
}

/// Reads the options from validated parameters (shared with `pn-value`).
pub fn options_from(params: &super::Params) -> DeepPnOptions {
    DeepPnOptions {
        r: params.real("R"),
        form: match params.choice("dpn") {
            "thesis" => DpnForm::Thesis,
            _ => DpnForm::Paper,
        },
    }
}

/// Registry constructor. (`clone` is generic over the games; some are
/// `Copy`.)
#[allow(clippy::clone_on_copy)]
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let opts = options_from(&setup.params);
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

/// DeepPN on a game `G`.
pub struct DeepPn<G: Game> {
    root_pos: G,
    question: Question,
    opts: DeepPnOptions,
    arena: Arena<G::Move, PnDn>,
    status: Status,
    counters: Counters,
    root_switches: RootSwitches,
    moves: Vec<G::Move>,
}

impl<G: Game> DeepPn<G> {
    /// A search of `root` for `question`; a terminal root is solved at once.
    pub fn new(root: G, question: Question, opts: DeepPnOptions) -> DeepPn<G> {
        let mut flags = 0;
        if root.to_move() == question.attacker {
            flags |= OR;
        }
        let data = match root.outcome() {
            Some(o) => {
                flags |= TERMINAL;
                terminal_numbers(question.holds(o))
            }
            None => PnDn { pn: 1, dn: 1 },
        };
        let status = match data {
            PnDn { pn: 0, .. } => Status::Proved,
            PnDn { dn: 0, .. } => Status::Disproved,
            _ => Status::Running,
        };
        let arena = Arena::new(G::Move::default(), flags, data);
        let mut s = DeepPn {
            root_pos: root,
            question,
            opts: DeepPnOptions {
                r: opts.r.clamp(0.0, 1.0),
                form: opts.form,
            },
            arena,
            status,
            counters: Counters::default(),
            root_switches: RootSwitches::default(),
            moves: Vec::new(),
        };
        s.counters.nodes_created = 1;
        s.refresh_memory();
        s
    }

    /// The arena (for tests and comparisons).
    pub fn arena(&self) -> &Arena<G::Move, PnDn> {
        &self.arena
    }

    /// The options in use.
    pub fn options(&self) -> DeepPnOptions {
        self.opts
    }

    /// Root pn and dn.
    pub fn root_numbers(&self) -> PnDn {
        self.arena.get(0).data
    }

    /// The deep value of node `i` (NaN when it has none).
    pub fn deep(&self, i: Idx) -> f64 {
        deep_of(self.arena.get(i).aux)
    }

    /// The normalised δ term of the DPN formula.
    #[inline]
    fn norm(&self, delta: Pn) -> f64 {
        let d = delta as f64;
        match self.opts.form {
            DpnForm::Paper => 1.0 - 1.0 / d,
            DpnForm::Thesis => 1.0 - 1.0 / (d + 1.0),
        }
    }

    /// DPN of a child under a parent of the given kind (ALGORITHMS.md §3).
    #[inline]
    fn dpn_of(&self, parent_or: bool, child: &Node<G::Move, PnDn>) -> f64 {
        let r = self.opts.r;
        self.norm(delta_for(parent_or, child.data)) * r + deep_of(child.aux) * (1.0 - r)
    }

    /// DPN of node `i` as a viewer shows it: NaN for the root and for solved
    /// nodes (they take no part in selection).
    pub fn dpn(&self, i: Idx) -> f64 {
        self.node_dpn(self.arena.get(i))
    }

    fn node_dpn(&self, n: &Node<G::Move, PnDn>) -> f64 {
        if n.parent == NONE || solved(n.data) {
            return f64::NAN;
        }
        self.dpn_of(self.arena.get(n.parent).is_or(), n)
    }

    /// The unsolved child of `n` with the least DPN (ties: smaller δ, then
    /// leftmost), with its DPN; `None` when every child is solved.
    #[inline]
    fn best_unsolved(&self, n: Idx) -> Option<(Idx, f64)> {
        let node = self.arena.get(n);
        let or = node.is_or();
        let mut best: Option<(Idx, f64, Pn)> = None;
        for c in node.children() {
            let cn = self.arena.get(c);
            if solved(cn.data) {
                continue;
            }
            let v = self.dpn_of(or, cn);
            let d = delta_for(or, cn.data);
            let better = match best {
                None => true,
                Some((_, bv, bd)) => v < bv || (v == bv && d < bd),
            };
            if better {
                best = Some((c, v, d));
            }
        }
        best.map(|(c, v, _)| (c, v))
    }

    /// The child selection moves to from the expanded, unsolved node `n`.
    fn pick_child(&self, n: Idx) -> Idx {
        match self.best_unsolved(n) {
            Some((c, _)) => c,
            // Unreachable for an unsolved node (it always has an unsolved
            // child); the leftmost child keeps the step well defined.
            None => self.arena.get(n).first_child,
        }
    }

    /// The selection path from the root to the node the next iteration
    /// expands (root first).
    pub fn selection_path(&self) -> Vec<Idx> {
        let mut path = vec![0];
        let mut n = 0;
        while self.arena.get(n).is_expanded() {
            n = self.pick_child(n);
            path.push(n);
        }
        path
    }

    fn refresh_memory(&mut self) {
        self.counters.live_nodes = self.arena.len() as u64;
        self.counters.peak_tree_bytes = self.counters.peak_tree_bytes.max(self.arena.bytes());
    }

    /// Recomputes pn, dn and the deep value of `n` from its children;
    /// returns whether anything changed.
    fn recompute(&mut self, n: Idx) -> bool {
        let node = *self.arena.get(n);
        let or = node.is_or();
        let (mut min_v, mut sum_v) = (pn::INF, 0 as Pn);
        for c in node.children() {
            let cd = self.arena.get(c).data;
            let (m, s) = if or { (cd.pn, cd.dn) } else { (cd.dn, cd.pn) };
            sum_v = pn::add(sum_v, s);
            min_v = min_v.min(m);
        }
        let data = if or {
            PnDn {
                pn: min_v,
                dn: sum_v,
            }
        } else {
            PnDn {
                pn: sum_v,
                dn: min_v,
            }
        };
        // deep(n) = deep(c*), c* the unsolved child with the least DPN.
        let deep_depth = if solved(data) {
            0
        } else {
            self.best_unsolved(n)
                .map(|(c, _)| self.arena.get(c).aux)
                .unwrap_or(0)
        };
        let nm = self.arena.get_mut(n);
        let changed = nm.data != data || nm.aux != deep_depth;
        nm.data = data;
        nm.aux = deep_depth;
        changed
    }

    fn finish_if_solved(&mut self) {
        let r = self.arena.get(0).data;
        if r.pn == 0 {
            self.status = Status::Proved;
        } else if r.dn == 0 {
            self.status = Status::Disproved;
        }
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
        let n = self.arena.get(i);
        if n.parent == NONE {
            return "DPN: not defined at the root (it has no parent to choose it)".into();
        }
        if solved(n.data) {
            return "DPN: not used (solved nodes are skipped by selection)".into();
        }
        let parent_or = self.arena.get(n.parent).is_or();
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
        let node = self.arena.get(id);
        let mut formulas = pn_dn_formulas(&self.arena, id, "unit initialisation");
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
                    self.move_label(c),
                    fmt_real(deep_of(self.arena.get(c).aux)),
                    fmt_real(v)
                ),
                _ => "deep: none (solved; no unsolved children to take it from)".to_string(),
            }
        };
        formulas.push(("deep".into(), deep_line));
        formulas.push(("dpn".into(), self.dpn_formula(id)));
        let choice = path
            .iter()
            .position(|&p| p == id)
            .and_then(|i| path.get(i + 1))
            .map(|&c| self.explain_choice(id, c));
        Inspection {
            node: id as u64,
            path: self.arena.path_labels(&self.root_pos, id),
            formulas,
            choice,
        }
    }

    /// Why selection went from `n` to child `c`.
    fn explain_choice(&self, n: Idx, c: Idx) -> String {
        let node = self.arena.get(n);
        let or = node.is_or();
        let v = self.dpn_of(or, self.arena.get(c));
        let mut others = Vec::new();
        let mut ties = 0;
        let mut skipped = 0;
        for o in node.children() {
            let on = self.arena.get(o);
            if solved(on.data) {
                skipped += 1;
                continue;
            }
            let ov = self.dpn_of(or, on);
            if ov == v {
                ties += 1;
            }
            others.push(format!("{} {}", self.move_label(o), fmt_real(ov)));
        }
        let rule = if ties > 1 {
            format!("{ties} children tie on DPN; the smaller δ, then the leftmost wins")
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
            self.move_label(c),
            fmt_real(v),
            others.join(", ")
        )
    }

    /// The move leading to node `c`, in the parent position's notation.
    fn move_label(&self, c: Idx) -> String {
        self.arena
            .path_labels(&self.root_pos, c)
            .last()
            .cloned()
            .unwrap_or_default()
    }

    /// The root child the search names as best: a child already solved in
    /// the root's favour if there is one, else the child selection would
    /// follow (least DPN), else the leftmost.
    pub fn best_child(&self) -> Option<u32> {
        let root = self.arena.get(0);
        if !root.is_expanded() || root.n_children == 0 {
            return None;
        }
        let or = root.is_or();
        let won = root
            .children()
            .find(|&c| delta_for(or, self.arena.get(c).data) == 0);
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
    fn algo(&self) -> &'static str {
        "deep-pn"
    }

    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        // 1. Selection by least DPN over unsolved children.
        let iteration = self.counters.iterations + 1;
        let mut pos = self.root_pos.clone();
        let mut n: Idx = 0;
        let mut depth = 0u32;
        while self.arena.get(n).is_expanded() {
            let c = self.pick_child(n);
            let k = (c - self.arena.get(n).first_child) as u16;
            if n == 0 {
                self.root_switches
                    .observe(iteration, k as u32, &mut self.counters);
            }
            note_pick(&mut self.arena.get_mut(n).last_pick, k, &mut self.counters);
            pos.play(self.arena.get(c).mv);
            n = c;
            depth += 1;
        }
        // 2. Expansion: all children; each child's deep value is 1/(its
        //    depth), kept as the depth in `aux`.
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        let moves = std::mem::take(&mut self.moves);
        let child_depth = (depth + 1).min(u16::MAX as u32) as u16;
        let mut children = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            let is_or = child.to_move() == self.question.attacker;
            let (flags, data) = match child.outcome() {
                Some(o) => (TERMINAL, terminal_numbers(self.question.holds(o))),
                None => (0, PnDn { pn: 1, dn: 1 }),
            };
            children.push((m, flags | if is_or { OR } else { 0 }, data));
        }
        self.moves = moves;
        let count = children.len() as u64;
        let first = self.arena.len() as Idx;
        self.arena.expand(n, children);
        for c in first..first + count as Idx {
            self.arena.get_mut(c).aux = child_depth;
        }
        self.counters.iterations = iteration;
        self.counters.nodes_expanded += 1;
        self.counters.nodes_created += count;
        self.counters.max_depth = self.counters.max_depth.max(depth + 1);
        // 3. Update ancestors bottom-up, stopping once nothing changes.
        let mut a = n;
        while a != NONE {
            if !self.recompute(a) && a != n {
                break;
            }
            a = self.arena.get(a).parent;
        }
        self.refresh_memory();
        self.finish_if_solved();
        self.status
    }

    fn status(&self) -> Status {
        self.status
    }

    fn stop(&mut self, reason: StopReason) {
        if !self.status.is_final() {
            self.status = Status::Unknown(reason);
        }
    }

    fn counters(&self) -> &Counters {
        &self.counters
    }

    fn counters_mut(&mut self) -> &mut Counters {
        &mut self.counters
    }

    fn switch_events(&self) -> &[SwitchEvent] {
        &self.root_switches.events
    }

    fn value_names(&self) -> &'static [&'static str] {
        VALUE_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let path = if self.status.is_final() {
            vec![0]
        } else {
            self.selection_path()
        };
        let path_ids: Vec<u64> = path.iter().map(|&i| i as u64).collect();
        let read = |n: &Node<G::Move, PnDn>| (self.node_values(n), pn_status(n.data));
        let view = ArenaView {
            arena: &self.arena,
            root: &self.root_pos,
            read,
        };
        let nodes = collect_nodes(&view, req, &path_ids);
        let root = self.arena.get(0);
        let root_children = root
            .children()
            .map(|c| {
                let d = self.arena.get(c);
                ChildSummary {
                    id: c as u64,
                    move_label: self.root_pos.format_move(d.mv),
                    status: pn_status(d.data),
                    values: self.node_values(d),
                }
            })
            .collect();
        let target = req
            .inspect
            .map(|i| i as Idx)
            .filter(|&i| (i as usize) < self.arena.len());
        let inspection = target.map(|i| self.explain(i, &path));
        let pos_node = target.unwrap_or(0);
        let events = &self.root_switches.events;
        Snapshot {
            algo: self.algo().to_string(),
            status: self.status,
            counters: self.counters.clone(),
            value_names: VALUE_NAMES.iter().map(|s| s.to_string()).collect(),
            label_values: vec![0, 1, 3],
            nodes,
            extra_edges: Vec::new(),
            selection_moves: self
                .arena
                .path_labels(&self.root_pos, *path.last().unwrap_or(&0)),
            selection_path: path_ids,
            root_children,
            frames: Vec::new(),
            total_nodes: self.arena.len() as u64,
            inspection,
            position: req
                .want_position
                .then(|| self.arena.position_at(&self.root_pos, pos_node).into_any()),
            position_path: self.arena.path_labels(&self.root_pos, pos_node),
            switch_events: events[events.len().saturating_sub(1000)..].to_vec(),
            extras: vec![
                ("R".into(), fmt_real(self.opts.r)),
                ("dpn".into(), self.opts.form.name().into()),
            ],
        }
    }

    fn sample(&self) -> StatsSample {
        let r = self.arena.get(0);
        StatsSample {
            iteration: self.counters.iterations,
            nodes: self.arena.len() as u64,
            max_depth: self.counters.max_depth,
            seesaw_root_switches: self.counters.seesaw_root_switches,
            seesaw_switches: self.counters.seesaw_switches,
            revisits: 0,
            root_values: vec![
                pn::to_f64(r.data.pn),
                pn::to_f64(r.data.dn),
                deep_of(r.aux),
                f64::NAN,
            ],
            best_child: self.best_child(),
        }
    }

    fn best_move(&self) -> Option<String> {
        let c = self.best_child()?;
        let root = self.arena.get(0);
        Some(
            self.root_pos
                .format_move(self.arena.get(root.first_child + c).mv),
        )
    }
}
