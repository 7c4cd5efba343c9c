//! Static evaluation: the convention every game's evaluation follows, so
//! depth-limited searches (alpha-beta with single conspiracy numbers,
//! conspiracy-number search, opponent-model search) read any game the same
//! way.
//!
//! # The scale
//!
//! - Values are integers from the **first** player's point of view
//!   (positive = good for the first player), like [`Outcome::score`].
//! - A finished game is worth its *terminal value*
//!   ([`Game::terminal_value`]): [`WIN`] for a first-player win, −[`WIN`]
//!   for a loss, 0 for a draw. Every game uses the same `WIN` = 10000
//!   (the scale of the xiangqi engines whose single-conspiracy-number
//!   experiments pnlab reproduces, Song & Iida 2018), so one threshold
//!   `T` means the same fraction of a win in every game. Hand-written
//!   trees are the one exception: a leaf written `= N` is worth `N` (its
//!   `win`/`loss`/`draw` leaves are ±`WIN`/0).
//! - An unfinished position is worth its heuristic evaluation
//!   ([`Game::evaluate`]), which stays strictly inside (−`WIN`, `WIN`). So
//!   a search value of ±`WIN` or beyond can only come from finished games:
//!   it proves a forced result, and `T = WIN` turns a single conspiracy
//!   number into a proof number.
//!
//! # Why `evaluate` and `terminal_value` are separate
//!
//! Deciding whether a position is finished may cost a move generation (a
//! xiangqi mate test). A search asks [`Game::outcome`] anyway to know
//! whether a node is a leaf, so it then calls `terminal_value(outcome)` or
//! `evaluate()`, never both; [`value_of`] does the two steps for callers
//! that have not asked yet.
//!
//! # Tactical moves
//!
//! [`Game::is_tactical`] marks the moves an optional "captures first"
//! ordering searches before the others (alpha-beta's `order` parameter).
//! Each game says what it counts: captures in chess-like games, moves that
//! win or stop an immediate win in connection games, corners in Othello.
//! The ordering is a stable partition of the game's own move order
//! ([`order_tactical_first`]), so it stays deterministic.

use super::{Game, Outcome};

/// The value of a won game, from the winner's side (see the module
/// documentation). Heuristic evaluations stay strictly inside ±`WIN`.
pub const WIN: i32 = 10_000;

/// The largest magnitude a heuristic evaluation may take (`WIN − 1`).
pub const MAX_EVAL: i32 = WIN - 1;

/// The standard terminal value of an outcome: ±[`WIN`] by the sign of its
/// score, 0 for a draw (first player's view).
#[inline]
pub fn terminal_value(o: Outcome) -> i32 {
    WIN * o.score.signum()
}

/// The value of `g` on the evaluation scale, first player's view: its
/// terminal value when the game is over, else its static evaluation.
/// `None` when the game has no evaluation function.
pub fn value_of<G: Game>(g: &G) -> Option<i32> {
    match g.outcome() {
        Some(o) => g.evaluate().map(|_| g.terminal_value(o)),
        None => g.evaluate(),
    }
}

/// Reorders `moves` so that the tactical ones ([`Game::is_tactical`]) come
/// first, each group keeping the game's own order (a stable partition).
pub fn order_tactical_first<G: Game>(g: &G, moves: &mut [G::Move]) {
    // Stable partition without allocating: bubble each tactical move left
    // past the quiet ones before it (move lists are short).
    let mut quiet_start = 0;
    for i in 0..moves.len() {
        if g.is_tactical(moves[i]) {
            moves[quiet_start..=i].rotate_right(1);
            quiet_start += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tictactoe::TicTacToe;
    use crate::game::Player;

    #[test]
    fn terminal_values_are_signed_wins() {
        assert_eq!(terminal_value(Outcome::win_for(Player::First)), WIN);
        assert_eq!(terminal_value(Outcome::win_for(Player::Second)), -WIN);
        assert_eq!(terminal_value(Outcome { score: 64 }), WIN);
        assert_eq!(terminal_value(Outcome { score: -2 }), -WIN);
        assert_eq!(terminal_value(Outcome::DRAW), 0);
    }

    #[test]
    fn tactical_moves_move_to_the_front_in_order() {
        // o to move; x holds a1 and b2 (cells 0 and 4), so c3 (cell 8)
        // blocks x's diagonal: the only tactical move.
        let g = TicTacToe::parse("x...x.o..").unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert_eq!(moves, [1, 2, 3, 5, 7, 8]);
        order_tactical_first(&g, &mut moves);
        assert_eq!(moves, [8, 1, 2, 3, 5, 7]);
        // Nothing tactical: the order is unchanged.
        let g = TicTacToe::parse("x...o....").unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        order_tactical_first(&g, &mut moves);
        assert_eq!(moves, [1, 2, 3, 5, 6, 7, 8]);
    }
}
