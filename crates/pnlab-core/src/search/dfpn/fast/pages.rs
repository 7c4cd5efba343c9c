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
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

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
}
