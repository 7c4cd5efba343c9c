//! Proof-number arithmetic (docs/algorithms.md §0): unsigned numbers with a
//! distinguished `INF`; sums saturate at `INF` only when an operand is
//! `INF`. A sum of finite numbers is clamped to [`MAX_FINITE`] instead, so
//! it can never wrap or silently turn into a proof.

/// Proof/disproof number as stored in the compact arena.
pub type Pn = u32;

/// The distinguished infinity.
pub const INF: Pn = u32::MAX;

/// The largest finite proof number; finite sums stop here.
pub const MAX_FINITE: Pn = u32::MAX - 1;

/// `a + b` with `INF` absorbing and finite sums clamped below `INF`.
#[inline]
pub fn add(a: Pn, b: Pn) -> Pn {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(MAX_FINITE)
    }
}

/// `a + b - c` for threshold arithmetic (df-pn): `INF` stays `INF`
/// (docs/algorithms.md §4: "INF + x − y stays INF"); the finite result is
/// clamped into `[0, MAX_FINITE]`.
#[inline]
pub fn add_sub(a: Pn, b: Pn, c: Pn) -> Pn {
    if a == INF || b == INF {
        return INF;
    }
    let v = a as u64 + b as u64;
    let v = v.saturating_sub(c as u64);
    v.min(MAX_FINITE as u64) as Pn
}

/// Names of the two values a proof-number search shows per node.
pub const PN_DN_NAMES: &[&str] = &["pn", "dn"];

/// A node's (pn, dn) as the values a snapshot or a curve shows.
pub fn pn_dn_values(p: Pn, d: Pn) -> Vec<f64> {
    vec![to_f64(p), to_f64(d)]
}

/// A proof number as a float for snapshots and plots (`INF` → ∞).
#[inline]
pub fn to_f64(p: Pn) -> f64 {
    if p == INF {
        f64::INFINITY
    } else {
        p as f64
    }
}

/// Text form: `∞` for `INF`.
pub fn fmt(p: Pn) -> String {
    if p == INF {
        "∞".to_string()
    } else {
        p.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_sums_never_become_inf() {
        assert_eq!(add(MAX_FINITE, MAX_FINITE), MAX_FINITE);
        assert_eq!(add(3, 4), 7);
        assert_eq!(add(INF, 0), INF);
        assert_eq!(add(0, INF), INF);
    }

    #[test]
    fn threshold_arithmetic_keeps_inf() {
        assert_eq!(add_sub(INF, 5, 100), INF);
        assert_eq!(add_sub(10, 5, 3), 12);
        assert_eq!(add_sub(1, 1, 5), 0);
    }
}
