//! `pnlab.Position`: a position of one of the engine's games, looked at
//! and played from Python, drawn in a notebook, and passed to `solve` and
//! `Search` where a notation string goes.
//!
//! Positions are immutable: `play(move)` (or its alias `child`) returns
//! the position after the move. That is the game protocol's own rule, so
//! a `Position` reads like a game written in Python.

use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::IntoPyObjectExt;

use pnlab::export::board::board_svg;
use pnlab::game::{AnyPosition, GameKind, Player};

use crate::errors::input_error;

/// A position of one of pnlab's games: ``Position("tictactoe", "x...o....")``.
///
/// ``game`` is a game's name (see ``pnlab.games()``), ``notation`` the
/// position in that game's inline notation (``""`` is Connect Four's
/// empty board). Positions are immutable: ``play(move)`` returns the
/// position after the move (``child`` is the same), so you keep the one
/// you had. Moves are strings in the game's notation. A Position goes
/// wherever ``solve`` and ``Search`` take a position, and a notebook
/// shows its board.
#[pyclass(frozen, module = "pnlab")]
pub struct Position {
    pub position: AnyPosition,
}

impl Position {
    fn wrap(position: AnyPosition) -> Position {
        Position { position }
    }
}

/// A game name as the engine's kind, with the known names in the error.
pub fn game_kind(game: &str) -> PyResult<GameKind> {
    GameKind::from_name(game).ok_or_else(|| {
        input_error(format!(
            "game={game:?}: unknown game; known games: {}",
            GameKind::all_names()
        ))
    })
}

#[pymethods]
impl Position {
    #[new]
    fn new(game: &str, notation: &str) -> PyResult<Position> {
        let kind = game_kind(game)?;
        AnyPosition::parse(kind, notation)
            .map(Position::wrap)
            .map_err(|e| input_error(format!("{game} position {notation:?}: {e}")))
    }

    /// The game's name (``"tictactoe"``, ``"connect4"``, …).
    #[getter]
    fn game(&self) -> &'static str {
        self.position.kind().name()
    }

    /// The position in the game's notation (what ``Position(game, …)``
    /// reads back).
    #[getter]
    fn notation(&self) -> String {
        self.position.notation()
    }

    /// The legal moves, in notation, in the order the searches try them;
    /// empty when the game is over.
    fn legal_moves(&self) -> Vec<String> {
        if self.position.outcome().is_some() {
            return Vec::new();
        }
        self.position.legal_move_names()
    }

    /// The position after ``move`` (a legal move in notation); this
    /// position is unchanged. Raises ``InputError`` for a move that is not
    /// legal here.
    fn play(&self, r#move: &str) -> PyResult<Position> {
        self.position
            .after_move(r#move)
            .map(Position::wrap)
            .map_err(|e| input_error(format!("move {move:?}: {e}", move = r#move)))
    }

    /// The same as ``play(move)``: the position after the move.
    fn child(&self, r#move: &str) -> PyResult<Position> {
        self.play(r#move)
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.position.outcome().is_some()
    }

    /// The result of a finished game from the first player's view (> 0
    /// the first player won, < 0 the second, 0 a draw; Othello gives the
    /// disc difference), or None while the game goes on.
    fn result(&self) -> Option<i32> {
        self.position.outcome().map(|o| o.score)
    }

    /// The player to move: 0 for the first player (x, Black, Red), 1 for
    /// the second.
    fn to_move(&self) -> u8 {
        match self.position.to_move() {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// The position's 64-bit hash (side to move included), the key the
    /// searches' transposition tables use.
    fn key(&self) -> u64 {
        pnlab::with_position!(&self.position, g => pnlab::game::Game::hash(g))
    }

    /// The board as an SVG picture (the app's colours; a card with the
    /// notation for games without a board picture).
    fn to_svg(&self) -> String {
        board_svg(&self.position)
    }

    fn _repr_svg_(&self) -> String {
        board_svg(&self.position)
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, {:?})",
            self.position.kind().name(),
            self.position.notation()
        )
    }

    fn __str__(&self) -> String {
        self.position.notation()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<Position>() else {
            return Ok(py.NotImplemented());
        };
        let eq = self.position == other.get().position;
        match op {
            CompareOp::Eq => eq.into_py_any(py),
            CompareOp::Ne => (!eq).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        self.key()
    }

    /// Pickles as ``Position(game, notation)``.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let args = PyTuple::new(py, [this.game().to_string(), this.notation()])?;
        Ok((slf.get_type().into_any(), args))
    }
}
