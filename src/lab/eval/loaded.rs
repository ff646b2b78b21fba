//! A dataset in memory for a run: its pages' bytes and tokenised gold texts, shared by every algorithm,
//! and with `--site-context` each site's template learned from the set's pages.

use std::path::Path;

use rayon::prelude::*;

use super::metrics::Gold;
use super::options::EngineFor;
use crate::engine::Request;
use crate::error::Error;
use crate::lab::dataset::{Dataset, LabelledPage, site_of};
use crate::site::{MIN_SITE_PAGES, PageSignatures, SiteStore, SiteTemplate};

/// A dataset in memory: page bytes and tokenised gold texts, shared by every algorithm.
pub(super) struct Loaded {
    pub(super) name: String,
    pub(super) pages: Vec<LabelledPage>,
    pub(super) bytes: Vec<Result<Vec<u8>, String>>,
    pub(super) gold: Vec<Option<Gold>>,
    /// With `site_context`: each page's site (`None`: none found).
    pub(super) sites: Vec<Option<String>>,
    /// With `site_context`: the templates of the sites with at least [`MIN_SITE_PAGES`] pages in the set.
    pub(super) templates: SiteStore,
}

impl Loaded {
    /// The template page `k` is extracted with, when its site has one.
    pub(super) fn template(&self, k: usize) -> Option<&SiteTemplate> {
        self.sites.get(k)?.as_deref().and_then(|site| self.templates.get(site))
    }
}

/// Learn the template of every site with at least [`MIN_SITE_PAGES`] pages in the set, from all of
/// them (a page's own blocks are set aside when it is extracted: see `SiteContext`).
pub(super) fn learn_sites(ds: &mut Loaded, engine_for: EngineFor<'_, '_>, pool: &rayon::ThreadPool) {
    let (sites, signatures): (Vec<Option<String>>, Vec<Option<PageSignatures>>) = pool.install(|| {
        (0..ds.pages.len())
            .into_par_iter()
            .map(|k| {
                let page = &ds.pages[k];
                let Ok(bytes) = &ds.bytes[k] else { return (None, None) };
                let (engine, _) = engine_for(&ds.name, page);
                let req = Request { url: page.url.as_deref(), ..Request::new(bytes) };
                (site_of(page, bytes), engine.page_signatures(&req).ok())
            })
            .unzip()
    });
    let mut count: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for s in sites.iter().flatten() {
        *count.entry(s).or_default() += 1;
    }
    let mut templates = SiteStore::new(usize::MAX, usize::MAX);
    for (site, signatures) in sites.iter().zip(&signatures) {
        if let (Some(site), Some(signatures)) = (site, signatures)
            && count.get(site.as_str()).is_some_and(|&n| n >= MIN_SITE_PAGES)
        {
            templates.learn(site, signatures);
        }
    }
    ds.templates = templates;
    ds.sites = sites;
}

pub(super) fn load(dir: &Path, pool: &rayon::ThreadPool, max_pages: Option<usize>) -> Result<Loaded, Error> {
    let mut ds = Dataset::open(dir)?;
    if max_pages.is_some() {
        let keep = spread(ds.pages.len(), max_pages);
        let mut all: Vec<Option<LabelledPage>> = std::mem::take(&mut ds.pages).into_iter().map(Some).collect();
        ds.pages = keep.into_iter().filter_map(|k| all[k].take()).collect();
    }
    let (bytes, gold) = pool.install(|| {
        let bytes: Vec<_> = ds.pages.par_iter().map(|p| ds.html(p).map_err(|e| e.to_string())).collect();
        let gold: Vec<_> = ds.pages.par_iter().map(|p| p.gold.as_deref().map(Gold::new)).collect();
        (bytes, gold)
    });
    let templates = SiteStore::new(0, 0);
    Ok(Loaded { name: ds.name, pages: ds.pages, bytes, gold, sites: Vec::new(), templates })
}

/// The indexes of at most `max` of `n` pages, evenly spread.
pub fn spread(n: usize, max: Option<usize>) -> Vec<usize> {
    match max {
        Some(m) if m < n => (0..m).map(|k| k * n / m).collect(),
        _ => (0..n).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_spread_over_the_set() {
        assert_eq!(spread(10, Some(3)), vec![0, 3, 6]);
        assert_eq!(spread(3, Some(5)), vec![0, 1, 2]);
        assert_eq!(spread(4, None), vec![0, 1, 2, 3]);
    }
}
