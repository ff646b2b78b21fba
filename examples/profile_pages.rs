//! Instruction counts of `auto` against the bare parse, page by page, under callgrind: what `pith
//! bench` times, without the machine's noise and without the first-use tables a warm service has
//! already built.
//!
//! ```sh
//! cargo build --release --example profile_pages
//! valgrind --tool=callgrind --toggle-collect='profile_pages::measured' \
//!     target/release/examples/profile_pages PAGE.html[.gz] [URL] ...
//! callgrind_annotate --inclusive=yes callgrind.out.*
//! PROFILE_TIMED=40 target/release/examples/profile_pages PAGE.html.gz ...   # without callgrind
//! ```
//!
//! With `PROFILE_TIMED=N` (and no callgrind) each page's line gives the minimum wall-clock
//! milliseconds of N runs of the parse and of `auto` and their ratio: instructions and time do not
//! agree (on fifteen zh-cwce pages, 2026-11-30, `auto` was 1.74x the parse in instructions and 2.03x
//! in summed time), so a change is judged by both. This binary uses the system allocator, not the
//! `pith` binary's jemalloc.
//!
//! Each page is extracted once untimed (every first-use table is built then), then the bare parse
//! (`scraper` on the decoded text, as `pith bench`'s `parse` row) and `auto` with `pith bench`'s
//! request (text only) run once each inside `measured`, the one function callgrind collects (named
//! exactly: a pattern that also matches its callees would toggle collection off inside them); their
//! shares are told apart by `measured_parse` and `measured_auto` in the profile.

use std::hint::black_box;
use std::io::Read;

#[inline(never)]
fn measured_parse(text: &str) -> usize {
    black_box(scraper::Html::parse_document(text)).tree.nodes().count()
}

#[inline(never)]
fn measured_auto(engine: &pith::Engine, req: &pith::Request<'_>) -> bool {
    black_box(engine.extract(req)).is_ok()
}

#[inline(never)]
fn measured(engine: &pith::Engine, req: &pith::Request<'_>, text: &str) -> (usize, bool) {
    (measured_parse(text), measured_auto(engine, req))
}

fn read(path: &str) -> std::io::Result<Vec<u8>> {
    let raw = std::fs::read(path)?;
    if !path.ends_with(".gz") {
        return Ok(raw);
    }
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out)?;
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        return Err("usage: profile_pages PAGE.html[.gz] [URL] ...".into());
    }
    // `PROFILE_TIMED=N`: also print each page's minimum wall-clock milliseconds over N runs of the
    // parse and of `auto` (outside callgrind: how instructions and time compare).
    let timed: usize = std::env::var("PROFILE_TIMED").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let engine = pith::Engine::with_defaults()?;
    let options = pith::Options { html: false, blocks: false, ..Default::default() };
    let mut i = 0;
    while i < args.len() {
        let path = &args[i];
        let bytes = read(path)?;
        let url = args.get(i + 1).filter(|u| u.contains("://")).map(String::as_str);
        i += if url.is_some() { 2 } else { 1 };
        let text = pith::internals::decode(&bytes, None)?.text;
        let req = pith::Request { url, ..pith::Request::with_options(&bytes, options) };
        drop(black_box(engine.extract(&req)));
        black_box(scraper::Html::parse_document(&text));
        black_box(measured(&engine, &req, &text));
        if timed > 0 {
            let min = |f: &mut dyn FnMut()| {
                (0..timed)
                    .map(|_| {
                        let t = std::time::Instant::now();
                        f();
                        t.elapsed().as_secs_f64() * 1000.0
                    })
                    .fold(f64::INFINITY, f64::min)
            };
            let p = min(&mut || {
                black_box(measured_parse(&text));
            });
            let a = min(&mut || {
                black_box(measured_auto(&engine, &req));
            });
            println!("{path}\t{p:.3}\t{a:.3}\t{:.2}", a / p);
        }
    }
    Ok(())
}
