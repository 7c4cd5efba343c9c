//! The compact tree arena shared by the best-first algorithms.
//!
//! Nodes live in one `Vec`, children of a node are contiguous (they are all
//! created at once when the node is expanded), and a node stores only its
//! links, the move that led to it, a few bits and the algorithm's payload
//! `D`. Positions are *not* stored: they are rebuilt by replaying moves from
//! the root on the way down (issue #2: target ≤ 32 bytes per PNS node; with
//! `D = (u32, u32)` and a one-byte move a node is 28 bytes).

use crate::game::Game;

use super::seesaw::NO_PICK;
use super::snapshot::NodeStatus;

/// Index of a node in the arena.
pub type Idx = u32;

/// "No node".
pub const NONE: Idx = u32::MAX;

/// Flag: the node is a terminal position of the game.
pub const TERMINAL: u8 = 1;
/// Flag: the attacker moves at this node (OR node).
pub const OR: u8 = 2;
/// Flag: the node is solved (proven or disproven) — for algorithms whose
/// values are floats and so cannot carry "solved" exactly (docs/algorithms.md §5.1).
pub const SOLVED: u8 = 4;
/// Flag: with `SOLVED`, the node is proven (else disproven).
pub const PROVEN: u8 = 8;

/// One node.
#[derive(Clone, Copy, Debug)]
pub struct Node<M: Copy, D: Copy> {
    /// The parent's index ([`NONE`] at the root).
    pub parent: Idx,
    /// First child, or [`NONE`] while the node is a frontier node.
    pub first_child: Idx,
    /// Number of nodes below this one (kept for level-of-detail displays).
    pub descendants: u32,
    /// Number of children, contiguous from `first_child`.
    pub n_children: u16,
    /// The child this node picked the last time it was on the selection
    /// path ([`NO_PICK`] if never): drives `seesaw_switches`.
    pub last_pick: u16,
    /// A spare 16-bit field for the algorithm (e.g. the height of the
    /// deepest most-proving node for PNS's `tie=deepest`).
    pub aux: u16,
    /// Bit set of [`TERMINAL`], [`OR`], [`SOLVED`], [`PROVEN`].
    pub flags: u8,
    /// The move from the parent (meaningless at the root).
    pub mv: M,
    /// The algorithm's per-node values (pn/dn, win rates, …).
    pub data: D,
}

impl<M: Copy, D: Copy> Node<M, D> {
    /// Whether the children have been generated.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.first_child != NONE
    }
    /// Whether the attacker moves here.
    #[inline]
    pub fn is_or(&self) -> bool {
        self.flags & OR != 0
    }
    /// Whether the game is over at this node.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.flags & TERMINAL != 0
    }
    /// Children indices.
    #[inline]
    pub fn children(&self) -> std::ops::Range<Idx> {
        if self.first_child == NONE {
            0..0
        } else {
            self.first_child..self.first_child + self.n_children as Idx
        }
    }
}

/// The arena: a tree rooted at index 0.
#[derive(Clone, Debug)]
pub struct Arena<M: Copy, D: Copy> {
    nodes: Vec<Node<M, D>>,
}

impl<M: Copy, D: Copy> Arena<M, D> {
    /// A tree holding only the root.
    pub fn new(root_mv: M, root_flags: u8, data: D) -> Self {
        Arena {
            nodes: vec![Node {
                parent: NONE,
                first_child: NONE,
                descendants: 0,
                n_children: 0,
                last_pick: NO_PICK,
                aux: 0,
                flags: root_flags,
                mv: root_mv,
                data,
            }],
        }
    }

    /// Number of nodes in the tree, the root included.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true in practice: an arena always holds its root.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node at index `i` (panics when out of range).
    #[inline]
    pub fn get(&self, i: Idx) -> &Node<M, D> {
        &self.nodes[i as usize]
    }

    /// The node at index `i`, for the algorithm to update.
    #[inline]
    pub fn get_mut(&mut self, i: Idx) -> &mut Node<M, D> {
        &mut self.nodes[i as usize]
    }

    /// Writes `data` and `aux` to node `i` and says whether either changed
    /// (a bottom-up update stops at the first ancestor that did not).
    #[inline]
    pub fn set_values(&mut self, i: Idx, data: D, aux: u16) -> bool
    where
        D: PartialEq,
    {
        let node = &mut self.nodes[i as usize];
        let changed = node.data != data || node.aux != aux;
        node.data = data;
        node.aux = aux;
        changed
    }

    /// Bytes per node.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node<M, D>>();

    /// Bytes held by the nodes (length × node size).
    pub fn bytes(&self) -> u64 {
        (self.nodes.len() * Self::NODE_BYTES) as u64
    }

    /// Appends the children of `parent` (which must be a frontier node) in
    /// the given order, each as `(move, flags, data)`, and adds them to the
    /// descendant counts of `parent` and all its ancestors.
    pub fn expand(&mut self, parent: Idx, children: impl IntoIterator<Item = (M, u8, D)>) {
        let first = self.nodes.len() as Idx;
        for (mv, flags, data) in children {
            self.nodes.push(Node {
                parent,
                first_child: NONE,
                descendants: 0,
                n_children: 0,
                last_pick: NO_PICK,
                aux: 0,
                flags,
                mv,
                data,
            });
        }
        let n = self.nodes.len() as Idx - first;
        let p = &mut self.nodes[parent as usize];
        debug_assert!(p.first_child == NONE, "node expanded twice");
        p.first_child = first;
        p.n_children = n as u16;
        let mut a = parent;
        while a != NONE {
            let node = &mut self.nodes[a as usize];
            node.descendants = node.descendants.saturating_add(n);
            a = node.parent;
        }
    }

    /// Depth of node `i` (root = 0).
    pub fn depth(&self, mut i: Idx) -> u32 {
        let mut d = 0;
        while self.nodes[i as usize].parent != NONE {
            i = self.nodes[i as usize].parent;
            d += 1;
        }
        d
    }

    /// Nodes from the root to `i`, inclusive.
    pub fn path_to(&self, mut i: Idx) -> Vec<Idx> {
        let mut v = vec![i];
        while self.nodes[i as usize].parent != NONE {
            i = self.nodes[i as usize].parent;
            v.push(i);
        }
        v.reverse();
        v
    }

    /// Index of `child` among its parent's children.
    #[inline]
    pub fn child_index(&self, child: Idx) -> u32 {
        let p = self.nodes[child as usize].parent;
        if p == NONE {
            0
        } else {
            child - self.nodes[p as usize].first_child
        }
    }
}

impl<M: Copy, D: Copy> Arena<M, D> {
    /// The position at node `i`, rebuilt by replaying the moves from the
    /// root position.
    pub fn position_at<G: Game<Move = M>>(&self, root: &G, i: Idx) -> G {
        let mut g = root.clone();
        for &n in self.path_to(i).iter().skip(1) {
            g.play(self.nodes[n as usize].mv);
        }
        g
    }

    /// The move labels from the root to node `i`.
    pub fn path_labels<G: Game<Move = M>>(&self, root: &G, i: Idx) -> Vec<String> {
        let mut g = root.clone();
        let mut labels = Vec::new();
        for &n in self.path_to(i).iter().skip(1) {
            let m = self.nodes[n as usize].mv;
            labels.push(g.format_move(m));
            g.play(m);
        }
        labels
    }
}

/// A [`TreeAccess`](super::snapshot::TreeAccess) view of an arena for
/// snapshots: the algorithm supplies how a node's values and status read.
pub struct ArenaView<'a, G: Game, D: Copy, F>
where
    F: Fn(&Node<G::Move, D>) -> (Vec<f64>, super::snapshot::NodeStatus),
{
    /// The tree to show.
    pub arena: &'a Arena<G::Move, D>,
    /// The root position; nodes' positions are replayed from it.
    pub root: &'a G,
    /// Turns a node into its values and solved status.
    pub read: F,
}

impl<G: Game, D: Copy, F> super::snapshot::TreeAccess for ArenaView<'_, G, D, F>
where
    F: Fn(&Node<G::Move, D>) -> (Vec<f64>, super::snapshot::NodeStatus),
{
    fn root_id(&self) -> super::snapshot::NodeId {
        0
    }

    fn children(&self, id: super::snapshot::NodeId, out: &mut Vec<super::snapshot::NodeId>) {
        out.extend(self.arena.get(id as Idx).children().map(|c| c as u64));
    }

    fn subtree_size(&self, id: super::snapshot::NodeId) -> Option<u64> {
        Some(self.arena.get(id as Idx).descendants as u64 + 1)
    }

    fn status(&self, id: super::snapshot::NodeId) -> super::snapshot::NodeStatus {
        (self.read)(self.arena.get(id as Idx)).1
    }

    fn describe(&self, id: super::snapshot::NodeId) -> super::snapshot::SnapNode {
        use super::snapshot::{NodeKind, SnapNode};
        let n = self.arena.get(id as Idx);
        let (values, status) = (self.read)(n);
        let move_label = if n.parent == NONE {
            String::new()
        } else {
            // Format the move in the parent's position: replay is bounded by
            // the depth, and snapshots are capped in size.
            let parent = self.arena.position_at(self.root, n.parent);
            parent.format_move(n.mv)
        };
        SnapNode {
            id,
            parent: None,
            child_index: self.arena.child_index(id as Idx),
            depth: 0,
            move_label,
            kind: NodeKind::or_and(n.is_or()),
            status,
            values,
            expanded: n.is_expanded(),
            n_children: n.n_children as u32,
            descendants: n.descendants as u64,
            truncated: false,
            on_path: false,
            terminal: n.is_terminal(),
            source: Default::default(),
        }
    }
}

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
/// (docs/algorithms.md §0/§5.1): OR proven by one proven child and disproven by
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
