//! Placeholder while the real rules are written on a helper branch.

use super::{Game, GameKind, Outcome, ParseError, Player};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeGame;

impl TreeGame {
    pub fn parse(_text: &str) -> Result<TreeGame, ParseError> {
        Err(ParseError::at_col(1, "this game is not available yet"))
    }
}

impl Game for TreeGame {
    type Move = u8;
    fn kind(&self) -> GameKind {
        GameKind::Tree
    }
    fn to_move(&self) -> Player {
        Player::First
    }
    fn legal_moves(&self, _out: &mut Vec<u8>) {}
    fn play(&mut self, _m: u8) {}
    fn outcome(&self) -> Option<Outcome> {
        Some(Outcome::DRAW)
    }
    fn hash(&self) -> u64 {
        0
    }
    fn format_move(&self, m: u8) -> String {
        m.to_string()
    }
    fn parse_move(&self, t: &str) -> Result<u8, String> {
        Err(format!("no move {t}"))
    }
    fn into_any(self) -> super::AnyPosition {
        super::AnyPosition::Tree(self)
    }

    fn notation(&self) -> String {
        String::new()
    }
}
