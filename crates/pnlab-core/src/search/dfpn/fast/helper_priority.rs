//! The priority of a parallel search's helper threads.
//!
//! The main thread of a parallel df-pn runs the sequential search; the
//! helpers only add proofs it can pick up. When the machine has a core to
//! spare, a helper pays for itself; when every core is busy (other
//! programs, or a batch of searches run side by side), a helper at the
//! same priority takes CPU time from the main thread — the critical path —
//! and a parallel search ran several times slower than the sequential one.
//! So each helper lowers its own priority to the least (nice 19): on an
//! idle core it still runs at full speed; where it competes with the main
//! thread or other programs it gets a small share.
//!
//! Not the idle scheduling class (`SCHED_IDLE`): each round ends by
//! joining the helpers, and on a busy machine an idle-class helper waited
//! so long for a core to notice the end of the round that the main thread
//! stalled with it (measured: 12 Othello positions, 2.8 s sequential,
//! 9.8 s with an idle-class helper).

/// Lowers the calling thread's priority to nice 19 (Linux, where the nice
/// value is per thread). Elsewhere, or if the system refuses, the thread
/// keeps its priority: the search is the same, only its use of a busy
/// machine differs.
pub fn yield_to_other_work() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system call; `who` = 0 names the calling thread
        // on Linux. A failure leaves the thread as it was.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
        }
    }
}
