//! Speed measurement: every algorithm's end-to-end time against the bare html5ever parse of the same
//! page (the floor for a DOM-based extractor on this stack), single-threaded, bytes already in memory.
//!
//! For every page the bytes are decoded once (outside the timings); then, `repeats` times in turn, the
//! bare parse (`scraper::Html::parse_document` of the decoded text) and each algorithm's
//! [`Engine::extract`] (without `content.html` and blocks; `auto+blocks` with blocks) are timed. The
//! per-page figure is the minimum over the repeats (the least disturbed run on a shared machine), and
//! the report gives per algorithm the median and p95 over pages of that time and of its ratio to the
//! parse, with pages/s and MB/s over the whole set.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use scraper::Html;
use serde::Serialize;

use crate::engine::Options;
use crate::lab::dataset::Dataset;
use crate::text::decode;
use crate::{algorithms::Algorithm, engine::Engine, engine::Request, error::Error};

/// The row name of `auto` run with per-block scores reported (the goal row).
pub const AUTO_BLOCKS: &str = "auto+blocks";

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    pub datasets: Vec<PathBuf>,
    /// Algorithm names; [`AUTO_BLOCKS`] is `auto` with blocks on.
    pub algorithms: Vec<String>,
    /// Timed runs per page and measurement (the minimum is kept).
    pub repeats: usize,
    /// Stop after this many pages in total (0: all).
    pub max_pages: usize,
}

/// One algorithm's figures (or the parse's, under the name `parse`).
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub name: String,
    pub pages: usize,
    pub errors: usize,
    pub median_ms: f64,
    pub p95_ms: f64,
    pub mean_ms: f64,
    /// Per-page time divided by the same page's parse time.
    pub median_ratio: f64,
    pub p95_ratio: f64,
    pub pages_per_s: f64,
    pub mb_per_s: f64,
}

/// The whole measurement.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    pub datasets: Vec<String>,
    pub pages: usize,
    pub bytes: u64,
    pub repeats: usize,
    pub parse: Row,
    pub algorithms: Vec<Row>,
    /// Peak resident set size of this process (VmHWM), KiB, when the OS reports it.
    pub peak_rss_kib: Option<u64>,
    /// Every page's timings (`pith bench --per-page`), in the order measured.
    #[serde(skip)]
    pub per_page: Vec<PageTiming>,
}

/// One page's minimum times: the parse's and each algorithm's (in [`BenchReport::algorithms`]' order;
/// `None` where the extraction failed).
#[derive(Debug, Clone, Serialize)]
pub struct PageTiming {
    pub dataset: String,
    pub id: String,
    pub bytes: usize,
    pub parse_ms: f64,
    pub ms: Vec<Option<f64>>,
}

/// Per-page timings, kept for the summary.
struct Samples {
    ms: Vec<f64>,
    ratio: Vec<f64>,
    errors: usize,
    total_ms: f64,
    bytes: u64,
}

impl Samples {
    fn new() -> Self {
        Samples { ms: Vec::new(), ratio: Vec::new(), errors: 0, total_ms: 0.0, bytes: 0 }
    }
}

/// The `q` quantile (0..=1) of `v` by nearest rank; 0 for an empty slice.
pub fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
    s[rank - 1]
}

/// Peak resident set size (VmHWM) in KiB, from `/proc/self/status`.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Minimum wall-clock milliseconds of `f` over `repeats` runs.
fn time_min<T>(repeats: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    best
}

/// What one row measures: an algorithm, and whether blocks are reported.
#[derive(Debug, Clone, Copy)]
struct Measure {
    algorithm: Algorithm,
    blocks: bool,
}

impl Measure {
    fn parse(name: &str) -> Result<Measure, Error> {
        if name == AUTO_BLOCKS {
            return Ok(Measure { algorithm: Algorithm::Auto, blocks: true });
        }
        match name.parse() {
            Ok(algorithm) => Ok(Measure { algorithm, blocks: false }),
            Err(_) => Err(Error::UnknownAlgorithm {
                name: name.to_string(),
                known: format!("{}, {AUTO_BLOCKS}, all", crate::algorithms::names().join(", ")),
            }),
        }
    }

    /// The request the row times.
    fn request<'a>(self, bytes: &'a [u8], url: Option<&'a str>) -> Request<'a> {
        let options = Options { html: false, blocks: self.blocks, ..Options::for_algorithm(self.algorithm) };
        Request { url, ..Request::with_options(bytes, options) }
    }
}

/// Measure `opts.algorithms` over the pages of `opts.datasets`, one page at a time, on this thread.
pub fn run(engine: &Engine, opts: &BenchOptions) -> Result<BenchReport, Error> {
    let measures = opts.algorithms.iter().map(|a| Measure::parse(a)).collect::<Result<Vec<_>, _>>()?;
    let mut parse = Samples::new();
    let mut algos: Vec<Samples> = opts.algorithms.iter().map(|_| Samples::new()).collect();
    let mut names = Vec::new();
    let mut pages = 0usize;
    let mut bytes_total = 0u64;
    let mut per_page = Vec::new();
    'sets: for dir in &opts.datasets {
        let ds = Dataset::open(dir)?;
        names.push(ds.name.clone());
        let left = if opts.max_pages > 0 { opts.max_pages.saturating_sub(pages) } else { usize::MAX };
        crate::lab::progress::phase(&format!("bench {}", ds.name), Some(ds.pages.len().min(left) as u64));
        for page in &ds.pages {
            if opts.max_pages > 0 && pages >= opts.max_pages {
                break 'sets;
            }
            crate::lab::progress::advance(1);
            let bytes = ds.html(page)?;
            if crate::engine::check_input(&bytes, engine.limits.max_input_bytes).is_err() {
                continue;
            }
            let text = decode::decode(&bytes, None)?.text;
            let url = page.url.as_deref();
            // Warm-up: one untimed run of everything, so the first timed run does not pay for page faults.
            black_box(Html::parse_document(&text));
            for m in &measures {
                let _ = black_box(engine.extract(&m.request(&bytes, url)));
            }
            // Interleave: each repeat times the parse and every algorithm once, so a burst of load from
            // another process disturbs all of them alike rather than one.
            let mut p_ms = f64::INFINITY;
            let mut a_ms = vec![f64::INFINITY; opts.algorithms.len()];
            let mut failed = vec![false; opts.algorithms.len()];
            for _ in 0..opts.repeats.max(1) {
                p_ms = p_ms.min(time_min(1, || Html::parse_document(&text)));
                for (k, m) in measures.iter().enumerate() {
                    let req = m.request(&bytes, url);
                    let t = Instant::now();
                    let r = black_box(engine.extract(&req));
                    a_ms[k] = a_ms[k].min(t.elapsed().as_secs_f64() * 1000.0);
                    failed[k] |= r.is_err();
                }
            }
            pages += 1;
            bytes_total += bytes.len() as u64;
            per_page.push(PageTiming {
                dataset: ds.name.clone(),
                id: page.id.clone(),
                bytes: bytes.len(),
                parse_ms: p_ms,
                ms: a_ms.iter().zip(&failed).map(|(&ms, &f)| (!f).then_some(ms)).collect(),
            });
            parse.ms.push(p_ms);
            parse.ratio.push(1.0);
            parse.total_ms += p_ms;
            parse.bytes += bytes.len() as u64;
            for (k, s) in algos.iter_mut().enumerate() {
                if failed[k] {
                    s.errors += 1;
                    continue;
                }
                s.ms.push(a_ms[k]);
                s.ratio.push(if p_ms > 0.0 { a_ms[k] / p_ms } else { 1.0 });
                s.total_ms += a_ms[k];
                s.bytes += bytes.len() as u64;
            }
        }
    }
    let row = |name: &str, s: &Samples| {
        let secs = s.total_ms / 1000.0;
        Row {
            name: name.to_string(),
            pages: s.ms.len(),
            errors: s.errors,
            median_ms: quantile(&s.ms, 0.5),
            p95_ms: quantile(&s.ms, 0.95),
            mean_ms: if s.ms.is_empty() { 0.0 } else { s.total_ms / s.ms.len() as f64 },
            median_ratio: quantile(&s.ratio, 0.5),
            p95_ratio: quantile(&s.ratio, 0.95),
            pages_per_s: if secs > 0.0 { s.ms.len() as f64 / secs } else { 0.0 },
            mb_per_s: if secs > 0.0 { s.bytes as f64 / 1e6 / secs } else { 0.0 },
        }
    };
    Ok(BenchReport {
        datasets: names,
        pages,
        bytes: bytes_total,
        repeats: opts.repeats.max(1),
        parse: row("parse", &parse),
        algorithms: opts.algorithms.iter().zip(&algos).map(|(n, s)| row(n, s)).collect(),
        peak_rss_kib: peak_rss_kib(),
        per_page,
    })
}

/// In-process throughput on one page: `threads` threads each extracting `bytes` over and over for
/// `seconds` with the service's default request (`auto` unless named, text, HTML and blocks). Returns
/// pages per second over all threads.
pub fn throughput(
    engine: &Engine,
    bytes: &[u8],
    algorithm: Algorithm,
    threads: usize,
    seconds: f64,
) -> Result<f64, Error> {
    engine.extract(&Request::with_options(bytes, Options::for_algorithm(algorithm)))?;
    let deadline = std::time::Duration::from_secs_f64(seconds);
    let t0 = Instant::now();
    let done: usize = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut n = 0usize;
                    while t0.elapsed() < deadline {
                        let _ =
                            black_box(engine.extract(&Request::with_options(bytes, Options::for_algorithm(algorithm))));
                        n += 1;
                    }
                    n
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    Ok(done as f64 / t0.elapsed().as_secs_f64())
}

/// A plain-text table of the report.
pub fn table(r: &BenchReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} pages ({:.1} MB) from {}; per page the minimum of {} runs; one thread",
        r.pages,
        r.bytes as f64 / 1e6,
        r.datasets.join(", "),
        r.repeats
    );
    let _ = writeln!(
        out,
        "{:<14} {:>6} {:>10} {:>10} {:>10} {:>10} {:>9} {:>8} {:>6}",
        "measure", "pages", "median ms", "p95 ms", "median ×", "p95 ×", "pages/s", "MB/s", "errors"
    );
    for row in std::iter::once(&r.parse).chain(&r.algorithms) {
        let _ = writeln!(
            out,
            "{:<14} {:>6} {:>10.3} {:>10.3} {:>10.2} {:>10.2} {:>9.0} {:>8.1} {:>6}",
            row.name,
            row.pages,
            row.median_ms,
            row.p95_ms,
            row.median_ratio,
            row.p95_ratio,
            row.pages_per_s,
            row.mb_per_s,
            row.errors
        );
    }
    if let Some(kib) = r.peak_rss_kib {
        let _ = writeln!(out, "peak RSS {:.1} MiB", kib as f64 / 1024.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let v = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.95), 5.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn every_page_is_timed_for_every_algorithm() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("pith-bench-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("html")).unwrap();
        let mut index = String::new();
        for (id, body) in [("a", "<p>One paragraph of text.</p>"), ("b", "<h1>T</h1><p>Another, longer text here.</p>")]
        {
            index += &format!("{{\"id\":\"{id}\",\"url\":null,\"lang\":\"en\",\"has_article\":null,\"gold\":null}}\n");
            let f = std::fs::File::create(dir.join("html").join(format!("{id}.html.gz"))).unwrap();
            let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
            gz.write_all(body.as_bytes()).unwrap();
            gz.finish().unwrap();
        }
        std::fs::write(dir.join("pages.jsonl"), index).unwrap();
        let engine = Engine::with_defaults().unwrap();
        let opts = BenchOptions {
            datasets: vec![dir.clone()],
            algorithms: vec!["auto".into(), "cetd-ds".into()],
            repeats: 1,
            max_pages: 0,
        };
        let report = run(&engine, &opts).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let ids: Vec<&str> = report.per_page.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["a", "b"]);
        for p in &report.per_page {
            assert!(p.parse_ms > 0.0 && p.bytes > 20, "{p:?}");
            assert_eq!(p.ms.len(), 2);
            assert!(p.ms.iter().all(|ms| ms.is_some_and(|ms| ms > 0.0)), "{p:?}");
        }
    }

    #[test]
    fn unknown_algorithm_is_refused() {
        let engine = Engine::with_defaults().unwrap();
        let opts = BenchOptions { datasets: vec![], algorithms: vec!["nope".into()], repeats: 1, max_pages: 0 };
        assert!(matches!(run(&engine, &opts), Err(Error::UnknownAlgorithm { .. })));
    }
}
