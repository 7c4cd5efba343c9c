//! What `dfpn-fast` asks of a game beyond the [`Game`] trait: a position's
//! end and mobility in one move generation (for the df-pn+ style
//! initialisation), a static move preference (ties of the numbers), and an
//! optional exact solver for small positions at the frontier. Any game
//! gets the plain answers of [`AnyRules`]; Othello has its bitboard
//! versions in [`OthelloRules`].

use crate::game::othello::bitboard::move_mask;
use crate::game::othello::Othello;
use crate::game::{Game, Outcome};
use crate::search::pn::Pn;
use crate::search::Question;

use super::othello_leaf;

/// Game-specific help for the fast df-pn (see the module comment).
pub trait Rules<G: Game>: Send + Sync + 'static {
    /// The outcome if the game is over, else the position's mobility (at
    /// least 1): the number of legal moves, which a game may weight by
    /// how dangerous they are. It sets the df-pn+ initial numbers.
    fn inspect(&self, g: &G) -> Result<u32, Outcome>;

    /// A static preference for move `m` at `g`, lower first: orders
    /// children whose initial numbers tie.
    fn order_key(&self, _g: &G, _m: G::Move) -> u32 {
        0
    }

    /// The table key of `g`: its hash, or a key that positions with the
    /// same value share (mirror images).
    #[inline]
    fn key(&self, g: &G) -> u64 {
        g.hash()
    }

    /// The moves MID expands at `g` (not finished, not answered by
    /// [`Rules::inspect`]): every legal move, or all but moves known to
    /// lose for the mover, as long as one is left.
    fn moves(&self, g: &G, out: &mut Vec<G::Move>) {
        g.legal_moves(out);
    }

    /// The initial (pn, dn) of an unknown node with `mobility` moves
    /// (from [`Rules::inspect`]) under the mobility initialisation: (1, m)
    /// where the attacker moves (`or`), (m, 1) where the defender moves.
    fn initial(&self, _g: &G, or: bool, mobility: u32) -> (Pn, Pn) {
        let m = mobility.max(1);
        if or {
            (1, m)
        } else {
            (m, 1)
        }
    }

    /// Whether `g` is small enough for the frontier solver: MID answers
    /// it with [`Rules::solve_leaf`] and never expands it.
    fn at_frontier(&self, _g: &G) -> bool {
        false
    }

    /// `Some(answer)` when `g` is small enough for the frontier solver,
    /// which then answers `q` exactly, adding the positions it visited to
    /// `nodes`; or, at any size, when the game's rules settle `q` without
    /// a search (a score threshold the stones left cannot reach).
    fn solve_leaf(&self, _g: &G, _q: &Question, _nodes: &mut u64) -> Option<bool> {
        None
    }
}

/// The rules of any game through the [`Game`] trait alone; no frontier
/// solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnyRules;

impl<G: Game> Rules<G> for AnyRules {
    fn inspect(&self, g: &G) -> Result<u32, Outcome> {
        match g.outcome() {
            Some(o) => Err(o),
            None => Ok(g.move_count() as u32),
        }
    }
}

/// Othello: mobility from the move mask (corner moves counted twice),
/// corners first and the squares next to empty corners last, and the bitboard frontier solver at or
/// below `leaf_empties` empty squares (0 turns it off), with its own
/// table shared by the search threads.
#[derive(Debug)]
pub struct OthelloRules {
    /// Empty squares at or below which the frontier solver takes over (0 = off).
    pub leaf_empties: u32,
    /// The frontier solver's transposition table.
    pub table: othello_leaf::LeafTable,
}

impl OthelloRules {
    /// The rules with frontier threshold `leaf_empties` and a fresh table.
    pub fn new(leaf_empties: u32) -> OthelloRules {
        OthelloRules {
            leaf_empties,
            table: othello_leaf::LeafTable::default(),
        }
    }
}

/// The four corners.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Static class of each square (a1 = 0 … h8 = 63): 0 corners, 1 edges,
/// 2 inner squares, 3 the edge squares next to a corner (C), 4 the
/// diagonal neighbours of a corner (X).
const SQUARE_CLASS: [u8; 64] = [
    0, 3, 1, 1, 1, 1, 3, 0, //
    3, 4, 2, 2, 2, 2, 4, 3, //
    1, 2, 2, 2, 2, 2, 2, 1, //
    1, 2, 2, 2, 2, 2, 2, 1, //
    1, 2, 2, 2, 2, 2, 2, 1, //
    1, 2, 2, 2, 2, 2, 2, 1, //
    3, 4, 2, 2, 2, 2, 4, 3, //
    0, 3, 1, 1, 1, 1, 3, 0, //
];

impl Rules<Othello> for OthelloRules {
    #[inline]
    fn inspect(&self, g: &Othello) -> Result<u32, Outcome> {
        let side = g.to_move();
        let (p, o) = (g.discs_of(side), g.discs_of(side.other()));
        let moves = move_mask(p, o);
        match moves.count_ones() {
            0 if move_mask(o, p) == 0 => Err(g.outcome().unwrap_or(Outcome::DRAW)),
            0 => Ok(1),
            // A move onto a corner counts twice: corners are the replies
            // that most often refute (measured on FFO #38–#43, 10–45 %
            // less CPU than plain mobility; results/ffo.md).
            n => Ok(n + (moves & CORNERS).count_ones()),
        }
    }

    #[inline]
    fn order_key(&self, _g: &Othello, m: u8) -> u32 {
        SQUARE_CLASS.get(m as usize).map_or(5, |&c| u32::from(c))
    }

    #[inline]
    fn at_frontier(&self, g: &Othello) -> bool {
        g.empties() <= self.leaf_empties
    }

    #[inline]
    fn solve_leaf(&self, g: &Othello, q: &Question, nodes: &mut u64) -> Option<bool> {
        let r = self
            .at_frontier(g)
            .then(|| othello_leaf::answer_with(g, q, &self.table, nodes));
        // A solve cut short by the run's deadline answers nothing.
        r.filter(|_| !crate::clock::tripped())
    }
}
