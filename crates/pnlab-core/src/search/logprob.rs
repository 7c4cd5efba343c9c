//! Probabilities kept accurate at both ends, for PPN-search
//! (docs/algorithms.md §5.1: "products of many probabilities underflow to 0 and
//! 1 − Π(…) rounds to 1 long before a node is proven").
//!
//! A probability p is stored as the pair (ln p, ln(1 − p)). Near 0 the
//! first keeps full relative precision of p, near 1 the second keeps full
//! relative precision of 1 − p, so neither a deep AND product (p ≈ 1e-400)
//! nor a wide OR (1 − p ≈ 1e-400) loses the ordering between siblings.
//!
//! The OR rule 1 − Π(1 − pᵢ) is a sum of the `ln(1 − pᵢ)`; the AND rule
//! Π pᵢ is a sum of the `ln pᵢ`, and AND is OR with the roles of p and
//! 1 − p exchanged ([`LogProb::dual`]), so one careful routine serves both.

/// ln 2: the point (p = ½) where the two halves of the pair swap roles.
const LN2: f64 = std::f64::consts::LN_2;

/// Below this magnitude a sum of `ln(1 − pᵢ)` may have lost precision to
/// subnormal terms; there every pᵢ < 1e-280 and the first-order rule
/// 1 − Π(1 − pᵢ) = Σ pᵢ (relative error < 1e-280) is used instead.
const TINY: f64 = 1e-280;

/// A probability as (ln p, ln(1 − p)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogProb {
    /// ln p (−∞ for p = 0).
    pub lp: f64,
    /// ln(1 − p) (−∞ for p = 1).
    pub lq: f64,
}

/// ln(1 − eˣ) for x ≤ 0, accurate over the whole range (Mächler 2012's
/// two-branch rule).
#[inline]
pub fn log1mexp(x: f64) -> f64 {
    if x > -LN2 {
        (-x.exp_m1()).ln()
    } else {
        (-x.exp()).ln_1p()
    }
}

/// ln Σ eˣⁱ, −∞ for an empty or all-−∞ input.
pub fn logsumexp(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let m = xs.clone().fold(f64::NEG_INFINITY, f64::max);
    if m == f64::NEG_INFINITY {
        return m;
    }
    m + xs.map(|x| (x - m).exp()).sum::<f64>().ln()
}

impl LogProb {
    /// Certainty (a proven node).
    pub const ONE: LogProb = LogProb {
        lp: 0.0,
        lq: f64::NEG_INFINITY,
    };
    /// Impossibility (a disproven node).
    pub const ZERO: LogProb = LogProb {
        lp: f64::NEG_INFINITY,
        lq: 0.0,
    };

    /// From a plain probability in [0, 1].
    pub fn from_prob(p: f64) -> LogProb {
        LogProb {
            lp: p.ln(),
            lq: (-p).ln_1p(),
        }
    }

    /// p as a float (rounds to 1 when 1 − p < 1e-17; use the pair to compare).
    pub fn prob(self) -> f64 {
        if self.lp > -LN2 {
            -self.lq.exp_m1()
        } else {
            self.lp.exp()
        }
    }

    /// The pair of 1 − p.
    #[inline]
    pub fn dual(self) -> LogProb {
        LogProb {
            lp: self.lq,
            lq: self.lp,
        }
    }

    /// Whether p(self) > p(other), decided on whichever half of the pair is
    /// precise for the two values (ln p below ½, ln(1 − p) above).
    #[inline]
    pub fn greater(self, other: LogProb) -> bool {
        if self.lp < -LN2 || other.lp < -LN2 {
            self.lp > other.lp
        } else {
            self.lq < other.lq
        }
    }

    /// Whether p(self) < p(other).
    #[inline]
    pub fn less(self, other: LogProb) -> bool {
        other.greater(self)
    }

    /// OR rule: 1 − Π(1 − pᵢ) (docs/algorithms.md §5.1).
    pub fn or_all(children: impl Iterator<Item = LogProb> + Clone) -> LogProb {
        let s: f64 = children.clone().map(|c| c.lq).sum();
        if s <= -TINY {
            LogProb {
                lp: log1mexp(s),
                lq: s,
            }
        } else {
            // Every pᵢ < 1e-280: 1 − Π(1 − pᵢ) = Σ pᵢ to first order, and
            // −ln(1 − p) = p to first order.
            let lp = logsumexp(children.map(|c| c.lp));
            LogProb { lp, lq: -lp.exp() }
        }
    }

    /// AND rule: Π pᵢ = 1 − OR(1 − pᵢ).
    pub fn and_all(children: impl Iterator<Item = LogProb> + Clone) -> LogProb {
        LogProb::or_all(children.map(LogProb::dual)).dual()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases_match_plain_arithmetic() {
        let ps = [0.3, 0.5, 0.9];
        let c = ps.map(LogProb::from_prob);
        let or = LogProb::or_all(c.iter().copied()).prob();
        let and = LogProb::and_all(c.iter().copied()).prob();
        assert!((or - (1.0 - 0.7 * 0.5 * 0.1)).abs() < 1e-15);
        assert!((and - 0.3 * 0.5 * 0.9).abs() < 1e-15);
        assert!(c[2].greater(c[1]) && c[0].less(c[1]));
    }

    #[test]
    fn deep_products_keep_their_order() {
        // 400 factors of 0.01: 1e-800, far below f64's range.
        let a = LogProb::and_all(std::iter::repeat_n(LogProb::from_prob(0.01), 400));
        let b = LogProb::and_all(std::iter::repeat_n(LogProb::from_prob(0.01), 401));
        assert!(a.lp.is_finite() && (a.lp - 400.0 * 0.01f64.ln()).abs() < 1e-9);
        assert!(a.greater(b));
        // OR of tiny probabilities: first-order sum.
        let o = LogProb::or_all([a, a].into_iter());
        assert!((o.lp - (a.lp + LN2)).abs() < 1e-9);
        // The dual case: OR of 400 × 0.99 is 1 − 1e-800.
        let d = LogProb::or_all(std::iter::repeat_n(LogProb::from_prob(0.99), 400));
        let e = LogProb::or_all(std::iter::repeat_n(LogProb::from_prob(0.99), 399));
        assert!(d.greater(e) && d.prob() == 1.0 && e.prob() == 1.0);
        let f = LogProb::and_all([d, d].into_iter());
        assert!((f.lq - (d.lq + LN2)).abs() < 1e-9);
    }

    #[test]
    fn certainties_combine_exactly() {
        let half = LogProb::from_prob(0.5);
        assert_eq!(LogProb::or_all([half, LogProb::ONE].into_iter()).lp, 0.0);
        assert_eq!(
            LogProb::and_all([half, LogProb::ZERO].into_iter()).lp,
            f64::NEG_INFINITY
        );
        let o = LogProb::or_all([half, LogProb::ZERO].into_iter());
        assert!((o.prob() - 0.5).abs() < 1e-15);
    }
}
