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

/// The processor the calling thread runs on now (Linux; `None` elsewhere
/// or when the system does not say).
pub fn current_cpu() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system call without arguments.
        let c = unsafe { libc::sched_getcpu() };
        usize::try_from(c).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Keeps the calling thread off processor `cpu` (the main thread's).
///
/// Why: helpers are new threads every round, and a new thread starts on
/// its parent's processor; at the least priority it then waited there
/// behind the main thread until the scheduler moved it, and a helper of a
/// two-thread search made a third of the main thread's calls on an idle
/// second core. Where there is no other processor, or the system refuses,
/// nothing changes.
pub fn stay_off_cpu(cpu: Option<usize>) {
    #[cfg(target_os = "linux")]
    {
        let Some(cpu) = cpu else { return };
        // SAFETY: `set` is a plain bit mask owned here; the calls only read
        // and write it and the calling thread's (pid 0) affinity.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            let size = std::mem::size_of::<libc::cpu_set_t>();
            if libc::sched_getaffinity(0, size, &mut set) != 0 {
                return;
            }
            if libc::CPU_COUNT(&set) < 2 || !libc::CPU_ISSET(cpu, &set) {
                return;
            }
            libc::CPU_CLR(cpu, &mut set);
            libc::sched_setaffinity(0, size, &set);
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
    }
}
