//! The first pass of `pith batch --site-templates`: the files and archives read once more, before
//! extraction, to learn each site's template from its first pages. Its own file because it is a
//! second pipeline (reader, workers, learner) beside extraction's, sharing only the reader.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

use pith::algorithms::contract::site_template::PageSignatures;
use pith::engine::site::{SiteTemplates, registered_domain};

use super::{BatchArgs, Item, read_inputs};

/// The first pass of `--site-templates`: every page of the files and archives read again in order,
/// the first `--site-pages` pages of each site learned. Pages are read twice, never held: memory is
/// the templates' (bounded by `--site-templates-mib`) whatever the archive's size.
pub(super) fn learn(
    engine: &pith::Engine,
    files: &[PathBuf],
    a: &BatchArgs,
    jobs: usize,
) -> Result<SiteTemplates, pith::Error> {
    let t0 = Instant::now();
    let (page_tx, page_rx) = sync_channel::<Item>(jobs * 2);
    let (sig_tx, sig_rx) = sync_channel::<(String, PageSignatures)>(jobs * 4);
    let reader = {
        let (files, max) = (files.to_vec(), a.max_record_bytes);
        std::thread::spawn(move || read_inputs(&files, Vec::new(), max, 0.0, &HashSet::new(), page_tx))
    };
    let page_rx = std::sync::Mutex::new(page_rx);
    // Pages of each site handed to a worker so far: a site's later pages are not parsed at all.
    let claimed: std::sync::Mutex<HashMap<String, usize>> = std::sync::Mutex::new(HashMap::new());
    let mut templates = SiteTemplates::new(usize::MAX, a.site_templates_mib << 20);
    let (mut learned, mut pages) = (0u64, 0u64);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let (rx, tx, claimed) = (&page_rx, sig_tx.clone(), &claimed);
            s.spawn(move || {
                loop {
                    let item = match rx.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    let Ok(Item::Page { bytes, url, charset, .. }) = item else {
                        if item.is_err() {
                            return;
                        }
                        continue;
                    };
                    let Some(site) = url.as_deref().and_then(registered_domain) else { continue };
                    let take = match claimed.lock() {
                        Ok(mut c) => {
                            let n = c.entry(site.clone()).or_default();
                            *n += 1;
                            *n <= a.site_pages
                        }
                        Err(_) => return,
                    };
                    if !take {
                        continue;
                    }
                    let req = pith::Request {
                        url: url.as_deref(),
                        charset: charset.as_deref(),
                        ..pith::Request::new(&bytes)
                    };
                    let signatures =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.page_signatures(&req)));
                    if let Ok(Ok(sig)) = signatures
                        && tx.send((site, sig)).is_err()
                    {
                        return;
                    }
                }
            });
        }
        drop(sig_tx);
        for (site, sig) in sig_rx {
            pages += 1;
            learned += u64::from(templates.learn(&site, &sig));
        }
    });
    reader.join().map_err(|_| pith::Error::Config("the input reader panicked".into()))??;
    templates.compact();
    eprintln!(
        "pith batch: site templates of {} sites learned from {learned} of {pages} pages read ({} KiB) in {:.1} s",
        templates.len(),
        templates.memory_bytes() / 1024,
        t0.elapsed().as_secs_f64()
    );
    Ok(templates)
}
