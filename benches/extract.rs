//! `cargo bench --bench extract`: the bare html5ever parse (the floor) against every algorithm end to
//! end, over the real pages shipped in `benches/pages/` (see its README for their origin).
//!
//! Criterion times each (page, measure) pair; a closing summary then prints, per measure, the ratio of
//! its time to the bare parse of the same page (minimum of 30 interleaved runs per page), which is the
//! figure issue 7's goal is stated in: `auto` with blocks ≤ 1.3×, every other algorithm ≤ 1.5×.

use std::hint::black_box;
use std::io::Read;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use pith::{Engine, Options, Request};
use scraper::Html;

/// A shipped page: file name, raw bytes and decoded text.
struct Page {
    name: String,
    bytes: Vec<u8>,
    text: String,
}

fn pages() -> Vec<Page> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/pages");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("benches/pages")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let mut bytes = Vec::new();
            flate2::read::MultiGzDecoder::new(std::fs::File::open(&p).expect("page"))
                .read_to_end(&mut bytes)
                .expect("gunzip");
            let text = pith::internals::decode(&bytes, None).expect("decode").text.into_owned();
            let name = p.file_name().unwrap().to_string_lossy().trim_end_matches(".html.gz").to_string();
            Page { name, bytes, text }
        })
        .collect()
}

/// Every measure: `parse`, each algorithm without HTML and blocks, and `auto+blocks`.
fn measures() -> Vec<&'static str> {
    let mut m = vec!["parse"];
    m.extend(pith::lab::eval::all_algorithms().into_iter().map(|a| a.name()));
    m.insert(2, "auto+blocks");
    m
}

fn run(engine: &Engine, measure: &str, page: &Page) {
    match measure {
        "parse" => {
            black_box(Html::parse_document(&page.text));
        }
        m => {
            let (algorithm, want_blocks) = if m == "auto+blocks" { ("auto", true) } else { (m, false) };
            let algorithm = algorithm.parse().expect("a known algorithm");
            let options = Options { html: false, blocks: want_blocks, ..Options::for_algorithm(algorithm) };
            let req = Request::with_options(&page.bytes, options);
            black_box(engine.extract(&req).expect("extract"));
        }
    }
}

fn bench(c: &mut Criterion, engine: &Engine, pages: &[Page]) {
    for page in pages {
        let mut g = c.benchmark_group(format!("{} ({} KB)", page.name, page.bytes.len() / 1024));
        for m in measures() {
            g.bench_with_input(BenchmarkId::from_parameter(m), page, |b, p| b.iter(|| run(engine, m, p)));
        }
        g.finish();
    }
}

/// Ratio of each measure to the bare parse, per page and as a median over pages.
fn summary(engine: &Engine, pages: &[Page]) {
    const RUNS: usize = 30;
    let ms = measures();
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); ms.len()];
    println!("\nratio to the bare html5ever parse (minimum of {RUNS} interleaved runs per page)");
    print!("{:<28}", "page");
    for m in &ms {
        print!(" {m:>12}");
    }
    println!();
    for page in pages {
        let mut best = vec![f64::INFINITY; ms.len()];
        for _ in 0..RUNS {
            for (k, m) in ms.iter().enumerate() {
                let t = Instant::now();
                run(engine, m, page);
                best[k] = best[k].min(t.elapsed().as_secs_f64());
            }
        }
        print!("{:<28}", format!("{} {:.2}ms", page.name, best[0] * 1000.0));
        for k in 0..ms.len() {
            let r = best[k] / best[0];
            ratios[k].push(r);
            print!(" {r:>12.2}");
        }
        println!();
    }
    print!("{:<28}", "median");
    for r in &ratios {
        print!(" {:>12.2}", pith::lab::bench::quantile(r, 0.5));
    }
    println!();
}

fn main() {
    let engine = Engine::with_defaults().expect("engine");
    let pages = pages();
    // Short defaults (77 benchmarks); `cargo bench -- --measurement-time 5` and the like override them.
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    bench(&mut c, &engine, &pages);
    c.final_summary();
    if !std::env::args().any(|a| a == "--list" || a == "--test") {
        summary(&engine, &pages);
    }
}
