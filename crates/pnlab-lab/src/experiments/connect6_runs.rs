//! Runs of the relevance-zone df-pn family on Connect6 positions, shared
//! by `connect6-positions` (the generator of the position set) and
//! `connect6-deep-dfpn` (the thesis' Table 3.2 comparison), and the check
//! of the proofs they find.
//!
//! A run is df-pn, 1+ε or Deep df-pn on the [`ZoneGame`] of the position
//! (thesis §3.3.3: defender moves from relevance zones, the attacker's top
//! 5 moves, a VCDT win at an attacker turn start ends the line). Its
//! *node number* is the thesis' "VCDT node number + Deep df-pn node
//! number, including repeatedly traversed nodes": MID calls plus the
//! nodes of every distinct VCDT solve the run asked for. Runs on one
//! position share a [`VcdtCache`], so only the first pays for the VCDT
//! work in time; the node numbers do not depend on the order of runs.

use pnlab_core::clock::Instant;
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::experiments::{ExperimentError, ProofGap};
use pnlab_core::game::connect::vcdt::{Vcdt, VcdtOptions};
use pnlab_core::game::connect::zone::relevance_zone;
use pnlab_core::game::connect::zone_game::{VcdtCache, ZoneContext, ZoneGame, ZoneSettings};
use pnlab_core::game::connect::Connect;
use pnlab_core::game::{Game, Player};
use pnlab_core::search::dfpn::{Dfpn, DfpnOptions};
use pnlab_core::search::params::ParamSpec;
use pnlab_core::search::{Goal, Question, Search, Status};

/// One zone run's results.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ZoneRun {
    /// `dfpn`, `dfpn-eps` or `deep-dfpn`.
    #[serde(deserialize_with = "super::algo_name")]
    pub algo: super::StaticName,
    /// Deep df-pn's (E, D).
    pub deep: Option<(u32, u32)>,
    /// 1+ε's ε.
    pub eps: Option<f64>,
    /// `Proved`, `Unknown(MaxNodes)` at the cap, or a restricted disproof
    /// (`Disproved` of the zone game, not of the real game).
    pub status: Status,
    /// MID calls (the df-pn node number, repeats included).
    pub mid_calls: u64,
    /// Nodes of the distinct VCDT solves the run asked for.
    pub vcdt_nodes: u64,
    /// Seesaw effect number (§9 `revisits`).
    pub revisits: u64,
    /// Root switches (§9).
    pub root_switches: u64,
    /// Wall time (the VCDT work of cached solves is not in it).
    pub time_ms: f64,
}

impl ZoneRun {
    /// The thesis' node number: MID calls + VCDT nodes.
    pub fn nodes(&self) -> u64 {
        self.mid_calls + self.vcdt_nodes
    }

    /// Whether the run proved the win.
    pub fn proved(&self) -> bool {
        self.status == Status::Proved
    }
}

/// The `vcdt_depth` setting of the Connect6 experiments.
pub const fn vcdt_depth_setting(default: i64) -> ParamSpec {
    ParamSpec::int(
        "vcdt_depth",
        0,
        i64::MAX,
        default,
        "Most attacker moves a VCDT threat-space search tries before the winning one.",
    )
}

/// The `vcdt_nodes` setting of the Connect6 experiments.
pub const fn vcdt_nodes_setting(default: i64) -> ParamSpec {
    ParamSpec::int(
        "vcdt_nodes",
        1,
        i64::MAX,
        default,
        "Node cap of one VCDT solve.",
    )
}

/// The zone settings of the experiments: the side to move attacks, the
/// attacker's top `attacker_moves` cells, VCDT limits `vcdt`.
pub fn settings(pos: &Connect, attacker_moves: usize, vcdt: VcdtOptions) -> ZoneSettings {
    ZoneSettings {
        attacker: pos.to_move(),
        attacker_moves,
        vcdt,
    }
}

/// Builds the df-pn-family search of `opts` on the zone game of `pos`,
/// with its context.
pub fn zone_search(
    pos: &Connect,
    algo: &'static str,
    opts: DfpnOptions,
    zone: ZoneSettings,
    cache: &Arc<VcdtCache>,
) -> (Dfpn<ZoneGame>, Arc<ZoneContext>) {
    let ctx = ZoneContext::with_cache(zone, cache.clone());
    let g = ZoneGame::new(pos.clone(), ctx.clone());
    let q = Question {
        attacker: zone.attacker,
        goal: Goal::Win,
    };
    (Dfpn::new(algo, g, q, opts), ctx)
}

/// One run capped at `cap` on the node number (MID calls + VCDT nodes).
pub fn zone_run(
    pos: &Connect,
    algo: &'static str,
    opts: DfpnOptions,
    zone: ZoneSettings,
    cache: &Arc<VcdtCache>,
    cap: u64,
) -> ZoneRun {
    let (mut s, ctx) = zone_search(pos, algo, opts, zone, cache);
    let start = Instant::now();
    let vcdt = || ctx.vcdt_nodes.load(Ordering::Relaxed);
    while !Search::status(&s).is_final() {
        if Search::counters(&s).iterations + vcdt() >= cap {
            Search::stop(&mut s, pnlab_core::search::StopReason::MaxNodes);
            break;
        }
        Search::step(&mut s);
    }
    let c = Search::counters(&s);
    ZoneRun {
        algo,
        deep: opts.deep,
        eps: opts.eps,
        status: Search::status(&s),
        mid_calls: c.iterations,
        vcdt_nodes: vcdt(),
        revisits: c.revisits,
        root_switches: c.seesaw_root_switches,
        time_ms: start.elapsed().as_secs_f64() * 1000.0,
    }
}

/// The error of a proof that fails at `g`.
fn broken(g: &Connect, gap: ProofGap) -> ExperimentError {
    ExperimentError::BrokenProof {
        position: g.notation(),
        gap,
    }
}

/// Checks the proof a finished zone search holds in its table, against
/// the rules and freshly computed zones and VCDTs (no cache), using the
/// table only to choose the attacker's moves: from the root, at each
/// attacker node the first legal move whose position the table holds as
/// proved is followed, at each defender node every move of the zone game
/// (the zone recomputed from scratch, or every empty cell) is followed,
/// and every leaf must be a finished game the attacker won or an
/// attacker turn start with a VCDT whose proof holds step by step.
/// Returns the number of positions checked.
pub fn check_proof(s: &Dfpn<ZoneGame>, zone: ZoneSettings) -> Result<usize, ExperimentError> {
    let root = s.root().inner().clone();
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    let attacker = zone.attacker;
    let p = stack[0].rules().p;
    while let Some(g) = stack.pop() {
        if !seen.insert(g.hash()) {
            continue;
        }
        if let Some(o) = g.outcome() {
            if o.winner() == Some(attacker) {
                continue;
            }
            return Err(broken(&g, ProofGap::AttackerDoesNotWin));
        }
        let proved = |c: &Connect| s.table().get(c.hash()).is_some_and(|e| e.pn == 0);
        let stones = g.stones_left();
        let turn_start = g.to_move() == attacker
            && (g.moves().is_empty()
                || pnlab_core::game::connect::turn_at(g.rules(), g.moves().len() - 1).0
                    != attacker);
        if turn_start {
            let mut v = Vcdt::new(g.board(), attacker, p, zone.vcdt);
            if v.solve(stones).is_some() && v.proof_holds(stones) {
                continue;
            }
        }
        let mut moves = Vec::new();
        if g.to_move() == attacker {
            g.legal_moves(&mut moves);
            let good = moves.iter().find(|&&m| {
                let mut c = g.clone();
                c.play(m);
                proved(&c) || c.outcome().is_some_and(|o| o.winner() == Some(attacker))
            });
            let Some(&m) = good else {
                return Err(broken(&g, ProofGap::NoProvedMove));
            };
            let mut c = g.clone();
            c.play(m);
            stack.push(c);
        } else {
            let defender: Player = g.to_move();
            if pnlab_core::game::connect::threats::immediate_win(g.board(), defender, stones)
                .is_some()
            {
                return Err(broken(&g, ProofGap::DefenderCompletesK));
            }
            let (z, _) = relevance_zone(g.board(), defender, stones, p, zone.vcdt);
            match z {
                Some(z) => moves.extend(z),
                None => g.legal_moves(&mut moves),
            }
            for m in moves {
                let mut c = g.clone();
                c.play(m);
                stack.push(c);
            }
        }
    }
    Ok(seen.len())
}
