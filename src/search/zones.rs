//! Relevance-zone-oriented searches (thesis §3.3.2; Wu & Lin 2010): the
//! option that runs PNS and the df-pn family (`pns`, `dfpn`, `dfpn-eps`,
//! `deep-dfpn`) on [`ZoneGame`], the connect position whose defender moves
//! are restricted to relevance zones and whose attacker moves are the top
//! N by a heuristic. The searches themselves are unchanged; their build
//! functions wrap the position when zones are on.
//!
//! Parameters (added to those four algorithms):
//! - `zones = auto | on | off`: auto is on for game `connect6` (the only
//!   practical way to search 19 × 19) and off for everything else, where
//!   the searches stay exact; `on` for a game other than connect or
//!   connect6 is an error.
//! - `attacker_moves` (5, the thesis' setting): the attacker's moves per
//!   stone; 0 means every empty cell.
//! - `vcdt_depth`, `vcdt_nodes`: the limits of each VCDT solve.
//!
//! Answers: a proof in the zone game is a proof in the real game (the
//! zones are sound, see `game::connect::zone`). A disproof is real only
//! when the attacker was not restricted (`attacker_moves = 0`); otherwise
//! the run ends `unknown` with stop reason `restricted-disproof`. The JSON
//! output adds `zones`, `vcdt_nodes` and `vcdt_solves`.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::game::connect::vcdt::VcdtOptions;
use crate::game::connect::zone_game::{VcdtCache, ZoneContext, ZoneGame, ZoneSettings};
use crate::game::{AnyPosition, Game, GameKind};

use super::params::{ParamKind, ParamSpec};
use super::snapshot::{Snapshot, ViewRequest};
use super::{Counters, Search, SearchSetup, StatsSample, Status, StopReason, SwitchEvent};

/// `zones = auto | on | off`.
pub const ZONES: ParamSpec = ParamSpec {
    name: "zones",
    kind: ParamKind::Choice {
        options: &["auto", "on", "off"],
        default: "auto",
    },
    help: "Relevance-zone search (connect games): defender stones restricted to VCDT relevance zones, attacker stones to the top attacker_moves; auto = on for connect6 only",
};

/// The attacker's moves per stone with zones.
pub const ATTACKER_MOVES: ParamSpec = ParamSpec {
    name: "attacker_moves",
    kind: ParamKind::Int {
        min: 0,
        max: 4096,
        default: 5,
    },
    help: "With zones: the attacker's moves are its best N cells by the threat heuristic (0 = all cells, then disproofs are exact too)",
};

/// VCDT depth limit with zones.
pub const VCDT_DEPTH: ParamSpec = ParamSpec {
    name: "vcdt_depth",
    kind: ParamKind::Int {
        min: 0,
        max: 64,
        default: 6,
    },
    help: "With zones: most attacker moves in a VCDT (iterative deepening 0, 1, …, this)",
};

/// VCDT node limit with zones.
pub const VCDT_NODES: ParamSpec = ParamSpec {
    name: "vcdt_nodes",
    kind: ParamKind::Int {
        min: 1,
        max: 1_000_000_000,
        default: 20_000,
    },
    help: "With zones: most nodes one VCDT solve may visit",
};

/// The zone parameters, in the order the algorithms list them.
pub const PARAMS: [ParamSpec; 4] = [ZONES, ATTACKER_MOVES, VCDT_DEPTH, VCDT_NODES];

/// The zone game for `setup`'s position when zones are on, `None` when
/// they are off (or `auto` on a game other than connect6).
pub fn zone_root(setup: &SearchSetup) -> Result<Option<ZoneGame>, String> {
    // Algorithms without the zone options (dfpn-ghi, the depth-first
    // search) always search the whole game.
    if setup.params.get(ZONES.name).is_none() {
        return Ok(None);
    }
    let mode = setup.params.choice(ZONES.name)?;
    let pos = match &setup.position {
        AnyPosition::Connect(c) => Some(c),
        _ => None,
    };
    let on = match mode {
        "on" => true,
        "off" => false,
        _ => pos.is_some_and(|c| c.kind() == GameKind::Connect6),
    };
    if !on {
        return Ok(None);
    }
    let Some(pos) = pos else {
        return Err(format!(
            "zones=on applies to connect and connect6 positions only, not {}",
            setup.position.kind()
        ));
    };
    let int = |name: &str| -> Result<i64, String> { Ok(setup.params.int(name)?) };
    let settings = ZoneSettings {
        attacker: setup.root_question().attacker,
        attacker_moves: usize::try_from(int(ATTACKER_MOVES.name)?).unwrap_or(0),
        vcdt: VcdtOptions {
            max_depth: u32::try_from(int(VCDT_DEPTH.name)?).unwrap_or(0),
            max_nodes: u64::try_from(int(VCDT_NODES.name)?).unwrap_or(1),
        },
    };
    // The VCDT cache takes its share of the memory budget.
    let cache = VcdtCache::for_memory(setup.memory_limit_bytes);
    Ok(Some(ZoneGame::new(
        pos.clone(),
        ZoneContext::with_cache(settings, cache),
    )))
}

/// A search on a [`ZoneGame`], reporting its VCDT work and turning
/// disproofs of a restricted attacker into `unknown`.
pub struct ZoneSearch {
    inner: Box<dyn Search>,
    ctx: Arc<ZoneContext>,
}

impl ZoneSearch {
    /// Wraps a search built on `game` (or on a copy of it).
    pub fn boxed(inner: Box<dyn Search>, game: &ZoneGame) -> Box<dyn Search> {
        Box::new(ZoneSearch {
            inner,
            ctx: game.context().clone(),
        })
    }

    /// VCDT nodes visited so far.
    pub fn vcdt_nodes(&self) -> u64 {
        self.ctx.vcdt_nodes.load(Ordering::Relaxed)
    }

    fn map(&self, s: Status) -> Status {
        match s {
            Status::Disproved if self.ctx.settings.attacker_moves != 0 => {
                Status::Unknown(StopReason::RestrictedDisproof)
            }
            other => other,
        }
    }
}

impl Search for ZoneSearch {
    fn algo(&self) -> &'static str {
        self.inner.algo()
    }
    fn step(&mut self) -> Status {
        let s = self.inner.step();
        self.map(s)
    }
    fn status(&self) -> Status {
        self.map(self.inner.status())
    }
    fn stop(&mut self, reason: StopReason) {
        self.inner.stop(reason)
    }
    fn counters(&self) -> &Counters {
        self.inner.counters()
    }
    fn counters_mut(&mut self) -> &mut Counters {
        self.inner.counters_mut()
    }
    fn switch_events(&self) -> &[SwitchEvent] {
        self.inner.switch_events()
    }
    fn value_names(&self) -> &'static [&'static str] {
        self.inner.value_names()
    }
    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        self.inner.snapshot(req)
    }
    fn sample(&self) -> StatsSample {
        self.inner.sample()
    }
    fn best_move(&self) -> Option<String> {
        self.inner.best_move()
    }
    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = self.inner.extra_json();
        m.insert("zones".into(), true.into());
        m.insert("vcdt_nodes".into(), self.vcdt_nodes().into());
        m.insert(
            "vcdt_solves".into(),
            self.ctx.vcdt_solves.load(Ordering::Relaxed).into(),
        );
        m
    }
}

/// Builds `make(game)` on the zone game when zones are on for `setup`,
/// else `None` (the caller builds on the plain position).
pub fn build_on_zones(
    setup: &SearchSetup,
    make: impl FnOnce(&ZoneGame) -> Box<dyn Search>,
) -> Result<Option<Box<dyn Search>>, String> {
    Ok(zone_root(setup)?.map(|g| ZoneSearch::boxed(make(&g), &g)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Params, QuestionKind};

    fn setup(kind: GameKind, pos: &str, pairs: &[(&str, &str)]) -> SearchSetup {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        SearchSetup {
            position: AnyPosition::parse(kind, pos).unwrap(),
            params: Params::from_pairs(&PARAMS, &pairs).unwrap(),
            seed: 0,
            question: QuestionKind::Win,
            memory_limit_bytes: None,
        }
    }

    #[test]
    fn auto_is_on_for_connect6_only() {
        assert!(zone_root(&setup(GameKind::Connect6, "j10", &[]))
            .unwrap()
            .is_some());
        assert!(zone_root(&setup(GameKind::Connect, "19,19,6,2,1:j10", &[]))
            .unwrap()
            .is_none());
        assert!(
            zone_root(&setup(GameKind::Connect, "5,5,4,1,1:", &[("zones", "on")]))
                .unwrap()
                .is_some()
        );
        assert!(
            zone_root(&setup(GameKind::Connect6, "j10", &[("zones", "off")]))
                .unwrap()
                .is_none()
        );
        let e = zone_root(&setup(GameKind::Hex, "3:", &[("zones", "on")])).unwrap_err();
        assert!(e.contains("connect"), "{e}");
        assert!(zone_root(&setup(GameKind::Hex, "3:", &[]))
            .unwrap()
            .is_none());
    }
}
