//! Repetition: the rule that ends a play that returns to an earlier
//! position, and the path of earlier positions a position carries so that
//! [`Game::outcome`](crate::game::Game::outcome) can apply it.
//!
//! pnlab's rule (a simplification of the Asian rules, which judge chases
//! and checks over repeated cycles): the first time a position repeats one
//! earlier on the path (since the search root, or since the start of a
//! game record), the play ends.
//! - [`Repetition::Draw`] (the default): the play is a draw.
//! - [`Repetition::PerpetualCheckLoses`]: if every move of one side in the
//!   cycle gave check and not every move of the other did, the checking
//!   side loses; otherwise a draw.
//! - [`Repetition::None`]: repetition plays no part (perft, move
//!   generation tests; a search may then run around a cycle for ever,
//!   unless a depth limit such as `--within` ends it).
//!
//! The path keeps, for each earlier position since the last irreversible
//! move (a capture or a pawn's step forward: no earlier position can
//! return after one), its hash and whether its side to move was in check.
//! Hash equality stands for position equality (64-bit Zobrist keys).

use crate::game::Outcome;

use super::board::Board;

crate::choice_enum! {
    /// The repetition rule of a position (see the module documentation).
    pub enum Repetition {
        /// A repeated position is a draw.
        Draw = "draw",
        /// A side that checked with every move of the cycle loses.
        PerpetualCheckLoses = "perpetual-check-loses",
        /// Repetition plays no part.
        None = "none",
    }
}

/// A repeated position is a draw unless a file or the command line says
/// otherwise.
impl Default for Repetition {
    fn default() -> Repetition {
        Repetition::Draw
    }
}

impl Repetition {
    /// Reads a rule name (TOML files, `--repetition`); the error lists the
    /// names.
    pub fn from_name(name: &str) -> Result<Repetition, UnknownRepetition> {
        name.parse()
            .map_err(|e: crate::params::UnknownChoice| UnknownRepetition { name: e.value })
    }
}

/// A repetition rule name that is none of [`Repetition::NAMES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown repetition rule `{name}`; expected one of {}", Repetition::NAMES.join(", "))]
pub struct UnknownRepetition {
    /// The name given.
    pub name: String,
}

/// One earlier position of the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Visit {
    key: u64,
    /// Whether its side to move was in check (kept only for
    /// [`Repetition::PerpetualCheckLoses`]).
    in_check: bool,
}

/// The earlier positions of the path since the last irreversible move,
/// oldest first; the last one is the parent of the current position.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Path {
    visits: Vec<Visit>,
}

/// `clone_from` reuses the buffer (see [`super::Xiangqi`]'s `Clone`).
impl Clone for Path {
    fn clone(&self) -> Self {
        Path {
            visits: self.visits.clone(),
        }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.visits.clone_from(&source.visits);
    }
}

impl Path {
    /// Records `before`, the position a move of `rule`'s game is about to
    /// leave; an irreversible move clears the path instead.
    #[inline]
    pub fn record(&mut self, before: &Board, rule: Repetition, irreversible: bool) {
        if rule == Repetition::None {
            return;
        }
        if irreversible {
            self.visits.clear();
            return;
        }
        let in_check = rule == Repetition::PerpetualCheckLoses && before.in_check();
        self.visits.push(Visit {
            key: before.key(),
            in_check,
        });
    }

    /// Number of positions on the path.
    pub fn len(&self) -> usize {
        self.visits.len()
    }

    /// Whether the path is empty.
    pub fn is_empty(&self) -> bool {
        self.visits.is_empty()
    }

    /// A hash of the whole path (each earlier position and its check
    /// flag, in order): two positions with the same board and the same
    /// path hash end the same way under every rule, so a search may store
    /// values under the pair (`Game::path_hash`).
    pub fn hash(&self) -> u64 {
        self.visits.iter().fold(
            crate::game::mix::zobrist_key(self.visits.len() as u64 ^ 0x5850_4154_4800_0000),
            |h, v| crate::game::mix::zobrist_key(h ^ v.key ^ u64::from(v.in_check)),
        )
    }

    /// The whole path written out: each earlier position's key and check
    /// flag, oldest first (`Game::history_key`).
    pub fn key(&self) -> Vec<u64> {
        self.visits
            .iter()
            .flat_map(|v| [v.key, u64::from(v.in_check)])
            .collect()
    }

    /// Forgets the path (the position becomes a root of its own).
    pub fn clear(&mut self) {
        self.visits.clear();
    }

    /// Index of the latest earlier occurrence of `key` (same side to move:
    /// every second entry counting back from the grandparent).
    #[inline]
    fn earlier(&self, key: u64) -> Option<usize> {
        let n = self.visits.len();
        if n < 2 {
            return None;
        }
        let mut i = n - 2;
        loop {
            if self.visits[i].key == key {
                return Some(i);
            }
            if i < 2 {
                return None;
            }
            i -= 2;
        }
    }

    /// Whether `board` repeats an earlier position of the path.
    #[inline]
    pub fn repeats(&self, board: &Board) -> bool {
        self.visits.len() >= 4 && self.earlier(board.key()).is_some()
    }

    /// The end of the play by `rule` when `board` repeats an earlier
    /// position, else `None`.
    pub fn verdict(&self, board: &Board, rule: Repetition) -> Option<Outcome> {
        if rule == Repetition::None || self.visits.len() < 4 {
            return None;
        }
        let i = self.earlier(board.key())?;
        if rule == Repetition::Draw {
            return Some(Outcome::DRAW);
        }
        // Cycle positions after the first occurrence: i+1 .. n-1, then
        // the current one (index n). A position's `in_check` says whether
        // the move into it gave check.
        let n = self.visits.len();
        let mover_is_to_move = board.side();
        // Moves into positions at an even distance from the current one
        // (the current one included) were made by the side not to move now.
        let mut other_always = board.in_check();
        let mut mover_always = true;
        for j in i + 1..n {
            let checked = self.visits[j].in_check;
            if (n - j).is_multiple_of(2) {
                other_always &= checked;
            } else {
                mover_always &= checked;
            }
        }
        Some(match (other_always, mover_always) {
            (true, false) => Outcome::win_for(mover_is_to_move),
            (false, true) => Outcome::win_for(mover_is_to_move.other()),
            _ => Outcome::DRAW,
        })
    }
}
