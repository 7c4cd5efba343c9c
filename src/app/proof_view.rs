//! The proof (or disproof) tree of a solved root, cut out of the tree
//! view's snapshot: once the root is proven, what a student needs to see
//! is the winning move and every defence against it, not the whole search
//! tree with the key move lost among dozens of refuted tries.
//!
//! A proof tree keeps, at each proven OR node, one proven child (the
//! winning move) and, at each AND node below it, every child (each reply
//! must be answered); a disproof tree is the same with the roles swapped.
//! Chance nodes keep all their outcomes. The line of chosen moves from
//! the root (the winning move, the first reply, the answer to it, ...) is
//! marked as the path, so the tree view draws it thick.

use crate::search::snapshot::{NodeKind, NodeStatus};
use crate::search::Snapshot;

/// The proof tree of `snap` when its first node (the root, or the focus)
/// is proven or disproven; `None` otherwise. `best_move` (the root's move
/// the run reports) is preferred as the root's chosen child.
pub fn proof_part(snap: &Snapshot, best_move: Option<&str>) -> Option<Snapshot> {
    let root = snap.nodes.first()?;
    let goal = root.status;
    if goal == NodeStatus::Unknown {
        return None;
    }
    // The side that needs only one good move: the attacker for a proof,
    // the defender for a disproof.
    let chooser = if goal == NodeStatus::Proven {
        NodeKind::Or
    } else {
        NodeKind::And
    };
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); snap.nodes.len()];
    for (i, n) in snap.nodes.iter().enumerate().skip(1) {
        if let Some(p) = n.parent {
            children[p as usize].push(i);
        }
    }
    let mut new_index: Vec<Option<u32>> = vec![None; snap.nodes.len()];
    let mut out = snap.clone();
    out.nodes.clear();
    out.selection_path.clear();
    out.selection_moves.clear();
    // (old index, new parent index, on the chosen line)
    let mut queue = std::collections::VecDeque::from([(0usize, None::<u32>, true)]);
    while let Some((i, parent, on_line)) = queue.pop_front() {
        let node = &snap.nodes[i];
        let kids = &children[i];
        let kept: Vec<usize> = if node.kind == chooser {
            let solved = |&&c: &&usize| snap.nodes[c].status == goal;
            let preferred = (i == 0)
                .then(|| {
                    kids.iter()
                        .filter(solved)
                        .find(|&&c| Some(snap.nodes[c].move_label.as_str()) == best_move)
                })
                .flatten();
            preferred
                .or_else(|| kids.iter().find(solved))
                .into_iter()
                .copied()
                .collect()
        } else {
            kids.clone()
        };
        let mut n = node.clone();
        n.parent = parent;
        n.on_path = on_line;
        n.truncated = node.truncated || kept.len() < node.n_children as usize;
        if on_line {
            out.selection_path.push(n.id);
            if parent.is_some() {
                out.selection_moves.push(n.move_label.clone());
            }
        }
        let me = out.nodes.len() as u32;
        new_index[i] = Some(me);
        out.nodes.push(n);
        for (k, &c) in kept.iter().enumerate() {
            queue.push_back((c, Some(me), on_line && k == 0));
        }
    }
    // Edges between kept nodes stay (a repetition inside the proof).
    out.extra_edges = snap
        .extra_edges
        .iter()
        .filter_map(|e| {
            let from = new_index[e.from as usize]?;
            let to = new_index[e.to as usize]?;
            let mut e = e.clone();
            (e.from, e.to) = (from, to);
            Some(e)
        })
        .collect();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::on_empty_tictactoe;
    use crate::search::ViewRequest;

    /// Solved by pns, the proof cut out of the snapshot is a proof tree:
    /// every OR node keeps one proven child, every AND node all of its
    /// children, every node is proven and the path starts with the root's
    /// winning move.
    #[test]
    fn a_proved_search_shows_a_proof_tree() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/trees/seesaw.tree");
        let entry = crate::positions::load_file(std::path::Path::new(path))
            .unwrap()
            .remove(0);
        let setup = crate::search::SearchSetup::new("pns", entry.position, &[]).unwrap();
        let mut s = crate::search::registry::build("pns", &setup).unwrap();
        while !s.status().is_final() {
            s.step();
        }
        let req = ViewRequest {
            max_depth: 64,
            ..ViewRequest::default()
        };
        let snap = s.snapshot(&req);
        let proof = proof_part(&snap, None).expect("the root is proven");
        assert!(proof.nodes.len() < snap.nodes.len());
        assert!(proof.nodes.iter().all(|n| n.status == NodeStatus::Proven));
        for (i, n) in proof.nodes.iter().enumerate() {
            let kids = proof
                .nodes
                .iter()
                .filter(|c| c.parent == Some(i as u32))
                .count();
            match n.kind {
                NodeKind::Or if n.expanded => assert_eq!(kids, 1, "{}", n.move_label),
                NodeKind::And if n.expanded => {
                    assert_eq!(kids, n.n_children as usize, "{}", n.move_label)
                }
                _ => {}
            }
        }
        // The winning move is on the path, right below the root.
        assert!(proof.nodes.len() >= 2 && proof.nodes[1].on_path);
        assert_eq!(
            proof.selection_moves.first(),
            Some(&proof.nodes[1].move_label)
        );
    }

    /// An unsolved root has no proof to show.
    #[test]
    fn an_unsolved_search_has_none() {
        let mut s = on_empty_tictactoe("pns", &[]);
        s.step();
        let snap = s.snapshot(&ViewRequest::default());
        assert!(proof_part(&snap, None).is_none());
    }
}
