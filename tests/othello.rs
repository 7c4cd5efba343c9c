//! Othello rules against published data: perft counts, FForum #1-19 (OBF,
//! Edax) and jeffreyan11's 13-14-empty endgames (tests/data/othello/, see
//! SOURCE.md there).

use pnlab::game::othello::Othello;
use pnlab::game::perft::{perft, perft_parallel};

/// Published perft from the start position, depths 1..=9 (all conventions
/// agree; tests/data/othello/SOURCE.md).
const PERFT: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

#[test]
fn perft_matches_published_counts_to_depth_9() {
    let g = Othello::start();
    for (d, &e) in PERFT.iter().enumerate().take(8) {
        assert_eq!(perft(&g, d as u32 + 1), e, "depth {}", d + 1);
    }
    let t = std::time::Instant::now();
    assert_eq!(perft_parallel(&g, 9), PERFT[8]);
    eprintln!("perft 9: {:?}", t.elapsed());
}

#[test]
fn perft_depth_10_matches_oeis_a124004() {
    // Depth 10 is the first depth where passes and finished games matter:
    // OEIS A124004 (passes are plies, finished games count 0) = 24571056,
    // while the count that keeps finished games as leaves is 24571284.
    let t = std::time::Instant::now();
    assert_eq!(perft_parallel(&Othello::start(), 10), 24_571_056);
    eprintln!("perft 10: {:?}", t.elapsed());
}
