//! `pnlab perft`: leaf counts of the legal-move tree (passes are moves;
//! finished games before the depth count zero: `game::perft`; repetition
//! rules play no part).

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use pnlab::game::{perft, AnyPosition, GameKind};
use pnlab::with_position;

use super::UserError;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Game of the position.
    #[arg(long, value_enum)]
    pub game: GameKind,
    /// Position in the game's native notation (may start with `-`, as
    /// OBF boards do).
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Also print the count below each first move.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: PerftArgs) -> Result<ExitCode, UserError> {
    let kind = args.game;
    let pos = AnyPosition::parse(kind, &args.position)
        .map_err(|error| pnlab::game::notation::FileError {
            file: "<inline>".into(),
            error,
        })?
        .for_perft();
    let start = Instant::now();
    if args.divide && args.depth > 0 {
        for mv in pos.legal_move_names() {
            let child = pos.after_move(&mv)?;
            let n = with_position!(&child, g => perft::perft_parallel(g, args.depth - 1));
            outln!("{mv}: {n}");
        }
    }
    let n = with_position!(&pos, g => perft::perft_parallel(g, args.depth));
    outln!("{n}");
    eprintln!(
        "perft({}) = {n} in {:.3} s",
        args.depth,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
