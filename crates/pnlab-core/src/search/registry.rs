//! The one registry of algorithms: name, summary, parameter description and
//! constructor. The CLI, the app's algorithm picker and the experiments all
//! read this list; adding an algorithm means adding one entry here.

use crate::game::notation::FileError;
use crate::game::GameKind;
use crate::positions::PositionEntry;

use super::params::ParamError;
use super::{ParamSpec, Params, Search, SearchError, SearchSetup};

/// The algorithm a search runs when none is named: `pnlab solve`'s
/// `--algo` default, Python's `algo=` default, and the algorithm of a
/// position file entry that gives parameters without one.
pub const DEFAULT_ALGO: &str = "pns";

/// One registered algorithm.
pub struct AlgoInfo {
    /// Stable CLI name (docs/cli.md `ALGO`).
    pub name: &'static str,
    /// One line for menus and `--help`.
    pub summary: &'static str,
    /// The algorithm's own parameters, described once (its options struct;
    /// docs/architecture.md house rules).
    pub params: &'static [ParamSpec],
    /// Whether it also takes a game's own search options
    /// ([`GameKind::search_options`]: Connect6's relevance zones), which
    /// it then runs with on positions of that game.
    pub game_options: bool,
    /// Parameters the algorithm has only on positions of some games (a
    /// frontier solver written for one game, that game's knowledge), each
    /// list with its game: offered, checked and recorded only there.
    pub game_params: &'static [(GameKind, &'static [ParamSpec])],
    /// Builds the search on a position.
    pub build: fn(&SearchSetup) -> Result<Box<dyn Search>, SearchError>,
}

impl AlgoInfo {
    /// The parameters that apply to this algorithm on a position of
    /// `game`: its own, its parameters for that game, then the game's
    /// search options when it takes them. The CLI validates `--set`
    /// against this list and the app shows it.
    pub fn params_for(&self, game: GameKind) -> Vec<ParamSpec> {
        let mut specs = self.params.to_vec();
        for (_, own) in self.game_params.iter().filter(|(k, _)| *k == game) {
            specs.extend_from_slice(own);
        }
        if self.game_options {
            specs.extend_from_slice(game.search_options());
        }
        specs
    }

    /// `params` as a search of a `game` position takes them: the values
    /// of the parameters that apply there ([`Self::params_for`]), the
    /// defaults for those missing, and nothing else (a setting made for
    /// another game's position, kept by the app across files, is dropped
    /// from the run and its record).
    pub fn params_on(&self, game: GameKind, params: &Params) -> Params {
        Params::taken_from(&self.params_for(game), params)
    }

    /// Every parameter the algorithm has on the positions of some game,
    /// each once (what a name is checked against before the game is
    /// known).
    pub fn params_on_any_game(&self) -> Vec<ParamSpec> {
        let mut all: Vec<ParamSpec> = Vec::new();
        for s in GameKind::ALL.iter().flat_map(|&k| self.params_for(k)) {
            if all.iter().all(|t| t.name != s.name) {
                all.push(s);
            }
        }
        all
    }

    /// The games on whose positions parameter `name` applies, when it
    /// applies on some games only (a game search option or one of the
    /// algorithm's per-game parameters); empty otherwise.
    fn games_of(&self, name: &str) -> Vec<&'static str> {
        if self.params.iter().any(|s| s.name == name) {
            return Vec::new();
        }
        GameKind::ALL
            .iter()
            .filter(|&&k| self.params_for(k).iter().any(|s| s.name == name))
            .map(|k| k.name())
            .collect()
    }

    /// Defaults overridden by `NAME=VALUE` pairs for a position of `game`.
    /// A game option given for a game that does not have it is an error
    /// naming the games it belongs to.
    pub fn params_from_pairs<K: AsRef<str>, V: AsRef<str>>(
        &self,
        game: GameKind,
        pairs: &[(K, V)],
    ) -> Result<Params, ParamError> {
        let specs = self.params_for(game);
        for (name, _) in pairs {
            let name = name.as_ref();
            if specs.iter().any(|s| s.name == name) {
                continue;
            }
            let games = self.games_of(name);
            if !games.is_empty() {
                return Err(ParamError::OtherGame {
                    name: name.to_string(),
                    game: game.name(),
                    games: games.join(", "),
                });
            }
        }
        Params::from_pairs(&specs, pairs)
    }

    /// Checks that every name of `pairs` is a parameter of this algorithm
    /// on some game (the CLI's check of `--set` before it reads any
    /// position); an unknown name is an error listing the algorithm's
    /// parameters and the game options it takes.
    pub fn check_names(&self, pairs: &[(String, String)]) -> Result<(), ParamError> {
        let all = self.params_on_any_game();
        let known = |name: &str| all.iter().any(|s| s.name == name);
        let Some((name, _)) = pairs.iter().find(|(n, _)| !known(n)) else {
            return Ok(());
        };
        let mut valid = super::params::describe(self.params);
        for (k, own) in self.game_params {
            valid.push_str(&format!(
                "; for {} positions: {}",
                k.name(),
                super::params::describe(own)
            ));
        }
        if self.game_options {
            for k in GameKind::ALL {
                let opts = k.search_options();
                if !opts.is_empty() {
                    valid.push_str(&format!(
                        "; for {} positions: {}",
                        k.name(),
                        super::params::describe(opts)
                    ));
                }
            }
        }
        Err(ParamError::Unknown {
            name: name.clone(),
            valid,
        })
    }
}

static ALGORITHMS: &[AlgoInfo] = &[
    AlgoInfo {
        name: "pns",
        summary: "Proof-number search (Allis 1994), best-first, with tie/selection/init options",
        params: super::pns::PnsOptions::PARAMS,
        game_options: true,
        game_params: &[],
        build: super::pns::build,
    },
    AlgoInfo {
        name: "deep-pn",
        summary: "DeepPN (Ishitobi et al. 2015): PN-search mixed with a deep value, R = 1 is PNS, R = 0 depth-first",
        params: super::deep_pn::DeepPnOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::deep_pn::build,
    },
    AlgoInfo {
        name: "pn-value",
        summary: "Value search (lecture notes): exact score by bracketing, then binary search, with PN-search(v) runs",
        params: super::pn_value::PnValueOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::pn_value::build,
    },
    AlgoInfo {
        name: "dfpn",
        summary: "Depth-first proof-number search (Nagai 2002): MID over a transposition table",
        params: super::dfpn::DfpnParams::PARAMS,
        game_options: true,
        game_params: &[],
        build: super::dfpn::build_dfpn,
    },
    AlgoInfo {
        name: "dfpn-ghi",
        summary: "df-pn exact on cyclic graphs and repetitions: path-dependent results stored under the path set (after Kishimoto & Müller 2004)",
        params: super::dfpn::GHI_PARAMS,
        game_options: false,
        game_params: &[],
        build: super::dfpn::build_ghi,
    },
    AlgoInfo {
        name: "dfpn-eps",
        summary: "df-pn with the 1+ε trick (Pawlewicz & Lew 2007): thδ(c1) = min(thφ, ⌈δ2·(1+ε)⌉)",
        params: super::dfpn::DfpnEpsParams::PARAMS,
        game_options: true,
        game_params: &[],
        build: super::dfpn::build_eps,
    },
    AlgoInfo {
        name: "deep-dfpn",
        summary: "Deep df-pn (Zhang et al. 2017): unknown nodes at depth d count E^(D−d); E = 0 is depth-first",
        params: super::dfpn::DeepDfpnParams::PARAMS,
        game_options: true,
        game_params: &[],
        build: super::dfpn::build_deep,
    },
    AlgoInfo {
        name: "dfpn-fast",
        summary: "df-pn tuned for speed: df-pn+ style mobility initialisation, move ordering, a bucketed lock-free table, exact alpha-beta at the Othello and Connect Four frontiers, Connect Four tactics, threads",
        params: super::dfpn::fast::FAST_PARAMS,
        game_options: false,
        game_params: super::dfpn::fast::FAST_GAME_PARAMS,
        build: super::dfpn::fast::build_fast,
    },
    AlgoInfo {
        name: "dfs",
        summary: "Plain depth-first AND/OR search (Deep df-pn's E = 0 row)",
        params: super::dfpn::DFS_PARAMS,
        game_options: false,
        game_params: &[],
        build: super::dfpn::build_dfs,
    },
    AlgoInfo {
        name: "ppn",
        summary: "Probability-based PN-search (Song et al. 2019): playout probabilities, AND/OR probability rules",
        params: super::playout::PlayoutOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::ppn::build,
    },
    AlgoInfo {
        name: "mcpn",
        summary: "Monte-Carlo PN-search (Saito et al. 2006): PNS rules over real pn/dn from playout win rates",
        params: super::playout::PlayoutOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::mcpn::build,
    },
    AlgoInfo {
        name: "mcts-solver",
        summary: "MCTS solver (Winands et al. 2008) with pure selection: largest mean, solver back-up",
        params: super::mcts_solver::PureOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::mcts_solver::build_pure,
    },
    AlgoInfo {
        name: "uct-solver",
        summary: "UCT solver (Winands et al. 2008): UCT selection with constant C, solver back-up",
        params: super::mcts_solver::UctOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::mcts_solver::build_uct,
    },
    AlgoInfo {
        name: "alphabeta",
        summary: "Alpha-beta with iterative deepening and the root's single conspiracy number for threshold T per depth (Song & Iida 2018)",
        params: super::alphabeta::AlphaBetaOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::alphabeta::build,
    },
    AlgoInfo {
        name: "cns",
        summary: "Conspiracy-number search (McAllester 1988) with proof/disproof functions and the search interval [v_min, v_max]",
        params: super::cns::CnsParams::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::cns::build_cns,
    },
    AlgoInfo {
        name: "scns",
        summary: "Sibling conspiracy-number search (Pawlewicz & Hayward 2015): CNS over the sibling comparison evaluation, logarithmic leaf steps",
        params: super::cns::ScnsParams::PARAMS,
        game_options: false,
        game_params: &[(GameKind::Hex, super::cns::hex_vcs::SCNS_HEX_PARAMS)],
        build: super::cns::build_scns,
    },
    AlgoInfo {
        name: "om",
        summary: "Opponent-model search (Carmel & Markovitch 1996): own evaluation f1 for the searcher, the opponent's f2 for its replies; contempt factor",
        params: super::om::OmOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::om::build,
    },
    AlgoInfo {
        name: "expectimax",
        summary: "Expectimax (lecture notes): MAX, MIN and chance nodes (probability-weighted mean), no pruning",
        params: super::chance::ChanceOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::chance::build_expectimax,
    },
    AlgoInfo {
        name: "star1",
        summary: "Star1 (Ballard 1983): alpha-beta with chance-node cut-offs I (m ≥ β) and II (M ≤ α) from the score range [L, U]",
        params: super::chance::ChanceOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::chance::build_star1,
    },
    AlgoInfo {
        name: "star2",
        summary: "Star2 (Ballard 1983): Star1 after probing the first move below each chance outcome for early cut-offs",
        params: super::chance::ChanceOptions::PARAMS,
        game_options: false,
        game_params: &[],
        build: super::chance::build_star2,
    },
];

/// Checks the algorithm and parameters a position file suggests for
/// `entry` (TOML `algo = …`, `params = { … }`; `pns` when only `params`
/// is given) against the registry; the error is located at the value in
/// the file. The positions layer reads them as text, below the searches.
pub fn check_suggestion(entry: &PositionEntry) -> Result<(), FileError> {
    let Some(at) = &entry.suggestion_at else {
        return Ok(());
    };
    let name = entry.algo.as_deref().unwrap_or(DEFAULT_ALGO);
    let info =
        find_algo(name).map_err(|e| at.error(at.algo.unwrap_or((entry.line, 1)), e.to_string()))?;
    if let Some(p) = at.params {
        info.params_from_pairs(entry.game, &entry.params)
            .map_err(|e| at.error(p, format!("parameters for `{name}`: {e}")))?;
    }
    Ok(())
}

/// Every registered algorithm, in menu order.
pub fn algorithms() -> &'static [AlgoInfo] {
    ALGORITHMS
}

/// Looks an algorithm up by name.
pub fn find_algo(name: &str) -> Result<&'static AlgoInfo, SearchError> {
    ALGORITHMS
        .iter()
        .find(|a| a.name == name)
        .ok_or_else(|| SearchError::UnknownAlgo {
            name: name.to_string(),
            known: ALGORITHMS
                .iter()
                .map(|a| a.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The algorithms that search positions with chance nodes (die rolls);
/// every other one answers yes/no questions about games without chance
/// and refuses such positions.
pub const CHANCE_ALGORITHMS: &[&str] = &["expectimax", "star1", "star2"];

/// The algorithm that answers the score question (`--question score`):
/// `dfpn-fast`, which keeps its table between the thresholds it asks.
pub const SCORE_ALGORITHM: &str = "dfpn-fast";

/// Whether algorithm `name` can search positions with chance nodes.
pub fn handles_chance(name: &str) -> bool {
    CHANCE_ALGORITHMS.contains(&name)
}

/// Builds algorithm `name` on `setup`, after checking that its parameters
/// are complete and each has the kind and range its description gives
/// (game options the setup does not give take their defaults), and that
/// it can search the position (a proof search refuses chance nodes).
pub fn build(name: &str, setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let info = find_algo(name)?;
    let game = setup.position.kind();
    // The parameters that exist on this game's positions only (the game's
    // search options, the algorithm's per-game parameters) take their
    // defaults when the set lacks them: a set built from the algorithm's
    // own list runs on any game.
    let per_game: Vec<ParamSpec> = info
        .params_for(game)
        .into_iter()
        .filter(|s| info.params.iter().all(|own| own.name != s.name))
        .collect();
    let completed;
    let setup = if per_game.iter().any(|s| setup.params.get(s.name).is_none()) {
        let mut s = setup.clone();
        s.params.fill_defaults(&per_game);
        completed = s;
        &completed
    } else {
        setup
    };
    setup.params.check(&info.params_for(game))?;
    let chance =
        crate::with_position!(&setup.position, g => crate::game::Game::has_chance_nodes(g));
    if chance && !handles_chance(name) {
        return Err(SearchError::Unsupported {
            algo: name.to_string(),
            reason: format!(
                "it has chance nodes (die rolls or random events), and a proof search answers yes/no questions about games where players choose every move; use {}",
                CHANCE_ALGORITHMS.join(", ")
            ),
        });
    }
    if setup.question == super::QuestionKind::Score && name != SCORE_ALGORITHM {
        return Err(SearchError::Unsupported {
            algo: name.to_string(),
            reason: format!("the score question is answered by `{SCORE_ALGORITHM}` only"),
        });
    }
    (info.build)(setup).map_err(|e| match e {
        SearchError::Unsupported { algo, reason } if algo.is_empty() => SearchError::Unsupported {
            algo: name.to_string(),
            reason,
        },
        other => other,
    })
}
