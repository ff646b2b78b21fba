//! Heap bytes one extraction holds at its peak, per page, over the page's size: the per-request
//! memory of a warm service, without the process's fixed share (models, automata, thread stacks) and
//! without the noise of resident-set sizes.
//!
//! ```sh
//! cargo run --release --example peak_heap -- PAGE.html [PAGE.html ...]
//! ```
//!
//! Each page is extracted once to warm every first-use cache, then again with the allocator counting:
//! the figure is the highest count of live bytes during the second call minus the count before it.
//! The request is `pith extract --no-blocks`'s: `auto`, text and HTML, no block scores; with
//! `PEAK_HEAP_BLOCKS=1` it is the service's default (block scores too), as `pith adversarial` measures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        return Err("usage: peak_heap PAGE.html [PAGE.html ...]".into());
    }
    let engine = pith::Engine::with_defaults()?;
    let options = pith::Options { blocks: std::env::var_os("PEAK_HEAP_BLOCKS").is_some(), ..Default::default() };
    // With `PEAK_HEAP_WARM=PAGE`, every first-use cache is warmed on that page instead of on each page
    // itself, so that a heap profiler's global peak (massif's) falls inside the measured extraction.
    if let Ok(warm) = std::env::var("PEAK_HEAP_WARM") {
        let bytes = std::fs::read(warm)?;
        drop(engine.extract(&pith::Request::with_options(&bytes, options))?);
    }
    let warm_each = std::env::var_os("PEAK_HEAP_WARM").is_none();
    let mut ratios = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f)?;
        let req = pith::Request::with_options(&bytes, options);
        if warm_each {
            drop(engine.extract(&req));
        }
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        // A refused page (too complex) counts too: what it held before the refusal is what a hostile
        // page costs.
        let out = engine.extract(&req);
        let peak = PEAK.load(Ordering::Relaxed) - before;
        let outcome = match &out {
            Ok(_) => "",
            Err(e) => e.code(),
        };
        drop(out);
        let ratio = peak as f64 / bytes.len() as f64;
        println!("{ratio:6.2}x {:8} KB peak {:8} KB page  {f} {outcome}", peak / 1024, bytes.len() / 1024);
        ratios.push(ratio);
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    let over = ratios.iter().filter(|r| **r > 4.0).count();
    println!("{} pages: median {median:.2}x, above 4x: {over}, max {:.2}x", ratios.len(), ratios[ratios.len() - 1]);
    Ok(())
}
