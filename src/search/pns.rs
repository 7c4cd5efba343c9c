//! Proof-number search (Allis et al. 1994), ALGORITHMS.md §1.
//!
//! Best-first over the compact [`Arena`]: select the most-proving node
//! (MPN) from the root, expand it (all children, terminal ones evaluated at
//! once), update the ancestors bottom-up, stopping early once a node's
//! values no longer change. Options:
//! - `tie = leftmost | deepest`: among children tied for the least number,
//!   the leftmost, or the one leading to the deepest MPN (the modified PNS
//!   of the DeepPN paper). For `deepest` each node keeps, in the arena's
//!   spare `aux` field, the height of the MPN below it, so the choice costs
//!   nothing extra at selection time.
//! - `selection = allis | directed` (the lecture notes' variant).
//! - `init = unit | mobility`.

use crate::game::Game;

use super::arena::{Arena, ArenaView, Idx, Node, NONE, OR, TERMINAL};
use super::params::{ParamKind, ParamSpec};
use super::pn::{self, Pn, INF};
use super::seesaw::{note_pick, RootSwitches};
use super::snapshot::{collect_nodes, ChildSummary, Inspection, NodeStatus, Snapshot, ViewRequest};
use super::{
    Counters, Question, Search, SearchSetup, StatsSample, Status, StopReason, SwitchEvent,
};

/// PNS parameters (described once; CLI, UI and JSON use this list).
pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "tie",
        kind: ParamKind::Choice {
            options: &["leftmost", "deepest"],
            default: "leftmost",
        },
        help: "Tie rule among equally good children: leftmost (Allis) or the one leading to the deepest most-proving node (modified PNS, DeepPN paper)",
    },
    ParamSpec {
        name: "selection",
        kind: ParamKind::Choice {
            options: &["allis", "directed"],
            default: "allis",
        },
        help: "allis: least pn at OR, least dn at AND; directed: the root decides to prove (pn ≤ dn) or disprove and nodes pick accordingly (lecture notes)",
    },
    ParamSpec {
        name: "init",
        kind: ParamKind::Choice {
            options: &["unit", "mobility"],
            default: "unit",
        },
        help: "Frontier initialisation: unit (1, 1) or mobility (the number of legal moves on the side that must refute)",
    },
];

/// Tie rule among children with equal numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tie {
    Leftmost,
    Deepest,
}

/// Selection rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    Allis,
    Directed,
}

/// PNS options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PnsOptions {
    pub tie: Tie,
    pub selection: Selection,
    pub mobility: bool,
}

impl Default for PnsOptions {
    fn default() -> Self {
        PnsOptions {
            tie: Tie::Leftmost,
            selection: Selection::Allis,
            mobility: false,
        }
    }
}

/// Per-node payload: the proof and disproof numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PnDn {
    pub pn: Pn,
    pub dn: Pn,
}

/// PN-search on a game `G`.
pub struct Pns<G: Game> {
    root_pos: G,
    question: Question,
    opts: PnsOptions,
    arena: Arena<G::Move, PnDn>,
    status: Status,
    counters: Counters,
    root_switches: RootSwitches,
    moves: Vec<G::Move>,
    /// Reused buffer for the children of the node being expanded.
    children: Vec<(G::Move, u8, PnDn)>,
}

/// Registry constructor.
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let opts = PnsOptions {
        tie: match setup.params.choice("tie") {
            "deepest" => Tie::Deepest,
            _ => Tie::Leftmost,
        },
        selection: match setup.params.choice("selection") {
            "directed" => Selection::Directed,
            _ => Selection::Allis,
        },
        mobility: setup.params.choice("init") == "mobility",
    };
    let q = setup.root_question();
    Ok(
        crate::with_position!(&setup.position, g => Box::new(Pns::new(g.clone(), q, opts)) as Box<dyn Search>),
    )
}

impl<G: Game> Pns<G> {
    /// A search of `root` for `question`; a terminal root is solved at once.
    pub fn new(root: G, question: Question, opts: PnsOptions) -> Pns<G> {
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
        // The root's move field is never read.
        let arena = Arena::new(G::Move::default(), flags, data);
        let mut s = Pns {
            root_pos: root,
            question,
            opts,
            arena,
            status,
            counters: Counters::default(),
            root_switches: RootSwitches::default(),
            moves: Vec::new(),
            children: Vec::new(),
        };
        s.counters.nodes_created = 1;
        s.refresh_memory();
        s
    }

    /// The arena (for tests and other algorithms' comparisons).
    pub fn arena(&self) -> &Arena<G::Move, PnDn> {
        &self.arena
    }

    /// Root pn and dn.
    pub fn root_numbers(&self) -> PnDn {
        self.arena.get(0).data
    }

    fn refresh_memory(&mut self) {
        self.counters.live_nodes = self.arena.len() as u64;
        self.counters.peak_tree_bytes = self.counters.peak_tree_bytes.max(self.arena.bytes());
    }

    /// The child `n` selects, and whether it was a tie broken by the rule.
    fn pick_child(&self, n: Idx, proving: bool) -> Idx {
        let node = self.arena.get(n);
        let or = node.is_or();
        match self.opts.selection {
            Selection::Allis => self.least_child(node, or),
            Selection::Directed => {
                // Proving: OR picks the least non-zero pn, AND the leftmost
                // child not yet proven. Disproving: symmetric.
                let want_least = if proving { or } else { !or };
                if want_least {
                    self.least_child(node, or)
                } else {
                    node.children()
                        .find(|&c| {
                            let d = self.arena.get(c).data;
                            if proving {
                                d.pn != 0
                            } else {
                                d.dn != 0
                            }
                        })
                        .unwrap_or(node.first_child)
                }
            }
        }
    }

    /// The child with the least pn (OR) or dn (AND), ties by the tie rule.
    #[inline]
    fn least_child(&self, node: &Node<G::Move, PnDn>, or: bool) -> Idx {
        let mut best = NONE;
        let mut best_v = INF;
        let mut best_h = 0u16;
        for c in node.children() {
            let cn = self.arena.get(c);
            let v = if or { cn.data.pn } else { cn.data.dn };
            let better = match self.opts.tie {
                Tie::Leftmost => best == NONE || v < best_v,
                Tie::Deepest => best == NONE || v < best_v || (v == best_v && cn.aux > best_h),
            };
            if better {
                best = c;
                best_v = v;
                best_h = cn.aux;
            }
        }
        best
    }

    /// The selection path from the root to the current MPN (root first).
    pub fn selection_path(&self) -> Vec<Idx> {
        let mut path = vec![0];
        let root = self.arena.get(0).data;
        let proving = root.pn <= root.dn;
        let mut n = 0;
        while self.arena.get(n).is_expanded() {
            n = self.pick_child(n, proving);
            path.push(n);
        }
        path
    }

    /// Numbers of a frontier child.
    fn leaf_numbers(&self, child: &G, is_or: bool) -> (u8, PnDn) {
        match child.outcome() {
            Some(o) => (TERMINAL, terminal_numbers(self.question.holds(o))),
            None => {
                if self.opts.mobility {
                    let k = child.move_count() as Pn;
                    if is_or {
                        (0, PnDn { pn: 1, dn: k })
                    } else {
                        (0, PnDn { pn: k, dn: 1 })
                    }
                } else {
                    (0, PnDn { pn: 1, dn: 1 })
                }
            }
        }
    }

    /// Recomputes `n` from its children; returns whether anything changed.
    fn recompute(&mut self, n: Idx) -> bool {
        let node = *self.arena.get(n);
        let or = node.is_or();
        let (mut min_v, mut sum_v) = (INF, 0 as Pn);
        let mut best_h: u16 = 0;
        for c in node.children() {
            let cd = self.arena.get(c);
            let (m, s) = if or {
                (cd.data.pn, cd.data.dn)
            } else {
                (cd.data.dn, cd.data.pn)
            };
            sum_v = pn::add(sum_v, s);
            if m < min_v {
                min_v = m;
                best_h = cd.aux;
            } else if m == min_v && cd.aux > best_h && self.opts.tie == Tie::Deepest {
                best_h = cd.aux;
            }
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
        let height = if self.opts.tie == Tie::Deepest {
            best_h.saturating_add(1)
        } else {
            0
        };
        let nm = self.arena.get_mut(n);
        let changed = nm.data != data || nm.aux != height;
        nm.data = data;
        nm.aux = height;
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

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let node = self.arena.get(id);
        let init = if self.opts.mobility {
            "mobility initialisation"
        } else {
            "unit initialisation"
        };
        let formulas = pn_dn_formulas(&self.arena, id, init);
        let choice = path
            .iter()
            .position(|&p| p == id)
            .and_then(|i| path.get(i + 1))
            .map(|&c| {
                let k = c - node.first_child;
                let labels = self.arena.path_labels(&self.root_pos, c);
                let mv = labels.last().cloned().unwrap_or_default();
                let what = if node.is_or() { "pn" } else { "dn" };
                let v = if node.is_or() {
                    self.arena.get(c).data.pn
                } else {
                    self.arena.get(c).data.dn
                };
                let ties = node
                    .children()
                    .filter(|&o| {
                        let od = self.arena.get(o).data;
                        (if node.is_or() { od.pn } else { od.dn }) == v
                    })
                    .count();
                let rule = match (self.opts.selection, ties > 1, self.opts.tie) {
                    (Selection::Directed, _, _) => "directed selection".to_string(),
                    (_, false, _) => "unique least".to_string(),
                    (_, true, Tie::Leftmost) => format!("{ties} children tie; leftmost wins"),
                    (_, true, Tie::Deepest) => {
                        format!("{ties} children tie; the one leading to the deepest MPN wins")
                    }
                };
                format!(
                    "picked child {} ({mv}): least {what} = {} ({rule})",
                    k + 1,
                    pn::fmt(v)
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

/// The status a pn/dn pair shows (proven, disproven or unknown).
pub fn pn_status(d: PnDn) -> NodeStatus {
    if d.pn == 0 {
        NodeStatus::Proven
    } else if d.dn == 0 {
        NodeStatus::Disproven
    } else {
        NodeStatus::Unknown
    }
}

/// The inspector's pn and dn lines for node `id` with the children's
/// numbers filled in (ALGORITHMS.md §1); `init` names the frontier
/// initialisation. Shared by every arena search that keeps [`PnDn`].
pub fn pn_dn_formulas<M: Copy>(
    arena: &Arena<M, PnDn>,
    id: Idx,
    init: &str,
) -> Vec<(String, String)> {
    let node = arena.get(id);
    let mut formulas = Vec::new();
    let d = node.data;
    if node.is_terminal() {
        let what = if d.pn == 0 {
            "proven (the attacker's goal holds)"
        } else {
            "disproven (the goal fails)"
        };
        formulas.push(("terminal".to_string(), format!("game over: {what}")));
        formulas.push(("pn".into(), format!("pn = {}", pn::fmt(d.pn))));
        formulas.push(("dn".into(), format!("dn = {}", pn::fmt(d.dn))));
    } else if !node.is_expanded() {
        formulas.push((
            "pn".into(),
            format!("pn = {} (frontier, {init})", pn::fmt(d.pn)),
        ));
        formulas.push((
            "dn".into(),
            format!("dn = {} (frontier, {init})", pn::fmt(d.dn)),
        ));
    } else {
        let pns: Vec<String> = node
            .children()
            .map(|c| pn::fmt(arena.get(c).data.pn))
            .collect();
        let dns: Vec<String> = node
            .children()
            .map(|c| pn::fmt(arena.get(c).data.dn))
            .collect();
        if node.is_or() {
            formulas.push((
                "pn".into(),
                format!("pn = min({}) = {}", pns.join(", "), pn::fmt(d.pn)),
            ));
            formulas.push((
                "dn".into(),
                format!("dn = {} = {}", dns.join(" + "), pn::fmt(d.dn)),
            ));
        } else {
            formulas.push((
                "pn".into(),
                format!("pn = {} = {}", pns.join(" + "), pn::fmt(d.pn)),
            ));
            formulas.push((
                "dn".into(),
                format!("dn = min({}) = {}", dns.join(", "), pn::fmt(d.dn)),
            ));
        }
    }
    formulas
}

/// The numbers of a solved leaf (shared with DeepPN and the value search).
#[inline]
pub fn terminal_numbers(proven: bool) -> PnDn {
    if proven {
        PnDn { pn: 0, dn: INF }
    } else {
        PnDn { pn: INF, dn: 0 }
    }
}

impl<G: Game> Search for Pns<G> {
    fn algo(&self) -> &'static str {
        "pns"
    }

    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        // 1. Selection, noting each node's pick for the seesaw counters.
        let root = self.arena.get(0).data;
        let proving = root.pn <= root.dn;
        let iteration = self.counters.iterations + 1;
        let mut pos = self.root_pos.clone();
        let mut n: Idx = 0;
        let mut depth = 0u32;
        while self.arena.get(n).is_expanded() {
            let c = self.pick_child(n, proving);
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
        // 2. Expansion: all children, terminal ones evaluated at once.
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        let moves = std::mem::take(&mut self.moves);
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            let is_or = child.to_move() == self.question.attacker;
            let (flags, data) = self.leaf_numbers(&child, is_or);
            children.push((m, flags | if is_or { OR } else { 0 }, data));
        }
        self.moves = moves;
        let count = children.len() as u64;
        self.arena.expand(n, children.drain(..));
        self.children = children;
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
        &["pn", "dn"]
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let path = if self.status.is_final() {
            vec![0]
        } else {
            self.selection_path()
        };
        let path_ids: Vec<u64> = path.iter().map(|&i| i as u64).collect();
        let read = |n: &Node<G::Move, PnDn>| {
            (
                vec![pn::to_f64(n.data.pn), pn::to_f64(n.data.dn)],
                pn_status(n.data),
            )
        };
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
                    values: vec![pn::to_f64(d.data.pn), pn::to_f64(d.data.dn)],
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
            value_names: vec!["pn".into(), "dn".into()],
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
                ("tie".into(), format!("{:?}", self.opts.tie).to_lowercase()),
                (
                    "selection".into(),
                    format!("{:?}", self.opts.selection).to_lowercase(),
                ),
            ],
        }
    }

    fn sample(&self) -> StatsSample {
        let r = self.arena.get(0).data;
        StatsSample {
            iteration: self.counters.iterations,
            nodes: self.arena.len() as u64,
            max_depth: self.counters.max_depth,
            seesaw_root_switches: self.counters.seesaw_root_switches,
            seesaw_switches: self.counters.seesaw_switches,
            revisits: 0,
            root_values: vec![pn::to_f64(r.pn), pn::to_f64(r.dn)],
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

impl<G: Game> Pns<G> {
    /// The root child the search names as best: at an OR root the least pn
    /// (a proven child if any), at an AND root the least dn.
    pub fn best_child(&self) -> Option<u32> {
        let root = self.arena.get(0);
        if !root.is_expanded() {
            return None;
        }
        let c = self.least_child(root, root.is_or());
        Some(c - root.first_child)
    }
}
