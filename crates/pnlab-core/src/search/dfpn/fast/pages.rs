//! Zeroed memory that costs only what the search touches.
//!
//! A table of 64-byte-aligned buckets cannot come from `calloc`: Rust's
//! system allocator serves an alignment above 16 with an aligned
//! `malloc` followed by a `memset` of the whole block, which touches
//! every page. For a 4 MiB table that is about a thousand page faults
//! and a millisecond per position, whatever the search needs, which is
//! most of the cost of a short position. Fresh anonymous pages from
//! `mmap` are zero and page-aligned, and the system maps each one in
//! only when the search first writes it. The page (wasm32) has no
//! `mmap` and keeps the allocator's zeroed slice.
//!
//! Those first writes still cost a page fault each, and giving the pages
//! back (`munmap`) costs again: on Pons's 300 short Connect Four
//! positions the system's share was twice the search's own (0.88 s of
//! kernel time against 0.42 s). So a table that knows which pages it
//! wrote ([`TouchedPages`]) zeroes just those when it is dropped and
//! hands the mapping to a small pool ([`ZeroedPages::recycle`]); the next
//! table of the same size takes it, already mapped in, instead of asking
//! the system for fresh pages.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Mutex;

use std::ops::Deref;

/// `n` values of `T` whose all-zero bytes are a valid value, in memory
/// that is not touched until used.
pub struct ZeroedPages<T> {
    #[cfg(not(target_arch = "wasm32"))]
    ptr: *mut T,
    #[cfg(not(target_arch = "wasm32"))]
    len: usize,
    /// When `mmap` is unavailable or refused.
    boxed: Option<Box<[T]>>,
}

// SAFETY: the memory is owned by this value alone, as a `Box<[T]>` would
// be; sharing or sending it is as safe as sharing or sending `[T]`.
unsafe impl<T: Send> Send for ZeroedPages<T> {}
// SAFETY: as above, `&ZeroedPages<T>` only hands out `&[T]`.
unsafe impl<T: Sync> Sync for ZeroedPages<T> {}

/// Mappings given back by tables that zeroed what they wrote: (address,
/// bytes). Shared by all threads; held only to push or take one entry.
#[cfg(not(target_arch = "wasm32"))]
static POOL: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// At most this many bytes wait in the pool (beyond, a mapping given back
/// is unmapped): enough for the tables of a few searches run side by side.
#[cfg(not(target_arch = "wasm32"))]
const POOL_MAX_BYTES: usize = 256 << 20;

/// A pooled mapping of exactly `bytes` bytes, if one waits.
#[cfg(not(target_arch = "wasm32"))]
fn take_pooled(bytes: usize) -> Option<usize> {
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    let i = pool.iter().position(|&(_, b)| b == bytes)?;
    Some(pool.swap_remove(i).0)
}

impl<T> ZeroedPages<T> {
    /// `n` zeroed values.
    ///
    /// # Safety
    /// All-zero bytes must be a valid `T` (atomics of integers, plain
    /// integers), and `T`'s alignment at most a page (4096 bytes).
    pub unsafe fn new(n: usize) -> ZeroedPages<T> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let bytes = n.saturating_mul(std::mem::size_of::<T>());
            if bytes > 0 && std::mem::align_of::<T>() <= 4096 {
                if let Some(addr) = take_pooled(bytes) {
                    // A pooled mapping is page-aligned and all zero
                    // (`recycle` zeroed what its table wrote); the test
                    // builds check the second.
                    #[cfg(debug_assertions)]
                    {
                        // SAFETY: the pooled mapping is `bytes` long,
                        // owned by nobody else, and any byte is a valid u8.
                        let raw = unsafe { std::slice::from_raw_parts(addr as *const u8, bytes) };
                        // SAFETY: every bit pattern is a valid u64.
                        let (head, words, tail) = unsafe { raw.align_to::<u64>() };
                        assert!(
                            head.iter().chain(tail).all(|&b| b == 0)
                                && words.iter().all(|&w| w == 0),
                            "a pooled table came back with values left in it"
                        );
                    }
                    return ZeroedPages {
                        ptr: addr as *mut T,
                        len: n,
                        boxed: None,
                    };
                }
                // SAFETY: an anonymous private mapping of `bytes` bytes
                // with no address hint; the result is checked below.
                let ptr = unsafe {
                    libc::mmap(
                        std::ptr::null_mut(),
                        bytes,
                        libc::PROT_READ | libc::PROT_WRITE,
                        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                        -1,
                        0,
                    )
                };
                if ptr != libc::MAP_FAILED {
                    return ZeroedPages {
                        ptr: ptr.cast(),
                        len: n,
                        boxed: None,
                    };
                }
            }
        }
        let zeroed = Box::<[T]>::new_zeroed_slice(n);
        ZeroedPages {
            #[cfg(not(target_arch = "wasm32"))]
            ptr: std::ptr::null_mut(),
            #[cfg(not(target_arch = "wasm32"))]
            len: 0,
            // SAFETY: the caller promises all-zero bytes are a valid `T`.
            boxed: Some(unsafe { zeroed.assume_init() }),
        }
    }
}

impl<T> ZeroedPages<T> {
    /// Gives the memory back for the next table of the same size: the
    /// values of every index in `written` are zeroed first, and the
    /// mapping waits in the pool (or is unmapped, when the pool is full or
    /// the memory came from the allocator). `written` must cover every
    /// value written since [`ZeroedPages::new`]: a value outside it would
    /// reach the next table as it was left (a valid value, since all the
    /// types here are plain integers, but a stale one).
    pub fn recycle(self, written: impl Iterator<Item = std::ops::Range<usize>>) {
        #[cfg(not(target_arch = "wasm32"))]
        let mut this = self;
        #[cfg(not(target_arch = "wasm32"))]
        if this.boxed.is_none() && !this.ptr.is_null() {
            let bytes = this.len * std::mem::size_of::<T>();
            let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
            let pooled: usize = pool.iter().map(|&(_, b)| b).sum();
            if pooled + bytes <= POOL_MAX_BYTES {
                for r in written {
                    let r = r.start.min(this.len)..r.end.min(this.len);
                    // SAFETY: `r` lies within the mapping, which this
                    // value owns alone (it is consumed here); zero bytes
                    // are a valid `T` (`new`'s contract).
                    unsafe { std::ptr::write_bytes(this.ptr.add(r.start), 0, r.len()) };
                }
                pool.push((this.ptr as usize, bytes));
                // The pool owns the mapping now: nothing left to unmap.
                this.ptr = std::ptr::null_mut();
            }
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (self, written);
    }
}

/// A table of 64-bit words that marks the 64-byte lines it writes and,
/// when dropped, zeroes just those and pools its memory for the next
/// table of the same size: the frontier solvers' tables, whose stores
/// land all over the table. With 4 KiB pages as the unit a short search
/// marks nearly every page, and zeroing them cost a fifth of the score
/// search's time on Pons's begin-easy set; with lines it costs what the
/// search wrote.
pub struct PooledWords {
    words: ZeroedPages<AtomicU64>,
    touched: TouchedPages,
}

/// log2 of the words in one unit of [`PooledWords`]'s map: a 64-byte line.
const WORDS_PER_LINE_LOG: u32 = 3;

impl PooledWords {
    /// `n` zeroed words (none of them touched until used).
    pub fn new(n: usize) -> PooledWords {
        // SAFETY: an all-zero AtomicU64 is the valid value 0.
        let words = unsafe { ZeroedPages::new(n) };
        let touched = TouchedPages::new(words.len(), WORDS_PER_LINE_LOG);
        PooledWords { words, touched }
    }

    /// Notes a write of word `i` (call it before the store).
    #[inline]
    pub fn mark(&self, i: usize) {
        self.touched.mark(i);
    }
}

impl Deref for PooledWords {
    type Target = [AtomicU64];

    #[inline]
    fn deref(&self) -> &[AtomicU64] {
        &self.words
    }
}

impl Drop for PooledWords {
    fn drop(&mut self) {
        // SAFETY: a zero-length placeholder.
        let words = std::mem::replace(&mut self.words, unsafe { ZeroedPages::new(0) });
        let len = words.len();
        words.recycle(self.touched.ranges(len));
    }
}

/// One bit per page of a table's values, set when a value on the page is
/// written: what [`ZeroedPages::recycle`] must zero, and what a pass over
/// the table's entries must read (a short search in a large table then
/// pays for what it used, not for the table).
pub struct TouchedPages {
    bits: Box<[AtomicU64]>,
    /// log2 of the values on one page.
    per_page_log: u32,
}

impl TouchedPages {
    /// The map of a table of `len` values, `1 << per_page_log` to a page.
    pub fn new(len: usize, per_page_log: u32) -> TouchedPages {
        let pages = len.div_ceil(1 << per_page_log);
        TouchedPages {
            bits: (0..pages.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            per_page_log,
        }
    }

    /// Notes a write of value `i` (a relaxed read first: once a page is
    /// marked, a write pays no atomic update).
    #[inline]
    pub fn mark(&self, i: usize) {
        let page = i >> self.per_page_log;
        let (word, bit) = (&self.bits[page / 64], 1u64 << (page % 64));
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }

    /// The index ranges of the marked pages (of a table of `len` values).
    pub fn ranges(&self, len: usize) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let per_page = 1usize << self.per_page_log;
        self.bits.iter().enumerate().flat_map(move |(w, word)| {
            let mut bits = word.load(Relaxed);
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let page = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(page * per_page..((page + 1) * per_page).min(len))
            })
        })
    }

    /// Pages marked.
    #[cfg(test)]
    pub fn count(&self) -> u64 {
        self.bits
            .iter()
            .map(|w| u64::from(w.load(Relaxed).count_ones()))
            .sum()
    }
}

impl<T> Deref for ZeroedPages<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        if let Some(b) = &self.boxed {
            return b;
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            // SAFETY: `ptr` maps `len` zero-initialised (hence valid, by
            // `new`'s contract) values, alive until drop.
            unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
        }
        #[cfg(target_arch = "wasm32")]
        {
            &[]
        }
    }
}

impl<T> Drop for ZeroedPages<T> {
    fn drop(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        if self.boxed.is_none() && !self.ptr.is_null() {
            // SAFETY: the values need no drop of their own beyond their
            // bytes (`new`'s contract: plain integers or atomics), and the
            // mapping is the one `new` made, of this size.
            unsafe {
                libc::munmap(self.ptr.cast(), self.len * std::mem::size_of::<T>());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_start_at_zero_and_keep_what_is_written() {
        // SAFETY: all-zero bytes are a valid AtomicU64.
        let v = unsafe { ZeroedPages::<AtomicU64>::new(1 << 20) };
        assert_eq!(v.len(), 1 << 20);
        assert!(v.iter().step_by(4099).all(|x| x.load(Relaxed) == 0));
        v[12345].store(7, Relaxed);
        v[(1 << 20) - 1].store(9, Relaxed);
        assert_eq!(v[12345].load(Relaxed) + v[(1 << 20) - 1].load(Relaxed), 16);
        // SAFETY: as above.
        let empty = unsafe { ZeroedPages::<AtomicU64>::new(0) };
        assert!(empty.is_empty());
    }

    /// A recycled mapping comes back all zero when the written pages are
    /// named, and a table of another size never takes it.
    #[test]
    fn recycled_memory_comes_back_zeroed() {
        // An odd size of its own, so that no other test's table takes it.
        let n = (1 << 16) + 3 * 512;
        // SAFETY: all-zero bytes are a valid AtomicU64.
        let v = unsafe { ZeroedPages::<AtomicU64>::new(n) };
        let touched = TouchedPages::new(n, 9);
        for i in (0..n).step_by(997) {
            v[i].store(i as u64 + 1, Relaxed);
            touched.mark(i);
        }
        let addr = v.as_ptr() as usize;
        v.recycle(touched.ranges(n));
        // SAFETY: as above.
        let other = unsafe { ZeroedPages::<AtomicU64>::new(n + 512) };
        assert_ne!(other.as_ptr() as usize, addr);
        // SAFETY: as above.
        let again = unsafe { ZeroedPages::<AtomicU64>::new(n) };
        assert_eq!(
            again.as_ptr() as usize,
            addr,
            "the pooled mapping is reused"
        );
        assert!(again.iter().all(|x| x.load(Relaxed) == 0));
    }

    #[test]
    fn touched_pages_name_every_marked_value() {
        let t = TouchedPages::new(10_000, 6);
        for i in [0, 63, 64, 5000, 9999] {
            t.mark(i);
        }
        let ranges: Vec<_> = t.ranges(10_000).collect();
        assert_eq!(ranges, vec![0..64, 64..128, 4992..5056, 9984..10_000]);
        assert_eq!(t.count(), 4);
    }
}
