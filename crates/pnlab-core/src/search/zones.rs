//! Relevance-zone-oriented searches (thesis §3.3.2; Wu & Lin 2010): how
//! PNS and the df-pn family (`pns`, `dfpn`, `dfpn-eps`, `deep-dfpn`) run
//! on [`ZoneGame`], the connect position whose defender moves are
//! restricted to relevance zones and whose attacker moves are the top N by
//! a heuristic. The searches themselves are unchanged; their build
//! functions wrap the position when zones are on.
//!
//! The options (`zones`, `attacker_moves`, `vcdt_depth`, `vcdt_nodes`)
//! belong to the connect games ([`ZoneOptions`]): the registry adds them
//! to the parameters of those four algorithms for connect and connect6
//! positions only.
//!
//! Answers: a proof in the zone game is a proof in the real game (the
//! zones are sound, see `game::connect::zone`). A disproof is real only
//! when the attacker was not restricted (`attacker_moves = 0`); otherwise
//! the run ends `unknown` with stop reason `restricted-disproof`. The JSON
//! output adds `zones`, `vcdt_nodes` and `vcdt_solves`.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::game::connect::zone_game::{VcdtCache, ZoneContext, ZoneGame};
use crate::game::connect::zone_options::{ZoneMode, ZoneOptions};
use crate::game::AnyPosition;

use super::snapshot::{Snapshot, ViewRequest};
use super::{
    Counters, Search, SearchError, SearchSetup, StatsSample, Status, StopReason, SwitchEvent,
};

/// The zone game for `setup`'s position when zones are on, `None` when
/// they are off (or `auto` on a game other than connect6, or the setup
/// carries no zone options: the algorithm does not take them or the game
/// has none).
pub fn zone_root(setup: &SearchSetup) -> Result<Option<ZoneGame>, SearchError> {
    if setup.params.get("zones").is_none() {
        return Ok(None);
    }
    let opts = ZoneOptions::from_params(&setup.params)?;
    let kind = setup.position.kind();
    if !opts.is_on(kind) {
        return Ok(None);
    }
    let AnyPosition::Connect(pos) = &setup.position else {
        // Zone options are offered for connect positions only; a connect
        // position under `within` is the one other case.
        if opts.zones == ZoneMode::Auto {
            return Ok(None);
        }
        return Err(SearchError::Unsupported {
            algo: String::new(),
            reason: "zones = on searches plain connect and connect6 positions; it does not combine with `within`".into(),
        });
    };
    let settings = opts.settings(setup.root_question().attacker);
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
    /// A copy of the inner search; the zone context (settings and VCDT
    /// counters) is shared, as the counters only ever grow.
    fn checkpoint(&self) -> Option<Box<dyn Search>> {
        Some(Box::new(ZoneSearch {
            inner: self.inner.checkpoint()?,
            ctx: self.ctx.clone(),
        }))
    }

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
) -> Result<Option<Box<dyn Search>>, SearchError> {
    Ok(zone_root(setup)?.map(|g| ZoneSearch::boxed(make(&g), &g)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;
    use crate::search::{registry, QuestionKind};

    fn setup(kind: GameKind, pos: &str, pairs: &[(&str, &str)]) -> SearchSetup {
        let dfpn = registry::find_algo("dfpn").unwrap();
        SearchSetup {
            position: AnyPosition::parse(kind, pos).unwrap(),
            params: dfpn.params_from_pairs(kind, pairs).unwrap(),
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
        assert!(zone_root(&setup(GameKind::Hex, "3:", &[]))
            .unwrap()
            .is_none());
    }

    #[test]
    fn zone_options_belong_to_the_connect_games_only() {
        let dfpn = registry::find_algo("dfpn").unwrap();
        let names =
            |k: GameKind| -> Vec<&str> { dfpn.params_for(k).iter().map(|s| s.name).collect() };
        assert_eq!(names(GameKind::Hex), ["threads", "ghi"]);
        assert_eq!(
            names(GameKind::Connect6),
            [
                "threads",
                "ghi",
                "zones",
                "attacker_moves",
                "vcdt_depth",
                "vcdt_nodes"
            ]
        );
        let on = [("zones".to_string(), "on".to_string())];
        let e = dfpn.params_from_pairs(GameKind::Hex, &on).unwrap_err();
        assert_eq!(
            e.to_string(),
            "parameter `zones` applies to connect, connect6 positions only, not to hex"
        );
        // An algorithm that does not run on the zone game never has them.
        let pn = registry::find_algo("deep-pn").unwrap();
        assert!(pn
            .params_for(GameKind::Connect6)
            .iter()
            .all(|s| s.name != "zones"));
        assert!(pn.params_from_pairs(GameKind::Connect6, &on).is_err());
        assert!(dfpn.check_names(&on).is_ok());
        let e = dfpn
            .check_names(&[("zone".to_string(), "on".to_string())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("for connect6 positions: zones"), "{e}");
    }
}
