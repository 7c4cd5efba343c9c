//! Perft: counting the leaves of the legal-move tree, to check move
//! generators against published counts.
//!
//! Convention (the OEIS A124004 one for Othello, and the one the shipped
//! tic-tac-toe counts use): a pass is a move and consumes one ply; a game
//! that ends before `depth` contributes nothing, so `perft(d)` is the number
//! of move sequences of exactly `d` plies.

use super::Game;

/// Number of legal move sequences of exactly `depth` plies from `g`.
pub fn perft<G: Game>(g: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = g.clone();
            child.play(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// [`perft`] with the first ply spread over threads (rayon), for the CLI.
pub fn perft_parallel<G: Game>(g: &G, depth: u32) -> u64 {
    use rayon::prelude::*;
    if depth <= 2 {
        return perft(g, depth);
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .par_iter()
        .map(|&m| {
            let mut child = g.clone();
            child.play(m);
            perft(&child, depth - 1)
        })
        .sum()
}
