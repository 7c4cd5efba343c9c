//! PPN-search (Song, Iida, van den Herik 2019), docs/algorithms.md §5.1.
//!
//! One number per node, ppn, the estimated probability that the node is
//! proven: 1 / 0 at won / non-won terminals, the playout win rate R clamped
//! into [θ, 1 − θ] at unknown frontier nodes, 1 − Π(1 − ppn) at OR nodes
//! and Π ppn at AND nodes. Selection goes to the child with the largest ppn
//! at OR nodes and the smallest at AND nodes, skipping solved children;
//! expansion creates all children, each with its own K playouts; the
//! ancestors are updated bottom-up, stopping once a node is unchanged.
//!
//! Solved status lives in the arena's [`SOLVED`]/[`PROVEN`] flags and is
//! never read off the floats; the floats are kept as (ln p, ln(1 − p))
//! pairs ([`LogProb`]) so deep products and wide ORs keep their order.
//! The search itself is the one MCPN-search shares ([`PlayoutPn`]); this
//! file states PPN's number and rules.

use super::arena::{Arena, Idx};
use super::logprob::LogProb;
use super::playout_pn::{self, PlayoutPn, PlayoutRule};
use super::snapshot::fmt_value;
use super::{Search, SearchError, SearchSetup};

/// PPN's number and rules.
#[derive(Clone, Copy, Debug)]
pub struct PpnRule;

/// PPN-search on a game `G`.
pub type Ppn<G> = PlayoutPn<G, PpnRule>;

/// Registry constructor.
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    playout_pn::build::<PpnRule>(setup)
}

/// The child an unsolved expanded node selects (docs/algorithms.md §5.1):
/// largest ppn at OR, smallest at AND, solved children skipped, ties to the
/// leftmost. [`NONE`](super::arena::NONE) when every child is solved.
pub fn select_child<M: Copy>(arena: &Arena<M, LogProb>, n: Idx) -> Idx {
    playout_pn::select_child::<PpnRule, M>(arena, n)
}

/// Recomputes an expanded node from its children: solved flags first (from
/// the children's flags only), then the value (exact 1 / 0 when solved,
/// else the OR/AND probability rule). Returns whether anything changed.
pub fn update_node<M: Copy>(arena: &mut Arena<M, LogProb>, n: Idx) -> bool {
    playout_pn::update_node::<PpnRule, M>(arena, n)
}

impl PlayoutRule for PpnRule {
    type Value = LogProb;
    const ALGO: &'static str = "ppn";
    /// ppn and its two logarithms (which stay exact where the float ppn
    /// shows 0 or 1).
    const VALUE_NAMES: &'static [&'static str] = &["ppn", "ln_ppn", "ln_1m_ppn"];
    const LABEL_VALUES: &'static [usize] = &[0];
    const PROVEN: LogProb = LogProb::ONE;
    const DISPROVEN: LogProb = LogProb::ZERO;

    /// ppn = R'.
    fn from_rate(rate: f64) -> LogProb {
        LogProb::from_prob(rate)
    }

    /// 1 − Π(1 − ppn) at OR, Π ppn at AND.
    fn combine(or: bool, children: impl Iterator<Item = LogProb> + Clone) -> LogProb {
        if or {
            LogProb::or_all(children)
        } else {
            LogProb::and_all(children)
        }
    }

    /// Largest ppn at OR, smallest at AND.
    fn better(or: bool, a: LogProb, b: LogProb) -> bool {
        if or {
            a.greater(b)
        } else {
            a.less(b)
        }
    }

    /// ppn and its two logarithms.
    fn values(d: LogProb) -> Vec<f64> {
        vec![d.prob(), d.lp, d.lq]
    }

    fn terminal_formula(proven: bool, _: LogProb) -> (String, String) {
        let what = if proven {
            "the attacker's goal holds → ppn = 1"
        } else {
            "the goal fails → ppn = 0"
        };
        ("ppn".into(), format!("game over: {what}"))
    }

    fn solved_formula(proven: bool, _: LogProb) -> (String, String) {
        let what = if proven {
            "proven (flag) → ppn = 1"
        } else {
            "disproven (flag) → ppn = 0"
        };
        ("ppn".into(), what.to_string())
    }

    fn frontier_formulas(d: LogProb, k: u32, theta: f64) -> Vec<(String, String)> {
        vec![(
            "ppn".into(),
            format!(
                "ppn = R' = {} ({} playouts, R clamped into [{}, {}])",
                fmt_value(d.prob()),
                k,
                theta,
                1.0 - theta
            ),
        )]
    }

    /// The product rule with the children's ppn, then the two logarithms.
    fn expanded_formulas(or: bool, d: LogProb, kids: &[LogProb]) -> Vec<(String, String)> {
        let shown = kids.len().min(12);
        let more = if kids.len() > shown { " · …" } else { "" };
        let rule = if or {
            let terms: Vec<String> = kids[..shown]
                .iter()
                .map(|k| format!("(1 − {})", fmt_value(k.prob())))
                .collect();
            format!(
                "ppn = 1 − {}{more} = {}",
                terms.join("·"),
                fmt_value(d.prob())
            )
        } else {
            let terms: Vec<String> = kids[..shown].iter().map(|k| fmt_value(k.prob())).collect();
            format!("ppn = {}{more} = {}", terms.join("·"), fmt_value(d.prob()))
        };
        vec![
            ("ppn".into(), rule),
            (
                "logs".into(),
                format!("ln ppn = {:.6e}, ln(1 − ppn) = {:.6e}", d.lp, d.lq),
            ),
        ]
    }

    fn choice(or: bool, child: LogProb) -> String {
        let rule = if or {
            "largest ppn among unsolved children (OR)"
        } else {
            "smallest ppn among unsolved children (AND)"
        };
        format!("{rule}, ppn = {}", fmt_value(child.prob()))
    }
}
