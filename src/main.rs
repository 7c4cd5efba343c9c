//! `pnlab`: with no subcommand the app opens; subcommands run headless
//! (docs/cli.md is the contract: keep names stable). Built for the web
//! (`wasm32`), the same binary is the page: `main` starts the app on the
//! page's canvas (`scripts/web.sh`).

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::FromArgMatches;
    let matches =
        cli::command().get_matches_from(cli::board_args_last(std::env::args_os().collect()));
    let args = cli::Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    cli::run(args)
}

#[cfg(target_arch = "wasm32")]
fn main() {
    pnlab::app::web::start();
}
