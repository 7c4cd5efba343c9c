//! The writer of the tree text format (documented in `tree/mod.rs`), used
//! by `notation()`: it prints a subtree so that it parses back to the same
//! graph.
//!
//! **Where a shared node is written.** A shared node is written out in
//! full once (`&NAME`) and referred to everywhere else (`*NAME`); the
//! writer puts the full copy under the parent closest to the root (the
//! first parent a breadth-first walk meets). Every line is then indented
//! by the node's distance from the root, which is never more than where
//! any file had to put it, so the text stays linear in the graph's size:
//! a chain of shared nodes that a file writes flat (each defined under
//! the root, each referring to the next) is written flat again, not
//! nested 100,000 levels deep.

use std::collections::{HashMap, HashSet, VecDeque};

use super::{NodeKind, Tree};

/// The subtree below `root` in the text format, with the header lines.
/// Nodes reached twice from `root` (shared nodes, and in a cyclic graph
/// the targets of back edges) are written once with `&NAME` and then as
/// `*NAME`. A chance node's child lines carry their `prob=`.
pub(super) fn write(tree: &Tree, root: u32) -> String {
    let nodes = &tree.nodes;
    // In-degrees inside the subgraph reachable from `root`; the root
    // counts one more, so that a back edge to it is written as a
    // reference.
    let mut indeg: HashMap<u32, usize> = HashMap::new();
    indeg.insert(root, 1);
    let mut seen = vec![false; nodes.len()];
    let mut todo = vec![root];
    seen[root as usize] = true;
    while let Some(n) = todo.pop() {
        for &c in &nodes[n as usize].children {
            *indeg.entry(c).or_insert(0) += 1;
            if !seen[c as usize] {
                seen[c as usize] = true;
                todo.push(c);
            }
        }
    }
    let used: HashSet<&str> = nodes
        .iter()
        .filter_map(|n| n.share_name.as_deref())
        .collect();
    let name_of = |i: u32| -> String {
        match &nodes[i as usize].share_name {
            Some(s) => s.clone(),
            None => {
                let mut k = 0;
                loop {
                    let cand = if k == 0 {
                        format!("n{i}")
                    } else {
                        format!("n{i}_{k}")
                    };
                    if !used.contains(cand.as_str()) {
                        return cand;
                    }
                    k += 1;
                }
            }
        }
    };

    // The parent (and child slot) under which each node is written in
    // full: the first edge a breadth-first walk from `root` takes to it.
    let mut home: HashMap<u32, (u32, usize)> = HashMap::new();
    let mut reached = vec![false; nodes.len()];
    reached[root as usize] = true;
    let mut queue = VecDeque::from([root]);
    while let Some(n) = queue.pop_front() {
        for (slot, &c) in nodes[n as usize].children.iter().enumerate() {
            if !reached[c as usize] {
                reached[c as usize] = true;
                home.insert(c, (n, slot));
                queue.push_back(c);
            }
        }
    }

    let mut out = String::new();
    if let Some(t) = &tree.title {
        out.push_str(&format!("tree \"{t}\"\n"));
    }
    if let Some(rule) = tree.loops {
        out.push_str(&format!("loops = {}\n", rule.name()));
    }
    // (node, depth, probability of the edge from a chance parent, whether
    // this line is the node's full copy)
    let mut stack: Vec<(u32, usize, Option<f64>, bool)> = vec![(root, 0, None, true)];
    while let Some((n, depth, prob, full)) = stack.pop() {
        let node = &nodes[n as usize];
        let shared = indeg.get(&n).copied().unwrap_or(0) >= 2;
        for _ in 0..depth {
            out.push_str("  ");
        }
        let prob_text = prob.map(|p| format!(" prob={p:?}")).unwrap_or_default();
        if !full {
            out.push('*');
            out.push_str(&name_of(n));
            out.push_str(&prob_text);
            out.push('\n');
            continue;
        }
        out.push_str(&node.label);
        match node.kind {
            NodeKind::Or => out.push_str(" or"),
            NodeKind::And => out.push_str(" and"),
            NodeKind::Chance => out.push_str(" chance"),
            NodeKind::Leaf(v) => {
                out.push_str(" = ");
                out.push_str(&v.text());
            }
        }
        out.push_str(&prob_text);
        if let Some(p) = node.win_rate {
            out.push_str(&format!(" p={p}"));
        }
        if let Some(e) = node.eval {
            out.push_str(&format!(" eval={e}"));
        }
        if let Some(e) = node.eval2 {
            out.push_str(&format!(" eval2={e}"));
        }
        if shared {
            out.push_str(" &");
            out.push_str(&name_of(n));
        }
        out.push('\n');
        // Uniform probabilities are the default: written without `prob=`.
        let uniform = 1.0 / node.children.len().max(1) as f64;
        let explicit = node.probs.iter().any(|&p| p != uniform);
        for (i, &c) in node.children.iter().enumerate().rev() {
            let prob = if explicit {
                node.probs.get(i).copied()
            } else {
                None
            };
            let full = home.get(&c) == Some(&(n, i));
            stack.push((c, depth + 1, prob, full));
        }
    }
    out
}
