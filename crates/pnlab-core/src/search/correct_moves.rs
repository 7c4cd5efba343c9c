//! Which root moves count as correct, so that the move a search names
//! best at each iteration (`StatsSample::best_child`) can be scored: the
//! error-rate curves of the PPN paper (Song et al. 2019, §4) and of the
//! app (issue #5 item 5, "error rate when known").
//!
//! Two independent sources, neither of them a proof-number search:
//! - **Exhaustive**: a memoised AND/OR evaluation of the question below
//!   every root move ([`reference::answer_bounded`]), capped in positions
//!   so a large position gives up instead of hanging.
//! - **Annotated**: the best moves a position file lists with their exact
//!   scores (Edax OBF `MOVE:score`, TOML `best_moves`).
//!
//! The exhaustive rule, from the side to move's view:
//! - the attacker to move: the moves after which the question holds; if
//!   there are none and the goal is a win, the moves that at least draw;
//!   if none either, every move (all lose alike);
//! - the defender to move: the moves after which the question fails; if
//!   none and the goal is not-lose, the moves after which the attacker at
//!   least does not win; if none either, every move.
//!
//! For a P-game with MAX to move and the question "does MAX win?" this is
//! the rule of the PPN experiment (`pgame-compare`).

use std::collections::HashMap;

use crate::game::{AnyPosition, Game};

use super::{reference, Goal, Question};

/// Where the correct moves come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorrectSource {
    /// Exhaustive evaluation of the question under every root move.
    Exhaustive,
    /// The best moves listed in the position's file (exact scores).
    Annotated,
}

/// The correct root moves of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrectMoves {
    /// Per root move in legal-move order (the index `best_child` uses).
    pub correct: Vec<bool>,
    /// The correct moves in notation, in legal-move order.
    pub labels: Vec<String>,
    /// Exhaustive search or the file's annotations.
    pub source: CorrectSource,
    /// What "correct" means here, in words ("winning moves", …).
    pub basis: String,
}

impl CorrectMoves {
    /// Whether the root move with index `child` is correct; `None` (no
    /// choice yet) counts as an error, as in the PPN paper's curves.
    pub fn is_correct(&self, child: Option<u32>) -> bool {
        child.is_some_and(|c| self.correct.get(c as usize).copied().unwrap_or(false))
    }
}

#[cfg(test)]
impl CorrectMoves {
    /// Correct moves as an exhaustive search gives them: the flags
    /// `correct` and the correct moves' `labels` (for the readers' tests).
    pub(crate) fn exhaustive_with(correct: Vec<bool>, labels: &[&str]) -> CorrectMoves {
        CorrectMoves {
            correct,
            labels: labels.iter().map(|l| l.to_string()).collect(),
            source: CorrectSource::Exhaustive,
            basis: String::new(),
        }
    }
}

/// Positions the exhaustive evaluation may visit by default (a few
/// seconds at most; enough for tic-tac-toe, Connect Four endgames, Hex
/// 4×4, P-games and Othello with about a dozen empties).
pub const DEFAULT_MAX_POSITIONS: u64 = 3_000_000;

/// The exhaustive correct moves of `g` for question `q`, or `None` when
/// the game is over, its value depends on the path (a repetition rule:
/// the evaluation's memo is keyed by position alone), or the evaluation
/// would visit more than `max_positions` positions.
pub fn exhaustive<G: Game>(g: &G, q: &Question, max_positions: u64) -> Option<CorrectMoves> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if g.outcome().is_some() || moves.is_empty() || g.history_dependent() {
        return None;
    }
    let attacker_moves = g.to_move() == q.attacker;
    let mut tiers = vec![(*q, "moves that achieve the question")];
    match (attacker_moves, q.goal) {
        (true, Goal::Win) => tiers.push((
            Question {
                goal: Goal::NotLose,
                ..*q
            },
            "none wins: moves that at least draw",
        )),
        (false, Goal::NotLose) => tiers.push((
            Question {
                goal: Goal::Win,
                ..*q
            },
            "none refutes: moves that keep the attacker from winning",
        )),
        _ => {}
    }
    let mut budget = max_positions;
    for (tq, basis) in tiers {
        let mut memo = HashMap::new();
        let mut correct = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut c = g.clone();
            c.play(m);
            let holds = reference::answer_bounded(&c, &tq, &mut memo, &mut budget)?;
            correct.push(holds == attacker_moves);
        }
        if correct.iter().any(|&x| x) {
            return Some(build(g, &moves, correct, CorrectSource::Exhaustive, basis));
        }
    }
    let all = vec![true; moves.len()];
    Some(build(
        g,
        &moves,
        all,
        CorrectSource::Exhaustive,
        "every move loses alike",
    ))
}

/// The correct moves named by a file's `best_moves` (matched against the
/// legal moves' notation, case-insensitively); `None` when the list is
/// empty or names no legal move.
pub fn annotated<G: Game>(g: &G, best_moves: &[String]) -> Option<CorrectMoves> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let correct: Vec<bool> = moves
        .iter()
        .map(|&m| {
            let label = g.format_move(m);
            best_moves.iter().any(|b| b.eq_ignore_ascii_case(&label))
        })
        .collect();
    correct.iter().any(|&x| x).then(|| {
        build(
            g,
            &moves,
            correct,
            CorrectSource::Annotated,
            "best moves by exact score, from the file",
        )
    })
}

/// The exhaustive answer when it fits in `max_positions`, else the file's
/// best moves, else `None` (the error rate is unknown).
pub fn for_position(
    position: &AnyPosition,
    q: &Question,
    best_moves: &[String],
    max_positions: u64,
) -> Option<CorrectMoves> {
    crate::with_position!(position, g => {
        exhaustive(g, q, max_positions).or_else(|| annotated(g, best_moves))
    })
}

fn build<G: Game>(
    g: &G,
    moves: &[G::Move],
    correct: Vec<bool>,
    source: CorrectSource,
    basis: &str,
) -> CorrectMoves {
    let labels = moves
        .iter()
        .zip(&correct)
        .filter(|(_, &c)| c)
        .map(|(&m, _)| g.format_move(m))
        .collect();
    CorrectMoves {
        correct,
        labels,
        source,
        basis: basis.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tictactoe::TicTacToe;
    use crate::game::Player;

    fn win(attacker: Player) -> Question {
        Question {
            attacker,
            goal: Goal::Win,
        }
    }

    #[test]
    fn empty_board_has_no_winning_move_so_every_drawing_move_is_correct() {
        // Tic-tac-toe is a draw (known result): no first move wins, and
        // every first move draws with perfect play.
        let g = TicTacToe::new();
        let c = exhaustive(&g, &win(Player::First), u64::MAX).unwrap();
        assert_eq!(c.correct, vec![true; 9]);
        assert!(c.basis.contains("draw"));
    }

    #[test]
    fn a_tiny_budget_gives_up_and_falls_back_to_the_annotation() {
        let g = TicTacToe::new();
        assert!(exhaustive(&g, &win(Player::First), 10).is_none());
        let labels: Vec<String> = {
            let mut m = Vec::new();
            g.legal_moves(&mut m);
            vec![g.format_move(m[4])]
        };
        let any = AnyPosition::TicTacToe(g);
        let c = for_position(&any, &win(Player::First), &labels, 10).unwrap();
        assert_eq!(c.source, CorrectSource::Annotated);
        assert_eq!(c.correct.iter().filter(|&&x| x).count(), 1);
        assert!(c.correct[4]);
    }

    #[test]
    fn no_choice_is_an_error() {
        let c = CorrectMoves::exhaustive_with(vec![true, false], &["a"]);
        assert!(!c.is_correct(None));
        assert!(c.is_correct(Some(0)));
        assert!(!c.is_correct(Some(1)));
        assert!(!c.is_correct(Some(7)));
    }

    /// Xiangqi under a repetition rule depends on the path (the memo
    /// cannot stand for it): no exhaustive answer. Without the rule, the
    /// bare generals shuffle for ever: the depth cap gives up instead of
    /// overflowing the stack.
    #[test]
    fn path_dependent_or_endless_games_give_up() {
        use crate::game::xiangqi::{Repetition, Xiangqi};
        let q = win(Player::First);
        let bare = Xiangqi::parse("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").expect("FEN");
        assert!(bare.history_dependent());
        assert_eq!(exhaustive(&bare, &q, DEFAULT_MAX_POSITIONS), None);
        let endless = bare.with_repetition(Repetition::None);
        assert_eq!(exhaustive(&endless, &q, DEFAULT_MAX_POSITIONS), None);
    }
}
