//! EinStein würfelt nicht! (Ingo Althöfer, 2004): a 5×5 race game with a
//! die, the lecture notes' example of a game with chance nodes.
//!
//! # Rules
//!
//! Each player has six cubes numbered 1–6 on the three-two-one triangle
//! of its corner; how they stand there is part of the position. The first
//! player ("red", [`Player::First`]) starts in the top-left corner and
//! moves right, down or diagonally down-right; the second ("blue") starts
//! bottom-right and moves left, up or diagonally up-left. A turn: roll the
//! die, then move the cube with that number; if it is gone, move either
//! the cube with the next higher or the one with the next lower number
//! still on the board. A cube that lands on an occupied square removes the
//! cube there, whatever its colour. A player wins by reaching the opposite
//! corner (red e5, blue a1) or by removing all the opponent's cubes.
//!
//! # Chance nodes
//!
//! The roll is a chance node before the player's choice: a position whose
//! die is not rolled yet is a chance node ([`Game::is_chance`]) whose six
//! moves `roll1` … `roll6` have probability 1/6 each; after a roll the
//! same player chooses a cube move. So a turn is two plies, and perft
//! counts both. Rolls that leave the same cubes movable are kept apart
//! (six outcomes, always uniform), as a player at the table sees them.
//!
//! # Notation
//!
//! `ROW/ROW/ROW/ROW/ROW SIDE[DIE]`: the rows from the top, five squares
//! each, `.` empty, `1`–`6` red's cubes, `a`–`f` blue's cubes 1–6; the side
//! to move `r` (red) or `b` (blue), followed by the rolled number when the
//! die has been rolled (`r4`: red to move a cube, the die shows 4) and by
//! nothing when the roll is still to come (a chance node). The usual start:
//! `123../45.../6...f/...ed/..cba r`.
//!
//! Squares are a column letter and a row number, `a1` the top-left corner
//! (red's), `e5` the bottom-right (blue's). A cube move is the cube's
//! number and the square it moves to (`4b3`); a roll is `roll` and the
//! number (`roll4`).
//!
//! Scores: +1 when the first player wins, −1 when the second does; there
//! are no draws.

mod notation;

use super::{Game, GameKind, MoveError, Outcome, ParseError, Player};
use crate::game::mix::zobrist_key;

/// Board width and height.
pub const SIZE: usize = 5;
/// Number of squares.
pub const SQUARES: usize = SIZE * SIZE;
/// Cubes per player.
pub const CUBES: usize = 6;
/// A removed cube's square.
const GONE: u8 = u8::MAX;
/// The corner red aims for (e5) and the one blue aims for (a1).
const RED_GOAL: u8 = (SQUARES - 1) as u8;
const BLUE_GOAL: u8 = 0;
/// Salt for this game's Zobrist keys.
const SALT: u64 = 0x4557_4e00_0000_0000;

/// A move: a die roll at a chance node, or a cube move after the roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EwnMove {
    /// The number rolled (1–6), or 0 for a cube move.
    pub roll: u8,
    /// The cube moved (1–6); 0 for a roll.
    pub cube: u8,
    /// The square the cube moves to (0 = a1, row by row).
    pub to: u8,
}

/// An EinStein würfelt nicht! position.
#[derive(Clone, Debug, PartialEq)]
pub struct Ewn {
    /// The square of each cube (`[player][cube − 1]`), `GONE` once removed.
    cubes: [[u8; CUBES]; 2],
    to_move: Player,
    /// The number rolled for the player to move; `None` while the roll is
    /// still to come (a chance node).
    die: Option<u8>,
}

/// The square name (`a1` … `e5`).
pub fn square_name(sq: u8) -> String {
    let col = (b'a' + sq % SIZE as u8) as char;
    format!("{col}{}", sq / SIZE as u8 + 1)
}

impl Ewn {
    /// The usual start: cubes 1–6 row by row into each corner triangle
    /// (red `123/45/6` from a1, blue the same turned half round), red to
    /// roll.
    pub fn start() -> Ewn {
        Ewn::parse("123../45.../6...f/...ed/..cba r").expect("the start position parses")
    }

    /// Parses the notation (module documentation).
    pub fn parse(text: &str) -> Result<Ewn, ParseError> {
        notation::parse(text)
    }

    /// A position from cube squares, side and die (checked by the parser).
    fn from_parts(cubes: [[u8; CUBES]; 2], to_move: Player, die: Option<u8>) -> Ewn {
        Ewn {
            cubes,
            to_move,
            die,
        }
    }

    /// What stands on `sq`: `Some((player, cube))` or `None`.
    pub fn at(&self, sq: u8) -> Option<(Player, u8)> {
        for p in [Player::First, Player::Second] {
            if let Some(i) = self.cubes[p.index()].iter().position(|&s| s == sq) {
                return Some((p, i as u8 + 1));
            }
        }
        None
    }

    /// The number rolled for the player to move (`None` before the roll).
    pub fn die(&self) -> Option<u8> {
        self.die
    }

    /// The cubes `die` lets the player to move use: that cube, or the
    /// nearest higher and lower ones still on the board.
    pub fn movable_cubes(&self, die: u8) -> Vec<u8> {
        let mine = &self.cubes[self.to_move.index()];
        let alive = |c: u8| mine[c as usize - 1] != GONE;
        if alive(die) {
            return vec![die];
        }
        let lower = (1..die).rev().find(|&c| alive(c));
        let higher = (die + 1..=CUBES as u8).find(|&c| alive(c));
        lower.into_iter().chain(higher).collect()
    }

    /// The squares a cube of `player` on `sq` can move to, in the order
    /// right/left, down/up, diagonal.
    fn targets(player: Player, sq: u8) -> impl Iterator<Item = u8> {
        let (r, c) = ((sq as usize / SIZE) as i32, (sq as usize % SIZE) as i32);
        let s: i32 = match player {
            Player::First => 1,
            Player::Second => -1,
        };
        [(0, s), (s, 0), (s, s)]
            .into_iter()
            .map(move |(dr, dc)| (r + dr, c + dc))
            .filter(|&(r, c)| (0..SIZE as i32).contains(&r) && (0..SIZE as i32).contains(&c))
            .map(|(r, c)| (r as usize * SIZE + c as usize) as u8)
    }

    fn has_cubes(&self, p: Player) -> bool {
        self.cubes[p.index()].iter().any(|&s| s != GONE)
    }
}

impl Game for Ewn {
    type Move = EwnMove;

    fn kind(&self) -> GameKind {
        GameKind::Ewn
    }

    /// The player whose turn it is (the one who rolls, then moves).
    fn to_move(&self) -> Player {
        self.to_move
    }

    /// At a chance node the six rolls, else the cube moves the roll
    /// allows (cubes in increasing number, each right/left, down/up,
    /// diagonal).
    fn legal_moves(&self, out: &mut Vec<EwnMove>) {
        if self.outcome().is_some() {
            return;
        }
        match self.die {
            None => out.extend((1..=CUBES as u8).map(|roll| EwnMove {
                roll,
                cube: 0,
                to: 0,
            })),
            Some(d) => {
                for cube in self.movable_cubes(d) {
                    let from = self.cubes[self.to_move.index()][cube as usize - 1];
                    for to in Ewn::targets(self.to_move, from) {
                        out.push(EwnMove { roll: 0, cube, to });
                    }
                }
            }
        }
    }

    fn play(&mut self, m: EwnMove) {
        if m.roll != 0 {
            self.die = Some(m.roll);
            return;
        }
        for side in &mut self.cubes {
            for s in side.iter_mut() {
                if *s == m.to {
                    *s = GONE;
                }
            }
        }
        self.cubes[self.to_move.index()][m.cube as usize - 1] = m.to;
        self.to_move = self.to_move.other();
        self.die = None;
    }

    fn outcome(&self) -> Option<Outcome> {
        let red_home = self.cubes[0].contains(&RED_GOAL);
        let blue_home = self.cubes[1].contains(&BLUE_GOAL);
        if red_home || !self.has_cubes(Player::Second) {
            Some(Outcome::win_for(Player::First))
        } else if blue_home || !self.has_cubes(Player::First) {
            Some(Outcome::win_for(Player::Second))
        } else {
            None
        }
    }

    /// Zobrist: one key per (player, cube, square), the side and the die.
    fn hash(&self) -> u64 {
        let mut h = zobrist_key(SALT ^ (self.to_move.index() as u64 + 1) << 20);
        h ^= zobrist_key(SALT ^ (u64::from(self.die.unwrap_or(0)) + 8) << 24);
        for (p, side) in self.cubes.iter().enumerate() {
            for (c, &s) in side.iter().enumerate() {
                if s != GONE {
                    h ^= zobrist_key(SALT ^ ((p * CUBES + c) * SQUARES + s as usize) as u64);
                }
            }
        }
        h
    }

    fn format_move(&self, m: EwnMove) -> String {
        if m.roll != 0 {
            format!("roll{}", m.roll)
        } else {
            format!("{}{}", m.cube, square_name(m.to))
        }
    }

    fn parse_move(&self, text: &str) -> Result<EwnMove, MoveError> {
        let t = text.trim();
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if let Some(&m) = moves.iter().find(|&&m| self.format_move(m) == t) {
            return Ok(m);
        }
        let names: Vec<String> = moves.iter().map(|&m| self.format_move(m)).collect();
        Err(if names.is_empty() {
            MoveError::game_over(t)
        } else {
            MoveError::illegal(t, format!("the legal moves are {}", names.join(", ")))
        })
    }

    fn notation(&self) -> String {
        notation::write(self)
    }

    fn into_any(self) -> super::AnyPosition {
        super::AnyPosition::Ewn(self)
    }

    fn is_chance(&self) -> bool {
        self.die.is_none() && self.outcome().is_none()
    }

    fn chance_probabilities(&self, out: &mut Vec<f64>) {
        if self.is_chance() {
            out.extend([1.0 / CUBES as f64; CUBES]);
        }
    }

    fn has_chance_nodes(&self) -> bool {
        true
    }

    fn score_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }
}
