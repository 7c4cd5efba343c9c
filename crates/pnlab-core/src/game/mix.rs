//! The one 64-bit hash mixer of the project (splitmix64, Steele, Lea &
//! Flood 2014), and the two ways the games derive fixed pseudo-random keys
//! from it. Keeping one copy means every game's Zobrist keys, the P-game's
//! move values and the seeded move orders come from the same, tested
//! function.

/// The golden-ratio increment of splitmix64.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The splitmix64 finaliser: a bijective mixer with good avalanche.
#[inline]
pub const fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One splitmix64 step: the output for state `x` (state advanced by the
/// golden increment, then finalised).
#[inline]
pub const fn splitmix64(x: u64) -> u64 {
    finalize(x.wrapping_add(GOLDEN))
}

/// Zobrist key number `i`: a fixed pseudo-random 64-bit key without a
/// table file. Games salt `i` with their own constant so that two games
/// never share keys.
#[inline]
pub const fn zobrist_key(i: u64) -> u64 {
    finalize(i.wrapping_add(GOLDEN).wrapping_mul(GOLDEN))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of splitmix64 seeded with 0, from the reference
    /// implementation (Vigna, prng.di.unimi.it/splitmix64.c): state += G,
    /// then the finaliser.
    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(GOLDEN), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn zobrist_keys_are_distinct() {
        let mut keys: Vec<u64> = (0..10_000).map(zobrist_key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 10_000);
    }
}
