//! Float robustness of PPN-search (docs/algorithms.md §5.1): hand-made trees
//! built on the arena directly, where the plain-float products underflow to
//! 0 or round to 1, must still give the exact order between siblings (so
//! the right child is selected) and never a solved status the flags do not
//! say. Expected values are computed here in closed form (sums of logs).

use pnlab::search::arena::flag_status;
use pnlab::search::arena::{Arena, Idx, OR, PROVEN, SOLVED};
use pnlab::search::logprob::LogProb;
use pnlab::search::ppn::{select_child, update_node};
use pnlab::search::snapshot::NodeStatus;

type Tree = Arena<u8, LogProb>;

/// Below `parent`, a chain of `depth` nodes of kind `chain_or`; each chain
/// node has two children: the next chain node and a frontier leaf of
/// probability `side`; the last chain node has two frontier leaves of 0.5.
/// Returns the top chain node. Values are filled bottom-up with
/// `update_node`, exactly as the search does after an expansion.
fn chain(t: &mut Tree, slot: Idx, depth: usize, chain_or: bool, side: f64) -> Idx {
    let kind = if chain_or { OR } else { 0 };
    let mut nodes = vec![slot];
    let mut n = slot;
    for level in 0..depth {
        let first = t.len() as Idx;
        if level + 1 == depth {
            let half = LogProb::from_prob(0.5);
            t.expand(n, [(0u8, 0u8, half), (1u8, 0u8, half)]);
        } else {
            let unknown = LogProb::from_prob(0.5);
            t.expand(
                n,
                [(0u8, kind, unknown), (1u8, 0u8, LogProb::from_prob(side))],
            );
            n = first;
            nodes.push(n);
        }
    }
    for &c in nodes.iter().rev() {
        update_node(t, c);
    }
    slot
}

#[test]
fn thirty_deep_and_chains_keep_their_order_below_f64_range() {
    // OR root, children [Y (31 deep), X (30 deep)], AND chains with side
    // leaves 1e-12: ppn(X) ≈ 0.25·1e-348, ppn(Y) ≈ 0.25·1e-360.
    let half = LogProb::from_prob(0.5);
    let mut t = Tree::new(0, OR, half);
    t.expand(0, [(0u8, 0u8, half), (1u8, 0u8, half)]);
    let y = chain(&mut t, 1, 31, false, 1e-12);
    let x = chain(&mut t, 2, 30, false, 1e-12);
    update_node(&mut t, 0);
    // The naive product underflows: both would read 0 and tie.
    let naive_x: f64 = (0..29).map(|_| 1e-12).product::<f64>() * 0.25;
    assert_eq!(naive_x, 0.0);
    let want_x = 29.0 * 1e-12f64.ln() + 0.25f64.ln();
    let got_x = t.get(x).data.lp;
    assert!(
        (got_x - want_x).abs() < 1e-9 * want_x.abs(),
        "{got_x} vs {want_x}"
    );
    assert!(t.get(y).data.lp < got_x - 20.0);
    // Selection: OR takes the larger, X, although Y is leftmost.
    assert_eq!(select_child(&t, 0), x);
    // Nothing is solved: the flags say so whatever the floats read.
    for i in 0..t.len() as Idx {
        assert_eq!(flag_status(t.get(i).flags), NodeStatus::Unknown);
    }
    // The root is, to first order, X's probability plus Y's.
    assert!((t.get(0).data.lp - got_x).abs() < 1e-9 * got_x.abs());
}

#[test]
fn thirty_deep_or_chains_keep_their_order_next_to_one() {
    // AND root, children [Y (31 deep), X (30 deep)], OR chains with side
    // leaves 1 − 1e-12: 1 − ppn is below 1e-340, the plain float reads 1.
    let half = LogProb::from_prob(0.5);
    let mut t = Tree::new(0, 0, half);
    t.expand(0, [(0u8, OR, half), (1u8, OR, half)]);
    let y = chain(&mut t, 1, 31, true, 1.0 - 1e-12);
    let x = chain(&mut t, 2, 30, true, 1.0 - 1e-12);
    update_node(&mut t, 0);
    assert_eq!(t.get(x).data.prob(), 1.0);
    assert_eq!(t.get(y).data.prob(), 1.0);
    // ln(1 − ppn(X)) = 29·ln(1e-12 − ~0) + ln(0.25), to 1e-9 relative.
    let want = 29.0 * (1e-12f64).ln() + 0.25f64.ln();
    let got = t.get(x).data.lq;
    assert!((got - want).abs() < 1e-6 * want.abs(), "{got} vs {want}");
    // AND takes the smaller ppn: X (further from 1) although Y is leftmost.
    assert_eq!(select_child(&t, 0), x);
    assert_eq!(flag_status(t.get(0).flags), NodeStatus::Unknown);
}

/// OR root over two AND nodes with 100 frontier children each.
fn wide(root_or: bool, p: f64, odd: f64) -> (Tree, Idx, Idx) {
    let half = LogProb::from_prob(0.5);
    let (root_kind, kid_kind) = if root_or { (OR, 0) } else { (0, OR) };
    let mut t = Tree::new(0, root_kind, half);
    t.expand(0, [(0u8, kid_kind, half), (1u8, kid_kind, half)]);
    let leaf_kind = if root_or { OR } else { 0 };
    t.expand(1, (0..100u8).map(|i| (i, leaf_kind, LogProb::from_prob(p))));
    t.expand(
        2,
        (0..100u8).map(|i| {
            let v = if i == 57 { odd } else { p };
            (i, leaf_kind, LogProb::from_prob(v))
        }),
    );
    update_node(&mut t, 1);
    update_node(&mut t, 2);
    update_node(&mut t, 0);
    (t, 1, 2)
}

#[test]
fn hundred_wide_and_nodes_underflow_safely() {
    // X = 1e-400, Y = 2e-400: the plain products are both 0.
    let (mut t, x, y) = wide(true, 1e-4, 2e-4);
    assert_eq!(t.get(x).data.prob(), 0.0);
    assert!((t.get(y).data.lp - t.get(x).data.lp - 2f64.ln()).abs() < 1e-9);
    assert_eq!(select_child(&t, 0), y, "OR must take the larger, Y");
    assert_eq!(flag_status(t.get(0).flags), NodeStatus::Unknown);
    // Inside Y the AND node picks its smallest child (any of the 1e-4
    // ones: the leftmost), never the odd 2e-4 one.
    assert_eq!(select_child(&t, y), t.get(y).first_child);
    // Solve every child of X: X and the root become proven by the flags.
    for c in t.get(x).children() {
        let n = t.get_mut(c);
        n.flags |= SOLVED | PROVEN;
        n.data = LogProb::ONE;
    }
    update_node(&mut t, x);
    update_node(&mut t, 0);
    assert_eq!(flag_status(t.get(x).flags), NodeStatus::Proven);
    assert_eq!(flag_status(t.get(0).flags), NodeStatus::Proven);
    assert_eq!(t.get(0).data, LogProb::ONE);
}

#[test]
fn hundred_wide_or_nodes_do_not_round_to_proven() {
    // X = 1 − 1e-400, Y = 1 − 2e-400 under an AND root: plain floats read 1.
    let (mut t, x, y) = wide(false, 1.0 - 1e-4, 1.0 - 2e-4);
    assert_eq!(t.get(x).data.prob(), 1.0);
    assert_eq!(t.get(y).data.prob(), 1.0);
    assert_eq!(select_child(&t, 0), y, "AND must take the smaller, Y");
    assert_eq!(flag_status(t.get(0).flags), NodeStatus::Unknown);
    assert_eq!(flag_status(t.get(x).flags), NodeStatus::Unknown);
    // One disproven child does not disprove an OR node; all of them do.
    let first = t.get(x).first_child;
    t.get_mut(first).flags |= SOLVED;
    t.get_mut(first).data = LogProb::ZERO;
    update_node(&mut t, x);
    assert_eq!(flag_status(t.get(x).flags), NodeStatus::Unknown);
    for c in t.get(x).children() {
        t.get_mut(c).flags |= SOLVED;
        t.get_mut(c).data = LogProb::ZERO;
    }
    update_node(&mut t, x);
    update_node(&mut t, 0);
    assert_eq!(flag_status(t.get(x).flags), NodeStatus::Disproven);
    assert_eq!(flag_status(t.get(0).flags), NodeStatus::Disproven);
}
