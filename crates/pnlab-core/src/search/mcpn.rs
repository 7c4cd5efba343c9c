//! MCPN-search (Saito et al. 2006), docs/algorithms.md §5.2.
//!
//! PN-search rules (OR: pn = min pn(c), dn = Σ dn(c); AND: pn = Σ pn(c),
//! dn = min dn(c); least pn at OR, least dn at AND) over *real-valued*
//! numbers: an unknown frontier node gets pn = 1 − R', dn = R' where R' is
//! its playout win rate R clamped into [θ, 1 − θ]; terminal leaves are as
//! in PNS (0/∞). Expansion creates all children, each with its own K
//! playouts.
//!
//! As in PPN-search the solved status is kept in the arena's flags (a
//! node is proven only when a flag says so); the numbers of a solved node
//! are then set to the exact (0, ∞) or (∞, 0). The search itself is the
//! one both share ([`PlayoutPn`]); this file states MCPN's numbers.

use super::playout_pn::{PlayoutPn, PlayoutRule};
use super::snapshot::fmt_value;
use super::{Search, SearchError, SearchSetup};

/// Real-valued proof and disproof numbers (∞ = `f64::INFINITY`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RealPnDn {
    /// Proof number, a real from the Monte-Carlo estimate (0 = proven).
    pub pn: f64,
    /// Disproof number, a real from the Monte-Carlo estimate (0 = disproven).
    pub dn: f64,
}

impl RealPnDn {
    /// A proven node: (0, ∞).
    pub const PROVEN: RealPnDn = RealPnDn {
        pn: 0.0,
        dn: f64::INFINITY,
    };
    /// A disproven node: (∞, 0).
    pub const DISPROVEN: RealPnDn = RealPnDn {
        pn: f64::INFINITY,
        dn: 0.0,
    };
}

/// MCPN's numbers and rules.
#[derive(Clone, Copy, Debug)]
pub struct McpnRule;

/// MCPN-search on a game `G`.
pub type Mcpn<G> = PlayoutPn<G, McpnRule>;

/// Registry constructor.
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    super::playout_pn::build::<McpnRule>(setup)
}

impl PlayoutRule for McpnRule {
    type Value = RealPnDn;
    const ALGO: &'static str = "mcpn";
    const VALUE_NAMES: &'static [&'static str] = super::pn::PN_DN_NAMES;
    const LABEL_VALUES: &'static [usize] = &[0, 1];
    const PROVEN: RealPnDn = RealPnDn::PROVEN;
    const DISPROVEN: RealPnDn = RealPnDn::DISPROVEN;

    /// (1 − R', R').
    fn from_rate(rate: f64) -> RealPnDn {
        RealPnDn {
            pn: 1.0 - rate,
            dn: rate,
        }
    }

    /// PN-search's rules (docs/algorithms.md §5.2 = §1): OR pn = min pn,
    /// dn = Σ dn; AND pn = Σ pn, dn = min dn.
    fn combine(or: bool, children: impl Iterator<Item = RealPnDn> + Clone) -> RealPnDn {
        let (mut min_pn, mut sum_pn) = (f64::INFINITY, 0.0);
        let (mut min_dn, mut sum_dn) = (f64::INFINITY, 0.0);
        for d in children {
            min_pn = min_pn.min(d.pn);
            min_dn = min_dn.min(d.dn);
            sum_pn += d.pn;
            sum_dn += d.dn;
        }
        if or {
            RealPnDn {
                pn: min_pn,
                dn: sum_dn,
            }
        } else {
            RealPnDn {
                pn: sum_pn,
                dn: min_dn,
            }
        }
    }

    /// Least pn at OR, least dn at AND.
    fn better(or: bool, a: RealPnDn, b: RealPnDn) -> bool {
        if or {
            a.pn < b.pn
        } else {
            a.dn < b.dn
        }
    }

    /// pn and dn.
    fn values(d: RealPnDn) -> Vec<f64> {
        vec![d.pn, d.dn]
    }

    /// `pn = …, dn = …` after what the game says.
    fn terminal_formula(proven: bool, d: RealPnDn) -> (String, String) {
        let what = if proven {
            "the attacker's goal holds"
        } else {
            "the goal fails"
        };
        (
            "terminal".into(),
            format!("game over: {what} → {}", pair(d)),
        )
    }

    fn solved_formula(proven: bool, d: RealPnDn) -> (String, String) {
        let what = if proven {
            "proven (flag)"
        } else {
            "disproven (flag)"
        };
        ("solved".into(), format!("{what} → {}", pair(d)))
    }

    fn frontier_formulas(d: RealPnDn, k: u32, theta: f64) -> Vec<(String, String)> {
        vec![
            (
                "pn".into(),
                format!(
                    "pn = 1 − R' = {} (R' = playout win rate over {} playouts, clamped into [{}, {}])",
                    fmt_value(d.pn),
                    k,
                    theta,
                    1.0 - theta
                ),
            ),
            ("dn".into(), format!("dn = R' = {}", fmt_value(d.dn))),
        ]
    }

    /// The min line, then the sum line, with the children's numbers.
    fn expanded_formulas(or: bool, d: RealPnDn, kids: &[RealPnDn]) -> Vec<(String, String)> {
        let shown = kids.len().min(12);
        let more = if kids.len() > shown { ", …" } else { "" };
        let pns: Vec<String> = kids[..shown].iter().map(|k| fmt_value(k.pn)).collect();
        let dns: Vec<String> = kids[..shown].iter().map(|k| fmt_value(k.dn)).collect();
        let (minf, sumf) = if or {
            (("pn", &pns, d.pn), ("dn", &dns, d.dn))
        } else {
            (("dn", &dns, d.dn), ("pn", &pns, d.pn))
        };
        let plus_more = if more.is_empty() { "" } else { " + …" };
        vec![
            (
                minf.0.into(),
                format!(
                    "{} = min({}{more}) = {}",
                    minf.0,
                    minf.1.join(", "),
                    fmt_value(minf.2)
                ),
            ),
            (
                sumf.0.into(),
                format!(
                    "{} = {}{plus_more} = {}",
                    sumf.0,
                    sumf.1.join(" + "),
                    fmt_value(sumf.2)
                ),
            ),
        ]
    }

    fn choice(or: bool, child: RealPnDn) -> String {
        let (rule, v) = if or {
            ("least pn among unsolved children (OR)", child.pn)
        } else {
            ("least dn among unsolved children (AND)", child.dn)
        };
        format!("{rule} = {}", fmt_value(v))
    }
}

/// `pn = …, dn = …`: a solved node's exact numbers in the inspector.
fn pair(d: RealPnDn) -> String {
    format!("pn = {}, dn = {}", fmt_value(d.pn), fmt_value(d.dn))
}
