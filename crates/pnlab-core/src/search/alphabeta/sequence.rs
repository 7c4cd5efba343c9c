//! The value and SCN curves of every position of a sequence: a game
//! record's positions, or the engine's own self-play to the end of the
//! game. Each position is searched from scratch with its side to move as
//! MAX, as relative single conspiracy numbers ([`super::rscn`]) require.

use crate::game::eval::WIN;
use crate::game::{Game, Player};
use crate::search::QuestionKind;

use super::{AlphaBeta, AlphaBetaOptions, CurvePoint};

/// One position of a sequence with its curves.
#[derive(Clone, Debug)]
pub struct PositionCurves<G: Game> {
    /// The position.
    pub position: G,
    /// Its side to move (MAX of its search).
    pub side: Player,
    /// Value and SCN per depth, from the side to move's view.
    pub curve: Vec<CurvePoint>,
    /// Nodes visited over all depths.
    pub nodes: u64,
    /// The move played from here (`None` at the last position).
    pub played: Option<String>,
}

/// The curves of `g` searched with its side to move as MAX (no tree is
/// recorded). Returns the curve and the nodes visited.
pub fn curves_of<G: Game>(g: &G, opts: &AlphaBetaOptions) -> (Vec<CurvePoint>, u64) {
    let opts = AlphaBetaOptions {
        record_limit: 0,
        ..*opts
    };
    let mut s = AlphaBeta::new(g.clone(), g.to_move(), QuestionKind::Win, opts);
    s.run_to_end();
    let nodes = s.nodes_visited();
    (s.curve().to_vec(), nodes)
}

/// The move self-play chooses from a position's curve: the best move of
/// the deepest depth, except when that depth sees a forced win (value ≥
/// WIN): then the best move of the first depth that saw it, i.e. the
/// shortest win iterative deepening found. Without this rule every move
/// that keeps a forced win looks equally good (terminal values carry no
/// distance) and the winner could postpone the win forever.
pub fn chosen_move(curve: &[CurvePoint]) -> Option<&str> {
    let last = curve.last()?;
    let p = if last.value >= WIN {
        curve.iter().find(|p| p.value >= WIN).unwrap_or(last)
    } else {
        last
    };
    p.best_move.as_deref()
}

/// What the caller wants after each position: go on or stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Search the next position.
    Continue,
    /// Stop here (cancelled).
    Stop,
}

/// A move of a game record that cannot be played, with its ply (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {ply}: {error}")]
pub struct PlyError {
    /// The ply of the move, 1 for the first.
    pub ply: usize,
    /// Why it cannot be played.
    pub error: crate::game::MoveError,
}

/// The curves of `start` and of every position after each move of
/// `moves` (in notation, checked legal), calling `each` as each
/// position is done.
pub fn along_moves<G: Game>(
    start: &G,
    moves: &[String],
    opts: &AlphaBetaOptions,
    mut each: impl FnMut(usize, &PositionCurves<G>) -> Flow,
) -> Result<Vec<PositionCurves<G>>, PlyError> {
    let mut g = start.clone();
    let mut out = Vec::new();
    for i in 0..=moves.len() {
        let (curve, nodes) = curves_of(&g, opts);
        let played = moves.get(i).cloned();
        let next = match &played {
            Some(m) => {
                let mv = g
                    .parse_move(m)
                    .map_err(|error| PlyError { ply: i + 1, error })?;
                let mut n = g.clone();
                n.play(mv);
                Some(n)
            }
            None => None,
        };
        out.push(PositionCurves {
            side: g.to_move(),
            position: g.clone(),
            curve,
            nodes,
            played,
        });
        if each(i, &out[i]) == Flow::Stop {
            break;
        }
        match next {
            Some(n) => g = n,
            None => break,
        }
    }
    Ok(out)
}

/// Self-play from `start` by the same iterative deepening (deterministic):
/// the curves of every position until the game ends or `max_plies` moves
/// have been played, calling `each` as each position is done.
pub fn self_play<G: Game>(
    start: &G,
    opts: &AlphaBetaOptions,
    max_plies: usize,
    mut each: impl FnMut(usize, &PositionCurves<G>) -> Flow,
) -> Vec<PositionCurves<G>> {
    let mut g = start.clone();
    let mut out: Vec<PositionCurves<G>> = Vec::new();
    loop {
        let i = out.len();
        let (curve, nodes) = curves_of(&g, opts);
        let over = g.outcome().is_some() || i >= max_plies;
        let mv = if over {
            None
        } else {
            chosen_move(&curve).and_then(|name| g.parse_move(name).ok())
        };
        out.push(PositionCurves {
            side: g.to_move(),
            position: g.clone(),
            curve,
            nodes,
            played: mv.map(|m| g.format_move(m)),
        });
        if each(i, &out[i]) == Flow::Stop {
            return out;
        }
        match mv {
            Some(m) => g.play(m),
            None => return out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tictactoe::TicTacToe;

    fn opts(depth: u32) -> AlphaBetaOptions {
        AlphaBetaOptions {
            threshold: 0,
            max_depth: depth,
            record_limit: 0,
            ..AlphaBetaOptions::default()
        }
    }

    #[test]
    fn self_play_of_tictactoe_reaches_the_end() {
        // Perfect play (depth 9 sees to the end) draws tic-tac-toe.
        let seq = self_play(&TicTacToe::new(), &opts(9), 20, |_, _| Flow::Continue);
        assert_eq!(seq.len(), 10, "nine moves fill the board");
        let last = &seq.last().unwrap().position;
        assert_eq!(last.outcome().map(|o| o.score), Some(0));
        assert!(seq[..9].iter().all(|p| p.played.is_some()));
        assert_eq!(seq[0].side, Player::First);
        assert_eq!(seq[1].side, Player::Second);
    }

    #[test]
    fn the_shortest_win_is_played() {
        // x (a1, b2) to move against o (b1, a2): c3 wins at once; c1 (and
        // a3) make a double threat that wins two moves later. Depth 1
        // sees only c3; depth 3 sees all three and names the leftmost, c1.
        let g = TicTacToe::parse("xo.ox....").unwrap();
        let (curve, _) = curves_of(&g, &opts(3));
        assert_eq!(curve[0].best_move.as_deref(), Some("c3"));
        assert_eq!(curve[2].best_move.as_deref(), Some("c1"));
        assert!(curve.iter().all(|p| p.value >= WIN));
        assert_eq!(chosen_move(&curve), Some("c3"));
        // Without a forced win the deepest depth decides.
        let (curve, _) = curves_of(&TicTacToe::new(), &opts(2));
        assert_eq!(chosen_move(&curve), curve[1].best_move.as_deref());
    }

    #[test]
    fn along_moves_checks_each_move() {
        // Depth 2 along `moves` from the empty board.
        let along = |moves: [&str; 2]| {
            let moves = moves.map(str::to_string);
            along_moves(&TicTacToe::new(), &moves, &opts(2), |_, _| Flow::Continue)
        };
        let err = along(["b2", "b2"]).unwrap_err();
        assert_eq!(err.ply, 2);
        assert!(err.to_string().starts_with("move 2: `b2`"), "{err}");
        let seq = along(["b2", "a1"]).unwrap();
        assert_eq!(seq.len(), 3);
        assert_eq!(seq[0].played.as_deref(), Some("b2"));
        assert_eq!(seq[2].played, None);
        assert_eq!(seq[2].curve.len(), 2);
    }
}
