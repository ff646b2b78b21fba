//! `pith batch`: many pages at once — files, directories, WARC / WARC.gz archives, a list of URLs —
//! into JSON Lines, one line per record (a result or an error), on every core.
//!
//! The pipeline is the library's (`pith::batch`: reading, which records are pages, the workers, the
//! lines); this command lists the inputs, fetches the URLs, writes the output and reports.
//!
//! Resumable: with `--output FILE`, records whose key (WARC-Record-ID, else URI or path) already has
//! a line in FILE are skipped and new lines are appended, so an interrupted run continues where it
//! stopped. URLs are fetched with the service's fetcher (SSRF checks, timeouts, size cap) at a bounded
//! rate (`--rate`).

use std::collections::HashSet;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use pith::batch::{Failure, Feed, Item, Origin, SiteLimits, Work, files_under, list_lines};

#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Write JSON Lines here (appending, and skipping records already in it); default standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// A file listing more inputs (files, directories, archives), one path per line (`#` starts a
    /// comment): the list of archives a Kubernetes Job splits between its pods with `--shard`.
    #[arg(long)]
    pub inputs: Option<PathBuf>,
    /// A file of URLs to fetch and extract, one per line (`#` starts a comment).
    #[arg(long)]
    pub urls: Option<PathBuf>,
    /// Algorithm name (see `pith algorithms`).
    #[arg(long, short, default_value = "auto")]
    pub algorithm: pith::Algorithm,
    /// Comma-separated content formats: text, html, markdown, explain.
    #[arg(long, short, default_value = "text")]
    pub format: String,
    /// Include per-block scores in each result.
    #[arg(long)]
    pub blocks: bool,
    /// Worker threads (default: the number of cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Records larger than this are reported as errors without being read.
    #[arg(long, default_value_t = pith::batch::MAX_RECORD_BYTES)]
    pub max_record_bytes: u64,
    /// URL fetches started per second at most (`--urls`).
    #[arg(long, default_value_t = 8.0)]
    pub rate: f64,
    /// Read the models from this directory instead of the embedded ones.
    #[arg(long)]
    pub models: Option<PathBuf>,
    /// Work on shard K of N (`K/N`, K from 0): every N-th input file and URL, starting at the K-th, so
    /// N machines (a Kubernetes indexed Job's pods) split one list of archives between them.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Learn each site's template first (a first pass over the files and archives reads up to
    /// `--site-pages` pages of every site, by the registered domain of the page's URL), then extract
    /// every page with its site's template: what the site repeats on its pages is left out. Each
    /// result says `template: {pages, blocks_removed}` when one was used.
    #[arg(long)]
    pub site_templates: bool,
    /// With `--site-templates`: pages learned per site at most.
    #[arg(long, value_name = "N", default_value_t = pith::site::MAX_PAGES, requires = "site_templates")]
    pub site_pages: usize,
    /// With `--site-templates`: memory for the templates, in MiB (sites beyond it get none).
    #[arg(long, value_name = "MIB", default_value_t = 512, requires = "site_templates")]
    pub site_templates_mib: usize,
    /// HTML files, directories of them (walked recursively), and WARC / WARC.gz archives.
    pub paths: Vec<PathBuf>,
}

pub fn run(mut a: BatchArgs) -> Result<ExitCode, pith::Error> {
    if let Some(list) = &a.inputs {
        let text = std::fs::read_to_string(list)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {}: {e}", list.display())))?;
        a.paths.extend(list_lines(&text).map(PathBuf::from));
    }
    if a.paths.is_empty() && a.urls.is_none() {
        return Err(pith::Error::Config("give files, directories, WARC archives or --urls FILE".into()));
    }
    let formats = pith::Format::parse_list(&a.format).map_err(|e| pith::Error::Config(e.to_string()))?;
    for p in &a.paths {
        if !p.exists() {
            return Err(
                std::io::Error::new(std::io::ErrorKind::NotFound, format!("{}: no such file", p.display())).into()
            );
        }
    }
    let mut engine = super::setup::engine_from_env()?;
    if let Some(dir) = &a.models {
        engine.models.load_dir(dir)?;
    }
    let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let done = match &a.output {
        Some(p) => pith::batch::done_keys(p)?,
        None => HashSet::new(),
    };
    let mut out: Box<dyn Write> = match &a.output {
        Some(p) => Box::new(BufWriter::new(pith::batch::open_for_append(p)?)),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let (k, n) = a.shard.unwrap_or((0, 1));
    let files: Vec<PathBuf> =
        a.paths.iter().flat_map(|p| files_under(p)).enumerate().filter(|(i, _)| i % n == k).map(|(_, f)| f).collect();
    let urls: Vec<String> = match &a.urls {
        Some(list) => {
            let text = std::fs::read_to_string(list)
                .map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {}: {e}", list.display())))?;
            list_lines(&text).enumerate().filter(|(i, _)| i % n == k).map(|(_, u)| u.to_string()).collect()
        }
        None => Vec::new(),
    };
    let t0 = Instant::now();
    let sites = match a.site_templates {
        true => {
            let limits = SiteLimits { site_pages: a.site_pages, mib: a.site_templates_mib };
            let (sites, learned) = pith::batch::learn_sites(&engine, &files, a.max_record_bytes, jobs, limits)?;
            eprintln!(
                "pith batch: site templates of {} sites learned from {} of {} pages read ({} KiB) in {:.1} s{}",
                learned.sites,
                learned.learned,
                learned.pages,
                learned.bytes / 1024,
                learned.seconds,
                match learned.lost {
                    0 => String::new(),
                    lost => format!("; {lost} pages of them were held too long to be learned"),
                }
            );
            Some(sites)
        }
        false => None,
    };
    let progress = progress_bar(&files, urls.len());
    let options =
        pith::Options { algorithm: a.algorithm, blocks: a.blocks, ..pith::Options::default() }.with_formats(&formats);
    let work = Work { engine: &engine, options, jobs, sites: sites.as_ref() };
    let (max, rate) = (a.max_record_bytes, a.rate);
    let read = move |feed: &mut Feed<'_>| {
        pith::batch::read_files(&files, max, feed);
        fetch_all(urls, rate, feed)
    };
    let mut errors = 0u64;
    let summary = pith::batch::run(work, &done, read, |line, ok| {
        out.write_all(line)?;
        errors += u64::from(!ok);
        if let Some(p) = &progress {
            p.inc(1);
            p.set_message(format!("{errors} errors"));
        }
        Ok(())
    })?;
    out.flush()?;
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    let secs = t0.elapsed().as_secs_f64();
    let (written, errors, counts) = (summary.written, summary.errors, summary.counts);
    eprintln!(
        "pith batch: {written} records written ({} extracted, {errors} errors), {} skipped as already done, \
         {} not HTML, {} other WARC records, in {secs:.1} s: {:.1} records/s with {jobs} workers",
        written - errors,
        counts.skipped_done,
        counts.not_html,
        counts.other_records,
        written as f64 / secs.max(1e-9),
    );
    Ok(ExitCode::SUCCESS)
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s:?}: expected K/N with 0 <= K < N, e.g. 3/8");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n) = (k.trim().parse::<usize>().map_err(|_| bad())?, n.trim().parse::<usize>().map_err(|_| bad())?);
    if k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

/// A progress bar on a terminal (pages, pages/s, errors, and an ETA when the total is known).
fn progress_bar(files: &[PathBuf], urls: usize) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    // The total is known for files and URL lists; records in archives are counted as they are read.
    let archives = files.iter().any(|f| pith::batch::warc::looks_like_warc(f));
    super::progress::bar((!archives).then_some((files.len() + urls) as u64))
}

/// Fetch the URLs with the service's fetcher, a few at a time and at most `rate` starts per second;
/// URLs a previous run wrote are not fetched again.
fn fetch_all(urls: Vec<String>, rate: f64, feed: &mut Feed<'_>) -> Result<(), pith::Error> {
    use futures_util::StreamExt;
    if urls.is_empty() {
        return Ok(());
    }
    let total = urls.len() as u64;
    let urls: Vec<String> = urls.into_iter().filter(|u| !feed.is_done(&Origin::fetched(u))).collect();
    feed.counts.skipped_done += total - urls.len() as u64;
    let config = pith::configuration::Config::load(None).map_err(|e| pith::Error::Config(e.0))?;
    let fetcher = pith::fetch::Fetcher::new(&config.fetch).map_err(|e| pith::Error::Config(format!("fetcher: {e}")))?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| pith::Error::Config(format!("runtime: {e}")))?;
    let gap = Duration::from_secs_f64(1.0 / rate.max(0.01));
    rt.block_on(async {
        let start = tokio::time::Instant::now();
        let fetcher = &fetcher;
        let mut results = futures_util::stream::iter(urls.into_iter().enumerate())
            .map(|(k, u)| async move {
                // The k-th fetch starts no earlier than k gaps after the first: at most `rate` per second.
                tokio::time::sleep_until(start + gap.mul_f64(k as f64)).await;
                let origin = Origin::fetched(&u);
                let parsed = match url::Url::parse(&u) {
                    Ok(p) => p,
                    Err(e) => return Item::Failed { origin, failure: Failure::new("bad_url", e.to_string()) },
                };
                match fetcher.fetch(&parsed).await {
                    Ok(f) => Item::Page { origin, bytes: f.body, url: Some(f.info.final_url), charset: f.charset },
                    Err(e) => Item::Failed { origin, failure: Failure::new(e.outcome(), e.to_string()) },
                }
            })
            .buffer_unordered(8);
        while let Some(item) = results.next().await {
            if !feed.send(item) {
                break;
            }
        }
    });
    Ok(())
}
