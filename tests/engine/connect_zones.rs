//! Threats, VCDT and relevance zones against the exhaustive reference
//! (`search::reference::answer_memo`, an AND/OR evaluation of the real
//! game sharing no code with the threat solver) on seeded random positions
//! of small members of the connect family:
//!
//! - every VCDT win the solver finds is a real win;
//! - every relevance zone is sound: each placement of the defender's
//!   remaining stones that avoids the zone loses;
//! - the zone searches (`pns`, `dfpn`, `dfpn-eps`, `deep-dfpn` with
//!   `zones=on`) answer like the reference when the attacker is not
//!   restricted (`attacker_moves=0`), and with the top-N restriction every
//!   proof is a real proof and no run ends `disproved`.

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::SeedableRng;

use pnlab::bench::random_walk;
use pnlab::game::connect::vcdt::{Vcdt, VcdtOptions};
use pnlab::game::connect::zone::relevance_zone;
use pnlab::game::connect::{Cell, Connect};
use pnlab::game::{Game, Player};
use pnlab::search::{
    self, reference, Budget, Goal, Question, QuestionKind, SearchSetup, Status, StopReason,
};

/// `count` random positions of `rules` with `empties` empty cells.
fn positions(rules: &str, empties: usize, count: usize, seed: u64) -> Vec<Connect> {
    let start = Connect::parse(&format!("{rules}:")).unwrap();
    let cells = start.move_count();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        if let Some(g) = random_walk(&start, cells - empties, &mut rng) {
            out.push(g);
        }
    }
    out
}

fn wins(g: &Connect, attacker: Player, memo: &mut HashMap<u64, bool>) -> bool {
    let q = Question {
        attacker,
        goal: Goal::Win,
    };
    let mut budget = u64::MAX;
    reference::answer_bounded(g, &q, memo, &mut budget).expect("unbounded")
}

const MEMBERS: &[(&str, usize)] = &[
    ("6,6,4,2,1", 14),
    ("6,6,5,2,1", 12),
    ("5,5,4,1,1", 11),
    ("6,5,4,2,2", 12),
    ("7,5,5,2,1", 12),
];

/// 40 positions of each member of `MEMBERS`, the `i`-th member's drawn
/// with seed `first_seed + i`.
fn member_positions(first_seed: u64) -> impl Iterator<Item = Connect> {
    MEMBERS
        .iter()
        .enumerate()
        .flat_map(move |(i, &(rules, empties))| {
            positions(rules, empties, 40, first_seed + i as u64)
        })
}

#[test]
fn vcdt_wins_are_real_wins() {
    let mut found = 0;
    let mut checked = 0;
    for g in member_positions(11) {
        let me = g.to_move();
        let mut v = Vcdt::new(g.board(), me, g.rules().p, VcdtOptions::default());
        if v.solve(g.stones_left()).is_some() {
            assert!(v.proof_holds(g.stones_left()), "{g:?}");
            assert!(
                wins(&g, me, &mut HashMap::new()),
                "VCDT claims a win: {g:?}"
            );
            found += 1;
        }
        checked += 1;
    }
    eprintln!("{found} VCDT wins among {checked} positions, all real");
    assert!(
        found >= 60,
        "too few VCDT wins ({found}) for the test to mean much"
    );
}

/// Every `r`-subset of `cells`.
fn subsets(cells: &[Cell], r: usize) -> Vec<Vec<Cell>> {
    if r == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        for mut rest in subsets(&cells[i + 1..], r - 1) {
            rest.insert(0, c);
            out.push(rest);
        }
    }
    out
}

#[test]
fn relevance_zones_are_sound() {
    let mut zones = 0;
    let mut placements = 0;
    for g in member_positions(101) {
        let defender = g.to_move();
        let left = g.stones_left();
        let (z, _) = relevance_zone(
            g.board(),
            defender,
            left,
            g.rules().p,
            VcdtOptions::default(),
        );
        let Some(z) = z else { continue };
        zones += 1;
        let mut outside = Vec::new();
        g.legal_moves(&mut outside);
        assert!(
            z.iter().all(|c| outside.contains(c)),
            "zone cells must be empty"
        );
        outside.retain(|c| !z.contains(c));
        let mut memo = HashMap::new();
        for s in subsets(&outside, usize::from(left)) {
            let mut h = g.clone();
            for &c in &s {
                if h.outcome().is_none() {
                    h.play(c);
                }
            }
            placements += 1;
            assert!(
                wins(&h, defender.other(), &mut memo),
                "{g:?}: zone {:?} but the defender survives with {:?}",
                z.iter().map(|&c| g.cell_name(c)).collect::<Vec<_>>(),
                s.iter().map(|&c| g.cell_name(c)).collect::<Vec<_>>()
            );
        }
    }
    eprintln!("{zones} zones, {placements} placements outside them, all lost");
    assert!(zones >= 40, "too few zones ({zones})");
}

fn run(algo: &str, g: &Connect, q: QuestionKind, pairs: &[(&str, &str)]) -> Status {
    let setup = SearchSetup {
        question: q,
        ..SearchSetup::new(algo, g.clone().into_any(), pairs).unwrap()
    };
    let mut s = search::build(algo, &setup).unwrap();
    let budget = Budget {
        max_iterations: Some(1_000_000),
        ..Budget::default()
    };
    search::run(s.as_mut(), &budget, None)
}

const ZONE_ALGOS: [&str; 4] = ["pns", "dfpn", "dfpn-eps", "deep-dfpn"];

#[test]
fn zone_searches_with_every_attacker_move_are_exact() {
    let mut runs = 0;
    for (i, &(rules, empties)) in MEMBERS.iter().enumerate() {
        for g in positions(rules, empties.min(9), 12, 202 + i as u64) {
            let me = g.to_move();
            for (qk, goal) in [
                (QuestionKind::Win, Goal::Win),
                (QuestionKind::NotLose, Goal::NotLose),
            ] {
                let q = Question { attacker: me, goal };
                let truth = reference::answer_memo(&g, &q);
                for algo in ZONE_ALGOS {
                    let st = run(algo, &g, qk, &[("zones", "on"), ("attacker_moves", "0")]);
                    let want = if truth {
                        Status::Proved
                    } else {
                        Status::Disproved
                    };
                    assert_eq!(st, want, "{algo} {goal:?} on {g:?}");
                    runs += 1;
                }
            }
        }
    }
    eprintln!("{runs} zone runs with every attacker move agree with the reference");
}

#[test]
fn zone_proofs_with_top_n_attacker_moves_are_real_proofs() {
    let (mut proofs, mut unknown) = (0, 0);
    for (i, &(rules, empties)) in MEMBERS.iter().enumerate() {
        for g in positions(rules, empties.min(10), 12, 303 + i as u64) {
            let me = g.to_move();
            let q = Question {
                attacker: me,
                goal: Goal::Win,
            };
            let truth = reference::answer_memo(&g, &q);
            for algo in ZONE_ALGOS {
                let st = run(
                    algo,
                    &g,
                    QuestionKind::Win,
                    &[("zones", "on"), ("attacker_moves", "3")],
                );
                match st {
                    Status::Proved => {
                        assert!(truth, "{algo} proved a loss: {g:?}");
                        proofs += 1;
                    }
                    Status::Unknown(StopReason::RestrictedDisproof) => unknown += 1,
                    other => panic!("{algo} ended {other:?} on {g:?}"),
                }
            }
        }
    }
    eprintln!("{proofs} proofs (all real), {unknown} restricted disproofs reported unknown");
    assert!(
        proofs >= 40 && unknown >= 10,
        "{proofs} proofs, {unknown} unknown"
    );
}
