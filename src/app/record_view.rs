//! The game-record viewer (issue #9 item 7): a recorded game's moves
//! beside the board; choosing a ply makes the position after it the
//! search root, ←/→ walk through the game. The logic is here (which ply,
//! the numbered rows of the move list, the position to search); `ui`
//! draws it.

use std::sync::Arc;

use crate::game::AnyPosition;
use crate::positions::GameLine;

/// Where the viewer stands in a recorded game.
#[derive(Clone, Debug)]
pub struct RecordView {
    /// The game.
    pub line: Arc<GameLine>,
    /// Moves played from the record's start: the root is the position
    /// after them (0 = the start position).
    pub ply: usize,
}

/// One row of the move list: the move number and the plies (index into
/// the moves, and the move) of the side that moved first in the record
/// and of the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The move number, 1-based, as a game record prints it.
    pub number: usize,
    /// The first side's ply: (index into the moves, the move).
    pub first: Option<(usize, String)>,
    /// The other side's reply, when it has one.
    pub second: Option<(usize, String)>,
}

impl RecordView {
    /// The viewer on the last ply (what the file's entry holds).
    pub fn new(line: Arc<GameLine>) -> RecordView {
        let ply = line.moves.len();
        RecordView { line, ply }
    }

    /// Number of plies of the game.
    pub fn len(&self) -> usize {
        self.line.moves.len()
    }

    /// Whether the game has no move.
    pub fn is_empty(&self) -> bool {
        self.line.moves.is_empty()
    }

    /// Moves to ply `ply` (clamped to the game); whether it changed.
    pub fn go(&mut self, ply: usize) -> bool {
        let ply = ply.min(self.len());
        let changed = ply != self.ply;
        self.ply = ply;
        changed
    }

    /// Moves by `delta` plies (clamped); whether it changed.
    pub fn step(&mut self, delta: isize) -> bool {
        self.go(self.ply.saturating_add_signed(delta))
    }

    /// The move that led to the current position (none at the start).
    pub fn last_move(&self) -> Option<&str> {
        self.ply
            .checked_sub(1)
            .and_then(|i| self.line.moves.get(i))
            .map(String::as_str)
    }

    /// The position after the current ply, carrying the game's path for
    /// the repetition rule.
    pub fn position(&self) -> Result<AnyPosition, crate::game::MoveError> {
        self.line.position_after(self.ply)
    }

    /// The move list as numbered pairs (ply `i` is in row `i / 2`).
    pub fn rows(&self) -> Vec<Row> {
        self.line
            .moves
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| Row {
                number: i + 1,
                first: pair.first().map(|m| (2 * i, m.clone())),
                second: pair.get(1).map(|m| (2 * i + 1, m.clone())),
            })
            .collect()
    }

    /// `ply K of N` for the status line.
    pub fn describe(&self) -> String {
        format!("ply {} of {}", self.ply, self.len())
    }
}

/// The position a search starts from: `position` asked plainly, or as
/// the mate question "does the side to move win within `within` of its
/// own moves?" (an existing limit is replaced or removed).
pub fn with_question(position: &AnyPosition, within: Option<u32>) -> AnyPosition {
    let base = match position {
        AnyPosition::Within(w) => w.inner().clone(),
        other => other.clone(),
    };
    match within {
        Some(n) => base.within(n),
        None => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::xiangqi::Xiangqi;
    use crate::game::Game;

    fn game() -> RecordView {
        RecordView::new(Arc::new(GameLine {
            title: "test".into(),
            tags: Vec::new(),
            start: AnyPosition::Xiangqi(Xiangqi::start()),
            moves: ["h2e2", "h9g7", "h0g2"].map(String::from).to_vec(),
        }))
    }

    #[test]
    fn walks_and_clamps() {
        let mut v = game();
        assert_eq!(v.ply, 3);
        assert_eq!(v.last_move(), Some("h0g2"));
        assert!(!v.step(1), "already at the end");
        assert!(v.step(-2));
        assert_eq!(v.ply, 1);
        assert_eq!(v.last_move(), Some("h2e2"));
        assert!(v.step(-5));
        assert_eq!((v.ply, v.last_move()), (0, None));
        assert!(v.go(10));
        assert_eq!(v.ply, 3);
        assert_eq!(v.describe(), "ply 3 of 3");
    }

    /// The position at a ply is the start with that many moves played,
    /// worked out here move by move through the engine.
    #[test]
    fn position_after_a_ply() {
        let mut v = game();
        v.go(2);
        let mut g = Xiangqi::start();
        for m in ["h2e2", "h9g7"] {
            let mv = g.parse_move(m).expect("legal");
            g.play(mv);
        }
        assert_eq!(v.position().expect("replays").notation(), g.notation());
        v.go(0);
        assert_eq!(
            v.position().expect("start").notation(),
            Xiangqi::start().notation()
        );
    }

    #[test]
    fn the_question_limit_is_set_replaced_and_removed() {
        let plain = AnyPosition::Xiangqi(Xiangqi::start());
        let three = with_question(&plain, Some(3));
        assert_eq!(three.within_limit(), Some(3));
        assert_eq!(with_question(&three, Some(1)).within_limit(), Some(1));
        let back = with_question(&three, None);
        assert_eq!(back.within_limit(), None);
        assert_eq!(back.notation(), plain.notation());
    }

    #[test]
    fn rows_number_the_move_pairs() {
        let rows = game().rows();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].first, Some((0, "h2e2".into())));
        assert_eq!(rows[0].second, Some((1, "h9g7".into())));
        assert_eq!((rows[1].number, rows[1].second.clone()), (2, None));
    }
}
