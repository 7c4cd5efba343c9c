//! The checks of the tree text format that need the whole file: every
//! internal node has children, references name defined nodes, siblings
//! have distinct labels, a chance node's `prob=` hints are all there or
//! all absent and sum to 1, real scores appear only with chance nodes,
//! and the graph is acyclic unless a `loops = …` header gives a loop rule.

use std::collections::HashMap;

use super::format::{EdgePositions, EdgeProbs, Reference};
use super::{LoopRule, NodeKind, ParseError, Tree, TreeNode};

/// How far the probabilities of a chance node may sum from 1.
pub const PROB_TOLERANCE: f64 = 1e-9;

/// What the line reader collected.
pub(super) struct Parsed {
    pub title: Option<String>,
    /// The loop rule and the line of its header.
    pub loops: Option<(LoopRule, usize)>,
    pub nodes: Vec<TreeNode>,
    pub edges: EdgePositions,
    pub probs: EdgeProbs,
    pub refs: Vec<Reference>,
    /// `&NAME` → (node, line).
    pub anchors: HashMap<String, (u32, usize)>,
}

/// Resolves the references and checks the graph; the finished tree.
pub(super) fn finish(text: &str, parsed: Parsed) -> Result<Tree, ParseError> {
    let Parsed {
        title,
        loops,
        mut nodes,
        edges,
        probs,
        refs,
        anchors,
    } = parsed;
    // Internal nodes need children.
    for n in &nodes {
        if !matches!(n.kind, NodeKind::Leaf(_)) && n.children.is_empty() {
            return Err(ParseError::new(
                n.line,
                label_col(text, n.line),
                format!("`{}` is an internal node without children: indent its children below it, or make it a leaf (`{} = win`)", n.label, n.label),
            ));
        }
    }

    // Resolve the references.
    for r in &refs {
        match anchors.get(&r.name) {
            Some(&(target, _)) => nodes[r.parent as usize].children[r.slot] = target,
            None => {
                let mut known: Vec<&str> = anchors.keys().map(|s| s.as_str()).collect();
                known.sort_unstable();
                let hint = if known.is_empty() {
                    "no shared node is defined with `&NAME` in this tree".to_string()
                } else {
                    format!("defined: {}", known.join(", "))
                };
                return Err(ParseError::new(
                    r.line,
                    r.col,
                    format!("undefined shared node `*{}` ({hint})", r.name),
                ));
            }
        }
    }

    // Siblings must have distinct labels (a move is a label).
    for (p, n) in nodes.iter().enumerate() {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (slot, &c) in n.children.iter().enumerate() {
            let l = nodes[c as usize].label.as_str();
            if let Some(&first) = seen.get(l) {
                let (line, col) = edges[p][slot];
                return Err(ParseError::new(
                    line,
                    col,
                    format!("duplicate child label `{l}` under `{}` (also on line {}): siblings need distinct labels", n.label, edges[p][first].0),
                ));
            }
            seen.insert(l, slot);
        }
    }

    check_probabilities(text, &mut nodes, &edges, &probs)?;
    check_real_scores(text, &nodes)?;
    match loops {
        None => check_acyclic(&nodes, &edges)?,
        Some((_, line)) => {
            if let Some(n) = nodes.iter().find(|n| n.kind == NodeKind::Chance) {
                return Err(ParseError::new(
                    n.line,
                    label_col(text, n.line),
                    format!("`{}` is a chance node, but this graph has a loop rule (line {line}): cyclic graphs with loop rules cannot have chance nodes (who would have closed a loop through a die roll?)", n.label),
                ));
            }
        }
    }
    Ok(Tree {
        title,
        loops: loops.map(|(r, _)| r),
        nodes,
    })
}

/// A chance node's children carry `prob=` all or none (none: uniform) and
/// the given ones sum to 1; `prob=` elsewhere is an error. Fills
/// [`TreeNode::probs`].
fn check_probabilities(
    text: &str,
    nodes: &mut [TreeNode],
    edges: &EdgePositions,
    probs: &EdgeProbs,
) -> Result<(), ParseError> {
    for (p, n) in nodes.iter_mut().enumerate() {
        let given: Vec<(f64, usize, usize)> = probs[p].iter().flatten().copied().collect();
        if n.kind != NodeKind::Chance {
            if let Some(&(_, line, col)) = given.first() {
                return Err(ParseError::new(
                    line,
                    col,
                    format!("`prob=` on a child of `{}`, which is not a chance node: only the child lines of a `chance` node carry probabilities", n.label),
                ));
            }
            continue;
        }
        let count = n.children.len();
        if given.is_empty() {
            n.probs = vec![1.0 / count as f64; count];
            continue;
        }
        if given.len() < count {
            let slot = probs[p].iter().position(Option::is_none).unwrap_or(0);
            let (line, col) = edges[p][slot];
            return Err(ParseError::new(
                line,
                col,
                format!("this child of the chance node `{}` has no `prob=`, but its siblings have: give every child a probability, or none (uniform)", n.label),
            ));
        }
        let sum: f64 = given.iter().map(|g| g.0).sum();
        if (sum - 1.0).abs() > PROB_TOLERANCE {
            let list: Vec<String> = given.iter().map(|g| g.0.to_string()).collect();
            return Err(ParseError::new(
                n.line,
                label_col(text, n.line),
                format!(
                    "the probabilities of the chance node `{}` sum to {sum} ({}), expected 1",
                    n.label,
                    list.join(" + ")
                ),
            ));
        }
        n.probs = given.iter().map(|g| g.0).collect();
    }
    Ok(())
}

/// Real leaf scores only in a tree with chance nodes (the proof searches,
/// which refuse chance nodes, read integer scores).
fn check_real_scores(text: &str, nodes: &[TreeNode]) -> Result<(), ParseError> {
    if nodes.iter().any(|n| n.kind == NodeKind::Chance) {
        return Ok(());
    }
    match nodes.iter().find(|n| matches!(n.kind, NodeKind::Leaf(super::LeafValue::Real(_)))) {
        None => Ok(()),
        Some(n) => Err(ParseError::new(
            n.line,
            label_col(text, n.line),
            format!("`{}` has a real score, which only a tree with chance nodes may have: write an integer, win, loss or draw", n.label),
        )),
    }
}

/// Column of the first non-blank character of line `ln` (1-based).
pub(super) fn label_col(text: &str, ln: usize) -> usize {
    text.lines()
        .nth(ln - 1)
        .map(|l| l.chars().take_while(|c| c.is_whitespace()).count() + 1)
        .unwrap_or(1)
}

/// Rejects a cycle, reporting the `*NAME` line that closes it.
fn check_acyclic(nodes: &[TreeNode], edges: &EdgePositions) -> Result<(), ParseError> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut mark = vec![Mark::New; nodes.len()];
    // (node, next child slot)
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    mark[0] = Mark::Open;
    while let Some(top) = stack.last_mut() {
        let (n, slot) = *top;
        let children = &nodes[n as usize].children;
        if slot == children.len() {
            mark[n as usize] = Mark::Done;
            stack.pop();
            continue;
        }
        top.1 += 1;
        let c = children[slot];
        match mark[c as usize] {
            Mark::New => {
                mark[c as usize] = Mark::Open;
                stack.push((c, 0));
            }
            Mark::Done => {}
            Mark::Open => {
                let from = stack.iter().position(|&(x, _)| x == c).unwrap_or(0);
                let mut path: Vec<&str> = stack[from..]
                    .iter()
                    .map(|&(x, _)| nodes[x as usize].label.as_str())
                    .collect();
                path.push(nodes[c as usize].label.as_str());
                let (line, col) = edges[n as usize][slot];
                return Err(ParseError::new(
                    line,
                    col,
                    format!(
                        "cycle: {} (the games here are acyclic, so a shared node cannot be reached from itself)",
                        path.join(" → ")
                    ),
                ));
            }
        }
    }
    Ok(())
}
