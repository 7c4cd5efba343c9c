//! CPU time, for measurements on a shared machine: a bench or an
//! experiment's calibration must not count the time other processes ran,
//! which wall time would.
//!
//! Both clocks are POSIX's (`clock_gettime` with the process's or the
//! thread's CPU-time clock), read in nanoseconds: no tick rate to assume.
//! Where no such clock exists (a web page, a non-Unix system) they answer
//! `None` and the caller falls back to wall time or leaves the column out.

use super::Duration;

/// CPU time (user + system) this process has used so far, summed over its
/// threads.
pub fn process_cpu_time() -> Option<Duration> {
    read(Clock::Process)
}

/// CPU time the calling thread has used so far.
pub fn thread_cpu_time() -> Option<Duration> {
    read(Clock::Thread)
}

enum Clock {
    Process,
    Thread,
}

#[cfg(all(unix, not(target_arch = "wasm32")))]
fn read(clock: Clock) -> Option<Duration> {
    let id = match clock {
        Clock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
        Clock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
    };
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` only writes the `timespec` it is given, which
    // lives on this stack frame for the whole call.
    let status = unsafe { libc::clock_gettime(id, &mut ts) };
    if status != 0 {
        return None;
    }
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u32::try_from(ts.tv_nsec).ok()?;
    Some(Duration::new(secs, nanos))
}

#[cfg(not(all(unix, not(target_arch = "wasm32"))))]
fn read(_clock: Clock) -> Option<Duration> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::hint::black_box;

    /// Work that takes CPU time the optimiser cannot remove.
    fn spin(rounds: u64) -> u64 {
        (0..rounds).fold(1u64, |x, i| {
            black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i))
        })
    }

    #[test]
    fn thread_time_grows_with_work_and_not_with_sleep() {
        let before = thread_cpu_time().expect("a Unix thread has a CPU clock");
        black_box(spin(20_000_000));
        let worked = thread_cpu_time().unwrap();
        assert!(
            worked > before,
            "work took no CPU time: {before:?} → {worked:?}"
        );
        // Sleeping uses no CPU: a 200 ms sleep adds far less than 200 ms.
        std::thread::sleep(Duration::from_millis(200));
        let slept = thread_cpu_time().unwrap();
        assert!(
            slept - worked < Duration::from_millis(100),
            "{worked:?} → {slept:?}"
        );
    }

    #[test]
    fn process_time_counts_every_thread() {
        let before = process_cpu_time().expect("a Unix process has a CPU clock");
        // Work on another thread, measured by that thread's own clock: the
        // process clock must have grown by at least as much.
        let other = std::thread::spawn(|| {
            let start = thread_cpu_time().unwrap();
            black_box(spin(20_000_000));
            thread_cpu_time().unwrap() - start
        })
        .join()
        .unwrap();
        let after = process_cpu_time().unwrap();
        assert!(other > Duration::ZERO);
        assert!(
            after - before >= other,
            "process {:?} < thread {other:?}",
            after - before
        );
    }
}
