//! EinStein würfelt nicht!: perft against hand counts from the start
//! position and against a second move generator written here from the
//! rules (a plain 5×5 array), the notation and its located errors.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::ewn::Ewn;
use pnlab::game::perft::perft;
use pnlab::game::{AnyPosition, Game, GameKind, Player};

/// The test's own EinStein: `board[r][c]` is 0, +k (red cube k) or −k
/// (blue cube k); `die` 0 before the roll.
#[derive(Clone)]
struct Plain {
    board: [[i8; 5]; 5],
    red: bool,
    die: i8,
}

impl Plain {
    fn from(g: &Ewn) -> Plain {
        let mut board = [[0i8; 5]; 5];
        for (r, row) in board.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                if let Some((p, k)) = g.at((r * 5 + c) as u8) {
                    *cell = if p == Player::First {
                        k as i8
                    } else {
                        -(k as i8)
                    };
                }
            }
        }
        Plain {
            board,
            red: g.to_move() == Player::First,
            die: g.die().map_or(0, |d| d as i8),
        }
    }

    fn over(&self) -> bool {
        let cubes = |s: i8| self.board.iter().flatten().any(|&v| v * s > 0);
        self.board[4][4] > 0 || self.board[0][0] < 0 || !cubes(1) || !cubes(-1)
    }

    fn children(&self) -> Vec<Plain> {
        if self.over() {
            return Vec::new();
        }
        if self.die == 0 {
            return (1..=6)
                .map(|d| Plain {
                    die: d,
                    ..self.clone()
                })
                .collect();
        }
        let s: i8 = if self.red { 1 } else { -1 };
        let find = |k: i8| -> Option<(usize, usize)> {
            (0..25)
                .map(|i| (i / 5, i % 5))
                .find(|&(r, c)| self.board[r][c] == s * k)
        };
        let mut cubes: Vec<i8> = Vec::new();
        if find(self.die).is_some() {
            cubes.push(self.die);
        } else {
            if let Some(k) = (1..self.die).rev().find(|&k| find(k).is_some()) {
                cubes.push(k);
            }
            if let Some(k) = (self.die + 1..=6).find(|&k| find(k).is_some()) {
                cubes.push(k);
            }
        }
        let mut out = Vec::new();
        for k in cubes {
            let (r, c) = find(k).unwrap();
            for (dr, dc) in [(0, s), (s, 0), (s, s)] {
                let (nr, nc) = (r as i8 + dr, c as i8 + dc);
                if !(0..5).contains(&nr) || !(0..5).contains(&nc) {
                    continue;
                }
                let mut b = self.board;
                b[r][c] = 0;
                b[nr as usize][nc as usize] = s * k;
                out.push(Plain {
                    board: b,
                    red: !self.red,
                    die: 0,
                });
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children().iter().map(|c| c.perft(depth - 1)).sum()
    }
}

#[test]
fn perft_from_the_start_matches_the_hand_counts() {
    let g = Ewn::start();
    // 6 rolls; each lets one cube of the triangle move 3 ways (onto one's
    // own cube too): 18; then blue's 6 rolls after each: 108; each roll
    // lets one blue cube move 3 ways (no cube is lost yet): 324.
    assert_eq!(perft(&g, 1), 6);
    assert_eq!(perft(&g, 2), 18);
    assert_eq!(perft(&g, 3), 108);
    assert_eq!(perft(&g, 4), 324);
}

#[test]
fn perft_agrees_with_a_second_generator() {
    let mut rng = SmallRng::seed_from_u64(0xE3);
    let mut checked = 0;
    for _ in 0..60 {
        // A random position reached by random play from the start.
        let mut g = Ewn::start();
        let plies = rng.random_range(0..40);
        for _ in 0..plies {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.random_range(0..moves.len())]);
        }
        let plain = Plain::from(&g);
        assert_eq!(g.outcome().is_some(), plain.over(), "{}", g.notation());
        for d in 1..=4 {
            assert_eq!(perft(&g, d), plain.perft(d), "{} depth {d}", g.notation());
        }
        // The notation round-trips.
        assert_eq!(Ewn::parse(&g.notation()).unwrap(), g);
        checked += 1;
    }
    assert_eq!(checked, 60);
}

#[test]
fn rules_in_small_cases() {
    // Red's cube 3 is gone: a roll of 3 moves cube 2 or cube 4.
    let g = Ewn::parse("12.../4..../.....//...../....a r3").unwrap_err();
    assert!(g.expected.contains("row 4 has 0 squares"), "{g}");
    let g = Ewn::parse("12.../4..../...../...../....a r3").unwrap();
    assert_eq!(g.movable_cubes(3), vec![2, 4]);
    let names = AnyPosition::Ewn(g.clone()).legal_move_names();
    assert_eq!(names, ["2c1", "2b2", "2c2", "4b2", "4a3", "4b3"]);
    // Reaching the corner wins; so does taking the last cube.
    let win = Ewn::parse("...../...../...../...../...4a r4").unwrap();
    assert_eq!(win.outcome(), None);
    let after = AnyPosition::Ewn(win).after_move("4e5").unwrap();
    assert_eq!(after.outcome().map(|o| o.score), Some(1));
    let blue = Ewn::parse("1..../a..../...../...../..... b1").unwrap();
    let after = AnyPosition::Ewn(blue).after_move("1a1").unwrap();
    assert_eq!(after.outcome().map(|o| o.score), Some(-1));
    // A chance node: six equally likely rolls.
    let start = Ewn::start();
    assert!(start.is_chance() && start.has_chance_nodes());
    let mut p = Vec::new();
    start.chance_probabilities(&mut p);
    assert_eq!(p, vec![1.0 / 6.0; 6]);
    assert_eq!(AnyPosition::Ewn(start).legal_move_names()[0], "roll1");
}

#[test]
fn notation_errors_are_located() {
    for (text, col, what) in [
        ("123../45.../6...f/...ed/..cba x", 31, "side to move"),
        ("123../45.../6...f/...ed/..cbz r", 29, "`z`"),
        ("113../45.../6...f/...ed/..cba r", 2, "twice"),
        ("123../45.../6...f/...ed/..cba r7", 32, "1–6"),
        ("123../45.../6...f/...ed r", 24, "rows"),
        ("123.../45.../6...f/...ed/..cba r", 6, "longer than 5"),
        ("...../...../...../...../..... r", 1, "empty board"),
    ] {
        let e = AnyPosition::parse(GameKind::Ewn, text).unwrap_err();
        assert_eq!(e.col, col, "{text}: {e}");
        assert!(e.expected.contains(what), "{text}: {e}");
    }
}
