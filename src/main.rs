//! `pnlab`: with no subcommand the app opens; subcommands run headless
//! (docs/cli.md is the contract: keep names stable). Built for the web
//! (`wasm32`), the same binary is the page: `main` starts the app on the
//! page's canvas (`scripts/web.sh`).

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    let args = cli::Cli::parse_from(cli::board_args_last(std::env::args_os().collect()));
    cli::run(args)
}

#[cfg(target_arch = "wasm32")]
fn main() {
    pnlab::app::web::start();
}
