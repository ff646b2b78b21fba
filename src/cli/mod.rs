//! Command-line interface: argument definitions and dispatch.

mod adversarial;
mod batch;
mod bench;
mod eval;
mod extract;
mod fuzz;
mod health;
mod progress;
mod serve;
mod setup;
mod train;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// pith: pull the main content out of web pages.
#[derive(Debug, Parser)]
#[command(name = "pith", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract the main content of one page (a file, or - for standard input).
    Extract(extract::ExtractArgs),
    /// Run the HTTP service (see openapi.yaml; settings in config/default.toml).
    Serve(serve::ServeArgs),
    /// Probe a running service (GET /healthz): exit 0 on 2xx, 1 otherwise. For container health checks.
    Health(health::HealthArgs),
    /// List the algorithms with one line each.
    Algorithms,
    /// Learn the models in config/: Naive Bayes blocks, auto's block classifier, has-article.
    Train(train::TrainArgs),
    /// Score algorithms on labelled datasets with the seed papers' and the industry benchmark's metrics.
    Eval(eval::EvalArgs),
    /// Time every algorithm against the bare html5ever parse of the same pages (one thread).
    Bench(bench::BenchArgs),
    /// Extract many pages into JSON Lines: files, directories, WARC / WARC.gz archives, URL lists.
    Batch(batch::BatchArgs),
    /// Hostile pages: write the corpus, or measure time and peak memory per MB of each class.
    Adversarial(adversarial::AdversarialArgs),
    /// Mutate dataset pages and extract each, for a bounded time: panics and slow cases are findings.
    Fuzz(fuzz::FuzzArgs),
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, pith::Error> {
    match cli.command {
        Command::Extract(a) => extract::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Health(a) => health::run(a),
        Command::Algorithms => {
            for a in pith::algorithms::ALGORITHMS {
                println!("{:<14} {}", a.name(), a.description());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Train(a) => train::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Batch(a) => batch::run(a),
        Command::Adversarial(a) => adversarial::run(a),
        Command::Fuzz(a) => fuzz::run(a),
    }
}
