//! `dfpn-fast` on Hex: the game's own knowledge (see
//! [`crate::game::hex::inferior`] and [`crate::game::hex::vc`]), each part
//! an option ([`HexOptions`]), each keeping the answer exact:
//!
//! - **dead** and **captured**: before a node is looked at, its dead cells
//!   and captured pairs are filled in; a player joined on the filled board
//!   has won, and only the cells left empty are expanded (a move into a
//!   filled cell is never better than one outside it);
//! - **dominated**: of the moves left, those another move dominates (its
//!   stone would let the cell be filled with the mover's colour) are not
//!   tried;
//! - **vcs**: H-search on the filled board; the mover wins when it has a
//!   virtual connection or a semi-connection between its edges, and loses
//!   when the opponent has a virtual connection (`vc_work` bounds each
//!   search, `vc_over_edges` lets it chain connections at an edge, and
//!   `vc_children` runs it on every child at its parent's expansion
//!   rather than only on the nodes MID enters);
//! - **mustplay**: the mover may only play inside the intersection of the
//!   carriers of the opponent's semi-connections between its edges (a
//!   move outside one of them lets the opponent connect); an empty
//!   intersection is a loss, and the region's size is the node's mobility
//!   for the df-pn+ initial numbers;
//! - **resistance_order**: children whose numbers tie go by their move
//!   score in the resistor model, the highest first;
//! - **fill_key**: positions with the same filled board share one table
//!   entry.

use std::cell::RefCell;

use crate::game::hex::inferior::{dominated, fill_in, FillRules};
use crate::game::hex::resistance::Resistance;
use crate::game::hex::vc::{decide, HSearchRules, DEFAULT_MAX_WORK};
use crate::game::hex::{joins_edges, Hex};
use crate::game::mix::finalize;
use crate::game::{Game, Outcome, Player};
use crate::search::Question;

use super::rules::Rules;

/// The Hex options of `dfpn-fast` (all on by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexOptions {
    /// Fill dead cells.
    pub dead: bool,
    /// Fill captured pairs.
    pub captured: bool,
    /// Skip dominated moves.
    pub dominated: bool,
    /// Early wins and losses from H-search.
    pub vcs: bool,
    /// Restrict the mover to the mustplay region (needs `vcs`).
    pub mustplay: bool,
    /// Order tied children by the resistor model's move score.
    pub resistance_order: bool,
    /// Key the table by the filled board.
    pub fill_key: bool,
    /// Carrier combinations each H-search may try.
    pub vc_work: u32,
    /// Whether H-search's AND rule may join connections at an edge.
    pub vc_over_edges: bool,
    /// H-search on every child when its parent is expanded (else only on
    /// the nodes MID enters).
    pub vc_children: bool,
}

impl Default for HexOptions {
    fn default() -> Self {
        let h = HSearchRules::default();
        HexOptions {
            dead: true,
            captured: true,
            dominated: true,
            vcs: true,
            mustplay: true,
            resistance_order: true,
            fill_key: true,
            vc_work: h.max_work,
            vc_over_edges: h.over_edges,
            vc_children: true,
        }
    }
}

impl HexOptions {
    /// Every rule off: the plain game.
    pub const OFF: HexOptions = HexOptions {
        dead: false,
        captured: false,
        dominated: false,
        vcs: false,
        mustplay: false,
        resistance_order: false,
        fill_key: false,
        vc_work: DEFAULT_MAX_WORK,
        vc_over_edges: false,
        vc_children: true,
    };

    /// The H-search these options ask for.
    fn h_search(&self) -> HSearchRules {
        HSearchRules {
            max_work: self.vc_work,
            over_edges: self.vc_over_edges,
        }
    }

    /// A number that tells option sets apart in the per-thread caches.
    fn salt(&self) -> u64 {
        let bits = [
            self.dead,
            self.captured,
            self.vcs,
            self.mustplay,
            self.resistance_order,
            self.fill_key,
            self.vc_children,
            self.vc_over_edges,
            self.dominated,
        ];
        let code = bits
            .iter()
            .enumerate()
            .fold(0u64, |a, (i, &b)| a | u64::from(b) << i);
        finalize(0x4845_5800 ^ code ^ u64::from(self.vc_work) << 8)
    }
}

/// What the knowledge says about a node: its outcome, or the moves worth
/// expanding and the table key.
#[derive(Clone, Copy, Debug)]
enum Verdict {
    Over(Outcome),
    Moves { moves: u128, key: u64 },
}

/// How far the knowledge looks at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    /// Fill-in only.
    Fill,
    /// Fill-in and both players' H-searches (when `vcs` is on).
    Full,
}

/// Slots of the per-thread cache of verdicts (each node is inspected as
/// a child and again when it is expanded). About 6 MB per thread; with
/// 16,384 slots the empty 7×7 board's search redid a fifth of its
/// verdicts, and it and the c2 opening mostly took about 25% longer.
const CACHE_SLOTS: usize = 1 << 17;

thread_local! {
    static VERDICTS: RefCell<Vec<(u64, Option<Verdict>)>> =
        RefCell::new(vec![(0, None); CACHE_SLOTS]);
    static SCORES: RefCell<(u64, Vec<f64>)> = const { RefCell::new((0, Vec::new())) };
}

/// Hex's rules for the fast df-pn (see the module comment).
#[derive(Clone, Copy, Debug, Default)]
pub struct HexRules {
    opts: HexOptions,
}

impl HexRules {
    /// The rules with options `opts`.
    pub fn new(opts: HexOptions) -> HexRules {
        HexRules { opts }
    }

    /// The options.
    pub fn options(&self) -> &HexOptions {
        &self.opts
    }

    /// The verdict on `g` looking as far as `look` (H-search only when
    /// the option is on), from the thread's cache when it was asked
    /// before.
    fn verdict(&self, g: &Hex, look: Look) -> Verdict {
        let look = if self.opts.vcs { look } else { Look::Fill };
        let id = g.hash() ^ self.opts.salt() ^ look as u64;
        let slot = (id as usize) & (CACHE_SLOTS - 1);
        VERDICTS.with(|c| {
            let mut c = c.borrow_mut();
            if let (k, Some(v)) = c[slot] {
                if k == id {
                    return v;
                }
            }
            let v = self.analyse(g, look);
            c[slot] = (id, Some(v));
            v
        })
    }

    /// The verdict a child gets when its parent is expanded: the whole
    /// knowledge with `vc_children`, else the fill-in alone (H-search
    /// waits until MID enters the child, see [`Rules::solve_leaf`]).
    fn child_verdict(&self, g: &Hex) -> Verdict {
        let look = if self.opts.vc_children {
            Look::Full
        } else {
            Look::Fill
        };
        self.verdict(g, look)
    }

    /// The knowledge applied to `g` (see the module comment), H-search
    /// only when `vcs`.
    fn analyse(&self, g: &Hex, look: Look) -> Verdict {
        if let Some(o) = g.outcome() {
            return Verdict::Over(o);
        }
        let n = g.size();
        let mover = g.to_move();
        let rules = FillRules {
            dead: self.opts.dead,
            captured: self.opts.captured,
        };
        let f = fill_in(n, g.stones(), rules);
        for p in [Player::First, Player::Second] {
            if joins_edges(n, f.stones[p.index()], p) {
                return Verdict::Over(Outcome::win_for(p));
            }
        }
        let mut moves = f.empty(n);
        if look != Look::Fill {
            let h = self.opts.h_search();
            match decide(n, f.stones, mover, h, self.opts.mustplay, moves) {
                Ok(kept) => moves = kept,
                Err(winner) => return Verdict::Over(Outcome::win_for(winner)),
            }
        }
        if self.opts.dominated {
            moves &= !dominated(n, f.stones, mover, moves);
            if moves == 0 {
                // Every move is dominated by one outside the mustplay
                // region, which loses.
                return Verdict::Over(Outcome::win_for(mover.other()));
            }
        }
        let key = if self.opts.fill_key {
            let side = u64::from(mover == Player::Second);
            let words = [
                f.stones[0] as u64,
                (f.stones[0] >> 64) as u64,
                f.stones[1] as u64,
                (f.stones[1] >> 64) as u64,
                u64::from(n) << 1 | side,
            ];
            words
                .iter()
                .fold(0x6865_785f_6b65_7973, |h, &w| finalize(h ^ w))
        } else {
            g.hash()
        };
        Verdict::Moves { moves, key }
    }
}

impl Rules<Hex> for HexRules {
    fn inspect(&self, g: &Hex) -> Result<u32, Outcome> {
        match self.child_verdict(g) {
            Verdict::Over(o) => Err(o),
            Verdict::Moves { moves, .. } => Ok(moves.count_ones()),
        }
    }

    fn key(&self, g: &Hex) -> u64 {
        match self.child_verdict(g) {
            Verdict::Moves { key, .. } => key,
            Verdict::Over(_) => g.hash(),
        }
    }

    fn moves(&self, g: &Hex, out: &mut Vec<u8>) {
        match self.verdict(g, Look::Full) {
            Verdict::Moves { mut moves, .. } => {
                while moves != 0 {
                    out.push(moves.trailing_zeros() as u8);
                    moves &= moves - 1;
                }
            }
            // Not reached (such nodes are solved by `inspect`); keep MID
            // well defined anyway.
            Verdict::Over(_) => g.legal_moves(out),
        }
    }

    /// Without `vc_children`, H-search runs here, when MID enters a node
    /// (with it, the node's verdict from its inspection as a child is in
    /// the cache): a node it settles is answered without expanding it.
    fn solve_leaf(&self, g: &Hex, q: &Question, _nodes: &mut u64) -> Option<bool> {
        match self.verdict(g, Look::Full) {
            Verdict::Over(o) => Some(q.holds(o)),
            Verdict::Moves { .. } => None,
        }
    }

    fn order_key(&self, g: &Hex, m: u8) -> u32 {
        if !self.opts.resistance_order {
            return 0;
        }
        SCORES.with(|s| {
            let mut s = s.borrow_mut();
            if s.0 != g.hash() || s.1.is_empty() {
                let r = Resistance::of(g);
                let cells = usize::from(g.size()) * usize::from(g.size());
                s.1 = (0..cells).map(|i| r.move_score(i)).collect();
                s.0 = g.hash();
            }
            // Scores are shares of power, at most 2: highest first.
            let score = s.1.get(usize::from(m)).copied().unwrap_or(0.0);
            ((2.0 - score).max(0.0) * 1e6) as u32
        })
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::game::hex::knowledge::{CellStatus, Connection, Knowledge};

    /// The moves the solver tries are the cells the app's report marks
    /// as tried, and the positions it settles are the ones the report
    /// calls connected (or leaves no move in), on random 5×5 and 6×6
    /// positions.
    #[test]
    fn the_moves_tried_are_the_board_report_s() {
        let rules = HexRules::new(HexOptions::default());
        let mut rng = SmallRng::seed_from_u64(61);
        let mut open = 0;
        for k in 0..300 {
            let n = 5 + (k % 2) as u8;
            let plies = rng.random_range(2..14);
            let g = crate::game::hex::random_walk(n, plies, &mut rng);
            if g.outcome().is_some() {
                continue;
            }
            let report = Knowledge::of(&g);
            let tried = report
                .cells
                .iter()
                .enumerate()
                .filter(|(_, &c)| c == CellStatus::Tried)
                .fold(0u128, |m, (i, _)| m | 1 << i);
            match rules.analyse(&g, Look::Full) {
                Verdict::Moves { moves, .. } => {
                    open += 1;
                    assert_eq!(report.connection, Connection::Open, "{}", g.notation());
                    assert_eq!(moves, tried, "{}: {}", g.notation(), report.summary());
                }
                Verdict::Over(_) => assert!(
                    report.connection != Connection::Open || tried == 0,
                    "{}: {}",
                    g.notation(),
                    report.summary()
                ),
            }
        }
        assert!(open > 50, "only {open} open positions");
    }
}
