//! VCDT: victory by continuous double-threat-or-more moves (Wu & Huang
//! 2005; thesis §3.3.1), the attacker's forcing wins that the relevance
//! zones are derived from.
//!
//! Generalised to Connect(m, n, k, p, q) as "every attacker turn leaves
//! the attacker at least p threats" (double threats for Connect6's p = 2,
//! continuous fours for Gomoku's p = 1), so the defender's whole turn goes
//! into blocking:
//!
//! - **Attacker node** (attacker to place r stones): if a window without
//!   defender stones has at most r empty cells, the attacker completes it:
//!   won. Otherwise the attacker's moves are the r-stone placements after
//!   which the defender cannot win at once (every defender window with
//!   ≤ p empties holds an attacker stone) and the attacker has t ≥ p
//!   threats. With t > p the defender cannot stop the next turn's win:
//!   won. With t = p the defender must block.
//! - **Defender node** (p stones): the replies are the minimum hitting
//!   sets of the attacker's threat windows (every placement of p stones
//!   that blocks all of them; any other placement loses at once, and the
//!   defender cannot win at once by the attacker node's condition). The
//!   attacker needs a win after every reply.
//!
//! Iterative deepening on the number of attacker moves (1, 2, …,
//! `max_depth`) with a transposition table keyed by the Zobrist hash of the
//! stones and the stones left: a proof is kept for good, a failure with
//! the depth it was searched to. `max_nodes` caps the work of one solve;
//! hitting it ends the solve without a win. A "win" found here is a real
//! win in the game (the solver is sound, not complete), and
//! [`Vcdt::proof_zone`](super::zone) re-checks every step of the proof
//! tree while deriving its relevance zone.
//!
//! A run's time limit cuts a solve short too ([`crate::clock`]):
//! the solve then ends without a win and says so
//! ([`Vcdt::interrupted`]), so that nobody caches its answer.
//!
//! Move order at attacker nodes: placements leaving more than p threats
//! first, then those whose threat windows have the fewest empty cells
//! between them (fewer defender replies), then cell order.

use std::collections::HashMap;

use crate::clock;
use crate::game::mix::zobrist_key;
use crate::game::Player;

use super::board::{Board, Cell, WindowId};
use super::threats::CellSets;

/// Limits of one VCDT solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcdtOptions {
    /// Most attacker moves before the completing one (iterative deepening
    /// goes 0, 1, …, this).
    pub max_depth: u32,
    /// Most nodes (attacker and defender) one solve may visit.
    pub max_nodes: u64,
}

impl Default for VcdtOptions {
    fn default() -> Self {
        VcdtOptions {
            max_depth: 6,
            max_nodes: 20_000,
        }
    }
}

/// Most attacker placements examined at one node (guards against the
/// combinations exploding for large p).
const MAX_COMBINATIONS: usize = 100_000;

/// What the table knows about an attacker node.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    /// A win was proved; `mv` is the winning placement (empty: the node
    /// completes a window at once).
    pub proven: bool,
    /// For a failure: the depth it was searched to.
    pub depth: u32,
    pub mv: Vec<Cell>,
}

/// A VCDT solver on one position: the board, the attacker and the table.
pub struct Vcdt {
    pub(super) board: Board,
    pub(super) attacker: Player,
    /// Stones per turn (p).
    pub(super) per_turn: u8,
    opts: VcdtOptions,
    pub(super) table: HashMap<u64, Entry>,
    nodes: u64,
    aborted: bool,
    /// A solve was cut short by the run's deadline (sticky).
    interrupted: bool,
}

/// An attacker placement with the threats it leaves and the empty cells
/// of its threat windows.
struct Candidate {
    cells: Vec<Cell>,
    threats: u32,
    spread: usize,
}

/// Key of an attacker node: the stones and the stones left to place.
#[inline]
pub(super) fn node_key(board: &Board, stones: u8) -> u64 {
    board.hash() ^ zobrist_key(0x7CD7_0000_0000 ^ u64::from(stones))
}

impl Vcdt {
    /// A solver for `attacker` on `board` (whoever is to move there: the
    /// solve says how many stones the attacker places first), with turns
    /// of `per_turn` stones.
    pub fn new(board: &Board, attacker: Player, per_turn: u8, opts: VcdtOptions) -> Vcdt {
        Vcdt {
            board: board.clone(),
            attacker,
            per_turn,
            opts,
            table: HashMap::new(),
            nodes: 0,
            aborted: false,
            interrupted: false,
        }
    }

    /// Nodes visited so far (all solves of this solver).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last solve stopped at the node cap (or the deadline).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Whether a solve of this solver was cut short by the run's deadline
    /// ([`clock::interrupted`]): unlike the node cap, that depends on the
    /// machine, so its "no win found" must not be cached.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// Looks for a VCDT with the attacker to place `stones` stones now:
    /// `Some(d)` with the depth of the proof found, `None` if there is none
    /// within the limits.
    pub fn solve(&mut self, stones: u8) -> Option<u32> {
        self.aborted = false;
        for d in 0..=self.opts.max_depth {
            if self.attack(stones, d) {
                return Some(d);
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// Counts a node; false once the cap is reached or the run's
    /// deadline has passed.
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.opts.max_nodes {
            self.aborted = true;
        } else if clock::interrupted() {
            self.aborted = true;
            self.interrupted = true;
        }
        !self.aborted
    }

    fn attack(&mut self, stones: u8, depth: u32) -> bool {
        if !self.visit() {
            return false;
        }
        if super::threats::immediate_win(&self.board, self.attacker, stones).is_some() {
            return true;
        }
        if depth == 0 || self.board.is_full() {
            return false;
        }
        let key = node_key(&self.board, stones);
        if let Some(e) = self.table.get(&key) {
            if e.proven {
                return true;
            }
            if e.depth >= depth {
                return false;
            }
        }
        let moves = self.attacker_moves(stones);
        if self.aborted {
            return false;
        }
        for m in moves {
            for &c in &m.cells {
                self.board.place(c, self.attacker);
            }
            let won = m.threats > u32::from(self.per_turn) || self.defend(depth);
            for &c in m.cells.iter().rev() {
                self.board.remove(c);
            }
            if won {
                self.table.insert(
                    key,
                    Entry {
                        proven: true,
                        depth,
                        mv: m.cells,
                    },
                );
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        self.table.insert(
            key,
            Entry {
                proven: false,
                depth,
                mv: Vec::new(),
            },
        );
        false
    }

    /// The defender to move after an attacker move that left exactly p
    /// threats: every blocking reply must lose.
    fn defend(&mut self, depth: u32) -> bool {
        if !self.visit() {
            return false;
        }
        let defender = self.attacker.other();
        let mut sets = CellSets::default();
        super::threats::threat_windows(&self.board, self.attacker, self.per_turn, &mut sets);
        let replies = sets.minimal_hitting_sets(usize::from(self.per_turn));
        if replies.is_empty() {
            return false;
        }
        for r in replies {
            let mut defender_won = false;
            for &c in &r {
                defender_won |= self.board.place(c, defender);
            }
            let won = !defender_won && self.attack(self.per_turn, depth - 1);
            for &c in r.iter().rev() {
                self.board.remove(c);
            }
            if !won {
                return false;
            }
        }
        true
    }

    /// The attacker's VCDT moves with `stones` stones, best first (see the
    /// module comment).
    fn attacker_moves(&mut self, stones: u8) -> Vec<Candidate> {
        let me = self.attacker;
        let p = self.per_turn;
        let mut must_block = CellSets::default();
        super::threats::threat_windows(&self.board, me.other(), p, &mut must_block);
        if must_block.min_hitting_set(u32::from(stones)) > u32::from(stones) {
            return Vec::new();
        }
        let mut wide = Vec::new();
        self.board
            .windows_within(me, p.saturating_add(stones), &mut wide);
        let mut cand: Vec<Cell> = must_block.union();
        for &w in &wide {
            self.board.empty_cells_of(w, &mut cand);
        }
        cand.sort_unstable();
        cand.dedup();
        let mut base: Vec<WindowId> = Vec::new();
        self.board.windows_within(me, p, &mut base);
        // A stone helps make a threat only through a window that has at
        // most p empty cells once the placement's stones are in: a cell
        // is *solo* when one stone is enough (a window with ≤ p + 1
        // empties), and two cells that are not solo only help together,
        // inside one window with ≤ p + 2 empties (their *partners*).
        let cells = self.board.geometry().cells();
        let mut solo = vec![false; cells];
        let mut near: Vec<WindowId> = Vec::new();
        self.board
            .windows_within(me, p.saturating_add(1), &mut near);
        for &w in &near {
            for &c in self.board.geometry().window(w) {
                solo[usize::from(c)] = true;
            }
        }
        let mut out = Vec::new();
        let mut combo = Vec::with_capacity(usize::from(stones));
        let mut sets = CellSets::default();
        let mut ws: Vec<WindowId> = Vec::new();
        let mut examined = 0usize;
        let mut partner = vec![false; cells];
        let mut consider = |board: &mut Board, cells: &[Cell]| -> bool {
            examined += 1;
            if examined > MAX_COMBINATIONS || clock::interrupted() {
                return false;
            }
            let blocks =
                (0..must_block.len()).all(|i| must_block.set(i).iter().any(|c| cells.contains(c)));
            if !blocks {
                return true;
            }
            for &c in cells {
                board.place(c, me);
            }
            ws.clear();
            ws.extend_from_slice(&base);
            for &c in cells {
                for &w in board.geometry().windows_through(c) {
                    if board.live_for(w, me) && board.empties(w) <= p {
                        ws.push(w);
                    }
                }
            }
            ws.sort_unstable();
            ws.dedup();
            sets.clear();
            for &w in &ws {
                sets.push_window(board, w);
            }
            let t = sets.min_hitting_set(u32::from(p));
            for &c in cells.iter().rev() {
                board.remove(c);
            }
            if t >= u32::from(p) {
                out.push(Candidate {
                    cells: cells.to_vec(),
                    threats: t,
                    spread: sets.union().len(),
                });
            }
            true
        };
        let board = &mut self.board;
        match stones {
            1 => {
                for &a in &cand {
                    if (solo[usize::from(a)] || !must_block.is_empty()) && !consider(board, &[a]) {
                        break;
                    }
                }
            }
            2 => {
                let mut pw: Vec<WindowId> = Vec::new();
                board.windows_within(me, p.saturating_add(2), &mut pw);
                'outer: for (i, &a) in cand.iter().enumerate() {
                    let a_solo = solo[usize::from(a)];
                    let mut marked = Vec::new();
                    if !a_solo {
                        for &w in board.geometry().windows_through(a) {
                            if pw.binary_search(&w).is_ok() {
                                for &c in board.geometry().window(w) {
                                    partner[usize::from(c)] = true;
                                    marked.push(c);
                                }
                            }
                        }
                    }
                    for &b in &cand[i + 1..] {
                        let useful = a_solo
                            || solo[usize::from(b)]
                            || partner[usize::from(b)]
                            || !must_block.is_empty();
                        if useful && !consider(board, &[a, b]) {
                            for c in marked {
                                partner[usize::from(c)] = false;
                            }
                            break 'outer;
                        }
                    }
                    for c in marked {
                        partner[usize::from(c)] = false;
                    }
                }
            }
            _ => {
                for_each_combination(&cand, usize::from(stones), &mut combo, &mut |c| {
                    consider(board, c)
                });
            }
        }
        if clock::tripped() {
            self.aborted = true;
            self.interrupted = true;
        }
        out.sort_by(|a, b| {
            let wa = a.threats > u32::from(p);
            let wb = b.threats > u32::from(p);
            wb.cmp(&wa)
                .then(a.spread.cmp(&b.spread))
                .then(a.cells.cmp(&b.cells))
        });
        out
    }
}

/// Calls `f` on every `r`-element combination of `items` in lexicographic
/// order until it returns false.
fn for_each_combination(
    items: &[Cell],
    r: usize,
    combo: &mut Vec<Cell>,
    f: &mut dyn FnMut(&[Cell]) -> bool,
) -> bool {
    fn rec(
        items: &[Cell],
        start: usize,
        r: usize,
        combo: &mut Vec<Cell>,
        f: &mut dyn FnMut(&[Cell]) -> bool,
    ) -> bool {
        if combo.len() == r {
            return f(combo);
        }
        let need = r - combo.len();
        for i in start..items.len() {
            if items.len() - i < need {
                break;
            }
            combo.push(items[i]);
            let go_on = rec(items, i + 1, r, combo, f);
            combo.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
    combo.clear();
    rec(items, 0, r, combo, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_in_lexicographic_order() {
        let mut seen = Vec::new();
        let mut combo = Vec::new();
        for_each_combination(&[1, 2, 3, 4], 2, &mut combo, &mut |c| {
            seen.push(c.to_vec());
            true
        });
        assert_eq!(
            seen,
            vec![
                vec![1, 2],
                vec![1, 3],
                vec![1, 4],
                vec![2, 3],
                vec![2, 4],
                vec![3, 4]
            ]
        );
    }
}

#[cfg(test)]
mod hand_made {
    use super::*;
    use crate::game::connect::Connect;
    use crate::game::Game;

    fn solve(text: &str) -> Option<u32> {
        let g = Connect::parse_connect6(text).unwrap();
        let mut v = Vcdt::new(g.board(), g.to_move(), 2, VcdtOptions::default());
        let r = v.solve(g.stones_left());
        if r.is_some() {
            assert!(v.proof_holds(g.stones_left()));
        }
        r
    }

    /// Black to move (2 stones) with a live four d10-g10 completes six at
    /// once: depth 0.
    #[test]
    fn a_live_four_is_a_win_at_depth_0() {
        assert_eq!(solve("j1 a1 a2 d10 e10 s19 s18 f10 g10 r1 r2"), Some(0));
    }

    /// Black to move with two open threes, d10-f10 and d5-f5 (White's four
    /// stones in the corners): no window has four Black stones, so no win
    /// at depth 0; g10 + g5 makes two live fours, each needing two White
    /// stones (4 threats > 2): a win at depth 1.
    #[test]
    fn two_open_threes_win_at_depth_1() {
        assert_eq!(
            solve("j1 a1 a2 d10 e10 s19 s18 f10 d5 r1 r2 e5 f5 a19 b19"),
            Some(1)
        );
    }

    /// Black to move with an open two d10 e10 (and j1 far away): every
    /// window with four Black stones after the move holds d10 and e10, so
    /// all threats lie in row 10 and there are at most 2 (a four); White
    /// blocks them, which kills every row-10 window through the four, and
    /// then no window can reach four Black stones with two more (one old
    /// stone per other line): no VCDT at any depth.
    #[test]
    fn an_open_two_has_no_vcdt() {
        assert_eq!(solve("j1 a1 a2 d10 e10 s19 s18"), None);
    }
}
