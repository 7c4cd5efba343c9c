//! The df-pn family (docs/algorithms.md §4): df-pn (Nagai 2002) over a
//! transposition table with a memory budget, the 1+ε trick (Pawlewicz &
//! Lew 2007), Deep df-pn (Zhang et al. 2017) with its E = 0 row as the
//! plain depth-first AND/OR search, and hill-climbing for Deep df-pn's
//! (E, D) (thesis Algorithm 1).
//!
//! - [`mid`]: the MID procedure as an explicit-stack state machine.
//! - [`mid_loop`]: one pass of MID's loop at a node, shared by [`mid`]
//!   and `dfpn-fast`.
//! - [`options`]: unknown-node values, thresholds, budget, repetitions.
//! - [`ghi`]: repeated positions (the graph history interaction) and the
//!   exact variant `dfpn-ghi`.
//! - [`tt`]: the table, its budget and replacement policy.
//! - [`view`]: snapshots (frames, the DAG from the table, inspection).
//! - [`dag_view`]: the drawn DAG with stored and ghost marks, shared with
//!   `dfpn-fast`.
//! - [`dfs`]: the depth-first AND/OR search (`dfs`, `deep-dfpn` with E = 0).
//! - [`hill_climb`]: the (E, D) tuner behind `pnlab tune`.
//! - [`fast`]: `dfpn-fast` (heuristic initialisation, ordering, a bucketed
//!   table shared by its threads, frontier alpha-beta).
//! - [`team`]: `dfpn`, `dfpn-eps` and `deep-dfpn` with `threads` > 1: the
//!   sequential search on the main thread, helpers with their own tables,
//!   proofs shared through a small board.

pub mod dag_snapshot;
pub mod dag_view;
pub mod dfs;
pub mod fast;
pub mod ghi;
pub mod hill_climb;
pub mod mid;
pub mod mid_loop;
pub mod options;
pub mod path_filter;
pub mod team;
pub mod tt;
pub mod view;

use crate::game::Game;

use super::params::ParamSpec;
use super::{Search, SearchError, SearchSetup, Status};

pub use dfs::Dfs;
pub use ghi::Ghi;
pub use hill_climb::{climb, hill_climb, HillClimbResult, Probe};
pub use mid::{Dfpn, DfpnOptions, Event};

use fast::THREADS_PARAM;

crate::options! {
    /// `dfpn`'s parameters: the thread count and what to do at a
    /// repetition (the table budget comes from the setup).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct DfpnParams {
        /// Search threads (1 = sequential).
        pub threads: u32 => THREADS_PARAM,
        /// Repetitions.
        pub ghi: Ghi => {
            "ghi", choice = Ghi::Exact,
            "On positions with a history (cyclic graphs, repetition rules): exact = store path-dependent results under the path (as dfpn-ghi); naive = value a repetition by the loop rule and store results by position (the graph history interaction: can answer wrong or loop); stop = end `unknown` (reason cycles) at once"
        },
    }
}

/// `dfpn-ghi` takes no parameters.
pub const GHI_PARAMS: &[ParamSpec] = &[];

crate::options! {
    /// `dfpn-eps`'s parameters: the 1+ε trick's ε and the thread count.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct DfpnEpsParams {
        /// ε > 0.
        pub eps: f64 => {
            "eps", real(1e-12, 1000.0) = 0.25,
            "ε > 0 of the 1+ε trick: thδ(c1) = min(thφ(n), ⌈δ2·(1+ε)⌉); larger ε stays deeper in a subtree"
        },
        /// Search threads (1 = sequential).
        pub threads: u32 => THREADS_PARAM,
    }
}

crate::options! {
    /// Deep df-pn's parameters. The default (E, D) = (2, 12) is the best
    /// pair of the grid measured over whole bench sets (results/defaults.md;
    /// E 2–7, D 2–12 on othello-14, othello-16-random, connect4 and
    /// connect6, least geometric mean of MID calls relative to df-pn). At
    /// the old (2, 2) only the root and its children differed and the
    /// search was df-pn's call for call. The best pair depends on the game,
    /// as the thesis found per position: Othello endgames gain most from a
    /// deep start (2.6–4.5× fewer calls), Connect Four loses (df-pn, D ≤ 2,
    /// is best there).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct DeepDfpnParams {
        /// Branch-size threshold E.
        pub e: u32 => {
            "E", int(0, 1_000_000) = 2,
            "Branch-size threshold E: unknown nodes at depth d < D count E^(D−d); E = 1 is df-pn, E = 0 the plain depth-first search"
        },
        /// Depth threshold D.
        pub d: u32 => {
            "D", int(0, 1_000) = 12,
            "Depth threshold D: unknown nodes at depth d ≥ D count 1; D ≤ 1 is df-pn"
        },
        /// Search threads (1 = sequential).
        pub threads: u32 => THREADS_PARAM,
    }
}

/// The depth-first search takes no parameters.
pub const DFS_PARAMS: &[ParamSpec] = &[];

fn budget(setup: &SearchSetup) -> u64 {
    setup.memory_limit_bytes.unwrap_or(tt::DEFAULT_BUDGET_BYTES)
}

/// The search on `setup`'s position, or on its zone game when zones are
/// on (see [`super::zones`]; always the sequential engine); otherwise
/// with `threads` > 1 a team of the same search ([`team`]).
fn boxed(
    name: &'static str,
    setup: &SearchSetup,
    opts: DfpnOptions,
    threads: u32,
) -> Result<Box<dyn Search>, SearchError> {
    let q = setup.root_question();
    if let Some(s) = super::zones::build_on_zones(setup, |g| new_dfpn(name, g, q, opts))? {
        return Ok(s);
    }
    if threads > 1 {
        // The shared board keys proofs by position alone; with a
        // repetition rule a result can depend on the path (GHI).
        if crate::with_position!(&setup.position, g => g.history_dependent()) {
            return Err(SearchError::unsupported(format!(
                "with threads = {threads} the parallel search shares results by position \
                 only, so it does not search positions whose results depend on the path \
                 (repetition rules, cyclic graphs); use threads = 1"
            )));
        }
        return Ok(crate::with_position!(&setup.position, g => {
            Box::new(team::new_team(name, g, q, opts, threads)) as Box<dyn Search>
        }));
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
pub fn build_dfpn(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let p = DfpnParams::from_params(&setup.params)?;
    let opts = DfpnOptions {
        budget_bytes: budget(setup),
        ghi: p.ghi,
        ..Default::default()
    };
    boxed("dfpn", setup, opts, p.threads)
}

/// Registry constructor for `dfpn-ghi`: df-pn with path-dependent results
/// stored under the path set ([`ghi`]), exact on cyclic graphs.
pub fn build_ghi(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let opts = DfpnOptions {
        budget_bytes: budget(setup),
        ghi: Ghi::Exact,
        ..Default::default()
    };
    boxed("dfpn-ghi", setup, opts, 1)
}

/// Registry constructor for `dfpn-eps`.
pub fn build_eps(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let p = DfpnEpsParams::from_params(&setup.params)?;
    let opts = DfpnOptions {
        eps: Some(p.eps),
        budget_bytes: budget(setup),
        ..Default::default()
    };
    boxed("dfpn-eps", setup, opts, p.threads)
}

/// Registry constructor for `deep-dfpn`; E = 0 runs the depth-first search
/// (docs/algorithms.md §4: not unknown nodes valued 0, which would read as
/// proofs).
pub fn build_deep(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let DeepDfpnParams { e, d, threads } = DeepDfpnParams::from_params(&setup.params)?;
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
    boxed("deep-dfpn", setup, opts, threads)
}

/// Registry constructor for `dfs`.
pub fn build_dfs(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let q = setup.root_question();
    Ok(crate::with_position!(&setup.position, g => new_dfs("dfs", g, q)))
}

/// The [`Search`] methods both df-pn implementations ([`Dfpn`] and
/// [`fast::FastDfpn`]) answer alike, from their run state, their root's
/// numbers, their best child and their own `make_snapshot`: a table
/// search's sample has no tree to measure.
macro_rules! table_search_accessors {
    () => {
        $crate::search::arena_search::run_state_accessors!();

        fn value_names(&self) -> &'static [&'static str] {
            $crate::search::pn::PN_DN_NAMES
        }

        fn snapshot(
            &self,
            req: &$crate::search::snapshot::ViewRequest,
        ) -> $crate::search::snapshot::Snapshot {
            self.make_snapshot(req)
        }

        fn sample(&self) -> $crate::search::StatsSample {
            let (p, d) = self.root_numbers();
            let root_values = $crate::search::pn::pn_dn_values(p, d);
            $crate::search::StatsSample::of_table(&self.counters, root_values, self.best_child())
        }
    };
}

use table_search_accessors;

impl<G: Game> Search for Dfpn<G> {
    crate::search::arena_search::checkpoint_by_clone!();

    fn algo(&self) -> &'static str {
        self.name()
    }

    /// One MID call (docs/algorithms.md §0), or with `threads` > 1 a
    /// round of calls ([`team`]).
    fn step(&mut self) -> Status {
        self.run_round()
    }

    table_search_accessors!();

    fn best_move(&self) -> Option<String> {
        crate::search::legal_move_label(self.root(), self.best_child()?)
    }

    fn solved_at(&self, _path: &[u32], hash: u64) -> Option<bool> {
        let e = self.table().get(hash)?;
        view::node_status(e.pn, e.dn).solved()
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("tt_entries".into(), (self.table().len() as u64).into());
        m.insert(
            "tt_capacity".into(),
            (self.table().capacity() as u64).into(),
        );
        m.insert("tt_evicted".into(), self.table().evicted.into());
        if self.team.is_some() {
            m.insert("threads".into(), (self.threads() as u64).into());
            m.insert("helper_iterations".into(), self.helper_iterations().into());
        }
        m
    }
}
