//! What the game's knowledge says about one Hex position, cell by cell:
//! the report the app draws on the board (a lesson shows why the solver
//! skips a cell) and that tests compare with the solver's own verdicts.
//! It uses the solver's rules ([`super::inferior`], [`super::vc`]) with
//! every rule on and H-search's default budget.

use super::inferior::{dominated, fill_in, FillIn, FillRules};
use super::vc::{edge_connections, HSearchRules};
use super::{board_cells, joins_edges, Hex};
use crate::game::{Game, Player};

/// The status of one cell in a [`Knowledge`] report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellStatus {
    /// A stone.
    Stone(Player),
    /// Dead: no winning chain of either player needs it (filled).
    Dead,
    /// One of a pair this player captures (filled with their colour).
    Captured(Player),
    /// Left empty, but the mover need not play here: the opponent's
    /// semi-connections all avoid it, so a stone here leaves one intact.
    OutsideMustplay,
    /// In the mustplay region, but another move dominates it.
    Dominated,
    /// A move the solver tries.
    Tried,
}

impl CellStatus {
    /// A short name for a legend and hover texts.
    pub fn name(self) -> &'static str {
        match self {
            CellStatus::Stone(_) => "stone",
            CellStatus::Dead => "dead",
            CellStatus::Captured(_) => "captured",
            CellStatus::OutsideMustplay => "outside the mustplay region",
            CellStatus::Dominated => "dominated",
            CellStatus::Tried => "tried",
        }
    }

    /// Why, in a sentence for the board's hover text.
    pub fn why(self) -> &'static str {
        match self {
            CellStatus::Stone(_) => "a stone",
            CellStatus::Dead => {
                "dead: no winning chain of either player passes here, so it can be filled with any colour"
            }
            CellStatus::Captured(_) => {
                "captured: whichever cell of the pair the opponent takes, the owner takes the other and the opponent's stone is worthless"
            }
            CellStatus::OutsideMustplay => {
                "outside the mustplay region: the opponent has a semi-connection between its edges that avoids this cell, so a stone here loses"
            }
            CellStatus::Dominated => {
                "dominated: a neighbouring move would let this cell be filled with the mover's colour, so that move is at least as good"
            }
            CellStatus::Tried => "a move the solver tries",
        }
    }
}

/// Who is won by virtual connections, as H-search found them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// The filled board already joins this player's edges.
    Joined(Player),
    /// The mover has a virtual or semi-connection between its edges.
    MoverConnects,
    /// The opponent has a virtual connection between its edges.
    OpponentConnects,
    /// Neither: the search goes on.
    Open,
}

/// The knowledge's report on one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// Board size.
    pub size: u8,
    /// The side to move.
    pub mover: Player,
    /// Per cell (`row * size + column`).
    pub cells: Vec<CellStatus>,
    /// What H-search says.
    pub connection: Connection,
    /// How many semi-connections of the opponent make the mustplay region.
    pub opponent_semis: usize,
}

impl Knowledge {
    /// The report on `g` (every rule on, H-search's default rules).
    pub fn of(g: &Hex) -> Knowledge {
        let n = g.size();
        let mover = g.to_move();
        let f = fill_in(
            n,
            g.stones(),
            FillRules {
                dead: true,
                captured: true,
            },
        );
        let mut cells: Vec<CellStatus> = (0..u32::from(n) * u32::from(n))
            .map(|i| status_after_fill(g, &f, i))
            .collect();
        let report = |cells, connection, opponent_semis| Knowledge {
            size: n,
            mover,
            cells,
            connection,
            opponent_semis,
        };
        if let Some(p) = [Player::First, Player::Second]
            .into_iter()
            .find(|&p| joins_edges(n, f.stones[p.index()], p))
        {
            return report(cells, Connection::Joined(p), 0);
        }
        let rules = HSearchRules::default();
        let mine = edge_connections(n, f.stones, mover, rules, true);
        let theirs = edge_connections(n, f.stones, mover.other(), rules, false);
        let connection = if mine.vc.is_some() || !mine.semis.is_empty() {
            Connection::MoverConnects
        } else if theirs.vc.is_some() {
            Connection::OpponentConnects
        } else {
            Connection::Open
        };
        if connection == Connection::Open {
            let left = f.empty(n);
            let must = left & theirs.mustplay(board_cells(n));
            let set_aside = dominated(n, f.stones, mover, must);
            for (i, c) in cells.iter_mut().enumerate() {
                let bit = 1u128 << i;
                if left & bit == 0 {
                    continue;
                }
                *c = if must & bit == 0 {
                    CellStatus::OutsideMustplay
                } else if set_aside & bit != 0 {
                    CellStatus::Dominated
                } else {
                    CellStatus::Tried
                };
            }
        }
        report(cells, connection, theirs.semis.len())
    }

    /// How many cells have status `s`.
    pub fn count(&self, s: CellStatus) -> usize {
        self.cells.iter().filter(|&&c| c == s).count()
    }

    /// One line for under the board.
    pub fn summary(&self) -> String {
        let side = |p: Player| match p {
            Player::First => "Black",
            Player::Second => "White",
        };
        let captured = self
            .cells
            .iter()
            .filter(|c| matches!(c, CellStatus::Captured(_)))
            .count();
        let fill = format!("{} dead, {captured} captured", self.count(CellStatus::Dead));
        match self.connection {
            Connection::Joined(p) => format!("{fill}; the filled board joins {}'s edges", side(p)),
            Connection::MoverConnects => format!(
                "{fill}; {} (to move) is connected to its edges: a win",
                side(self.mover)
            ),
            Connection::OpponentConnects => format!(
                "{fill}; {} has a virtual connection between its edges: {} loses",
                side(self.mover.other()),
                side(self.mover)
            ),
            Connection::Open => format!(
                "{fill}; {} to move tries {} cells ({} outside the mustplay region of {} semi-connections, {} dominated)",
                side(self.mover),
                self.count(CellStatus::Tried),
                self.count(CellStatus::OutsideMustplay),
                self.opponent_semis,
                self.count(CellStatus::Dominated)
            ),
        }
    }
}

/// A cell's status from the fill-in alone (empty cells left: `Tried`).
fn status_after_fill(g: &Hex, f: &FillIn, i: u32) -> CellStatus {
    let bit = 1u128 << i;
    let s = g.stones();
    if s[0] & bit != 0 {
        CellStatus::Stone(Player::First)
    } else if s[1] & bit != 0 {
        CellStatus::Stone(Player::Second)
    } else if f.dead & bit != 0 {
        CellStatus::Dead
    } else if f.captured[0] & bit != 0 {
        CellStatus::Captured(Player::First)
    } else if f.captured[1] & bit != 0 {
        CellStatus::Captured(Player::Second)
    } else {
        CellStatus::Tried
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_board_fills_nothing_and_skips_only_edge_cells() {
        // 8×8: too large for H-search to connect the mover at once.
        let k = Knowledge::of(&Hex::new(8).unwrap());
        assert_eq!(k.connection, Connection::Open, "{}", k.summary());
        assert_eq!(
            k.count(CellStatus::Tried) + k.count(CellStatus::Dominated),
            64
        );
        for (i, c) in k.cells.iter().enumerate() {
            let (col, row) = (i % 8, i / 8);
            if *c == CellStatus::Dominated {
                assert!(col == 0 || col == 7 || row == 0 || row == 7, "cell {i}");
            }
        }
    }

    #[test]
    fn a_bridge_to_both_edges_is_a_win_for_the_mover() {
        // Black c3 in the middle of 5×5 with White far away: Black to
        // move has a semi-connection between its edges.
        let k = Knowledge::of(&Hex::parse("5:c3 a1 c4 a2").unwrap());
        assert_eq!(k.connection, Connection::MoverConnects, "{}", k.summary());
    }

    #[test]
    fn statuses_add_up_to_the_board() {
        let g = Hex::parse("5:c3 b3 c2 d2 b4 d3").unwrap();
        let k = Knowledge::of(&g);
        assert_eq!(k.cells.len(), 25);
        let stones = k
            .cells
            .iter()
            .filter(|c| matches!(c, CellStatus::Stone(_)))
            .count();
        assert_eq!(stones, 6);
        assert!(!k.summary().is_empty());
    }
}
