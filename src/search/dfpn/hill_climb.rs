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
//! (E+1, D) and (E, D+1) and take the better (ties go to E+1, as the
//! thesis' `≤`). If both are worse than (E, D), (E, D) is a local minimum:
//! stop there. If the better one is equal, the walk is on a flat: keep
//! going along it; a flat that lasts [`FLAT_LIMIT`] steps (the thesis'
//! `isNotFlat()` failing), or that ends in a local minimum, returns the
//! smallest (E, D) on the flat, i.e. where the walk entered it.
//! docs/algorithms.md §4's reading is implemented: the thesis' listing also
//! lowers N to the current value as it goes and looks one step further
//! before stopping; with the cap fixed the probes stay comparable.

use std::collections::HashMap;
use std::fmt;

use crate::search::{Search, SearchSetup, Status};

use super::mid::DfpnOptions;

/// Steps along a flat after which the walk stops.
pub const FLAT_LIMIT: usize = 3;

/// Upper bound on walk steps (each costs two probes at most).
pub const MAX_STEPS: usize = 200;

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
pub fn hill_climb(setup: &SearchSetup, max_nodes: u64) -> HillClimbResult {
    climb(|e, d| probe(setup, e, d, max_nodes))
}

/// Thesis Algorithm 1 over any node function: `node(E, D)` is the cost of
/// one probe (`None` = ∞). Each point is probed once.
pub fn climb(mut node_fn: impl FnMut(u32, u32) -> Option<u64>) -> HillClimbResult {
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
            // smallest point of the flat if the walk is on one).
            break flat_start.unwrap_or((e, d));
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
