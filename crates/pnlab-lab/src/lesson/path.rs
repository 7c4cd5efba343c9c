//! Node paths: a node named by the moves that lead to it from the root,
//! separated by spaces (`"b e"`; `""` is the root), in the game's
//! notation as the tree view labels its edges. Resolving a path finds
//! the node in a snapshot, following a shared node's second parents too
//! (a transposition is one node reached by several paths).

use std::collections::HashMap;
use std::fmt;

use pnlab_core::game::AnyPosition;
use pnlab_core::search::{NodeId, Snapshot};

/// The moves from the root to a node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct NodePath {
    /// The moves in order (empty: the root).
    pub moves: Vec<String>,
    /// Character offset of each move in the text it was read from (for
    /// errors that point at the move).
    #[serde(skip)]
    pub offsets: Vec<usize>,
}

impl NodePath {
    /// Reads `"b e"` (moves separated by white space; `""` is the root).
    pub fn parse(text: &str) -> NodePath {
        let mut moves = Vec::new();
        let mut offsets = Vec::new();
        let mut current: Option<(usize, String)> = None;
        for (i, c) in text.chars().chain(std::iter::once(' ')).enumerate() {
            match (c.is_whitespace(), current.as_mut()) {
                (false, None) => current = Some((i, c.to_string())),
                (false, Some((_, m))) => m.push(c),
                (true, Some(_)) => {
                    if let Some((at, m)) = current.take() {
                        moves.push(m);
                        offsets.push(at);
                    }
                }
                (true, None) => {}
            }
        }
        NodePath { moves, offsets }
    }

    /// A path from moves (offsets 0).
    pub fn from_moves(moves: Vec<String>) -> NodePath {
        let offsets = vec![0; moves.len()];
        NodePath { moves, offsets }
    }

    /// True for the root.
    pub fn is_root(&self) -> bool {
        self.moves.is_empty()
    }
}

impl fmt::Display for NodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.moves.is_empty() {
            f.write_str("the root")
        } else {
            write!(f, "node {}", self.moves.join(" "))
        }
    }
}

/// Why a path names no node, and which of its moves fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    /// Index of the move that cannot be followed.
    pub at_move: usize,
    /// A sentence saying why, with the moves that would have been valid.
    pub message: String,
}

/// Children of every snapshot node by move label: the tree edges and a
/// shared node's other parents' edges (not back-edges: a repetition is
/// not a child).
pub struct ChildIndex<'a> {
    snap: &'a Snapshot,
    children: HashMap<(usize, &'a str), usize>,
}

impl<'a> ChildIndex<'a> {
    /// Indexes `snap`.
    pub fn new(snap: &'a Snapshot) -> ChildIndex<'a> {
        let mut children = HashMap::new();
        for (i, n) in snap.nodes.iter().enumerate() {
            if let Some(p) = n.parent {
                children.insert((p as usize, n.move_label.as_str()), i);
            }
        }
        for e in snap.extra_edges.iter().filter(|e| !e.back) {
            children
                .entry((e.from as usize, e.label.as_str()))
                .or_insert(e.to as usize);
        }
        ChildIndex { snap, children }
    }

    /// The snapshot index of the node `path` names, or why there is none.
    /// `root` is the searched position (to list the legal moves).
    pub fn resolve(&self, path: &NodePath, root: Option<&AnyPosition>) -> Result<usize, PathError> {
        if self.snap.nodes.is_empty() {
            return Err(PathError {
                at_move: 0,
                message: "the search shows no tree".into(),
            });
        }
        let mut at = 0usize;
        let mut position = root.cloned();
        for (k, mv) in path.moves.iter().enumerate() {
            if let Some(&c) = self.children.get(&(at, mv.as_str())) {
                at = c;
                position = position.and_then(|p| p.after_move(mv).ok());
                continue;
            }
            let here = NodePath::from_moves(path.moves[..k].to_vec());
            let legal = position
                .as_ref()
                .map(AnyPosition::legal_move_names)
                .unwrap_or_default();
            let node = &self.snap.nodes[at];
            let message = if position.is_some() && !legal.iter().any(|m| m == mv) {
                if legal.is_empty() {
                    format!("`{mv}`: {here} has no moves (the game is over there)")
                } else {
                    format!(
                        "`{mv}` is not a move at {here}; its moves: {}",
                        legal.join(", ")
                    )
                }
            } else if !node.expanded {
                format!("`{mv}`: {here} is not expanded yet at this iteration, so its children are not in the tree")
            } else {
                format!("`{mv}`: the child of {here} is not in the tree the search shows (it keeps only part of it)")
            };
            return Err(PathError {
                at_move: k,
                message,
            });
        }
        Ok(at)
    }

    /// The id of the node `path` names.
    pub fn resolve_id(
        &self,
        path: &NodePath,
        root: Option<&AnyPosition>,
    ) -> Result<NodeId, PathError> {
        self.resolve(path, root).map(|i| self.snap.nodes[i].id)
    }
}

/// The moves from the snapshot's first node to node `i` (tree edges).
pub fn path_of(snap: &Snapshot, i: usize) -> NodePath {
    let mut moves = Vec::new();
    let mut at = i;
    while let Some(p) = snap.nodes.get(at).and_then(|n| n.parent) {
        moves.push(snap.nodes[at].move_label.clone());
        at = p as usize;
    }
    moves.reverse();
    NodePath::from_moves(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_moves_and_their_offsets() {
        let p = NodePath::parse("  b  e ");
        assert_eq!(p.moves, vec!["b", "e"]);
        assert_eq!(p.offsets, vec![2, 5]);
        assert!(NodePath::parse("").is_root());
        assert_eq!(NodePath::parse("").to_string(), "the root");
        assert_eq!(NodePath::parse("c h").to_string(), "node c h");
    }
}
