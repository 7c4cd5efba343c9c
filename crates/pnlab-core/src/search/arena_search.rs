//! What the best-first searches over the compact [`Arena`] share (PNS,
//! DeepPN, PPN, MCPN, the MCTS solvers): the tree and the position it grows
//! from, status, counters and root-switch record; the selection descent
//! with its seesaw bookkeeping; expansion of all children; the bottom-up
//! update; and the snapshot and sample built from them.
//!
//! Each algorithm embeds an [`ArenaSearch`] as its `core` field and keeps
//! its own numbers, selection rule, formulas and inspector text: the
//! methods here take those as closures, so one copy of the bookkeeping
//! serves all five without a virtual call on the hot path.

use std::ops::Range;

use crate::game::Game;

use super::arena::{Arena, ArenaView, Idx, Node, NONE, OR, SOLVED};
use super::overview;
use super::seesaw::{note_pick, RootSwitches};
use super::snapshot::{
    collect_nodes, root_children, Inspection, NodeId, NodeStatus, Snapshot, TreeAccess, ViewRequest,
};
use super::{Counters, Question, StatsSample, Status, StopReason};

/// The shared state of an arena search on game `G` with node payload `D`.
#[derive(Clone)]
pub struct ArenaSearch<G: Game, D: Copy> {
    pub root_pos: G,
    pub question: Question,
    pub arena: Arena<G::Move, D>,
    pub status: Status,
    pub counters: Counters,
    pub root_switches: RootSwitches,
    /// Reused buffers for expansion (no allocation per iteration).
    moves: Vec<G::Move>,
    children: Vec<(G::Move, u8, D)>,
}

/// The run's status once the root's solved status reads `s`.
pub fn status_of(s: NodeStatus) -> Status {
    match s {
        NodeStatus::Proven => Status::Proved,
        NodeStatus::Disproven => Status::Disproved,
        NodeStatus::Unknown => Status::Running,
    }
}

/// What an algorithm puts into its snapshot besides the shared parts.
pub struct SnapshotParts<P, E> {
    pub algo: &'static str,
    pub value_names: &'static [&'static str],
    /// Which values a tree view prints on each node (indices).
    pub label_values: Vec<usize>,
    /// The selection path from the root; asked only while the search runs
    /// (a finished search highlights just the root).
    pub selection_path: P,
    /// The inspector's text for a node, given the selection path.
    pub explain: E,
    pub extras: Vec<(String, String)>,
}

impl<G: Game, D: Copy> ArenaSearch<G, D> {
    /// A tree holding only the root, with `flags` (the OR flag is added
    /// here), payload `data` and solved status `root`; `counters` may
    /// already hold the root's playouts.
    pub fn new(
        root_pos: G,
        question: Question,
        flags: u8,
        data: D,
        root: NodeStatus,
        mut counters: Counters,
    ) -> Self {
        let or = if root_pos.to_move() == question.attacker {
            OR
        } else {
            0
        };
        counters.nodes_created = 1;
        // The root's move field is never read.
        let mut s = ArenaSearch {
            root_pos,
            question,
            arena: Arena::new(G::Move::default(), flags | or, data),
            status: status_of(root),
            counters,
            root_switches: RootSwitches::default(),
            moves: Vec::new(),
            children: Vec::new(),
        };
        s.refresh_memory();
        s
    }

    pub fn refresh_memory(&mut self) {
        self.counters.live_nodes = self.arena.len() as u64;
        self.counters.peak_tree_bytes = self.counters.peak_tree_bytes.max(self.arena.bytes());
    }

    /// The node reached from the root by `path` (child indices in move
    /// order), if the tree holds it (proof certificates).
    pub fn node_at_path(&self, path: &[u32]) -> Option<Idx> {
        let mut n: Idx = 0;
        for &i in path {
            let node = self.arena.get(n);
            if !node.is_expanded() || i >= node.children().len() as u32 {
                return None;
            }
            n = node.children().start + i;
        }
        Some(n)
    }

    /// Ends a running search with `Unknown(reason)`.
    pub fn stop(&mut self, reason: StopReason) {
        self.status.stop(reason);
    }

    /// The number of the iteration a step is about to run; `None` once the
    /// search has finished (a step then returns the status unchanged).
    #[inline]
    pub fn next_iteration(&self) -> Option<u64> {
        (!self.status.is_final()).then_some(self.counters.iterations + 1)
    }

    /// Sets the status from the root's solved status and returns it.
    #[inline]
    pub fn settle(&mut self, root: NodeStatus) -> Status {
        self.status = status_of(root);
        self.status
    }

    /// One selection step of iteration `iteration` from `n` to its child
    /// `c`: the seesaw bookkeeping (root switch, the node's pick) and the
    /// move played on `pos`.
    #[inline]
    pub fn follow(&mut self, iteration: u64, n: Idx, c: Idx, pos: &mut G) {
        debug_assert!(c != NONE, "an unsolved node has a child to select");
        let k = (c - self.arena.get(n).first_child) as u16;
        if n == 0 {
            self.root_switches
                .observe(iteration, k as u32, &mut self.counters);
        }
        note_pick(&mut self.arena.get_mut(n).last_pick, k, &mut self.counters);
        pos.play(self.arena.get(c).mv);
    }

    /// Selection from the root to a frontier node, moving from each
    /// expanded node to the child `pick` names. Returns the frontier node,
    /// its position and its depth.
    #[inline]
    pub fn descend(
        &mut self,
        iteration: u64,
        mut pick: impl FnMut(&Arena<G::Move, D>, Idx) -> Idx,
    ) -> (G, Idx, u32) {
        let mut pos = self.root_pos.clone();
        let mut n: Idx = 0;
        let mut depth = 0u32;
        while self.arena.get(n).is_expanded() {
            let c = pick(&self.arena, n);
            self.follow(iteration, n, c, &mut pos);
            n = c;
            depth += 1;
        }
        (pos, n, depth)
    }

    /// The path from the root that `next` takes until it names no child.
    pub fn path_by(
        &self,
        mut next: impl FnMut(&Arena<G::Move, D>, Idx) -> Option<Idx>,
    ) -> Vec<Idx> {
        let mut path = vec![0];
        let mut n = 0;
        while let Some(c) = next(&self.arena, n) {
            path.push(c);
            n = c;
        }
        path
    }

    /// The path from the root through expanded nodes not flagged
    /// [`SOLVED`], each moving to the child `pick` names, until `pick` names
    /// none ([`NONE`]): the searches that keep solved status in flags.
    pub fn unsolved_path(&self, pick: impl Fn(&Arena<G::Move, D>, Idx) -> Idx) -> Vec<Idx> {
        self.path_by(|a, n| {
            let node = a.get(n);
            let c = (node.is_expanded() && node.flags & SOLVED == 0).then(|| pick(a, n))?;
            (c != NONE).then_some(c)
        })
    }

    /// Creates all children of frontier node `n` (position `pos`) in move
    /// order, each with the flags and payload `leaf(child, is_or,
    /// counters)` gives (the OR flag is added here), and counts the
    /// expansion. Returns the new nodes.
    #[inline]
    pub fn add_children(
        &mut self,
        n: Idx,
        pos: &G,
        leaf: impl FnMut(&G, bool, &mut Counters) -> (u8, D),
    ) -> Range<Idx> {
        self.add_children_where(n, pos, |_| true, leaf)
    }

    /// [`add_children`](Self::add_children) for the moves `keep` accepts
    /// only (a game's knowledge ruling the others out).
    #[inline]
    pub fn add_children_where(
        &mut self,
        n: Idx,
        pos: &G,
        keep: impl Fn(G::Move) -> bool,
        mut leaf: impl FnMut(&G, bool, &mut Counters) -> (u8, D),
    ) -> Range<Idx> {
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        self.moves.retain(|&m| keep(m));
        self.children.clear();
        for &m in &self.moves {
            let mut child = pos.clone();
            child.play(m);
            let is_or = child.to_move() == self.question.attacker;
            let (flags, data) = leaf(&child, is_or, &mut self.counters);
            self.children
                .push((m, flags | if is_or { OR } else { 0 }, data));
        }
        let first = self.arena.len() as Idx;
        let count = self.children.len() as Idx;
        self.arena.expand(n, self.children.drain(..));
        self.counters.nodes_expanded += 1;
        first..first + count
    }

    /// [`add_children`](Self::add_children) for the frontier node `n` at
    /// `depth` that iteration `iteration` selected, counting the iteration
    /// and the new nodes.
    #[inline]
    pub fn expand(
        &mut self,
        iteration: u64,
        n: Idx,
        depth: u32,
        pos: &G,
        leaf: impl FnMut(&G, bool, &mut Counters) -> (u8, D),
    ) -> Range<Idx> {
        self.expand_where(iteration, n, depth, pos, |_| true, leaf)
    }

    /// [`expand`](Self::expand) for the moves `keep` accepts only.
    #[inline]
    pub fn expand_where(
        &mut self,
        iteration: u64,
        n: Idx,
        depth: u32,
        pos: &G,
        keep: impl Fn(G::Move) -> bool,
        leaf: impl FnMut(&G, bool, &mut Counters) -> (u8, D),
    ) -> Range<Idx> {
        let new = self.add_children_where(n, pos, keep, leaf);
        self.counters.iterations = iteration;
        self.counters.nodes_created += new.len() as u64;
        self.counters.max_depth = self.counters.max_depth.max(depth + 1);
        new
    }

    /// Updates `n` and then its ancestors bottom-up with `recompute` (which
    /// says whether the node changed), stopping at the first unchanged
    /// ancestor; then refreshes the memory counters.
    #[inline]
    pub fn update_from(
        &mut self,
        n: Idx,
        mut recompute: impl FnMut(&mut Arena<G::Move, D>, Idx) -> bool,
    ) {
        let mut a = n;
        while a != NONE {
            if !recompute(&mut self.arena, a) && a != n {
                break;
            }
            a = self.arena.get(a).parent;
        }
        self.refresh_memory();
    }

    /// The move to root child number `c`, in notation.
    pub fn root_child_move(&self, c: u32) -> String {
        let root = self.arena.get(0);
        self.root_pos
            .format_move(self.arena.get(root.first_child + c).mv)
    }

    /// The move leading to node `c`, in its parent position's notation
    /// (empty at the root).
    pub fn move_label(&self, c: Idx) -> String {
        self.arena
            .path_labels(&self.root_pos, c)
            .last()
            .cloned()
            .unwrap_or_default()
    }

    /// The inspector's record for node `id` with the algorithm's formulas
    /// and choice text.
    pub fn inspection(
        &self,
        id: Idx,
        formulas: Vec<(String, String)>,
        choice: Option<String>,
    ) -> Inspection {
        Inspection {
            node: id as u64,
            path: self.arena.path_labels(&self.root_pos, id),
            formulas,
            choice,
        }
    }

    /// A snapshot view of the arena whose nodes read through `read`.
    pub fn view<F>(&self, read: F) -> ArenaView<'_, G, D, F>
    where
        F: Fn(&Node<G::Move, D>) -> (Vec<f64>, NodeStatus),
    {
        ArenaView {
            arena: &self.arena,
            root: &self.root_pos,
            read,
        }
    }

    /// The live-curve sample: the shared counters with the algorithm's
    /// root values and best root child.
    pub fn sample(&self, root_values: Vec<f64>, best_child: Option<u32>) -> StatsSample {
        StatsSample::of_tree(&self.counters, root_values, best_child)
    }

    /// The snapshot of the tree as `view` shows it, with the algorithm's
    /// `parts`. The root's children, the highlighted selection path and
    /// the node count follow the view, so a view that hides arena slots
    /// (MCTS) hides them everywhere; `total_nodes` is `nodes_created`,
    /// which counts exactly the nodes in the tree.
    pub fn snapshot<T, P, E>(
        &self,
        req: &ViewRequest,
        view: &T,
        parts: SnapshotParts<P, E>,
    ) -> Snapshot
    where
        T: TreeAccess,
        P: FnOnce() -> Vec<Idx>,
        E: FnOnce(Idx, &[Idx]) -> Inspection,
    {
        let path = if self.status.is_final() {
            vec![0]
        } else {
            (parts.selection_path)()
        };
        let path_ids = shown_path(view, &path);
        let nodes = collect_nodes(view, req, &path_ids);
        let root_children = root_children(view);
        let target = req
            .inspect
            .map(|i| i as Idx)
            .filter(|&i| (i as usize) < self.arena.len());
        let inspection = target.map(|i| (parts.explain)(i, &path));
        let pos_node = target.unwrap_or(0);
        let events = &self.root_switches.events;
        let overview = overview::for_request(req, view, &path_ids, &nodes);
        Snapshot {
            algo: parts.algo.to_string(),
            status: self.status,
            counters: self.counters.clone(),
            value_names: parts.value_names.iter().map(|s| s.to_string()).collect(),
            label_values: parts.label_values,
            nodes,
            extra_edges: Vec::new(),
            selection_moves: self
                .arena
                .path_labels(&self.root_pos, *path.last().unwrap_or(&0)),
            selection_path: path_ids,
            root_children,
            frames: Vec::new(),
            total_nodes: self.counters.nodes_created,
            inspection,
            position: req
                .want_position
                .then(|| self.arena.position_at(&self.root_pos, pos_node).into_any()),
            position_path: self.arena.path_labels(&self.root_pos, pos_node),
            switch_events: events[events.len().saturating_sub(1000)..].to_vec(),
            extras: parts.extras,
            functions: None,
            overview,
        }
    }
}

/// The node after `id` on the selection path `path`: the child `id` picked
/// (`None` when `id` is not on the path or ends it).
pub fn next_on_path(path: &[Idx], id: Idx) -> Option<Idx> {
    let i = path.iter().position(|&p| p == id)?;
    path.get(i + 1).copied()
}

/// The ids of the selection path as far as `view` shows it: a step to a
/// child the view does not list (an MCTS slot about to join the tree) ends
/// the highlighted part.
fn shown_path<T: TreeAccess>(view: &T, path: &[Idx]) -> Vec<NodeId> {
    let mut ids = vec![path[0] as NodeId];
    let mut kids = Vec::new();
    for step in path.windows(2) {
        kids.clear();
        view.children(step[0] as NodeId, &mut kids);
        if !kids.contains(&(step[1] as NodeId)) {
            break;
        }
        ids.push(step[1] as NodeId);
    }
    ids
}

/// The [`Search`](super::Search) methods an algorithm embedding an
/// [`ArenaSearch`] as `core` answers from it alone: status, stop, counters,
/// switch events, the best move (the root child its own `best_child`
/// names) and, the arena being plain data, a checkpoint by cloning.
macro_rules! delegate_to_core {
    (status: $status:expr) => {
        delegate_to_core!();

        fn solved_at(&self, path: &[u32], _hash: u64) -> Option<bool> {
            let n = self.core.node_at_path(path)?;
            ($status)(self.core.arena.get(n)).solved()
        }
    };
    () => {
        $crate::search::arena_search::checkpoint_by_clone!();

        $crate::search::arena_search::run_state_accessors!(no_stop; core);

        fn stop(&mut self, reason: $crate::search::StopReason) {
            self.core.stop(reason)
        }

        fn best_move(&self) -> Option<String> {
            Some(self.core.root_child_move(self.best_child()?))
        }
    };
}

pub(crate) use delegate_to_core;

/// [`Search::checkpoint`](super::Search::checkpoint) for a search whose
/// `Clone` copies everything it steps on (a tree or table of plain data,
/// no threads or handles), so that the copy steps on exactly as the
/// original would.
macro_rules! checkpoint_by_clone {
    () => {
        fn checkpoint(&self) -> Option<Box<dyn $crate::search::Search>> {
            Some(Box::new(self.clone()))
        }
    };
}

pub(crate) use checkpoint_by_clone;

/// The [`Search`](super::Search) accessors every search answers from the
/// same three fields, `status` ([`Status`](super::Status)), `counters`
/// ([`Counters`](super::Counters)) and `root_switches`
/// ([`RootSwitches`](super::seesaw::RootSwitches)): status, stop,
/// counters, counters_mut and switch_events. The fields are read from
/// `self` (`run_state_accessors!()`) or from one of its fields
/// (`run_state_accessors!(core)`); `run_state_accessors!(no_stop; …)`
/// leaves `stop` to a search that must also stop an inner one. Defined
/// once, so that stopping means the same thing in every search. A search
/// that records no root switches takes the status and counter parts
/// alone: `status_accessors!(…)` (status, stop) and
/// `counter_accessors!(…)` (counters, counters_mut), each from its own
/// field path.
macro_rules! run_state_accessors {
    (no_stop; $($field:ident).*) => {
        fn status(&self) -> $crate::search::Status {
            self$(.$field)*.status
        }

        $crate::search::arena_search::counter_accessors!($($field).*);

        fn switch_events(&self) -> &[$crate::search::SwitchEvent] {
            &self$(.$field)*.root_switches.events
        }
    };
    ($($field:ident).*) => {
        $crate::search::arena_search::run_state_accessors!(no_stop; $($field).*);

        fn stop(&mut self, reason: $crate::search::StopReason) {
            self$(.$field)*.status.stop(reason);
        }
    };
}

pub(crate) use run_state_accessors;

/// `status` and `stop` read from the `status` field of `self` or of the
/// field path given (see [`run_state_accessors!`]).
macro_rules! status_accessors {
    ($($field:ident).*) => {
        fn status(&self) -> $crate::search::Status {
            self$(.$field)*.status
        }

        fn stop(&mut self, reason: $crate::search::StopReason) {
            self$(.$field)*.status.stop(reason);
        }
    };
}

pub(crate) use status_accessors;

/// `counters` and `counters_mut` read from the `counters` field of `self`
/// or of the field path given (see [`run_state_accessors!`]).
macro_rules! counter_accessors {
    ($($field:ident).*) => {
        fn counters(&self) -> &$crate::search::Counters {
            &self$(.$field)*.counters
        }

        fn counters_mut(&mut self) -> &mut $crate::search::Counters {
            &mut self$(.$field)*.counters
        }
    };
}

pub(crate) use counter_accessors;
