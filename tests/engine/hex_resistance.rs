//! The Hex resistor model (`game::hex::resistance`) against a second,
//! independent computation written here (the full circuit without group
//! contraction, own stones as 10⁻⁹-ohm cells, solved by dense Gaussian
//! elimination), and its symmetries: the empty board's scores are
//! symmetric under the 180° rotation and under the transpose (which swaps
//! the players' roles); the colour-swapped transpose of any position swaps
//! the circuits; the 180° rotation of any position rotates every score; a
//! cell that completes a connection has the largest move score.

use pnlab::game::hex::resistance::Resistance;
use pnlab::game::hex::Hex;
use pnlab::game::{Game, Player};

use crate::helpers::unfinished_hex;

/// Random positions of size `n` with fewer than half the cells played,
/// not finished.
fn random_positions(n: u8, count: usize, seed: u64) -> Vec<Hex> {
    unfinished_hex(n, 0..(n as usize * n as usize) / 2, count, seed)
}

/// (R, energy shares) of `p`'s circuit computed from scratch: every
/// non-opponent cell a node, resistor r(a) + r(b) between neighbours
/// (r = 1 empty, 10⁻⁹ own), r(cell) to the edge terminals, dense Gaussian
/// elimination with partial pivoting.
fn reference_circuit(g: &Hex, p: Player) -> (f64, Vec<f64>) {
    let n = g.size() as usize;
    let cells = n * n;
    let owner = |i: usize| g.cell((i % n) as u8, (i / n) as u8);
    let r = |i: usize| if owner(i) == Some(p) { 1e-9 } else { 1.0 };
    let cut = |i: usize| owner(i) == Some(p.other());
    let on_edge = |i: usize, which: usize| {
        let (c, row) = (i % n, i / n);
        let x = if p == Player::First { row } else { c };
        if which == 0 {
            x == 0
        } else {
            x == n - 1
        }
    };
    let adjacent = |i: usize, j: usize| {
        let (ci, ri, cj, rj) = (
            (i % n) as i32,
            (i / n) as i32,
            (j % n) as i32,
            (j / n) as i32,
        );
        let (dc, dr) = (cj - ci, rj - ri);
        matches!(
            (dc, dr),
            (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, -1) | (-1, 1)
        )
    };
    // Nodes: cells 0..cells (unknowns unless cut), terminals fixed.
    let mut res: Vec<(usize, Option<usize>, f64, f64)> = Vec::new(); // (cell, other cell or terminal flag, conductance, terminal voltage)
    let mut pairs: Vec<(usize, usize, f64)> = Vec::new();
    for i in 0..cells {
        if cut(i) {
            continue;
        }
        for j in i + 1..cells {
            if !cut(j) && adjacent(i, j) {
                pairs.push((i, j, 1.0 / (r(i) + r(j))));
            }
        }
        for (w, v) in [(0, 1.0), (1, 0.0)] {
            if on_edge(i, w) {
                res.push((i, None, 1.0 / r(i), v));
            }
        }
    }
    // Dense system over all non-cut cells (isolated cells get a tiny
    // ground so the matrix stays regular; they carry no current).
    let idx: Vec<Option<usize>> = {
        let mut k = 0;
        (0..cells)
            .map(|i| {
                (!cut(i)).then(|| {
                    k += 1;
                    k - 1
                })
            })
            .collect()
    };
    let k = idx.iter().flatten().count();
    let mut a = vec![vec![0.0f64; k + 1]; k];
    for &(i, j, gc) in &pairs {
        let (x, y) = (idx[i].unwrap(), idx[j].unwrap());
        a[x][x] += gc;
        a[y][y] += gc;
        a[x][y] -= gc;
        a[y][x] -= gc;
    }
    for &(i, _, gc, v) in &res {
        let x = idx[i].unwrap();
        a[x][x] += gc;
        a[x][k] += gc * v;
    }
    for (x, row) in a.iter_mut().enumerate() {
        row[x] += 1e-13;
    }
    // Gaussian elimination.
    for col in 0..k {
        let piv = (col..k)
            .max_by(|&u, &v| a[u][col].abs().total_cmp(&a[v][col].abs()))
            .unwrap();
        a.swap(col, piv);
        for row in 0..k {
            if row != col {
                let f = a[row][col] / a[col][col];
                if f != 0.0 {
                    let pivot_row = a[col].clone();
                    for (x, p) in a[row][col..=k].iter_mut().zip(&pivot_row[col..=k]) {
                        *x -= f * p;
                    }
                }
            }
        }
    }
    let volt = |i: usize| {
        let x = idx[i].unwrap();
        a[x][k] / a[x][x]
    };
    let mut energy = vec![0.0; cells];
    let (mut power, mut current) = (0.0, 0.0);
    for &(i, j, gc) in &pairs {
        let dv = volt(i) - volt(j);
        power += gc * dv * dv;
        let i2 = gc * gc * dv * dv;
        energy[i] += i2 * r(i);
        energy[j] += i2 * r(j);
    }
    for &(i, _, gc, v) in &res {
        let dv = volt(i) - v;
        power += gc * dv * dv;
        energy[i] += gc * gc * dv * dv * r(i);
        if v == 1.0 {
            current += gc * (1.0 - volt(i));
        }
    }
    for (i, e) in energy.iter_mut().enumerate() {
        // Own stones' tiny resistance dissipates (almost) nothing.
        *e = if owner(i).is_some() { 0.0 } else { *e / power };
    }
    (1.0 / current, energy)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn circuits_agree_with_a_dense_solution_of_the_uncontracted_circuit() {
    for n in 2..=6u8 {
        for g in random_positions(n, 60, n as u64) {
            let r = Resistance::of(&g);
            for p in [Player::First, Player::Second] {
                let (want_r, want_e) = reference_circuit(&g, p);
                let c = r.of_player(p);
                assert!(
                    close(c.resistance, want_r, 1e-5),
                    "{g:?} {p:?}: R {} vs {want_r}",
                    c.resistance
                );
                for (i, (&got, &want)) in c.energy.iter().zip(&want_e).enumerate() {
                    assert!(
                        close(got, want, 1e-5),
                        "{g:?} {p:?} cell {i}: {got} vs {want}"
                    );
                }
                let total: f64 = c.energy.iter().sum();
                assert!(close(total, 1.0, 1e-9), "{g:?}: shares sum to {total}");
            }
        }
    }
}

fn rotate(n: usize, i: usize) -> usize {
    let (c, r) = (i % n, i / n);
    (n - 1 - r) * n + (n - 1 - c)
}

fn transpose(n: usize, i: usize) -> usize {
    let (c, r) = (i % n, i / n);
    c * n + r
}

/// The position with every stone moved by `map` (same colours).
fn mapped(g: &Hex, map: impl Fn(usize) -> usize) -> Hex {
    let n = g.size() as usize;
    let cells: Vec<String> = g
        .moves_played()
        .iter()
        .map(|&m| g.name_of(map(m as usize) as u8))
        .collect();
    Hex::parse(&format!("{n}:{}", cells.join(" "))).unwrap()
}

#[test]
fn one_free_cell_is_solved_too() {
    // 2×2 with three stones, none of them a finished game (Black joins the
    // rows, White the columns; a1-a2, b1-b2 and b1-a2 touch, a1-b2 do not):
    // each circuit has at most one unknown.
    for text in ["2:a1 b2 b1", "2:a1 b1 b2", "2:a1 a2 b2", "2:b2 a1 a2"] {
        let g = Hex::parse(text).unwrap();
        assert_eq!(g.outcome(), None, "{text} must be unfinished");
        let r = Resistance::of(&g);
        for p in [Player::First, Player::Second] {
            let (want, _) = reference_circuit(&g, p);
            assert!(close(r.of_player(p).resistance, want, 1e-5), "{text} {p:?}");
        }
    }
}

#[test]
fn the_empty_board_is_symmetric() {
    for n in 2..=11u8 {
        let g = Hex::new(n).unwrap();
        let r = Resistance::of(&g);
        let nn = n as usize;
        assert!(close(r.black.resistance, r.white.resistance, 1e-9));
        assert!(r.evaluation().abs() < 1e-9);
        for i in 0..nn * nn {
            let s = r.move_score(i);
            assert!(s > 0.0);
            assert!(
                close(s, r.move_score(rotate(nn, i)), 1e-9),
                "n={n} rotation at {i}"
            );
            assert!(
                close(s, r.move_score(transpose(nn, i)), 1e-9),
                "n={n} transpose at {i}"
            );
        }
    }
}

#[test]
fn rotating_a_position_rotates_its_scores() {
    for n in [3u8, 5, 7, 8, 11] {
        for g in random_positions(n, 25, 100 + n as u64) {
            let nn = n as usize;
            let h = mapped(&g, |i| rotate(nn, i));
            let (a, b) = (Resistance::of(&g), Resistance::of(&h));
            assert!(close(a.evaluation(), b.evaluation(), 1e-7), "{g:?}");
            for i in 0..nn * nn {
                assert!(
                    close(a.move_score(i), b.move_score(rotate(nn, i)), 1e-7),
                    "{g:?} at {i}"
                );
            }
        }
    }
}

#[test]
fn the_colour_swapped_transpose_swaps_the_circuits() {
    for n in [4u8, 6, 8] {
        for g in random_positions(n, 40, 200 + n as u64) {
            if g.moves_played().len() % 2 == 1 {
                continue; // the swapped colours need as many White stones as Black
            }
            let nn = n as usize;
            // Old White's moves become Black's and vice versa.
            let played = g.moves_played();
            let mut order = Vec::new();
            for pair in played.chunks(2) {
                order.push(g.name_of(transpose(nn, pair[1] as usize) as u8));
                order.push(g.name_of(transpose(nn, pair[0] as usize) as u8));
            }
            let h = Hex::parse(&format!("{n}:{}", order.join(" "))).unwrap();
            let (a, b) = (Resistance::of(&g), Resistance::of(&h));
            assert!(close(a.black.resistance, b.white.resistance, 1e-7));
            assert!(close(a.white.resistance, b.black.resistance, 1e-7));
            assert!(close(a.evaluation(), -b.evaluation(), 1e-7));
            for i in 0..nn * nn {
                let j = transpose(nn, i);
                assert!(close(a.black.energy[i], b.white.energy[j], 1e-7));
                assert!(close(a.move_score(i), b.move_score(j), 1e-7));
            }
        }
    }
}

#[test]
fn a_cell_that_completes_a_connection_dominates() {
    // Black holds c1 c2 c4 c5: c3 alone joins them (c2 and c4 share no
    // other neighbour). White's stones are out of the way.
    for text in ["5:c1 a1 c2 e1 c4 a5 c5", "5:c1 a1 c2 e1 c4 a5 c5 e5"] {
        let g = Hex::parse(text).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut scores = Vec::new();
        assert!(g.move_scores(&moves, &mut scores));
        let best = moves[scores
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .unwrap()
            .0];
        assert_eq!(g.name_of(best), "c3", "{text}: scores {scores:?}");
        // It also dissipates the largest share of Black's own circuit.
        let r = Resistance::of(&g);
        let c3 = r.black.energy[2 * 5 + 2];
        assert!(moves.iter().all(|&m| r.black.energy[m as usize] <= c3));
    }
    // White's version: a row with one gap (the transpose).
    let g = Hex::parse("5:a1 a3 e1 b3 a5 d3 e5 e3").unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut scores = Vec::new();
    g.move_scores(&moves, &mut scores);
    let (k, _) = scores
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .unwrap();
    assert_eq!(g.name_of(moves[k]), "c3");
}

#[test]
fn the_evaluation_favours_the_side_with_the_better_circuit() {
    // A centre stone helps its owner.
    assert!(Hex::parse("5:c3").unwrap().resistance_evaluation() > 0.0);
    assert!(Hex::parse("5:a1 c3").unwrap().resistance_evaluation() < 0.0);
    // Connected: resistance 0 for the winner.
    let g = Hex::parse("3:b1 a1 b2 a2 b3").unwrap();
    assert_eq!(Resistance::of(&g).black.resistance, 0.0);
    assert!(Resistance::of(&g).white.resistance.is_infinite());
}
