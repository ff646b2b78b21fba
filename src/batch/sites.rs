//! The first pass of `pith batch --site-templates`: the files and archives read once more, before
//! extraction, to learn each site's template from its first pages. Its own file because it is a
//! second pipeline (reader, gate, workers, learner) beside extraction's, sharing only the reader.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Instant;

use super::item::Item;
use super::read::{Feed, read_files};
use super::run::each;
use crate::engine::{Engine, Request};
use crate::error::Error;
use crate::site::{MIN_SITE_PAGES, PageSignatures, SiteStore, registered_domain};

/// How much the first pass learns.
#[derive(Debug, Clone, Copy)]
pub struct SiteLimits {
    /// Pages learned per site at most (`--site-pages`).
    pub site_pages: usize,
    /// Memory for the templates, in MiB (`--site-templates-mib`); a quarter of it more holds pages
    /// waiting for their site's next ones, and the sites counted are bounded by it too.
    pub mib: usize,
}

/// What the first pass learned, for its summary line.
#[derive(Debug, Clone, Copy)]
pub struct Learned {
    /// Sites with a template.
    pub sites: usize,
    /// Pages learned, of `pages` parsed.
    pub learned: u64,
    pub pages: u64,
    /// Bytes the templates hold.
    pub bytes: usize,
    /// Pages held so long for their site's next pages that they were dropped unlearned, of sites that
    /// later had enough pages to be learned.
    pub lost: u64,
    pub seconds: f64,
}

/// A page to learn from: its site, bytes, address and declared charset.
struct ToLearn {
    site: String,
    bytes: Vec<u8>,
    url: String,
    charset: Option<String>,
}

/// The first pass of `--site-templates`: every page of the files and archives read again in order,
/// the first `site_pages` pages of each site learned with `jobs` workers. Memory is the templates'
/// (bounded by `limits.mib`) and the gate's (see [`gate`]) whatever the archive's size.
pub fn learn_sites(
    engine: &Engine,
    files: &[PathBuf],
    max_record_bytes: u64,
    jobs: usize,
    limits: SiteLimits,
) -> Result<(SiteStore, Learned), Error> {
    let t0 = Instant::now();
    let jobs = jobs.max(1);
    let (page_tx, page_rx) = sync_channel::<Item>(jobs * 2);
    let (learn_tx, learn_rx) = sync_channel::<ToLearn>(jobs * 2);
    let (sig_tx, sig_rx) = sync_channel::<(String, PageSignatures)>(jobs * 4);
    let gate_limits = GateLimits {
        site_pages: limits.site_pages,
        max_sites: (limits.mib << 20) / 256,
        held_bytes: (limits.mib << 20) / 4,
    };
    let learn_rx = std::sync::Mutex::new(learn_rx);
    let mut templates = SiteStore::new(usize::MAX, limits.mib << 20);
    let (mut learned, mut pages) = (0u64, 0u64);
    let lost = std::thread::scope(|s| {
        let reader = s.spawn(move || {
            let none = HashSet::new();
            let mut send = |item: Item| page_tx.send(item).is_ok();
            read_files(files, max_record_bytes, &mut Feed::new(&none, &mut send));
        });
        let gate = s.spawn(move || gate(page_rx, learn_tx, gate_limits));
        for _ in 0..jobs {
            let (rx, tx) = (&learn_rx, sig_tx.clone());
            s.spawn(move || {
                each(rx, |page: ToLearn| {
                    let req =
                        Request { url: Some(&page.url), charset: page.charset.as_deref(), ..Request::new(&page.bytes) };
                    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.page_signatures(&req))) {
                        Ok(Ok(sig)) => tx.send((page.site, sig)).is_ok(),
                        _ => true,
                    }
                })
            });
        }
        drop(sig_tx);
        for (site, sig) in sig_rx {
            pages += 1;
            learned += u64::from(templates.learn(&site, &sig));
        }
        reader.join().map_err(|_| Error::Config("the input reader panicked".into()))?;
        gate.join().map_err(|_| Error::Config("the site-template gate panicked".into()))
    })?;
    templates.compact();
    let summary = Learned {
        sites: templates.len(),
        learned,
        pages,
        bytes: templates.memory_bytes(),
        lost,
        seconds: t0.elapsed().as_secs_f64(),
    };
    Ok((templates, summary))
}

struct GateLimits {
    /// Pages learned per site at most (`--site-pages`).
    site_pages: usize,
    /// Sites counted at most.
    max_sites: usize,
    /// Bytes of pages held at most.
    held_bytes: usize,
}

/// Between the reader and the workers: which pages are parsed to learn from. A site needs
/// `MIN_SITE_PAGES` pages before its template can change any answer, so a site's first pages
/// are held (not parsed) until it has that many, then all go to the workers; a site that never gets
/// there (most sites of a broad crawl have one or two pages) costs no parse at all. Held pages are
/// bounded in bytes: when the bound is reached the oldest are dropped unlearned (their site is still
/// learned from its later pages), which only archives of many sites interleaved page by page reach.
/// Sites are counted by a hash of their name, at most `max_sites` of them. Returns the pages dropped
/// whose site later had enough pages to be learned.
fn gate(pages: Receiver<Item>, learn: SyncSender<ToLearn>, limits: GateLimits) -> u64 {
    let needed = MIN_SITE_PAGES;
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut held: HashMap<u64, Vec<(u64, ToLearn)>> = HashMap::new();
    let mut order: VecDeque<(u64, u64)> = VecDeque::new();
    let mut dropped: HashMap<u64, u64> = HashMap::new();
    let (mut held_bytes, mut serial) = (0usize, 0u64);
    let lost = |seen: &HashMap<u64, usize>, dropped: &HashMap<u64, u64>| {
        dropped.iter().filter(|(k, _)| seen.get(k).is_some_and(|&n| n >= needed)).map(|(_, n)| n).sum()
    };
    for item in pages {
        let Item::Page { bytes, url: Some(url), charset, .. } = item else { continue };
        let Some(site) = registered_domain(&url) else { continue };
        let key = site_key(&site);
        if seen.len() >= limits.max_sites && !seen.contains_key(&key) {
            continue;
        }
        let n = seen.entry(key).or_default();
        *n += 1;
        if *n > limits.site_pages {
            continue;
        }
        let page = ToLearn { site, bytes, url, charset };
        if *n < needed {
            serial += 1;
            held_bytes += page.bytes.len();
            order.push_back((key, serial));
            held.entry(key).or_default().push((serial, page));
            while held_bytes > limits.held_bytes {
                let Some((old_key, old_serial)) = order.pop_front() else { break };
                if let Some(list) = held.get_mut(&old_key)
                    && let Some(at) = list.iter().position(|(s, _)| *s == old_serial)
                {
                    held_bytes -= list.remove(at).1.bytes.len();
                    *dropped.entry(old_key).or_default() += 1;
                    if list.is_empty() {
                        held.remove(&old_key);
                    }
                }
            }
            continue;
        }
        for (_, earlier) in held.remove(&key).unwrap_or_default() {
            held_bytes -= earlier.bytes.len();
            if learn.send(earlier).is_err() {
                return lost(&seen, &dropped);
            }
        }
        if learn.send(page).is_err() {
            return lost(&seen, &dropped);
        }
    }
    lost(&seen, &dropped)
}

/// A site's name as a 64-bit hash: the gate's counts need no name, and a hash costs the same for
/// every site.
fn site_key(site: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(site)
}
