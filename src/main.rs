//! The `pith` command: a thin layer over the library. Each subcommand lives in `cli/`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// jemalloc, not the C library's allocator: an extraction makes tens of thousands of small
/// allocations (tags, attributes, text runs, per-block features), and with glibc's malloc they were a
/// tenth of `auto`'s instructions. With jemalloc `pith bench` runs `auto` about 7% faster on
/// wcxb-dev, for 1–2 MB more peak memory on a 400 KB page (docs/PERFORMANCE.md).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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
