//! The tree view both df-pn implementations share (the plain [`Dfpn`] and
//! `dfpn-fast`): the explored DAG rebuilt from the root by replaying moves,
//! with every drawn number checkable by hand (docs/algorithms.md §4).
//!
//! A depth-first search keeps a node's numbers in its table and updates
//! them only when MID comes back to the node, and it counts children it
//! never searched with an initial value without holding them. So the view
//! marks a drawn number that the min/sum rule over the node's drawn
//! children does not give ([`ValueSource::Stored`]) and draws every child
//! a node counts, the ones not held as dashed ghosts carrying the value
//! the search counts for them ([`ValueSource::Ghost`]). Node ids are the
//! search's table keys, so a position reached by two paths is one node and
//! every further edge into it is an [`ExtraEdge`]; a move back into a
//! position on the path is a back-edge to that ancestor.
//!
//! [`Dfpn`]: super::Dfpn

use std::collections::{HashMap, HashSet, VecDeque};

use crate::game::Game;
use crate::search::dfpn::dag_snapshot::PathFrame;
use crate::search::pn::{self, Pn};
use crate::search::snapshot::{
    ExtraEdge, NodeId, NodeKind, NodeStatus, SnapNode, ValueSource, ViewRequest,
};

/// How many positions a search for a focus or inspected node (not on the
/// MID path) may visit.
const FIND_LIMIT: usize = 200_000;

/// Status from (pn, dn).
pub fn node_status(p: Pn, d: Pn) -> NodeStatus {
    if p == 0 {
        NodeStatus::Proven
    } else if d == 0 {
        NodeStatus::Disproven
    } else {
        NodeStatus::Unknown
    }
}

/// A child a node's numbers count: its index in the node's move order,
/// its position, its move label, and whether the search holds it (a
/// finished game, a table entry, a number the MID path keeps); a child not
/// held counts the search's initial value and is drawn as a ghost.
pub struct Counted<G> {
    /// Index in the node's move order.
    pub index: u32,
    /// The child's position.
    pub pos: G,
    /// The move, in notation.
    pub label: String,
    /// Held by the search (else a ghost).
    pub held: bool,
}

/// The children of `g` reached by `moves`, in that order, each held where
/// `held` says so of its position.
pub fn counted<G: Game>(
    g: &G,
    moves: &[G::Move],
    mut held: impl FnMut(&G) -> bool,
) -> Vec<Counted<G>> {
    let children = moves.iter().enumerate().map(|(i, &m)| {
        let c = g.played(m);
        Counted {
            index: i as u32,
            held: held(&c),
            pos: c,
            label: g.format_move(m),
        }
    });
    children.collect()
}

/// A MID call on the path, as the tree view reads it from either
/// implementation's frames.
pub trait PathCall<G: Game> {
    /// The node's position.
    fn position(&self) -> &G;
    /// The node's table key.
    fn key(&self) -> NodeId;
    /// The move from the parent call (unused at the root).
    fn move_in(&self) -> G::Move;
    /// The call as the snapshot's frames show it.
    fn frame(&self) -> PathFrame;
}

/// [`PathCall`] for the frame types of both implementations
/// ([`super::mid::Frame`], [`super::fast::worker::Frame`]), which keep the
/// call's position, key, move, side, thresholds and numbers in fields of
/// the same names.
macro_rules! path_call_by_fields {
    ($($frame:ty),*) => {$(
        impl<G: Game> PathCall<G> for $frame {
            fn position(&self) -> &G {
                &self.pos
            }
            fn key(&self) -> NodeId {
                self.hash
            }
            fn move_in(&self) -> G::Move {
                self.mv
            }
            fn frame(&self) -> PathFrame {
                PathFrame::new(self.hash, self.or, (self.th_pn, self.th_dn), (self.pn, self.dn))
            }
        }
    )*};
}

path_call_by_fields!(super::mid::Frame<G>, super::fast::worker::Frame<G>);

/// What a df-pn implementation tells its tree view.
pub trait DagSource<G: Game> {
    /// The frames of the MID path, root first.
    type Call: PathCall<G>;
    /// The search root.
    fn root_position(&self) -> &G;
    /// The node id of `g`: its table key.
    fn node_key(&self, g: &G) -> NodeId;
    /// Whether the attacker moves at `g` (an OR node).
    fn is_or(&self, g: &G) -> bool;
    /// The MID path's calls, root first.
    fn calls(&self) -> &[Self::Call];
    /// The MID path's positions with their ids, root first.
    fn path(&self) -> Vec<(NodeId, G)> {
        let calls = self.calls().iter();
        calls.map(|f| (f.key(), f.position().clone())).collect()
    }
    /// The MID path's calls as the snapshot's frames show them, root first.
    fn path_frames(&self) -> Vec<PathFrame> {
        self.calls().iter().map(PathCall::frame).collect()
    }
    /// The move labels along the MID path (one per frame below the root).
    fn path_labels(&self) -> Vec<String> {
        let calls = self.calls().windows(2);
        calls
            .map(|w| w[0].position().format_move(w[1].move_in()))
            .collect()
    }
    /// `g`'s drawn (pn, dn) at depth `d`, and whether the game's rules
    /// alone give them (a finished game, or a position the rules settle
    /// without a search).
    fn numbers_at(&self, g: &G, d: u32) -> (Pn, Pn, bool);
    /// Whether the search has generated `g`'s children (`id` its key).
    fn expanded(&self, g: &G, id: NodeId) -> bool;
    /// The children `g`'s numbers count, in move order (empty when `g`
    /// is not expanded or is settled by the rules).
    fn counted_children(&self, g: &G) -> Vec<Counted<G>>;
    /// The numbers the search counts for `g` at depth `d` while it does
    /// not hold it (a ghost's).
    fn unknown_numbers(&self, g: &G, d: u32) -> (Pn, Pn);
    /// The number of children the search counts at `g` (not finished).
    fn child_count(&self, g: &G) -> u32;
    /// Whether `id` is the node of the MID call just entered, whose loop
    /// has not yet run: its numbers are the ones it was entered with.
    fn just_entered(&self, id: NodeId) -> bool;
}

/// (pn, dn) as the min/sum rule gives them from `g`'s counted children's
/// current numbers (what MID will store for `g` when it next loops there).
pub fn rule_numbers<G: Game, S: DagSource<G> + ?Sized>(s: &S, g: &G, d: u32) -> (Pn, Pn) {
    let or = s.is_or(g);
    let (mut min, mut sum) = (pn::INF, 0);
    for c in s.counted_children(g) {
        let (cp, cd, _) = s.numbers_at(&c.pos, d + 1);
        let (a, b) = if or { (cp, cd) } else { (cd, cp) };
        min = min.min(a);
        sum = pn::add(sum, b);
    }
    if or {
        (min, sum)
    } else {
        (sum, min)
    }
}

/// Whether the numbers drawn for expanded node `g` are stored ones that
/// MID has not yet brought up to date: the MID call just entered, or
/// numbers that differ from what the children now give (a path node while
/// MID works below it, a node whose child was updated through a
/// transposition or evicted).
pub fn is_stored<G: Game, S: DagSource<G> + ?Sized>(
    s: &S,
    g: &G,
    id: NodeId,
    d: u32,
    numbers: (Pn, Pn),
) -> bool {
    s.just_entered(id) || numbers != rule_numbers(s, g, d)
}

fn kind_of<G: Game, S: DagSource<G> + ?Sized>(s: &S, g: &G) -> NodeKind {
    NodeKind::or_and(s.is_or(g))
}

/// Node `id` (position `g`, depth `d`, reached by `label`) drawn with
/// the numbers `(p, q)`, not yet placed under a parent: a leaf whose
/// numbers are computed, until the caller says more.
fn drawn<G: Game, S: DagSource<G> + ?Sized>(
    s: &S,
    g: &G,
    id: NodeId,
    d: u32,
    label: String,
    (p, q): (Pn, Pn),
) -> SnapNode {
    SnapNode {
        id,
        parent: None,
        child_index: 0,
        depth: d,
        move_label: label,
        kind: kind_of(s, g),
        status: node_status(p, q),
        values: pn::pn_dn_values(p, q),
        expanded: false,
        n_children: 0,
        descendants: 0,
        truncated: false,
        on_path: false,
        terminal: false,
        source: ValueSource::Computed,
    }
}

/// A child counted in its parent's numbers but not held: drawn dashed
/// with the value the search counts for it.
pub fn ghost<G: Game, S: DagSource<G> + ?Sized>(s: &S, g: &G, d: u32, label: String) -> SnapNode {
    let numbers = s.unknown_numbers(g, d);
    SnapNode {
        n_children: s.child_count(g),
        source: ValueSource::Ghost,
        ..drawn(s, g, s.node_key(g), d, label, numbers)
    }
}

/// A held node with its numbers, marked stored where they are.
pub fn describe<G: Game, S: DagSource<G> + ?Sized>(
    s: &S,
    g: &G,
    id: NodeId,
    d: u32,
    label: String,
) -> SnapNode {
    let (p, q, terminal) = s.numbers_at(g, d);
    let expanded = !terminal && s.expanded(g, id);
    let stored = expanded && is_stored(s, g, id, d, (p, q));
    SnapNode {
        expanded,
        n_children: if terminal { 0 } else { s.child_count(g) },
        terminal,
        source: if stored {
            ValueSource::Stored
        } else {
            ValueSource::Computed
        },
        ..drawn(s, g, id, d, label, (p, q))
    }
}

/// The position with id `id` and its move labels from the root: from the
/// MID path, else a bounded breadth-first walk over held nodes.
pub fn find_position<G: Game, S: DagSource<G> + ?Sized>(
    s: &S,
    id: NodeId,
) -> Option<(G, Vec<String>)> {
    let root = s.root_position();
    if s.node_key(root) == id {
        return Some((root.clone(), Vec::new()));
    }
    let labels = s.path_labels();
    for (i, (h, g)) in s.path().into_iter().enumerate() {
        if h == id {
            return Some((g, labels[..i.min(labels.len())].to_vec()));
        }
    }
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    queue.push_back((root.clone(), Vec::<String>::new()));
    seen.insert(s.node_key(root));
    while let Some((g, path)) = queue.pop_front() {
        if seen.len() > FIND_LIMIT {
            break;
        }
        for c in s.counted_children(&g).into_iter().filter(|c| c.held) {
            let h = s.node_key(&c.pos);
            if !seen.insert(h) {
                continue;
            }
            let mut p = path.clone();
            p.push(c.label);
            if h == id {
                return Some((c.pos, p));
            }
            queue.push_back((c.pos, p));
        }
    }
    None
}

/// One entry of the breadth-first queue of [`collect_dag`].
struct Pending<G> {
    pos: G,
    parent: Option<u32>,
    child_index: u32,
    rel: u32,
    label: String,
    ghost: bool,
}

/// Breadth-first DAG from the request's focus (or the root): the nodes
/// and the extra edges (docs/algorithms.md §4 visualiser). The MID path is
/// always listed; the work is bounded by the request's node cap times the
/// branching factor.
pub fn collect_dag<G: Game, S: DagSource<G> + ?Sized>(
    s: &S,
    req: &ViewRequest,
) -> (Vec<SnapNode>, Vec<ExtraEdge>) {
    let path: HashSet<NodeId> = s.path().into_iter().map(|(h, _)| h).collect();
    let (focus, focus_depth) = match req.focus.and_then(|id| find_position(s, id)) {
        Some((g, labels)) => (g, labels.len() as u32),
        None => (s.root_position().clone(), 0),
    };
    let mut nodes: Vec<SnapNode> = Vec::new();
    let mut extra = Vec::new();
    let mut index: HashMap<NodeId, u32> = HashMap::new();
    // Each listed node's position hash (without its path), to find the
    // ancestor a repetition returns to.
    let mut plain: Vec<u64> = Vec::new();
    let mut queue = VecDeque::new();
    queue.push_back(Pending {
        pos: focus,
        parent: None,
        child_index: 0,
        rel: 0,
        label: String::new(),
        ghost: false,
    });
    while let Some(Pending {
        pos: g,
        parent,
        child_index,
        rel,
        label,
        ghost: is_ghost,
    }) = queue.pop_front()
    {
        if let (true, Some(p)) = (g.is_repetition(), parent) {
            // A move back into a position on the path: drawn as a
            // back-edge to that ancestor rather than as a leaf.
            let h = g.hash();
            let mut at = Some(p);
            while let Some(x) = at {
                if plain[x as usize] == h {
                    break;
                }
                at = nodes[x as usize].parent;
            }
            if let Some(to) = at {
                extra.push(ExtraEdge {
                    from: p,
                    to,
                    label,
                    back: true,
                });
                continue;
            }
        }
        let id = s.node_key(&g);
        if let Some(&seen) = index.get(&id) {
            if let Some(p) = parent {
                extra.push(ExtraEdge {
                    from: p,
                    to: seen,
                    label,
                    back: false,
                });
            }
            continue;
        }
        let forced = path.contains(&id);
        if nodes.len() >= req.max_nodes && !forced {
            if let Some(p) = parent {
                nodes[p as usize].truncated = true;
            }
            continue;
        }
        let d = focus_depth + rel;
        let mut n = if is_ghost {
            ghost(s, &g, d, label)
        } else {
            describe(s, &g, id, d, label)
        };
        n.parent = parent;
        n.child_index = child_index;
        n.on_path = forced;
        let me = nodes.len() as u32;
        index.insert(id, me);
        plain.push(g.hash());
        if is_ghost || !n.expanded {
            nodes.push(n);
            continue;
        }
        let expand_all = req.expands(id, rel, forced);
        let kids = s.counted_children(&g);
        if !kids.is_empty() && !expand_all {
            n.truncated = true;
        }
        nodes.push(n);
        for c in kids {
            // Every child the node's numbers count (the held ones and the
            // ghosts, in move order), or only the path's.
            if expand_all || (c.held && path.contains(&s.node_key(&c.pos))) {
                queue.push_back(Pending {
                    pos: c.pos,
                    parent: Some(me),
                    child_index: c.index,
                    rel: rel + 1,
                    label: c.label,
                    ghost: !c.held,
                });
            }
        }
    }
    (nodes, extra)
}
