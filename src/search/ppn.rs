//! PPN-search (Song, Iida, van den Herik 2019), ALGORITHMS.md §5.1.
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

use super::arena::{Arena, ArenaView, Idx, Node, NONE, OR, PROVEN, SOLVED, TERMINAL};
use super::logprob::LogProb;
use super::params::ParamSpec;
use super::playout::{clamp_rate, Playouts, K_PARAM, THETA_PARAM};
use super::seesaw::{note_pick, RootSwitches};
use super::snapshot::{
    collect_nodes, fmt_value, ChildSummary, Inspection, NodeStatus, Snapshot, ViewRequest,
};
use super::{
    Counters, Question, Search, SearchSetup, StatsSample, Status, StopReason, SwitchEvent,
};

/// PPN parameters (described once).
pub const PARAMS: &[ParamSpec] = &[K_PARAM, THETA_PARAM];

/// Values shown per node: ppn and its two logarithms (which stay exact
/// where the float ppn shows 0 or 1).
const VALUE_NAMES: &[&str] = &["ppn", "ln_ppn", "ln_1m_ppn"];

/// Solved status read from the flags.
#[inline]
pub fn flag_status(flags: u8) -> NodeStatus {
    if flags & SOLVED == 0 {
        NodeStatus::Unknown
    } else if flags & PROVEN != 0 {
        NodeStatus::Proven
    } else {
        NodeStatus::Disproven
    }
}

/// The solved flags of an internal node from its children's flags
/// (ALGORITHMS.md §0/§5.1): OR proven by one proven child and disproven by
/// all children disproven; AND the other way round.
pub fn solved_flags<M: Copy, D: Copy>(arena: &Arena<M, D>, n: Idx) -> u8 {
    let node = arena.get(n);
    let or = node.is_or();
    let (mut any_win, mut all_loss) = (false, true);
    for c in node.children() {
        let f = arena.get(c).flags;
        let proven = f & SOLVED != 0 && f & PROVEN != 0;
        let disproven = f & SOLVED != 0 && f & PROVEN == 0;
        // "win" = good for the side to move at n.
        let (win, loss) = if or {
            (proven, disproven)
        } else {
            (disproven, proven)
        };
        any_win |= win;
        all_loss &= loss;
    }
    let proven = if or { any_win } else { all_loss };
    let disproven = if or { all_loss } else { any_win };
    if proven {
        SOLVED | PROVEN
    } else if disproven {
        SOLVED
    } else {
        0
    }
}

/// PPN-search on a game `G`.
pub struct Ppn<G: Game> {
    root_pos: G,
    question: Question,
    theta: f64,
    playouts: Playouts,
    arena: Arena<G::Move, LogProb>,
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
        Box::new(Ppn::new(g.clone(), q, k, theta, seed)) as Box<dyn Search>
    }))
}

impl<G: Game> Ppn<G> {
    /// A search of `root` for `question` with `k` playouts per new node,
    /// clamp `theta` and RNG seed `seed`. The root gets its own playouts.
    pub fn new(root: G, question: Question, k: u32, theta: f64, seed: u64) -> Ppn<G> {
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
        let mut s = Ppn {
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
    pub fn arena(&self) -> &Arena<G::Move, LogProb> {
        &self.arena
    }

    /// The root's probability pair.
    pub fn root_value(&self) -> LogProb {
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

    /// The root child the search names as best (ALGORITHMS.md §5.1 via the
    /// issue's move-choice rule): the largest ppn at an OR root (so a proven
    /// child when there is one), the smallest at an AND root.
    pub fn best_child(&self) -> Option<u32> {
        let root = self.arena.get(0);
        if !root.is_expanded() {
            return None;
        }
        let or = root.is_or();
        let mut best = root.first_child;
        for c in root.children() {
            let d = self.arena.get(c).data;
            let b = self.arena.get(best).data;
            if (or && d.greater(b)) || (!or && d.less(b)) {
                best = c;
            }
        }
        Some(best - root.first_child)
    }

    fn values(d: LogProb) -> Vec<f64> {
        vec![d.prob(), d.lp, d.lq]
    }

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let node = self.arena.get(id);
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
            let kids: Vec<LogProb> = node.children().map(|c| self.arena.get(c).data).collect();
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
        let choice = path
            .iter()
            .position(|&p| p == id)
            .and_then(|i| path.get(i + 1))
            .map(|&c| {
                let labels = self.arena.path_labels(&self.root_pos, c);
                let rule = if node.is_or() {
                    "largest ppn among unsolved children (OR)"
                } else {
                    "smallest ppn among unsolved children (AND)"
                };
                format!(
                    "picked child {} ({}): {rule}, ppn = {}",
                    c - node.first_child + 1,
                    labels.last().cloned().unwrap_or_default(),
                    fmt_value(self.arena.get(c).data.prob())
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

/// The child an unsolved expanded node selects (ALGORITHMS.md §5.1):
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
    fn algo(&self) -> &'static str {
        "ppn"
    }

    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        // 1. Selection (max ppn at OR, min at AND, solved children skipped).
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
        // 3. Back-propagation by the AND/OR probability rules.
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
        let read = |n: &Node<G::Move, LogProb>| (Self::values(n.data), flag_status(n.flags));
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
            label_values: vec![0],
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
