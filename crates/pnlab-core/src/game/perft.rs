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
    moves.iter().map(|&m| perft(&g.played(m), depth - 1)).sum()
}

/// [`perft`] with the first ply spread over threads (rayon), for the CLI.
/// A web page has no threads: there it is [`perft`].
#[cfg(target_arch = "wasm32")]
pub fn perft_parallel<G: Game>(g: &G, depth: u32) -> u64 {
    perft(g, depth)
}

/// [`perft`] with the first ply spread over threads (rayon), for the CLI.
#[cfg(not(target_arch = "wasm32"))]
pub fn perft_parallel<G: Game>(g: &G, depth: u32) -> u64 {
    use rayon::prelude::*;
    if depth <= 2 {
        return perft(g, depth);
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .par_iter()
        .map(|&m| perft(&g.played(m), depth - 1))
        .sum()
}

/// Every position reachable from `start` (itself included), each once
/// (told apart by [`Game::hash`]), in depth-first order. For games small
/// enough to enumerate: the tests check solvers on every tic-tac-toe and
/// Hex 3×3 position with it.
pub fn reachable<G: Game>(start: &G) -> Vec<G> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![start.clone()];
    let mut moves = Vec::new();
    while let Some(g) = stack.pop() {
        if !seen.insert(g.hash()) {
            continue;
        }
        moves.clear();
        g.legal_moves(&mut moves);
        for &m in &moves {
            let mut c = g.clone();
            c.play(m);
            stack.push(c);
        }
        out.push(g);
    }
    out
}
