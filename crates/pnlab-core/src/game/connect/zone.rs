//! Relevance zones (Wu & Lin 2010; thesis §3.3.2): for a position where
//! the defender is to move, let the defender pass and ask the VCDT solver
//! for an attacker win; the zone Z of that proof is a set of cells such
//! that **every placement of the defender's remaining stones that avoids
//! Z loses** — the attacker wins with the same strategy. So the defender
//! has to put at least one stone into Z, and a search may restrict the
//! defender's next stone to Z without losing any defence.
//!
//! Z is collected while walking the proof tree (the attacker's stored
//! move at attacker nodes, every blocking reply at defender nodes), and
//! the walk checks each step again from the rules, so a zone is only
//! returned for a proof that holds. With S the defender's extra stones
//! (|S| ≤ `extra`, none in Z), Z contains:
//!
//! 1. the cells of every attacker move of the proof (S must not occupy
//!    them);
//! 2. at a node where the attacker completes a window at once: that
//!    window's empty cells;
//! 3. at every defender node: the empty cells of the attacker's threat
//!    windows (≤ p empties, no defender stone), so S blocks none of them
//!    and the defender's replies stay the same blocking sets (or fewer);
//! 4. at every defender node: the empty cells of every window without
//!    attacker stones that has at most p + `extra` empty cells, so S
//!    cannot give the defender a window it could complete in one turn
//!    (the proof's condition that the defender never wins at once still
//!    holds with S on the board).
//!
//! By induction over the proof tree the attacker's moves stay legal, the
//! threats and replies stay the same, and every leaf stays a win, in the
//! position with S added. The game also cannot end inside S: a window
//! S would complete has at most `extra` ≤ p empty cells, so the attacker's
//! first move must hit it (rule 4's check), i.e. one of its cells is in Z.

use std::collections::HashSet;

use crate::game::Player;

use super::board::{Board, Cell};
use super::threats::{immediate_win, threat_windows, CellSets};
use super::vcdt::{node_key, Vcdt, VcdtOptions};

/// Why a proof walk failed (an inconsistency between the table and the
/// rules; a sound solver never produces one, the check is a safety net).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkError {
    /// An attacker node of the proof has no proved table entry.
    Missing,
    /// A stored move or reply breaks a VCDT rule.
    Invalid,
}

/// Zone cells collected by the walk, as a bitset over the board.
struct Zone {
    bits: Vec<bool>,
}

impl Zone {
    fn add(&mut self, c: Cell) {
        self.bits[usize::from(c)] = true;
    }
    fn add_all(&mut self, cells: &[Cell]) {
        for &c in cells {
            self.add(c);
        }
    }
}

impl Vcdt {
    /// The relevance zone of the proof this solver found with the attacker
    /// to place `stones` stones now, against up to `extra` defender stones
    /// placed first; the cells are sorted. `Err` if there is no proof in
    /// the table or a step of it does not hold.
    pub fn proof_zone(&mut self, stones: u8, extra: u8) -> Result<Vec<Cell>, WalkError> {
        let mut zone = Zone {
            bits: vec![false; self.board.geometry().cells()],
        };
        let mut seen = HashSet::new();
        let mut board = self.board.clone();
        self.walk_attack(&mut board, stones, extra, &mut zone, &mut seen)?;
        Ok(zone
            .bits
            .iter()
            .enumerate()
            .filter(|(_, &b)| b)
            .map(|(c, _)| c as Cell)
            .collect())
    }

    /// Whether the proof in the table holds step by step (the walk of
    /// [`Vcdt::proof_zone`] without keeping the zone).
    pub fn proof_holds(&mut self, stones: u8) -> bool {
        self.proof_zone(stones, 0).is_ok()
    }

    fn walk_attack(
        &self,
        board: &mut Board,
        stones: u8,
        extra: u8,
        zone: &mut Zone,
        seen: &mut HashSet<u64>,
    ) -> Result<(), WalkError> {
        let me = self.attacker;
        if let Some(w) = immediate_win(board, me, stones) {
            let mut cells = Vec::new();
            board.empty_cells_of(w, &mut cells);
            zone.add_all(&cells);
            return Ok(());
        }
        let key = node_key(board, stones);
        if !seen.insert(key) {
            return Ok(());
        }
        let e = self.table.get(&key).ok_or(WalkError::Missing)?;
        if !e.proven || e.mv.len() != usize::from(stones) {
            return Err(WalkError::Missing);
        }
        let mv = e.mv.clone();
        let cells = zone.bits.len();
        let distinct = mv.windows(2).all(|w| w[0] < w[1]);
        if !distinct
            || mv
                .iter()
                .any(|&c| usize::from(c) >= cells || !board.is_empty(c))
        {
            return Err(WalkError::Invalid);
        }
        // A stone completing k would have been found by the
        // immediate-win test above.
        with_stones(board, &mv, me, |board| {
            zone.add_all(&mv);
            self.walk_defend(board, extra, zone, seen)
        })
    }

    fn walk_defend(
        &self,
        board: &mut Board,
        extra: u8,
        zone: &mut Zone,
        seen: &mut HashSet<u64>,
    ) -> Result<(), WalkError> {
        let me = self.attacker;
        let them = me.other();
        let p = self.per_turn;
        let mut sets = CellSets::default();
        // The defender must not be able to win at once.
        threat_windows(board, them, p, &mut sets);
        if !sets.is_empty() {
            return Err(WalkError::Invalid);
        }
        // Rule 4: defender windows S could bring within one turn.
        let mut near = CellSets::default();
        threat_windows(board, them, p.saturating_add(extra), &mut near);
        zone.add_all(&near.union());
        // Rule 3: the attacker's threats, at least p of them.
        threat_windows(board, me, p, &mut sets);
        zone.add_all(&sets.union());
        let t = sets.min_hitting_set(u32::from(p));
        if t < u32::from(p) {
            return Err(WalkError::Invalid);
        }
        if t > u32::from(p) {
            return Ok(());
        }
        for reply in sets.minimal_hitting_sets(usize::from(p)) {
            with_stones(board, &reply, them, |board| {
                self.walk_attack(board, p, extra, zone, seen)
            })?;
        }
        Ok(())
    }
}

/// The relevance zone for the defender `defender` to move on `board` with
/// `stones` stones left in its turn: let it pass those stones, look for an
/// attacker VCDT (turns of `per_turn` stones), and return the proof's zone
/// (sorted cells) with the solver's node count. `None` when no VCDT is
/// found within `opts`, and when the defender can complete k with its
/// `stones` stones (then it wins, and no zone applies).
pub fn relevance_zone(
    board: &Board,
    defender: Player,
    stones: u8,
    per_turn: u8,
    opts: VcdtOptions,
) -> (Option<Vec<Cell>>, u64) {
    if immediate_win(board, defender, stones).is_some() {
        return (None, 0);
    }
    let mut v = Vcdt::new(board, defender.other(), per_turn, opts);
    let found = v.solve(per_turn).is_some();
    let zone = if found {
        v.proof_zone(per_turn, stones).ok()
    } else {
        None
    };
    (zone, v.nodes())
}

/// Places `cells` for `who`, walks on with `then` unless one of the
/// stones completed a line (a walk never reaches a position where the
/// side placing them wins at once: that win is found earlier, so such a
/// stored move is invalid), and takes the stones back.
fn with_stones(
    board: &mut Board,
    cells: &[Cell],
    who: Player,
    then: impl FnOnce(&mut Board) -> Result<(), WalkError>,
) -> Result<(), WalkError> {
    let mut won = false;
    for &c in cells {
        won |= board.place(c, who);
    }
    let result = if won {
        Err(WalkError::Invalid)
    } else {
        then(board)
    };
    for &c in cells.iter().rev() {
        board.remove(c);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect::zone_game::{ZoneContext, ZoneGame, ZoneSettings};
    use crate::game::connect::Connect;
    use crate::game::Game;

    fn names(g: &Connect, cells: &[Cell]) -> Vec<String> {
        cells.iter().map(|&c| g.cell_name(c)).collect()
    }

    /// White to move (2 stones) against Black's live four d10-g10, White's
    /// stones scattered in the corners. If White passes, Black completes
    /// the first window (in window order: rows first, left to right) with
    /// two empties, b10-g10, so the zone is {b10, c10}: any White pair
    /// avoiding both cells leaves b10-g10 open. After White c10 (one stone
    /// left), b10-g10 and c10-h10 are dead and the first open window is
    /// d10-i10: Z' = {h10, i10}. After White b10 it is c10-h10: Z' =
    /// {c10, h10}. The zone search's White moves are exactly these.
    #[test]
    fn the_zone_of_a_live_four_by_hand() {
        let g = Connect::parse_connect6("j1 a1 a2 d10 e10 s19 s18 f10 g10").unwrap();
        assert_eq!((g.to_move(), g.stones_left()), (Player::Second, 2));
        let opts = VcdtOptions::default();
        let (z, _) = relevance_zone(g.board(), Player::Second, 2, 2, opts);
        assert_eq!(names(&g, &z.unwrap()), ["b10", "c10"]);
        let after = |cell: &str| {
            let mut h = g.clone();
            h.play(h.parse_move(cell).unwrap());
            h
        };
        let h = after("c10");
        let (z, _) = relevance_zone(h.board(), Player::Second, 1, 2, opts);
        assert_eq!(names(&h, &z.unwrap()), ["h10", "i10"]);
        let h = after("b10");
        let (z, _) = relevance_zone(h.board(), Player::Second, 1, 2, opts);
        assert_eq!(names(&h, &z.unwrap()), ["c10", "h10"]);
        // The same moves in the zone game (attacker Black).
        let ctx = ZoneContext::new(ZoneSettings {
            attacker: Player::First,
            attacker_moves: 5,
            vcdt: opts,
        });
        let zg = ZoneGame::new(g.clone(), ctx);
        let mut moves = Vec::new();
        zg.legal_moves(&mut moves);
        assert_eq!(names(&g, &moves), ["b10", "c10"]);
        let mut zc = zg.clone();
        zc.play(g.parse_move("c10").unwrap());
        moves.clear();
        zc.legal_moves(&mut moves);
        assert_eq!(names(&g, &moves), ["h10", "i10"]);
    }

    /// White to move; Black's only structure is the open two d10 e10 (its
    /// other stones j1, b19, s1 share no window): if White passes, Black
    /// has no VCDT (the argument of the VCDT test `an_open_two_has_no_vcdt`),
    /// so there is no zone and the zone game lets White play anywhere.
    #[test]
    fn no_vcdt_no_zone() {
        let g = Connect::parse_connect6("j1 a1 a2 d10 e10 s19 s18 b19 s1").unwrap();
        assert_eq!((g.to_move(), g.stones_left()), (Player::Second, 2));
        let (z, _) = relevance_zone(g.board(), Player::Second, 2, 2, VcdtOptions::default());
        assert_eq!(z, None);
        let ctx = ZoneContext::new(ZoneSettings {
            attacker: Player::First,
            attacker_moves: 5,
            vcdt: VcdtOptions::default(),
        });
        let mut moves = Vec::new();
        ZoneGame::new(g.clone(), ctx).legal_moves(&mut moves);
        assert_eq!(moves.len(), 361 - 9);
    }
}
