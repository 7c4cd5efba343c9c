//! Helpers shared by more than one test binary.

use pnlab::game::Game;
use pnlab::search::dfpn::{Dfpn, DfpnOptions};
use pnlab::search::{Question, Search};

/// The sequence of MID calls of a df-pn-family run: after each step,
/// (depth, node, thφ, thδ) of the call just entered; then the final status
/// and counters in one line. Two runs perform exactly alike when their
/// traces are equal (docs/algorithms.md §4's special cases).
pub fn dfpn_trace<G: Game>(
    g: &G,
    q: Question,
    opts: DfpnOptions,
) -> (Vec<(u32, u64, u32, u32)>, String) {
    let mut s = Dfpn::new("dfpn", g.clone(), q, opts);
    let mut calls = Vec::new();
    while !Search::status(&s).is_final() {
        Search::step(&mut s);
        if let Some(f) = s.frames().last() {
            let (tp, td) = f.thresholds_phi_delta();
            calls.push((f.depth, f.hash, tp, td));
        }
        assert!(calls.len() < 3_000_000, "no end");
    }
    let c = Search::counters(&s);
    let summary = format!(
        "{:?} it={} created={} expanded={} depth={} revisits={} root_sw={} sw={} live={}",
        Search::status(&s),
        c.iterations,
        c.nodes_created,
        c.nodes_expanded,
        c.max_depth,
        c.revisits,
        c.seesaw_root_switches,
        c.seesaw_switches,
        c.live_nodes
    );
    (calls, summary)
}
