//! `pith fuzz`: the mutation loop over `Engine::extract`, seeded from dataset pages, for a bounded time.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

#[derive(Debug, Args)]
pub struct FuzzArgs {
    /// A dataset directory whose pages seed the mutations; repeat for several.
    #[arg(long = "dataset", required = true)]
    pub datasets: Vec<PathBuf>,
    /// Seed pages taken from each dataset, at most (the first ones).
    #[arg(long, default_value_t = 50)]
    pub pages: usize,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// Stop after this many cases.
    #[arg(long, default_value_t = usize::MAX)]
    pub cases: usize,
    /// Seed of the mutation generator (the same seed and cases give the same pages).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Mutations per case, at most.
    #[arg(long, default_value_t = 8)]
    pub mutations: usize,
    /// A case slower than this per MB of input (plus --base-ms) is a finding.
    #[arg(long, default_value_t = 1500.0)]
    pub max_ms_per_mb: f64,
    #[arg(long, default_value_t = 500.0)]
    pub base_ms: f64,
    /// Write each failing case here (`crash-*.html`, `slow-*.html`), to be kept as a fixture.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(a: FuzzArgs) -> Result<ExitCode, pith::Error> {
    let mut seeds = Vec::new();
    for dir in &a.datasets {
        let ds = pith::lab::dataset::Dataset::open(dir)?;
        for page in ds.pages.iter().take(a.pages) {
            seeds.push(ds.html(page)?);
        }
    }
    let engine = pith::Engine::with_defaults()?;
    // A panic is a finding, reported below: keep the default hook's message off the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    let opts = pith::lab::adversarial::fuzz::FuzzOptions {
        seed: a.seed,
        max_cases: a.cases,
        max_time: Duration::from_secs(a.seconds),
        max_mutations: a.mutations,
        bounds: pith::lab::adversarial::Bounds {
            ms_per_mb: a.max_ms_per_mb,
            peak_mb_per_mb: f64::INFINITY,
            base_ms: a.base_ms,
            base_mb: 0.0,
        },
        out: a.out.clone(),
    };
    let report = pith::lab::adversarial::fuzz::fuzz(&engine, &seeds, &opts)?;
    let _ = std::panic::take_hook();
    for f in &report.findings {
        let at = f.path.as_ref().map_or_else(String::new, |p| format!(" -> {}", p.display()));
        println!("{:<6} {:>9} bytes {:>9.1} ms{at}", f.kind, f.bytes, f.ms);
    }
    println!(
        "{} cases from {} seed pages, {:.1} MB, {} refused as too complex, {} findings; worst {:.1} ms/MB",
        report.cases,
        seeds.len(),
        report.bytes as f64 / 1e6,
        report.too_complex,
        report.findings.len(),
        report.worst_ms_per_mb
    );
    Ok(if report.findings.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
