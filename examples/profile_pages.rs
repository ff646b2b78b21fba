//! Instruction counts of `auto` against the bare parse, page by page, under callgrind: what `pith
//! bench` times, without the machine's noise and without the first-use tables a warm service has
//! already built.
//!
//! ```sh
//! cargo build --release --example profile_pages
//! valgrind --tool=callgrind --toggle-collect='profile_pages::measured' \
//!     target/release/examples/profile_pages PAGE.html[.gz] [URL] ...
//! callgrind_annotate --inclusive=yes callgrind.out.*
//! ```
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
    let engine = pith::Engine::with_defaults()?;
    let options = pith::Options { html: false, blocks: false, ..Default::default() };
    let mut i = 0;
    while i < args.len() {
        let bytes = read(&args[i])?;
        let url = args.get(i + 1).filter(|u| u.contains("://")).map(String::as_str);
        i += if url.is_some() { 2 } else { 1 };
        let text = pith::internals::decode(&bytes, None)?.text;
        let req = pith::Request { url, ..pith::Request::with_options(&bytes, options) };
        drop(black_box(engine.extract(&req)));
        black_box(scraper::Html::parse_document(&text));
        black_box(measured(&engine, &req, &text));
    }
    Ok(())
}
