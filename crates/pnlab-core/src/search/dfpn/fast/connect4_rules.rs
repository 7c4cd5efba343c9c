//! `dfpn-fast` on Connect Four: the tactics every strong Connect Four
//! solver applies (Allis 1988; see [`connect4_bits`]), used where MID
//! expands a node, threat-aware initial numbers and move order, mirror
//! positions sharing a table entry, and the frontier alpha-beta of
//! [`connect4_leaf`] below a number of empty cells. Each is an option
//! ([`Connect4Options`]); each keeps the answer exact:
//!
//! - **tactics**: a node whose mover can complete four is won for the
//!   mover; one whose mover has no move that survives the opponent's reply
//!   (two cells where the opponent completes four, or every move under
//!   one) is lost; with at most two empty cells and a safe move it is a
//!   draw. So these nodes are solved when their parent is expanded, and
//!   MID expands only the safe moves (the others lose, so dropping them
//!   changes no value while one safe move is left).
//! - **threat-aware initial numbers** (on top of the mobility
//!   initialisation, counting safe moves only): a node where the player
//!   to move has more cells where it completes four than the opponent
//!   looks better for it: its proof number (attacker to move) or disproof
//!   number (defender to move) stays 1 and the other number grows by the
//!   difference. Only the initial numbers change, so only the order of
//!   the search does.
//! - **ordering**: children whose numbers tie go by the cells where the
//!   mover completes four after the move (most first), then the centre.
//! - **mirror**: the table key of a position is the smaller of its own
//!   and its mirror image's unique key; mirror images have the same value.
//! - **leaf_cells**: nodes with at most this many empty cells are answered
//!   by the null-window alpha-beta of [`connect4_leaf`] with its own table.

use crate::game::connect4::Connect4;
use crate::game::connect4_bits as bits;
use crate::game::{Game, Outcome, Player};
use crate::search::pn::Pn;
use crate::search::Question;

use super::connect4_leaf::{self, LeafTable};
use super::rules::Rules;

/// The Connect Four options of `dfpn-fast`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4Options {
    /// Solve won and lost nodes at expansion; expand safe moves only.
    pub tactics: bool,
    /// Threat-aware initial numbers (with the mobility initialisation).
    pub threat_init: bool,
    /// Mirror images share a table entry.
    pub mirror: bool,
    /// Nodes with at most this many empty cells go to the frontier
    /// alpha-beta (0 = never).
    pub leaf_cells: u32,
    /// Bytes of the frontier alpha-beta's table.
    pub leaf_table_bytes: u64,
}

/// The default frontier threshold on Connect Four (empty cells), chosen by
/// the `connect4-l1r3` bench (`results/connect4.md`).
pub const DEFAULT_LEAF_CELLS: i64 = 24;

/// Bytes of the frontier table by default.
pub const DEFAULT_LEAF_TABLE_BYTES: u64 = 16 << 20;

impl Connect4Options {
    /// The bytes to give the frontier table: its budget when the frontier
    /// solver is on, a token 8 otherwise (no solver reads it then).
    pub fn leaf_bytes_in_use(&self) -> u64 {
        if self.leaf_cells > 0 {
            self.leaf_table_bytes
        } else {
            8
        }
    }
}

impl Default for Connect4Options {
    fn default() -> Self {
        Connect4Options {
            tactics: true,
            threat_init: true,
            mirror: true,
            leaf_cells: DEFAULT_LEAF_CELLS as u32,
            leaf_table_bytes: DEFAULT_LEAF_TABLE_BYTES,
        }
    }
}

/// Connect Four's rules for the fast df-pn (see the module comment).
pub struct Connect4Rules {
    opts: Connect4Options,
    leaf: LeafTable,
}

impl Connect4Rules {
    /// The rules with options `opts` (the frontier table is allocated only
    /// when the frontier solver is on).
    pub fn new(opts: Connect4Options) -> Connect4Rules {
        Connect4Rules {
            opts,
            leaf: LeafTable::with_bytes(opts.leaf_bytes_in_use()),
        }
    }

    /// The options.
    pub fn options(&self) -> &Connect4Options {
        &self.opts
    }

    /// Bytes of the frontier solver's table.
    pub fn leaf_table_bytes(&self) -> u64 {
        self.leaf.bytes()
    }
}

/// The player who is not to move.
fn other(g: &Connect4) -> Player {
    g.to_move().other()
}

impl Rules<Connect4> for Connect4Rules {
    #[inline]
    fn inspect(&self, g: &Connect4) -> Result<u32, Outcome> {
        if let Some(o) = g.outcome() {
            return Err(o);
        }
        let (mover, occupied) = bits::boards(g);
        if !self.opts.tactics {
            return Ok(bits::playable(occupied).count_ones());
        }
        if bits::can_win_now(mover, occupied) {
            return Err(Outcome::win_for(g.to_move()));
        }
        let safe = bits::non_losing_moves(mover, occupied);
        if safe == 0 {
            return Err(Outcome::win_for(other(g)));
        }
        if occupied.count_ones() >= 40 {
            return Err(Outcome::DRAW);
        }
        Ok(safe.count_ones())
    }

    fn order_key(&self, g: &Connect4, m: u8) -> u32 {
        let (mover, occupied) = bits::boards(g);
        let cell = bits::playable(occupied) & bits::column_bits(u32::from(m));
        let threats = bits::winning_cells(mover | cell, occupied | cell).count_ones();
        let centre = u32::from(m.abs_diff(3));
        (16 - threats.min(16)) * 4 + centre
    }

    #[inline]
    fn key(&self, g: &Connect4) -> u64 {
        if !self.opts.mirror {
            return g.hash();
        }
        let (mover, occupied) = bits::boards(g);
        // The fast table mixes its keys; the unique key names the class.
        bits::symmetric_key(mover, occupied)
    }

    fn moves(&self, g: &Connect4, out: &mut Vec<u8>) {
        if !self.opts.tactics {
            g.legal_moves(out);
            return;
        }
        let (mover, occupied) = bits::boards(g);
        let mut safe = bits::non_losing_moves(mover, occupied);
        if safe == 0 {
            // Not reached (such nodes are solved by `inspect`); keep MID
            // well defined anyway.
            g.legal_moves(out);
            return;
        }
        while safe != 0 {
            out.push(bits::column_of_cell(safe & safe.wrapping_neg()));
            safe &= safe - 1;
        }
    }

    fn initial(&self, g: &Connect4, or: bool, mobility: u32) -> (Pn, Pn) {
        let m = mobility.max(1);
        let edge = if self.opts.threat_init {
            let (mover, occupied) = bits::boards(g);
            let mine = bits::winning_cells(mover, occupied).count_ones();
            let theirs = bits::winning_cells(mover ^ occupied, occupied).count_ones();
            theirs.saturating_sub(mine)
        } else {
            0
        };
        // The mover's hard number (all moves must fail) grows with its
        // moves; an opponent with more threats makes the mover's easy
        // number harder too.
        if or {
            (1 + edge, m)
        } else {
            (m, 1 + edge)
        }
    }

    #[inline]
    fn at_frontier(&self, g: &Connect4) -> bool {
        42 - u32::from(g.stones()) <= self.opts.leaf_cells
    }

    #[inline]
    fn solve_leaf(&self, g: &Connect4, q: &Question, nodes: &mut u64) -> Option<bool> {
        self.at_frontier(g)
            .then(|| connect4_leaf::answer(g, q, &self.leaf, nodes))
    }
}
