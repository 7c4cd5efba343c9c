//! A counting filter over the hashes of the children of the nodes on the
//! MID path, so that MID can keep its children's numbers between loops.
//!
//! The loop at a node n reads every child's (pn, dn) from the table. While
//! MID searches n's child c1, only entries of positions entered below c1
//! change, so on return n needs c1's entry again and the others only when
//! the search below c1 entered one of n's other children (a transposition
//! between siblings; no eviction can touch them, they are protected). The
//! filter answers "might this position be a child of a path node?" with no
//! false negatives; a positive makes every frame read all its children
//! again. In games that add a piece per move (Othello, Hex, Connect Four,
//! tic-tac-toe) a sibling cannot recur below c1, so positives are only the
//! filter's collisions.

/// Number of counters (a power of two).
const SLOTS: usize = 4096;

/// Counts of path children per hash slot.
#[derive(Clone, Debug)]
pub struct PathFilter {
    counts: Box<[u32]>,
}

impl Default for PathFilter {
    fn default() -> Self {
        PathFilter {
            counts: vec![0; SLOTS].into_boxed_slice(),
        }
    }
}

#[inline]
fn slot(hash: u64) -> usize {
    // A multiply spreads weak hashes (hand-written trees) over the top bits.
    (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize
}

impl PathFilter {
    /// Notes a child of a node entering the path.
    #[inline]
    pub fn add(&mut self, hash: u64) {
        self.counts[slot(hash)] += 1;
    }

    /// Forgets a child of a node leaving the path.
    #[inline]
    pub fn remove(&mut self, hash: u64) {
        self.counts[slot(hash)] -= 1;
    }

    /// Whether `hash` may be among the path's children more than `known`
    /// times (a node entered as its parent's child is there once).
    #[inline]
    pub fn may_hold_more_than(&self, hash: u64, known: u32) -> bool {
        self.counts[slot(hash)] > known
    }
}
