//! Hex knowledge checked against an exhaustive solver written here, apart
//! from the code it checks (its own adjacency lists and connectivity):
//! fill-in of dead and captured cells keeps the winner, virtual
//! connections claim only won positions, the mustplay region keeps every
//! winning defence, a dominated move is never the only win, and df-pn with the knowledge on and off answers like
//! the solver and like the published 6×6 first-move table.

use std::collections::HashMap;

use pnlab::game::hex::inferior::{dominated, fill_in, FillRules};
use pnlab::game::hex::Hex;
use pnlab::game::{Game, Player};

use crate::helpers::unfinished_hex;

/// A plain win/loss solver on raw boards: negamax with a memo, no
/// knowledge. Cells are `r * n + c`; neighbours as in the rules of Hex
/// (c±1, r), (c, r±1), (c+1, r−1), (c−1, r+1).
struct Reference {
    n: usize,
    adj: Vec<Vec<usize>>,
    memo: HashMap<(u128, u128, bool), bool>,
}

impl Reference {
    fn new(n: usize) -> Reference {
        let mut adj = vec![Vec::new(); n * n];
        for r in 0..n as i32 {
            for c in 0..n as i32 {
                for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                    let (x, y) = (c + dc, r + dr);
                    if x >= 0 && y >= 0 && x < n as i32 && y < n as i32 {
                        adj[(r * n as i32 + c) as usize].push((y * n as i32 + x) as usize);
                    }
                }
            }
        }
        Reference {
            n,
            adj,
            memo: HashMap::new(),
        }
    }

    /// Does `own` (Black when `black`) join its edges?
    fn joined(&self, own: u128, black: bool) -> bool {
        let n = self.n;
        let start = |i: usize| {
            if black {
                i / n == 0
            } else {
                i.is_multiple_of(n)
            }
        };
        let goal = |i: usize| {
            if black {
                i / n == n - 1
            } else {
                i % n == n - 1
            }
        };
        let mut seen = 0u128;
        let mut stack = [0usize; 128];
        let mut top = 0;
        for i in (0..n * n).filter(|&i| own >> i & 1 == 1 && start(i)) {
            seen |= 1 << i;
            stack[top] = i;
            top += 1;
        }
        while top > 0 {
            top -= 1;
            let i = stack[top];
            if goal(i) {
                return true;
            }
            for &j in &self.adj[i] {
                if seen >> j & 1 == 0 && own >> j & 1 == 1 {
                    seen |= 1 << j;
                    stack[top] = j;
                    top += 1;
                }
            }
        }
        false
    }

    /// Does Black win with `black`, `white` on the board and Black to
    /// move when `black_moves`?
    fn black_wins(&mut self, black: u128, white: u128, black_moves: bool) -> bool {
        if self.joined(black, true) {
            return true;
        }
        if self.joined(white, false) {
            return false;
        }
        if let Some(&v) = self.memo.get(&(black, white, black_moves)) {
            return v;
        }
        let mut v = !black_moves;
        for i in 0..self.n * self.n {
            let bit = 1u128 << i;
            if (black | white) & bit != 0 {
                continue;
            }
            let w = if black_moves {
                self.black_wins(black | bit, white, false)
            } else {
                self.black_wins(black, white | bit, true)
            };
            if w == black_moves {
                v = w;
                break;
            }
        }
        self.memo.insert((black, white, black_moves), v);
        v
    }

    /// Does the side to move win `g`?
    fn mover_wins(&mut self, g: &Hex) -> bool {
        let s = g.stones();
        let black = g.to_move() == Player::First;
        self.black_wins(s[0], s[1], black) == black
    }
}

/// `count` positions of an `n`×`n` board reached by random play of
/// `min..=max` moves, not yet won (seeded).
fn random_positions(n: u8, min: usize, max: usize, count: usize, seed: u64) -> Vec<Hex> {
    unfinished_hex(n, min..=max, count, seed)
}

const ALL_FILL: FillRules = FillRules {
    dead: true,
    captured: true,
};

/// Fill-in never changes the winner (either side to move), and fills
/// something on a good share of the positions (so the test tests).
fn check_fill_in(n: u8, min: usize, max: usize, count: usize, seed: u64) {
    let mut reference = Reference::new(n as usize);
    let mut filled_any = (0, 0);
    for g in random_positions(n, min, max, count, seed) {
        let s = g.stones();
        let f = fill_in(n, s, ALL_FILL);
        if f.dead != 0 {
            filled_any.0 += 1;
        }
        if f.captured != [0, 0] {
            filled_any.1 += 1;
        }
        for black_moves in [true, false] {
            assert_eq!(
                reference.black_wins(s[0], s[1], black_moves),
                reference.black_wins(f.stones[0], f.stones[1], black_moves),
                "{} (Black to move: {black_moves}): fill-in {f:?} changed the winner",
                g.notation()
            );
        }
    }
    assert!(
        filled_any.0 > count / 10 && filled_any.1 > count / 10,
        "{n}×{n}: dead on {} and captured on {} of {count} positions",
        filled_any.0,
        filled_any.1
    );
}

#[test]
fn fill_in_keeps_the_winner_on_4x4() {
    check_fill_in(4, 2, 12, 3000, 41);
}

#[test]
fn fill_in_keeps_the_winner_on_5x5() {
    check_fill_in(5, 12, 20, 1500, 51);
}

/// The moves `dominated` sets aside, for either player to move: when one
/// of them wins, a move kept wins too; some move is always kept; and
/// moves are set aside on a good share of the positions.
fn check_domination(n: u8, min: usize, max: usize, count: usize, seed: u64) {
    let mut reference = Reference::new(n as usize);
    let board = pnlab::game::hex::board_cells(n);
    let (mut pruned_positions, mut pruned_moves) = (0, 0);
    for g in random_positions(n, min, max, count, seed) {
        let s = g.stones();
        let empty = board & !(s[0] | s[1]);
        for p in [Player::First, Player::Second] {
            let black = p == Player::First;
            let set_aside = dominated(n, s, p, empty);
            assert_ne!(
                set_aside & empty,
                empty,
                "{}: {p:?} keeps no move",
                g.notation()
            );
            if set_aside == 0 {
                continue;
            }
            pruned_positions += 1;
            pruned_moves += set_aside.count_ones();
            // Whether `p` wins by playing cell `i` (the opponent to move).
            let mut wins_by = |i: u32| {
                let mut t = s;
                t[p.index()] |= 1u128 << i;
                reference.black_wins(t[0], t[1], !black) == black
            };
            let cells = |set: u128| (0..n as u32 * n as u32).filter(move |i| set >> i & 1 == 1);
            let kept_wins = cells(empty & !set_aside).any(&mut wins_by);
            if !kept_wins {
                for a in cells(set_aside) {
                    assert!(
                        !wins_by(a),
                        "{}: {p:?} wins only by {}, which was set aside ({set_aside:#x})",
                        g.notation(),
                        g.name_of(a as u8)
                    );
                }
            }
        }
    }
    assert!(
        pruned_positions > count / 10,
        "{n}×{n}: moves set aside on {pruned_positions} of {count} positions ({pruned_moves} moves)"
    );
}

#[test]
fn dominated_moves_are_never_the_only_wins_on_4x4() {
    check_domination(4, 2, 12, 3000, 42);
}

#[test]
fn dominated_moves_are_never_the_only_wins_on_5x5() {
    check_domination(5, 12, 18, 600, 52);
}

/// Every edge-to-edge connection H-search claims is won for its owner
/// (moving second for a VC, first for an SC), every winning reply of the
/// opponent lies in the mustplay region, and the claims are not rare.
fn check_connections(n: u8, min: usize, max: usize, count: usize, seed: u64, over_edges: bool) {
    use pnlab::game::hex::vc::{edge_connections, HSearchRules, DEFAULT_MAX_WORK};
    let rules = HSearchRules {
        max_work: DEFAULT_MAX_WORK,
        over_edges,
    };
    let mut reference = Reference::new(n as usize);
    let board = pnlab::game::hex::board_cells(n);
    let (mut vcs, mut semis, mut narrowed) = (0, 0, 0);
    for g in random_positions(n, min, max, count, seed) {
        let s = g.stones();
        for p in [Player::First, Player::Second] {
            let black = p == Player::First;
            let ec = edge_connections(n, s, p, rules, false);
            // Stopping at the first SC claims a win exactly when the whole
            // search finds a VC or an SC.
            let first = edge_connections(n, s, p, rules, true);
            assert_eq!(
                first.vc.is_some() || !first.semis.is_empty(),
                ec.vc.is_some() || !ec.semis.is_empty(),
                "{}: {p:?}",
                g.notation()
            );
            let owner_wins = |r: &mut Reference, s: [u128; 2], owner_moves: bool| {
                r.black_wins(s[0], s[1], owner_moves == black) == black
            };
            if ec.vc.is_some() {
                vcs += 1;
                assert!(
                    owner_wins(&mut reference, s, false),
                    "{}: {p:?} has no VC between its edges",
                    g.notation()
                );
            }
            if !ec.semis.is_empty() {
                semis += 1;
                assert!(
                    owner_wins(&mut reference, s, true),
                    "{}: {p:?} has no SC between its edges",
                    g.notation()
                );
            }
            let must = ec.mustplay(board);
            let empty = board & !(s[0] | s[1]);
            if must & empty != empty {
                narrowed += 1;
            }
            // The opponent's winning replies, by the solver.
            for i in 0..n as u32 * n as u32 {
                let bit = 1u128 << i;
                if empty & bit == 0 {
                    continue;
                }
                let mut t = s;
                t[p.other().index()] |= bit;
                if !owner_wins(&mut reference, t, true) {
                    assert!(
                        must & bit != 0,
                        "{}: the opponent of {p:?} wins at {} outside the mustplay {must:#x}",
                        g.notation(),
                        g.name_of(i as u8)
                    );
                }
            }
        }
    }
    assert!(
        vcs > count / 20 && semis > count / 20 && narrowed > count / 10,
        "{n}×{n}: {vcs} VCs, {semis} SCs, {narrowed} narrowed mustplays in {count} positions"
    );
}

#[test]
fn virtual_connections_and_mustplay_are_sound_on_4x4() {
    check_connections(4, 2, 10, 1000, 43, false);
    check_connections(4, 2, 10, 1000, 44, true);
}

#[test]
fn virtual_connections_and_mustplay_are_sound_on_5x5() {
    check_connections(5, 12, 18, 500, 53, false);
    check_connections(5, 12, 18, 500, 54, true);
}

/// Runs `dfpn-fast` on `g` with the Hex parameters `pairs` (the defaults
/// otherwise: all knowledge on) and returns whether the side to move wins.
fn fast_mover_wins(g: &Hex, pairs: &[(&str, &str)]) -> bool {
    use pnlab::search::{self, Budget, QuestionKind, SearchSetup, Status};
    let pos = g.into_any();
    let info = search::find_algo("dfpn-fast").expect("registered");
    let setup = SearchSetup {
        position: pos.clone(),
        params: info
            .params_from_pairs(pos.kind(), pairs)
            .unwrap_or_else(|e| panic!("{pairs:?}: {e}")),
        seed: 0,
        question: QuestionKind::Win,
        memory_limit_bytes: Some(64 << 20),
    };
    let mut s = search::build("dfpn-fast", &setup).expect("builds");
    let budget = Budget {
        max_iterations: Some(50_000_000),
        ..Budget::default()
    };
    match search::run(s.as_mut(), &budget, None) {
        Status::Proved => true,
        Status::Disproved => false,
        other => panic!("{} {pairs:?}: {other:?}", g.notation()),
    }
}

/// Every rule off, and each rule alone on top of fill-in's dead cells.
const OFF: &[(&str, &str)] = &[
    ("dead", "off"),
    ("captured", "off"),
    ("dominated", "off"),
    ("vcs", "off"),
    ("mustplay", "off"),
    ("resistance_order", "off"),
    ("fill_key", "off"),
];

/// The published first-move results of `board` (`4x4`, `5x5`, `6x6`):
/// (opening cell, Black wins).
fn first_moves(board: &str) -> Vec<(String, bool)> {
    include_str!("../data/hex/first_moves.csv")
        .lines()
        .filter(|l| l.starts_with(board))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[1].to_string(), f[2] == "black")
        })
        .collect()
}

/// H-search's own switches, each changed alone: on every child or only
/// on the nodes entered, and the AND rule through the edges.
const H_SEARCH_SWITCHES: &[(&str, &str)] = &[("vc_children", "off"), ("vc_over_edges", "on")];

/// Every 4×4 opening with the knowledge on, off and each rule switched
/// alone, and every 5×5 opening with the knowledge on, with H-search's
/// switches changed and with the fill-in alone (the knowledge off there
/// is the 30-second plain search), answers like the published table.
#[test]
fn openings_of_4x4_and_5x5_match_the_table_with_knowledge_on_and_off() {
    let mut small: Vec<Vec<(&str, &str)>> = vec![Vec::new(), OFF.to_vec()];
    for &pair in OFF.iter().chain(H_SEARCH_SWITCHES) {
        small.push(vec![pair]);
    }
    let mut five: Vec<Vec<(&str, &str)>> =
        vec![Vec::new(), vec![("vcs", "off"), ("mustplay", "off")]];
    five.extend(H_SEARCH_SWITCHES.iter().map(|&pair| vec![pair]));
    for (board, n, configs) in [("4x4", 4, small), ("5x5", 5, five)] {
        let table = first_moves(board);
        assert_eq!(table.len(), n * n);
        for (cell, black_wins) in table {
            let g = Hex::parse(&format!("{n}:{cell}")).unwrap();
            for pairs in &configs {
                // White is to move: White wins when Black does not.
                assert_eq!(
                    fast_mover_wins(&g, pairs),
                    !black_wins,
                    "{} with {pairs:?}",
                    g.notation()
                );
            }
        }
    }
}

/// Random 5×5 positions: df-pn with the knowledge answers like the
/// exhaustive solver.
#[test]
fn random_5x5_positions_match_the_exhaustive_solver() {
    let mut reference = Reference::new(5);
    for g in random_positions(5, 10, 16, 60, 55) {
        for pairs in [&[][..], H_SEARCH_SWITCHES] {
            assert_eq!(
                fast_mover_wins(&g, pairs),
                reference.mover_wins(&g),
                "{} with {pairs:?}",
                g.notation()
            );
        }
    }
}

/// Every 6×6 opening with the knowledge (the defaults, and H-search on
/// the entered nodes only) answers like Benzene's table.
#[test]
fn openings_of_6x6_match_benzene_with_the_knowledge() {
    let table = first_moves("6x6");
    assert_eq!(table.len(), 36);
    for (cell, black_wins) in table {
        let g = Hex::parse(&format!("6:{cell}")).unwrap();
        for pairs in [&[][..], &[("vc_children", "off")][..]] {
            assert_eq!(
                fast_mover_wins(&g, pairs),
                !black_wins,
                "{} with {pairs:?}",
                g.notation()
            );
        }
    }
}
