//! Games whose rules live outside the engine: a host program (the Python
//! module's game protocol, docs/python.md) supplies each position as an
//! [`ExternalState`], and [`External`] makes it a [`Game`] every search of
//! the registry can run on.
//!
//! Design: a move is the index of the move in the host's legal-move list of
//! the position it is played from (as [`super::within::Within`] does), so
//! the searches store a `u32` per node and never see the host's own move
//! values. Positions are immutable on the host side: playing a move asks
//! the host for the position after it and keeps both, which is what lets
//! a search clone positions freely (an `Arc` each). The host decides what
//! a callback costs and whether it caches; the engine asks each question
//! of a position at most a few times.
//!
//! The host's callbacks cannot fail from the engine's point of view: a
//! host whose callback raises an error records it on its side, answers
//! with a finished position (a draw with no moves, which keeps the
//! [`Game`] contract), and stops the search between steps.

use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

use super::{AnyPosition, Game, GameKind, MoveError, Outcome, Player};

/// One position of an external game, as its host supplies it. Every method
/// answers for this position alone; `play` returns a new position and
/// leaves this one as it was.
pub trait ExternalState: Debug + Send + Sync + 'static {
    /// The game's name, for records and messages.
    fn game_name(&self) -> String;
    /// The player to move.
    fn to_move(&self) -> Player;
    /// How many legal moves there are (0 exactly when the game is over).
    fn move_count(&self) -> usize;
    /// The name of legal move `index` (in the host's order), as records
    /// and trees show it.
    fn move_name(&self, index: usize) -> String;
    /// The position after legal move `index`.
    fn play(&self, index: usize) -> Arc<dyn ExternalState>;
    /// The result, first player's view, when the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// A 64-bit key of the position (side to move included) for
    /// transposition tables: equal positions have equal keys.
    fn key(&self) -> u64;
    /// The position as text (records, trees, error messages).
    fn notation(&self) -> String;
    /// The host's own type, so the host can reach its data behind a
    /// position the engine hands back.
    fn as_any(&self) -> &dyn Any;
    /// A static evaluation of an unfinished position (first player's
    /// view, the scale of [`super::eval`]), for the depth-limited
    /// searches; `None` when the host gives none.
    fn evaluate(&self) -> Option<i32> {
        None
    }
    /// The smallest and largest final score of the game (first player's
    /// view), when the host gives them: the chance searches and
    /// conspiracy-number search take their score range from here.
    fn score_range(&self) -> Option<(f64, f64)> {
        None
    }
}

/// A position of an external game (see the module documentation).
#[derive(Clone, Debug)]
pub struct External {
    state: Arc<dyn ExternalState>,
}

impl External {
    /// Wraps a host's position.
    pub fn new(state: Arc<dyn ExternalState>) -> External {
        External { state }
    }

    /// The host's position.
    pub fn state(&self) -> &Arc<dyn ExternalState> {
        &self.state
    }
}

/// Two external positions are equal when they are the same host object or
/// the host gives them the same key with the same side to move.
impl PartialEq for External {
    fn eq(&self, other: &External) -> bool {
        Arc::ptr_eq(&self.state, &other.state)
            || (self.state.key() == other.state.key()
                && self.state.to_move() == other.state.to_move())
    }
}

impl Game for External {
    /// Index into the host's legal-move list of the position played from.
    type Move = u32;

    fn kind(&self) -> GameKind {
        GameKind::External
    }

    fn to_move(&self) -> Player {
        self.state.to_move()
    }

    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.extend(0..self.state.move_count() as u32);
    }

    fn play(&mut self, m: u32) {
        self.state = self.state.play(m as usize);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    fn hash(&self) -> u64 {
        self.state.key()
    }

    fn format_move(&self, m: u32) -> String {
        if (m as usize) < self.state.move_count() {
            self.state.move_name(m as usize)
        } else {
            format!("#{m}")
        }
    }

    /// A move by the name [`format_move`](Game::format_move) gives it.
    fn parse_move(&self, text: &str) -> Result<u32, MoveError> {
        let n = self.state.move_count();
        let names: Vec<String> = (0..n).map(|i| self.state.move_name(i)).collect();
        match names.iter().position(|s| s == text) {
            Some(i) => Ok(i as u32),
            None if n == 0 => Err(MoveError::illegal(text, "the game is over")),
            None => Err(MoveError::illegal(
                text,
                format!("the legal moves are {}", names.join(", ")),
            )),
        }
    }

    fn notation(&self) -> String {
        self.state.notation()
    }

    fn into_any(self) -> AnyPosition {
        AnyPosition::External(self)
    }

    fn move_count(&self) -> usize {
        self.state.move_count()
    }

    fn score_range(&self) -> Option<(f64, f64)> {
        self.state.score_range()
    }

    /// The host's evaluation, kept strictly inside ±[`super::eval::WIN`].
    fn evaluate(&self) -> Option<i32> {
        let bound = super::eval::WIN - 1;
        self.state.evaluate().map(|v| v.clamp(-bound, bound))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tictactoe::TicTacToe;

    /// A host that plays tic-tac-toe through the engine's own game, the
    /// way a program outside the engine would supply it.
    #[derive(Debug)]
    struct Host(TicTacToe);

    impl Host {
        fn moves(&self) -> Vec<<TicTacToe as Game>::Move> {
            let mut v = Vec::new();
            self.0.legal_moves(&mut v);
            v
        }
    }

    impl ExternalState for Host {
        fn game_name(&self) -> String {
            "hosted tic-tac-toe".into()
        }
        fn to_move(&self) -> Player {
            self.0.to_move()
        }
        fn move_count(&self) -> usize {
            self.moves().len()
        }
        fn move_name(&self, index: usize) -> String {
            self.0.format_move(self.moves()[index])
        }
        fn play(&self, index: usize) -> Arc<dyn ExternalState> {
            let mut g = self.0;
            g.play(self.moves()[index]);
            Arc::new(Host(g))
        }
        fn outcome(&self) -> Option<Outcome> {
            self.0.outcome()
        }
        fn key(&self) -> u64 {
            self.0.hash()
        }
        fn notation(&self) -> String {
            self.0.notation()
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    fn hosted(text: &str) -> External {
        External::new(Arc::new(Host(TicTacToe::parse(text).unwrap())))
    }

    #[test]
    fn moves_are_indices_named_by_the_host() {
        let g = hosted("x...o....");
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert_eq!(v, (0..7).collect::<Vec<u32>>());
        let names: Vec<String> = v.iter().map(|&m| g.format_move(m)).collect();
        let own = AnyPosition::TicTacToe(TicTacToe::parse("x...o....").unwrap());
        assert_eq!(names, own.legal_move_names());
        assert_eq!(g.parse_move(&names[2]), Ok(2));
        assert!(g.parse_move("nowhere").is_err());
    }

    #[test]
    fn playing_leaves_the_position_played_from_unchanged() {
        let g = hosted(".........");
        let mut child = g.clone();
        child.play(4);
        assert_eq!(g.notation(), ".........");
        assert_eq!(child.to_move(), Player::Second);
        assert_ne!(child.hash(), g.hash());
        assert_ne!(child, g);
        assert_eq!(child.kind(), GameKind::External);
    }

    /// The registry searches a hosted game with the answer the engine's
    /// own tic-tac-toe has: the empty board is a draw, so the first
    /// player cannot force a win, and `xx..o.o..` (X to move) is won at once.
    #[test]
    fn registry_searches_reach_the_built_in_answers() {
        use crate::search::{build, Budget, SearchSetup, Status};
        for algo in ["pns", "dfpn", "dfpn-fast", "deep-pn", "dfs"] {
            for (text, want) in [
                (".........", Status::Disproved),
                ("xx..o.o..", Status::Proved),
            ] {
                let setup = SearchSetup::new(algo, hosted(text).into_any(), &[]).unwrap();
                let mut s = build(algo, &setup).unwrap();
                let status = crate::search::run(s.as_mut(), &Budget::default(), None);
                assert_eq!(status, want, "{algo} on {text}");
            }
        }
    }
}
