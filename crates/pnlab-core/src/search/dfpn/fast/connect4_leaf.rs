//! The frontier solver of `dfpn-fast` on Connect Four: nodes with few
//! empty cells left are answered by a null-window alpha-beta on bitboards
//! with a small table of its own, instead of being expanded by MID (the
//! split of the Othello frontier solver, [`super::othello_leaf`]: proof
//! numbers where the tree is wide and uncertain, a fast exhaustive search
//! where the subtrees are small).
//!
//! The question is "does the side to move reach a result of at least t?"
//! with t = 1 (a win) or t = 0 (at least a draw), answered as negamax over
//! booleans: `reach(n, t) = ∃ move: ¬reach(child, 1 − t)`. Only the moves
//! that survive the opponent's reply are tried
//! ([`connect4_bits::non_losing_moves`]; none left is a loss), a side that
//! can complete four wins at once, and with at most two empty cells left
//! and a safe move the game is a draw. A side that could not complete
//! four even if it got every empty cell can no longer win: a search for
//! its win fails, and its opponent's "at least a draw" holds, at once.
//! The moves are tried in the order of the cells where the mover would
//! then complete four (most first: the threats the move creates), the
//! centre columns breaking ties. Before the moves are searched, the table
//! is asked about each child (an enhanced transposition cut-off, Plaat et
//! al. 1996): a child known to be lost for the opponent answers the node.
//!
//! The table: one 64-bit word per entry, the position's mirror-symmetric
//! key, its number of empty cells and the bounds known on its result
//! (lower, upper in {−1, 0, 1}), written and read as one atomic word, so
//! threads share it without locks and never read a torn entry. Entries
//! come in buckets of two (see [`LeafTable`]); a store into a bucket that
//! holds the same position tightens its bounds. Losing an entry only costs
//! a search again.

use super::pages::PooledWords;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::game::connect4::Connect4;
use crate::game::connect4_bits as bits;
use crate::game::Game;
use crate::search::{Goal, Question};

/// Columns from the centre outwards (ties of the threat count).
const CENTRE_FIRST: [u32; 7] = [3, 2, 4, 1, 5, 0, 6];

/// The frontier solver's table (see the module comment): buckets of two
/// words on one 16-byte line, the first kept for the position with the
/// most empty cells (the largest search saved), the second replaced by
/// every other store.
pub struct LeafTable {
    /// Zeroed when the table is dropped and pooled for the next
    /// position (see [`super::pages`]).
    slots: PooledWords,
    /// Buckets − 1 (a power of two minus one).
    mask: u64,
}

/// Bits of an entry below the key: lower bound + 1 (2 bits), upper bound
/// + 1 (2 bits), empty cells (6 bits).
const KEY_SHIFT: u32 = 10;

impl LeafTable {
    /// A table of at most `bytes` (a power of two of 16-byte buckets, at
    /// least one).
    pub fn with_bytes(bytes: u64) -> LeafTable {
        let n = (bytes / 16).max(1);
        let n = 1u64 << (63 - n.leading_zeros());
        LeafTable {
            slots: PooledWords::new(2 * n as usize),
            mask: n - 1,
        }
    }

    /// Bytes of the table.
    pub fn bytes(&self) -> u64 {
        self.slots.len() as u64 * 8
    }

    #[inline]
    fn bucket_start(&self, key: u64) -> usize {
        (crate::game::mix::finalize(key) & self.mask) as usize * 2
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let i = self.bucket_start(key);
        &self.slots[i..i + 2]
    }

    /// The (lower, upper) bounds known for the position with symmetric key
    /// `key`; (−1, 1) when unknown.
    #[inline]
    fn get(&self, key: u64) -> (i32, i32) {
        for s in self.bucket(key) {
            let w = s.load(Relaxed);
            if w >> KEY_SHIFT == key {
                return ((w & 3) as i32 - 1, ((w >> 2) & 3) as i32 - 1);
            }
        }
        (-1, 1)
    }

    /// Records bounds (lower, upper) for `key` with `empty` empty cells,
    /// tightening the entry's if the bucket holds the same position.
    #[inline]
    fn put(&self, key: u64, empty: u32, lower: i32, upper: i32) {
        let start = self.bucket_start(key);
        self.slots.mark(start);
        let b = &self.slots[start..start + 2];
        let (mut lo, mut hi) = (lower, upper);
        let mut target = None;
        for (i, s) in b.iter().enumerate() {
            let w = s.load(Relaxed);
            if w >> KEY_SHIFT == key {
                lo = lo.max((w & 3) as i32 - 1);
                hi = hi.min(((w >> 2) & 3) as i32 - 1);
                target = Some(i);
                break;
            }
        }
        let i = target.unwrap_or_else(|| {
            let first = b[0].load(Relaxed);
            if first == 0 || u64::from(empty) >= (first >> 4) & 63 {
                0
            } else {
                1
            }
        });
        let word =
            key << KEY_SHIFT | u64::from(empty) << 4 | ((hi + 1) as u64) << 2 | (lo + 1) as u64;
        b[i].store(word, Relaxed);
    }
}

/// Whether the side to move (stones `mover`, all stones `occupied`)
/// reaches at least `t`, where the board or the table's bounds for the
/// position (`bounds` of its key) say it without a search (`Err`, shared
/// by the win/draw and the score solvers); else `Ok` with the position's
/// table key. A side that could not complete four even with every empty
/// cell never wins: the mover's win (t ≥ 1) is out of reach, or the
/// opponent's, and the mover at least draws (t ≤ 0).
#[inline(always)]
pub(super) fn answer_without_search(
    mover: u64,
    occupied: u64,
    t: i32,
    bounds: impl FnOnce(u64) -> (i32, i32),
) -> Result<u64, bool> {
    let empty = bits::BOARD & !occupied;
    if t >= 1 && !Connect4::has_four(mover | empty) {
        return Err(false);
    }
    if t <= 0 && !Connect4::has_four((mover ^ occupied) | empty) {
        return Err(true);
    }
    let key = bits::symmetric_key(mover, occupied);
    let (lower, upper) = bounds(key);
    if lower >= t {
        return Err(true);
    }
    if upper < t {
        return Err(false);
    }
    Ok(key)
}

/// Enhanced transposition cut-offs are tried at nodes with at least this
/// many empty cells (below, the table probes cost more than they save;
/// measured in `results/connect4.md`).
const ETC_MIN_EMPTY: u32 = 8;

/// Does the side to move (stones `mover`, all stones `occupied`) reach at
/// least `t` (0 or 1)? The side to move must not be able to win at once
/// (the callers check). Counts visited positions in `nodes`.
fn reach(mover: u64, occupied: u64, t: i32, table: &LeafTable, nodes: &mut u64) -> bool {
    *nodes += 1;
    let safe = bits::non_losing_moves(mover, occupied);
    if safe == 0 {
        // Every move lets the opponent complete four (or the board is
        // full: a draw).
        let result = if occupied == bits::BOARD { 0 } else { -1 };
        return result >= t;
    }
    if occupied.count_ones() >= 40 {
        // Two cells or fewer, no win now, a safe move: nobody completes
        // four any more.
        return 0 >= t;
    }
    let key = match answer_without_search(mover, occupied, t, |key| table.get(key)) {
        Ok(key) => key,
        Err(answer) => return answer,
    };
    let empty_count = (bits::BOARD & !occupied).count_ones();
    let (list, len) = ordered_moves(mover, occupied, safe);
    // Enhanced transposition cut-off: a child the table already knows
    // to be lost for the opponent answers the node without a search.
    if empty_count >= ETC_MIN_EMPTY {
        let theirs = mover ^ occupied;
        for &(_, cell) in &list[..len] {
            let (_, hi) = table.get(bits::symmetric_key(theirs, occupied | cell));
            if hi < 1 - t {
                table.put(key, empty_count, t, 1);
                return true;
            }
        }
    }
    for &(_, cell) in &list[..len] {
        if !reach(mover ^ occupied, occupied | cell, 1 - t, table, nodes) {
            table.put(key, empty_count, t, 1);
            return true;
        }
    }
    table.put(key, empty_count, -1, t - 1);
    false
}

/// Does the side to move at `g` reach at least `t` (any integer; results
/// are −1, 0 or 1)?
pub fn reaches(g: &Connect4, t: i32, table: &LeafTable, nodes: &mut u64) -> bool {
    if let Some(o) = g.outcome() {
        return o.score_for(g.to_move()) >= t;
    }
    if t <= -1 {
        return true;
    }
    let (mover, occupied) = bits::boards(g);
    if bits::can_win_now(mover, occupied) {
        *nodes += 1;
        return 1 >= t;
    }
    if t >= 2 {
        return false;
    }
    reach(mover, occupied, t, table, nodes)
}

/// Answers `q` at `g` exactly, counting the positions visited in `nodes`.
pub fn answer(g: &Connect4, q: &Question, table: &LeafTable, nodes: &mut u64) -> bool {
    let t = match q.goal {
        Goal::Win => 1,
        Goal::NotLose => 0,
        Goal::AtLeast(v) => v,
    };
    if g.to_move() == q.attacker {
        reaches(g, t, table, nodes)
    } else {
        // Attacker ≥ t ⇔ mover ≤ −t ⇔ not (mover ≥ 1 − t).
        !reaches(g, 1 - t, table, nodes)
    }
}

/// The cells of `safe` (one playable cell per column at most), ordered by
/// the threats each creates for `mover` (most first), the centre first
/// among equals: the move order of both leaf solvers (the win's here and
/// the score's). Returns the list and how many entries are used.
#[inline]
pub(super) fn ordered_moves(mover: u64, occupied: u64, safe: u64) -> ([(u32, u64); 7], usize) {
    let mut list = [(0u32, 0u64); 7];
    let mut len = 0;
    for (rank, &c) in CENTRE_FIRST.iter().enumerate() {
        let cell = safe & bits::column_bits(c);
        if cell == 0 {
            continue;
        }
        let threats = bits::winning_cells(mover | cell, occupied | cell).count_ones();
        let score = threats * 8 + (7 - rank as u32);
        let mut i = len;
        while i > 0 && list[i - 1].0 < score {
            list[i] = list[i - 1];
            i -= 1;
        }
        list[i] = (score, cell);
        len += 1;
    }
    (list, len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::reference;
    use crate::search::test_support::agrees_with_reference;

    /// Positions from seeded random play with `left` empty cells (none
    /// already decided).
    fn random_positions(count: usize, left: u32) -> Vec<Connect4> {
        use rand::{Rng, SeedableRng};
        let mut out = Vec::new();
        let mut seed = 0u64;
        while out.len() < count {
            seed += 1;
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let mut g = Connect4::new();
            let mut moves = Vec::new();
            while 42 - u32::from(g.stones()) > left && g.outcome().is_none() {
                moves.clear();
                g.legal_moves(&mut moves);
                g.play(moves[rng.random_range(0..moves.len())]);
            }
            if g.outcome().is_none() {
                out.push(g);
            }
        }
        out
    }

    /// The frontier solver against the project's exhaustive reference
    /// (plain minimax over the `Game` trait) on seeded random positions,
    /// for both players and every goal; one shared table across them all.
    #[test]
    fn agrees_with_the_reference_minimax() {
        let table = LeafTable::with_bytes(1 << 16);
        let positions = (6..=12).flat_map(|left| random_positions(20, left));
        for (i, g) in positions.enumerate() {
            let goals = [
                Goal::Win,
                Goal::NotLose,
                Goal::AtLeast(1),
                Goal::AtLeast(-1),
            ];
            let what = format!("position {i} {g:?}");
            agrees_with_reference(&g, &goals, &what, |q| answer(&g, q, &table, &mut 0));
        }
    }

    #[test]
    fn agrees_with_the_reference_on_deeper_positions() {
        let table = LeafTable::with_bytes(1 << 12);
        for g in random_positions(30, 14) {
            let q = Question {
                attacker: g.to_move(),
                goal: Goal::Win,
            };
            let mut n = 0;
            assert_eq!(
                answer(&g, &q, &table, &mut n),
                reference::answer(&g, &q),
                "{g:?}"
            );
        }
    }
}
