//! [`move_mask`] with SSE2 (part of every x86-64 CPU, so no runtime
//! detection): the scalar version spends most of its work on eight
//! independent shift fills, and two of them fit in one 128-bit register.
//!
//! Lane 0 holds the board, lane 1 the board mirrored top to bottom (byte
//! swapped). A fill towards higher indices by 8, 7 or 9 in the mirrored
//! lane is a fill towards lower indices by 8, 9 or 7 on the board, so the
//! three vertical and diagonal shifts cover six directions in both lanes
//! at once; the two horizontal directions stay scalar. The mirror keeps
//! every file in place, so the edge mask [`INNER_FILES`] applies to both
//! lanes unchanged.

use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cvtsi128_si64, _mm_or_si128, _mm_set_epi64x, _mm_slli_epi64,
    _mm_unpackhi_epi64,
};

use super::bitboard::{run_down, run_up, INNER_FILES};

/// One direction's fill (see [`run_up`]) in both lanes, shifted onto the
/// squares just past each run: the candidate moves of that direction.
#[inline(always)]
fn fill<const S: i32, const S2: i32>(p: __m128i, o: __m128i) -> __m128i {
    // SAFETY (all intrinsics below): SSE2 is part of the x86-64 baseline.
    unsafe {
        let mut t = _mm_and_si128(o, _mm_slli_epi64::<S>(p));
        t = _mm_or_si128(t, _mm_and_si128(o, _mm_slli_epi64::<S>(t)));
        let oo = _mm_and_si128(o, _mm_slli_epi64::<S>(o));
        t = _mm_or_si128(t, _mm_and_si128(oo, _mm_slli_epi64::<S2>(t)));
        t = _mm_or_si128(t, _mm_and_si128(oo, _mm_slli_epi64::<S2>(t)));
        _mm_slli_epi64::<S>(t)
    }
}

/// The squares where the player owning `mover` may play against `other`;
/// the same mask as the scalar [`super::bitboard::move_mask_scalar`].
#[inline]
pub fn move_mask(mover: u64, other: u64) -> u64 {
    let inner = other & INNER_FILES;
    // SAFETY: SSE2 is part of the x86-64 baseline.
    let (up, down) = unsafe {
        let p = _mm_set_epi64x(mover.swap_bytes() as i64, mover as i64);
        let o = _mm_set_epi64x(other.swap_bytes() as i64, other as i64);
        let oi = _mm_set_epi64x(inner.swap_bytes() as i64, inner as i64);
        let m = _mm_or_si128(
            fill::<8, 16>(p, o),
            _mm_or_si128(fill::<7, 14>(p, oi), fill::<9, 18>(p, oi)),
        );
        (
            _mm_cvtsi128_si64(m) as u64,
            (_mm_cvtsi128_si64(_mm_unpackhi_epi64(m, m)) as u64).swap_bytes(),
        )
    };
    let side = (run_up(mover, inner, 1) << 1) | (run_down(mover, inner, 1) >> 1);
    (up | down | side) & !(mover | other)
}
