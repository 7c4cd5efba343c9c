//! The part of a step's tree a slide shows when the whole tree is too
//! wide for it: a search tree of a few hundred nodes is thousands of
//! pixels wide at a projector's label size, and cropping it cuts the path
//! the caption talks about away from the root. The slide keeps the nodes
//! the step names, the path from the root to each, and (when that still
//! fits) the children of those nodes; every other subtree is folded into
//! its parent, which is drawn as truncated.

use std::collections::{HashMap, HashSet};

use pnlab_core::search::{NodeId, Snapshot};

/// `snap` reduced to `named` (node ids), their ancestors and, with
/// `children`, the children of the named nodes and of their ancestors.
pub fn around(snap: &Snapshot, named: &[NodeId], children: bool) -> Snapshot {
    let index: HashMap<NodeId, usize> = snap
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id, i))
        .collect();
    // The named nodes and every ancestor of theirs.
    let mut spine: HashSet<usize> = HashSet::new();
    for id in named {
        let mut at = index.get(id).copied();
        while let Some(i) = at {
            if !spine.insert(i) {
                break;
            }
            at = snap.nodes[i].parent.map(|p| p as usize);
        }
    }
    let keep: HashSet<usize> = snap
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| {
            spine.contains(i)
                || (children && n.parent.is_some_and(|p| spine.contains(&(p as usize))))
        })
        .map(|(i, _)| i)
        .collect();
    let mut new_index: Vec<Option<u32>> = vec![None; snap.nodes.len()];
    let mut nodes = Vec::with_capacity(keep.len());
    for (i, n) in snap.nodes.iter().enumerate() {
        // A parent always comes before its children in a snapshot, and
        // the kept set is closed under parents.
        let parent = match n.parent {
            Some(p) => match new_index[p as usize] {
                Some(q) => Some(q),
                None => continue,
            },
            None => None,
        };
        if !keep.contains(&i) {
            continue;
        }
        new_index[i] = Some(nodes.len() as u32);
        let mut m = n.clone();
        m.parent = parent;
        nodes.push(m);
    }
    // A node that lost children says so.
    for (i, n) in snap.nodes.iter().enumerate() {
        if let (Some(p), None) = (n.parent, new_index[i]) {
            if let Some(q) = new_index[p as usize] {
                nodes[q as usize].truncated = true;
            }
        }
    }
    let extra_edges = snap
        .extra_edges
        .iter()
        .filter_map(|e| {
            let (from, to) = (new_index[e.from as usize]?, new_index[e.to as usize]?);
            let mut e = e.clone();
            (e.from, e.to) = (from, to);
            Some(e)
        })
        .collect();
    Snapshot {
        nodes,
        extra_edges,
        ..snap.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pnlab_core::search::test_nodes::{node, snapshot};

    /// Root 0 with children 1..=4; node 2 has children 10..=13; node 11
    /// has children 20, 21.
    fn tree() -> Snapshot {
        let mut v = vec![node(0, None, 0, 0)];
        for k in 0..4u32 {
            v.push(node(u64::from(k) + 1, Some(0), k, 1));
        }
        for k in 0..4u32 {
            v.push(node(10 + u64::from(k), Some(2), k, 2));
        }
        for k in 0..2u32 {
            v.push(node(20 + u64::from(k), Some(6), k, 3));
        }
        snapshot(v, 2)
    }

    fn ids(s: &Snapshot) -> Vec<u64> {
        s.nodes.iter().map(|n| n.id).collect()
    }

    #[test]
    fn the_named_node_keeps_its_path_and_the_path_its_children() {
        let t = tree();
        let s = around(&t, &[20], true);
        assert_eq!(ids(&s), vec![0, 1, 2, 3, 4, 10, 11, 12, 13, 20, 21]);
        for n in &s.nodes {
            if let Some(p) = n.parent {
                let orig = t.nodes.iter().find(|m| m.id == n.id).unwrap();
                let orig_parent = t.nodes[orig.parent.unwrap() as usize].id;
                assert_eq!(s.nodes[p as usize].id, orig_parent);
            }
        }
        let s = around(&t, &[20], false);
        assert_eq!(ids(&s), vec![0, 2, 11, 20]);
        let truncated: Vec<u64> = s
            .nodes
            .iter()
            .filter(|n| n.truncated)
            .map(|n| n.id)
            .collect();
        assert_eq!(truncated, vec![0, 2, 11]);
    }
}
