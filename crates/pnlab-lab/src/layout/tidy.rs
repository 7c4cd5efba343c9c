//! The layered tidy layout: one row per depth, leaves side by side in move
//! order, a parent centred over its first and last child.

use pnlab_core::search::snapshot::SnapNode;

use super::{children_of, Point};

/// Tidy layout of one snapshot, in layout units.
#[derive(Clone, Debug, Default)]
pub struct Tidy {
    /// Position of each snapshot node (same index as `Snapshot::nodes`).
    pub pos: Vec<Point>,
    /// Children of each node, in move order.
    pub children: Vec<Vec<usize>>,
    /// Leaf slots used (at least 1).
    pub width: f32,
    /// Deepest level used.
    pub depth: f32,
}

impl Tidy {
    /// Leaves take consecutive slots in move order; a parent sits over the
    /// middle of its first and last child (explicit stack, no recursion,
    /// so a 10,000-deep chain lays out like a bushy tree).
    pub fn of(nodes: &[SnapNode]) -> Tidy {
        let n = nodes.len();
        let children = children_of(nodes);
        let min_depth = nodes.iter().map(|x| x.depth).min().unwrap_or(0);
        let mut pos = vec![Point::default(); n];
        let mut next_leaf = 0.0f32;
        // Post-order over every root (nodes without a parent in the list).
        let mut stack: Vec<(usize, bool)> = Vec::new();
        for r in (0..n).filter(|&i| nodes[i].parent.is_none()).rev() {
            stack.push((r, false));
        }
        while let Some((i, done)) = stack.pop() {
            if done || children[i].is_empty() {
                let x = if children[i].is_empty() {
                    let x = next_leaf;
                    next_leaf += 1.0;
                    x
                } else {
                    let first = pos[children[i][0]].x;
                    let last = pos[children[i][children[i].len() - 1]].x;
                    (first + last) / 2.0
                };
                pos[i] = Point::new(x, (nodes[i].depth - min_depth) as f32);
            } else {
                stack.push((i, true));
                for &c in children[i].iter().rev() {
                    stack.push((c, false));
                }
            }
        }
        let depth = pos.iter().map(|p| p.y).fold(0.0, f32::max);
        Tidy {
            pos,
            children,
            width: next_leaf.max(1.0),
            depth,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pnlab_core::search::test_nodes::node;

    #[test]
    fn parents_sit_over_their_children_and_leaves_do_not_overlap() {
        // root(0) -> a(1), b(2); a -> c(3), d(4)
        let nodes = vec![
            node(0, None, 0, 0),
            node(1, Some(0), 0, 1),
            node(2, Some(0), 1, 1),
            node(3, Some(1), 0, 2),
            node(4, Some(1), 1, 2),
        ];
        let l = Tidy::of(&nodes);
        assert_eq!(l.pos[3], Point::new(0.0, 2.0));
        assert_eq!(l.pos[4], Point::new(1.0, 2.0));
        assert_eq!(l.pos[1], Point::new(0.5, 1.0));
        assert_eq!(l.pos[2], Point::new(2.0, 1.0));
        assert_eq!(l.pos[0], Point::new(1.25, 0.0));
        assert_eq!(l.width, 3.0);
        assert_eq!(l.depth, 2.0);
    }

    #[test]
    fn children_are_ordered_by_move_not_by_list_order() {
        let nodes = vec![
            node(0, None, 0, 0),
            node(7, Some(0), 1, 1),
            node(5, Some(0), 0, 1),
        ];
        let l = Tidy::of(&nodes);
        assert!(l.pos[2].x < l.pos[1].x);
    }
}
