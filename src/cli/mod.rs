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

/// Settings of the block classifier's training, shared by `train` and `eval --cv`.
#[derive(Debug, Clone, clap::Args)]
pub struct LearnArgs {
    /// Trees in the block classifier.
    #[arg(long, default_value_t = pith::learn::gbdt::TrainParams::default().trees)]
    pub trees: usize,
    /// Depth of each tree.
    #[arg(long, default_value_t = pith::learn::gbdt::TrainParams::default().max_depth)]
    pub depth: usize,
    /// Shrinkage of each tree's contribution.
    #[arg(long, default_value_t = pith::learn::gbdt::TrainParams::default().learning_rate)]
    pub learning_rate: f64,
    /// L2 penalty on leaf values.
    #[arg(long, default_value_t = pith::learn::gbdt::TrainParams::default().lambda)]
    pub lambda: f64,
    /// Smallest summed hessian of a leaf.
    #[arg(long, default_value_t = pith::learn::gbdt::TrainParams::default().min_child_weight)]
    pub min_child_weight: f64,
    /// Dataset balance: 0 weighs every page the same, 1 every dataset the same.
    #[arg(long, default_value_t = pith::lab::train::Learn::default().balance)]
    pub balance: f64,
    /// Folds for stage 2's out-of-fold inputs (0: no stage 2).
    #[arg(long, default_value_t = pith::lab::train::Learn::default().stack_folds)]
    pub stack_folds: usize,
}

impl LearnArgs {
    pub fn params(&self) -> pith::lab::train::Learn {
        pith::lab::train::Learn {
            gbdt: pith::learn::gbdt::TrainParams {
                trees: self.trees,
                max_depth: self.depth,
                learning_rate: self.learning_rate,
                lambda: self.lambda,
                min_child_weight: self.min_child_weight,
            },
            balance: self.balance,
            stack_folds: self.stack_folds,
        }
    }
}

/// The engine with the embedded models and the algorithm parameters of the embedded defaults as
/// overridden by `PITH_PARAMS__<ALGORITHM>__<KEY>` variables, as `pith serve` reads them.
fn engine_from_env() -> Result<pith::Engine, pith::Error> {
    let mut engine = pith::Engine::with_defaults()?;
    engine.params = params_from_env()?;
    Ok(engine)
}

/// [`engine_from_env`] with the models of `dir` (`--models`) over the embedded ones. When the embedded
/// models no longer fit the code (the features changed and `config/` is not retrained yet), the
/// directory's models are read over untrained ones, so that a fold's models can still be inspected.
fn engine_with_models(dir: Option<&std::path::Path>) -> Result<pith::Engine, pith::Error> {
    let Some(dir) = dir else { return engine_from_env() };
    let mut engine = engine_from_env().or_else(|_| untrained_engine_from_env())?;
    engine.models.load_dir(dir)?;
    Ok(engine)
}

/// [`engine_from_env`] without the embedded models, for training them anew (`train`, `eval --cv`).
fn untrained_engine_from_env() -> Result<pith::Engine, pith::Error> {
    let mut engine = pith::Engine::untrained()?;
    engine.params = params_from_env()?;
    Ok(engine)
}

/// The `[render]` settings as `pith serve` reads them (embedded defaults, `PITH_RENDER__*`).
fn render_config_from_env() -> Result<pith::browser::RenderConfig, pith::Error> {
    let config = pith::configuration::Config::load(None).map_err(|e| pith::Error::Config(e.0))?;
    Ok(config.render)
}

fn params_from_env() -> Result<pith::algorithms::Params, pith::Error> {
    let config = pith::configuration::Config::load(None).map_err(|e| pith::Error::Config(e.0))?;
    Ok(config.params)
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
