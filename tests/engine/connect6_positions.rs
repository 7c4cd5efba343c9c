//! The bundled Connect6 set (`positions/connect6/generated.toml`): every
//! position is a win for the side to move. The exhaustive reference cannot
//! reach 19 × 19, so each win is proved by df-pn with relevance zones (the
//! file's parameters) and the proof is checked independently of the
//! search's own bookkeeping: from the root, one attacker move the table
//! holds as proved, every defender move of a freshly computed zone, and
//! every leaf a finished win or a VCDT whose proof is replayed step by
//! step (`experiments::connect6_runs::check_proof`). The zones themselves
//! are tested sound against the reference in tests/connect_zones.rs.

use pnlab::experiments::connect6_runs::{check_proof, settings, zone_search};
use pnlab::game::connect::vcdt::VcdtOptions;
use pnlab::game::connect::zone_game::VcdtCache;
use pnlab::game::{AnyPosition, Game, GameKind, Player};
use pnlab::positions::{bundled, load_text};
use pnlab::search::dfpn::DfpnOptions;
use pnlab::search::{Search, Status};

fn set() -> Vec<(String, pnlab::game::connect::Connect, VcdtOptions)> {
    let f = bundled()
        .iter()
        .find(|f| f.path == "positions/connect6/generated.toml")
        .expect("the Connect6 set is bundled");
    let entries = load_text(f.path, f.text).unwrap();
    entries
        .into_iter()
        .map(|e| {
            assert_eq!(e.game, GameKind::Connect6, "{}", e.name);
            assert_eq!(
                e.expected.as_ref().and_then(|x| x.result.as_deref()),
                Some("win")
            );
            let AnyPosition::Connect(g) = e.position else {
                panic!("{}: not a connect position", e.name)
            };
            let get = |k: &str, d: u64| {
                e.params
                    .iter()
                    .find(|(n, _)| n == k)
                    .map_or(d, |(_, v)| v.parse().unwrap())
            };
            let vcdt = VcdtOptions {
                max_depth: get("vcdt_depth", 6) as u32,
                max_nodes: get("vcdt_nodes", 20_000),
            };
            (e.name, g, vcdt)
        })
        .collect()
}

fn prove_and_check(name: &str, g: &pnlab::game::connect::Connect, vcdt: VcdtOptions) -> usize {
    let zone = settings(g, 5, vcdt);
    let cache = VcdtCache::new();
    let (mut s, _) = zone_search(g, "dfpn", DfpnOptions::default(), zone, &cache);
    let mut steps = 0u64;
    while !Search::status(&s).is_final() {
        Search::step(&mut s);
        steps += 1;
        assert!(steps < 100_000, "{name}: no proof within 100000 iterations");
    }
    assert_eq!(Search::status(&s), Status::Proved, "{name}");
    check_proof(&s, zone).unwrap_or_else(|e| panic!("{name}: proof does not check: {e}"))
}

#[test]
fn the_set_has_eight_positions_with_both_sides_to_move() {
    let set = set();
    assert!(set.len() >= 8, "{} positions", set.len());
    let black = set
        .iter()
        .filter(|(_, g, _)| g.to_move() == Player::First)
        .count();
    assert!(
        black > 0 && black < set.len(),
        "{black} of {} Black to move",
        set.len()
    );
}

/// The three smallest positions (by stones) in the default run.
#[test]
fn wins_of_the_set_are_proved_and_the_proofs_check() {
    let mut set = set();
    set.sort_by_key(|(_, g, _)| g.moves().len());
    for (name, g, vcdt) in set.iter().take(3) {
        let n = prove_and_check(name, g, *vcdt);
        assert!(n >= 1, "{name}");
    }
}

/// Every position of the set (minutes in a debug build).
#[test]
#[ignore]
fn every_win_of_the_set_is_proved_and_the_proof_checks() {
    for (name, g, vcdt) in set() {
        prove_and_check(&name, &g, vcdt);
    }
}
