//! The loop of MID at one node (Nagai 2002, docs/algorithms.md §4), written
//! once for every df-pn: `dfpn`, `dfpn-ghi`, `dfpn-eps` and `deep-dfpn`
//! ([`super::mid`]) and `dfpn-fast` with its parallel threads
//! ([`super::fast::worker`]).
//!
//! Both run MID as an explicit-stack state machine, so "the loop" is one
//! pass each time control comes back to a node: read the children's
//! numbers, compute φ and δ, and either return (the numbers reached the
//! node's thresholds) or enter the child c1 with least δ under the
//! thresholds thφ(c1) = thδ(n) + φ(c1) − δ(n) and thδ(c1) = min(thφ(n),
//! δ2 + 1) (or ⌈δ2(1+ε)⌉). What differs between the searches is how a
//! child's numbers are read (a frame's copy, the table, a helper thread's
//! virtual numbers) and what entering a child means; the caller passes the
//! first as a closure and does the second itself, so each search gets its
//! own monomorphised copy of the pass with nothing added to its hot path.
//!
//! Numbers are in the node's frame: "a" is the child number the node
//! minimises (pn at an OR node, dn at an AND node), "b" the one it sums.

use crate::search::pn::{self, Pn, INF};

/// A child's numbers as one pass reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildRead {
    /// The child's proof number.
    pub pn: Pn,
    /// The child's disproof number.
    pub dn: Pn,
    /// What the node adds to the child's a when choosing c1 only (a
    /// parallel helper's virtual numbers; 0 in a sequential search). It
    /// never enters φ, δ or the thresholds' sums.
    pub extra: Pn,
}

impl ChildRead {
    /// A child read with its own numbers only.
    #[inline]
    pub fn plain(pn: Pn, dn: Pn) -> ChildRead {
        ChildRead { pn, dn, extra: 0 }
    }
}

/// The numbers of the loop at one node: φ, δ, c1, δ2 (docs/algorithms.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopValues {
    /// φ: the node's pn at an OR node, its dn at an AND node.
    pub phi: Pn,
    /// δ: the other number (dn at an OR node, pn at an AND node).
    pub delta: Pn,
    /// Index of c1: the child with least a (plus its extra) among those
    /// whose a is under the limit, leftmost on ties; `None` when there is
    /// no such child.
    pub best: Option<u32>,
    /// δ2: the second least a (plus extra) among those children (INF with
    /// fewer than two).
    pub delta2: Pn,
    /// c1's summed number b (its φ with alternating moves).
    pub best_b: Pn,
}

/// Reads `count` children through `read` and computes φ, δ, c1 and δ2 at
/// a node where the attacker moves iff `or`. Only children whose a is below
/// `limit` may be c1 or count in δ2 (MID passes thφ(n): a child at or over
/// it cannot be entered, and δ2 at or over it gives thδ(c1) = thφ(n)
/// anyway; a full view passes INF). With `stop_when_solved`, the scan stops
/// at a child with a = 0, which solves the node whatever the rest hold
/// (φ = 0, δ = ∞; c1 and δ2 are then those of the children read so far).
#[inline(always)]
pub fn select(
    or: bool,
    limit: Pn,
    count: usize,
    stop_when_solved: bool,
    mut read: impl FnMut(usize) -> ChildRead,
) -> LoopValues {
    let mut phi = INF;
    let mut delta: Pn = 0;
    let mut best = u32::MAX;
    let mut best_va = INF;
    let mut best_b = 0;
    let mut delta2 = INF;
    for i in 0..count {
        let c = read(i);
        let (a, b) = if or { (c.pn, c.dn) } else { (c.dn, c.pn) };
        if a == 0 && stop_when_solved {
            phi = 0;
            delta = INF;
            break;
        }
        delta = pn::add(delta, b);
        phi = phi.min(a);
        // A child at or over the limit reads as INF, which is never less.
        let va = if a < limit { pn::add(a, c.extra) } else { INF };
        // Selects instead of branches (the order of the numbers is data
        // the predictor cannot learn).
        let less = va < best_va;
        delta2 = if less { best_va } else { delta2.min(va) };
        best = if less { i as u32 } else { best };
        best_b = if less { b } else { best_b };
        best_va = if less { va } else { best_va };
    }
    LoopValues {
        phi,
        delta,
        best: (best != u32::MAX).then_some(best),
        delta2,
        best_b,
    }
}

/// The thresholds (th_pn, th_dn) MID gives c1 at a node with thresholds
/// (`th_pn`, `th_dn`), where the attacker moves iff `or`:
/// thφ(c1) = thδ(n) + b(c1) − δ(n) and thδ(c1) = min(thφ(n),
/// `second(δ2)`), `second` being δ2 + 1 or the 1+ε form.
#[inline(always)]
pub fn child_thresholds(
    or: bool,
    (th_pn, th_dn): (Pn, Pn),
    v: &LoopValues,
    second: impl Fn(Pn) -> Pn,
) -> (Pn, Pn) {
    let (th_phi, th_delta) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
    let th_a = th_phi.min(second(v.delta2));
    let th_b = pn::add_sub(th_delta, v.best_b, v.delta);
    if or {
        (th_a, th_b)
    } else {
        (th_b, th_a)
    }
}

/// What one pass of the loop decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    /// The node's proof number from its children.
    pub pn: Pn,
    /// The node's disproof number from its children.
    pub dn: Pn,
    /// The child to enter and its thresholds (th_pn, th_dn); `None` when
    /// the numbers reached the node's thresholds and MID returns them.
    pub descend: Option<(u32, (Pn, Pn))>,
}

/// One pass of MID's loop at a node with thresholds `th` = (th_pn, th_dn)
/// and `count` children read through `read`; `second` turns δ2 into
/// thδ(c1)'s second term (δ2 + 1, or ⌈δ2(1+ε)⌉).
#[inline(always)]
pub fn pass(
    or: bool,
    th: (Pn, Pn),
    count: usize,
    read: impl FnMut(usize) -> ChildRead,
    second: impl Fn(Pn) -> Pn,
) -> Pass {
    let th_phi = if or { th.0 } else { th.1 };
    let v = select(or, th_phi, count, true, read);
    let (pn, dn) = if or {
        (v.phi, v.delta)
    } else {
        (v.delta, v.phi)
    };
    let descend = match v.best {
        Some(best) if pn < th.0 && dn < th.1 => Some((best, child_thresholds(or, th, &v, second))),
        _ => None,
    };
    Pass { pn, dn, descend }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(nums: &[(Pn, Pn)]) -> impl FnMut(usize) -> ChildRead + '_ {
        move |i| ChildRead::plain(nums[i].0, nums[i].1)
    }

    /// Nagai's loop by hand on an OR node with children (pn, dn) =
    /// (3, 1), (2, 4), (5, 2): φ = min pn = 2, δ = Σ dn = 7, c1 = child 1,
    /// δ2 = 3; with thresholds (10, 20): thφ(c1) = thδ(n) + φ(c1) − δ(n) =
    /// 20 + 4 − 7 = 17 on c1's dn, thδ(c1) = min(10, 3 + 1) = 4 on its pn.
    #[test]
    fn a_pass_enters_the_least_child_with_nagais_thresholds() {
        let nums = [(3, 1), (2, 4), (5, 2)];
        let p = pass(true, (10, 20), 3, reader(&nums), |d| pn::add(d, 1));
        assert_eq!((p.pn, p.dn), (2, 7));
        assert_eq!(p.descend, Some((1, (4, 17))));
        // The same children at an AND node: φ = min dn = 1 (child 0),
        // δ = Σ pn = 10, δ2 = 2; thresholds (pn 30, dn 5): c1's pn gets
        // thδ(n) + pn(c1) − δ(n) = 30 + 3 − 10 = 23, its dn min(5, 3) = 3.
        let p = pass(false, (30, 5), 3, reader(&nums), |d| pn::add(d, 1));
        assert_eq!((p.pn, p.dn), (10, 1));
        assert_eq!(p.descend, Some((0, (23, 3))));
    }

    #[test]
    fn a_pass_returns_at_the_thresholds_and_at_a_solving_child() {
        let nums = [(3, 1), (2, 4)];
        // φ = 2 reaches thφ = 2.
        let p = pass(true, (2, 20), 2, reader(&nums), |d| pn::add(d, 1));
        assert_eq!((p.pn, p.dn, p.descend), (2, 5, None));
        // δ = 5 reaches thδ = 5.
        let p = pass(true, (9, 5), 2, reader(&nums), |d| pn::add(d, 1));
        assert_eq!((p.pn, p.dn, p.descend), (2, 5, None));
        // A proved child proves an OR node: the children after it are not
        // read.
        let nums = [(4, 1), (0, INF), (7, 7)];
        let mut read = 0;
        let p = pass(
            true,
            (INF, INF),
            3,
            |i| {
                read += 1;
                ChildRead::plain(nums[i].0, nums[i].1)
            },
            |d| pn::add(d, 1),
        );
        assert_eq!((p.pn, p.dn, p.descend, read), (0, INF, None, 2));
    }

    #[test]
    fn the_extra_steers_the_choice_but_not_the_numbers() {
        // Child 0 has the least pn, but its extra makes child 1 the
        // choice; δ2 is child 0's pn plus its extra, φ and δ are the
        // children's own.
        let nums = [(2, 1), (3, 1)];
        let p = pass(
            true,
            (50, 50),
            2,
            |i| ChildRead {
                pn: nums[i].0,
                dn: nums[i].1,
                extra: if i == 0 { 5 } else { 0 },
            },
            |d| pn::add(d, 1),
        );
        assert_eq!((p.pn, p.dn), (2, 2));
        // thδ(c1) = min(50, 7 + 1); thφ(c1) = 50 + 1 − 2.
        assert_eq!(p.descend, Some((1, (8, 49))));
    }

    #[test]
    fn children_at_the_limit_are_neither_chosen_nor_second() {
        // pn limit 4: only child 1 (pn 3) is under it; the full view
        // (limit INF) sees child 1 first and child 2 second.
        let nums = [(6, 1), (3, 1), (4, 1)];
        let v = select(true, 4, 3, true, reader(&nums));
        assert_eq!((v.best, v.delta2, v.phi, v.delta), (Some(1), INF, 3, 3));
        let v = select(true, INF, 3, false, reader(&nums));
        assert_eq!((v.best, v.delta2), (Some(1), 4));
        // thδ(c1) is thφ(n) = 4 either way.
        let second = |d| pn::add(d, 1);
        let th = |v: &LoopValues| child_thresholds(true, (4, 9), v, second);
        let limited = select(true, 4, 3, true, reader(&nums));
        let full = select(true, INF, 3, false, reader(&nums));
        assert_eq!(th(&limited), th(&full));
        // thφ(c1) = thδ(n) + b(c1) − δ(n) = 9 + 1 − 3.
        assert_eq!(th(&full), (4, 7));
    }
}
