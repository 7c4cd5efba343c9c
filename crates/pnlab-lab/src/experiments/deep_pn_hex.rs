//! Why one Hex 4×4 run of `deep-pn-sweep` is cheap and another dear: the
//! position of the first winning opening in the run's root move order.
//!
//! On the empty 4×4 board the first player wins, but only with some
//! openings. A best-first search with unit initialisation (every child
//! starts at pn = dn = 1) breaks ties by move order, so a run whose order
//! lists a winning opening early can prove the root without ever looking
//! seriously at the losing ones; a run that meets several losing openings
//! first has to disprove its way past them (or seesaw between them). The
//! sweep records, per run, where the first winning opening comes, and this
//! module relates that to the cost of PNS and of DeepPN.

use serde_json::json;

use pnlab_core::game::Game;
use pnlab_core::search::{reference, Question};

/// Where the first winning root move comes in `g`'s legal-move order
/// (1-based), and how many root moves there are; `None` if no move wins.
/// Exhaustive (a memoised AND/OR evaluation of each child), so meant for
/// small games such as Hex 4×4.
pub fn first_winning_move<G: Game>(g: &G, q: &Question) -> (Option<u32>, u32) {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let first = moves.iter().position(|&m| {
        let mut c = g.clone();
        c.play(m);
        reference::answer_memo(&c, q)
    });
    (first.map(|i| i as u32 + 1), moves.len() as u32)
}

/// Ranks with ties sharing their mean rank (for Spearman's ρ).
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rank correlation of two equally long samples (NaN when
/// either is constant or shorter than 3).
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    if x.len() != y.len() || x.len() < 3 {
        return f64::NAN;
    }
    let (rx, ry) = (ranks(x), ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}

/// One Hex run: the first winning opening's place and the costs.
pub struct OpeningRow {
    /// The run's number.
    pub instance: usize,
    /// 1-based place of the first winning root move in the run's order.
    pub first_win: u32,
    /// Root moves.
    pub root_moves: u32,
    /// PNS iterations (solved or capped).
    pub pns_iterations: u64,
    /// Geometric mean over R < 1 of the DeepPN iterations, per form
    /// (paper, thesis).
    pub deep_iterations: [f64; 2],
}

/// The per-run table and the correlations, as JSON.
pub fn to_json(rows: &[OpeningRow]) -> serde_json::Value {
    let num = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
    let first: Vec<f64> = rows.iter().map(|r| r.first_win as f64).collect();
    let pns: Vec<f64> = rows.iter().map(|r| r.pns_iterations as f64).collect();
    let deep = |k: usize| -> Vec<f64> { rows.iter().map(|r| r.deep_iterations[k]).collect() };
    json!({
        "runs": rows.iter().map(|r| json!({
            "instance": r.instance,
            "first_winning_opening": r.first_win,
            "root_moves": r.root_moves,
            "pns_iterations": r.pns_iterations,
            "deep_pn_paper_geomean_iterations": num(r.deep_iterations[0]),
            "deep_pn_thesis_geomean_iterations": num(r.deep_iterations[1]),
        })).collect::<Vec<_>>(),
        "spearman_first_win_vs_pns": num(spearman(&first, &pns)),
        "spearman_first_win_vs_deep_pn_paper": num(spearman(&first, &deep(0))),
        "spearman_first_win_vs_deep_pn_thesis": num(spearman(&first, &deep(1))),
    })
}

/// The per-run table and the correlations, as text.
pub fn to_text(rows: &[OpeningRow]) -> String {
    let mut out = String::from(
        "hex4 run  first winning opening  PNS iterations  DeepPN geomean it (paper, thesis)\n",
    );
    for r in rows {
        out.push_str(&format!(
            "{:>8}  {:>12} of {:<2}       {:>12}  {:>12.0} {:>12.0}\n",
            r.instance,
            r.first_win,
            r.root_moves,
            r.pns_iterations,
            r.deep_iterations[0],
            r.deep_iterations[1]
        ));
    }
    let first: Vec<f64> = rows.iter().map(|r| r.first_win as f64).collect();
    let pns: Vec<f64> = rows.iter().map(|r| r.pns_iterations as f64).collect();
    let deep0: Vec<f64> = rows.iter().map(|r| r.deep_iterations[0]).collect();
    let deep1: Vec<f64> = rows.iter().map(|r| r.deep_iterations[1]).collect();
    out.push_str(&format!(
        "Spearman ρ of the first winning opening's place with the cost: PNS {:.2}, DeepPN paper {:.2}, thesis {:.2}\n",
        spearman(&first, &pns),
        spearman(&first, &deep0),
        spearman(&first, &deep1)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pnlab_core::game::tictactoe::TicTacToe;
    use pnlab_core::game::{Game, Player};
    use pnlab_core::search::Goal;

    #[test]
    fn spearman_of_monotone_and_reversed_samples() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert!((spearman(&x, &[10.0, 20.0, 25.0, 80.0, 81.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&x, &[5.0, 4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        // Ties share ranks: x = (1, 2, 2, 3) against itself is exactly 1.
        let t = [1.0, 2.0, 2.0, 3.0];
        assert!((spearman(&t, &t) - 1.0).abs() < 1e-12);
        assert!(spearman(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).is_nan());
    }

    /// Tic-tac-toe after X takes a corner and O an adjacent edge (a win
    /// for X): the place of the first winning reply agrees with the plain
    /// minimax reference's list of winning moves.
    #[test]
    fn first_winning_move_on_tictactoe() {
        let mut g = TicTacToe::new();
        g.play(0);
        g.play(1);
        let q = Question {
            attacker: Player::First,
            goal: Goal::Win,
        };
        let (first, n) = first_winning_move(&g, &q);
        assert_eq!(n, 7);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let winners = reference::winning_moves(&g, &q);
        let expect = moves.iter().position(|m| winners.contains(m)).unwrap() as u32 + 1;
        assert_eq!(first, Some(expect));
        assert!(winners.len() < 7, "some replies do not win");
    }
}
