//! The `pith` command: a thin layer over the library. Each subcommand lives in `cli/`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        // The reader went away (`pith extract … | head`): not an error worth a message.
        Err(pith::Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pith: {e}");
            ExitCode::from(2)
        }
    }
}
