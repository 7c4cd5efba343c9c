//! A test's own model of a cyclic game graph with a loop rule (the tree
//! format's `loops = …`), written apart from `game::tree`: its evaluator
//! follows every path separately, so it is a reference for the searches
//! and certificate checks that share results between paths.

use rand::rngs::SmallRng;
use rand::Rng;

use pnlab::game::tree::{LoopRule, NodeKind, TreeGame};

/// The loop rules in the tree format's words, in the order of
/// `LoopRule`'s variants.
pub const LOOP_RULES: [&str; 3] = ["draw", "looper-loses", "looper-wins"];

/// What a node of the graph is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GraphNode {
    Or,
    And,
    /// A finished game: its score (OR player's view, −1/0/+1).
    Leaf(i32),
}

/// A cyclic graph: per node its label (the move into it), its kind and
/// its children; node 0 is the root.
#[derive(Clone, Debug)]
pub struct CyclicGraph {
    pub labels: Vec<String>,
    pub kinds: Vec<GraphNode>,
    pub children: Vec<Vec<usize>>,
    /// One of [`LOOP_RULES`].
    pub rule: &'static str,
}

impl CyclicGraph {
    /// The test's copy of a parsed tree file that has a loop rule.
    pub fn of_tree(g: &TreeGame) -> CyclicGraph {
        let t = g.tree();
        CyclicGraph {
            labels: t.nodes.iter().map(|n| n.label.clone()).collect(),
            kinds: t
                .nodes
                .iter()
                .map(|n| match n.kind {
                    NodeKind::Or => GraphNode::Or,
                    NodeKind::And => GraphNode::And,
                    NodeKind::Leaf(v) => GraphNode::Leaf(v.score()),
                    NodeKind::Chance => unreachable!("no chance nodes here"),
                })
                .collect(),
            children: t
                .nodes
                .iter()
                .map(|n| n.children.iter().map(|&c| c as usize).collect())
                .collect(),
            rule: match t.loops.expect("a cyclic graph") {
                LoopRule::Draw => LOOP_RULES[0],
                LoopRule::LooperLoses => LOOP_RULES[1],
                LoopRule::LooperWins => LOOP_RULES[2],
            },
        }
    }

    /// A random graph of `n` nodes labelled `n0`, `n1`, …: node `i` is a
    /// leaf when `is_leaf` says so (its score drawn from −1..=1), else an
    /// OR or an AND node (even odds) with the children `children` draws.
    /// Each test keeps its own distributions in the two closures.
    pub fn random(
        rng: &mut SmallRng,
        n: usize,
        rule: &'static str,
        mut is_leaf: impl FnMut(&mut SmallRng, usize) -> bool,
        mut children: impl FnMut(&mut SmallRng, usize) -> Vec<usize>,
    ) -> CyclicGraph {
        let mut kinds = Vec::with_capacity(n);
        let mut edges = Vec::with_capacity(n);
        for i in 0..n {
            if is_leaf(rng, i) {
                kinds.push(GraphNode::Leaf(rng.random_range(-1..=1)));
                edges.push(Vec::new());
                continue;
            }
            kinds.push(if rng.random_bool(0.5) {
                GraphNode::Or
            } else {
                GraphNode::And
            });
            edges.push(children(rng, i));
        }
        CyclicGraph {
            labels: (0..n).map(|i| format!("n{i}")).collect(),
            kinds,
            children: edges,
            rule,
        }
    }

    /// The score (OR player's view) when the mover at `from` moves back
    /// into its own path.
    pub fn loop_score(&self, from: usize) -> i32 {
        let looper = if self.kinds[from] == GraphNode::Or {
            1
        } else {
            -1
        };
        match self.rule {
            "draw" => 0,
            "looper-loses" => -looper,
            _ => looper,
        }
    }

    /// The exact value of the root: every path followed, a move into a
    /// node already on the path ending the game by the loop rule.
    pub fn root_value(&self) -> i32 {
        self.value(0, &mut vec![0])
    }

    /// The exact value of `n` reached along `path` (which ends with `n`):
    /// every path followed, no memory between paths.
    pub fn value(&self, n: usize, path: &mut Vec<usize>) -> i32 {
        let or = match self.kinds[n] {
            GraphNode::Leaf(v) => return v,
            GraphNode::Or => true,
            GraphNode::And => false,
        };
        let mut best = if or { i32::MIN } else { i32::MAX };
        for &c in &self.children[n] {
            let v = if path.contains(&c) {
                self.loop_score(n)
            } else {
                path.push(c);
                let v = self.value(c, path);
                path.pop();
                v
            };
            best = if or { best.max(v) } else { best.min(v) };
        }
        best
    }

    /// The graph in the tree format: each node is defined (`&nI`) where a
    /// depth-first walk from node 0 meets it first, referenced (`*nI`)
    /// everywhere else.
    pub fn text(&self) -> String {
        let mut out = format!("loops = {}\n", self.rule);
        let mut defined = vec![false; self.kinds.len()];
        self.write(0, 0, &mut defined, &mut out);
        out
    }

    fn write(&self, n: usize, depth: usize, defined: &mut [bool], out: &mut String) {
        let pad = " ".repeat(2 * depth);
        if defined[n] {
            out.push_str(&format!("{pad}*n{n}\n"));
            return;
        }
        defined[n] = true;
        let kind = match self.kinds[n] {
            GraphNode::Or => "or".to_string(),
            GraphNode::And => "and".to_string(),
            GraphNode::Leaf(v) => format!("= {v}"),
        };
        out.push_str(&format!("{pad}{} {kind} &n{n}\n", self.labels[n]));
        for &c in &self.children[n] {
            self.write(c, depth + 1, defined, out);
        }
    }
}
