//! The plain depth-first AND/OR search: the E = 0 row of Deep df-pn's table
//! (thesis Table 3.1, docs/algorithms.md §4), also registered as `dfs`.
//!
//! An OR node tries its children left to right and is proven by the first
//! proven child; an AND node is disproven by the first disproven child.
//! No table and no proof numbers: docs/algorithms.md §4 asks for this row to be
//! a real depth-first search, not df-pn with unknown nodes valued 0 (which
//! would read as proofs). Explicit stack; one [`Search::step`] enters one
//! node (`iterations` = node entries, terminal ones included).

use crate::game::Game;
use crate::search::pn::{self, INF};
use crate::search::seesaw::{note_pick, RootSwitches, NO_PICK};
use crate::search::snapshot::{
    ChildSummary, Frame as SnapFrame, Inspection, NodeId, NodeKind, NodeStatus, SnapNode, Snapshot,
    ViewRequest,
};
use crate::search::{Counters, Question, Search, StatsSample, Status};

#[derive(Clone)]
struct DfsFrame<G: Game> {
    pos: G,
    or: bool,
    /// Children moves in `Dfs::moves[first..first + count]`.
    first: usize,
    count: usize,
    /// Index of the next child to try.
    next: usize,
    last_pick: u16,
}

/// Depth-first AND/OR search on a game `G`.
#[derive(Clone)]
pub struct Dfs<G: Game> {
    name: &'static str,
    root_pos: G,
    question: Question,
    stack: Vec<DfsFrame<G>>,
    moves: Vec<G::Move>,
    /// The result of the node just left, to be consumed by its parent.
    pending: Option<bool>,
    status: Status,
    counters: Counters,
    root_switches: RootSwitches,
    started: bool,
    /// Once the root is decided for its mover (an OR root proved, an AND
    /// root disproved): the index of the child that decided it, so the
    /// finished search still names its winning move.
    root_win: Option<u32>,
}

impl<G: Game> Dfs<G> {
    /// A search of `root` for `question`; a terminal root is solved at once.
    pub fn new(name: &'static str, root: G, question: Question) -> Dfs<G> {
        let status = match root.outcome() {
            Some(o) if question.holds(o) => Status::Proved,
            Some(_) => Status::Disproved,
            None => Status::Running,
        };
        Dfs {
            name,
            root_pos: root,
            question,
            stack: Vec::new(),
            moves: Vec::new(),
            pending: None,
            status,
            counters: Counters::default(),
            root_switches: RootSwitches::default(),
            started: false,
            root_win: None,
        }
    }

    /// Enters one node: a terminal one yields its result at once.
    fn enter(&mut self, pos: G) {
        self.counters.iterations += 1;
        self.counters.nodes_created += 1;
        let depth = self.stack.len() as u32;
        self.counters.max_depth = self.counters.max_depth.max(depth);
        if let Some(o) = pos.outcome() {
            self.pending = Some(self.question.holds(o));
            return;
        }
        let first = self.moves.len();
        pos.legal_moves(&mut self.moves);
        let count = self.moves.len() - first;
        self.counters.nodes_expanded += 1;
        self.stack.push(DfsFrame {
            or: pos.to_move() == self.question.attacker,
            pos,
            first,
            count,
            next: 0,
            last_pick: NO_PICK,
        });
        self.counters.live_nodes = self.stack.len() as u64;
        let bytes = (self.stack.len() * std::mem::size_of::<DfsFrame<G>>()
            + self.moves.len() * std::mem::size_of::<G::Move>()) as u64;
        self.counters.peak_tree_bytes = self.counters.peak_tree_bytes.max(bytes);
    }

    /// Pops the top frame with result `r`.
    fn leave(&mut self, r: bool) {
        if let Some(f) = self.stack.pop() {
            // The root is decided by its last child tried when that
            // child's result is the one the mover wanted.
            if self.stack.is_empty() && f.or == r {
                self.root_win = f.next.checked_sub(1).map(|k| k as u32);
            }
            self.moves.truncate(f.first);
        }
        self.counters.live_nodes = self.stack.len() as u64;
        if self.stack.is_empty() {
            self.status = if r { Status::Proved } else { Status::Disproved };
        } else {
            self.pending = Some(r);
        }
    }

    fn node_values(status: NodeStatus) -> Vec<f64> {
        let (p, d) = match status {
            NodeStatus::Proven => (0, INF),
            NodeStatus::Disproven => (INF, 0),
            NodeStatus::Unknown => (1, 1),
        };
        pn::pn_dn_values(p, d)
    }

    /// The inspector's text for node `id` (a stack node or a child of one):
    /// the rule that decides it and where the left-to-right scan stands.
    /// Depth-first search compares no numbers, so the "why this child"
    /// line names the move order.
    fn explain(&self, id: NodeId) -> Option<Inspection> {
        let mut path: Vec<String> = Vec::new();
        if self.stack.is_empty() {
            if id != self.root_pos.hash() {
                return None;
            }
            let result = match self.status {
                Status::Proved => "proven",
                Status::Disproved => "disproven",
                _ => "not searched yet",
            };
            return Some(Inspection {
                node: id,
                path,
                formulas: vec![("result".into(), result.into())],
                choice: None,
            });
        }
        let words = |or: bool| {
            if or {
                (
                    "disproven",
                    "OR node: proven by the first proven child; disproven once every child is disproven",
                )
            } else {
                (
                    "proven",
                    "AND node: disproven by the first disproven child; proven once every child is proven",
                )
            }
        };
        for (d, f) in self.stack.iter().enumerate() {
            let (refuted, rule) = words(f.or);
            let tried = f.next;
            if f.pos.hash() == id {
                let mut formulas = vec![
                    ("rule".to_string(), rule.to_string()),
                    (
                        "progress".to_string(),
                        format!(
                            "{tried} of {} children entered, {} {refuted}",
                            f.count,
                            tried.saturating_sub(1)
                        ),
                    ),
                    (
                        "pn / dn".to_string(),
                        "shown as 1 / 1 until decided: dfs keeps no proof numbers".to_string(),
                    ),
                ];
                if f.count == 0 {
                    formulas.push(("children".into(), "none".into()));
                }
                let choice = tried.checked_sub(1).map(|k| {
                    format!(
                        "depth-first: child {} of {} ({}), the first in move order not yet {refuted}; no numbers are compared",
                        k + 1,
                        f.count,
                        f.pos.format_move(self.moves[f.first + k])
                    )
                });
                return Some(Inspection {
                    node: id,
                    path,
                    formulas,
                    choice,
                });
            }
            for i in 0..f.count {
                let mv = self.moves[f.first + i];
                let mut c = f.pos.clone();
                c.play(mv);
                if c.hash() != id || (i + 1 == tried && d + 1 < self.stack.len()) {
                    continue;
                }
                let state = match Self::child_status(f, i) {
                    NodeStatus::Unknown if i + 1 == tried => "being searched".to_string(),
                    NodeStatus::Unknown => "not entered yet (later in move order)".to_string(),
                    _ => format!("{refuted}: searched and refuted earlier"),
                };
                let mut p = path.clone();
                p.push(f.pos.format_move(mv));
                return Some(Inspection {
                    node: id,
                    path: p,
                    formulas: vec![("status".into(), state)],
                    choice: None,
                });
            }
            if let Some(k) = tried.checked_sub(1) {
                path.push(f.pos.format_move(self.moves[f.first + k]));
            }
        }
        None
    }

    /// Status of child `i` of frame `f` as far as the search knows: the
    /// children before the current one were refuted (OR: disproven, AND:
    /// proven), the rest are unknown.
    fn child_status(f: &DfsFrame<G>, i: usize) -> NodeStatus {
        if i + 1 < f.next {
            if f.or {
                NodeStatus::Disproven
            } else {
                NodeStatus::Proven
            }
        } else {
            NodeStatus::Unknown
        }
    }
}

/// The stack as a snapshot shows it: the path's nodes with their
/// children, the frames, the path's ids and its moves.
#[derive(Default)]
struct StackView {
    nodes: Vec<SnapNode>,
    frames: Vec<SnapFrame>,
    path_ids: Vec<NodeId>,
    labels: Vec<String>,
}

impl<G: Game> Dfs<G> {
    /// OR where the attacker moves, AND where the defender does.
    fn kind_of(&self, g: &G) -> NodeKind {
        NodeKind::or_and(g.to_move() == self.question.attacker)
    }

    /// The nodes of the stack (or the bare root before the search
    /// starts), each path node with the children `req` lets it show.
    fn stack_view(&self, req: &ViewRequest) -> StackView {
        let mut view = StackView::default();
        if self.stack.is_empty() {
            view.nodes.push(self.unstarted_root());
            view.path_ids.push(self.root_pos.hash());
        }
        let mut parent: Option<u32> = None;
        for (d, f) in self.stack.iter().enumerate() {
            let id = f.pos.hash();
            let me = view.nodes.len() as u32;
            view.nodes.push(self.path_node(d, f, parent, &view.labels));
            view.path_ids.push(id);
            view.frames.push(SnapFrame {
                node: id,
                move_label: view.nodes[me as usize].move_label.clone(),
                values: vec![
                    ("child".into(), f.next as f64),
                    ("children".into(), f.count as f64),
                ],
            });
            let current = f.next.checked_sub(1);
            for i in 0..f.count {
                let mv = self.moves[f.first + i];
                if Some(i) == current && d + 1 < self.stack.len() {
                    view.labels.push(f.pos.format_move(mv));
                    continue;
                }
                if view.nodes.len() >= req.max_nodes || !req.expands(id, d as u32, true) {
                    view.nodes[me as usize].truncated = true;
                    continue;
                }
                view.nodes.push(self.child_node(d, f, i, me));
            }
            parent = Some(me);
        }
        view
    }

    /// The root before the search starts, with the search's result.
    fn unstarted_root(&self) -> SnapNode {
        let root_status = match self.status {
            Status::Proved => NodeStatus::Proven,
            Status::Disproved => NodeStatus::Disproven,
            _ => NodeStatus::Unknown,
        };
        SnapNode {
            id: self.root_pos.hash(),
            parent: None,
            child_index: 0,
            depth: 0,
            move_label: String::new(),
            kind: self.kind_of(&self.root_pos),
            status: root_status,
            values: Self::node_values(root_status),
            expanded: false,
            n_children: self.root_pos.move_count() as u32,
            descendants: 0,
            truncated: false,
            on_path: true,
            terminal: self.root_pos.outcome().is_some(),
            source: Default::default(),
        }
    }

    /// The node of frame `f` at depth `d` under `parent`; `labels` are
    /// the moves of the path so far (the last one leads here).
    fn path_node(
        &self,
        d: usize,
        f: &DfsFrame<G>,
        parent: Option<u32>,
        labels: &[String],
    ) -> SnapNode {
        let label = labels.last().cloned().unwrap_or_default();
        SnapNode {
            id: f.pos.hash(),
            parent,
            child_index: if d > 0 {
                self.stack[d - 1].next.saturating_sub(1) as u32
            } else {
                0
            },
            depth: d as u32,
            move_label: if d == 0 { String::new() } else { label },
            kind: self.kind_of(&f.pos),
            status: NodeStatus::Unknown,
            values: Self::node_values(NodeStatus::Unknown),
            expanded: true,
            n_children: f.count as u32,
            descendants: 0,
            truncated: false,
            on_path: true,
            terminal: false,
            source: Default::default(),
        }
    }

    /// Child `i` of frame `f` (at depth `d`, snapshot node `me`) off the
    /// path: refuted or untried.
    fn child_node(&self, d: usize, f: &DfsFrame<G>, i: usize, me: u32) -> SnapNode {
        let mv = self.moves[f.first + i];
        let mut c = f.pos.clone();
        c.play(mv);
        let st = Self::child_status(f, i);
        SnapNode {
            id: c.hash(),
            parent: Some(me),
            child_index: i as u32,
            depth: d as u32 + 1,
            move_label: f.pos.format_move(mv),
            kind: self.kind_of(&c),
            status: st,
            values: Self::node_values(st),
            expanded: false,
            n_children: 0,
            descendants: 0,
            truncated: false,
            on_path: false,
            terminal: c.outcome().is_some(),
            source: Default::default(),
        }
    }

    /// The root's children with what the search knows of them.
    fn root_children(&self) -> Vec<ChildSummary> {
        let Some(f) = self.stack.first() else {
            return Vec::new();
        };
        (0..f.count)
            .map(|i| ChildSummary::of(self.child_node(0, f, i, 0)))
            .collect()
    }
}

impl<G: Game> Search for Dfs<G> {
    crate::search::arena_search::checkpoint_by_clone!();

    fn algo(&self) -> &'static str {
        self.name
    }

    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        if !self.started {
            self.started = true;
            let root = self.root_pos.clone();
            self.enter(root);
            return self.status;
        }
        loop {
            if let Some(r) = self.pending.take() {
                let Some(top) = self.stack.last() else {
                    return self.status;
                };
                // OR is decided by a proven child, AND by a disproven one.
                if top.or == r {
                    self.leave(r);
                    if self.status.is_final() {
                        return self.status;
                    }
                    continue;
                }
            }
            let Some(top) = self.stack.last_mut() else {
                return self.status;
            };
            if top.next < top.count {
                let k = top.next;
                top.next += 1;
                let mv = self.moves[top.first + k];
                let mut child = top.pos.clone();
                note_pick(&mut top.last_pick, k as u16, &mut self.counters);
                child.play(mv);
                if self.stack.len() == 1 {
                    let it = self.counters.iterations + 1;
                    self.root_switches.observe(it, k as u32, &mut self.counters);
                }
                self.enter(child);
                return self.status;
            }
            // Every child tried: OR fails, AND holds.
            let r = !top.or;
            self.leave(r);
            if self.status.is_final() {
                return self.status;
            }
        }
    }

    crate::search::arena_search::run_state_accessors!();

    fn value_names(&self) -> &'static [&'static str] {
        pn::PN_DN_NAMES
    }

    /// The stack as frames, and as nodes: the path with each path node's
    /// children (refuted, current, untried).
    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let StackView {
            nodes,
            frames,
            path_ids,
            labels,
        } = self.stack_view(req);
        let overview = crate::search::overview::if_requested(req, &nodes);
        let events = &self.root_switches.events;
        Snapshot {
            algo: self.name.to_string(),
            status: self.status,
            counters: self.counters.clone(),
            value_names: pn::PN_DN_NAMES.iter().map(|s| s.to_string()).collect(),
            label_values: vec![0, 1],
            total_nodes: self.stack.len() as u64,
            nodes,
            extra_edges: Vec::new(),
            selection_path: path_ids,
            selection_moves: labels.clone(),
            root_children: self.root_children(),
            frames,
            inspection: req.inspect.and_then(|id| self.explain(id)),
            position: req.want_position.then(|| {
                self.stack
                    .last()
                    .map(|f| f.pos.clone())
                    .unwrap_or_else(|| self.root_pos.clone())
                    .into_any()
            }),
            position_path: labels,
            switch_events: events[events.len().saturating_sub(1000)..].to_vec(),
            extras: Vec::new(),
            functions: None,
            overview,
        }
    }

    fn sample(&self) -> StatsSample {
        let st = match self.status {
            Status::Proved => NodeStatus::Proven,
            Status::Disproved => NodeStatus::Disproven,
            _ => NodeStatus::Unknown,
        };
        // The depth-first search never re-expands a lost entry, so its
        // revisit counter stays 0.
        let best_child = match self.stack.first() {
            Some(f) => Some(f.next.saturating_sub(1) as u32),
            None => self.root_win,
        };
        StatsSample::of_table(&self.counters, Self::node_values(st), best_child)
    }

    fn best_move(&self) -> Option<String> {
        let Some(f) = self.stack.first() else {
            // Finished: the child that won the root, if the mover won it.
            return crate::search::legal_move_label(&self.root_pos, self.root_win?);
        };
        let k = f.next.checked_sub(1)?;
        Some(f.pos.format_move(self.moves[f.first + k]))
    }
}
