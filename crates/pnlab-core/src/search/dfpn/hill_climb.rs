//! Hill-climbing for Deep df-pn's (E, D) (thesis Algorithm 1, docs/algorithms.md
//! §4), the library side of `pnlab tune`.
//!
//! node(E, D) is the number of nodes Deep df-pn needs to solve the
//! position: its MID calls, i.e. nodes traversed including repeats (the
//! thesis' "node number (including repeatedly traversed nodes)"). Each
//! probe is a full solve capped at N; a probe that reaches the cap (or
//! runs out of table memory) counts ∞.
//!
//! Walk: start at (2, 2); at (E, D) probe the two forward neighbours
//! (E+1, D) and (E, D+1) and take the better, (E', D') (ties go to E+1, as
//! the thesis' `≤`). When to stop is the [`ClimbRule`]:
//! - [`ClimbRule::Thesis`] (the default, Algorithm 1 lines 7–8): stop only
//!   when (E', D') is worse than (E, D) *and* both of (E', D')'s own
//!   forward neighbours are worse than (E', D'), and return (E, D).
//!   Otherwise move on, even to a worse point: one step further may lead
//!   downhill again, which is how the thesis gets past noise in node(E, D).
//!   An ∞ probe counts as worse than another ∞ here (a neighbourhood of
//!   capped probes tells nothing and must not keep the walk going);
//! - [`ClimbRule::FirstMinimum`]: stop at the first point whose two forward
//!   neighbours are both worse (the reading pnlab used before).
//!
//! Under both, when the better neighbour is equal the walk is on a flat:
//! it keeps going along it; a flat that lasts [`FLAT_LIMIT`] steps (the
//! thesis' `isNotFlat()` failing) or that ends returns the smallest (E, D)
//! on the flat, i.e. where the walk entered it. The thesis' listing also
//! lowers N to the current value as it goes (line 10); pnlab keeps the cap
//! fixed, so the probes stay comparable and a capped probe (∞) never
//! stands for "worse than the current point" alone.

use std::collections::HashMap;
use std::fmt;

use crate::search::{Search, SearchSetup, Status};

use super::mid::DfpnOptions;

/// Steps along a flat after which the walk stops.
pub const FLAT_LIMIT: usize = 3;

/// Upper bound on walk steps (each costs four probes at most).
pub const MAX_STEPS: usize = 200;

/// When the walk stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ClimbRule {
    /// Thesis Algorithm 1: look one step further before stopping.
    Thesis,
    /// Stop at the first local minimum.
    FirstMinimum,
}

impl ClimbRule {
    /// The setting's word (`thesis`, `first-minimum`).
    pub fn name(self) -> &'static str {
        match self {
            ClimbRule::Thesis => "thesis",
            ClimbRule::FirstMinimum => "first-minimum",
        }
    }

    /// The rule a setting word names.
    pub fn from_name(word: &str) -> Option<ClimbRule> {
        match word {
            "thesis" => Some(ClimbRule::Thesis),
            "first-minimum" => Some(ClimbRule::FirstMinimum),
            _ => None,
        }
    }
}

/// One probe: Deep df-pn with (E, D), and the nodes it needed (`None` =
/// ∞: the cap was reached or the table ran out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Probe {
    /// Deep df-pn's base E (the initial numbers grow as E^(D−d)).
    pub e: u32,
    /// Deep df-pn's depth D (a node at depth d starts at E^(D−d)).
    pub d: u32,
    /// Nodes the run created to solve the root (`None` = ∞).
    pub nodes: Option<u64>,
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.nodes {
            Some(n) => write!(f, "E={} D={} nodes={n}", self.e, self.d),
            None => write!(f, "E={} D={} nodes=∞", self.e, self.d),
        }
    }
}

/// Every probe in the order run, and the chosen (E, D).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HillClimbResult {
    /// Every probe, in the order run.
    pub probes: Vec<Probe>,
    /// The (E, D) with the fewest nodes found.
    pub chosen: (u32, u32),
    /// node(chosen) (`None` = ∞).
    pub chosen_nodes: Option<u64>,
}

impl fmt::Display for HillClimbResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.probes {
            writeln!(f, "probe {p}")?;
        }
        let nodes = self
            .chosen_nodes
            .map_or_else(|| "∞".to_string(), |n| n.to_string());
        write!(
            f,
            "chosen E={} D={} nodes={nodes}",
            self.chosen.0, self.chosen.1
        )
    }
}

/// A probe value ordered with ∞ above every number.
fn key(v: Option<u64>) -> u64 {
    v.unwrap_or(u64::MAX)
}

/// One full solve of `setup`'s position with Deep df-pn (E, D), capped at
/// `max_nodes` MID calls.
pub fn probe(setup: &SearchSetup, e: u32, d: u32, max_nodes: u64) -> Option<u64> {
    let opts = DfpnOptions {
        deep: Some((e, d)),
        budget_bytes: setup
            .memory_limit_bytes
            .unwrap_or(super::tt::DEFAULT_BUDGET_BYTES),
        ..Default::default()
    };
    let q = setup.root_question();
    let mut s: Box<dyn Search> =
        crate::with_position!(&setup.position, g => super::new_dfpn("deep-dfpn", g, q, opts));
    loop {
        match s.status() {
            Status::Proved | Status::Disproved => return Some(s.counters().iterations),
            Status::Unknown(_) => return None,
            Status::Running => {}
        }
        if s.counters().iterations >= max_nodes {
            return None;
        }
        s.step();
    }
}

/// Thesis Algorithm 1 on `setup`'s position (see the module comment).
pub fn hill_climb(setup: &SearchSetup, max_nodes: u64, rule: ClimbRule) -> HillClimbResult {
    climb(rule, |e, d| probe(setup, e, d, max_nodes))
}

/// Whether probe value `a` is worse than `b` for the look-ahead test:
/// larger, or both ∞.
fn worse(a: Option<u64>, b: Option<u64>) -> bool {
    key(a) > key(b) || (a.is_none() && b.is_none())
}

/// Thesis Algorithm 1 over any node function: `node(E, D)` is the cost of
/// one probe (`None` = ∞). Each point is probed once.
pub fn climb(rule: ClimbRule, mut node_fn: impl FnMut(u32, u32) -> Option<u64>) -> HillClimbResult {
    let mut memo: HashMap<(u32, u32), Option<u64>> = HashMap::new();
    let mut probes = Vec::new();
    let mut node = |e: u32, d: u32| -> Option<u64> {
        *memo.entry((e, d)).or_insert_with(|| {
            let v = node_fn(e, d);
            probes.push(Probe { e, d, nodes: v });
            v
        })
    };
    let (mut e, mut d) = (2u32, 2u32);
    let mut flat_start: Option<(u32, u32)> = None;
    let mut flat_len = 0;
    let mut steps = 0;
    let chosen = loop {
        let v = node(e, d);
        let right = node(e + 1, d);
        let up = node(e, d + 1);
        let (next, vn) = if key(right) <= key(up) {
            ((e + 1, d), right)
        } else {
            ((e, d + 1), up)
        };
        if key(vn) > key(v) {
            // Both forward neighbours are worse: a local minimum (the
            // smallest point of the flat if the walk is on one). The
            // thesis' rule first looks one step further: it stops only if
            // the better neighbour's own neighbours are worse still.
            let stop = match rule {
                ClimbRule::FirstMinimum => true,
                ClimbRule::Thesis => {
                    let (e2, d2) = next;
                    worse(node(e2 + 1, d2), vn) && worse(node(e2, d2 + 1), vn)
                }
            };
            if stop {
                break flat_start.unwrap_or((e, d));
            }
        }
        if key(vn) == key(v) {
            let start = *flat_start.get_or_insert((e, d));
            flat_len += 1;
            if flat_len >= FLAT_LIMIT {
                break start;
            }
        } else {
            flat_start = None;
            flat_len = 0;
        }
        steps += 1;
        if steps >= MAX_STEPS {
            break (e, d);
        }
        (e, d) = next;
    };
    let chosen_nodes = node(chosen.0, chosen.1);
    HillClimbResult {
        probes,
        chosen,
        chosen_nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A landscape given point by point (∞ where it says `None` and
    /// everywhere outside the table).
    fn landscape(points: &[((u32, u32), u64)]) -> impl FnMut(u32, u32) -> Option<u64> + '_ {
        move |e, d| points.iter().find(|(p, _)| *p == (e, d)).map(|&(_, v)| v)
    }

    /// (2, 2) = 100 with both neighbours worse, but (3, 2)'s neighbour
    /// (4, 2) = 40 is better than (3, 2) = 110: the first-minimum rule
    /// stops at (2, 2); the thesis' rule looks one step further, walks
    /// through (3, 2) and stops at (4, 2), whose neighbours and their
    /// neighbours are all worse.
    #[test]
    fn the_thesis_rule_looks_one_step_further() {
        let points = [
            ((2, 2), 100),
            ((3, 2), 110),
            ((2, 3), 120),
            ((4, 2), 40),
            ((3, 3), 130),
            ((5, 2), 60),
            ((4, 3), 70),
            ((6, 2), 80),
            ((5, 3), 90),
            ((4, 4), 95),
        ];
        let first = climb(ClimbRule::FirstMinimum, landscape(&points));
        assert_eq!((first.chosen, first.chosen_nodes), ((2, 2), Some(100)));
        let thesis = climb(ClimbRule::Thesis, landscape(&points));
        assert_eq!((thesis.chosen, thesis.chosen_nodes), ((4, 2), Some(40)));
        // It probed (5, 2)'s neighbours before giving up there.
        let probed: Vec<(u32, u32)> = thesis.probes.iter().map(|p| (p.e, p.d)).collect();
        assert!(
            probed.contains(&(6, 2)) && probed.contains(&(5, 3)),
            "{probed:?}"
        );
    }

    /// A worse neighbour whose own neighbours are worse still: both rules
    /// stop at the start. A neighbourhood of capped probes (∞ beside ∞)
    /// also stops the thesis' walk instead of wandering into it.
    #[test]
    fn both_rules_stop_at_a_real_minimum_and_at_an_infinite_rim() {
        let points = [
            ((2, 2), 100),
            ((3, 2), 110),
            ((2, 3), 120),
            ((4, 2), 150),
            ((3, 3), 160),
        ];
        for rule in [ClimbRule::Thesis, ClimbRule::FirstMinimum] {
            let r = climb(rule, landscape(&points));
            assert_eq!(r.chosen, (2, 2), "{rule:?}");
        }
        let rim = [((2, 2), 100)];
        let r = climb(ClimbRule::Thesis, landscape(&rim));
        assert_eq!((r.chosen, r.chosen_nodes), ((2, 2), Some(100)));
    }

    /// On a flat (equal values) both rules walk along it and return where
    /// it began once it has lasted FLAT_LIMIT steps.
    #[test]
    fn a_flat_returns_its_smallest_point() {
        let flat: Vec<((u32, u32), u64)> = (2..12)
            .flat_map(|e| (2..12).map(move |d| ((e, d), 70)))
            .collect();
        for rule in [ClimbRule::Thesis, ClimbRule::FirstMinimum] {
            let r = climb(rule, landscape(&flat));
            assert_eq!(r.chosen, (2, 2), "{rule:?}");
        }
    }
}
