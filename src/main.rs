//! `pnlab`: with no subcommand the app opens; subcommands run headless
//! (docs/cli.md is the contract: keep names stable).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse_from(cli::board_args_last(std::env::args_os().collect()));
    cli::run(args)
}
