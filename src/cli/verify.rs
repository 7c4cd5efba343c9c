//! `pnlab verify CERTIFICATE`: checks a proof certificate with the game
//! rules alone. Exit 0 and `valid: <answer> (<N> positions)` when it
//! holds; exit 1 and `invalid: <moves to the first bad node>: <why>` when
//! it does not; exit 2 for a file that cannot be read as a certificate.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use pnlab::certificate::{verify, Certificate, Verdict};
use pnlab::game::notation::FileError;

use super::UserError;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The certificate file (written by `pnlab solve --proof FILE`), or `-`
    /// for standard input.
    #[arg(value_name = "CERTIFICATE")]
    pub file: PathBuf,
}

pub fn run(args: VerifyArgs) -> Result<ExitCode, UserError> {
    let name = args.file.display().to_string();
    let text = if name == "-" {
        pnlab::files::read_capped(std::io::stdin().lock(), pnlab::files::MAX_READ_BYTES).map_err(
            |e| pnlab::solve::InputError::Stdin {
                at: pnlab::solve::Location::start_of("-"),
                reason: e.to_string(),
            },
        )?
    } else {
        pnlab::files::read_text(&args.file)?
    };
    let located = |error| FileError {
        file: name.clone(),
        error,
    };
    let cert = Certificate::parse(&text).map_err(located)?;
    let verdict = verify(&cert).map_err(located)?;
    outln!("{}", verdict.line());
    Ok(match verdict {
        Verdict::Valid { .. } => ExitCode::SUCCESS,
        Verdict::Invalid { .. } => ExitCode::from(1),
    })
}
