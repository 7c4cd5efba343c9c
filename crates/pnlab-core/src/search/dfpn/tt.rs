//! The df-pn transposition table (docs/algorithms.md §4): (pn, dn) per position
//! hash, under a memory budget, with a replacement policy that keeps the
//! entries with the larger subtree work.
//!
//! Numbers are stored as absolute (pn, dn) rather than (φ, δ) so that a
//! position reached as an OR node and as an AND node (never in the
//! alternating games, but possible in games where one side moves twice) is
//! read consistently; [`super::mid`] converts to the φ/δ view.
//!
//! Replacement: when the table is full and a new entry is needed, a
//! collection pass evicts the evictable entries with the least `work`
//! (MID calls spent below the entry): half of them, and at least enough
//! to leave the table half full. Entries the current MID calls need are
//! never evicted: the path's own entries and those of the path nodes'
//! children (a MID loop at n must keep the results of the calls it made
//! on n's children, else it could call them again forever). If a pass
//! cannot bring the table down to half full, the budget cannot hold the
//! entries the search needs and the insert fails, which ends the run as
//! `Unknown(Memory)`. Evicting only ever forgets work: a forgotten node
//! counts as unknown again, so the answer stays right.
//!
//! Memory: the budget bounds the bytes the hash map really takes, not
//! its entries times their size. The map keeps a power of two of
//! buckets, fills at most 7/8 of them, and grows by allocating the
//! doubled map before it frees the old one; so the table holds 7/8 of
//! the largest power of two B of buckets with 1.5·B slots within the
//! budget (the map of B buckets next to the one of B/2 it grew from).
//! After a collection pass the map is rebuilt at the size its entries
//! need (again at most 1.5·B slots while it moves), which also clears
//! the marks that erased entries leave and that would otherwise make the
//! map double. [`Table::peak_bytes`] reports those bytes.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use crate::search::pn::Pn;

/// The entry has been searched by a MID call that has since returned
/// (drives `revisits`, docs/algorithms.md §9).
pub const LEFT: u8 = 1;

/// The entry's solved numbers rest on the path that led to it (`dfpn-ghi`,
/// see [`super::ghi`]).
pub const DEP: u8 = 2;

/// One table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Proof number stored for the position.
    pub pn: Pn,
    /// Disproof number stored for the position.
    pub dn: Pn,
    /// MID calls spent in this node's subtrees so far (saturating): the
    /// replacement policy keeps the entries with more work.
    pub work: u32,
    /// The child picked the last time this node was on the MID path
    /// (`seesaw_switches`, docs/algorithms.md §9).
    pub last_pick: u16,
    /// [`LEFT`] and friends.
    pub flags: u8,
    /// How many frames of the current MID path hold this position (0 or 1
    /// in acyclic games); such entries are never evicted.
    pub on_path: u8,
}

/// A cheap mixing hasher for keys that are already 64-bit position hashes.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    #[inline]
    fn write_u64(&mut self, k: u64) {
        // Zobrist keys are random already; one multiply spreads weak
        // hashes (hand-written trees) over the buckets' bits too.
        let x = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }
}

/// Bytes one entry costs: key, entry and the hash map's control byte.
pub const SLOT_BYTES: u64 = (std::mem::size_of::<u64>() + std::mem::size_of::<Entry>() + 1) as u64;

/// The default budget when the setup gives none: 256 MiB.
pub const DEFAULT_BUDGET_BYTES: u64 = 256 << 20;

/// A set of position hashes with the table's hasher.
pub type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// The transposition table.
#[derive(Clone, Debug)]
pub struct Table {
    map: HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>,
    capacity: usize,
    /// Largest number of entries held at once.
    pub peak: usize,
    /// Entries evicted by the replacement policy so far.
    pub evicted: u64,
    /// The most bytes the map took at once (see the module comment).
    peak_alloc: u64,
}

/// Bytes of a hash map of `capacity` entries (hashbrown's buckets for
/// that capacity, one slot each).
fn allocated(capacity: usize) -> u64 {
    let buckets = if capacity == 0 {
        0
    } else if capacity < 8 {
        (capacity + 1).next_power_of_two()
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    buckets as u64 * SLOT_BYTES
}

impl Table {
    /// A table whose map never takes more than `budget_bytes` (see the
    /// module comment), holding at least one entry.
    pub fn with_budget(budget_bytes: u64) -> Table {
        let slots = (budget_bytes / SLOT_BYTES * 2 / 3).clamp(1, 1 << 62);
        let buckets = 1u64 << (63 - slots.leading_zeros());
        let capacity = if buckets < 8 {
            buckets.saturating_sub(1).max(1)
        } else {
            buckets / 8 * 7
        };
        Table {
            map: HashMap::default(),
            capacity: capacity.min(usize::MAX as u64) as usize,
            peak: 0,
            evicted: 0,
            peak_alloc: 0,
        }
    }

    /// Notes the bytes of the map after a change that may have moved it
    /// from a map of `before` capacity.
    fn note_allocation(&mut self, before: usize) {
        let now = self.map.capacity();
        let bytes = if now == before {
            allocated(now)
        } else {
            allocated(now) + allocated(before)
        };
        self.peak_alloc = self.peak_alloc.max(bytes);
    }

    /// Maximum number of entries.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Number of positions held.
    #[inline]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the table holds no position.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Bytes held by the entries.
    pub fn bytes(&self) -> u64 {
        self.map.len() as u64 * SLOT_BYTES
    }

    /// Peak bytes.
    pub fn peak_bytes(&self) -> u64 {
        self.peak_alloc
    }

    /// The entry for the position with hash `key`, if held.
    #[inline]
    pub fn get(&self, key: u64) -> Option<&Entry> {
        self.map.get(&key)
    }

    /// The entry for `key`, for the caller to update in place.
    #[inline]
    pub fn get_mut(&mut self, key: u64) -> Option<&mut Entry> {
        self.map.get_mut(&key)
    }

    /// Inserts `fresh` under `key`, which must be absent, running a
    /// collection pass first when the table is full; `protected` gives the
    /// keys (besides entries on the path) the pass must keep, and is only
    /// called when a pass runs. `None` when the budget cannot hold the
    /// entry (see the module comment).
    pub fn insert_absent(
        &mut self,
        key: u64,
        fresh: Entry,
        protected: impl FnOnce() -> KeySet,
    ) -> Option<&mut Entry> {
        debug_assert!(!self.map.contains_key(&key));
        if self.map.len() >= self.capacity && !self.collect(&protected()) {
            return None;
        }
        self.peak = self.peak.max(self.map.len() + 1);
        let before = self.map.capacity();
        self.map.insert(key, fresh);
        self.note_allocation(before);
        self.map.get_mut(&key)
    }

    /// The entry for `key`, created with `fresh` when absent. Returns the
    /// entry and whether it is new, or `None` when the budget cannot hold
    /// it (see the module comment). `protected` keys (besides entries on
    /// the path) survive a collection pass.
    pub fn entry_or_insert(
        &mut self,
        key: u64,
        fresh: Entry,
        protected: &KeySet,
    ) -> Option<(&mut Entry, bool)> {
        if self.map.contains_key(&key) {
            return self.map.get_mut(&key).map(|e| (e, false));
        }
        self.insert_absent(key, fresh, || protected.clone())
            .map(|e| (e, true))
    }

    /// Evicts the half of the evictable entries with the least work;
    /// `false` when fewer than a quarter of the capacity could be freed.
    fn collect(&mut self, protected: &KeySet) -> bool {
        let keep = |k: &u64, e: &Entry| e.on_path != 0 || protected.contains(k);
        let mut works: Vec<u32> = self
            .map
            .iter()
            .filter(|(k, e)| !keep(k, e))
            .map(|(_, e)| e.work)
            .collect();
        let need = self.map.len().saturating_sub(self.capacity / 2).max(1);
        if works.len() < need {
            return false;
        }
        let free = (works.len() / 2).max(need);
        // The `free`-th smallest work: evict everything below it, then
        // entries equal to it until enough are gone (deterministic: by key
        // order would cost a sort; map iteration order is deterministic for
        // a fixed hasher and insertion history).
        let (_, &mut cut, _) = works.select_nth_unstable(free - 1);
        let below = works.iter().filter(|&&w| w < cut).count();
        let mut equal_left = free - below;
        let before = self.map.len();
        // (Before erasing: the capacity a map reports counts the marks
        // erased entries leave against it.)
        let held = self.map.capacity();
        self.map.retain(|k, e| {
            if keep(k, e) || e.work > cut {
                true
            } else if e.work < cut {
                false
            } else if equal_left > 0 {
                equal_left -= 1;
                false
            } else {
                true
            }
        });
        self.evicted += (before - self.map.len()) as u64;
        self.map.shrink_to_fit();
        self.note_allocation(held);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(work: u32) -> Entry {
        Entry {
            pn: 1,
            dn: 1,
            work,
            last_pick: 0,
            flags: 0,
            on_path: 0,
        }
    }

    #[test]
    fn replacement_keeps_the_larger_work() {
        // 12 slots of budget: a map of 8 buckets (next to the 4 it grew
        // from) holding 7 entries.
        let mut t = Table::with_budget(SLOT_BYTES * 12);
        assert_eq!(t.capacity(), 7);
        for k in 0..7u64 {
            t.entry_or_insert(k, entry(k as u32 * 10), &KeySet::default())
                .expect("room");
        }
        // Full: inserting an eighth entry evicts the four cheapest (down
        // to half full).
        t.entry_or_insert(100, entry(0), &KeySet::default())
            .expect("room after eviction");
        assert_eq!(t.len(), 4);
        for k in 4..7u64 {
            assert!(t.get(k).is_some(), "entry {k} with more work was evicted");
        }
        for k in 0..4u64 {
            assert!(t.get(k).is_none(), "entry {k} with less work was kept");
        }
        assert!(t.peak_bytes() <= SLOT_BYTES * 12, "{}", t.peak_bytes());
    }

    #[test]
    fn path_entries_are_never_evicted_and_a_full_path_fails() {
        let mut t = Table::with_budget(SLOT_BYTES * 6);
        assert_eq!(t.capacity(), 3);
        for k in 0..3u64 {
            let (e, _) = t
                .entry_or_insert(k, entry(0), &KeySet::default())
                .expect("room");
            e.on_path = 1;
        }
        assert!(t.entry_or_insert(9, entry(0), &KeySet::default()).is_none());
        assert_eq!(t.len(), 3);
    }

    /// However the entries come and go, the map's bytes (as the allocator
    /// sees them) stay within the budget: many fill-and-evict rounds.
    #[test]
    fn the_map_never_outgrows_its_budget() {
        let budget = 1u64 << 20;
        let mut t = Table::with_budget(budget);
        let mut x = 1u64;
        for i in 0..200_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            t.entry_or_insert(x, entry((i % 97) as u32), &KeySet::default())
                .expect("room");
            assert!(t.len() <= t.capacity());
        }
        assert!(t.evicted > 0);
        assert!(t.peak_bytes() <= budget, "{} > {budget}", t.peak_bytes());
        assert!(t.peak_bytes() >= budget / 2, "{}", t.peak_bytes());
    }
}
