//! The xiangqi evaluation is kept up to date move by move inside the board
//! (material and piece-square terms added and removed as pieces move and
//! are captured). These tests check it against the definition, the sum
//! over every piece recomputed from scratch:
//!
//! - at every position of seeded random games, the two are equal;
//! - alpha-beta with single conspiracy numbers on the bench's middle-game
//!   positions, run once on the game as it is and once on a wrapper whose
//!   evaluation is recomputed from scratch at every node, gives the same
//!   values, SCNs, best moves, principal variations and node counts at
//!   every depth (so the speed-up changed no count of the SCN method).

use pnlab::game::xiangqi::Xiangqi;
use pnlab::game::{AnyPosition, Game, GameKind, MoveError, Outcome, Player};
use pnlab::search::alphabeta::{AlphaBeta, AlphaBetaOptions, MoveOrder};
use pnlab::search::{QuestionKind, Search};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Xiangqi with the evaluation recomputed from scratch (everything else
/// delegated).
#[derive(Clone, Debug, PartialEq)]
struct Scratch(Xiangqi);

impl Game for Scratch {
    type Move = <Xiangqi as Game>::Move;

    fn kind(&self) -> GameKind {
        self.0.kind()
    }
    fn to_move(&self) -> Player {
        self.0.to_move()
    }
    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        self.0.legal_moves(out)
    }
    fn play(&mut self, m: Self::Move) {
        self.0.play(m)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn format_move(&self, m: Self::Move) -> String {
        self.0.format_move(m)
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        self.0.parse_move(text)
    }
    fn notation(&self) -> String {
        self.0.notation()
    }
    fn into_any(self) -> AnyPosition {
        self.0.into_any()
    }
    fn move_count(&self) -> usize {
        self.0.move_count()
    }
    fn history_dependent(&self) -> bool {
        self.0.history_dependent()
    }
    fn is_repetition(&self) -> bool {
        Game::is_repetition(&self.0)
    }
    fn path_hash(&self) -> u64 {
        self.0.path_hash()
    }
    fn evaluate(&self) -> Option<i32> {
        Some(self.0.static_eval_from_scratch())
    }
    fn is_tactical(&self, m: Self::Move) -> bool {
        self.0.is_tactical(m)
    }
}

/// The bench's xiangqi-mid positions.
fn middle_games() -> Vec<Xiangqi> {
    include_str!("../../assets/bench/xiangqi-mid.txt")
        .lines()
        .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
        .map(|l| Xiangqi::parse_fen(l.trim()).expect("bench FEN"))
        .collect()
}

#[test]
fn the_incremental_evaluation_equals_the_sum_over_the_pieces() {
    let mut starts = middle_games();
    starts.push(Xiangqi::start());
    let mut rng = SmallRng::seed_from_u64(28);
    let mut checked = 0;
    let mut captures = 0;
    let mut moves = Vec::new();
    for start in &starts {
        for _ in 0..25 {
            let mut g = start.clone();
            for _ in 0..120 {
                assert_eq!(
                    g.static_eval(),
                    g.static_eval_from_scratch(),
                    "{}",
                    g.notation()
                );
                checked += 1;
                moves.clear();
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                captures += usize::from(g.is_capture(m));
                g.play(m);
            }
        }
    }
    assert!(checked > 10_000 && captures > 500, "{checked} {captures}");
}

#[test]
fn alphabeta_counts_are_those_of_the_evaluation_from_scratch() {
    for (i, g) in middle_games().into_iter().enumerate() {
        for (depth, order) in [(3, MoveOrder::Game), (4, MoveOrder::CapturesFirst)] {
            let opts = AlphaBetaOptions {
                threshold: 600,
                max_depth: depth,
                prune: true,
                order,
                record_limit: 0,
            };
            let me = g.to_move();
            let mut a = AlphaBeta::new(g.clone(), me, QuestionKind::Win, opts);
            let mut b = AlphaBeta::new(Scratch(g.clone()), me, QuestionKind::Win, opts);
            a.run_to_end();
            b.run_to_end();
            let curve = |c: &[pnlab::search::alphabeta::CurvePoint]| {
                c.iter()
                    .map(|p| {
                        (
                            p.depth,
                            p.value,
                            p.scn,
                            p.nodes,
                            p.best_move.clone(),
                            p.pv.clone(),
                        )
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(curve(a.curve()), curve(b.curve()), "position {i}");
            assert_eq!(a.counters().nodes_created, b.counters().nodes_created);
            assert_eq!(a.counters().iterations, b.counters().iterations);
            assert!(a.counters().nodes_created > 100, "a real search");
        }
    }
}
