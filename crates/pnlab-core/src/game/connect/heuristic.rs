//! The attacker's move ranking of the relevance-zone searches (the thesis
//! generates "the top 5 evaluated moves (according to some heuristic
//! values)" at attacker nodes and does not say which; this is ours).
//!
//! A cell's score for the player `me` about to place a stone there sums,
//! over the windows through the cell,
//!
//! - 2 · 8^a for each window without opponent stones where `me` already
//!   has a stones (building towards k: a window one stone fuller is worth
//!   eight times more), and
//! - 8^d for each window without `me`'s stones where the opponent has d
//!   stones (blocking, weighted half as much as building),
//!
//! and a cell that completes k in a row ranks above everything. Ties go to
//! the lower cell index (row-major from the top-left), so the order is
//! deterministic.

use crate::game::Player;

use super::board::{Board, Cell};

/// Score of an empty cell for `me` (see the module comment).
pub fn cell_score(board: &Board, me: Player, c: Cell) -> u64 {
    let geo = board.geometry();
    let k = geo.k;
    let mut s: u64 = 0;
    for &w in geo.windows_through(c) {
        let mine = board.count(w, me);
        let theirs = board.count(w, me.other());
        if theirs == 0 {
            if mine + 1 >= k {
                return u64::MAX;
            }
            s = s.saturating_add(2u64.saturating_mul(8u64.saturating_pow(u32::from(mine))));
        }
        if mine == 0 {
            s = s.saturating_add(8u64.saturating_pow(u32::from(theirs)));
        }
    }
    s
}

/// The `n` best empty cells for `me`, best first (all empty cells, in
/// that order, when `n` is 0 or at least their number).
pub fn top_cells(board: &Board, me: Player, n: usize) -> Vec<Cell> {
    let cells = board.geometry().cells() as Cell;
    let mut scored: Vec<(u64, Cell)> = (0..cells)
        .filter(|&c| board.is_empty(c))
        .map(|c| (cell_score(board, me, c), c))
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if n > 0 {
        scored.truncate(n);
    }
    scored.into_iter().map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect::Connect;

    #[test]
    fn completing_cells_rank_first_and_ties_go_left() {
        // 5×5, k = 3: Black a1 b1 (White d4 d5 far off); c1 completes.
        let g = Connect::parse("5,5,3,1,1:a1 d4 b1 d5").unwrap();
        let top = top_cells(g.board(), Player::First, 3);
        assert_eq!(top[0], 2, "c1 completes a1-b1-c1");
        // On the empty board the centre is in the most windows.
        let g = Connect::parse("5,5,3,1,1:").unwrap();
        assert_eq!(top_cells(g.board(), Player::First, 1), vec![12]);
        // Symmetric cells tie; the lower index comes first.
        let all = top_cells(g.board(), Player::First, 0);
        assert_eq!(all.len(), 25);
        let pos = |c: Cell| all.iter().position(|&x| x == c).unwrap();
        assert!(pos(6) < pos(8) && pos(8) < pos(16) && pos(16) < pos(18));
    }
}
