//! The options of the df-pn family (docs/algorithms.md §4): how unknown nodes
//! are initialised (plain or Deep df-pn), how thδ(c1) is computed (plain or
//! 1+ε), the table budget and how repetitions are treated.

use crate::search::pn::{self, Pn, INF, MAX_FINITE};

use super::ghi::Ghi;

/// How unknown nodes are initialised and how thδ(c1) is computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DfpnOptions {
    /// 1+ε trick: thδ(c1) = min(thφ(n), ⌈δ2·(1+ε)⌉); `None` = plain δ2 + 1.
    pub eps: Option<f64>,
    /// Deep df-pn (E, D): unknown nodes not in the table at depth d count
    /// E^(D−d) when D > d, else 1; `None` = plain (1, 1).
    pub deep: Option<(u32, u32)>,
    /// Table budget in bytes.
    pub budget_bytes: u64,
    /// How repeated positions are treated (only positions whose game is
    /// history-dependent have any; see [`super::ghi`]).
    pub ghi: Ghi,
}

impl Default for DfpnOptions {
    fn default() -> Self {
        DfpnOptions {
            eps: None,
            deep: None,
            budget_bytes: super::tt::DEFAULT_BUDGET_BYTES,
            ghi: Ghi::Stop,
        }
    }
}

impl DfpnOptions {
    /// docs/algorithms.md §4: the value of an unknown node not in the table at
    /// depth `d` (root = 0), saturating below `INF`.
    #[inline]
    pub fn unknown_value(&self, d: u32) -> Pn {
        match self.deep {
            Some((e, big_d)) if big_d > d && e > 1 => {
                let mut v: u64 = 1;
                for _ in 0..(big_d - d) {
                    v = v.saturating_mul(e as u64);
                    if v >= MAX_FINITE as u64 {
                        return MAX_FINITE;
                    }
                }
                v as Pn
            }
            _ => 1,
        }
    }

    /// The threshold for c1's minimised number given the second least δ2.
    #[inline]
    pub fn second_threshold(&self, delta2: Pn) -> Pn {
        if delta2 == INF {
            return INF;
        }
        match self.eps {
            None => pn::add(delta2, 1),
            Some(eps) => {
                let scaled = (delta2 as f64 * (1.0 + eps)).ceil();
                // ⌈δ2(1+ε)⌉ > δ2 for ε > 0; the max guards against a
                // rounding of δ2·ε below one ulp.
                let v = if scaled >= MAX_FINITE as f64 {
                    MAX_FINITE
                } else {
                    scaled as Pn
                };
                v.max(pn::add(delta2, 1))
            }
        }
    }
}
