//! `pith bench`: a thin layer over [`pith::lab::bench`].

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Table,
    Json,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A dataset directory (pages.jsonl + html/); repeat for several.
    #[arg(long = "dataset", required_unless_present = "page")]
    pub datasets: Vec<PathBuf>,
    /// Algorithm name, a comma-separated list, or `all` (every algorithm except `template`, plus
    /// `auto+blocks`: `auto` with per-block scores reported).
    #[arg(long, short, default_value = "all")]
    pub algorithm: String,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "table")]
    pub format: Format,
    /// Timed runs per page and measurement; the minimum is kept.
    #[arg(long, default_value_t = 5)]
    pub repeats: usize,
    /// Stop after this many pages (0: every page).
    #[arg(long, default_value_t = 0)]
    pub max_pages: usize,
    /// Instead of the dataset table: in-process pages/s on this one page (raw bytes), with the
    /// service's default request (text, HTML and blocks), on `--threads` threads for `--seconds`.
    #[arg(long, conflicts_with = "datasets")]
    pub page: Option<PathBuf>,
    /// Threads for `--page`.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seconds for `--page`.
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// Also write every page's minimum times to this file, one JSON object per line (`dataset`, `id`,
    /// `bytes`, `parse_ms`, and `ms`: one per algorithm, in the order given, null where it failed).
    #[arg(long)]
    pub per_page: Option<PathBuf>,
}

pub fn run(a: BenchArgs) -> Result<ExitCode, pith::Error> {
    if let Some(path) = &a.page {
        let bytes = std::fs::read(path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))?;
        let engine = pith::Engine::with_defaults()?;
        let algorithm = if a.algorithm == "all" { pith::Algorithm::Auto } else { a.algorithm.parse()? };
        let rate = pith::lab::bench::throughput(&engine, &bytes, algorithm, a.threads, a.seconds)?;
        match a.format {
            Format::Table => println!(
                "{} ({} bytes), {algorithm}, {} threads, {:.0} s: {rate:.1} pages/s",
                path.display(),
                bytes.len(),
                a.threads,
                a.seconds
            ),
            Format::Json => println!(
                "{}",
                serde_json::json!({"page": path, "bytes": bytes.len(), "algorithm": algorithm,
                    "threads": a.threads, "seconds": a.seconds, "pages_per_s": rate})
            ),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let algorithms: Vec<String> = if a.algorithm == "all" {
        let mut v: Vec<String> = pith::lab::eval::all_algorithms().into_iter().map(|a| a.to_string()).collect();
        v.insert(1, pith::lab::bench::AUTO_BLOCKS.to_string());
        v
    } else {
        a.algorithm.split(',').map(str::trim).filter(|n| !n.is_empty()).map(str::to_string).collect()
    };
    if algorithms.is_empty() {
        return Err(pith::Error::Config("no algorithm given".to_string()));
    }
    let engine = pith::Engine::with_defaults()?;
    let opts =
        pith::lab::bench::BenchOptions { datasets: a.datasets, algorithms, repeats: a.repeats, max_pages: a.max_pages };
    let bar = super::progress::observe_library();
    let report = pith::lab::bench::run(&engine, &opts)?;
    super::progress::clear(bar);
    if let Some(path) = &a.per_page {
        let mut out = String::new();
        for row in &report.per_page {
            out += &serde_json::to_string(row).map_err(std::io::Error::other)?;
            out.push('\n');
        }
        std::fs::write(path, out)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
    }
    let text = match a.format {
        Format::Table => pith::lab::bench::table(&report),
        Format::Json => serde_json::to_string_pretty(&report).map_err(std::io::Error::other)? + "\n",
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
