//! The move that wins a settled root, for the side to move.
//!
//! A proof search answers "does the root hold?"; a user also asks "which
//! move wins?". df-pn's root loop usually knows: it stops at the first
//! child that solves the root. But `dfpn-fast` settles many roots without
//! that loop: the frontier solver answers a root with few empty squares
//! (every FFO test position has at most 16, the default `leaf_empties`)
//! or cells outright, Connect Four's tactics settle a root whose mover
//! completes four, and a bounded table may have replaced the entry of the
//! child that won. Before this module such a run reported `best_move:
//! null` although the root was proved.
//!
//! [`find`] names a winning child for every settled root the mover wins
//! (a proved OR root, a disproved AND root: its refutation), cheapest
//! evidence first:
//!
//! 1. the root loop's own solving child, when the loop ran;
//! 2. children settled by the game's rules alone (game over, Connect
//!    Four's tactics) or solved in the table;
//! 3. the frontier solver on each child small enough for it (the children
//!    of a root it answered always are);
//! 4. failing those, a MID search of each remaining child over the same
//!    table, children the table rates likeliest first (the root is won,
//!    so one of them wins; a child already lost on record is skipped).
//!
//! Each step answers exactly, so the move named is a winning one. Steps 3
//! and 4 cost work; it is counted in [`RootMoveWork`] and reported beside
//! the search's own counters, which it does not change. A run stopped by
//! its deadline gives up here too (no move rather than a late one).

use std::sync::atomic::AtomicBool;

use crate::game::Game;
use crate::search::pn::Pn;

use super::super::mid::solved;
use super::rules::Rules;
use super::worker::{Event, Shared, Worker};

/// Work spent naming the winning move after the root was settled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RootMoveWork {
    /// Root children answered by the frontier solver.
    pub leaf_solves: u64,
    /// Positions the frontier solver visited for them.
    pub leaf_nodes: u64,
    /// MID calls of the searches of children (step 4).
    pub calls: u64,
}

/// What a child's known numbers say about the root's mover.
fn mover_wins(or: bool, (pn, dn): (Pn, Pn)) -> Option<bool> {
    let holds = if pn == 0 {
        true
    } else if dn == 0 {
        false
    } else {
        return None;
    };
    // At an OR root the mover is the attacker: a child where the
    // question holds wins for it. At an AND root the mover is the
    // defender: a child where the question fails wins for it.
    Some(holds == or)
}

/// The index in `moves` of a move that wins `root` for its mover, whose
/// root was settled as a win for the mover; `hint` is the root loop's
/// solving move if it had one. `None` only when the deadline stopped the
/// search for it (see the module comment).
pub fn find<G: Game, R: Rules<G>>(
    sh: &Shared<G, R>,
    root: &G,
    moves: &[G::Move],
    hint: Option<G::Move>,
    work: &mut RootMoveWork,
) -> Option<u32> {
    if let Some(k) = hint.and_then(|h| moves.iter().position(|&m| m == h)) {
        return Some(k as u32);
    }
    let q = sh.question;
    let or = root.to_move() == q.attacker;
    let children: Vec<G> = moves
        .iter()
        .map(|&m| {
            let mut c = root.clone();
            c.play(m);
            c
        })
        .collect();
    // Step 2: the rules and the table; the numbers of the others rank
    // them for step 4.
    let mut open: Vec<(usize, Pn)> = Vec::new();
    for (i, c) in children.iter().enumerate() {
        let numbers = match sh.rules.inspect(c) {
            Err(o) => solved(q.holds(o)),
            Ok(_) => match sh.table.probe(sh.rules.key(c)) {
                Some(e) => (e.pn, e.dn),
                None => (1, 1),
            },
        };
        match mover_wins(or, numbers) {
            Some(true) => return Some(i as u32),
            Some(false) => {}
            None => open.push((i, if or { numbers.0 } else { numbers.1 })),
        }
    }
    // Step 3: the frontier solver.
    let mut deeper = Vec::new();
    for (i, a) in open {
        let mut nodes = 0;
        match sh.rules.solve_leaf(&children[i], &q, &mut nodes) {
            Some(holds) => {
                work.leaf_solves += 1;
                work.leaf_nodes += nodes;
                if holds == or {
                    return Some(i as u32);
                }
            }
            None => deeper.push((i, a)),
        }
    }
    if crate::clock::tripped() {
        return None;
    }
    // Step 4: search the rest, likeliest first.
    deeper.sort_by_key(|&(i, a)| (a, i));
    for (i, _) in deeper {
        let r = search_child(sh, &children[i], work)?;
        if mover_wins(or, r) == Some(true) {
            return Some(i as u32);
        }
    }
    None
}

/// Runs MID from `child` over the shared table to its end: its (pn, dn),
/// or `None` when the deadline passed first.
fn search_child<G: Game, R: Rules<G>>(
    sh: &Shared<G, R>,
    child: &G,
    work: &mut RootMoveWork,
) -> Option<(Pn, Pn)> {
    // A sequential search of its own: the run's stop flag (set when the
    // root was solved) is not this search's.
    let stop = AtomicBool::new(false);
    let own = Shared {
        table: sh.table,
        rules: sh.rules,
        question: sh.question,
        base: sh.base,
        init: sh.init,
        order: sh.order,
        reread: false,
        stop: &stop,
        _game: std::marker::PhantomData,
    };
    let mut w = Worker::new(child.clone(), false);
    loop {
        let e = w.step(&own);
        if e == Event::Done {
            break;
        }
        if crate::clock::tripped() {
            work.calls += w.counters.calls;
            return None;
        }
    }
    work.calls += w.counters.calls;
    work.leaf_solves += w.counters.leaf_solves;
    work.leaf_nodes += w.counters.leaf_nodes;
    w.result
}

/// The loop's own answer: the first child of a settled root frame whose
/// numbers solve it for the mover (`or`: the attacker moves at the root).
pub fn solving_child<M: Copy>(or: bool, mut kids: impl Iterator<Item = (M, Pn, Pn)>) -> Option<M> {
    kids.find(|&(_, p, d)| mover_wins(or, (p, d)) == Some(true))
        .map(|(m, _, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pn::INF;

    #[test]
    fn a_child_wins_for_the_mover_by_the_side_that_moves_at_the_root() {
        // OR root: a proved child wins, a disproved one loses.
        assert_eq!(mover_wins(true, (0, INF)), Some(true));
        assert_eq!(mover_wins(true, (INF, 0)), Some(false));
        // AND root: the defender wins where the question fails.
        assert_eq!(mover_wins(false, (INF, 0)), Some(true));
        assert_eq!(mover_wins(false, (0, INF)), Some(false));
        assert_eq!(mover_wins(true, (3, 2)), None);
    }

    #[test]
    fn the_solving_child_is_the_first_that_wins_for_the_mover() {
        let kids = [('a', 2, 5), ('b', INF, 0), ('c', 0, INF), ('d', 0, INF)];
        assert_eq!(solving_child(true, kids.into_iter()), Some('c'));
        assert_eq!(solving_child(false, kids.into_iter()), Some('b'));
        assert_eq!(solving_child(true, kids[..2].iter().copied()), None);
    }
}
