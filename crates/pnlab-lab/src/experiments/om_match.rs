//! `pnlab experiment om-match`: opponent-model search in play (Carmel &
//! Markovitch 1996; Hsu's lecture notes), on Othello.
//!
//! Two searchers, both depth-limited to `depth` plies and judging by
//! Othello's evaluation f1 (discs, mobility, corners):
//! - `minimax`: `om` with `model = f1` (plain minimax on f1);
//! - `om`: `om` with `model = f2`: it knows the opponent judges by the
//!   disc count f2.
//!
//! Three opponents:
//! - `f2`: minimax on the disc count to depth − 1 plies, exactly the
//!   opponent `om` models (searching `depth` plies from its own move, `om`
//!   predicts each reply by f2 over the `depth` − 1 plies below it);
//! - `f2-shallow`: the same judgement to depth − 2 plies (at least one): a
//!   weaker opponent than modelled;
//! - `random`: uniformly random legal moves (weaker still).
//!
//! Every pair plays from `positions` seeded openings (random moves from
//! the start, `opening` plies), once with each colour. What to look for:
//! against `f2`, `om` should score at least as well as `minimax` (its
//! model is right); against the weaker opponents it should not score
//! worse than against `f2`: the lecture's remark that an opponent weaker
//! than the model gains nothing from it ("if f1 can beat f2, it can beat
//! f3").
//!
//! Settings: `positions` (10), `depth` (3), `opening` (8). Outputs:
//! `om-match.csv` (one row per game: opening, searcher, opponent, colour,
//! result for the searcher, disc difference for the searcher, plies) and
//! `om-match.json` (per pair: games, wins, draws, losses, score =
//! (wins + draws/2) / games, mean disc difference).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab_core::game::othello::Othello;
use pnlab_core::game::{AnyPosition, Game, Outcome, Player};
use pnlab_core::search::params::ParamSpec;
use pnlab_core::search::{self, Budget, Params, QuestionKind, SearchSetup};

use super::rows::Colour;
use super::{instance_seed, run_jobs, ExperimentError, ExperimentOptions, ExperimentReport};
use crate::bench::random_walk;

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment om-match
    /// --help` lists them with their ranges and defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct OmMatchSettings {
        /// Random openings.
        pub positions: usize => {
            "positions", int(1, i64::MAX) = 10,
            "Random openings; each pairing plays both colours from each."
        },
        /// Search depth of the searchers.
        pub depth: u32 => {
            "depth", int(2, 8) = 3,
            "Search depth of the searchers (the f2 opponent searches one ply less)."
        },
        /// Random plies of an opening.
        pub opening: usize => {
            "opening", int(0, 60) = 8,
            "Random plies played from the start to make an opening."
        },
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = OmMatchSettings::PARAMS;

/// A player of a match.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchPlayer {
    /// Plays the best move of a registered search run to its end.
    Search {
        /// The registry name of the search.
        algo: &'static str,
        /// Its parameters as `--set` pairs (defaults for the others).
        params: Vec<(String, String)>,
    },
    /// Plays uniformly random legal moves (seeded).
    Random,
}

impl MatchPlayer {
    /// An `om` player with the given `eval`, `model` and `depth`.
    pub fn om(eval: &str, model: &str, depth: u32) -> MatchPlayer {
        MatchPlayer::Search {
            algo: "om",
            params: vec![
                ("eval".into(), eval.into()),
                ("model".into(), model.into()),
                ("depth".into(), depth.to_string()),
            ],
        }
    }

    /// The move this player makes at `pos`, in notation.
    fn choose(&self, pos: &AnyPosition, rng: &mut SmallRng) -> Result<String, ExperimentError> {
        let moves = pos.legal_move_names();
        match self {
            MatchPlayer::Random => Ok(moves[rng.random_range(0..moves.len())].clone()),
            MatchPlayer::Search { algo, params } => {
                let info = search::find_algo(algo)?;
                let setup = SearchSetup {
                    position: pos.clone(),
                    params: Params::from_pairs(info.params, params)?,
                    seed: 0,
                    question: QuestionKind::Win,
                    memory_limit_bytes: None,
                };
                let mut s = search::build(algo, &setup)?;
                search::run(s.as_mut(), &Budget::default(), None);
                s.best_move().ok_or_else(|| ExperimentError::NoMove {
                    algo,
                    position: pos.notation(),
                })
            }
        }
    }
}

/// Plays `start` to the end, `players[0]` moving for the first player and
/// `players[1]` for the second; returns the outcome and the number of
/// plies.
pub fn play_game(
    start: &AnyPosition,
    players: [&MatchPlayer; 2],
    seed: u64,
) -> Result<(Outcome, usize), ExperimentError> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut plies = 0;
    loop {
        if let Some(o) = pos.outcome() {
            return Ok((o, plies));
        }
        let p = players[pos.to_move().index()];
        let m = p.choose(&pos, &mut rng)?;
        pos = pos.after_move(&m)?;
        plies += 1;
    }
}

/// One game of the experiment.
#[derive(Clone, Debug)]
struct Game1 {
    opening: usize,
    searcher: usize,
    opponent: usize,
    colour: Player,
}

/// A seeded opening: `plies` random moves from the start (a finished game
/// is drawn again).
fn opening(seed: u64, plies: usize) -> Othello {
    let mut rng = SmallRng::seed_from_u64(seed);
    let start = Othello::start();
    loop {
        if let Some(g) = random_walk(&start, plies, &mut rng) {
            return g;
        }
    }
}

/// A game's result for the searcher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// More discs than the opponent.
    #[default]
    Win,
    /// As many.
    Draw,
    /// Fewer.
    Loss,
}

/// One row of `om-match.csv`: one game.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MatchRow {
    /// The opening's notation.
    pub opening: String,
    /// The searcher.
    pub searcher: &'static str,
    /// Its opponent.
    pub opponent: &'static str,
    /// The searcher's colour.
    pub colour: Colour,
    /// The game's result for the searcher.
    pub result: GameResult,
    /// The searcher's discs minus the opponent's at the end.
    pub disc_difference: i64,
    /// Moves played.
    pub plies: usize,
}

/// The experiment entry point.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (settings, cfg) = opts.typed_settings(SETTINGS, OmMatchSettings::from_params)?;
    let depth = cfg.depth;
    let searchers = [
        ("minimax", MatchPlayer::om("f1", "f1", depth)),
        ("om", MatchPlayer::om("f1", "f2", depth)),
    ];
    let opponents = [
        ("f2", MatchPlayer::om("f2", "f2", depth - 1)),
        (
            "f2-shallow",
            MatchPlayer::om("f2", "f2", (depth - 2).max(1)),
        ),
        ("random", MatchPlayer::Random),
    ];
    let openings: Vec<Othello> = (0..cfg.positions)
        .map(|i| opening(instance_seed(opts.seed, i), cfg.opening))
        .collect();
    let mut games = Vec::new();
    for opening in 0..cfg.positions {
        for searcher in 0..searchers.len() {
            for opponent in 0..opponents.len() {
                for colour in [Player::First, Player::Second] {
                    games.push(Game1 {
                        opening,
                        searcher,
                        opponent,
                        colour,
                    });
                }
            }
        }
    }
    let results = run_jobs(opts, &games, |g| {
        let me = &searchers[g.searcher].1;
        let them = &opponents[g.opponent].1;
        let players = match g.colour {
            Player::First => [me, them],
            Player::Second => [them, me],
        };
        let start = AnyPosition::Othello(openings[g.opening]);
        play_game(
            &start,
            players,
            instance_seed(opts.seed, g.opening) ^ 0x6f6d,
        )
    });

    let mut table = Vec::new();
    // Per (searcher, opponent): wins, draws, losses, sum of disc differences.
    let mut tally = vec![[0i64; 4]; searchers.len() * opponents.len()];
    for (i, r) in &results {
        let g = &games[*i];
        let (o, n) = r.clone()?;
        let diff = o.score_for(g.colour);
        let result = match diff.signum() {
            1 => GameResult::Win,
            0 => GameResult::Draw,
            _ => GameResult::Loss,
        };
        let t = &mut tally[g.searcher * opponents.len() + g.opponent];
        t[(1 - diff.signum()) as usize] += 1;
        t[3] += i64::from(diff);
        table.push(MatchRow {
            opening: openings[g.opening].notation(),
            searcher: searchers[g.searcher].0,
            opponent: opponents[g.opponent].0,
            colour: if g.colour == Player::First {
                Colour::Black
            } else {
                Colour::White
            },
            result,
            disc_difference: diff.into(),
            plies: n,
        });
    }
    let mut summary = format!(
        "Othello, {positions} openings of {plies} random plies × 2 colours, depth {depth}, seed {}\n\
         {:>8}  {:>10}  {:>5}  {:>5}  {:>6}  {:>6}  {:>10}\n",
        opts.seed, "searcher", "opponent", "wins", "draws", "losses", "score", "mean discs",
        positions = cfg.positions,
        plies = cfg.opening,
    );
    let mut rows = Vec::new();
    for (s, (sname, _)) in searchers.iter().enumerate() {
        for (o, (oname, _)) in opponents.iter().enumerate() {
            let t = tally[s * opponents.len() + o];
            let n = (t[0] + t[1] + t[2]).max(1) as f64;
            let score = (t[0] as f64 + t[1] as f64 / 2.0) / n;
            let discs = t[3] as f64 / n;
            summary.push_str(&format!(
                "{sname:>8}  {oname:>10}  {:>5}  {:>5}  {:>6}  {score:>6.3}  {discs:>10.2}\n",
                t[0], t[1], t[2]
            ));
            rows.push(serde_json::json!({
                "searcher": sname, "opponent": oname,
                "games": t[0] + t[1] + t[2], "wins": t[0], "draws": t[1], "losses": t[2],
                "score": score, "mean_disc_difference": discs,
            }));
        }
    }
    opts.write_outputs(
        "om-match",
        &table,
        serde_json::json!({
            "experiment": "om-match",
            "settings": settings,
            "positions": cfg.positions, "depth": depth, "opening_plies": cfg.opening, "seed": opts.seed,
            "pairs": rows,
        }),
        summary,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::test_run::TestRun;

    #[test]
    fn every_pair_plays_both_colours() {
        let t = TestRun::new(
            "om-match",
            &[("positions", "1"), ("depth", "2"), ("opening", "50")],
            run,
        );
        // Header + 1 opening × 2 searchers × 3 opponents × 2 colours.
        assert_eq!(t.text("om-match.csv").lines().count(), 1 + 12);
        let json = t.json("om-match.json");
        for pair in json["pairs"].as_array().unwrap() {
            assert_eq!(pair["games"], 2);
        }
    }
}
