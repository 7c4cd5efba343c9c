//! Othello's static evaluation for depth-limited searches: discs,
//! mobility and corners, from Black's (the first player's) point of view.
//!
//! `value = discs + 10 · mobility + 100 · corners`, where each term is
//! Black's count minus White's:
//! - *discs*: the discs on the board (−64 … 64); they decide the game
//!   but change hands all the time, so they weigh least;
//! - *mobility*: the number of legal moves each side would have if it
//!   were to move (a side short of moves is forced into bad ones, the
//!   textbook middle-game criterion, e.g. Rosenbloom 1982); one move is
//!   worth ten discs;
//! - *corners*: discs on a1, h1, a8, h8, which can never be flipped and
//!   anchor stable edges; one corner is worth ten moves.
//!
//! The magnitude stays below 64 + 10 · 40 + 100 · 4 = 864, far inside
//! ±WIN. Corners are also Othello's tactical moves (searched first by
//! the captures-first ordering).
//!
//! The second evaluation ([`discs`], `Game::evaluate_model`), the model
//! f2 of opponent-model search, is the disc difference alone: the greedy
//! judgement of a beginner, who takes as many discs as possible and
//! neither counts moves nor guards corners. Both evaluations are exact
//! on the disc count, so they differ in the middle game, where mobility
//! and corners matter, and agree at the end.

use super::bitboard::move_mask;

/// The four corner squares a1, h1, a8, h8.
pub const CORNERS: u64 = 1 | 1 << 7 | 1 << 56 | 1 << 63;

/// Weight of one move of mobility, in discs.
pub const MOBILITY_WEIGHT: i32 = 10;
/// Weight of one corner, in discs.
pub const CORNER_WEIGHT: i32 = 100;

/// The disc difference (Black's view): the opponent model's evaluation.
pub fn discs(black: u64, white: u64) -> i32 {
    black.count_ones() as i32 - white.count_ones() as i32
}

/// The evaluation of a board with Black's and White's discs (Black's view).
pub fn evaluate(black: u64, white: u64) -> i32 {
    let count = |b: u64| b.count_ones() as i32;
    let discs = count(black) - count(white);
    let mobility = count(move_mask(black, white)) - count(move_mask(white, black));
    let corners = count(black & CORNERS) - count(white & CORNERS);
    discs + MOBILITY_WEIGHT * mobility + CORNER_WEIGHT * corners
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::Othello;
    use crate::game::{Game, Player};

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(Othello::start().evaluate(), Some(0));
    }

    #[test]
    fn after_d3_by_hand() {
        // After Black d3: Black d3 d4 e4 d5 (4 discs), White e5 (1).
        // White's moves: c3, e3, c5. Black's (were it to move): the lone
        // White disc e5 is flanked via e6 (from e4), f5 (from d5) and f6
        // (from d4): 3 moves. No corners.
        let mut g = Othello::start();
        g.play(g.parse_move("d3").unwrap());
        let black = g.discs_of(Player::First);
        let white = g.discs_of(Player::Second);
        assert_eq!(move_mask(black, white).count_ones(), 3);
        assert_eq!(move_mask(white, black).count_ones(), 3);
        assert_eq!(g.evaluate(), Some(4 - 1));
    }

    #[test]
    fn a_corner_outweighs_discs_and_moves() {
        // Black a1, White b2: Black may play c3 (flanking b2 from a1);
        // White has no move. Discs 1 − 1, mobility 1 − 0, corners 1 − 0.
        assert_eq!(evaluate(1, 1 << 9), 10 + 100);
        // Colours swapped: the negation.
        assert_eq!(evaluate(1 << 9, 1), -110);
    }
}
