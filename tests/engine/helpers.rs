//! Helpers shared by several files of this test binary (the ones the app
//! tests share too are in `tests/common`).

use rand::distr::uniform::SampleRange;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::hex::Hex;
use pnlab::game::othello::Othello;
use pnlab::game::Game;

/// `count` positions of an `n`×`n` Hex board, each reached by random
/// play of a number of moves drawn from `plies`, none of them won yet
/// (seeded: the same positions every run).
pub fn unfinished_hex<R>(n: u8, plies: R, count: usize, seed: u64) -> Vec<Hex>
where
    R: SampleRange<usize> + Clone,
{
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = Hex::new(n).unwrap();
        let plies = rng.random_range(plies.clone());
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.random_range(0..moves.len())]);
        }
        if g.outcome().is_none() {
            out.push(g);
        }
    }
    out
}

/// One position of an OBF file (`BOARD SIDE; MOVE:SCORE; …`, the format
/// of the FFO problem sets) with its listed moves.
pub struct ObfLine {
    /// The line as written (for messages).
    pub line: String,
    /// The position.
    pub pos: Othello,
    /// Each listed move, lower case, with its published score (the side
    /// to move's view).
    pub moves: Vec<(String, i32)>,
}

/// The positions of an OBF text; blank lines and lines starting with `;`
/// or `#` are comments.
pub fn obf(text: &str) -> Vec<ObfLine> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with(';'))
        .map(|l| ObfLine {
            line: l.to_string(),
            pos: Othello::parse(l).expect("OBF board"),
            moves: l
                .split(';')
                .skip(1)
                .filter_map(|f| {
                    let (m, s) = f.trim().split_once(':')?;
                    Some((
                        m.trim().to_ascii_lowercase(),
                        s.trim().parse().expect("a score"),
                    ))
                })
                .collect(),
        })
        .collect()
}
