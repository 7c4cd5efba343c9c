//! Hill-climbing for Deep df-pn's (E, D) (thesis Algorithm 1): every
//! probe's node count is checked against a plain recursive Deep df-pn
//! written in this file (no code shared with the project's MID), and the walk's
//! rules (start at (2, 2), move to the better forward neighbour, stop at a
//! point whose forward neighbours are not better, cap ⇒ ∞) are checked on
//! the probes it reports.

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::{AnyPosition, Game, GameKind};
use pnlab::search::dfpn::hill_climb::{probe, ClimbRule};
use pnlab::search::dfpn::{hill_climb, HillClimbResult, Probe};
use pnlab::search::params::Params;
use pnlab::search::{Question, QuestionKind, SearchSetup};

use crate::common;
use common::children;

fn setup(kind: GameKind, text: &str, q: QuestionKind) -> SearchSetup {
    SearchSetup {
        position: AnyPosition::parse(kind, text).expect("position"),
        params: Params::default(),
        seed: 0,
        question: q,
        memory_limit_bytes: None,
    }
}

/// Deep df-pn written plainly in this file, so the probes are checked
/// against code that shares nothing with the project's explicit-stack MID:
/// recursive MID (Nagai 2002) over an unbounded `HashMap`, children in move
/// order, terminal children valued at once and never entered, unknown
/// children not in the table counting E^(D−d) at depth d (1 when d ≥ D),
/// ties to the leftmost child.
struct PlainDeepDfpn<G: Game> {
    table: HashMap<u64, (u64, u64)>,
    question: Question,
    e: u64,
    d: u32,
    calls: u64,
    cap: u64,
    _game: std::marker::PhantomData<G>,
}

const INF: u64 = u64::MAX;

fn sat_add(a: u64, b: u64) -> u64 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(INF - 1)
    }
}

impl<G: Game> PlainDeepDfpn<G> {
    /// (φ, δ) of a child for its own player to move: terminal results from
    /// the rules, else the table, else the deep initial value.
    fn child_numbers(&self, c: &G, depth: u32) -> (u64, u64) {
        let attacker_moves = c.to_move() == self.question.attacker;
        if let Some(o) = c.outcome() {
            let proved = self.question.holds(o);
            // (pn, dn) → (φ, δ) by the child's own kind.
            let (pn, dn) = if proved { (0, INF) } else { (INF, 0) };
            return if attacker_moves { (pn, dn) } else { (dn, pn) };
        }
        if let Some(&v) = self.table.get(&c.hash()) {
            return v;
        }
        let v = if self.d > depth {
            self.e.saturating_pow(self.d - depth)
        } else {
            1
        };
        (v, v)
    }

    /// MID(n, thφ, thδ); `None` once the call cap is exceeded.
    fn mid(&mut self, n: &G, depth: u32, th_phi: u64, th_delta: u64) -> Option<()> {
        self.calls += 1;
        if self.calls > self.cap {
            return None;
        }
        let children = children(n);
        loop {
            let nums: Vec<(u64, u64)> = children
                .iter()
                .map(|c| self.child_numbers(c, depth + 1))
                .collect();
            // Alternating games: φ(n) = min δ(c), δ(n) = Σ φ(c).
            let phi = nums.iter().map(|&(_, dl)| dl).min().expect("a move");
            let delta = nums.iter().fold(0, |acc, &(ph, _)| sat_add(acc, ph));
            if phi >= th_phi || delta >= th_delta {
                self.table.insert(n.hash(), (phi, delta));
                return Some(());
            }
            let mut best = 0;
            for (i, &(_, dl)) in nums.iter().enumerate() {
                if dl < nums[best].1 {
                    best = i;
                }
            }
            let delta2 = nums
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != best)
                .map(|(_, &(_, dl))| dl)
                .min()
                .unwrap_or(INF);
            let phi_c1 = nums[best].0;
            let child_th_phi = if th_delta == INF {
                INF
            } else {
                th_delta + phi_c1 - delta
            };
            let child_th_delta = th_phi.min(sat_add(delta2, 1));
            self.mid(&children[best], depth + 1, child_th_phi, child_th_delta)?;
        }
    }
}

/// node(E, D) by the plain recursive Deep df-pn above: MID calls to solve
/// the root, `None` when the cap is reached.
fn nodes_by_plain_recursion(su: &SearchSetup, e: u32, d: u32, cap: u64) -> Option<u64> {
    let q = su.root_question();
    pnlab::with_position!(&su.position, g => {
        let mut s = PlainDeepDfpn {
            table: HashMap::new(),
            question: q,
            e: e as u64,
            d,
            calls: 0,
            cap,
            _game: std::marker::PhantomData,
        };
        s.mid(g, 0, INF, INF).map(|()| s.calls)
    })
}

fn check_walk(su: &SearchSetup, cap: u64, rule: ClimbRule) -> HillClimbResult {
    let r = hill_climb(su, cap, rule);
    let by: HashMap<(u32, u32), Option<u64>> =
        r.probes.iter().map(|p| ((p.e, p.d), p.nodes)).collect();
    assert_eq!(by.len(), r.probes.len(), "a point was probed twice");
    assert_eq!(
        (r.probes[0].e, r.probes[0].d),
        (2, 2),
        "the walk starts at (2, 2)"
    );
    for p in &r.probes {
        assert_eq!(
            p.nodes,
            nodes_by_plain_recursion(su, p.e, p.d, cap),
            "probe {p} disagrees with the plain recursive Deep df-pn"
        );
    }
    let key = |v: Option<u64>| v.unwrap_or(u64::MAX);
    let (e, d) = r.chosen;
    assert_eq!(Some(&r.chosen_nodes), by.get(&(e, d)));
    // The chosen point's forward neighbours were probed and neither is
    // better (a local minimum, or the start of a flat).
    let right = by.get(&(e + 1, d)).expect("(E+1, D) probed");
    let up = by.get(&(e, d + 1)).expect("(E, D+1) probed");
    assert!(key(*right) >= key(r.chosen_nodes), "{r}");
    assert!(key(*up) >= key(r.chosen_nodes), "{r}");
    // The walk only ever moves forward from (2, 2).
    assert!(r.probes.iter().all(|p| p.e >= 2 && p.d >= 2));
    r
}

#[test]
fn hill_climb_on_tictactoe_and_connect4() {
    for rule in [ClimbRule::Thesis, ClimbRule::FirstMinimum] {
        let r = check_walk(
            &setup(GameKind::TicTacToe, ".........", QuestionKind::NotLose),
            1_000_000,
            rule,
        );
        assert!(r.chosen_nodes.is_some(), "{r}");
    }
    // A Connect Four position with 22 stones from a seeded random game.
    let mut su = setup(GameKind::Connect4, "", QuestionKind::Win);
    let mut rng = SmallRng::seed_from_u64(28);
    let p = loop {
        let mut p = su.position.clone();
        for _ in 0..22 {
            let moves = p.legal_move_names();
            if moves.is_empty() {
                break;
            }
            p = p
                .after_move(&moves[rng.random_range(0..moves.len())])
                .expect("legal");
        }
        // A position that takes some work, so the walk has a landscape.
        if p.outcome().is_none() {
            let mut t = su.clone();
            t.position = p.clone();
            if probe(&t, 2, 2, 100_000).is_some_and(|n| (200..50_000).contains(&n)) {
                break p;
            }
        }
    };
    su.position = p;
    let first = check_walk(&su, 200_000, ClimbRule::FirstMinimum);
    let r = check_walk(&su, 200_000, ClimbRule::Thesis);
    eprintln!("{r}");
    // Both rules walk the same way up to the first local minimum; the
    // thesis' rule only adds probes after it.
    assert_eq!(
        r.probes[..first.probes.len()],
        first.probes[..],
        "{r}\n{first}"
    );
    assert!(
        r.probes.iter().any(|p| p.nodes > Some(10)),
        "a trivial position: {r}"
    );
    // Probe lines print as the CLI shows them.
    assert!(r.probes[0].to_string().starts_with("E=2 D=2 nodes="));
}

#[test]
fn capped_probes_count_infinity_and_the_walk_stays_at_the_start() {
    let su = setup(GameKind::TicTacToe, ".........", QuestionKind::Win);
    let r = hill_climb(&su, 5, ClimbRule::Thesis);
    assert!(r.probes.iter().all(|p| p.nodes.is_none()), "{r}");
    assert_eq!(r.chosen, (2, 2), "a flat of ∞ returns its smallest point");
    assert_eq!(r.chosen_nodes, None);
    assert_eq!(
        Probe {
            e: 3,
            d: 4,
            nodes: None
        }
        .to_string(),
        "E=3 D=4 nodes=∞"
    );
}
