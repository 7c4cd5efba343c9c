//! P-game rules (docs/algorithms.md §10) checked against independent
//! computations: the generic playout loop, a brute-force leaf enumeration
//! and the value distribution the definition prescribes.

use crate::common;
use common::full_minimax;

use pnlab::game::pgame::PGame;
use pnlab::game::{Game, Outcome, Player};
use pnlab::search::reference;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

/// The trait's generic playout, written out here so the fast override can
/// be compared with it draw for draw.
fn generic_playout(g: &PGame, rng: &mut dyn RngCore) -> Outcome {
    let mut g = g.clone();
    let mut moves = Vec::new();
    loop {
        if let Some(o) = g.outcome() {
            return o;
        }
        moves.clear();
        g.legal_moves(&mut moves);
        let i = (rng.next_u64() % moves.len() as u64) as usize;
        g.play(moves[i]);
    }
}

#[test]
fn fast_playout_equals_the_generic_loop() {
    for (b, d, seed) in [(2, 20, 1u64), (8, 8, 2), (5, 7, 3), (64, 3, 4)] {
        let mut g = PGame::new(b, d, seed).unwrap();
        g.play(1);
        for k in 0..200u64 {
            let mut r1 = SmallRng::seed_from_u64(k);
            let mut r2 = SmallRng::seed_from_u64(k);
            assert_eq!(g.random_playout(&mut r1), generic_playout(&g, &mut r2));
        }
    }
}

#[test]
fn reference_negamax_matches_full_minimax() {
    for seed in 0..40u64 {
        let g = PGame::new(3, 6, seed).unwrap();
        assert_eq!(
            reference::value_for(&g, Player::First),
            full_minimax(&g),
            "seed {seed}"
        );
    }
}

#[test]
fn move_values_have_the_prescribed_distribution() {
    // Uniform on 0..=127: mean 63.5, each value about 1/128 of the draws.
    let mut counts = [0u32; 128];
    let mut n = 0u32;
    for seed in 0..2_000u64 {
        let g = PGame::new(16, 4, seed).unwrap();
        for i in 0..16u8 {
            let v = g.move_value(i);
            counts[v as usize] += 1;
            n += 1;
            let mut c = g.clone();
            c.play(i);
            let w = c.move_value(0);
            assert!((-127..=0).contains(&w));
        }
    }
    let mean = counts
        .iter()
        .enumerate()
        .map(|(v, &c)| v as f64 * c as f64)
        .sum::<f64>()
        / n as f64;
    assert!((mean - 63.5).abs() < 1.0, "mean {mean}");
    let expect = n as f64 / 128.0; // 250
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expect).powi(2) / expect)
        .sum();
    // 127 degrees of freedom: the 99.9% quantile is about 181.
    assert!(chi2 < 181.0, "chi2 {chi2}");
}

#[test]
fn notation_round_trips_along_random_paths() {
    let mut rng = SmallRng::seed_from_u64(7);
    for seed in 0..50u64 {
        let mut g = PGame::new(7, 9, seed).unwrap();
        while g.outcome().is_none() {
            let back = PGame::parse(&g.notation()).unwrap();
            assert_eq!(back, g);
            g.play((rng.next_u64() % 7) as u8);
        }
        assert_eq!(PGame::parse(&g.notation()).unwrap(), g);
    }
}
