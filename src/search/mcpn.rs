//! MCPN-search (Saito et al. 2006), ALGORITHMS.md §5.2.
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

use super::arena::{Arena, ArenaView, Idx, Node, NONE, OR, PROVEN, SOLVED, TERMINAL};
use super::params::ParamSpec;
use super::playout::{clamp_rate, Playouts, K_PARAM, THETA_PARAM};
use super::ppn::{flag_status, solved_flags};
use super::seesaw::{note_pick, RootSwitches};
use super::snapshot::{
    collect_nodes, fmt_value, ChildSummary, Inspection, NodeStatus, Snapshot, ViewRequest,
};
use super::{
    Counters, Question, Search, SearchSetup, StatsSample, Status, StopReason, SwitchEvent,
};

/// MCPN parameters (described once).
pub const PARAMS: &[ParamSpec] = &[K_PARAM, THETA_PARAM];

/// Values shown per node.
const VALUE_NAMES: &[&str] = &["pn", "dn"];

/// Real-valued proof and disproof numbers (∞ = `f64::INFINITY`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RealPnDn {
    pub pn: f64,
    pub dn: f64,
}

impl RealPnDn {
    pub const PROVEN: RealPnDn = RealPnDn {
        pn: 0.0,
        dn: f64::INFINITY,
    };
    pub const DISPROVEN: RealPnDn = RealPnDn {
        pn: f64::INFINITY,
        dn: 0.0,
    };
}

/// MCPN-search on a game `G`.
pub struct Mcpn<G: Game> {
    root_pos: G,
    question: Question,
    theta: f64,
    playouts: Playouts,
    arena: Arena<G::Move, RealPnDn>,
    status: Status,
    counters: Counters,
    root_switches: RootSwitches,
    moves: Vec<G::Move>,
}

/// Registry constructor.
#[allow(clippy::clone_on_copy)] // some games are `Copy`, the macro serves all
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let q = setup.root_question();
    let k = setup.params.int("K") as u32;
    let theta = setup.params.real("theta");
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
        let or = if root.to_move() == question.attacker {
            OR
        } else {
            0
        };
        let (flags, data) = leaf_value(&root, &question, theta, &mut playouts, &mut counters);
        let status = match flag_status(flags) {
            NodeStatus::Proven => Status::Proved,
            NodeStatus::Disproven => Status::Disproved,
            NodeStatus::Unknown => Status::Running,
        };
        let arena = Arena::new(G::Move::default(), flags | or, data);
        counters.nodes_created = 1;
        let mut s = Mcpn {
            root_pos: root,
            question,
            theta,
            playouts,
            arena,
            status,
            counters,
            root_switches: RootSwitches::default(),
            moves: Vec::new(),
        };
        s.refresh_memory();
        s
    }

    /// The arena (tests and comparisons).
    pub fn arena(&self) -> &Arena<G::Move, RealPnDn> {
        &self.arena
    }

    /// The root's numbers.
    pub fn root_value(&self) -> RealPnDn {
        self.arena.get(0).data
    }

    fn refresh_memory(&mut self) {
        self.counters.live_nodes = self.arena.len() as u64;
        self.counters.peak_tree_bytes = self.counters.peak_tree_bytes.max(self.arena.bytes());
    }

    /// The child an unsolved expanded node selects ([`select_child`]).
    pub fn pick_child(&self, n: Idx) -> Idx {
        select_child(&self.arena, n)
    }

    /// Root first, down to the frontier node the next iteration expands.
    pub fn selection_path(&self) -> Vec<Idx> {
        let mut path = vec![0];
        let mut n = 0;
        while self.arena.get(n).is_expanded() && self.arena.get(n).flags & SOLVED == 0 {
            n = self.pick_child(n);
            if n == NONE {
                break;
            }
            path.push(n);
        }
        path
    }

    fn recompute(&mut self, n: Idx) -> bool {
        update_node(&mut self.arena, n)
    }

    /// The root child the search names as best (the move-choice
    /// rule for PNS and MCPN): the least pn at an OR root (a proven child
    /// when there is one), the least dn at an AND root; leftmost on ties.
    pub fn best_child(&self) -> Option<u32> {
        let root = self.arena.get(0);
        if !root.is_expanded() {
            return None;
        }
        let or = root.is_or();
        let key = |c: Idx| {
            let d = self.arena.get(c).data;
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

    fn values(d: RealPnDn) -> Vec<f64> {
        vec![d.pn, d.dn]
    }

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let node = self.arena.get(id);
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
            let kids: Vec<RealPnDn> = node.children().map(|c| self.arena.get(c).data).collect();
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
        let choice = path
            .iter()
            .position(|&p| p == id)
            .and_then(|i| path.get(i + 1))
            .map(|&c| {
                let labels = self.arena.path_labels(&self.root_pos, c);
                let cd = self.arena.get(c).data;
                let (rule, v) = if node.is_or() {
                    ("least pn among unsolved children (OR)", cd.pn)
                } else {
                    ("least dn among unsolved children (AND)", cd.dn)
                };
                format!(
                    "picked child {} ({}): {rule} = {}",
                    c - node.first_child + 1,
                    labels.last().cloned().unwrap_or_default(),
                    fmt_value(v)
                )
            });
        Inspection {
            node: id as u64,
            path: self.arena.path_labels(&self.root_pos, id),
            formulas,
            choice,
        }
    }
}

/// The child an unsolved expanded node selects (ALGORITHMS.md §5.2 = §1):
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
    fn algo(&self) -> &'static str {
        "mcpn"
    }

    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        // 1. Selection (least pn at OR, least dn at AND, solved skipped).
        let iteration = self.counters.iterations + 1;
        let mut pos = self.root_pos.clone();
        let mut n: Idx = 0;
        let mut depth = 0u32;
        while self.arena.get(n).is_expanded() {
            let c = self.pick_child(n);
            debug_assert!(c != NONE, "an unsolved node has an unsolved child");
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
        // 2. Expansion: every child, each with its own K playouts.
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        let moves = std::mem::take(&mut self.moves);
        let mut children = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            let or = if child.to_move() == self.question.attacker {
                OR
            } else {
                0
            };
            let (flags, data) = leaf_value(
                &child,
                &self.question,
                self.theta,
                &mut self.playouts,
                &mut self.counters,
            );
            children.push((m, flags | or, data));
        }
        self.moves = moves;
        let count = children.len() as u64;
        self.arena.expand(n, children);
        self.counters.iterations = iteration;
        self.counters.nodes_expanded += 1;
        self.counters.nodes_created += count;
        self.counters.max_depth = self.counters.max_depth.max(depth + 1);
        // 3. Update ancestors by the min/sum rules.
        let mut a = n;
        while a != NONE {
            if !self.recompute(a) && a != n {
                break;
            }
            a = self.arena.get(a).parent;
        }
        self.refresh_memory();
        self.status = match flag_status(self.arena.get(0).flags) {
            NodeStatus::Proven => Status::Proved,
            NodeStatus::Disproven => Status::Disproved,
            NodeStatus::Unknown => Status::Running,
        };
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
        let read = |n: &Node<G::Move, RealPnDn>| (Self::values(n.data), flag_status(n.flags));
        let view = ArenaView {
            arena: &self.arena,
            root: &self.root_pos,
            read,
        };
        let nodes = collect_nodes(&view, req, &path_ids);
        let root_children = self
            .arena
            .get(0)
            .children()
            .map(|c| {
                let d = self.arena.get(c);
                ChildSummary {
                    id: c as u64,
                    move_label: self.root_pos.format_move(d.mv),
                    status: flag_status(d.flags),
                    values: Self::values(d.data),
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
            label_values: vec![0, 1],
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
                ("K".into(), self.playouts.k.to_string()),
                ("theta".into(), self.theta.to_string()),
            ],
        }
    }

    fn sample(&self) -> StatsSample {
        StatsSample {
            iteration: self.counters.iterations,
            nodes: self.arena.len() as u64,
            max_depth: self.counters.max_depth,
            seesaw_root_switches: self.counters.seesaw_root_switches,
            seesaw_switches: self.counters.seesaw_switches,
            revisits: 0,
            root_values: Self::values(self.arena.get(0).data),
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
