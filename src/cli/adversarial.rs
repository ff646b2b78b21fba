//! `pith adversarial`: write the hostile corpus, or measure it against time and memory bounds per MB.

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
pub struct AdversarialArgs {
    /// Write one page per class (at the first size) into this directory, and measure nothing.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Page sizes in MB, comma-separated: every class is measured at each (two sizes show a
    /// superlinear cost as a growing per-MB figure).
    #[arg(long, default_value = "1,4", value_delimiter = ',')]
    pub mb: Vec<f64>,
    /// Classes to use, comma-separated (default: all; `pith adversarial --list` names them).
    #[arg(long, value_delimiter = ',')]
    pub class: Vec<String>,
    /// List the classes and exit.
    #[arg(long)]
    pub list: bool,
    /// Algorithms to run on every case, comma-separated, or `all`.
    #[arg(long, short, default_value = "auto")]
    pub algorithm: String,
    /// Bound on extraction time per MB of input (milliseconds).
    #[arg(long, default_value_t = 1500.0)]
    pub max_ms_per_mb: f64,
    /// Bound on the growth of peak resident memory per MB of input (MB).
    #[arg(long, default_value_t = 60.0)]
    pub max_peak_per_mb: f64,
    /// Allowance added to both bounds for any page (milliseconds).
    #[arg(long, default_value_t = 200.0)]
    pub base_ms: f64,
    /// Allowance added to both bounds for any page (MB).
    #[arg(long, default_value_t = 16.0)]
    pub base_mb: f64,
    /// A case still running after this many seconds is killed and counted over the bounds.
    #[arg(long, default_value_t = 120)]
    pub timeout_secs: u64,
    #[arg(long, short, value_enum, default_value = "table")]
    pub format: Format,
    /// Internal: measure this one class in this process and print the measurement as JSON.
    #[arg(long, hide = true, requires = "bytes")]
    pub case: Option<String>,
    /// Internal: the page size for `--case`, in bytes.
    #[arg(long, hide = true)]
    pub bytes: Option<usize>,
}

fn unknown_class(name: &str) -> pith::Error {
    let known: Vec<&str> = pith::lab::adversarial::CLASSES.iter().map(|c| c.name).collect();
    pith::Error::Config(format!("unknown class {name:?}; known: {}", known.join(", ")))
}

pub fn run(a: AdversarialArgs) -> Result<ExitCode, pith::Error> {
    if a.list {
        for c in pith::lab::adversarial::CLASSES {
            println!("{:<22} {}", c.name, c.about);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let algorithms: Vec<pith::Algorithm> = if a.algorithm == "all" {
        pith::lab::eval::all_algorithms()
    } else {
        a.algorithm.split(',').map(|n| n.trim().parse()).collect::<Result<_, _>>()?
    };
    if let Some(name) = &a.case {
        let class = pith::lab::adversarial::class(name).ok_or_else(|| unknown_class(name))?;
        let engine = pith::Engine::with_defaults()?;
        let m = pith::lab::adversarial::measure(&engine, class, a.bytes.unwrap_or(1 << 20), algorithms[0]);
        println!("{}", serde_json::to_string(&m).map_err(std::io::Error::other)?);
        return Ok(ExitCode::SUCCESS);
    }
    let classes: Vec<&pith::lab::adversarial::Class> = if a.class.is_empty() {
        pith::lab::adversarial::CLASSES.iter().collect()
    } else {
        a.class
            .iter()
            .map(|n| pith::lab::adversarial::class(n).ok_or_else(|| unknown_class(n)))
            .collect::<Result<_, _>>()?
    };
    let sizes: Vec<usize> = a.mb.iter().map(|mb| (mb * 1e6) as usize).collect();
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir)?;
        let bytes = sizes.first().copied().unwrap_or(1_000_000);
        for c in &classes {
            std::fs::write(dir.join(format!("{}.html", c.name)), c.generate(bytes))?;
        }
        eprintln!("wrote {} pages of about {bytes} bytes to {}", classes.len(), dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    let bounds = pith::lab::adversarial::Bounds {
        ms_per_mb: a.max_ms_per_mb,
        peak_mb_per_mb: a.max_peak_per_mb,
        base_ms: a.base_ms,
        base_mb: a.base_mb,
    };
    let exe = std::env::current_exe()?;
    let timeout = std::time::Duration::from_secs(a.timeout_secs);
    let table = matches!(a.format, Format::Table);
    if table {
        println!(
            "bounds: {} ms + {} ms/MB, {} MB + {} MB/MB of peak resident memory; one process per case",
            a.base_ms, a.max_ms_per_mb, a.base_mb, a.max_peak_per_mb
        );
        println!(
            "{:<22} {:<12} {:>9} {:>10} {:>9} {:>10} {:>8}  {:<17} verdict",
            "class", "algorithm", "MB", "ms", "ms/MB", "peak MB", "MB/MB", "outcome"
        );
    }
    let verdicts = pith::lab::adversarial::check(&exe, &classes, &sizes, &algorithms, bounds, timeout, |v| {
        if table {
            println!(
                "{:<22} {:<12} {:>9.2} {:>10.1} {:>9.1} {:>10.1} {:>8.1}  {:<17} {}",
                v.m.class,
                v.m.algorithm,
                v.m.bytes as f64 / 1e6,
                v.m.ms,
                v.ms_per_mb,
                v.m.peak_kib as f64 / 1024.0,
                v.peak_mb_per_mb,
                v.m.outcome,
                if v.within { "ok" } else { "OVER" }
            );
            let _ = std::io::stdout().flush();
        }
    })?;
    let over = verdicts.iter().filter(|v| !v.within).count();
    if table {
        let worst_ms = verdicts.iter().map(|v| v.ms_per_mb).fold(0.0, f64::max);
        let worst_mb = verdicts.iter().map(|v| v.peak_mb_per_mb).fold(0.0, f64::max);
        println!(
            "{} cases, {over} over the bounds; worst {worst_ms:.1} ms/MB, {worst_mb:.1} MB of peak memory per MB",
            verdicts.len()
        );
    } else {
        println!("{}", serde_json::to_string_pretty(&verdicts).map_err(std::io::Error::other)?);
    }
    Ok(if over == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
