//! The search options of the connect games: whether and how the proof
//! searches run on the relevance-zone game ([`super::zone_game`]; thesis
//! §3.3.2, Wu & Lin 2010). They belong to the game, not to an algorithm:
//! the registry offers them, next to an algorithm's own parameters, only
//! for positions of game `connect` or `connect6` and only to the
//! algorithms that can run on the zone game (`pns`, `dfpn`, `dfpn-eps`,
//! `deep-dfpn`; see `search::registry::AlgoInfo::params_for`), and a run
//! records them only there. On the command line they keep their names
//! (`--set zones=on`); given for a position of another game they are an
//! error naming the games they apply to.
//!
//! - `zones = auto | on | off`: auto is on for `connect6` (the only
//!   practical way to search 19 × 19) and off for `connect`, where the
//!   searches stay exact;
//! - `attacker_moves` (5, the thesis' setting): the attacker's moves per
//!   stone, the top N by the threat heuristic; 0 means every empty cell
//!   (disproofs are then exact too);
//! - `vcdt_depth`, `vcdt_nodes`: the limits of each VCDT solve.

use crate::game::{GameKind, Player};
use crate::params::ParamSpec;

use super::vcdt::VcdtOptions;
use super::zone_game::ZoneSettings;

crate::choice_enum! {
    /// Whether the searches run on the relevance-zone game.
    pub enum ZoneMode {
        /// On for game `connect6`, off for `connect`.
        Auto = "auto",
        /// Always (a connect position).
        On = "on",
        /// Never: the search sees every legal move.
        Off = "off",
    }
}

/// `vcdt_depth`: the depth limit of each VCDT solve (the Connect6
/// experiments share this description with their own default).
pub const VCDT_DEPTH: ParamSpec = ParamSpec::int(
    "vcdt_depth",
    0,
    64,
    6,
    "With zones: most attacker moves in a VCDT (iterative deepening 0, 1, …, this)",
);

/// `vcdt_nodes`: the node limit of each VCDT solve.
pub const VCDT_NODES: ParamSpec = ParamSpec::int(
    "vcdt_nodes",
    1,
    1_000_000_000,
    20_000,
    "With zones: most nodes one VCDT solve may visit",
);

crate::options! {
    /// The connect games' search options (module documentation).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct ZoneOptions {
        /// Whether the search runs on the zone game.
        pub zones: ZoneMode => {
            "zones", choice = ZoneMode::Auto,
            "Relevance-zone search (connect games): defender stones restricted to VCDT relevance zones, attacker stones to the top attacker_moves; auto = on for connect6 only"
        },
        /// The attacker's moves per stone (0 = all).
        pub attacker_moves: usize => {
            "attacker_moves", int(0, 4096) = 5,
            "With zones: the attacker's moves are its best N cells by the threat heuristic (0 = all cells, then disproofs are exact too)"
        },
        /// VCDT depth limit.
        pub vcdt_depth: u32 => VCDT_DEPTH,
        /// VCDT node limit.
        pub vcdt_nodes: u64 => VCDT_NODES,
    }
}

impl ZoneOptions {
    /// Whether a search of a `kind` position runs on the zone game.
    pub fn is_on(&self, kind: GameKind) -> bool {
        match self.zones {
            ZoneMode::On => true,
            ZoneMode::Off => false,
            ZoneMode::Auto => kind == GameKind::Connect6,
        }
    }

    /// The zone game's settings for `attacker`'s question.
    pub fn settings(&self, attacker: Player) -> ZoneSettings {
        ZoneSettings {
            attacker,
            attacker_moves: self.attacker_moves,
            vcdt: self.vcdt(),
        }
    }

    /// The VCDT limits.
    pub fn vcdt(&self) -> VcdtOptions {
        VcdtOptions {
            max_depth: self.vcdt_depth,
            max_nodes: self.vcdt_nodes,
        }
    }
}
