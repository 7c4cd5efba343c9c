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

use super::UserError;

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
        return Err(UserError(format!(
            "--algo {}: only deep-dfpn has a parameter tuner (hill-climbing over E and D)",
            args.algo
        )));
    }
    let position = if Path::new(&args.position).is_file() {
        let entries = positions::load_file(Path::new(&args.position)).map_err(|e| e.to_string())?;
        entries
            .into_iter()
            .next()
            .ok_or_else(|| format!("{}:1:1: the file holds no position", args.position))?
            .position
    } else {
        let kind = args.game.ok_or_else(|| {
            format!(
                "{}:1:1: no such file; for an inline position give --game ({})",
                args.position,
                GameKind::all_names()
            )
        })?;
        AnyPosition::parse(kind, &args.position).map_err(|e| format!("<inline>:{e}"))?
    };
    let info = search::find_algo("deep-dfpn")?;
    let setup = SearchSetup {
        position,
        params: Params::defaults(info.params),
        seed: args.seed,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    };
    let rule = ClimbRule::from_name(&args.rule).ok_or_else(|| {
        UserError(format!(
            "--rule {}: expected thesis or first-minimum",
            args.rule
        ))
    })?;
    let result = hill_climb(&setup, args.max_nodes, rule);
    outln!("{result}");
    Ok(ExitCode::SUCCESS)
}
