//! df-pn on positions whose value depends on the path that led to them
//! (a repetition rule, a cyclic graph with a loop rule): the graph
//! history interaction (GHI; Campbell 1985, Kishimoto & Müller 2004).
//!
//! A repeated position ends the game by the loop rule, so its value is a
//! property of the path, not of the position; a table keyed by the
//! position alone may then hand a value computed under one path to
//! another path where it is wrong. Three ways to meet that:
//!
//! - [`Ghi::Stop`] (the default of `dfpn`, `dfpn-eps`, `deep-dfpn`): the
//!   first repetition met ends the run `unknown` with reason `cycles`.
//!   Until then no stored value depends on a path, so the answer, when it
//!   comes, is exact.
//! - [`Ghi::Naive`] (`dfpn` with `ghi = naive`): a repetition is a
//!   terminal valued by the loop rule and every result goes into the
//!   table by position, as a plain depth-first search with a table would
//!   do; this shows the wrong answers of the lecture notes' example.
//! - [`Ghi::Exact`] (`dfpn-ghi`): results are split by what they rest on.
//!   A solved result is *path-dependent* when its proof (or disproof)
//!   uses a repetition, directly or through another path-dependent
//!   result: at a node solved for its mover, when every child that solves
//!   it is path-dependent; at a node solved against its mover, when any
//!   child is. A path-dependent result is stored under a key made of the
//!   position and the *set* of positions on the path to it (play from a
//!   position depends on the path only through that set, since a
//!   repetition is a move into a member of it), never under the position
//!   alone. Path-independent results are stored by position as usual.
//!
//! Why `Exact` is exact (up to 64-bit hash collisions): a position's
//! path-independent proof is built, bottom-up in time, only from
//! terminal positions and earlier path-independent proofs, so the proof
//! graph it stands for is acyclic and holds no repetition. Such a proof
//! stays valid on every path that does not meet it; and no position of it
//! can be on the current MID path when it is used, because a position on
//! the path is being searched, i.e. not yet solved by position (a
//! position is written as solved only when its own MID call returns, and
//! it cannot be entered twice on one path: the second time it is a
//! repetition). A path-dependent result is reused only under the same
//! path set, where every repetition it rests on is a repetition again.
//! Both hold the same way for disproofs. The unsolved (pn, dn) numbers
//! stay keyed by position: they only steer the search, and a wrong steer
//! costs time, not correctness. `tests/ghi.rs` checks the claim against
//! an exhaustive path-carrying evaluator on hundreds of random cyclic
//! graphs under all three loop rules.
//!
//! This is a simplification of Kishimoto & Müller's scheme (which also
//! avoids re-searching a position under a different path set when the
//! difference cannot matter); it trades some re-search for a short
//! argument.

use crate::game::mix::zobrist_key;
use crate::game::Game;
use crate::search::pn::Pn;
use crate::search::{Status, StopReason};

use super::mid::{protected_keys, solved, Dfpn, Frame};
use super::tt::{Entry, LEFT};
use crate::search::seesaw::NO_PICK;

/// How df-pn treats repeated positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ghi {
    /// Stop `unknown` (reason `cycles`) at the first repetition.
    #[default]
    Stop,
    /// Value repetitions by the loop rule and store everything by
    /// position (the graph history interaction bug, for teaching).
    Naive,
    /// Store path-dependent results under the path set (`dfpn-ghi`).
    Exact,
}

impl Ghi {
    /// The parameter value (`stop`, `naive`) or the algorithm's mode.
    pub fn name(self) -> &'static str {
        match self {
            Ghi::Stop => "stop",
            Ghi::Naive => "naive",
            Ghi::Exact => "exact",
        }
    }
}

const NODE_SALT: u64 = 0x6768_695f_6e6f_6465;
const PATH_SALT: u64 = 0x6768_695f_7061_7468;

/// A position's contribution to the key of a path set (the XOR of the
/// contributions of its members: a set, so the order of the path does
/// not matter, and no position is on a path twice).
#[inline]
pub fn member_key(hash: u64) -> u64 {
    zobrist_key(hash ^ NODE_SALT)
}

/// The table key of a path-dependent result for position `hash` reached
/// with the path set `path_set` (which includes the position itself).
#[inline]
pub fn path_entry_key(hash: u64, path_set: u64) -> u64 {
    zobrist_key(hash.rotate_left(29) ^ path_set ^ PATH_SALT)
}

/// Whether a node's solved result is path-dependent, from its children
/// as (a, b, dep): a = the number the node minimises (0: the child solves
/// the node for its mover), b = the one it sums, dep = the child's result
/// rests on the path. `for_mover`: the node is solved for its mover (some
/// a = 0); else against (every b = 0).
pub fn result_dependent(children: impl Iterator<Item = (u32, u32, bool)>, for_mover: bool) -> bool {
    let mut any_dep = false;
    let mut solver_indep = false;
    for (a, _b, dep) in children {
        any_dep |= dep;
        if a == 0 && !dep {
            solver_indep = true;
        }
    }
    if for_mover {
        !solver_indep
    } else {
        any_dep
    }
}

impl<G: Game> Dfpn<G> {
    /// The first numbers of the children from `first` on, in a
    /// history-dependent game (see [`super::ghi`]): a repetition is a
    /// terminal by the loop rule (or stops the run in [`Ghi::Stop`]); in
    /// [`Ghi::Exact`] a result stored under the child's path set counts
    /// before the one stored by position, and only a path-independent
    /// solved entry by position is taken as solved.
    pub(super) fn history_children(&mut self, first: usize, path_set: u64, unknown: Pn) {
        let kids = self.children[first..]
            .iter_mut()
            .zip(&mut self.kids[first..]);
        for (c, k) in kids {
            if let Some(o) = k.pos.outcome() {
                let t = solved(self.question.holds(o));
                c.terminal = Some(t);
                (k.pn, k.dn) = t;
                if k.pos.is_repetition() {
                    match self.opts.ghi {
                        Ghi::Stop => self.status = Status::Unknown(StopReason::Cycles),
                        Ghi::Naive => {}
                        Ghi::Exact => c.dep = true,
                    }
                }
                continue;
            }
            if self.opts.ghi == Ghi::Exact {
                let key = path_entry_key(c.hash, path_set ^ member_key(c.hash));
                if let Some(e) = self.table.get(key) {
                    c.terminal = Some((e.pn, e.dn));
                    c.dep = true;
                    (k.pn, k.dn) = (e.pn, e.dn);
                    continue;
                }
            }
            (k.pn, k.dn) = match self.table.get(c.hash) {
                Some(e) => (e.pn, e.dn),
                None => (unknown, unknown),
            };
        }
    }

    /// Whether frame `f`'s solved result rests on its path (`dfpn-ghi`,
    /// [`ghi::result_dependent`]); false for unsolved numbers and in the
    /// other modes.
    pub(super) fn result_of_frame_dependent(&self, f: &Frame<G>, pn_now: Pn, dn_now: Pn) -> bool {
        if !self.history || self.opts.ghi != Ghi::Exact || (pn_now != 0 && dn_now != 0) {
            return false;
        }
        let for_mover = if f.or { pn_now == 0 } else { dn_now == 0 };
        let range = f.first..f.first + f.count;
        let kids = self.children[range.clone()].iter().zip(&self.kids[range]);
        result_dependent(
            kids.map(|(c, k)| {
                let (a, b) = if f.or { (k.pn, k.dn) } else { (k.dn, k.pn) };
                (a, b, c.dep)
            }),
            for_mover,
        )
    }

    /// Stores a path-dependent result under the frame's path set; false
    /// (and the run ends on the memory budget) when the table is full.
    pub(super) fn store_path_result(&mut self, f: &Frame<G>, pn_now: Pn, dn_now: Pn) -> bool {
        let key = path_entry_key(f.hash, f.path_set);
        if let Some(e) = self.table.get_mut(key) {
            (e.pn, e.dn) = (pn_now, dn_now);
            return true;
        }
        let fresh = Entry {
            pn: pn_now,
            dn: dn_now,
            work: 0,
            last_pick: NO_PICK,
            flags: LEFT,
            on_path: 0,
        };
        let children = &self.children;
        let protect = || protected_keys(children);
        if self.table.insert_absent(key, fresh, protect).is_none() {
            self.status = Status::Unknown(StopReason::Memory);
            return false;
        }
        true
    }

    /// (pn, dn) of the root's child `c` as the search stored it: under
    /// its path set first when `dfpn-ghi` may have put it there.
    pub(super) fn child_lookup(&self, root: &G, c: &G) -> (Pn, Pn) {
        if self.history && self.opts.ghi == Ghi::Exact {
            let set = member_key(root.hash()) ^ member_key(c.hash());
            if let Some(e) = self.table.get(path_entry_key(c.hash(), set)) {
                return (e.pn, e.dn);
            }
        }
        self.lookup(c.hash(), 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_needs_only_one_independent_solver() {
        // (a, b, dep): the second child solves the node without the path.
        let kids = [(0, u32::MAX, true), (0, u32::MAX, false), (3, 2, true)];
        assert!(!result_dependent(kids.into_iter(), true));
        let kids = [(0, u32::MAX, true), (4, 1, false)];
        assert!(result_dependent(kids.into_iter(), true));
    }

    #[test]
    fn a_refutation_rests_on_every_child() {
        let kids = [(u32::MAX, 0, false), (u32::MAX, 0, true)];
        assert!(result_dependent(kids.into_iter(), false));
        let kids = [(u32::MAX, 0, false), (u32::MAX, 0, false)];
        assert!(!result_dependent(kids.into_iter(), false));
    }

    #[test]
    fn path_sets_ignore_order() {
        let (a, b, c) = (member_key(1), member_key(2), member_key(3));
        assert_eq!(a ^ b ^ c, c ^ a ^ b);
        assert_ne!(path_entry_key(5, a ^ b), path_entry_key(5, a ^ c));
    }
}
