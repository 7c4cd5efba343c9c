//! Xiangqi (Chinese chess), the game of the thesis' SCN chapter.
//!
//! Rules (the ones the published perft counts assume): a 9 × 10 board;
//! the general and advisors stay in the palace, elephants on their own
//! side of the river with their eye free, horses move with their leg free,
//! rooks slide, cannons slide and capture over exactly one screen, pawns
//! step forward and, once across the river, sideways. The two generals may
//! never face each other on an open file, and no move may leave the
//! mover's general attacked. A side with no legal move loses — after
//! checkmate and after stalemate alike. A repeated position ends the play
//! by the position's [`Repetition`] rule (a draw by default; see
//! [`repetition`]).
//!
//! Red ([`Player::First`]) moves first. Notation: UCCI FEN and moves in
//! UCCI coordinates ([`fen`]); game records in the PGN-like UCCI format
//! ([`record`]). The position is a [`Board`] (padded mailbox, incremental
//! Zobrist hash) plus the repetition rule and the path of earlier
//! positions; perft and the move generator never look at the path.

pub mod board;
pub mod eval;
pub mod eval_variant;
pub mod fen;
pub mod movegen;
pub mod record;
pub mod repetition;

use super::{AnyPosition, Game, GameKind, MoveError, Outcome, ParseError, Player};
use board::{from_of, to_of, Board, Move, EMPTY, PAWN};
pub use eval_variant::{EvalTerms, EvalVariant};
pub use fen::FenError;
use repetition::Path;
pub use repetition::Repetition;

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Plies after which [`Game::random_playout`] gives up and calls the play
/// a draw (random xiangqi play can wander for a very long time).
pub const PLAYOUT_PLY_LIMIT: usize = 400;

/// A xiangqi position: the board, the repetition rule, the path of
/// earlier positions the rule looks at, and the evaluation variant it is
/// scored with ([`eval_variant`]; pnlab's own evaluation by default).
#[derive(Debug, PartialEq, Eq)]
pub struct Xiangqi {
    board: Board,
    rule: Repetition,
    path: Path,
    variant: EvalVariant,
}

/// Written out for `clone_from`: searches that keep one position per ply
/// overwrite it with `clone_from` at every node, and the derived version
/// would allocate a new path (and free the old) each time instead of
/// reusing the buffer.
impl Clone for Xiangqi {
    fn clone(&self) -> Self {
        Xiangqi {
            board: self.board,
            rule: self.rule,
            path: self.path.clone(),
            variant: self.variant,
        }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.board = source.board;
        self.rule = source.rule;
        self.path.clone_from(&source.path);
        self.variant = source.variant;
    }
}

impl Default for Xiangqi {
    fn default() -> Self {
        Xiangqi::start()
    }
}

impl Xiangqi {
    /// The start position, Red to move, repetition rule `draw`.
    pub fn start() -> Xiangqi {
        Xiangqi::from_board(fen::parse(START_FEN).expect("the start FEN is valid"))
    }

    /// A position with an empty path and the default rule.
    pub fn from_board(board: Board) -> Xiangqi {
        Xiangqi {
            board,
            rule: Repetition::default(),
            path: Path::default(),
            variant: EvalVariant::default(),
        }
    }

    /// Parses a UCCI FEN (see [`fen`]); errors are located in `text`.
    pub fn parse(text: &str) -> Result<Xiangqi, ParseError> {
        Xiangqi::parse_fen(text).map_err(ParseError::from)
    }

    /// Parses a UCCI FEN with the typed error.
    pub fn parse_fen(text: &str) -> Result<Xiangqi, FenError> {
        fen::parse(text).map(Xiangqi::from_board)
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The repetition rule.
    pub fn repetition(&self) -> Repetition {
        self.rule
    }

    /// The same position under another repetition rule (the path is
    /// forgotten when the rule is `none`).
    pub fn with_repetition(mut self, rule: Repetition) -> Xiangqi {
        self.rule = rule;
        if rule == Repetition::None {
            self.path.clear();
        }
        self
    }

    /// Number of earlier positions (since the last irreversible move) the
    /// position carries for its repetition rule.
    pub fn history_len(&self) -> usize {
        self.path.len()
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.board.in_check()
    }

    /// Whether the position repeats an earlier one of its path (so the
    /// play has ended by the repetition rule).
    pub fn is_repetition(&self) -> bool {
        self.rule != Repetition::None && self.path.repeats(&self.board)
    }

    /// Whether a move captures.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board.at(to_of(m)) != EMPTY
    }

    /// Whether a (legal) move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut b = self.board;
        b.make(m);
        b.in_check()
    }

    /// Whether a move can never be undone (a capture or a pawn's step
    /// forward): no position before it can return after it.
    #[inline]
    pub fn is_irreversible(&self, m: Move) -> bool {
        let (from, to) = (from_of(m), to_of(m));
        self.board.at(to) != EMPTY
            || (self.board.at(from) & 7 == PAWN && board::rank_of(from) != board::rank_of(to))
    }

    /// Perft from this position, repetition ignored, the last ply counted
    /// in bulk (see [`movegen::perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        movegen::perft(&self.board, depth)
    }

    /// The legal moves (inherent form of [`Game::legal_moves`], ignoring
    /// the repetition rule): for the record reader and the tests.
    pub fn board_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        movegen::legal(&self.board, |m| {
            v.push(m);
            true
        });
        v
    }
}

impl Game for Xiangqi {
    /// Origin and target cells (see [`board::Move`]).
    type Move = Move;

    fn kind(&self) -> GameKind {
        GameKind::Xiangqi
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.board.side()
    }

    /// Generation order (see [`movegen`]); none once a repetition ended
    /// the play.
    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.is_repetition() {
            return;
        }
        movegen::legal(&self.board, |m| {
            out.push(m);
            true
        });
    }

    #[inline]
    fn play(&mut self, m: Move) {
        if self.rule != Repetition::None {
            let irreversible = self.is_irreversible(m);
            self.path.record(&self.board, self.rule, irreversible);
        }
        self.board.make(m);
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.path.verdict(&self.board, self.rule) {
            return Some(o);
        }
        if movegen::has_move(&self.board) {
            None
        } else {
            Some(Outcome::win_for(self.board.side().other()))
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.key()
    }

    fn format_move(&self, m: Move) -> String {
        fen::move_name(m)
    }

    /// UCCI coordinates (`h2e2`); must be legal on the board. A position
    /// that the repetition rule ended still accepts the board's moves, so
    /// that game records (which go on past a single repetition) replay.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = fen::read_coordinates(text)?;
        let mut legal = false;
        movegen::legal(&self.board, |x| {
            legal = x == m;
            !legal
        });
        MoveError::unless_illegal(legal, m, text, "not among the legal moves")
    }

    fn notation(&self) -> String {
        fen::write(&self.board)
    }

    fn into_any(self) -> AnyPosition {
        AnyPosition::Xiangqi(self)
    }

    fn move_count(&self) -> usize {
        if self.is_repetition() {
            0
        } else {
            movegen::count(&self.board)
        }
    }

    fn history_dependent(&self) -> bool {
        self.rule != Repetition::None
    }

    /// A repeated position ends the play by the repetition rule.
    fn is_repetition(&self) -> bool {
        Xiangqi::is_repetition(self)
    }

    /// The earlier positions since the last irreversible move (0 without
    /// a repetition rule).
    fn path_hash(&self) -> u64 {
        if self.rule == Repetition::None || self.path.is_empty() {
            0
        } else {
            self.path.hash()
        }
    }

    /// The earlier positions since the last irreversible move, in order,
    /// with their check flags (empty without a repetition rule): with the
    /// board they decide every repetition ahead.
    fn history_key(&self) -> Vec<u64> {
        if self.rule == Repetition::None {
            Vec::new()
        } else {
            self.path.key()
        }
    }

    /// Material plus piece-square terms, Red's view ([`eval`]), or the
    /// position's other [`EvalVariant`].
    fn evaluate(&self) -> Option<i32> {
        Some(self.variant_eval())
    }

    /// Captures.
    fn is_tactical(&self, m: Move) -> bool {
        self.is_capture(m)
    }

    /// Uniformly random legal moves until the game ends, or a draw after
    /// [`PLAYOUT_PLY_LIMIT`] plies.
    fn random_playout(&self, rng: &mut dyn rand::RngCore) -> Outcome {
        let mut g = self.clone();
        let mut moves = Vec::with_capacity(64);
        for _ in 0..PLAYOUT_PLY_LIMIT {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                return g.outcome().unwrap_or(Outcome::DRAW);
            }
            let i = (rng.next_u64() % moves.len() as u64) as usize;
            g.play(moves[i]);
        }
        g.outcome().unwrap_or(Outcome::DRAW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(g: &mut Xiangqi, moves: &[&str]) {
        for m in moves {
            let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            g.play(mv);
        }
    }

    /// Horses out and back: the start position returns after four plies
    /// and the play ends there (a draw), or goes on with rule `none`.
    #[test]
    fn repetition_ends_the_play() {
        let shuffle = ["b0c2", "b9c7", "c2b0", "c7b9"];
        let mut g = Xiangqi::start();
        play_all(&mut g, &shuffle);
        assert_eq!(g.notation(), START_FEN);
        assert!(g.is_repetition());
        assert_eq!(g.outcome(), Some(Outcome::DRAW));
        assert_eq!(g.move_count(), 0);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert!(g.history_dependent());

        let mut free = Xiangqi::start().with_repetition(Repetition::None);
        play_all(&mut free, &shuffle);
        assert_eq!(free.outcome(), None);
        assert_eq!(free.move_count(), 44);
        assert!(!free.history_dependent());
    }

    /// A capture clears the path: positions before it cannot return.
    #[test]
    fn irreversible_moves_clear_the_path() {
        let mut g = Xiangqi::start();
        play_all(&mut g, &["b0c2", "b9c7"]);
        assert_eq!(g.history_len(), 2);
        play_all(&mut g, &["h2h9"]); // cannon takes the horse
        assert_eq!(g.history_len(), 0);
        play_all(&mut g, &["i9h9"]);
        assert_eq!(g.history_len(), 0);
        play_all(&mut g, &["c3c4"]); // pawn forward
        assert_eq!(g.history_len(), 0);
    }

    /// Perpetual check: Red's rook checks on a9 and a8 in turn while
    /// Black's general steps d9-d8-d9; after four plies the position
    /// repeats. Red checked with every move of the cycle, Black never:
    /// Red loses under `perpetual-check-loses`, a draw under `draw`.
    #[test]
    fn perpetual_check_loses() {
        let start = "R2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1";
        for (rule, want) in [
            (Repetition::Draw, Outcome::DRAW),
            (
                Repetition::PerpetualCheckLoses,
                Outcome::win_for(Player::Second),
            ),
        ] {
            let mut g = Xiangqi::parse(start).unwrap().with_repetition(rule);
            assert!(g.in_check());
            play_all(&mut g, &["d9d8", "a9a8", "d8d9", "a8a9"]);
            assert_eq!(g.outcome(), Some(want), "{rule:?}");
        }
    }

    #[test]
    fn rule_names_round_trip() {
        for &r in Repetition::ALL {
            assert_eq!(Repetition::from_name(r.name()), Ok(r));
        }
        assert!(Repetition::from_name("perpetual")
            .unwrap_err()
            .to_string()
            .contains("draw, perpetual-check-loses, none"));
    }
}
