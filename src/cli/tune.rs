//! `pnlab tune --algo deep-dfpn POSITION --max-nodes N`: hill-climbing for
//! Deep df-pn's (E, D) (thesis Algorithm 1, docs/algorithms.md §4). Prints every
//! probe and the chosen pair.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;

use pnlab::game::{AnyPosition, GameKind};
use pnlab::positions;
use pnlab::search::dfpn::hill_climb::{hill_climb, ClimbRule};
use pnlab::search::{self, Params, QuestionKind, SearchSetup};

use super::{UsageError, UserError};

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The algorithm whose parameters are tuned (only deep-dfpn has a tuner).
    #[arg(long, default_value = "deep-dfpn")]
    pub algo: String,
    /// A position file (its first position is used) or inline notation with --game.
    pub position: String,
    /// Game of an inline position.
    #[arg(long, value_enum)]
    pub game: Option<GameKind>,
    /// Node cap of each probe (a capped probe counts as ∞).
    #[arg(long)]
    pub max_nodes: u64,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// When the walk stops: `thesis` (Algorithm 1: look one step further
    /// before stopping) or `first-minimum` (stop at the first local minimum).
    #[arg(long, default_value = "thesis")]
    pub rule: String,
}

pub fn run(args: TuneArgs) -> Result<ExitCode, UserError> {
    if args.algo != "deep-dfpn" {
        return Err(UsageError::NoTuner(args.algo.to_string()).into());
    }
    let position = if Path::new(&args.position).is_file() {
        let entries = positions::load_file(Path::new(&args.position))?;
        entries
            .into_iter()
            .next()
            .ok_or_else(|| UsageError::EmptyFile(args.position.clone()))?
            .position
    } else {
        let kind = args
            .game
            .ok_or_else(|| pnlab::solve::InputError::NoSuchFile {
                at: pnlab::solve::Location::start_of(args.position.as_str()),
                games: GameKind::all_names(),
            })?;
        AnyPosition::parse(kind, &args.position).map_err(|error| {
            pnlab::game::notation::FileError {
                file: "<inline>".into(),
                error,
            }
        })?
    };
    let info = search::find_algo("deep-dfpn")?;
    let setup = SearchSetup {
        position,
        params: Params::defaults(info.params),
        seed: args.seed,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    };
    let rule = ClimbRule::from_name(&args.rule).ok_or_else(|| UsageError::BadValue {
        flag: "--rule",
        value: args.rule.to_string(),
        expected: "thesis or first-minimum",
    })?;
    let result = hill_climb(&setup, args.max_nodes, rule);
    outln!("{result}");
    Ok(ExitCode::SUCCESS)
}
