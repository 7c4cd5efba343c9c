//! The recorded tree of the depth being searched: every visited node and
//! every cut-off child with its window, value and SCN, for the tree view
//! and the inspector. Capped at a number of nodes (beyond it the search
//! goes on unrecorded); a cap of 0 records nothing and costs nothing.

use crate::game::Game;
use crate::search::pn::{Pn, INF};

use super::engine::{LeafScore, NEG_INF, POS_INF};

/// "No recorded node" (the cap was reached or recording is off).
pub(super) const NO_NODE: u32 = u32::MAX;

/// What a recorded node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// Searched, with children.
    Inner,
    /// An unfinished leaf at the depth limit (static evaluation).
    Horizon,
    /// A finished game.
    Terminal,
    /// Not searched because of its parent's cut-off; counted as a leaf.
    CutOff,
}

/// One recorded node.
#[derive(Clone, Debug)]
pub(super) struct TraceNode<M> {
    pub(super) parent: u32,
    /// The move from the parent (unused at the root).
    pub(super) mv: M,
    pub(super) ply: u32,
    pub(super) role: Role,
    /// MAX (the root player) moves here.
    pub(super) is_max: bool,
    /// The window the node was searched with (cut-off children: none).
    pub(super) alpha: i64,
    pub(super) beta: i64,
    /// The value returned (leaves: their value, MAX's view).
    pub(super) value: i64,
    pub(super) scn: Pn,
    /// The node has returned its value.
    pub(super) done: bool,
    /// Index (in move order) of the child that set the value.
    pub(super) best: Option<u32>,
    /// A cut-off ended the loop over the children.
    pub(super) cut: bool,
    /// Recorded children, in search order.
    pub(super) children: Vec<u32>,
    /// Number of children the node has.
    pub(super) n_moves: u32,
    /// Some children were not recorded (the cap was reached).
    pub(super) dropped: bool,
}

/// The recorded tree of one depth.
#[derive(Clone)]
pub(super) struct Trace<G: Game> {
    pub(super) nodes: Vec<TraceNode<G::Move>>,
    limit: usize,
    /// The depth this tree belongs to (ids are unique across depths).
    pub(super) depth: u32,
}

impl<G: Game> Trace<G> {
    pub(super) fn new(limit: usize) -> Self {
        Trace {
            nodes: Vec::new(),
            limit,
            depth: 0,
        }
    }

    /// Whether anything is recorded at all.
    #[inline]
    pub(super) fn recording(&self) -> bool {
        self.limit > 0
    }

    /// Starts the tree of `depth`.
    pub(super) fn clear(&mut self, depth: u32) {
        self.nodes.clear();
        self.depth = depth;
    }

    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Approximate heap bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<TraceNode<G::Move>>()
            + self
                .nodes
                .iter()
                .map(|n| n.children.capacity() * 4)
                .sum::<usize>()
    }

    fn blank(parent: u32, mv: G::Move, ply: u32) -> TraceNode<G::Move> {
        TraceNode {
            parent,
            mv,
            ply,
            role: Role::Inner,
            is_max: true,
            alpha: NEG_INF,
            beta: POS_INF,
            value: 0,
            scn: INF,
            done: false,
            best: None,
            cut: false,
            children: Vec::new(),
            n_moves: 0,
            dropped: false,
        }
    }

    /// Records the root; [`NO_NODE`] when recording is off.
    pub(super) fn add_root(&mut self) -> u32 {
        if !self.recording() {
            return NO_NODE;
        }
        self.nodes.push(Self::blank(NO_NODE, G::Move::default(), 0));
        0
    }

    /// Records a child of `parent` reached by `mv`; [`NO_NODE`] when the
    /// parent is not recorded or the cap is reached.
    #[inline]
    pub(super) fn add_child(&mut self, parent: u32, mv: G::Move, ply: u32) -> u32 {
        if parent == NO_NODE {
            return NO_NODE;
        }
        if self.nodes.len() >= self.limit {
            self.nodes[parent as usize].dropped = true;
            return NO_NODE;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Self::blank(parent, mv, ply));
        self.nodes[parent as usize].children.push(id);
        id
    }

    /// An inner node starts its loop over `n_moves` children.
    #[inline]
    pub(super) fn open(&mut self, t: u32, is_max: bool, alpha: i64, beta: i64, n_moves: usize) {
        if let Some(n) = self.nodes.get_mut(t as usize) {
            n.role = Role::Inner;
            n.is_max = is_max;
            n.alpha = alpha;
            n.beta = beta;
            n.n_moves = n_moves as u32;
        }
    }

    /// A leaf with its score.
    #[inline]
    pub(super) fn set_leaf(
        &mut self,
        t: u32,
        s: LeafScore,
        role: Role,
        is_max: bool,
        alpha: i64,
        beta: i64,
    ) {
        if let Some(n) = self.nodes.get_mut(t as usize) {
            n.role = role;
            n.is_max = is_max;
            n.alpha = alpha;
            n.beta = beta;
            n.value = s.value;
            n.scn = s.scn;
            n.done = true;
        }
    }

    /// An inner node returns.
    #[inline]
    pub(super) fn close(&mut self, t: u32, value: i64, scn: Pn, best: Option<u32>, cut: bool) {
        if let Some(n) = self.nodes.get_mut(t as usize) {
            n.value = value;
            n.scn = scn;
            n.best = best;
            n.cut = cut;
            n.done = true;
        }
    }

    /// The moves from the root to node `t`.
    pub(super) fn path_moves(&self, mut t: u32) -> Vec<G::Move> {
        let mut out = Vec::new();
        while let Some(n) = self.nodes.get(t as usize) {
            if n.parent == NO_NODE {
                break;
            }
            out.push(n.mv);
            t = n.parent;
        }
        out.reverse();
        out
    }
}
