//! The connect family: tic-tac-toe as Connect(3,3,3,1,1) agrees with the
//! tic-tac-toe game everywhere; perft of small members agrees with a
//! second, independent implementation of the rules written here; Connect6
//! perft from the empty board follows from counting (no stone can win in
//! the first plies); notation errors are located.

use std::collections::HashMap;

use pnlab::game::connect::Connect;
use pnlab::game::perft::perft;
use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::{AnyPosition, Game, GameKind, Outcome, Player};

/// Walks the whole game tree of tic-tac-toe and of Connect(3,3,3,1,1) in
/// lockstep: same moves in the same order, same side to move, same
/// outcome, and hashes that identify the same positions.
#[test]
fn tictactoe_is_connect_3_3_3_1_1_everywhere() {
    let t = TicTacToe::new();
    let c = Connect::parse("3,3,3,1,1:").unwrap();
    let mut ttt_to_connect: HashMap<u64, u64> = HashMap::new();
    let mut connect_to_ttt: HashMap<u64, u64> = HashMap::new();
    let mut nodes = 0u64;
    let mut stack = vec![(t, c)];
    while let Some((t, c)) = stack.pop() {
        nodes += 1;
        assert_eq!(t.to_move(), c.to_move(), "{t:?} {c:?}");
        assert_eq!(t.outcome(), c.outcome(), "{t:?} {c:?}");
        assert_eq!(
            *ttt_to_connect.entry(t.hash()).or_insert(c.hash()),
            c.hash()
        );
        assert_eq!(
            *connect_to_ttt.entry(c.hash()).or_insert(t.hash()),
            t.hash()
        );
        let (mut mt, mut mc) = (Vec::new(), Vec::new());
        t.legal_moves(&mut mt);
        c.legal_moves(&mut mc);
        let mt: Vec<u16> = mt.into_iter().map(u16::from).collect();
        assert_eq!(mt, mc, "{t:?}");
        for (a, b) in mt.iter().zip(&mc) {
            assert_eq!(t.format_move(*a as u8), c.format_move(*b));
            let (mut t2, mut c2) = (t, c.clone());
            t2.play(*a as u8);
            c2.play(*b);
            stack.push((t2, c2));
        }
    }
    // The game tree of tic-tac-toe has 549 946 nodes (OEIS A061526's sum
    // of nodes by depth: 1 + 9 + 72 + 504 + 3024 + 15120 + 54720 + 148176
    // + 200448 + 127872).
    assert_eq!(nodes, 549_946);
    // 5478 distinct positions (the well-known count of legal positions
    // reachable in play).
    assert_eq!(ttt_to_connect.len(), 5478);
}

/// A second implementation of the rules, as plainly as possible: a grid of
/// `Option<u8>`, the turn from the stone count, and "does the stone just
/// placed make k in a row?" by walking the four lines through it.
#[derive(Clone)]
struct Plain {
    m: i32,
    n: i32,
    k: i32,
    p: usize,
    q: usize,
    grid: Vec<Option<u8>>,
    stones: usize,
    over: bool,
}

impl Plain {
    fn new(m: i32, n: i32, k: i32, p: usize, q: usize) -> Plain {
        Plain {
            m,
            n,
            k,
            p,
            q,
            grid: vec![None; (m * n) as usize],
            stones: 0,
            over: false,
        }
    }
    fn player(&self) -> u8 {
        if self.stones < self.q {
            0
        } else if ((self.stones - self.q) / self.p).is_multiple_of(2) {
            1
        } else {
            0
        }
    }
    fn play(&mut self, c: usize) {
        let who = self.player();
        self.grid[c] = Some(who);
        self.stones += 1;
        let (x, y) = (c as i32 % self.m, c as i32 / self.m);
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for s in [1, -1] {
                let (mut a, mut b) = (x + s * dx, y + s * dy);
                while a >= 0
                    && a < self.m
                    && b >= 0
                    && b < self.n
                    && self.grid[(b * self.m + a) as usize] == Some(who)
                {
                    run += 1;
                    a += s * dx;
                    b += s * dy;
                }
            }
            if run >= self.k {
                self.over = true;
            }
        }
        if self.stones == self.grid.len() {
            self.over = true;
        }
    }
    fn perft(&self, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        if self.over {
            return 0;
        }
        (0..self.grid.len())
            .filter(|&c| self.grid[c].is_none())
            .map(|c| {
                let mut g = self.clone();
                g.play(c);
                g.perft(d - 1)
            })
            .sum()
    }
}

#[test]
fn perft_agrees_with_an_independent_implementation() {
    for (m, n, k, p, q, depth) in [
        (3, 3, 3, 2, 1, 9),
        (4, 4, 3, 2, 1, 5),
        (4, 3, 3, 2, 2, 6),
        (5, 4, 4, 1, 2, 4),
        (3, 5, 2, 2, 1, 6),
        (6, 2, 3, 3, 1, 6),
    ] {
        let g = Connect::parse(&format!("{m},{n},{k},{p},{q}:")).unwrap();
        let plain = Plain::new(m, n, k, p, q);
        for d in 0..=depth {
            assert_eq!(
                perft(&g, d),
                plain.perft(d),
                "Connect({m},{n},{k},{p},{q}) depth {d}"
            );
        }
    }
}

/// No stone can complete six in the first three plies of Connect6, so
/// perft(d) = 361 · 360 · … (d factors): the stones are ordered plies.
#[test]
fn connect6_perft_from_the_empty_board() {
    let g = Connect::parse_connect6("").unwrap();
    assert_eq!(perft(&g, 1), 361);
    assert_eq!(perft(&g, 2), 361 * 360);
    assert_eq!(perft(&g, 3), 361 * 360 * 359);
    assert_eq!(g.to_move(), Player::First);
    let g = Connect::parse_connect6("j10").unwrap();
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(perft(&g, 2), 360 * 359);
}

#[test]
fn positions_parse_through_the_game_kinds() {
    let p = AnyPosition::parse(GameKind::Connect6, "j10 k10 k11").unwrap();
    assert_eq!(p.kind(), GameKind::Connect6);
    assert_eq!(p.to_move(), Player::First);
    assert_eq!(p.notation(), "j10 k10 k11");
    let q = AnyPosition::parse(GameKind::Connect, "19,19,6,2,1:j10 k10 k11").unwrap();
    assert_eq!(q.kind(), GameKind::Connect);
    assert_eq!(q.legal_move_names().len(), 358);
    assert_eq!("connect6".parse::<GameKind>(), Ok(GameKind::Connect6));
    assert_eq!("connect".parse::<GameKind>(), Ok(GameKind::Connect));
    // Black (a2 b2 c2 d2) completes a2-f2 with e2 f2; White's b1-f1 five
    // never gets its turn.
    let g = AnyPosition::parse(GameKind::Connect6, "a1 b1 c1 a2 b2 d1 e1 c2 d2 f1 s19").unwrap();
    assert_eq!(g.outcome(), None);
    let won = g.after_move("e2").unwrap().after_move("f2").unwrap();
    assert_eq!(won.outcome(), Some(Outcome::win_for(Player::First)));
    assert!(won.legal_move_names().is_empty());
    let e = AnyPosition::parse(GameKind::Connect6, "j10 j10").unwrap_err();
    assert_eq!((e.line, e.col), (1, 5));
}
