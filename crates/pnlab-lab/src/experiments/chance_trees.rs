//! The random *-minimax trees of `chance-compare`: `depth` rounds of MAX,
//! chance, MIN, chance (the lecture's shape), `branching` children
//! everywhere, equally likely outcomes, integer leaves in [−10, 10], and
//! three ways to score the leaves, because how much Star1 and Star2 can
//! prune depends on them (Ballard 1983 measured on trees whose values
//! were not independent):
//!
//! - `uniform`: every leaf drawn uniformly from [−10, 10], independently
//!   (no move ordering helps, few cut-offs);
//! - `ordered`: the same leaves, with every MAX node's moves sorted best
//!   first and every MIN node's least first (by their expectimax values):
//!   the first move of a decision node is its best, so a Star2 probe of
//!   it returns the node's exact value;
//! - `correlated`: each edge adds a step drawn uniformly from [−3, 3] to
//!   its parent's score and a leaf's score is the sum along its path,
//!   clamped to [−10, 10]: siblings' subtrees have similar values, as in
//!   real games.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pnlab_core::choice_enum! {
    /// How the leaves of a random tree are scored (the `leaves` setting
    /// of `chance-compare`).
    pub enum LeafScores {
        /// Independent uniform scores.
        Uniform = "uniform",
        /// Uniform scores, moves sorted best first.
        Ordered = "ordered",
        /// Sums of random steps along the path.
        Correlated = "correlated",
    }
}

/// Largest step one edge adds to a `correlated` tree's score.
const STEP: i32 = 3;

/// A generated node: a leaf score, or an inner node of level `level % 4`
/// (0 MAX, 1 and 3 chance, 2 MIN) with its children.
enum Node {
    Leaf(i32),
    Inner(Vec<Node>),
}

/// The tree's nodes, depth first; leaves drawn in depth-first order (the
/// `uniform` trees are the ones `chance-compare` drew before the setting
/// existed, for the same seed).
fn grow(rng: &mut SmallRng, level: u32, levels: u32, b: u32, score: i32, how: LeafScores) -> Node {
    if level == levels {
        return Node::Leaf(match how {
            LeafScores::Correlated => score.clamp(-10, 10),
            _ => rng.random_range(-10..=10),
        });
    }
    let kids = (0..b)
        .map(|_| {
            let step = match how {
                LeafScores::Correlated => rng.random_range(-STEP..=STEP),
                _ => 0,
            };
            grow(rng, level + 1, levels, b, score + step, how)
        })
        .collect();
    Node::Inner(kids)
}

/// The node's expectimax value (chance children equally likely).
fn value(n: &Node, level: u32) -> f64 {
    match n {
        Node::Leaf(s) => f64::from(*s),
        Node::Inner(kids) => {
            let vals = kids.iter().map(|k| value(k, level + 1));
            match level % 4 {
                0 => vals.fold(f64::NEG_INFINITY, f64::max),
                2 => vals.fold(f64::INFINITY, f64::min),
                _ => vals.sum::<f64>() / kids.len() as f64,
            }
        }
    }
}

/// Sorts every decision node's moves best first for the side to move.
fn order(n: &mut Node, level: u32) {
    let Node::Inner(kids) = n else {
        return;
    };
    for k in kids.iter_mut() {
        order(k, level + 1);
    }
    if level.is_multiple_of(2) {
        let mut keyed: Vec<(f64, Node)> =
            kids.drain(..).map(|k| (value(&k, level + 1), k)).collect();
        // MAX (level 0) wants the highest first, MIN (level 2) the lowest.
        keyed.sort_by(|a, b| {
            let c = a.0.total_cmp(&b.0);
            if level.is_multiple_of(4) {
                c.reverse()
            } else {
                c
            }
        });
        kids.extend(keyed.into_iter().map(|(_, k)| k));
    }
}

/// Writes `n` in the tree format, children labelled by appending a letter.
fn write(n: &Node, level: u32, label: &str, out: &mut String) {
    out.push_str(&"  ".repeat(level as usize));
    out.push_str(label);
    match n {
        Node::Leaf(s) => out.push_str(&format!(" = {s}\n")),
        Node::Inner(kids) => {
            out.push_str(match level % 4 {
                0 => " or\n",
                2 => " and\n",
                _ => " chance\n",
            });
            for (i, k) in kids.iter().enumerate() {
                let child = format!("{label}{}", (b'a' + i as u8) as char);
                write(k, level + 1, &child, out);
            }
        }
    }
}

/// A random *-minimax tree in the tree format: `depth` rounds of MAX,
/// chance, MIN, chance, `branching` children everywhere, leaves in
/// [−10, 10] scored as `how` says.
pub fn random_tree_text(seed: u64, depth: u32, branching: u32, how: LeafScores) -> String {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut root = grow(&mut rng, 0, 4 * depth, branching, 0, how);
    if how == LeafScores::Ordered {
        order(&mut root, 0);
    }
    let mut out = format!("tree \"random chance tree d={depth} b={branching}\"\n");
    write(&root, 0, "r", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The leaf scores of a tree text, in file order.
    fn leaves(text: &str) -> Vec<i32> {
        text.lines()
            .filter_map(|l| l.split(" = ").nth(1))
            .map(|v| v.parse().unwrap())
            .collect()
    }

    #[test]
    fn ordering_permutes_moves_but_keeps_the_leaves() {
        let plain = random_tree_text(7, 1, 3, LeafScores::Uniform);
        let sorted = random_tree_text(7, 1, 3, LeafScores::Ordered);
        let (mut a, mut b) = (leaves(&plain), leaves(&sorted));
        assert_eq!(a.len(), 81);
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    /// In an ordered depth-1 tree the root's first outcome's MIN node lists
    /// its least move first: that move's chance node has the least mean.
    #[test]
    fn an_ordered_min_node_lists_its_least_move_first() {
        let text = random_tree_text(11, 1, 3, LeafScores::Ordered);
        let l = leaves(&text);
        // Leaves of MIN node `raa`: its three moves' chance nodes take
        // three leaves each, in order.
        let means: Vec<i32> = l[..9].chunks(3).map(|c| c.iter().sum()).collect();
        assert!(means[0] <= means[1] && means[0] <= means[2], "{means:?}");
    }

    #[test]
    fn correlated_siblings_differ_by_at_most_two_steps() {
        let text = random_tree_text(3, 1, 2, LeafScores::Correlated);
        let l = leaves(&text);
        // Two leaves under the same chance node share all but one edge.
        for pair in l.chunks(2) {
            assert!((pair[0] - pair[1]).abs() <= 2 * STEP, "{pair:?}");
        }
    }
}
