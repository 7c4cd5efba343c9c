//! The bench's fixed sets of positions, defined once: `pnlab bench
//! --suite NAME` runs them, the web page's bench runs two of them
//! ([`super::pns_sets`]), and `--positions` prints them for an outside
//! solver. Each set's positions come from a file under `assets/bench/`
//! (with its source and published answers), a bundled position file, or a
//! seeded generator.

use pnlab_core::game::notation::ParseError;
use pnlab_core::game::othello::random::random_othello;
use pnlab_core::game::{AnyPosition, Game, GameKind, Player};

use crate::experiments::instance_seed;

/// A fixed set of positions and how it is run.
#[derive(Clone, Debug)]
pub struct BenchSet {
    /// The `pnlab bench --suite` name.
    pub name: &'static str,
    /// The positions' game.
    pub game: GameKind,
    /// The positions, searched with seed = their index.
    pub positions: Vec<AnyPosition>,
    /// How many times the set is run (small sets repeat for steadier times).
    pub repeat: usize,
    /// Iteration cap per run.
    pub max_iterations: u64,
    /// The algorithms run by default (all of [`DEFAULT_ALGOS`] if `None`).
    pub algos: Option<&'static [&'static str]>,
    /// The published answer of each position to the bench's question
    /// (does the side to move win?), when the set's source gives one:
    /// answers that differ are counted as `wrong`.
    pub answers: Option<Vec<bool>>,
    /// The published exact score of each position for the side to move,
    /// when the set's source gives one.
    pub scores: Option<Vec<i32>>,
    /// Ask the score question (the score suites) instead of the win:
    /// scores that differ from `scores` are counted as `wrong`.
    pub ask_score: bool,
}

/// Why a suite could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SuiteError {
    /// No suite has this name.
    #[error("unknown suite `{name}`; suites: {}, {}", DEFAULT_SUITES.join(", "), NAMED_ONLY_SUITES.join(", "))]
    Unknown {
        /// The name given.
        name: String,
    },
    /// A position of the suite's file does not parse.
    #[error("bench suite {suite}: {error}")]
    Parse {
        /// The suite.
        suite: &'static str,
        /// Where and what.
        error: ParseError,
    },
    /// A line of the suite's file lacks its answer or score.
    #[error("bench suite {suite}: bad line `{line}`")]
    BadLine {
        /// The suite.
        suite: &'static str,
        /// The line.
        line: String,
    },
    /// The seeded generator found no position for a seed.
    #[error("bench suite {suite}: no position for seed {seed}")]
    NoPosition {
        /// The suite.
        suite: &'static str,
        /// The instance seed.
        seed: u64,
    },
    /// A bundled position file the suite reads is missing or broken.
    #[error("bench suite {suite}: {reason}")]
    Bundled {
        /// The suite.
        suite: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// The search suites run by default, in order. `xiangqi-perft`,
/// `connect6-vcdt` and `resistance` time move generation, the VCDT solver
/// and the Hex circuit model; the CLI measures them itself.
pub const DEFAULT_SUITES: &[&str] = &[
    "othello-14",
    "hex-4",
    "connect4",
    "xiangqi-mate",
    "xiangqi-perft",
    "connect6",
    "connect6-vcdt",
    "cns-trees",
    "cns-hex-8",
    "resistance",
];

/// Suites run only when named with `--suite` (they take minutes).
pub const NAMED_ONLY_SUITES: &[&str] = &[
    "othello-16-random",
    "othello-20-random",
    "ffo-20-39",
    "ffo-40-59",
    "connect4-l1r3",
    "connect4-easy",
    "hex-7x7",
    "connect4-score",
    "connect4-score-easy",
    "othello-score",
];

/// Algorithms benchmarked on a set that names none (those registered,
/// in this order).
pub const DEFAULT_ALGOS: &[&str] = &[
    "pns",
    "deep-pn",
    "dfpn",
    "ppn",
    "mcpn",
    "mcts-solver",
    "uct-solver",
];

/// Conspiracy-number searches, benchmarked on their own suites.
const CNS_ALGOS: &[&str] = &["cns", "scns"];

const OTHELLO_14: &str = include_str!("../../../../assets/bench/othello-14.obf");
const FFO_20_39: &str = include_str!("../../../../assets/bench/ffo-20-39.obf");
const FFO_40_59: &str = include_str!("../../../../assets/bench/ffo-40-59.obf");
const CONNECT4: &str = include_str!("../../../../assets/bench/connect4.txt");
const CONNECT4_L1R3: &str = include_str!("../../../../assets/bench/connect4-l1r3.txt");
const CONNECT4_EASY: &str = include_str!("../../../../assets/bench/connect4-easy.txt");
const HEX_7X7: &str = include_str!("../../../../assets/bench/hex-7x7.txt");
const XIANGQI_MATE: &str = include_str!("../../../../assets/bench/xiangqi-mate.txt");

/// The search suite called `name` (the suites the CLI measures itself,
/// such as `xiangqi-perft`, are not sets of searches and are unknown
/// here).
pub fn suite(name: &str) -> Result<BenchSet, SuiteError> {
    Ok(match name {
        "othello-14" => BenchSet {
            max_iterations: 2_000_000,
            ..plain(
                "othello-14",
                GameKind::Othello,
                lines(OTHELLO_14, "othello-14", GameKind::Othello, true)?,
            )
        },
        "othello-16-random" => random_othello_set("othello-16-random", 16, 100)?,
        "othello-20-random" => random_othello_set("othello-20-random", 20, 20)?,
        "ffo-20-39" => ffo_set("ffo-20-39", FFO_20_39)?,
        "ffo-40-59" => ffo_set("ffo-40-59", FFO_40_59)?,
        "connect4-l1r3" => connect4_scored("connect4-l1r3", CONNECT4_L1R3, 500_000_000)?,
        "connect4-easy" => connect4_scored("connect4-easy", CONNECT4_EASY, 50_000_000)?,
        "hex-7x7" => hex_7x7()?,
        "connect4-score" => score_set(connect4_scored(
            "connect4-score",
            CONNECT4_L1R3,
            1_000_000_000,
        )?),
        "connect4-score-easy" => score_set(connect4_scored(
            "connect4-score-easy",
            CONNECT4_EASY,
            100_000_000,
        )?),
        "othello-score" => score_set(ffo_set("othello-score", FFO_20_39)?),
        "hex-4" => BenchSet {
            repeat: 20,
            max_iterations: 2_000_000,
            ..plain(
                "hex-4",
                GameKind::Hex,
                parse_all("hex-4", GameKind::Hex, &["4:"])?,
            )
        },
        "connect4" => BenchSet {
            max_iterations: 500_000,
            ..plain(
                "connect4",
                GameKind::Connect4,
                lines(CONNECT4, "connect4", GameKind::Connect4, false)?,
            )
        },
        "xiangqi-mate" => BenchSet {
            max_iterations: 2_000_000,
            algos: Some(&["pns", "dfpn"]),
            ..plain("xiangqi-mate", GameKind::Xiangqi, xiangqi_mates()?)
        },
        "connect6" => BenchSet {
            max_iterations: 200_000,
            algos: Some(&["dfpn", "deep-dfpn"]),
            ..plain("connect6", GameKind::Connect6, connect6_positions()?)
        },
        // CNS expansions per second on trees: ten P-games b = 4, d = 8
        // (solved exactly), and on 8×8 Hex (capped).
        "cns-trees" => {
            let trees: Vec<String> = (1..=10)
                .map(|seed| format!("b=4,d=8,seed={seed}"))
                .collect();
            let trees: Vec<&str> = trees.iter().map(String::as_str).collect();
            BenchSet {
                max_iterations: 200_000,
                algos: Some(CNS_ALGOS),
                ..plain(
                    "cns-trees",
                    GameKind::PGame,
                    parse_all("cns-trees", GameKind::PGame, &trees)?,
                )
            }
        }
        "cns-hex-8" => BenchSet {
            max_iterations: 3_000,
            algos: Some(CNS_ALGOS),
            ..plain(
                "cns-hex-8",
                GameKind::Hex,
                parse_all(
                    "cns-hex-8",
                    GameKind::Hex,
                    &["8:", "8:d5 e4", "8:b2 g7 d4 e5 c6 f3"],
                )?,
            )
        },
        other => {
            return Err(SuiteError::Unknown {
                name: other.to_string(),
            })
        }
    })
}

/// A set run once per position with every default algorithm and no
/// published answers; callers override what differs.
fn plain(name: &'static str, game: GameKind, positions: Vec<AnyPosition>) -> BenchSet {
    BenchSet {
        name,
        game,
        positions,
        repeat: 1,
        max_iterations: 1_000_000,
        algos: None,
        answers: None,
        scores: None,
        ask_score: false,
    }
}

fn parse(suite: &'static str, game: GameKind, text: &str) -> Result<AnyPosition, SuiteError> {
    AnyPosition::parse(game, text).map_err(|error| SuiteError::Parse { suite, error })
}

fn parse_all(
    suite: &'static str,
    game: GameKind,
    texts: &[&str],
) -> Result<Vec<AnyPosition>, SuiteError> {
    texts.iter().map(|t| parse(suite, game, t)).collect()
}

/// The data lines of a suite file (comments start with `;` or `#`).
fn data_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(';') && !l.starts_with('#'))
}

/// One position per line: the whole line (`whole`) or its first word.
fn lines(
    text: &str,
    suite: &'static str,
    game: GameKind,
    whole: bool,
) -> Result<Vec<AnyPosition>, SuiteError> {
    data_lines(text)
        .map(|l| {
            let p = if whole {
                l.trim()
            } else {
                l.split_whitespace().next().unwrap_or("")
            };
            parse(suite, game, p)
        })
        .collect()
}

/// An FFO endgame set (`assets/bench/ffo-*.obf`, the public FForum
/// problems with their published scores): only `dfpn-fast` by default,
/// the one algorithm meant for positions of 20–34 empties.
fn ffo_set(name: &'static str, text: &str) -> Result<BenchSet, SuiteError> {
    let mut positions = Vec::new();
    let mut scores = Vec::new();
    for l in data_lines(text) {
        positions.push(parse(name, GameKind::Othello, l)?);
        // `BOARD SIDE; MOVE:SCORE; …`, best move first: the side to
        // move wins when the best score is positive.
        let best = l
            .split(';')
            .nth(1)
            .and_then(|m| m.split(':').nth(1))
            .and_then(|v| v.trim().parse::<i32>().ok())
            .ok_or_else(|| SuiteError::BadLine {
                suite: name,
                line: l.to_string(),
            })?;
        scores.push(best);
    }
    Ok(BenchSet {
        max_iterations: 1_000_000_000,
        algos: Some(&["dfpn-fast"]),
        answers: Some(scores.iter().map(|&s| s > 0).collect()),
        scores: Some(scores),
        ..plain(name, GameKind::Othello, positions)
    })
}

/// A Connect Four set of Pascal Pons's test positions (`<moves> <score>`
/// lines, the score for the side to move): the positions and whether the
/// side to move wins (score > 0).
fn connect4_scored(
    name: &'static str,
    text: &str,
    max_iterations: u64,
) -> Result<BenchSet, SuiteError> {
    let mut positions = Vec::new();
    let mut scores = Vec::new();
    for l in data_lines(text) {
        let bad = || SuiteError::BadLine {
            suite: name,
            line: l.to_string(),
        };
        let mut f = l.split_whitespace();
        let moves = f.next().ok_or_else(bad)?;
        let score: i32 = f.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        positions.push(parse(name, GameKind::Connect4, moves)?);
        scores.push(score);
    }
    Ok(BenchSet {
        max_iterations,
        algos: Some(&["dfpn-fast", "dfpn"]),
        answers: Some(scores.iter().map(|&s| s > 0).collect()),
        scores: Some(scores),
        ..plain(name, GameKind::Connect4, positions)
    })
}

/// The empty 7×7 Hex board and its 49 openings (`assets/bench/hex-7x7.txt`,
/// `<position> <winner>` lines with the published winners): does the
/// side to move win? `dfpn-fast` with the Hex knowledge by default.
fn hex_7x7() -> Result<BenchSet, SuiteError> {
    let name = "hex-7x7";
    let mut positions = Vec::new();
    let mut answers = Vec::new();
    for l in data_lines(HEX_7X7) {
        let bad = || SuiteError::BadLine {
            suite: name,
            line: l.to_string(),
        };
        let (text, winner) = l.rsplit_once(' ').ok_or_else(bad)?;
        let p = parse(name, GameKind::Hex, text.trim())?;
        let black_wins = match winner {
            "black" => true,
            "white" => false,
            _ => return Err(bad()),
        };
        let black_moves = pnlab_core::with_position!(&p, g => g.to_move() == Player::First);
        answers.push(black_wins == black_moves);
        positions.push(p);
    }
    Ok(BenchSet {
        max_iterations: 1_000_000_000,
        algos: Some(&["dfpn-fast"]),
        answers: Some(answers),
        ..plain(name, GameKind::Hex, positions)
    })
}

/// A set with published scores (Pons's Connect Four tests, the FFO
/// endgames) turned into its score set: `dfpn-fast` asked `--question
/// score`, each score checked against the published one.
fn score_set(set: BenchSet) -> BenchSet {
    BenchSet {
        answers: None,
        ask_score: true,
        algos: Some(&["dfpn-fast"]),
        ..set
    }
}

/// The seeded random Othello sets: `count` positions with `empties`
/// empty squares from the generator of the `deep-pn-sweep` experiment
/// (instance seeds of base seed 0), so the bench, the experiment and an
/// outside solver fed by `--positions` all see the same set.
fn random_othello_set(
    name: &'static str,
    empties: u32,
    count: usize,
) -> Result<BenchSet, SuiteError> {
    let positions = (0..count)
        .map(|i| {
            let seed = instance_seed(0, i);
            random_othello(seed, empties)
                .map(|g| g.into_any())
                .ok_or(SuiteError::NoPosition { suite: name, seed })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(BenchSet {
        max_iterations: 50_000_000,
        algos: Some(&[
            "dfpn-fast",
            "dfpn",
            "dfpn-eps",
            "deep-dfpn",
            "deep-pn",
            "pns",
        ]),
        ..plain(name, GameKind::Othello, positions)
    })
}

/// The xiangqi mate puzzles: `FEN<TAB>N<TAB>id` lines, asked as "the side
/// to move wins within N moves".
fn xiangqi_mates() -> Result<Vec<AnyPosition>, SuiteError> {
    let suite = "xiangqi-mate";
    data_lines(XIANGQI_MATE)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n: u32 =
                f.get(1)
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| SuiteError::BadLine {
                        suite,
                        line: l.to_string(),
                    })?;
            Ok(parse(suite, GameKind::Xiangqi, f[0])?.within(n))
        })
        .collect()
}

/// The bundled Connect6 set (`positions/connect6/`): the side to move wins.
fn connect6_positions() -> Result<Vec<AnyPosition>, SuiteError> {
    let suite = "connect6";
    let file = crate::experiments::connect6_deep_dfpn::DEFAULT_FILE;
    let f = pnlab_core::positions::bundled()
        .iter()
        .find(|f| f.path == file)
        .ok_or_else(|| SuiteError::Bundled {
            suite,
            reason: format!("{file} is not bundled"),
        })?;
    let entries =
        pnlab_core::positions::load_text(f.path, f.text).map_err(|e| SuiteError::Bundled {
            suite,
            reason: e.to_string(),
        })?;
    Ok(entries.into_iter().map(|e| e.position).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every named suite loads, and the sets with published answers carry
    /// one per position.
    #[test]
    fn every_suite_loads_with_its_answers_aligned() {
        let measured_by_the_cli = ["xiangqi-perft", "connect6-vcdt", "resistance"];
        for name in DEFAULT_SUITES.iter().chain(NAMED_ONLY_SUITES) {
            if measured_by_the_cli.contains(name) {
                assert!(matches!(suite(name), Err(SuiteError::Unknown { .. })));
                continue;
            }
            let set = suite(name).unwrap();
            assert_eq!(set.name, *name);
            assert!(!set.positions.is_empty(), "{name}");
            for p in &set.positions {
                assert_eq!(p.kind(), set.game, "{name}");
            }
            if let Some(a) = &set.answers {
                assert_eq!(a.len(), set.positions.len(), "{name}");
            }
            if let Some(s) = &set.scores {
                assert_eq!(s.len(), set.positions.len(), "{name}");
            }
            assert!(!set.ask_score || set.scores.is_some(), "{name}");
        }
        let e = suite("othello-15").unwrap_err();
        assert!(e.to_string().contains("ffo-20-39"), "{e}");
    }

    /// The counts the suites' sources state: 20 FFO problems per file,
    /// the empty 7×7 board and its 49 openings, 100 random positions.
    #[test]
    fn the_sets_have_their_sources_sizes() {
        assert_eq!(suite("ffo-20-39").unwrap().positions.len(), 20);
        assert_eq!(suite("hex-7x7").unwrap().positions.len(), 50);
        assert_eq!(suite("othello-16-random").unwrap().positions.len(), 100);
        assert_eq!(suite("hex-4").unwrap().repeat, 20);
    }
}
