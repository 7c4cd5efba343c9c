//! The connect family Connect(m, n, k, p, q) (Wu & Huang 2005): an m × n
//! board, k or more stones in a row (horizontal, vertical or diagonal)
//! win, the first player places q stones on the first turn, afterwards
//! each player places p stones per turn; a full board without k in a row
//! is a draw. Connect6 is Connect(19, 19, 6, 2, 1), tic-tac-toe
//! Connect(3, 3, 3, 1, 1), free-style Gomoku Connect(15, 15, 5, 1, 1).
//!
//! A *move* is one stone, so a turn of p stones is p consecutive plies of
//! the same player: the searches see p nodes of one kind in a row. The
//! game ends as soon as a stone completes k in a row (the rest of that
//! turn is not played). The side to move and the stones left in its turn
//! follow from the number of stones on the board, so any prefix of a game
//! is a position. `pnlab perft` counts stone sequences: perft(d) is the
//! number of sequences of d stones (a game that ends earlier contributes
//! nothing); on the empty Connect6 board perft(2) = 361 · 360, since the
//! two stones of a turn are two ordered plies.
//!
//! Files: [`board`] (cells, windows, counters), [`notation`], [`threats`]
//! (threat counting), [`vcdt`] (the VCDT solver), [`zone`] (relevance
//! zones from VCDT proofs), [`heuristic`] (the attacker's move ranking) and
//! [`zone_game`] (the game with relevance-zone-restricted moves that the
//! zone searches run on), with its search options in [`zone_options`].

pub mod board;
pub mod heuristic;
pub mod notation;
pub mod threats;
pub mod vcdt;
pub mod zone;
pub mod zone_game;
pub mod zone_options;

use std::fmt;
use std::sync::Arc;

use super::mix::zobrist_key;
use super::{AnyPosition, Game, GameKind, MoveError, Outcome, ParseError, Player};

pub use board::{Board, Cell, Geometry};
pub use notation::{cell_name, ConnectError, Rules};

/// Who places stone number `s` (0-based, in play order) and how many
/// stones of that turn are left including it.
pub fn turn_at(rules: Rules, s: usize) -> (Player, u8) {
    let (p, q) = (usize::from(rules.p), usize::from(rules.q));
    if s < q {
        return (Player::First, (q - s) as u8);
    }
    let t = (s - q) / p;
    let left = p - (s - q) % p;
    let player = if t.is_multiple_of(2) {
        Player::Second
    } else {
        Player::First
    };
    (player, left as u8)
}

/// The turn (0 = the first player's first turn) that stone number `s`
/// belongs to.
pub fn turn_index(rules: Rules, s: usize) -> usize {
    let (p, q) = (usize::from(rules.p), usize::from(rules.q));
    if s < q {
        0
    } else {
        1 + (s - q) / p
    }
}

/// A position of Connect(m, n, k, p, q) with the stones in play order.
#[derive(Clone)]
pub struct Connect {
    rules: Rules,
    /// Written as game `connect6` (`[SIZE:]stones`) rather than `connect`.
    named: bool,
    board: Board,
    /// Cells in play order.
    moves: Vec<Cell>,
    winner: Option<Player>,
    /// Zobrist key of the rules, mixed into the hash.
    rules_key: u64,
}

/// Two positions are equal when they have the same rules and stones (the
/// order in which the stones were placed does not matter, as for the
/// hash).
impl PartialEq for Connect {
    fn eq(&self, other: &Connect) -> bool {
        self.rules == other.rules && self.named == other.named && self.board == other.board
    }
}

impl fmt::Debug for Connect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Connect({:?}, \"{}\")",
            self.kind().name(),
            self.notation()
        )
    }
}

impl Connect {
    /// The empty board of `rules` (checked); `named` writes it as game
    /// `connect6` (only for Connect6 rules on a square board).
    pub fn new(rules: Rules, named: bool) -> Result<Connect, ConnectError> {
        rules.check()?;
        if named && !rules.is_connect6_family() {
            return Err(ConnectError::NotConnect6);
        }
        let geo = Arc::new(Geometry::new(rules.m, rules.n, rules.k));
        let packed = u64::from(rules.m)
            | u64::from(rules.n) << 8
            | u64::from(rules.k) << 16
            | u64::from(rules.p) << 24
            | u64::from(rules.q) << 32;
        Ok(Connect {
            rules,
            named,
            // Threat scans look at windows with up to p + max(p, q) empty
            // cells (a turn's stones plus a defender's passed stones).
            board: Board::new(geo, rules.p.saturating_add(rules.p.max(rules.q))),
            moves: Vec::new(),
            winner: None,
            rules_key: zobrist_key(0xC04E_C7FF_0000_0000 ^ packed),
        })
    }

    /// Parses game `connect`'s notation `m,n,k,p,q:stones`.
    pub fn parse(text: &str) -> Result<Connect, ParseError> {
        let (rules, rest, col) = notation::parse_connect_header(text)?;
        Ok(Connect::with_stones(rules, false, rest, col)?)
    }

    /// Parses game `connect6`'s notation `[SIZE:]stones`.
    pub fn parse_connect6(text: &str) -> Result<Connect, ParseError> {
        let (rules, rest, col) = notation::parse_connect6_header(text)?;
        Ok(Connect::with_stones(rules, true, rest, col)?)
    }

    fn with_stones(
        rules: Rules,
        named: bool,
        text: &str,
        start_col: usize,
    ) -> Result<Connect, notation::Located> {
        let mut g =
            Connect::new(rules, named).map_err(|error| notation::Located { col: 1, error })?;
        for (col, tok) in notation::tokens(text, start_col) {
            let at = |error| notation::Located { col, error };
            let c = notation::parse_cell(rules.m, rules.n, tok).map_err(at)?;
            if g.outcome().is_some() {
                return Err(at(ConnectError::AfterEnd {
                    cell: tok.to_string(),
                }));
            }
            if !g.board.is_empty(c) {
                return Err(at(ConnectError::Occupied {
                    cell: tok.to_string(),
                }));
            }
            g.play(c);
        }
        Ok(g)
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The cells in play order.
    pub fn moves(&self) -> &[Cell] {
        &self.moves
    }

    /// Stones left in the current turn, the one about to be placed
    /// included.
    pub fn stones_left(&self) -> u8 {
        turn_at(self.rules, self.moves.len()).1
    }

    /// The winner, if a stone completed k in a row.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The name of cell `c`.
    pub fn cell_name(&self, c: Cell) -> String {
        notation::cell_name(self.rules.m, c)
    }

    /// The stones alone (for notation): cells in play order, spaced.
    fn stones_text(&self) -> String {
        self.moves
            .iter()
            .map(|&c| self.cell_name(c))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Game for Connect {
    /// A cell index `row * m + column` (one stone).
    type Move = Cell;

    fn kind(&self) -> GameKind {
        if self.named {
            GameKind::Connect6
        } else {
            GameKind::Connect
        }
    }

    fn to_move(&self) -> Player {
        turn_at(self.rules, self.moves.len()).0
    }

    /// The empty cells in row-major order from the top-left.
    fn legal_moves(&self, out: &mut Vec<Cell>) {
        if self.winner.is_some() {
            return;
        }
        let cells = self.board.geometry().cells() as Cell;
        out.extend((0..cells).filter(|&c| self.board.is_empty(c)));
    }

    fn play(&mut self, c: Cell) {
        let p = self.to_move();
        if self.board.place(c, p) {
            self.winner = Some(p);
        }
        self.moves.push(c);
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(p) => Some(Outcome::win_for(p)),
            None if self.board.is_full() => Some(Outcome::DRAW),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash() ^ self.rules_key
    }

    fn format_move(&self, c: Cell) -> String {
        self.cell_name(c)
    }

    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let c = notation::parse_cell(self.rules.m, self.rules.n, text.trim())
            .map_err(|e| MoveError::notation(text, e.to_string()))?;
        if self.outcome().is_some() {
            return Err(MoveError::game_over(text));
        }
        if !self.board.is_empty(c) {
            return Err(MoveError::illegal(text, "the cell is taken"));
        }
        Ok(c)
    }

    fn notation(&self) -> String {
        let r = self.rules;
        if self.named {
            if r.m == 19 {
                self.stones_text()
            } else {
                format!("{}:{}", r.m, self.stones_text())
            }
        } else {
            format!(
                "{},{},{},{},{}:{}",
                r.m,
                r.n,
                r.k,
                r.p,
                r.q,
                self.stones_text()
            )
        }
    }

    fn into_any(self) -> AnyPosition {
        AnyPosition::Connect(self)
    }

    fn move_count(&self) -> usize {
        if self.winner.is_some() {
            0
        } else {
            self.board.geometry().cells() - usize::from(self.board.stones())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str) -> Connect {
        Connect::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// The README's stone counts: before each turn (#Black, #White) is
    /// (0,0) Black, (1,0) White, (1,2) Black, (3,2) White, …
    #[test]
    fn connect6_turns_follow_the_stone_count() {
        let r = Rules::CONNECT6;
        let seq: Vec<(Player, u8)> = (0..7).map(|s| turn_at(r, s)).collect();
        use Player::*;
        assert_eq!(
            seq,
            vec![
                (First, 1),
                (Second, 2),
                (Second, 1),
                (First, 2),
                (First, 1),
                (Second, 2),
                (Second, 1)
            ]
        );
        assert_eq!(turn_index(r, 0), 0);
        assert_eq!(turn_index(r, 1), 1);
        assert_eq!(turn_index(r, 2), 1);
        assert_eq!(turn_index(r, 3), 2);
    }

    #[test]
    fn notation_round_trips() {
        for t in [
            "19,19,6,2,1:j10 k10 k11",
            "3,3,3,1,1:",
            "7,5,4,2,2:a1 b1 g5",
            "30,2,3,1,1:ad2 a1",
        ] {
            assert_eq!(c(t).notation(), t);
        }
        let g = Connect::parse_connect6("j10 k10 k11").unwrap();
        assert_eq!(g.notation(), "j10 k10 k11");
        assert_eq!(g.kind(), GameKind::Connect6);
        let g = Connect::parse_connect6("15:h8 i8 i9").unwrap();
        assert_eq!(g.notation(), "15:h8 i8 i9");
        assert_eq!(g.rules(), Rules::connect6(15));
        assert_eq!(Connect::parse_connect6("").unwrap().notation(), "");
    }

    #[test]
    fn errors_are_located() {
        let e = Connect::parse("19,19,6,2,1:j10 j10").unwrap_err();
        assert_eq!(
            (e.col, e.expected.as_str()),
            (17, "cell j10 is already taken")
        );
        let e = Connect::parse("5,5,3,1,1:a1 f1").unwrap_err();
        assert_eq!(e.col, 14);
        assert!(e.expected.contains("off the 5x5 board"), "{e}");
        let e = Connect::parse("3,3,3,1,1:a1 a2 b1 b2 c1 c2").unwrap_err();
        assert_eq!(e.col, 26);
        assert!(e.expected.contains("after the game has ended"), "{e}");
        let e = Connect::parse("19,19,x,2,1:").unwrap_err();
        assert_eq!(e.col, 7);
        let e = Connect::parse("19,19,6,2:").unwrap_err();
        assert!(e.expected.contains("five numbers"), "{e}");
        let e = Connect::parse("19,19,6,0,1:").unwrap_err();
        assert!(e.expected.contains("stones per turn"), "{e}");
        let e = Connect::parse("j10").unwrap_err();
        assert_eq!(e.col, 1);
        let e = Connect::parse_connect6("j10 k10 z3").unwrap_err();
        assert_eq!(e.col, 9);
        let e = Connect::parse_connect6("4:").unwrap_err();
        assert!(e.expected.contains("out of range"), "{e}");
        let e = Connect::parse("4,4,3,1,1:a1 b1 ?").unwrap_err();
        assert_eq!(e.col, 17);
    }

    #[test]
    fn the_game_ends_on_k_in_a_row_and_on_a_full_board() {
        // Black a1, White b1 c1, Black a2 a3: three in column a with k = 3.
        let g = c("4,4,3,2,1:a1 b1 c1 a2 a3");
        assert_eq!(g.outcome(), Some(Outcome::win_for(Player::First)));
        assert_eq!(g.move_count(), 0);
        // Black's a3 completes a1-a2-a3 after a longer game.
        let g = c("4,4,3,2,1:a1 b2 b3 a2 d4 c1 c2 a3");
        assert_eq!(g.winner(), Some(Player::First));
        // A full 2×2 board with k = 3 is a draw.
        let g = c("2,2,3,1,1:a1 b1 a2 b2");
        assert_eq!(g.outcome(), Some(Outcome::DRAW));
    }

    #[test]
    fn hash_ignores_the_order_of_stones() {
        let a = c("6,6,4,2,1:a1 b1 c1 d1 e1");
        let b = c("6,6,4,2,1:a1 c1 b1 e1 d1");
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a, b);
        let other = c("6,6,4,2,1:a1 b1 c1 e1 d2");
        assert_ne!(a.hash(), other.hash());
        // Same stones under other rules hash differently.
        let r = c("6,6,5,2,1:a1 b1 c1 d1 e1");
        assert_ne!(a.hash(), r.hash());
    }
}
