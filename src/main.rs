//! The `pith` command: a thin layer over the library. Each subcommand lives in `cli/`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("pith: {e}");
            ExitCode::from(2)
        }
    }
}
