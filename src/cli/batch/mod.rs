//! `pith batch`: many pages at once — files, directories, WARC / WARC.gz archives, a list of URLs —
//! into JSON Lines, one line per record (a result or an error), on every core.
//!
//! Shape: one reader thread walks the inputs in order and sends pages into a bounded channel; worker
//! threads extract and send lines into a second bounded channel; the main thread writes them. The
//! channels hold at most a few pages per worker, so memory stays bounded whatever the archive's size
//! (a record over `--max-record-bytes` is reported as an error without being read into memory).
//! Lines come out in completion order; each names its record (file, URI, WARC-Record-ID, digest).
//!
//! Resumable: with `--output FILE`, records whose key (WARC-Record-ID, else URI or path) already has
//! a line in FILE are skipped and new lines are appended, so an interrupted run continues where it
//! stopped. URLs are fetched with the service's fetcher (SSRF checks, timeouts, size cap) at a bounded
//! rate (`--rate`).

mod site_templates;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use clap::Args;
use pith::batch::warc::{Record, RecordPage, classify};
use pith::engine::site::{SiteTemplates, registered_domain};
use serde::Serialize;

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
    /// Comma-separated content formats: text, html, markdown.
    #[arg(long, short, default_value = "text")]
    pub format: String,
    /// Include per-block scores in each result.
    #[arg(long)]
    pub blocks: bool,
    /// Worker threads (default: the number of cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Records larger than this are reported as errors without being read.
    #[arg(long, default_value_t = 16 * 1024 * 1024)]
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
    #[arg(long, value_name = "N", default_value_t = pith::algorithms::contract::site_template::MAX_PAGES, requires = "site_templates")]
    pub site_pages: usize,
    /// With `--site-templates`: memory for the templates, in MiB (sites beyond it get none).
    #[arg(long, value_name = "MIB", default_value_t = 512, requires = "site_templates")]
    pub site_templates_mib: usize,
    /// HTML files, directories of them (walked recursively), and WARC / WARC.gz archives.
    pub paths: Vec<PathBuf>,
}

/// Where a page came from: the fields every output line starts with.
#[derive(Debug, Clone, Serialize)]
struct Origin {
    /// The file or archive it was read from, or `urls` for fetched pages.
    file: String,
    /// The page's address: the record's `WARC-Target-URI`, the URL fetched, or the file's path.
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    record_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    digest: Option<String>,
}

impl Origin {
    /// The key a resumed run recognises the record by.
    fn key(&self) -> String {
        self.record_id.clone().unwrap_or_else(|| format!("{}\t{}", self.file, self.uri))
    }
}

/// One unit of work.
enum Item {
    Page {
        origin: Origin,
        bytes: Vec<u8>,
        url: Option<String>,
        charset: Option<String>,
    },
    /// A record that could not be read or fetched: written as an error line.
    Failed {
        origin: Origin,
        kind: &'static str,
        message: String,
    },
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    #[serde(flatten)]
    origin: &'a Origin,
    error: ErrorBody<'a>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    kind: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct ResultLine<'a> {
    #[serde(flatten)]
    origin: &'a Origin,
    #[serde(flatten)]
    result: &'a pith::Extraction,
}

/// Counts for the summary.
#[derive(Debug, Default)]
struct Counts {
    skipped_done: u64,
    /// Responses and resources that are not HTML (images, PDFs, scripts).
    not_html: u64,
    /// WARC records that hold no page: `request`, `metadata`, `warcinfo`, `revisit`...
    other_records: u64,
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
    let (mut text, mut html, mut markdown) = (false, false, false);
    for f in a.format.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        match f {
            "text" => text = true,
            "html" => html = true,
            "markdown" => markdown = true,
            other => return Err(pith::Error::Config(format!("unknown format {other:?} (text, html, markdown)"))),
        }
    }
    for p in &a.paths {
        if !p.exists() {
            return Err(
                std::io::Error::new(std::io::ErrorKind::NotFound, format!("{}: no such file", p.display())).into()
            );
        }
    }
    let mut engine = super::engine_from_env()?;
    if let Some(dir) = &a.models {
        engine.models.load_dir(dir)?;
    }
    let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let done = match &a.output {
        Some(p) => done_keys(p)?,
        None => HashSet::new(),
    };
    let mut out: Box<dyn Write> = match &a.output {
        Some(p) => Box::new(BufWriter::new(open_for_append(p)?)),
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
    let templates = match a.site_templates {
        true => Some(site_templates::learn(&engine, &files, &a, jobs)?),
        false => None,
    };
    let progress = progress_bar(&files, urls.len());

    let (page_tx, page_rx) = sync_channel::<Item>(jobs * 2);
    let (line_tx, line_rx) = sync_channel::<(Vec<u8>, bool)>(jobs * 4);
    let reader = {
        let (max, rate) = (a.max_record_bytes, a.rate);
        std::thread::spawn(move || read_inputs(&files, urls, max, rate, &done, page_tx))
    };
    let page_rx = std::sync::Arc::new(std::sync::Mutex::new(page_rx));
    let options = pith::Options {
        algorithm: a.algorithm,
        text,
        html,
        markdown: markdown.then(pith::output::markdown::MarkdownOptions::default),
        explain: None,
        blocks: a.blocks,
        include_comments: None,
        no_article_text: None,
    };
    let (mut written, mut errors) = (0u64, 0u64);
    std::thread::scope(|s| -> Result<(), pith::Error> {
        for _ in 0..jobs {
            let (rx, tx, engine, templates) = (page_rx.clone(), line_tx.clone(), &engine, templates.as_ref());
            s.spawn(move || work(engine, &rx, &tx, options, templates));
        }
        drop(line_tx);
        for (line, ok) in line_rx {
            out.write_all(&line)?;
            written += 1;
            errors += u64::from(!ok);
            if let Some(p) = &progress {
                p.inc(1);
                p.set_message(format!("{errors} errors"));
            }
        }
        Ok(())
    })?;
    out.flush()?;
    let counts = reader.join().map_err(|_| pith::Error::Config("the input reader panicked".into()))??;
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    let secs = t0.elapsed().as_secs_f64();
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

/// Open the output for appending. A run that was killed mid-line left a last line without its newline:
/// end it, so the first new line starts on a line of its own (the broken one is ignored on resume).
fn open_for_append(p: &Path) -> Result<std::fs::File, pith::Error> {
    use std::io::{Read, Seek, SeekFrom};
    let named = |e: std::io::Error| std::io::Error::new(e.kind(), format!("cannot open {}: {e}", p.display()));
    let mut f = std::fs::OpenOptions::new().create(true).read(true).append(true).open(p).map_err(named)?;
    let len = f.metadata().map_err(named)?.len();
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::Start(len - 1)).map_err(named)?;
        f.read_exact(&mut last).map_err(named)?;
        if last[0] != b'\n' {
            f.write_all(b"\n").map_err(named)?;
        }
    }
    Ok(f)
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

/// Keys of the records a previous run wrote to `path` (none when it does not exist yet).
fn done_keys(path: &Path) -> Result<HashSet<String>, pith::Error> {
    let mut keys = HashSet::new();
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(keys),
        Err(e) => return Err(e.into()),
    };
    #[derive(serde::Deserialize)]
    struct Key {
        file: String,
        uri: String,
        record_id: Option<String>,
    }
    for line in BufReader::new(f).lines() {
        // A line cut short by an interrupted run is simply done again.
        if let Ok(k) = serde_json::from_str::<Key>(&line?) {
            keys.insert(k.record_id.unwrap_or_else(|| format!("{}\t{}", k.file, k.uri)));
        }
    }
    Ok(keys)
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

/// The lines of a list file that name something: trimmed, without blank lines and `#` comments.
fn list_lines(s: &str) -> impl Iterator<Item = &str> {
    s.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Extract pages until the channel closes.
fn work(
    engine: &pith::Engine,
    rx: &std::sync::Mutex<Receiver<Item>>,
    tx: &SyncSender<(Vec<u8>, bool)>,
    options: pith::Options,
    templates: Option<&SiteTemplates>,
) {
    loop {
        let item = match rx.lock() {
            Ok(r) => r.recv(),
            Err(_) => return,
        };
        let Ok(item) = item else { return };
        let line = match item {
            Item::Failed { origin, kind, message } => error_line(&origin, kind, &message),
            Item::Page { mut origin, bytes, url, charset } => {
                if origin.digest.is_none() {
                    origin.digest = Some(pith::batch::warc::sha1_digest(&bytes));
                }
                let site = templates.zip(url.as_deref().and_then(registered_domain));
                let req = pith::Request {
                    url: url.as_deref(),
                    charset: charset.as_deref(),
                    site: site.and_then(|(t, site)| t.get(&site)),
                    ..pith::Request::with_options(&bytes, options)
                };
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.extract(&req))) {
                    Ok(Ok(r)) => {
                        let mut l = serde_json::to_vec(&ResultLine { origin: &origin, result: &r }).unwrap_or_default();
                        l.push(b'\n');
                        (l, true)
                    }
                    Ok(Err(e)) => error_line(&origin, "extract", &e.to_string()),
                    Err(_) => error_line(&origin, "panic", "the extraction panicked"),
                }
            }
        };
        if tx.send(line).is_err() {
            return;
        }
    }
}

fn error_line(origin: &Origin, kind: &str, message: &str) -> (Vec<u8>, bool) {
    let mut l = serde_json::to_vec(&ErrorLine { origin, error: ErrorBody { kind, message } }).unwrap_or_default();
    l.push(b'\n');
    (l, false)
}

/// Walk every input in order and send its pages; returns the counts for the summary.
fn read_inputs(
    files: &[PathBuf],
    urls: Vec<String>,
    max: u64,
    rate: f64,
    done: &HashSet<String>,
    tx: SyncSender<Item>,
) -> Result<Counts, pith::Error> {
    let mut counts = Counts::default();
    let send = |item: Item, counts: &mut Counts| -> bool {
        let origin = match &item {
            Item::Page { origin, .. } | Item::Failed { origin, .. } => origin,
        };
        if done.contains(&origin.key()) {
            counts.skipped_done += 1;
            return true;
        }
        tx.send(item).is_ok()
    };
    for file in files {
        if pith::batch::warc::looks_like_warc(file) {
            let (mut not_html, mut other) = (0, 0);
            read_warc(file, max, &mut |item| send(item, &mut counts), (&mut not_html, &mut other))?;
            counts.not_html += not_html;
            counts.other_records += other;
            continue;
        }
        let origin =
            Origin { file: file.display().to_string(), uri: file.display().to_string(), record_id: None, digest: None };
        let item = match read_page(file, max) {
            Ok(bytes) => Item::Page { origin, bytes, url: None, charset: None },
            Err((kind, message)) => Item::Failed { origin, kind, message },
        };
        if !send(item, &mut counts) {
            return Ok(counts);
        }
    }
    if !urls.is_empty() {
        let total = urls.len() as u64;
        let urls: Vec<String> = urls.into_iter().filter(|u| !done.contains(&format!("urls\t{u}"))).collect();
        counts.skipped_done += total - urls.len() as u64;
        fetch_all(urls, rate, &mut |item| send(item, &mut counts))?;
    }
    Ok(counts)
}

/// A page file's bytes, gunzipped when they are gzip (saved crawls often are), at most `max` of them.
fn read_page(file: &Path, max: u64) -> Result<Vec<u8>, (&'static str, String)> {
    use std::io::Read;
    let too_large = |n: u64| ("too_large", format!("{n} bytes is over --max-record-bytes"));
    let f = std::fs::File::open(file).map_err(|e| ("read", e.to_string()))?;
    let len = f.metadata().map_err(|e| ("read", e.to_string()))?.len();
    if len > max {
        return Err(too_large(len));
    }
    let mut r = BufReader::new(f);
    let gz = r.fill_buf().map_err(|e| ("read", e.to_string()))?.starts_with(&[0x1F, 0x8B]);
    let mut bytes = Vec::new();
    let read = if gz {
        flate2::bufread::MultiGzDecoder::new(r).take(max + 1).read_to_end(&mut bytes)
    } else {
        r.read_to_end(&mut bytes)
    };
    read.map_err(|e| ("read", e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// A path's files: itself, or every file under a directory, sorted (hidden files left out).
fn files_under(p: &Path) -> Vec<PathBuf> {
    if !p.is_dir() {
        return vec![p.to_path_buf()];
    }
    let mut out = Vec::new();
    let mut todo = vec![p.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Send an archive's pages (`pith::batch::warc::classify` decides which records are pages); records
/// that fail are sent as failures, and the rest counted: non-HTML payloads in `not_html`, records that
/// hold no page in `other`.
fn read_warc(
    file: &Path,
    max: u64,
    send: &mut dyn FnMut(Item) -> bool,
    (not_html, other): (&mut u64, &mut u64),
) -> Result<(), pith::Error> {
    let name = file.display().to_string();
    let reader = match pith::batch::warc::open(file, max) {
        Ok(r) => r,
        Err(e) => {
            let origin = Origin { file: name.clone(), uri: name, record_id: None, digest: None };
            send(Item::Failed { origin, kind: "warc", message: e.to_string() });
            return Ok(());
        }
    };
    for (n, rec) in reader.enumerate() {
        let mut rec = match rec {
            Ok(r) => r,
            Err(e) => {
                let origin =
                    Origin { file: name.clone(), uri: format!("{name}#record-{n}"), record_id: None, digest: None };
                send(Item::Failed { origin, kind: "warc", message: e.to_string() });
                return Ok(());
            }
        };
        let origin = |rec: &Record| Origin {
            file: name.clone(),
            uri: rec.target_uri.clone().unwrap_or_else(|| format!("{name}#record-{n}")),
            record_id: rec.record_id.clone(),
            digest: rec.digest.clone(),
        };
        let item = match classify(&mut rec, max) {
            RecordPage::Other => {
                *other += 1;
                continue;
            }
            RecordPage::NotHtml => {
                *not_html += 1;
                continue;
            }
            RecordPage::Page(page) => {
                Item::Page { origin: origin(&rec), bytes: page.body, url: rec.target_uri, charset: page.charset }
            }
            RecordPage::Oversize(len) => Item::Failed {
                origin: origin(&rec),
                kind: "too_large",
                message: format!("record of {len} bytes is over --max-record-bytes"),
            },
            RecordPage::NoResponse => {
                Item::Failed { origin: origin(&rec), kind: "http", message: "the record holds no HTTP response".into() }
            }
            RecordPage::NotOk(status) => Item::Failed {
                origin: origin(&rec),
                kind: "origin_status",
                message: format!("the origin answered {status}"),
            },
        };
        if !send(item) {
            return Ok(());
        }
    }
    Ok(())
}

/// Fetch the URLs with the service's fetcher, a few at a time and at most `rate` starts per second.
fn fetch_all(urls: Vec<String>, rate: f64, send: &mut dyn FnMut(Item) -> bool) -> Result<(), pith::Error> {
    use futures_util::StreamExt;
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
                let origin = Origin { file: "urls".into(), uri: u.clone(), record_id: None, digest: None };
                let parsed = match url::Url::parse(&u) {
                    Ok(p) => p,
                    Err(e) => return Item::Failed { origin, kind: "bad_url", message: e.to_string() },
                };
                match fetcher.fetch(&parsed).await {
                    Ok(f) => Item::Page { origin, bytes: f.body, url: Some(f.info.final_url), charset: f.charset },
                    Err(e) => Item::Failed { origin, kind: e.outcome(), message: e.to_string() },
                }
            })
            .buffer_unordered(8);
        while let Some(item) = results.next().await {
            if !send(item) {
                break;
            }
        }
    });
    Ok(())
}
