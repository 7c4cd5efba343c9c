//! The frontier solver of `dfpn-fast` on Othello: below a few empty
//! squares a node is answered by a null-window alpha-beta search on
//! bitboards instead of being expanded by MID (the usual endgame-solver
//! split: a proof-number search where the tree is wide and uncertain, a
//! fast exhaustive search where subtrees are small).
//!
//! The search is exact: it asks "does the side to move reach a final score
//! of at least t?" (scores in the FFO/Edax convention: disc difference,
//! empties to the winner) and answers it by negamax over booleans,
//! `reach(p, o, t) = ∃ move: ¬reach(o', p', 1 − t)`, a pass being the one
//! move when only the opponent can play. Everything below only changes
//! the speed, never the answer; these are the techniques of the strong
//! alpha-beta endgame solvers (Edax and its predecessors, Buro's and
//! Gunnar Andersson's programs):
//!
//! - **Transposition table with bounds** ([`LeafTable`]): for a position
//!   with at least [`TABLE_MIN`] empties, the best known bounds on its
//!   exact score (lo ≤ v ≤ hi) and the move that last succeeded. A probe
//!   whose bounds already decide the question answers it; the stored move
//!   is tried first. Entries are keyed by the full position (both
//!   bitboards), so a hit is never another position's.
//! - **Enhanced transposition cut-offs** (Plaat et al. 1996): before any
//!   child is searched, every child is probed; one whose stored upper
//!   bound already fails the child's question answers the node.
//! - **Stability cut-offs**: discs that can never be flipped bound the
//!   final score (the opponent's stable discs cap the mover's score at
//!   64 − 2s); when the bound alone decides the question, no move is
//!   searched.
//! - **Fastest-first ordering with mobility**: above [`SHALLOW`] empties,
//!   moves that leave the opponent the fewest replies (corners counted
//!   twice, as they are the most dangerous replies) go first, corners and
//!   moves into regions with an odd number of empties breaking ties.
//! - **Parity ordering** at or below [`SHALLOW`] empties: no move masks,
//!   the empty squares of the board quadrants holding an odd number of
//!   empties are tried first (the last move in a region is usually worth
//!   having), and the last empty square is scored without a search.

use super::pages::ZeroedPages;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::game::othello::bitboard::{flips, move_mask};
use crate::game::othello::Othello;
use crate::game::Game;
use crate::search::{Goal, Question};

/// At or below this many empties the moves are not ordered by mobility
/// (parity order, no table).
pub const SHALLOW: u32 = 6;

/// Positions with at least this many empties use the table.
pub const TABLE_MIN: u32 = 8;

/// Stability is computed at nodes with at least this many empties (below,
/// the search is cheaper than the test).
pub const STABILITY_MIN: u32 = 7;

/// The four corners.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The four 4×4 quadrants of the board.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The final score of a finished position from the side to move's point of
/// view: disc difference, empties to the winner.
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    let np = p.count_ones() as i32;
    let no = o.count_ones() as i32;
    let e = 64 - np - no;
    match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + e,
        std::cmp::Ordering::Less => np - no - e,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The exact final score (side to move's view) with one empty square `sq`
/// left: the mover plays it if it can, else the opponent, else nobody.
#[inline]
fn last_square_score(p: u64, o: u64, sq: u32) -> i32 {
    let bit = 1u64 << sq;
    let f = flips(p, o, sq);
    if f != 0 {
        return final_score(p | f | bit, o & !f);
    }
    let g = flips(o, p, sq);
    if g != 0 {
        return final_score(p & !g, o | g | bit);
    }
    final_score(p, o)
}

/// The empty squares of the quadrants holding an odd number of empties.
#[inline]
fn odd_regions(empty: u64) -> u64 {
    QUADRANTS
        .iter()
        .filter(|&&q| (empty & q).count_ones() & 1 == 1)
        .fold(0, |acc, &q| acc | q)
}

/// Masks of the 15 diagonals of one direction (a1–h8 parallels when
/// `rising`, a8–h1 parallels otherwise).
const fn diagonals(rising: bool) -> [u64; 15] {
    let mut t = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        let k = if rising { r + 7 - c } else { r + c };
        t[k] |= 1u64 << sq;
        sq += 1;
    }
    t
}

static RISING: [u64; 15] = diagonals(true);
static FALLING: [u64; 15] = diagonals(false);

/// The squares whose whole line in each of the four directions is filled
/// (row, column, both diagonals): a disc there can only be flipped along
/// a line with an empty square, so none of its lines can flip it.
#[inline]
fn full_lines(occ: u64) -> [u64; 4] {
    let mut rows = 0u64;
    for r in 0..8 {
        if (occ >> (8 * r)) & 0xFF == 0xFF {
            rows |= 0xFFu64 << (8 * r);
        }
    }
    let mut c = occ & (occ >> 32);
    c &= c >> 16;
    c &= c >> 8;
    let cols = (c & 0xFF).wrapping_mul(0x0101_0101_0101_0101);
    let mut rising = 0u64;
    let mut falling = 0u64;
    for (&a, &b) in RISING.iter().zip(FALLING.iter()) {
        if occ & a == a {
            rising |= a;
        }
        if occ & b == b {
            falling |= b;
        }
    }
    [rows, cols, rising, falling]
}

/// The discs of `me` that can never be flipped, as far as this cheap test
/// sees (a subset of the truly stable discs, which is all a bound needs):
/// a disc is stable when along each of the four lines through it the line
/// is full, or it touches the board's edge, or a stable disc of its own
/// colour next to it on that line; grown from the corners to a fixed
/// point.
pub fn stable_discs(me: u64, opp: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const EDGE_H: u64 = 0x8181_8181_8181_8181; // a and h files
    const EDGE_V: u64 = 0xFF00_0000_0000_00FF; // ranks 1 and 8
    const EDGE: u64 = EDGE_H | EDGE_V;
    let [rows, cols, rising, falling] = full_lines(me | opp);
    // Directions closed by the edge or a full line from the start.
    let h0 = rows | EDGE_H;
    let v0 = cols | EDGE_V;
    let r0 = rising | EDGE;
    let f0 = falling | EDGE;
    let mut stable = me & h0 & v0 & r0 & f0;
    if stable == 0 {
        return 0;
    }
    loop {
        // Neighbours along each line that are stable discs of `me`.
        let h = h0 | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H);
        let v = v0 | (stable << 8) | (stable >> 8);
        // Rising diagonal: a1–h8 direction is ±9, falling ±7.
        let r = r0 | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H);
        let f = f0 | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A);
        let next = stable | (me & h & v & r & f);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// One slot of the frontier table: three words written separately,
/// `data`, `p ^ data` and `o ^ data`; a reader accepts the slot only when
/// both give back its position, so a slot half-written by another thread
/// reads as a miss (Hyatt & Mann's lockless hashing, with the whole
/// position as the key).
struct Slot {
    data: AtomicU64,
    p: AtomicU64,
    o: AtomicU64,
}

/// What the table knows of a position (side to move's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The exact score is at least this.
    pub lo: i32,
    /// The exact score is at most this.
    pub hi: i32,
    /// The square of the move that last answered "yes", or 64.
    pub best: u32,
}

impl Bounds {
    const UNKNOWN: Bounds = Bounds {
        lo: -64,
        hi: 64,
        best: 64,
    };

    fn pack(self, empties: u32) -> u64 {
        (self.lo + 64) as u64
            | ((self.hi + 64) as u64) << 8
            | u64::from(self.best) << 16
            | u64::from(empties) << 24
            | 1 << 32
    }

    fn unpack(d: u64) -> (Bounds, u32) {
        (
            Bounds {
                lo: (d & 0xFF) as i32 - 64,
                hi: ((d >> 8) & 0xFF) as i32 - 64,
                best: ((d >> 16) & 0xFF) as u32,
            },
            ((d >> 24) & 0xFF) as u32,
        )
    }
}

/// log2 of the slots of the frontier table (2^18 slots of 24 bytes,
/// 6 MiB, touched only where used).
pub const LEAF_TABLE_BITS: u32 = 18;

/// The frontier solver's transposition table, shared by every search
/// thread without locks: two-way buckets, a store replacing the entry of
/// the smaller position (fewer empties, less work) when the bucket holds
/// two others. Losing an entry only costs time.
pub struct LeafTable {
    slots: ZeroedPages<Slot>,
    mask: usize,
}

impl std::fmt::Debug for LeafTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LeafTable({} slots)", self.slots.len())
    }
}

impl Default for LeafTable {
    fn default() -> Self {
        LeafTable::with_bits(LEAF_TABLE_BITS)
    }
}

impl LeafTable {
    /// A table of 2^bits slots (at least two).
    pub fn with_bits(bits: u32) -> LeafTable {
        let n = 1usize << bits.max(1);
        LeafTable {
            // SAFETY: a slot is three atomic integers, for which all-zero
            // bytes are a valid value (an empty slot). Zeroed pages are
            // mapped in only as the search touches them, so a search that
            // stores little pays little.
            slots: unsafe { ZeroedPages::new(n) },
            mask: n - 2,
        }
    }

    #[inline]
    fn index(&self, p: u64, o: u64) -> usize {
        let h = (p ^ o.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (h >> 20) as usize & self.mask
    }

    /// The bounds stored for the position (mover `p`, opponent `o`).
    #[inline]
    pub fn probe(&self, p: u64, o: u64) -> Option<Bounds> {
        let i = self.index(p, o);
        for s in &self.slots[i..i + 2] {
            let d = s.data.load(Relaxed);
            if d != 0 && s.p.load(Relaxed) ^ d == p && s.o.load(Relaxed) ^ d == o {
                return Some(Bounds::unpack(d).0);
            }
        }
        None
    }

    /// Stores `b` for the position with `empties` empty squares.
    #[inline]
    fn store(&self, p: u64, o: u64, empties: u32, b: Bounds) {
        let i = self.index(p, o);
        let mut victim = i;
        let mut least = u32::MAX;
        for (k, s) in self.slots[i..i + 2].iter().enumerate() {
            let d = s.data.load(Relaxed);
            if d == 0 {
                if least > 0 {
                    victim = i + k;
                    least = 0;
                }
                continue;
            }
            if s.p.load(Relaxed) ^ d == p && s.o.load(Relaxed) ^ d == o {
                victim = i + k;
                break;
            }
            let e = Bounds::unpack(d).1;
            if e < least {
                least = e;
                victim = i + k;
            }
        }
        let d = b.pack(empties);
        let s = &self.slots[victim];
        s.data.store(d, Relaxed);
        s.p.store(p ^ d, Relaxed);
        s.o.store(o ^ d, Relaxed);
    }
}

/// One frontier search: its table and its count of visited positions.
pub struct Solver<'a> {
    table: &'a LeafTable,
    /// Positions visited.
    pub nodes: u64,
}

impl<'a> Solver<'a> {
    /// A search over `table`.
    pub fn new(table: &'a LeafTable) -> Solver<'a> {
        Solver { table, nodes: 0 }
    }

    /// Does the side to move (discs `p`, opponent `o`) reach a final score
    /// of at least `t`?
    pub fn reaches(&mut self, p: u64, o: u64, t: i32) -> bool {
        self.nodes += 1;
        let empty = !(p | o);
        let n = empty.count_ones();
        if n == 0 {
            return final_score(p, o) >= t;
        }
        if n == 1 {
            return last_square_score(p, o, empty.trailing_zeros()) >= t;
        }
        if n <= SHALLOW {
            return self.reaches_shallow(p, o, t, empty);
        }
        self.reaches_deep(p, o, t, n)
    }

    /// Above [`SHALLOW`] empties: stability, the table, ETC and ordered
    /// moves (see the module comment).
    fn reaches_deep(&mut self, p: u64, o: u64, t: i32, n: u32) -> bool {
        // Past the run's deadline every answer is `false`; the caller
        // drops the result (`clock::tripped`) and nothing is stored.
        if crate::clock::interrupted() {
            return false;
        }
        if n >= STABILITY_MIN {
            // The mover's score is at most 64 − 2·(opponent's stable discs)
            // and at least 2·(own stable discs) − 64; test only when the
            // disc counts leave the bound a chance to decide.
            if 2 * o.count_ones() as i32 > 64 - t {
                let so = stable_discs(o, p).count_ones() as i32;
                if 64 - 2 * so < t {
                    return false;
                }
            }
            if 2 * p.count_ones() as i32 - 64 >= t {
                let sp = stable_discs(p, o).count_ones() as i32;
                if 2 * sp - 64 >= t {
                    return true;
                }
            }
        }
        let moves = move_mask(p, o);
        if moves == 0 {
            if move_mask(o, p) == 0 {
                return final_score(p, o) >= t;
            }
            return !self.reaches(o, p, 1 - t);
        }
        let use_table = n >= TABLE_MIN;
        let mut known = Bounds::UNKNOWN;
        if use_table {
            if let Some(b) = self.table.probe(p, o) {
                if b.lo >= t {
                    return true;
                }
                if b.hi < t {
                    return false;
                }
                known = b;
            }
        }
        let child_table = n > TABLE_MIN;
        let parity = odd_regions(!(p | o));
        // (key, square, mover's discs after, opponent's after)
        let mut list = [(0u32, 0u32, 0u64, 0u64); 34];
        let mut len = 0;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let bit = 1u64 << sq;
            let f = flips(p, o, sq);
            let np = p | f | bit;
            let no = o & !f;
            if child_table {
                // ETC: a child whose bounds already fail its question.
                if let Some(c) = self.table.probe(no, np) {
                    if c.hi < 1 - t {
                        self.save(p, o, n, known, t, true, sq);
                        return true;
                    }
                }
            }
            let key = if sq == known.best {
                0
            } else {
                let replies = move_mask(no, np);
                1 + 8 * (replies.count_ones() + (replies & CORNERS).count_ones())
                    + 2 * u32::from(bit & CORNERS == 0)
                    + u32::from(bit & parity == 0)
            };
            let mut i = len;
            while i > 0 && list[i - 1].0 > key {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (key, sq, np, no);
            len += 1;
        }
        for &(_, sq, np, no) in &list[..len] {
            if !self.reaches(no, np, 1 - t) {
                if use_table {
                    self.save(p, o, n, known, t, true, sq);
                }
                return true;
            }
        }
        if use_table {
            self.save(p, o, n, known, t, false, known.best);
        }
        false
    }

    /// Records the answer to "score ≥ t?" in the table, narrowing `known`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn save(&self, p: u64, o: u64, n: u32, known: Bounds, t: i32, yes: bool, best: u32) {
        // An answer given after the deadline may be wrong: never cached.
        if crate::clock::tripped() {
            return;
        }
        let mut b = known;
        if yes {
            b.lo = b.lo.max(t);
        } else {
            b.hi = b.hi.min(t - 1);
        }
        b.best = best;
        self.table.store(p, o, n, b);
    }

    /// [`Solver::reaches`] near the end: every empty square is tried with
    /// a direct flip computation (cheaper than a move mask when few
    /// squares are left), those of odd regions first.
    fn reaches_shallow(&mut self, p: u64, o: u64, t: i32, empty: u64) -> bool {
        let odd = odd_regions(empty);
        let mut moved = false;
        for part in [empty & odd, empty & !odd] {
            let mut rest = part;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = flips(p, o, sq);
                if f != 0 {
                    moved = true;
                    let bit = 1u64 << sq;
                    if !self.reaches(o & !f, p | f | bit, 1 - t) {
                        return true;
                    }
                }
            }
        }
        if moved {
            return false;
        }
        // No move: a pass if the opponent has one, else the game is over.
        let mut rest = empty;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            if flips(o, p, sq) != 0 {
                return !self.reaches(o, p, 1 - t);
            }
        }
        final_score(p, o) >= t
    }
}

/// Does the side to move (discs `p`, opponent `o`) reach a final score of
/// at least `t`? A search with a fresh small table; counts visited
/// positions in `nodes`.
pub fn reaches(p: u64, o: u64, t: i32, nodes: &mut u64) -> bool {
    let table = LeafTable::with_bits(12);
    let mut s = Solver::new(&table);
    let r = s.reaches(p, o, t);
    *nodes += s.nodes;
    r
}

/// Answers `q` at `g` exactly (see the module comment) with `table`,
/// counting the positions visited in `nodes`.
pub fn answer_with(g: &Othello, q: &Question, table: &LeafTable, nodes: &mut u64) -> bool {
    let side = g.to_move();
    let p = g.discs_of(side);
    let o = g.discs_of(side.other());
    // The attacker's score must reach t.
    let t = match q.goal {
        Goal::Win => 1,
        Goal::NotLose => 0,
        Goal::AtLeast(v) => v,
    };
    let mut s = Solver::new(table);
    let r = if side == q.attacker {
        s.reaches(p, o, t)
    } else {
        // Attacker ≥ t ⇔ mover ≤ −t ⇔ not (mover ≥ 1 − t).
        !s.reaches(p, o, 1 - t)
    };
    *nodes += s.nodes;
    r
}

/// [`answer_with`] on a fresh small table.
pub fn answer(g: &Othello, q: &Question, nodes: &mut u64) -> bool {
    answer_with(g, q, &LeafTable::with_bits(12), nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::random::random_othello;
    use crate::search::reference;
    use crate::search::test_support::agrees_with_reference;

    /// The bitboard solver against the project's exhaustive reference
    /// (plain negamax over the `Game` trait) on seeded random endgames,
    /// one table shared by all the questions (so stored bounds of one
    /// question answer others).
    #[test]
    fn agrees_with_the_reference_negamax() {
        let table = LeafTable::with_bits(10);
        for seed in 0..80u64 {
            let empties = 4 + (seed % 8) as u32;
            let g = random_othello(seed, empties).expect("position");
            let goals = [
                Goal::Win,
                Goal::NotLose,
                Goal::AtLeast(6),
                Goal::AtLeast(-8),
            ];
            let what = format!("seed {seed} {}", g.notation());
            agrees_with_reference(&g, &goals, &what, |q| {
                let mut n = 0;
                let answer = answer_with(&g, q, &table, &mut n);
                assert!(n > 0, "{what} {q:?}: no position visited");
                answer
            });
        }
    }

    #[test]
    fn exact_scores_by_bisection_match_the_reference_value() {
        for seed in 100..124u64 {
            let g = random_othello(seed, 7 + (seed % 3) as u32).expect("position");
            let me = g.to_move();
            let v = reference::value_for(&g, me);
            let (p, o) = (g.discs_of(me), g.discs_of(me.other()));
            let mut n = 0;
            assert!(reaches(p, o, v, &mut n), "seed {seed}");
            assert!(!reaches(p, o, v + 1, &mut n), "seed {seed}");
        }
    }

    /// Stable discs by brute force: a disc is unflippable if no sequence
    /// of moves flips it; the cheap test must find a subset of the discs
    /// that no legal continuation (searched exhaustively on small
    /// positions) ever flips.
    #[test]
    fn stable_discs_are_never_flipped() {
        fn flippable(p: u64, o: u64, watch: u64, depth: u32) -> u64 {
            // Discs of `watch` flipped in some line of play up to depth.
            if depth == 0 {
                return 0;
            }
            let mut seen = 0;
            let mut any = false;
            let moves = move_mask(p, o);
            let mut rest = moves;
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                any = true;
                let f = flips(p, o, sq);
                seen |= f & watch;
                seen |= flippable(o & !f, p | f | 1 << sq, watch & !f, depth - 1);
            }
            if !any && move_mask(o, p) != 0 {
                seen |= flippable(o, p, watch, depth - 1);
            }
            seen
        }
        let mut checked = 0;
        for seed in 0..40u64 {
            let g = random_othello(seed, 6).expect("position");
            let me = g.to_move();
            let (p, o) = (g.discs_of(me), g.discs_of(me.other()));
            for (a, b) in [(p, o), (o, p)] {
                let s = stable_discs(a, b);
                assert_eq!(s & !a, 0, "stable discs are own discs");
                assert_eq!(flippable(p, o, s, 6), 0, "seed {seed}");
                checked += s.count_ones();
            }
        }
        assert!(checked > 100, "the test saw stable discs: {checked}");
    }

    /// Full-board corner regions are found stable: a full first rank of
    /// one colour and a lone corner.
    #[test]
    fn corners_and_full_edges_are_stable() {
        let me = 0xFFu64 | 1 << 63;
        let opp = 1u64 << 20;
        let s = stable_discs(me, opp);
        assert_eq!(s, me);
        assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
    }
}
