//! The one registry of algorithms: name, summary, parameter description and
//! constructor. The CLI, the app's algorithm picker and the experiments all
//! read this list; adding an algorithm means adding one entry here.

use super::{ParamSpec, Search, SearchSetup};

/// One registered algorithm.
pub struct AlgoInfo {
    /// Stable CLI name (docs/cli.md `ALGO`).
    pub name: &'static str,
    /// One line for menus and `--help`.
    pub summary: &'static str,
    /// The parameters, described once (docs/architecture.md house rules).
    pub params: &'static [ParamSpec],
    /// Builds the search on a position. Errors (an unsupported game, …) are
    /// user-facing sentences.
    pub build: fn(&SearchSetup) -> Result<Box<dyn Search>, String>,
}

static ALGORITHMS: &[AlgoInfo] = &[
    AlgoInfo {
        name: "pns",
        summary: "Proof-number search (Allis 1994), best-first, with tie/selection/init options",
        params: super::pns::PARAMS,
        build: super::pns::build,
    },
    AlgoInfo {
        name: "deep-pn",
        summary: "DeepPN (Ishitobi et al. 2015): PN-search mixed with a deep value, R = 1 is PNS, R = 0 depth-first",
        params: super::deep_pn::PARAMS,
        build: super::deep_pn::build,
    },
    AlgoInfo {
        name: "pn-value",
        summary: "Value search (lecture notes): exact score by bracketing, then binary search, with PN-search(v) runs",
        params: super::pn_value::PARAMS,
        build: super::pn_value::build,
    },
    AlgoInfo {
        name: "dfpn",
        summary: "Depth-first proof-number search (Nagai 2002): MID over a transposition table",
        params: super::dfpn::DFPN_PARAMS,
        build: super::dfpn::build_dfpn,
    },
    AlgoInfo {
        name: "dfpn-ghi",
        summary: "df-pn exact on cyclic graphs and repetitions: path-dependent results stored under the path set (after Kishimoto & Müller 2004)",
        params: super::dfpn::GHI_PARAMS,
        build: super::dfpn::build_ghi,
    },
    AlgoInfo {
        name: "dfpn-eps",
        summary: "df-pn with the 1+ε trick (Pawlewicz & Lew 2007): thδ(c1) = min(thφ, ⌈δ2·(1+ε)⌉)",
        params: super::dfpn::EPS_PARAMS,
        build: super::dfpn::build_eps,
    },
    AlgoInfo {
        name: "deep-dfpn",
        summary: "Deep df-pn (Zhang et al. 2017): unknown nodes at depth d count E^(D−d); E = 0 is depth-first",
        params: super::dfpn::DEEP_PARAMS,
        build: super::dfpn::build_deep,
    },
    AlgoInfo {
        name: "dfpn-fast",
        summary: "df-pn tuned for speed: df-pn+ style mobility initialisation, move ordering, a bucketed lock-free table, exact alpha-beta at the Othello frontier, threads",
        params: super::dfpn::fast::FAST_PARAMS,
        build: super::dfpn::fast::build_fast,
    },
    AlgoInfo {
        name: "dfs",
        summary: "Plain depth-first AND/OR search (Deep df-pn's E = 0 row)",
        params: super::dfpn::DFS_PARAMS,
        build: super::dfpn::build_dfs,
    },
    AlgoInfo {
        name: "ppn",
        summary: "Probability-based PN-search (Song et al. 2019): playout probabilities, AND/OR probability rules",
        params: super::ppn::PARAMS,
        build: super::ppn::build,
    },
    AlgoInfo {
        name: "mcpn",
        summary: "Monte-Carlo PN-search (Saito et al. 2006): PNS rules over real pn/dn from playout win rates",
        params: super::mcpn::PARAMS,
        build: super::mcpn::build,
    },
    AlgoInfo {
        name: "mcts-solver",
        summary: "MCTS solver (Winands et al. 2008) with pure selection: largest mean, solver back-up",
        params: super::mcts_solver::PARAMS_PURE,
        build: super::mcts_solver::build_pure,
    },
    AlgoInfo {
        name: "uct-solver",
        summary: "UCT solver (Winands et al. 2008): UCT selection with constant C, solver back-up",
        params: super::mcts_solver::PARAMS_UCT,
        build: super::mcts_solver::build_uct,
    },
    AlgoInfo {
        name: "alphabeta",
        summary: "Alpha-beta with iterative deepening and the root's single conspiracy number for threshold T per depth (Song & Iida 2018)",
        params: super::alphabeta::PARAMS,
        build: super::alphabeta::build,
    },
    AlgoInfo {
        name: "cns",
        summary: "Conspiracy-number search (McAllester 1988) with proof/disproof functions and the search interval [v_min, v_max]",
        params: super::cns::CNS_PARAMS,
        build: super::cns::build_cns,
    },
    AlgoInfo {
        name: "scns",
        summary: "Sibling conspiracy-number search (Pawlewicz & Hayward 2015): CNS over the sibling comparison evaluation, logarithmic leaf steps",
        params: super::cns::SCNS_PARAMS,
        build: super::cns::build_scns,
    },
    AlgoInfo {
        name: "om",
        summary: "Opponent-model search (Carmel & Markovitch 1996): own evaluation f1 for the searcher, the opponent's f2 for its replies; contempt factor",
        params: super::om::PARAMS,
        build: super::om::build,
    },
    AlgoInfo {
        name: "expectimax",
        summary: "Expectimax (lecture notes): MAX, MIN and chance nodes (probability-weighted mean), no pruning",
        params: super::chance::PARAMS,
        build: super::chance::build_expectimax,
    },
    AlgoInfo {
        name: "star1",
        summary: "Star1 (Ballard 1983): alpha-beta with chance-node cut-offs I (m ≥ β) and II (M ≤ α) from the score range [L, U]",
        params: super::chance::PARAMS,
        build: super::chance::build_star1,
    },
    AlgoInfo {
        name: "star2",
        summary: "Star2 (Ballard 1983): Star1 after probing the first move below each chance outcome for early cut-offs",
        params: super::chance::PARAMS,
        build: super::chance::build_star2,
    },
];

/// Every registered algorithm, in menu order.
pub fn algorithms() -> &'static [AlgoInfo] {
    ALGORITHMS
}

/// Looks an algorithm up by name.
pub fn find_algo(name: &str) -> Result<&'static AlgoInfo, String> {
    ALGORITHMS.iter().find(|a| a.name == name).ok_or_else(|| {
        format!(
            "unknown algorithm `{name}`; known algorithms: {}",
            ALGORITHMS
                .iter()
                .map(|a| a.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// The algorithms that search positions with chance nodes (die rolls);
/// every other one answers yes/no questions about games without chance
/// and refuses such positions.
pub const CHANCE_ALGORITHMS: &[&str] = &["expectimax", "star1", "star2"];

/// Whether algorithm `name` can search positions with chance nodes.
pub fn handles_chance(name: &str) -> bool {
    CHANCE_ALGORITHMS.contains(&name)
}

/// Builds algorithm `name` on `setup`, after checking that its parameters
/// are complete and each has the kind and range its description gives,
/// and that it can search the position (a proof search refuses chance
/// nodes).
pub fn build(name: &str, setup: &SearchSetup) -> Result<Box<dyn Search>, String> {
    let info = find_algo(name)?;
    setup.params.check(info.params)?;
    let chance =
        crate::with_position!(&setup.position, g => crate::game::Game::has_chance_nodes(g));
    if chance && !handles_chance(name) {
        return Err(format!(
            "`{name}` cannot search this position: it has chance nodes (die rolls or random events), and a proof search answers yes/no questions about games where players choose every move; use {}",
            CHANCE_ALGORITHMS.join(", ")
        ));
    }
    (info.build)(setup)
}
