//! df-pn on positions whose value depends on the path that led to them
//! (a repetition rule, a cyclic graph with a loop rule): the graph
//! history interaction (GHI; Campbell 1985, Kishimoto & Müller 2004).
//!
//! A repeated position ends the game by the loop rule, so its value is a
//! property of the path, not of the position; a table keyed by the
//! position alone may then hand a value computed under one path to
//! another path where it is wrong. Three ways to meet that:
//!
//! - [`Ghi::Stop`] (`dfpn` with `ghi = stop`; always `dfpn-eps` and
//!   `deep-dfpn`, whose tables are not made path-aware): on a
//!   history-dependent position the run ends at once, `unknown` with
//!   reason `cycles`. Waiting for the first repetition would not do: with
//!   a table keyed by position, the numbers of two positions on a cycle
//!   can feed each other (each MID call returns at once, over its
//!   threshold, raised by the other's entry) without either search ever
//!   holding both on its path, and df-pn then loops without end.
//! - [`Ghi::Naive`] (`dfpn` with `ghi = naive`): a repetition is a
//!   terminal valued by the loop rule and every result goes into the
//!   table by position, as a plain depth-first search with a table would
//!   do; this shows the wrong answers of the lecture notes' example (and
//!   can loop as described above: give it a budget).
//! - [`Ghi::Exact`] (`dfpn-ghi`, and `dfpn`'s default `ghi = exact`): the table keys a position together
//!   with its path ([`Game::path_hash`]: in a cyclic graph the set of
//!   nodes on the path; play from a position depends on the path only
//!   through that set, since a repetition is a move into a member of it).
//!   Searched that way, df-pn runs on the finite acyclic graph of (position,
//!   path set) pairs (the set grows along every move), where it is exact
//!   and terminates (Kishimoto & Müller 2008 show df-pn complete on finite
//!   acyclic graphs). To keep the table's sharing across paths where it is
//!   safe, a solved result is also stored under the position alone when it
//!   is *path-independent*: its proof (or disproof) uses no repetition,
//!   directly or through a path-dependent result (at a node solved for its
//!   mover: some child that solves it is path-independent; at a node
//!   solved against its mover: every child is). A position with such an
//!   entry is a terminal for every later search.
//!
//! Why the shortcut is exact (up to 64-bit hash collisions): a
//! path-independent proof is built, bottom-up in time, only from terminal
//! positions and earlier path-independent proofs, so the proof graph it
//! stands for is acyclic and holds no repetition; it stays valid on every
//! path that does not meet it. And no position of it is on the current
//! MID path when it is used: a position gets its shortcut only when its
//! own MID call returns (a position is on a path at most once: the second
//! time it is a repetition), and a position with a shortcut is never
//! entered again. Both hold the same way for disproofs. `tests/ghi.rs`
//! checks the whole against an exhaustive path-carrying evaluator on
//! hundreds of random cyclic graphs under all three loop rules.
//!
//! This is a simplification of Kishimoto & Müller's 2004 scheme, which
//! shares more of the unsolved work between paths; it trades re-search
//! for a short argument.

use crate::game::mix::zobrist_key;
use crate::game::Game;
use crate::search::pn::Pn;
use crate::search::{Status, StopReason};

use super::mid::{solved, Dfpn, Frame};
use super::tt::DEP;

crate::choice_enum! {
    /// How df-pn treats repeated positions (`dfpn`'s `ghi` parameter).
    pub enum Ghi {
        /// Store path-dependent results under the path set (`dfpn-ghi`).
        Exact = "exact",
        /// Value repetitions by the loop rule and store everything by
        /// position (the graph history interaction bug, for teaching).
        Naive = "naive",
        /// Stop `unknown` (reason `cycles`) at the first repetition.
        Stop = "stop",
    }
}

/// The engine's default when no parameter chooses: stop at the first
/// repetition (`dfpn-eps`, `deep-dfpn`, the experiments).
impl Default for Ghi {
    fn default() -> Ghi {
        Ghi::Stop
    }
}

const PATH_SALT: u64 = 0x6768_695f_7061_7468;

/// The table key of position `hash` reached along a path with
/// [`Game::path_hash`] `path_hash`.
#[inline]
pub fn path_entry_key(hash: u64, path_hash: u64) -> u64 {
    zobrist_key(hash.rotate_left(29) ^ path_hash ^ PATH_SALT)
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
    /// The numbers of a position solved without its path (`dfpn-ghi`'s
    /// entry under the position's hash alone), if there is one.
    pub(super) fn shortcut(&self, g: &G) -> Option<(Pn, Pn)> {
        let e = self.table.get(g.hash())?;
        (e.pn == 0 || e.dn == 0).then_some((e.pn, e.dn))
    }

    /// Stores a path-independent solved result under the position's hash
    /// alone; false (and the run ends on the memory budget) when the
    /// table is full.
    pub(super) fn store_shortcut(&mut self, g: &G, pn: Pn, dn: Pn) -> bool {
        if !self.store_off_path(g.hash(), pn, dn) {
            self.status = Status::Unknown(StopReason::Memory);
            return false;
        }
        true
    }

    /// The first numbers of the children from `first` on, in a
    /// history-dependent game: a repetition is a terminal by the loop
    /// rule (path-dependent in [`Ghi::Exact`]); in [`Ghi::Exact`] a child
    /// solved without its path
    /// is a terminal too, and a child solved under its path counts as
    /// path-dependent when its entry says so.
    pub(super) fn history_children(&mut self, first: usize, unknown: Pn) {
        let range = first..self.children.len();
        for i in range {
            let (c, k) = (&mut self.children[i], &mut self.kids[i]);
            if let Some(o) = k.pos.outcome() {
                let t = solved(self.question.holds(o));
                c.terminal = Some(t);
                (k.pn, k.dn) = t;
                // (`Ghi::Stop` never gets here: it stops at the start.)
                c.dep = self.exact && k.pos.is_repetition();
                continue;
            }
            if self.exact {
                if let Some(e) = self
                    .table
                    .get(k.pos.hash())
                    .filter(|e| e.pn == 0 || e.dn == 0)
                {
                    c.terminal = Some((e.pn, e.dn));
                    (k.pn, k.dn) = (e.pn, e.dn);
                    continue;
                }
            }
            (k.pn, k.dn) = match self.table.get(c.hash) {
                Some(e) => {
                    c.dep = e.flags & DEP != 0;
                    (e.pn, e.dn)
                }
                None => (unknown, unknown),
            };
        }
    }

    /// Whether frame `f`'s solved result rests on its path (`dfpn-ghi`,
    /// [`result_dependent`]); false for unsolved numbers and in the other
    /// modes. A frame that returned at once without its children returns
    /// what the table held: its entry says.
    pub(super) fn result_of_frame_dependent(&self, f: &Frame<G>, pn_now: Pn, dn_now: Pn) -> bool {
        if !self.exact || (pn_now != 0 && dn_now != 0) {
            return false;
        }
        if f.count == 0 {
            return self.table.get(f.hash).is_some_and(|e| e.flags & DEP != 0);
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

    /// (pn, dn) of a position as the search stored it (its key; in
    /// `dfpn-ghi` the shortcut of a path-independent result first), or the
    /// unknown value at depth `d`.
    pub(super) fn stored_numbers(&self, g: &G, d: u32) -> (Pn, Pn) {
        if self.exact {
            if let Some(t) = self.shortcut(g) {
                return t;
            }
        }
        self.lookup(self.key(g), d)
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
}
