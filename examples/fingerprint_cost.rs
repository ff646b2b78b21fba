//! What `content.fingerprint` costs next to the extraction it comes with, over labelled datasets:
//!
//! ```sh
//! cargo run --release --example fingerprint_cost -- ../shared/datasets/wcxb-dev ../shared/datasets/zh-gne
//! ```
//!
//! Every page is extracted with `auto`'s defaults and its text fingerprinted, each the fastest of three
//! runs on one thread; the totals, the fingerprint's share of the extraction time and its per-page
//! quantiles are printed. (The extraction's own time already includes one fingerprint: the share is
//! what it adds to a page.)

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

fn fastest_of_three<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..3 {
        let t = Instant::now();
        let v = black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(v);
    }
    (best, out.expect("three runs"))
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let engine = pith::Engine::with_defaults()?;
    let (mut extraction, mut fingerprint, mut words) = (Vec::new(), Vec::new(), 0);
    for dir in std::env::args().skip(1) {
        let ds = pith::lab::dataset::Dataset::open(Path::new(&dir))?;
        for page in &ds.pages {
            let bytes = ds.html(page)?;
            let (e, result) = fastest_of_three(|| engine.extract(&pith::Request::new(&bytes)));
            let text = result?.content.text;
            let (f, _) = fastest_of_three(|| pith::fingerprint(black_box(&text)));
            words += text.split_whitespace().count();
            extraction.push(e);
            fingerprint.push(f);
        }
    }
    let n = extraction.len();
    if n == 0 {
        return Err("no pages: name one or more dataset directories".into());
    }
    let total_e: f64 = extraction.iter().sum();
    let total_f: f64 = fingerprint.iter().sum();
    let mut share: Vec<f64> = extraction.iter().zip(&fingerprint).map(|(e, f)| f / e).collect();
    share.sort_by(f64::total_cmp);
    fingerprint.sort_by(f64::total_cmp);
    println!("{n} pages, {words} whitespace-separated words of text");
    println!("extraction: {:.1} ms in all, {:.3} ms per page", total_e * 1e3, total_e * 1e3 / n as f64);
    println!(
        "fingerprint: {:.1} ms in all, {:.4} ms per page; median {:.4} ms, p95 {:.4} ms",
        total_f * 1e3,
        total_f * 1e3 / n as f64,
        quantile(&fingerprint, 0.5) * 1e3,
        quantile(&fingerprint, 0.95) * 1e3
    );
    println!(
        "fingerprint over extraction: {:.2}% of the total; per page median {:.2}%, p95 {:.2}%",
        100.0 * total_f / total_e,
        100.0 * quantile(&share, 0.5),
        100.0 * quantile(&share, 0.95)
    );
    Ok(())
}
