//! Memory of the site-template stores with many sites: `pith batch --site-templates`'s store and the
//! service's (`[site_templates]`), each filled with synthetic sites, against their bounds.
//!
//! ```sh
//! cargo run --release --example site_templates_memory -- 100000 5
//! ```
//!
//! Arguments: sites (default 100,000) and pages learned per site (default 5). Every page has 150
//! blocks: 40 the site repeats on every page (its menu, lists, footer) and 110 of its own, which is
//! the shape of a news page. Printed per store: sites kept, the bytes the store accounts for, and the
//! process's resident memory before and after (`VmRSS`, `VmHWM` from /proc/self/status), with the
//! stores' default bounds and with bounds raised to hold every site.

use std::time::Instant;

use pith::configuration::SiteTemplatesConfig;
use pith::site::PageSignatures;

const CHROME: u64 = 40;
const OWN: u64 = 110;

fn page(site: u64, page: u64) -> PageSignatures {
    let chrome = (0..CHROME).map(|k| site.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k);
    let own = (0..OWN).map(|k| site.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ (page << 20) ^ (k + 1_000));
    // Chrome around the page's own blocks, as on a page.
    let in_order: Vec<u64> = chrome.clone().take(20).chain(own).chain(chrome.skip(20)).collect();
    PageSignatures::new(&in_order)
}

/// (VmRSS, VmHWM) in MiB.
fn resident_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(f64::NAN, |kib| kib / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn batch_store(sites: u64, pages: u64, max_mib: usize) {
    let (rss0, _) = resident_mib();
    let t0 = Instant::now();
    let mut store = pith::site::SiteStore::new(usize::MAX, max_mib << 20);
    for p in 0..pages {
        for s in 0..sites {
            store.learn(&format!("site{s}.example"), &page(s, p));
        }
    }
    let (rss_learned, _) = resident_mib();
    let learned_bytes = store.memory_bytes();
    store.compact();
    let (rss, hwm) = resident_mib();
    println!(
        "batch store, --site-templates-mib {max_mib}: {} sites kept of {sites}, {:.1} MiB accounted while learning, \
         {:.1} MiB after compaction; RSS {rss0:.0} -> {rss_learned:.0} MiB learning, {rss:.0} MiB after, peak {hwm:.0} MiB ({:.1} s)",
        store.len(),
        learned_bytes as f64 / 1048576.0,
        store.memory_bytes() as f64 / 1048576.0,
        t0.elapsed().as_secs_f64()
    );
}

fn service_store(sites: u64, pages: u64, max_sites: u64, max_mib: u64) {
    let runtime = match tokio::runtime::Builder::new_current_thread().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("no runtime: {e}");
            return;
        }
    };
    runtime.block_on(async {
        let (rss0, _) = resident_mib();
        let t0 = Instant::now();
        let cfg = SiteTemplatesConfig { enabled: true, max_sites, max_mib, ttl_secs: 86_400 };
        let store = pith::server::site_templates::SiteTemplateCache::new(&cfg);
        for p in 0..pages {
            for s in 0..sites {
                let site = format!("site{s}.example");
                if let Some(slot) = store.get_or_create(&site).await {
                    let seen = slot.pages();
                    store.learn(&site, &slot, &page(s, p), seen).await;
                }
            }
        }
        let (kept, bytes) = store.usage().await;
        let (rss, hwm) = resident_mib();
        println!(
            "service store, max_sites {max_sites}, max_mib {max_mib}: {kept} sites kept of {sites}, \
             {:.1} MiB weighed; RSS {rss0:.0} -> {rss:.0} MiB, peak {hwm:.0} MiB ({:.1} s)",
            bytes as f64 / 1048576.0,
            t0.elapsed().as_secs_f64()
        );
    });
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sites = args.first().copied().unwrap_or(100_000);
    let pages = args.get(1).copied().unwrap_or(5);
    println!("{sites} sites, {pages} pages each, {} blocks a page ({CHROME} repeated on every page)", CHROME + OWN);
    match std::env::var("STORE").as_deref() {
        Ok("batch") => batch_store(sites, pages, 512),
        Ok("batch-all") => batch_store(sites, pages, 1 << 20),
        Ok("service") => service_store(sites, pages, 10_000, 256),
        Ok("service-all") => service_store(sites, pages, sites, 1 << 20),
        _ => eprintln!("set STORE to batch, batch-all, service or service-all (one store per process)"),
    }
}
