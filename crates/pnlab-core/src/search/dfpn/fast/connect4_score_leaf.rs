//! The frontier solver of `dfpn-fast`'s Connect Four score search: below
//! a number of empty cells, "does the side to move reach a score of at
//! least t?" in Pascal Pons's convention, answered by a null-window
//! alpha-beta on bitboards with a table of bounds.
//!
//! Pons's score of a position for the side to move, both sides playing
//! perfectly (winning as early and losing as late as they can): 22 − k
//! when the side to move wins with its k-th stone of the game, k − 22
//! when the opponent wins with its k-th stone, 0 for a draw. With n
//! stones on the board and the side to move to play:
//!
//! - if it completes four now, its score is ⌊(43 − n)/2⌋ (the best any
//!   position with n stones can score);
//! - if every move lets the opponent complete four at once, the score is
//!   −⌊(42 − n)/2⌋;
//! - otherwise the score lies in [−⌊(40 − n)/2⌋, ⌊(41 − n)/2⌋] (no win
//!   with this stone, no loss to the next one).
//!
//! The search is negamax over booleans, `reach(n, t) = ∃ safe move:
//! ¬reach(child, 1 − t)` (the child's score is the negation, and
//! −s ≥ t ⇔ ¬(s ≥ 1 − t)); the moves that let the opponent complete four
//! at once are never better than a safe one, so only the safe moves are
//! tried ([`connect4_bits::non_losing_moves`]), in the order of the cells
//! where the mover then completes four (most first), the centre breaking
//! ties. A side that could not complete four with every empty cell never
//! wins, which settles many thresholds at once.
//!
//! The table: one 64-bit word per entry, the position's mirror-symmetric
//! key and the bounds known on its score (lower and upper, each stored
//! plus 21 in six bits), read and written as one atomic word so the
//! search threads share it. A store into the slot holding the same
//! position tightens its bounds; otherwise it replaces the slot. The
//! bounds are facts about the position whatever the threshold, so the
//! table serves every question the score search asks.

use super::connect4_leaf::answer_without_search;
use super::pages::PooledWords;
use std::sync::atomic::Ordering::Relaxed;

use crate::game::connect4::Connect4;
use crate::game::connect4_bits as bits;
use crate::game::Game;

/// Bits of an entry below the key: lower + 21 (6 bits), upper + 21 (6 bits).
const KEY_SHIFT: u32 = 12;

/// The score of a side to move that completes four now, with `n` stones
/// on the board.
#[inline]
pub fn win_now_score(n: u32) -> i32 {
    (43 - n as i32) / 2
}

/// The score of a side to move whose every move lets the opponent
/// complete four at once, with `n` stones on the board.
#[inline]
pub fn lose_next_score(n: u32) -> i32 {
    -((42 - n as i32) / 2)
}

/// The frontier solver's table of score bounds (see the module comment).
pub struct ScoreTable {
    /// Zeroed when the table is dropped and pooled for the next
    /// position (see [`super::pages`]).
    slots: PooledWords,
    mask: u64,
}

impl ScoreTable {
    /// A table of at most `bytes` (a power of two of 8-byte slots, at
    /// least one).
    pub fn with_bytes(bytes: u64) -> ScoreTable {
        let n = (bytes / 8).max(1);
        let n = 1u64 << (63 - n.leading_zeros());
        ScoreTable {
            slots: PooledWords::new(n as usize),
            mask: n - 1,
        }
    }

    /// Bytes of the table.
    pub fn bytes(&self) -> u64 {
        self.slots.len() as u64 * 8
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (crate::game::mix::finalize(key) & self.mask) as usize
    }

    /// The (lower, upper) bounds known for `key`; (−21, 21) when unknown.
    #[inline]
    fn get(&self, key: u64) -> (i32, i32) {
        let w = self.slots[self.index(key)].load(Relaxed);
        if w != 0 && w >> KEY_SHIFT == key {
            ((w & 63) as i32 - 21, ((w >> 6) & 63) as i32 - 21)
        } else {
            (-21, 21)
        }
    }

    /// Records bounds for `key`, tightening those the slot holds for it.
    #[inline]
    fn put(&self, key: u64, lower: i32, upper: i32) {
        let i = self.index(key);
        self.slots.mark(i);
        let s = &self.slots[i];
        let w = s.load(Relaxed);
        let (mut lo, mut hi) = (lower, upper);
        if w != 0 && w >> KEY_SHIFT == key {
            lo = lo.max((w & 63) as i32 - 21);
            hi = hi.min(((w >> 6) & 63) as i32 - 21);
        }
        s.store(
            key << KEY_SHIFT | ((hi + 21) as u64) << 6 | (lo + 21) as u64,
            Relaxed,
        );
    }
}

/// The range [lowest, highest] that holds the Pons score of a side to
/// move that cannot complete four now and has the `safe` moves (those
/// that do not let the opponent complete four at once), from the stones
/// alone: exact when there is no safe move (a loss to the opponent's next
/// stone, or a draw on a full board) or at most two empty cells (a draw),
/// else from the earliest win and the latest loss the stones still allow
/// (see the module comment).
#[inline]
fn range_without_win_now(occupied: u64, safe: u64) -> (i32, i32) {
    let n = occupied.count_ones();
    if safe == 0 {
        let score = if occupied == bits::BOARD {
            0
        } else {
            lose_next_score(n)
        };
        return (score, score);
    }
    if n >= 40 {
        // Two cells or fewer, no win now, a safe move: a draw.
        return (0, 0);
    }
    (-((40 - n as i32) / 2), (41 - n as i32) / 2)
}

/// The range [lowest, highest] that holds the Pons score of the side to
/// move at `g`, known without a search: exact for a finished game, a
/// win now, a loss to the opponent's next stone and the last two cells;
/// otherwise the widest the number of stones allows. What the score
/// search starts its bracket from, and what settles its thresholds above
/// the frontier (a threshold outside the range needs no search).
pub fn score_range(g: &Connect4) -> (i32, i32) {
    if g.outcome().is_some() {
        let s = super::connect4_score::final_score_for_mover(g);
        return (s, s);
    }
    let (mover, occupied) = bits::boards(g);
    if bits::can_win_now(mover, occupied) {
        let s = win_now_score(occupied.count_ones());
        return (s, s);
    }
    range_without_win_now(occupied, bits::non_losing_moves(mover, occupied))
}

/// Does the side to move (stones `mover`, all stones `occupied`), which
/// cannot complete four now, reach a score of at least `t`? Counts the
/// visited positions in `nodes`.
fn reach(mover: u64, occupied: u64, t: i32, table: &ScoreTable, nodes: &mut u64) -> bool {
    *nodes += 1;
    let safe = bits::non_losing_moves(mover, occupied);
    let (lowest, highest) = range_without_win_now(occupied, safe);
    if t <= lowest {
        return true;
    }
    if t > highest {
        return false;
    }
    let key = match answer_without_search(mover, occupied, t, |key| table.get(key)) {
        Ok(key) => key,
        Err(answer) => return answer,
    };
    let (list, len) = super::connect4_leaf::ordered_moves(mover, occupied, safe);
    for &(_, cell) in &list[..len] {
        if !reach(mover ^ occupied, occupied | cell, 1 - t, table, nodes) {
            table.put(key, t, 21);
            return true;
        }
    }
    table.put(key, -21, t - 1);
    false
}

/// Does the side to move at `g` reach a Pons score of at least `t` (any
/// integer)? A finished game scores from the side to move's view too.
pub fn reaches(g: &Connect4, t: i32, table: &ScoreTable, nodes: &mut u64) -> bool {
    if g.outcome().is_some() {
        return super::connect4_score::final_score_for_mover(g) >= t;
    }
    let (mover, occupied) = bits::boards(g);
    if bits::can_win_now(mover, occupied) {
        *nodes += 1;
        return win_now_score(occupied.count_ones()) >= t;
    }
    reach(mover, occupied, t, table, nodes)
}

/// The exact Pons score of `g` for the side to move, by null-window
/// searches over one table (a test and bench helper; the score search
/// asks [`reaches`] through df-pn instead).
pub fn score(g: &Connect4, table: &ScoreTable, nodes: &mut u64) -> i32 {
    let (mut lo, mut hi) = (-21, 21);
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if reaches(g, mid, table, nodes) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}
