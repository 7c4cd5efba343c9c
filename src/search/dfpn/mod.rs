//! The df-pn family (docs/algorithms.md §4): df-pn (Nagai 2002) over a
//! transposition table with a memory budget, the 1+ε trick (Pawlewicz &
//! Lew 2007), Deep df-pn (Zhang et al. 2017) with its E = 0 row as the
//! plain depth-first AND/OR search, and hill-climbing for Deep df-pn's
//! (E, D) (thesis Algorithm 1).
//!
//! - [`mid`]: the MID procedure as an explicit-stack state machine.
//! - [`options`]: unknown-node values, thresholds, budget, repetitions.
//! - [`ghi`]: repeated positions (the graph history interaction) and the
//!   exact variant `dfpn-ghi`.
//! - [`tt`]: the table, its budget and replacement policy.
//! - [`view`]: snapshots (frames, the DAG from the table, inspection).
//! - [`dfs`]: the depth-first AND/OR search (`dfs`, `deep-dfpn` with E = 0).
//! - [`hill_climb`]: the (E, D) tuner behind `pnlab tune`.
//! - [`fast`]: `dfpn-fast` (heuristic initialisation, ordering, a bucketed
//!   table, frontier alpha-beta) and the parallel df-pn that `dfpn`,
//!   `dfpn-eps` and `deep-dfpn` run with `threads` > 1.

pub mod dfs;
pub mod fast;
pub mod ghi;
pub mod hill_climb;
pub mod mid;
pub mod options;
pub mod path_filter;
pub mod tt;
pub mod view;

use crate::game::Game;

use super::params::{ParamKind, ParamSpec};
use super::pn;
use super::snapshot::{Snapshot, ViewRequest};
use super::zones::PARAMS as ZONE_PARAMS;
use super::{Search, SearchSetup, StatsSample, Status};

pub use dfs::Dfs;
pub use ghi::Ghi;
pub use hill_climb::{climb, hill_climb, HillClimbResult, Probe};
pub use mid::{Dfpn, DfpnOptions, Event};

/// df-pn's parameters: the relevance-zone options for connect games, the
/// thread count and what to do at a repetition (the table budget comes
/// from the setup).
pub const DFPN_PARAMS: &[ParamSpec] = &[
    ZONE_PARAMS[0],
    ZONE_PARAMS[1],
    ZONE_PARAMS[2],
    ZONE_PARAMS[3],
    fast::THREADS_PARAM,
    ParamSpec {
        name: "ghi",
        kind: ParamKind::Choice {
            options: &["exact", "naive", "stop"],
            default: "exact",
        },
        help: "On positions with a history (cyclic graphs, repetition rules): exact = store path-dependent results under the path (as dfpn-ghi); naive = value a repetition by the loop rule and store results by position (the graph history interaction: can answer wrong or loop); stop = end `unknown` (reason cycles) at once",
    },
];

/// `dfpn-ghi` takes no parameters.
pub const GHI_PARAMS: &[ParamSpec] = &[];

/// The 1+ε trick's parameter (and the zone options).
pub const EPS_PARAMS: &[ParamSpec] = &[
    ParamSpec {
    name: "eps",
    kind: ParamKind::Real {
        min: 1e-12,
        max: 1000.0,
        default: 0.25,
    },
    help: "ε > 0 of the 1+ε trick: thδ(c1) = min(thφ(n), ⌈δ2·(1+ε)⌉); larger ε stays deeper in a subtree",
    },
    ZONE_PARAMS[0],
    ZONE_PARAMS[1],
    ZONE_PARAMS[2],
    ZONE_PARAMS[3],
    fast::THREADS_PARAM,
];

/// Deep df-pn's parameters.
pub const DEEP_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "E",
        kind: ParamKind::Int {
            min: 0,
            max: 1_000_000,
            default: 2,
        },
        help: "Branch-size threshold E: unknown nodes at depth d < D count E^(D−d); E = 1 is df-pn, E = 0 the plain depth-first search",
    },
    ParamSpec {
        name: "D",
        kind: ParamKind::Int {
            min: 0,
            max: 1_000,
            default: 2,
        },
        help: "Depth threshold D: unknown nodes at depth d ≥ D count 1; D ≤ 1 is df-pn",
    },
    ZONE_PARAMS[0],
    ZONE_PARAMS[1],
    ZONE_PARAMS[2],
    ZONE_PARAMS[3],
    fast::THREADS_PARAM,
];

/// The depth-first search takes no parameters.
pub const DFS_PARAMS: &[ParamSpec] = &[];

fn budget(setup: &SearchSetup) -> u64 {
    setup.memory_limit_bytes.unwrap_or(tt::DEFAULT_BUDGET_BYTES)
}

/// The search on `setup`'s position, or on its zone game when zones are
/// on (see [`super::zones`]; always the sequential engine); otherwise
/// with `threads` > 1 the parallel engine of [`fast`] with the same
/// thresholds and initialisation.
fn boxed(
    name: &'static str,
    setup: &SearchSetup,
    opts: DfpnOptions,
) -> Result<Box<dyn Search>, String> {
    let q = setup.root_question();
    if let Some(s) = super::zones::build_on_zones(setup, |g| new_dfpn(name, g, q, opts))? {
        return Ok(s);
    }
    let threads = fast::threads_of(setup)?;
    if threads > 1 {
        // The shared table keys results by position alone; with a
        // repetition rule a result can depend on the path (GHI).
        if crate::with_position!(&setup.position, g => g.history_dependent()) {
            return Err(format!(
                "{name} with threads = {threads}: the parallel search keys its table by position \
                 only, so it does not search positions whose results depend on the path \
                 (repetition rules, cyclic graphs); use threads = 1"
            ));
        }
        let fast_opts = fast::FastOptions {
            base: opts,
            init: fast::worker::Init::Unit,
            order: false,
            leaf_empties: 0,
            threads,
            connect4: None,
        };
        return Ok(fast::new_fast(name, setup, fast_opts));
    }
    Ok(crate::with_position!(&setup.position, g => new_dfpn(name, g, q, opts)))
}

/// A boxed df-pn search on any game (generic, so the position is cloned
/// once whatever its type).
pub fn new_dfpn<G: Game>(
    name: &'static str,
    g: &G,
    q: super::Question,
    opts: DfpnOptions,
) -> Box<dyn Search> {
    Box::new(Dfpn::new(name, g.clone(), q, opts))
}

fn new_dfs<G: Game>(name: &'static str, g: &G, q: super::Question) -> Box<dyn Search> {
    Box::new(Dfs::new(name, g.clone(), q))
}

/// Registry constructor for `dfpn`.
pub fn build_dfpn(setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let ghi = match setup.params.choice("ghi")? {
        "naive" => Ghi::Naive,
        "stop" => Ghi::Stop,
        _ => Ghi::Exact,
    };
    let opts = DfpnOptions {
        budget_bytes: budget(setup),
        ghi,
        ..Default::default()
    };
    boxed("dfpn", setup, opts)
}

/// Registry constructor for `dfpn-ghi`: df-pn with path-dependent results
/// stored under the path set ([`ghi`]), exact on cyclic graphs.
pub fn build_ghi(setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let opts = DfpnOptions {
        budget_bytes: budget(setup),
        ghi: Ghi::Exact,
        ..Default::default()
    };
    boxed("dfpn-ghi", setup, opts)
}

/// Registry constructor for `dfpn-eps`.
pub fn build_eps(setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let eps = setup.params.real("eps")?;
    if !(eps > 0.0 && eps.is_finite()) {
        return Err(format!("eps must be a real number > 0, got {eps}"));
    }
    let opts = DfpnOptions {
        eps: Some(eps),
        budget_bytes: budget(setup),
        ..Default::default()
    };
    boxed("dfpn-eps", setup, opts)
}

/// Registry constructor for `deep-dfpn`; E = 0 runs the depth-first search
/// (docs/algorithms.md §4: not unknown nodes valued 0, which would read as
/// proofs).
pub fn build_deep(setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let e = setup.params.int("E")?;
    let d = setup.params.int("D")?;
    let (Ok(e), Ok(d)) = (u32::try_from(e), u32::try_from(d)) else {
        return Err(format!("E and D must be integers ≥ 0, got E={e}, D={d}"));
    };
    if e == 0 {
        let q = setup.root_question();
        if let Some(s) = super::zones::build_on_zones(setup, |g| new_dfs("deep-dfpn", g, q))? {
            return Ok(s);
        }
        return Ok(crate::with_position!(&setup.position, g => new_dfs("deep-dfpn", g, q)));
    }
    let opts = DfpnOptions {
        deep: Some((e, d)),
        budget_bytes: budget(setup),
        ..Default::default()
    };
    boxed("deep-dfpn", setup, opts)
}

/// Registry constructor for `dfs`.
pub fn build_dfs(setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let q = setup.root_question();
    Ok(crate::with_position!(&setup.position, g => new_dfs("dfs", g, q)))
}

impl<G: Game> Search for Dfpn<G> {
    fn algo(&self) -> &'static str {
        self.name()
    }

    /// One MID call (docs/algorithms.md §0).
    fn step(&mut self) -> Status {
        self.run_step()
    }

    crate::search::arena_search::run_state_accessors!();

    fn value_names(&self) -> &'static [&'static str] {
        &["pn", "dn"]
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        self.make_snapshot(req)
    }

    fn sample(&self) -> StatsSample {
        let c = &self.counters;
        let (p, d) = self.root_numbers();
        StatsSample {
            iteration: c.iterations,
            nodes: c.live_nodes,
            max_depth: c.max_depth,
            seesaw_root_switches: c.seesaw_root_switches,
            seesaw_switches: c.seesaw_switches,
            revisits: c.revisits,
            root_values: vec![pn::to_f64(p), pn::to_f64(d)],
            best_child: self.best_child(),
            interval: None,
        }
    }

    fn best_move(&self) -> Option<String> {
        let k = self.best_child()?;
        let mut moves = Vec::new();
        self.root().legal_moves(&mut moves);
        moves.get(k as usize).map(|&m| self.root().format_move(m))
    }

    fn solved_at(&self, _path: &[u32], hash: u64) -> Option<bool> {
        let e = self.table().get(hash)?;
        match (e.pn, e.dn) {
            (0, _) => Some(true),
            (_, 0) => Some(false),
            _ => None,
        }
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("tt_entries".into(), (self.table().len() as u64).into());
        m.insert(
            "tt_capacity".into(),
            (self.table().capacity() as u64).into(),
        );
        m.insert("tt_evicted".into(), self.table().evicted.into());
        m
    }
}
