//! Xiangqi rules: perft against the published counts
//! (tests/data/xiangqi/xiangqi_perft.tsv, sources in SOURCE.md there), the
//! incremental hash against the hash recomputed from the board, FEN
//! round trips and the typed FEN errors.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::xiangqi::{FenError, Repetition, Xiangqi, START_FEN};
use pnlab::game::{perft, AnyPosition, Game, GameKind};

/// One row of the perft file.
struct PerftRow {
    fen: String,
    depth: u32,
    nodes: u64,
}

fn perft_rows() -> Vec<PerftRow> {
    include_str!("../data/xiangqi/xiangqi_perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen\t") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            PerftRow {
                fen: f[0].to_string(),
                depth: f[1].parse().expect("depth"),
                nodes: f[2].parse().expect("nodes"),
            }
        })
        .collect()
}

/// Leaf budget of the perft rows run in the ordinary test suite (debug
/// build with optimised dependencies); larger rows are in the ignored
/// test below.
const CI_NODES: u64 = 2_000_000;

fn check_rows(keep: impl Fn(&PerftRow) -> bool) -> usize {
    let mut n = 0;
    for row in perft_rows().iter().filter(|r| keep(r)) {
        let g = Xiangqi::parse(&row.fen).unwrap_or_else(|e| panic!("{}: {e}", row.fen));
        assert_eq!(
            g.perft(row.depth),
            row.nodes,
            "{} depth {}",
            row.fen,
            row.depth
        );
        n += 1;
    }
    n
}

#[test]
fn perft_matches_published_counts_up_to_2m_leaves() {
    let rows = perft_rows();
    assert_eq!(rows.len(), 69);
    let n = check_rows(|r| r.nodes <= CI_NODES);
    // Every position of the file contributes its depths 1-3 at least.
    assert!(n >= 40, "only {n} rows checked");
}

/// Every count up to depth 5 (about 250 million leaves): run with
/// `cargo test --release --test xiangqi_rules -- --ignored`.
#[test]
#[ignore]
fn perft_matches_published_counts_to_depth_5() {
    let n = check_rows(|r| r.nodes > CI_NODES && r.depth <= 5);
    assert!(n > 0);
}

/// Depth 6 (5.4 billion leaves from the start position, 100 million to
/// 5 billion elsewhere): release build, minutes of CPU.
#[test]
#[ignore]
fn perft_matches_published_counts_at_depth_6() {
    let n = check_rows(|r| r.depth == 6);
    assert_eq!(n, 6);
}

/// The `Game` implementation (what `pnlab perft` and the searches use)
/// counts like the inherent bulk-counting perft, with repetition off.
#[test]
fn game_trait_perft_agrees() {
    for row in perft_rows().iter().filter(|r| r.depth == 3).take(4) {
        let g = Xiangqi::parse(&row.fen)
            .unwrap()
            .with_repetition(Repetition::None);
        assert_eq!(perft::perft(&g, 3), row.nodes, "{}", row.fen);
    }
}

/// Plays seeded random games from every perft position and checks, after
/// each move, the incremental hash against the one recomputed from the
/// board, the FEN round trip, and that the game ends exactly when no move
/// is left.
#[test]
fn incremental_hash_equals_recomputed() {
    let mut fens: Vec<String> = perft_rows().into_iter().map(|r| r.fen).collect();
    fens.dedup();
    let mut rng = SmallRng::seed_from_u64(9);
    let mut plies = 0;
    for fen in &fens {
        for _ in 0..10 {
            let mut g = Xiangqi::parse(fen)
                .unwrap()
                .with_repetition(Repetition::None);
            for _ in 0..150 {
                assert_eq!(g.hash(), g.board().recompute_key(), "{}", g.notation());
                let back = Xiangqi::parse(&g.notation()).unwrap();
                assert_eq!(back.board(), g.board());
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                assert_eq!(moves.is_empty(), g.outcome().is_some());
                assert_eq!(moves.len(), g.move_count());
                if moves.is_empty() {
                    break;
                }
                g.play(moves[rng.random_range(0..moves.len())]);
                plies += 1;
            }
        }
    }
    assert!(plies > 10_000, "{plies}");
}

/// Side to move and pieces both enter the hash.
#[test]
fn hash_tells_positions_apart() {
    let a = Xiangqi::start();
    let b = Xiangqi::parse(&START_FEN.replace(" w ", " b ")).unwrap();
    assert_ne!(a.hash(), b.hash());
    let mut c = a.clone();
    c.play(c.parse_move("h2e2").unwrap());
    assert_ne!(a.hash(), c.hash());
}

fn fen_error(fen: &str) -> FenError {
    match Xiangqi::parse_fen(fen) {
        Ok(_) => panic!("accepted {fen}"),
        Err(e) => e,
    }
}

/// Asserts that `fen` is refused with an error matching the pattern (a
/// macro, as a pattern cannot be passed to a function).
macro_rules! assert_fen_error {
    ($fen:expr, $pattern:pat $(if $guard:expr)?) => {{
        let e = fen_error($fen);
        assert!(matches!(e, $pattern $(if $guard)?), "{}: {e:?}", $fen);
    }};
}

/// Each malformed FEN gives its own error variant, at the column of the
/// fault, and the inline parser reports line 1 and that column.
#[test]
fn fen_errors_are_typed_and_located() {
    // A rank with ten files (rank 9 written `rnbakabnr1`).
    assert_fen_error!(
        "rnbakabnr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        FenError::RankWidth {
            col: 1,
            rank: 9,
            files: 10
        }
    );
    // A rank with eight files.
    assert_fen_error!(
        "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        FenError::RankWidth {
            col: 11,
            rank: 8,
            files: 8
        }
    );
    // Nine ranks.
    assert_fen_error!(
        "rnbakabnr/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        FenError::RankCount { found: 9, .. }
    );
    // Two red generals: the second one is reported.
    assert_fen_error!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
        FenError::GeneralCount {
            side: "Red",
            count: 2,
            col: 50
        }
    );
    // No black general.
    assert_fen_error!(
        "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        FenError::GeneralCount {
            side: "Black",
            count: 0,
            ..
        }
    );
    // A red pawn behind its own pawn line (on rank 2).
    assert_fen_error!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/PC5C1/9/RNBAKABNR w",
        FenError::Misplaced { piece: "Red pawn", ref point, col: 42, .. } if point == "a2"
    );
    // An uncrossed pawn off its file.
    assert_fen_error!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/1PP1P1P1P/1C5C1/9/RNBAKABNR w",
        FenError::Misplaced { ref point, .. } if point == "b3"
    );
    // A general outside its palace.
    assert_fen_error!(
        "rnba1abnr/9/1c5c1/p1p1p1p1p/k8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        FenError::Misplaced {
            piece: "Black general",
            ..
        }
    );
    // An unknown piece letter.
    assert_fen_error!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBQKABNR w",
        FenError::UnknownPiece {
            found: 'Q',
            col: 54
        }
    );
    // A missing side to move: reported just after the board.
    assert_fen_error!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        FenError::MissingSide { col: 60 }
    );
    assert_fen_error!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
        FenError::BadSide { col: 61, .. }
    );
    // Three rooks.
    assert_fen_error!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w",
        FenError::TooMany {
            kind: "rook",
            count: 3,
            max: 2,
            ..
        }
    );
    // Black to move while Red's general stands in check: the generals
    // face each other on an open file.
    assert_fen_error!(
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
        FenError::OpponentInCheck { col: 25 }
    );
    assert!(matches!(fen_error("   "), FenError::Empty { .. }));

    // Through the game-independent parser: line 1, the same column.
    let pe = AnyPosition::parse(
        GameKind::Xiangqi,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBQKABNR w",
    )
    .unwrap_err();
    assert_eq!((pe.line, pe.col), (1, 54));
    assert!(pe.expected.contains("unknown piece letter `Q`"), "{pe}");
}

/// Every FEN of the mate-puzzle file and the perft file reads and writes
/// back to the same board; leading blanks shift the columns.
#[test]
fn data_fens_round_trip() {
    let puzzles = include_str!("../data/xiangqi/xiangqi_mate_puzzles.tsv");
    let mut n = 0;
    for line in puzzles.split('\n').filter(|l| l.starts_with("puzzle_")) {
        let fen = line.split('\t').nth(1).unwrap();
        let g = Xiangqi::parse(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(Xiangqi::parse(&g.notation()).unwrap().board(), g.board());
        n += 1;
    }
    assert_eq!(n, 3386);
    let e = fen_error("  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBQKABNR w");
    assert_eq!(e.col(), 56);
}
