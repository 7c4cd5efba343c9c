//! The transposition table of `dfpn-fast` and of parallel df-pn: a fixed
//! array of 64-byte buckets of four 16-byte slots, shared by every search
//! thread without locks.
//!
//! Positions are known by m = a bijective mix of their hash (so hashes with
//! weak low bits spread too). A slot is two words: `data` = pn | dn << 32
//! and `check` = (key | meta) XOR data, where key is the upper 48 bits of
//! m and meta (16 bits) the entry's work code and "left" flag. A reader
//! accepts a slot only when check XOR data gives back its key, so a slot
//! half-written by another thread (the two words are stored separately)
//! reads as a miss, never as another position's numbers (Hyatt & Mann's
//! lockless hashing). The bucket index is the low bits of m, so key and
//! index together check all 64 bits on tables of 2^16 buckets (4 MiB) or
//! more; smaller tables check at least 48.
//!
//! The table starts at 4 MiB (or the budget, if smaller) and doubles,
//! between steps of the search, when three quarters of its slots are
//! filled, up to the budget: the allocator hands out zeroed pages that the
//! system maps in on first touch, and a small search should not pay for
//! touching the pages of a large table. Growing moves each entry to the
//! bucket its next index bit names (the bit is part of the stored key).
//!
//! Replacement: a store goes to the slot holding the same position, else
//! to an empty slot, else over the slot of least work (MID calls, or
//! positions visited by the frontier solver, below the entry; kept as a
//! 15-bit logarithmic code). Losing an entry only forgets work: the
//! position counts as unknown again and is searched again, so answers
//! never change, and a full table never stops the search.
//!
//! Next to the slots, a tag array holds one byte per slot (four per
//! bucket, in one 32-bit word): a nonzero summary of the slot's key. A
//! probe reads the bucket's tag word first and reads the bucket only when
//! one of its bytes matches. Most probes of a df-pn are misses (each
//! expansion probes every child, and most are new), and the tag array
//! (a sixteenth of the slots' bytes) stays in the cache where the slots do
//! not: a miss then costs no trip to memory. The tags are only a filter:
//! a slot is accepted by its check word as before, and a tag written a
//! moment after its slot (by another thread) can only make a probe miss,
//! which forgets work and never changes an answer.
//!
//! Next to the slots, a parallel search keeps a small array of counters of
//! the threads working below each position (indexed by hash, collisions
//! allowed): Kaneko's (2010) virtual proof numbers read them.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use super::pages::{TouchedPages, ZeroedPages};
use crate::game::mix::GOLDEN;
use crate::search::pn::Pn;

/// Bytes one slot costs.
pub const SLOT_BYTES: u64 = 16;

/// Slots per bucket (one cache line).
pub const BUCKET_SLOTS: usize = 4;

/// The meta bits of a slot's check word.
const META_MASK: u64 = 0xFFFF;

/// Meta bit: the position has been searched by a MID call that returned
/// (drives `revisits`).
const LEFT_BIT: u64 = 1 << 15;

/// Counters of the busy array (a power of two).
const BUSY_SLOTS: usize = 1 << 16;

/// What a thread is doing at a busy position; the value is what it adds
/// to the position's counter (frames in the low bits, frontier solves
/// above them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// A MID call is open there (the thread is at or below it).
    Path = 1,
    /// The frontier solver is answering it.
    Frontier = 1 << 12,
}

/// One slot (see the module comment).
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Four slots on one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET_SLOTS]);

/// An entry as read from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Proof number stored for the position.
    pub pn: Pn,
    /// Disproof number stored for the position.
    pub dn: Pn,
    /// Work below the entry (decoded from its logarithmic code).
    pub work: u64,
    /// Searched by a MID call that has returned.
    pub left: bool,
}

/// log2 of the buckets of a new table (4 MiB), when the budget allows.
const START_BITS: u32 = 16;

/// log2 of the buckets of one page of the table (64 × 64 bytes = 4 KiB),
/// the unit of the `touched` map.
const PAGE_BUCKETS_LOG: u32 = 6;

/// Buckets per page.
pub const PAGE_BUCKETS: usize = 1 << PAGE_BUCKETS_LOG;

/// The bijective mix applied to a position hash (splitmix64's finaliser).
#[inline]
fn mix(hash: u64) -> u64 {
    crate::game::mix::finalize(hash)
}

/// The shared table.
pub struct FastTable {
    buckets: ZeroedPages<Bucket>,
    /// One tag byte per slot, a word per bucket (see the module comment).
    tags: ZeroedPages<AtomicU32>,
    /// log2 of the number of buckets.
    bits: u32,
    /// log2 of the most buckets the budget allows.
    max_bits: u32,
    /// Threads working below each position (parallel searches only).
    busy: Box<[AtomicU32]>,
    /// Slots filled (a score search's `retain` empties some).
    used: AtomicU64,
    /// One bit per page of buckets ([`PAGE_BUCKETS`]) a store has ever
    /// filled a slot in: `retain` reads only those pages, so a small
    /// search in a large (mostly untouched) table pays for what it used,
    /// not for the table.
    touched: TouchedPages,
    /// The most bytes the slots ever took at once: a doubling holds the
    /// old table and the new one until it is done.
    peak_bytes: u64,
}

/// The 15-bit logarithmic code of a work count: exact below 1024, then
/// five bits of mantissa per power of two; monotone in the count.
fn work_code(work: u64) -> u64 {
    if work < 1024 {
        return work;
    }
    let e = 63 - u64::from(work.leading_zeros()); // ≥ 10
    let mantissa = (work >> (e - 5)) & 31;
    1024 + (e - 10) * 32 + mantissa
}

/// The smallest count with code `code` (inverse of [`work_code`] up to its
/// rounding).
fn work_of_code(code: u64) -> u64 {
    if code < 1024 {
        return code;
    }
    let e = (code - 1024) / 32 + 10;
    let mantissa = (code - 1024) % 32;
    (32 + mantissa) << (e - 5)
}

impl FastTable {
    /// A table within `budget_bytes` (a power of two of buckets, at least
    /// one); `parallel` adds the busy counters. The last doubling holds
    /// the table of B buckets next to the one of B/2 it grows from, so B
    /// is the largest power of two with 1.5·B buckets within the budget:
    /// the slots never take more than the budget, even while growing.
    pub fn with_budget(budget_bytes: u64, parallel: bool) -> FastTable {
        let bucket_bytes = SLOT_BYTES * BUCKET_SLOTS as u64;
        let max_buckets = (budget_bytes / bucket_bytes * 2 / 3).max(1);
        let max_bits = 63 - max_buckets.leading_zeros();
        let bits = max_bits.min(START_BITS);
        FastTable {
            buckets: zeroed_buckets(1usize << bits),
            tags: zeroed_tags(1usize << bits),
            bits,
            max_bits,
            busy: if parallel {
                (0..BUSY_SLOTS).map(|_| AtomicU32::new(0)).collect()
            } else {
                Box::new([])
            },
            used: AtomicU64::new(0),
            touched: TouchedPages::new(1usize << bits, PAGE_BUCKETS_LOG),
            peak_bytes: (1u64 << bits) * bucket_bytes,
        }
    }

    /// The most bytes the slots took at once (see `peak_bytes`).
    pub fn peak_bytes(&self) -> u64 {
        self.peak_bytes
    }

    /// Number of slots.
    pub fn capacity(&self) -> u64 {
        (self.buckets.len() * BUCKET_SLOTS) as u64
    }

    /// Bytes of the slots.
    pub fn bytes(&self) -> u64 {
        self.capacity() * SLOT_BYTES
    }

    /// Slots filled so far.
    pub fn used(&self) -> u64 {
        self.used.load(Relaxed)
    }

    /// Doubles the table while three quarters of its slots are filled and
    /// the budget allows (see the module comment). Needs the table to
    /// itself: the search calls it between steps.
    pub fn grow_if_full(&mut self) {
        while self.bits < self.max_bits && self.used() * 4 >= self.capacity() * 3 {
            let bits = self.bits + 1;
            let new = zeroed_buckets(1usize << bits);
            let new_tags = zeroed_tags(new.len());
            let touched = TouchedPages::new(new.len(), PAGE_BUCKETS_LOG);
            let high = 1usize << self.bits;
            for (i, b) in self.buckets.iter().enumerate() {
                for s in &b.0 {
                    let d = s.data.load(Relaxed);
                    let c = s.check.load(Relaxed);
                    if d == 0 {
                        continue;
                    }
                    // Bit `self.bits` of m is a key bit (self.bits ≥ 16).
                    let m = (c ^ d) & !META_MASK;
                    let j = if m >> self.bits & 1 == 1 { i + high } else { i };
                    if let Some(k) = new[j].0.iter().position(|t| t.data.load(Relaxed) == 0) {
                        let t = &new[j].0[k];
                        t.data.store(d, Relaxed);
                        t.check.store(c, Relaxed);
                        set_tag(&new_tags[j], k, tag_of(m), false);
                        touched.mark(j);
                    }
                }
            }
            let both = ((self.buckets.len() + new.len()) * BUCKET_SLOTS) as u64 * SLOT_BYTES;
            self.peak_bytes = self.peak_bytes.max(both);
            let old = std::mem::replace(&mut self.buckets, new);
            let old_tags = std::mem::replace(&mut self.tags, new_tags);
            let old_touched = std::mem::replace(&mut self.touched, touched);
            recycle(old, old_tags, &old_touched);
            self.bits = bits;
        }
    }

    /// Empties every slot whose (pn, dn) `keep` rejects and keeps the
    /// others (a score search's change of question: the proofs and
    /// disproofs the new question cannot use go). Needs the table to
    /// itself: the search calls it between steps.
    /// Only the pages a store has touched are read.
    pub fn retain(&mut self, keep: impl Fn(Pn, Pn) -> bool) {
        let mut removed = 0;
        for i in self.touched.ranges(self.buckets.len()).flatten() {
            for (k, s) in self.buckets[i].0.iter().enumerate() {
                let d = s.data.load(Relaxed);
                if d != 0 && !keep(d as Pn, (d >> 32) as Pn) {
                    s.data.store(0, Relaxed);
                    s.check.store(0, Relaxed);
                    set_tag(&self.tags[i], k, 0, false);
                    removed += 1;
                }
            }
        }
        self.used.fetch_sub(removed, Relaxed);
    }

    /// Pages of buckets a store has filled a slot in (what `retain` reads).
    #[cfg(test)]
    fn touched_pages(&self) -> u64 {
        self.touched.count()
    }

    #[inline]
    fn bucket_index(&self, m: u64) -> usize {
        (m & ((1u64 << self.bits) - 1)) as usize
    }

    #[cfg(test)]
    fn bucket(&self, m: u64) -> &Bucket {
        &self.buckets[self.bucket_index(m)]
    }

    /// The entry of the position with hash `hash`, if held.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Found> {
        let m = mix(hash);
        let key = m & !META_MASK;
        let i = self.bucket_index(m);
        if !has_byte(self.tags[i].load(Relaxed), tag_of(m)) {
            return None;
        }
        for s in &self.buckets[i].0 {
            let d = s.data.load(Relaxed);
            let w = s.check.load(Relaxed) ^ d;
            if d != 0 && w & !META_MASK == key {
                return Some(Found {
                    pn: d as Pn,
                    dn: (d >> 32) as Pn,
                    work: work_of_code(w & META_MASK & !LEFT_BIT),
                    left: w & LEFT_BIT != 0,
                });
            }
        }
        None
    }

    /// Stores (pn, dn) for `hash` with `work` below it (see the module
    /// comment for the slot chosen). Returns whether an empty slot was
    /// filled.
    pub fn store(&self, hash: u64, pn: Pn, dn: Pn, work: u64, left: bool) -> bool {
        let m = mix(hash);
        let key = m & !META_MASK;
        let meta = work_code(work).min(LEFT_BIT - 1) | if left { LEFT_BIT } else { 0 };
        let data = u64::from(pn) | u64::from(dn) << 32;
        debug_assert!(data != 0, "(0, 0) is not a valid pair");
        let index = self.bucket_index(m);
        let bucket = &self.buckets[index].0;
        let mut same = None;
        let mut empty = None;
        let mut least = (0, u64::MAX);
        for (i, s) in bucket.iter().enumerate() {
            let d = s.data.load(Relaxed);
            let w = s.check.load(Relaxed) ^ d;
            if d == 0 {
                empty = empty.or(Some(i));
            } else if w & !META_MASK == key {
                same = Some(i);
                break;
            } else if (w & META_MASK & !LEFT_BIT) < least.1 {
                least = (i, w & META_MASK & !LEFT_BIT);
            }
        }
        let fresh = same.is_none() && empty.is_some();
        let victim = same.or(empty).unwrap_or(least.0);
        let s = &bucket[victim];
        s.data.store(data, Relaxed);
        s.check.store((key | meta) ^ data, Relaxed);
        set_tag(&self.tags[index], victim, tag_of(m), !self.busy.is_empty());
        if fresh {
            self.used.fetch_add(1, Relaxed);
            self.touched.mark(index);
        }
        fresh
    }

    #[inline]
    fn busy_slot(&self, hash: u64) -> Option<&AtomicU32> {
        if self.busy.is_empty() {
            return None;
        }
        let i = (hash.wrapping_mul(GOLDEN) >> 48) as usize & (BUSY_SLOTS - 1);
        Some(&self.busy[i])
    }

    /// Notes a thread entering the position `hash` (parallel searches):
    /// `Busy::Path` for a MID frame, `Busy::Frontier` for a frontier solve.
    #[inline]
    pub fn enter_busy(&self, hash: u64, how: Busy) {
        if let Some(b) = self.busy_slot(hash) {
            b.fetch_add(how as u32, Relaxed);
        }
    }

    /// Notes a thread leaving the position `hash` it entered as `how`.
    #[inline]
    pub fn leave_busy(&self, hash: u64, how: Busy) {
        if let Some(b) = self.busy_slot(hash) {
            b.fetch_sub(how as u32, Relaxed);
        }
    }

    /// Threads currently working at or below `hash`: (MID frames, frontier
    /// solves); (0, 0) in a sequential search, and collisions of the
    /// counter array may add a few.
    #[inline]
    pub fn busy(&self, hash: u64) -> (u32, u32) {
        let v = self.busy_slot(hash).map_or(0, |b| b.load(Relaxed));
        (v & (Busy::Frontier as u32 - 1), v / Busy::Frontier as u32)
    }
}

impl Drop for FastTable {
    /// The slots and tags go back to the pool with the pages stores wrote
    /// zeroed (see [`super::pages`]): the next position's table starts
    /// without page faults.
    fn drop(&mut self) {
        let buckets = std::mem::replace(&mut self.buckets, zeroed_buckets(0));
        let tags = std::mem::replace(&mut self.tags, zeroed_tags(0));
        recycle(buckets, tags, &self.touched);
    }
}

/// Gives a table's slots and tags back to the pool, zeroing the buckets of
/// the pages `touched` names (and their tag words): every store into a
/// slot marks its bucket's page, and a tag is only written with its slot.
fn recycle(buckets: ZeroedPages<Bucket>, tags: ZeroedPages<AtomicU32>, touched: &TouchedPages) {
    let len = buckets.len();
    buckets.recycle(touched.ranges(len));
    tags.recycle(touched.ranges(len));
}

/// The tag of a position with mixed hash `m`: the top byte of its key,
/// never 0 (0 marks an empty slot).
#[inline]
fn tag_of(m: u64) -> u32 {
    (m >> 56) as u32 | 1
}

/// Whether one of the four bytes of `word` is `tag`.
#[inline]
fn has_byte(word: u32, tag: u32) -> bool {
    let x = word ^ tag.wrapping_mul(0x0101_0101);
    x.wrapping_sub(0x0101_0101) & !x & 0x8080_8080 != 0
}

/// Sets slot `slot`'s byte of the tag word `word` to `tag`; `shared`
/// (several threads store into the table) makes it one atomic update, so
/// that two threads tagging slots of one bucket keep both tags.
#[inline]
fn set_tag(word: &AtomicU32, slot: usize, tag: u32, shared: bool) {
    let shift = 8 * slot as u32;
    let mask = 0xFF << shift;
    let old = word.load(Relaxed);
    let new = (old & !mask) | tag << shift;
    if old == new {
        return;
    }
    if shared {
        // A compare-and-swap loop: it never fails for long, since another
        // thread's update of this word is one store of its own.
        let _ = word.fetch_update(Relaxed, Relaxed, |o| Some((o & !mask) | tag << shift));
    } else {
        word.store(new, Relaxed);
    }
}

/// `n` zero tag words (empty slots), mapped in as they are written.
fn zeroed_tags(n: usize) -> ZeroedPages<AtomicU32> {
    // SAFETY: zero bytes are a valid `AtomicU32`; its alignment is 4.
    unsafe { ZeroedPages::new(n) }
}

/// `n` empty buckets without writing them: fresh zero pages that the
/// operating system maps in as the search touches them, so a large
/// budget (or a short position) costs only the part the search uses.
fn zeroed_buckets(n: usize) -> ZeroedPages<Bucket> {
    // SAFETY: a bucket is atomics of plain integers, for which all-zero
    // bytes are a valid value (an empty slot); its alignment is 64.
    unsafe { ZeroedPages::new(n) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_codes_are_monotone_and_fit_fifteen_bits() {
        let mut last = 0;
        for w in (0..5000u64)
            .chain((10..63).map(|e| 1u64 << e))
            .chain([u64::MAX])
        {
            let c = work_code(w);
            assert!(c >= last || w < 5000, "{w}");
            assert!(c < LEFT_BIT, "{w}");
            assert!(work_of_code(c) <= w, "{w}");
            if w >= 5000 {
                last = c;
            }
        }
        for w in 0..5000u64 {
            assert!(work_code(w + 1) >= work_code(w));
        }
    }

    #[test]
    fn stores_read_back_and_the_least_work_is_replaced() {
        // One bucket: four slots.
        let t = FastTable::with_budget(64, false);
        assert_eq!(t.capacity(), 4);
        let h = |i: u64| i << 20 | 0xABC;
        for i in 0..4 {
            assert!(t.store(h(i), 3, 4, 100 * (i + 1), false));
        }
        assert_eq!(
            t.probe(h(2)),
            Some(Found {
                pn: 3,
                dn: 4,
                work: 300,
                left: false
            })
        );
        // Full: the fifth position replaces the one with least work (h(0)).
        assert!(!t.store(h(9), 0, crate::search::pn::INF, 7, true));
        assert_eq!(t.probe(h(0)), None);
        let e = t.probe(h(9)).expect("stored");
        assert_eq!((e.pn, e.dn, e.left), (0, crate::search::pn::INF, true));
        // Same position: updated in place.
        t.store(h(3), 1, 1, 5, false);
        assert_eq!(t.probe(h(3)).map(|e| (e.pn, e.work)), Some((1, 5)));
        assert_eq!(t.used(), 4);
    }

    /// `retain` reads only the touched pages, yet misses no entry: after
    /// scattered stores (and a doubling, which moves them), every entry
    /// `keep` rejects is gone and every other one is still there.
    #[test]
    fn retain_sees_every_entry_through_the_touched_pages() {
        let mut t = FastTable::with_budget(24 << 20, false);
        let key = |i: u64| crate::game::mix::zobrist_key(i * 7919);
        for i in 0..300u64 {
            t.store(key(i), 1 + i as Pn, 7, 1, false);
        }
        // 300 entries touch at most 300 of the table's 1024 pages.
        assert!(t.touched_pages() <= 300);
        assert!(t.touched_pages() < t.capacity() / (BUCKET_SLOTS * PAGE_BUCKETS) as u64);
        t.retain(|pn, _| pn % 2 == 0);
        for i in 0..300u64 {
            let kept = t.probe(key(i)).is_some();
            assert_eq!(kept, (1 + i) % 2 == 0, "{i}");
        }
        assert_eq!(t.used(), 150);
        // After a doubling the map follows the moved entries.
        for i in 300..240_000u64 {
            t.store(key(i), 1 + i as Pn, 7, 1, false);
        }
        t.grow_if_full();
        assert_eq!(t.capacity(), 1 << 19);
        t.retain(|pn, _| pn % 3 != 0);
        for i in (0..240_000u64).step_by(97) {
            if let Some(e) = t.probe(key(i)) {
                assert!(e.pn % 3 != 0, "{i}");
            }
        }
        let held = (0..240_000u64)
            .filter(|&i| t.probe(key(i)).is_some())
            .count() as u64;
        assert_eq!(held, t.used());
    }

    /// The tag filter's byte test agrees with looking at each byte.
    #[test]
    fn has_byte_finds_exactly_the_bytes_present() {
        let mut x = 0x9E37_79B9u32;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let word = x & 0x7F7F_FFFF;
            for tag in [1u32, 0x81, (x >> 8) & 0xFF | 1, word & 0xFF | 1, 0xFF] {
                let naive = (0..4).any(|k| word >> (8 * k) & 0xFF == tag);
                assert_eq!(has_byte(word, tag), naive, "{word:#x} {tag:#x}");
            }
        }
    }

    /// Two threads storing into the same buckets keep each other's tags:
    /// every position a thread stored last in a slot is found.
    #[test]
    fn tags_survive_concurrent_stores() {
        let t = FastTable::with_budget(1 << 12, true);
        let key = |i: u64| crate::game::mix::zobrist_key(i);
        std::thread::scope(|s| {
            for part in 0..2u64 {
                let t = &t;
                s.spawn(move || {
                    for i in (part..96).step_by(2) {
                        t.store(key(i), 1 + i as Pn, 2, 1000, false);
                    }
                });
            }
        });
        // 96 positions in 64 buckets of 4 slots: no bucket overflows
        // unless five land in it; whatever is held must be found.
        let held = (0..96u64).filter(|&i| t.probe(key(i)).is_some()).count() as u64;
        assert_eq!(held, t.used());
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let t = FastTable::with_budget(64, false);
        t.store(7 << 20, 5, 6, 1, false);
        // Another thread's data word lands without its check word.
        let s = &t.bucket(mix(7 << 20)).0[0];
        s.data.store(9 | 9 << 32, Relaxed);
        assert_eq!(t.probe(7 << 20), None);
    }

    #[test]
    fn growing_keeps_every_entry() {
        // Budget 24 MiB: starts at 4 MiB (2^18 slots), may double twice
        // (16 MiB next to the 8 MiB it grows from).
        let mut t = FastTable::with_budget(24 << 20, false);
        assert_eq!(t.capacity(), 1 << 18);
        let n = 240_000u64;
        for i in 0..n {
            t.store(crate::game::mix::zobrist_key(i), 1 + i as Pn, 7, i, false);
        }
        let before: Vec<Option<Found>> = (0..n)
            .map(|i| t.probe(crate::game::mix::zobrist_key(i)))
            .collect();
        t.grow_if_full();
        assert_eq!(t.capacity(), 1 << 19);
        for i in 0..n {
            assert_eq!(
                t.probe(crate::game::mix::zobrist_key(i)),
                before[i as usize],
                "{i}"
            );
        }
        // Most stored entries survived the filling (buckets overflow at
        // this load only now and then).
        assert!(before.iter().filter(|e| e.is_some()).count() as u64 > n * 8 / 10);
        t.grow_if_full();
        assert_eq!(t.capacity(), 1 << 19, "half full: no growth");
    }

    #[test]
    fn busy_counters_count_frames_and_frontier_solves_apart() {
        let t = FastTable::with_budget(1 << 12, true);
        t.enter_busy(42, Busy::Path);
        t.enter_busy(42, Busy::Path);
        t.enter_busy(42, Busy::Frontier);
        assert_eq!(t.busy(42), (2, 1));
        t.leave_busy(42, Busy::Path);
        assert_eq!(t.busy(42), (1, 1));
        t.leave_busy(42, Busy::Frontier);
        assert_eq!(t.busy(42), (1, 0));
        let s = FastTable::with_budget(1 << 12, false);
        s.enter_busy(42, Busy::Frontier);
        assert_eq!(s.busy(42), (0, 0));
    }
}
