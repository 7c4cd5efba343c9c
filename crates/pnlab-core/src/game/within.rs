//! The mate question "win within N moves" for every game: a position
//! wrapper whose play ends, as a loss for the attacker, once the attacker
//! has made N moves without winning.
//!
//! `pnlab solve --within N` (and `within = N` in a TOML file, the field
//! next to the question in the app) wraps the root in a [`Within`]; every
//! proof search then answers "does the attacker win within N of its own
//! moves?" (2N − 1 plies when the attacker moves first). A position at the
//! horizon counts as not won: its [`Outcome`] is a loss for the attacker,
//! worth [`HORIZON_SCORE`] to the defender, below any score a real game
//! gives. So with the question `win`, a mate puzzle "mate in N" is proved
//! with N and disproved with N − 1.
//!
//! Design: the wrapper holds the inner position as an [`AnyPosition`] and
//! its moves are indices into the inner position's legal-move list
//! (`u16`). That costs one inner move generation per move played, but it
//! adds a single game type to the searches (one more monomorphisation of
//! each, not one per game). A move by the attacker counts whatever it is
//! (a pass in Othello, each stone of a Connect6 turn). The hash mixes the
//! attacker's moves left into the inner hash, so a transposition table
//! never mistakes a position with fewer moves left for one with more.
//! Repetition rules of the inner game still apply
//! ([`Game::history_dependent`] is the inner game's).

use super::mix::zobrist_key;
use super::{AnyPosition, Game, GameKind, MoveError, Outcome, Player};

/// What a position at the horizon is worth to the defender (the
/// attacker's score is its negation): beyond every game's scores.
pub const HORIZON_SCORE: i32 = 1_000_000;

/// Salt of the moves-left keys.
const SALT: u64 = 0x5749_0000_0000_0000;

/// A position whose play ends once `attacker` has made its last allowed
/// move (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Within {
    inner: Box<AnyPosition>,
    attacker: Player,
    moves_left: u32,
}

impl Within {
    /// Wraps `inner`: `attacker` may make `moves` more moves.
    pub fn new(inner: AnyPosition, attacker: Player, moves: u32) -> Within {
        Within {
            inner: Box::new(inner),
            attacker,
            moves_left: moves,
        }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &AnyPosition {
        &self.inner
    }

    /// The player the limit applies to.
    pub fn attacker(&self) -> Player {
        self.attacker
    }

    /// How many moves the attacker may still make.
    pub fn moves_left(&self) -> u32 {
        self.moves_left
    }

    /// The inner move with index `i` in the inner legal-move list.
    fn inner_move_name(&self, i: u16) -> Option<String> {
        crate::with_position!(&*self.inner, g => {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            v.get(i as usize).map(|&m| g.format_move(m))
        })
    }

    /// Whether the attacker has used up its moves (the play ends here
    /// unless the inner game has already ended).
    fn at_horizon(&self) -> bool {
        self.moves_left == 0
    }
}

impl Game for Within {
    /// Index into the inner position's legal moves.
    type Move = u16;

    fn kind(&self) -> GameKind {
        self.inner.kind()
    }

    fn to_move(&self) -> Player {
        self.inner.to_move()
    }

    fn legal_moves(&self, out: &mut Vec<u16>) {
        if self.at_horizon() {
            return;
        }
        let n = crate::with_position!(&*self.inner, g => g.move_count());
        out.extend(0..n as u16);
    }

    fn play(&mut self, i: u16) {
        if self.inner.to_move() == self.attacker {
            self.moves_left = self.moves_left.saturating_sub(1);
        }
        crate::with_position!(&mut *self.inner, g => {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            g.play(v[i as usize]);
        });
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.inner.outcome() {
            Some(o) => Some(o),
            None if self.at_horizon() => Some(Outcome {
                score: match self.attacker {
                    Player::First => -HORIZON_SCORE,
                    Player::Second => HORIZON_SCORE,
                },
            }),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        let h = crate::with_position!(&*self.inner, g => g.hash());
        h ^ zobrist_key(SALT ^ u64::from(self.moves_left))
    }

    /// The inner move's notation.
    fn format_move(&self, i: u16) -> String {
        self.inner_move_name(i).unwrap_or_else(|| format!("#{i}"))
    }

    /// A move in the inner game's notation.
    fn parse_move(&self, text: &str) -> Result<u16, MoveError> {
        if self.at_horizon() {
            return Err(MoveError::illegal(
                text,
                "the attacker has no moves left within the limit",
            ));
        }
        crate::with_position!(&*self.inner, g => {
            let m = g.parse_move(text)?;
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            v.iter()
                .position(|&x| x == m)
                .map(|i| i as u16)
                .ok_or_else(|| MoveError::illegal(text, "not among the legal moves"))
        })
    }

    /// The inner position's notation (the limit is not part of it).
    fn notation(&self) -> String {
        self.inner.notation()
    }

    fn into_any(self) -> AnyPosition {
        AnyPosition::Within(self)
    }

    fn move_count(&self) -> usize {
        if self.at_horizon() {
            0
        } else {
            crate::with_position!(&*self.inner, g => g.move_count())
        }
    }

    fn default_attacker(&self) -> Option<Player> {
        Some(self.attacker)
    }

    fn history_dependent(&self) -> bool {
        crate::with_position!(&*self.inner, g => g.history_dependent())
    }

    fn is_repetition(&self) -> bool {
        crate::with_position!(&*self.inner, g => g.is_repetition())
    }

    fn path_hash(&self) -> u64 {
        crate::with_position!(&*self.inner, g => g.path_hash())
    }

    /// The inner position's key and the attacker's moves left.
    fn history_key(&self) -> Vec<u64> {
        let mut key = crate::with_position!(&*self.inner, g => g.history_key());
        key.push(u64::from(self.moves_left));
        key
    }

    fn leaf_win_rate_hint(&self) -> Option<f64> {
        crate::with_position!(&*self.inner, g => g.leaf_win_rate_hint())
    }

    /// The inner game's evaluation.
    fn evaluate(&self) -> Option<i32> {
        crate::with_position!(&*self.inner, g => g.evaluate())
    }

    /// The inner game's terminal value; the horizon is a lost game for the
    /// attacker (−WIN from its side).
    fn terminal_value(&self, o: Outcome) -> i32 {
        if o.score.abs() == HORIZON_SCORE {
            super::eval::terminal_value(o)
        } else {
            crate::with_position!(&*self.inner, g => g.terminal_value(o))
        }
    }

    /// Whether the inner move is tactical in the inner game.
    fn is_tactical(&self, i: u16) -> bool {
        crate::with_position!(&*self.inner, g => {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            v.get(i as usize).is_some_and(|&m| g.is_tactical(m))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tictactoe::TicTacToe;

    fn ttt(s: &str) -> AnyPosition {
        AnyPosition::TicTacToe(TicTacToe::parse(s).unwrap())
    }

    /// x to move wins at once on the top row: within 1 the win is there,
    /// within 0 the root itself is the horizon.
    #[test]
    fn horizon_and_moves() {
        let w = Within::new(ttt("xx.oo...."), Player::First, 1);
        assert_eq!(w.move_count(), 5);
        assert_eq!(w.outcome(), None);
        let i = w.parse_move("c1").unwrap();
        assert_eq!(w.format_move(i), "c1");
        let mut won = w.clone();
        won.play(i);
        assert_eq!(won.outcome(), Some(Outcome::win_for(Player::First)));
        let mut missed = w.clone();
        missed.play(w.parse_move("c2").unwrap());
        assert_eq!(missed.moves_left(), 0);
        assert_eq!(missed.outcome().map(|o| o.score), Some(-HORIZON_SCORE));
        assert_eq!(missed.move_count(), 0);
        let none = Within::new(ttt("xx.oo...."), Player::First, 0);
        assert!(none.outcome().is_some());
        assert_ne!(none.hash(), w.hash());
        assert_eq!(w.notation(), "xx.oo....");
        assert_eq!(w.default_attacker(), Some(Player::First));
    }
}
