//! Tic-tac-toe on 3×3: x moves first, the game stops at three in a row or a
//! full board. Notation: 9 characters `x`, `o`, `.` row by row from the
//! top-left (docs/cli.md); the side to move follows from the piece counts.
//! Moves are named `a1`…`c3` (column letter, row number from the top).

use super::{Game, GameKind, MoveError, Outcome, ParseError, Player};

/// The eight lines of three, as bit masks over cells 0..9 (row-major).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Zobrist keys: cell × player, plus the side to move.
const fn zobrist(i: u64) -> u64 {
    super::mix::zobrist_key(i)
}

/// A tic-tac-toe position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    /// Cells held by x (first player) and o, bit i = cell i (row-major).
    cells: [u16; 2],
}

impl TicTacToe {
    /// The empty board.
    pub fn new() -> TicTacToe {
        TicTacToe::default()
    }

    /// Parses 9 characters `x`/`o`/`.` (case-insensitive; spaces and `/`
    /// between rows are ignored). Checks the counts are reachable (x has as
    /// many stones as o or one more) and that at most one side has a line,
    /// consistent with who moved last.
    pub fn parse(text: &str) -> Result<TicTacToe, ParseError> {
        let mut cells = [0u16; 2];
        let mut n = 0usize;
        for (col0, ch) in text.chars().enumerate() {
            let col = col0 + 1;
            match ch {
                ' ' | '/' | '\t' | '\r' | '\n' => continue,
                'x' | 'X' | 'o' | 'O' | '.' | '-' => {
                    if n >= 9 {
                        return Err(ParseError::at_col(col, "end of position after 9 cells"));
                    }
                    match ch {
                        'x' | 'X' => cells[0] |= 1 << n,
                        'o' | 'O' => cells[1] |= 1 << n,
                        _ => {}
                    }
                    n += 1;
                }
                _ => {
                    return Err(ParseError::at_col(
                        col,
                        format!("expected `x`, `o` or `.`, found `{ch}`"),
                    ))
                }
            }
        }
        if n != 9 {
            return Err(ParseError::at_col(
                text.chars().count() + 1,
                format!("expected 9 cells of `x`, `o` or `.`, found {n}"),
            ));
        }
        let (nx, no) = (cells[0].count_ones(), cells[1].count_ones());
        if nx != no && nx != no + 1 {
            return Err(ParseError::at_col(
                1,
                format!("impossible position: x has {nx} stones and o has {no} (x moves first, so x has as many as o or one more)"),
            ));
        }
        let g = TicTacToe { cells };
        let (wx, wo) = (g.has_line(0), g.has_line(1));
        // x just moved iff x has one more stone; only the last mover can have a line.
        let x_moved_last = nx != no;
        if (wx && !x_moved_last) || (wo && x_moved_last) {
            return Err(ParseError::at_col(
                1,
                "impossible position: the lines on the board could not have been made in play",
            ));
        }
        Ok(g)
    }

    /// The line-count evaluation (first player's view): every line that
    /// only x occupies scores +1 for one x and +10 for two, every line that
    /// only o occupies the same for o. Two in an open line is a threat, so
    /// it outweighs all the single stones together; lines both players
    /// hold are dead and score nothing. Bounded by ±80, far inside ±WIN.
    pub fn line_evaluation(&self) -> i32 {
        const SCORE: [i32; 4] = [0, 1, 10, 0];
        LINES
            .iter()
            .map(|&l| {
                let (x, o) = (
                    (self.cells[0] & l).count_ones(),
                    (self.cells[1] & l).count_ones(),
                );
                match (x, o) {
                    (x, 0) => SCORE[x as usize],
                    (0, o) => -SCORE[o as usize],
                    _ => 0,
                }
            })
            .sum()
    }

    /// Does a stone of player index `p` on free cell `m` complete a line?
    fn completes_line(&self, p: usize, m: u8) -> bool {
        let b = self.cells[p] | 1 << m;
        LINES.iter().any(|&l| l >> m & 1 == 1 && b & l == l)
    }

    fn has_line(&self, p: usize) -> bool {
        LINES.iter().any(|&l| self.cells[p] & l == l)
    }

    fn occupied(&self) -> u16 {
        self.cells[0] | self.cells[1]
    }

    /// Cell name `a1`…`c3` (column letter, row number from the top).
    pub fn cell_name(i: u8) -> String {
        format!("{}{}", (b'a' + i % 3) as char, i / 3 + 1)
    }

    /// Contents of cell `i` (row-major): `Some(player)` or `None`.
    pub fn cell(&self, i: u8) -> Option<Player> {
        let [first, second] = self.cells.map(|s| s >> i & 1 == 1);
        Player::holding(first, second)
    }
}

impl Game for TicTacToe {
    /// Cell index 0..9, row-major from the top-left.
    type Move = u8;

    fn kind(&self) -> GameKind {
        GameKind::TicTacToe
    }

    fn to_move(&self) -> Player {
        if self.cells[0].count_ones() == self.cells[1].count_ones() {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.outcome().is_some() {
            return;
        }
        let occ = self.occupied();
        out.extend((0..9u8).filter(|&i| occ >> i & 1 == 0));
    }

    fn play(&mut self, m: u8) {
        let p = self.to_move().index();
        debug_assert!(self.occupied() >> m & 1 == 0, "cell {m} is taken");
        self.cells[p] |= 1 << m;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_line(0) {
            Some(Outcome::win_for(Player::First))
        } else if self.has_line(1) {
            Some(Outcome::win_for(Player::Second))
        } else if self.occupied() == 0x1FF {
            Some(Outcome::DRAW)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        let mut h = 0u64;
        for p in 0..2 {
            let mut b = self.cells[p];
            while b != 0 {
                let i = b.trailing_zeros() as u64;
                h ^= zobrist(i * 2 + p as u64);
                b &= b - 1;
            }
        }
        if self.to_move() == Player::Second {
            h ^= zobrist(99);
        }
        h
    }

    fn format_move(&self, m: u8) -> String {
        TicTacToe::cell_name(m)
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let t = text.trim().to_ascii_lowercase();
        let b = t.as_bytes();
        if b.len() != 2 || !(b'a'..=b'c').contains(&b[0]) || !(b'1'..=b'3').contains(&b[1]) {
            return Err(MoveError::notation(text, "a cell a1…c3"));
        }
        let m = (b[1] - b'1') * 3 + (b[0] - b'a');
        let why = "the cell is taken or the game is over";
        MoveError::unless_illegal(self.is_legal(m), m, text, why)
    }

    fn into_any(self) -> super::AnyPosition {
        super::AnyPosition::TicTacToe(self)
    }
    /// [`TicTacToe::line_evaluation`].
    fn evaluate(&self) -> Option<i32> {
        Some(self.line_evaluation())
    }

    /// A move that completes a line for the mover or takes the cell where
    /// the opponent would complete one.
    fn is_tactical(&self, m: u8) -> bool {
        let me = self.to_move().index();
        self.completes_line(me, m) || self.completes_line(1 - me, m)
    }

    /// Win, draw or loss: ±1 or 0.
    fn score_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }

    fn notation(&self) -> String {
        (0..9u8)
            .map(|i| match self.cell(i) {
                Some(Player::First) => 'x',
                Some(Player::Second) => 'o',
                None => '.',
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    #[test]
    fn perft_matches_published_sequence_counts() {
        // tests/data/tictactoe_facts.json "move_sequences_by_ply(perft)".
        let expected = [9u64, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
        let g = TicTacToe::new();
        for (d, &e) in expected.iter().enumerate() {
            assert_eq!(perft(&g, d as u32 + 1), e, "depth {}", d + 1);
        }
    }

    #[test]
    fn line_evaluation_counts_open_lines() {
        assert_eq!(TicTacToe::new().line_evaluation(), 0);
        // x in the centre: 4 open lines with one x.
        assert_eq!(TicTacToe::parse("....x....").unwrap().evaluate(), Some(4));
        // x a1, b2 (cells 0, 4) and o c1 (cell 2): x's lines through a1
        // are row 1 (dead: o on c1), column a (1), diagonal a1-c3 (two x:
        // 10); through b2: row 2 (1), column b (1), anti-diagonal (dead).
        // o on c1: row 1 dead, column c (−1), anti-diagonal dead.
        assert_eq!(TicTacToe::parse("x.o.x....").unwrap().evaluate(), Some(12));
    }

    #[test]
    fn notation_round_trips() {
        for s in ["x........", "xo.x.o..x", "........."] {
            assert_eq!(TicTacToe::parse(s).unwrap().notation(), s);
        }
    }

    #[test]
    fn impossible_positions_are_rejected_with_a_column() {
        assert_eq!(TicTacToe::parse("xx.......").unwrap_err().col, 1);
        let e = TicTacToe::parse("x..?.....").unwrap_err();
        assert_eq!(e.col, 4);
        assert!(TicTacToe::parse("xxx.ooo..").is_err());
        assert!(TicTacToe::parse("xxxxoooo").is_err());
    }
}
