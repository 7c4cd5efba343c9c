//! The accepted ranges of the budget options that every edge of the
//! program takes (the command line's flags, Python's arguments, the app's
//! fields and the page's URL): one check, so a value accepted in one place
//! is accepted in all, and a value no search can use (a negative or NaN
//! time, a time longer than a `Duration` holds, a memory budget whose
//! bytes overflow) is a message naming the option instead of a panic deep
//! inside a conversion.
//!
//! The default memory budget lives here too: the command line, the
//! experiments, the bench, Python and the app all stop a search at the
//! same share of the machine's memory when no budget is given.

use core::time::Duration;

/// The longest time limit accepted, in seconds (about 31 years): far
/// beyond any run, far below where a `Duration` overflows (about 1.8e19
/// seconds).
pub const MAX_SECONDS: f64 = 1e9;

/// The largest memory budget accepted, in MiB (1 PiB): its bytes fit a
/// `u64` with room to spare.
pub const MAX_MEMORY_MIB: u64 = 1 << 30;

/// A numeric option outside its range (or not a number at all).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option} {value}: expected {expected}")]
pub struct RangeError {
    /// The option as the user wrote it (`--time-limit`, `time_limit`).
    pub option: String,
    /// The value given.
    pub value: String,
    /// The accepted range in words.
    pub expected: String,
}

/// A time limit in seconds: finite, above 0 and at most [`MAX_SECONDS`].
pub fn time_limit(option: &str, seconds: f64) -> Result<Duration, RangeError> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(RangeError {
            option: option.to_string(),
            value: seconds.to_string(),
            expected: format!("a number of seconds above 0 and at most {MAX_SECONDS:e}"),
        })
    }
}

/// A memory budget in MiB, 1 to [`MAX_MEMORY_MIB`]; returns its bytes.
pub fn memory_mib(option: &str, mib: u64) -> Result<u64, RangeError> {
    if (1..=MAX_MEMORY_MIB).contains(&mib) {
        Ok(mib << 20)
    } else {
        Err(RangeError {
            option: option.to_string(),
            value: mib.to_string(),
            expected: format!("a number of MiB from 1 to {MAX_MEMORY_MIB}"),
        })
    }
}

/// A whole number in `min..=max` (a count of threads, jobs, nodes).
pub fn count(option: &str, value: u64, min: u64, max: u64) -> Result<u64, RangeError> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(RangeError {
            option: option.to_string(),
            value: value.to_string(),
            expected: format!("a whole number from {min} to {max}"),
        })
    }
}

/// The default memory budget in MiB: half of the machine's memory (what
/// `/proc/meminfo` calls `MemTotal`), at least 512; 4,000 where the total
/// cannot be read (another system, a web page). Half leaves the rest of
/// the machine to everything else, since a search's own bookkeeping
/// (allocator slack, a table's spare capacity) comes on top of its tree.
pub fn default_memory_mib() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        // Read once: every default budget asks for it.
        static MIB: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        *MIB.get_or_init(|| {
            let text = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
            default_memory_mib_from(&text)
        })
    }
    #[cfg(target_arch = "wasm32")]
    {
        default_memory_mib_from("")
    }
}

/// [`default_memory_mib`] from the text of `/proc/meminfo`.
pub fn default_memory_mib_from(meminfo: &str) -> u64 {
    let total_kib = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse::<u64>().ok());
    match total_kib {
        Some(kib) => (kib / 2 / 1024).clamp(512, MAX_MEMORY_MIB),
        None => 4_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_outside_the_range_are_refused_not_converted() {
        for bad in [
            0.0,
            -5.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e20,
            1e308,
        ] {
            let e = time_limit("--time-limit", bad).unwrap_err();
            assert_eq!(e.option, "--time-limit");
            assert!(e.to_string().starts_with("--time-limit "), "{e}");
        }
        assert_eq!(time_limit("t", 2.5).unwrap(), Duration::from_millis(2_500));
        assert!(time_limit("t", MAX_SECONDS).is_ok());
    }

    #[test]
    fn memory_budgets_fit_in_bytes() {
        assert!(memory_mib("--memory", 0).is_err());
        assert!(memory_mib("--memory", u64::MAX).is_err());
        assert_eq!(memory_mib("--memory", 3).unwrap(), 3 * 1024 * 1024);
        assert_eq!(memory_mib("--memory", MAX_MEMORY_MIB).unwrap(), 1u64 << 50);
    }

    #[test]
    fn the_default_budget_is_half_the_machine() {
        // 24 GiB of memory (in KiB, as /proc/meminfo writes it).
        let info = "MemTotal:       25165824 kB\nMemFree:  100 kB\n";
        assert_eq!(default_memory_mib_from(info), 12 * 1024);
        assert_eq!(default_memory_mib_from("MemTotal: 100 kB\n"), 512);
        assert_eq!(default_memory_mib_from(""), 4_000);
    }
}
