//! Helpers shared by several files of this test binary (the ones the app
//! tests share too are in `tests/common`).

use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};

use rand::distr::uniform::SampleRange;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::bench::random_walk;
use pnlab::game::hex::Hex;
use pnlab::game::othello::Othello;
use pnlab::game::pgame::PGame;
use pnlab::game::ParseError;

/// `count` positions of an `n`×`n` Hex board, each reached by random
/// play of a number of moves drawn from `plies`, none of them won yet
/// (seeded: the same positions every run).
pub fn unfinished_hex<R>(n: u8, plies: R, count: usize, seed: u64) -> Vec<Hex>
where
    R: SampleRange<usize> + Clone,
{
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let empty = Hex::new(n).unwrap();
    while out.len() < count {
        let plies = rng.random_range(plies.clone());
        out.extend(random_walk(&empty, plies, &mut rng));
    }
    out
}

/// The paths of the entries of `dir`, sorted (the order `read_dir` gives
/// depends on the file system).
pub fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path()
        })
        .collect();
    paths.sort();
    paths
}

/// `pnlab lesson LESSON --export-frames DIR FLAGS…` (the lesson's path
/// from the crate's root): (exit code, stdout, stderr).
pub fn export_frames(lesson: &str, dir: &Path, flags: &[&str]) -> (i32, String, String) {
    let mut args = vec!["lesson", lesson, "--export-frames", dir.to_str().unwrap()];
    args.extend(flags);
    crate::common::pnlab_at_root(&args)
}

/// Checks each case `(text, column, words)` of a one-line notation:
/// `parse` refuses the text at line 1 and that column, with an
/// expectation that holds the words.
pub fn assert_parse_errors<T: std::fmt::Debug>(
    cases: &[(&str, usize, &str)],
    parse: impl Fn(&str) -> Result<T, ParseError>,
) {
    for &(text, col, words) in cases {
        let e = parse(text).expect_err(text);
        assert_eq!((e.line, e.col), (1, col), "{text:?}: {e}");
        assert!(e.expected.contains(words), "{text:?}: {e}");
    }
}

/// The P-games of `seeds`, each with its branching and depth taken in
/// turn from `branching` and `depth` (`start + seed % length`), so that
/// every size comes up: (seed, branching, depth, game).
pub fn cycled_p_games(
    seeds: Range<u64>,
    branching: RangeInclusive<u32>,
    depth: RangeInclusive<u32>,
) -> impl Iterator<Item = (u64, u32, u32, PGame)> {
    let cycle = |r: &RangeInclusive<u32>, seed: u64| {
        r.start() + (seed % u64::from(r.end() - r.start() + 1)) as u32
    };
    seeds.map(move |seed| {
        let (b, d) = (cycle(&branching, seed), cycle(&depth, seed));
        (seed, b, d, PGame::new(b, d, seed).unwrap())
    })
}

/// A line of jeffreyan11_eg_13_14.txt: position, one optimal move (square
/// index, -1 once) and the exact score Black − White with empties NOT
/// given to the winner.
#[derive(Clone)]
pub struct Eg {
    /// The line's number (1-based).
    pub line: usize,
    /// The position.
    pub pos: Othello,
    /// Whether Black (X) is to move.
    pub black_to_move: bool,
    /// One optimal move (a square index; -1 for a pass).
    pub best: i32,
    /// Black's disc difference at the end of perfect play.
    pub raw_black: i32,
}

/// The positions of jeffreyan11_eg_13_14.txt (tests/data/othello), in
/// file order.
pub fn eg_13_14() -> Vec<Eg> {
    include_str!("../data/othello/jeffreyan11_eg_13_14.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 4, "line {}", i + 1);
            let side = match f[1] {
                "Black" => "X",
                "White" => "O",
                other => panic!("line {}: side `{other}`", i + 1),
            };
            Eg {
                line: i + 1,
                pos: Othello::parse(&format!("{} {side}", f[0])).expect("board parses"),
                black_to_move: side == "X",
                best: f[2].parse().expect("move index"),
                raw_black: f[3].parse().expect("score"),
            }
        })
        .collect()
}

/// The crate's root folder, where `positions/`, `lessons/` and
/// `tests/data/` are.
pub fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty folder `pnlab-TAG-PID` in the system's temporary
/// folder.
pub fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pnlab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
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
