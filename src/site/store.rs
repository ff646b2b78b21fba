//! Where templates are kept: many sites' templates in one bounded store ([`SiteStore`], what `pith
//! batch --site-templates` and `pith eval --site-context` learn into), one site's template shared
//! between threads that extract with it while others teach it ([`SharedTemplate`], what the service
//! keeps per site), and which site a page belongs to ([`registered_domain`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::template::{MAX_PAGES, PageSignatures, SiteTemplate};

/// The registered domain of an absolute http(s) URL (by the public suffix list): `news.bbc.co.uk` →
/// `bbc.co.uk`. Pages of one registered domain are one site.
pub fn registered_domain(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let host = parsed.host_str()?.trim_end_matches('.');
    Some(psl::domain_str(host).unwrap_or(host).to_string())
}

/// Many sites' templates, bounded in sites and in bytes: what `pith batch --site-templates` learns in
/// its first pass. A site beyond the bounds gets no template (its pages are extracted on their own).
#[derive(Debug)]
pub struct SiteStore {
    sites: HashMap<String, SiteTemplate>,
    max_sites: usize,
    max_bytes: usize,
    bytes: usize,
}

impl SiteStore {
    pub fn new(max_sites: usize, max_bytes: usize) -> SiteStore {
        SiteStore { sites: HashMap::new(), max_sites, max_bytes, bytes: 0 }
    }

    /// Learn one page of `site`; false when the bounds refuse a new site or the template is full.
    pub fn learn(&mut self, site: &str, page: &PageSignatures) -> bool {
        if !self.sites.contains_key(site) && (self.sites.len() >= self.max_sites || self.bytes >= self.max_bytes) {
            return false;
        }
        let template = self.sites.entry(site.to_string()).or_default();
        let before = template.memory_bytes();
        let learned = self.bytes < self.max_bytes && template.learn(page);
        self.bytes = (self.bytes + template.memory_bytes()).saturating_sub(before);
        learned
    }

    /// Pages learned of `site` so far.
    pub fn pages(&self, site: &str) -> usize {
        self.sites.get(site).map_or(0, SiteTemplate::pages)
    }

    /// Learning is over: keep only what an answer can use (templates that can change answers, and in
    /// each the signatures that recur).
    pub fn compact(&mut self) {
        self.sites.retain(|_, t| t.can_change_answers());
        for t in self.sites.values_mut() {
            t.compact();
        }
        self.sites.shrink_to_fit();
        self.bytes = self.sites.iter().map(|(k, t)| k.len() + t.memory_bytes()).sum();
    }

    /// The template of `site`, if one was learned.
    pub fn get(&self, site: &str) -> Option<&SiteTemplate> {
        self.sites.get(site)
    }

    /// Sites with a template.
    pub fn len(&self) -> usize {
        self.sites.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sites.is_empty()
    }

    /// Bytes the templates hold, roughly.
    pub fn memory_bytes(&self) -> usize {
        self.bytes
    }
}

/// One site's template, read by extractions while others teach it. An extraction reads a snapshot
/// (an `Arc` clone, taken under the lock and used without it), so an extraction of seconds never holds
/// back another page of the site; learning swaps in a copy when snapshots are out (`Arc::make_mut`),
/// at most [`MAX_PAGES`] times per site.
#[derive(Debug, Default)]
pub struct SharedTemplate {
    template: Mutex<Arc<SiteTemplate>>,
}

impl SharedTemplate {
    /// The template as it is now.
    pub fn snapshot(&self) -> Arc<SiteTemplate> {
        self.template.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Pages learned so far.
    pub fn pages(&self) -> usize {
        self.template.lock().unwrap_or_else(PoisonError::into_inner).pages()
    }

    /// Learn a page that was extracted with a snapshot of `seen` pages. Returns whether it was learned,
    /// and the page count under which that page's answer holds now: the page's own blocks are never
    /// evidence about it, so a template that has learned this page alone since the snapshot answers it
    /// as the snapshot did. When other pages were learned in between, the snapshot's count (which no
    /// later lookup finds).
    pub fn learn(&self, page: &PageSignatures, seen: usize) -> (bool, usize) {
        let mut t = self.template.lock().unwrap_or_else(PoisonError::into_inner);
        let before = t.pages();
        let learned = before < MAX_PAGES && !t.has_learned(page.digest) && Arc::make_mut(&mut *t).learn(page);
        if learned && t.pages() == MAX_PAGES {
            // Learning is over: keep only the signatures an answer can use.
            Arc::make_mut(&mut *t).compact();
        }
        (learned, if before == seen { t.pages() } else { seen })
    }

    /// Bytes held, roughly.
    pub fn memory_bytes(&self) -> usize {
        self.template.lock().unwrap_or_else(PoisonError::into_inner).memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_template_counts_hold_for_the_page_learned() {
        let page = |k: u64| PageSignatures::new(&[1, 2, 3, 100 + k]);
        let slot = SharedTemplate::default();
        assert_eq!(slot.learn(&page(1), 0), (true, 1));
        assert_eq!(slot.learn(&page(1), 1), (false, 1), "a page learned again changes nothing");
        // Another page was learned after this one's snapshot: its answer holds for no current count.
        let stale = slot.snapshot().pages();
        assert_eq!(slot.learn(&page(2), stale), (true, 2));
        assert_eq!(slot.learn(&page(3), stale), (true, stale));
        assert_eq!(slot.pages(), 3);
    }

    #[test]
    fn bounded_with_ten_thousand_sites() {
        let mut all = SiteStore::new(10_000, 64 << 20);
        for site in 0..12_000u64 {
            for page in 0..3u64 {
                let sigs: Vec<u64> = (0..20).map(|k| k + 1000 * page).chain([1, 2, 3]).collect();
                all.learn(&format!("site{site}.example"), &PageSignatures::new(&sigs));
            }
        }
        assert_eq!(all.len(), 10_000, "sites beyond the bound are refused");
        assert!(all.get("site11000.example").is_none());
        let before = all.memory_bytes();
        all.compact();
        assert!(all.memory_bytes() < before / 4, "{} -> {}", before, all.memory_bytes());
        let t = all.get("site5.example").unwrap();
        assert_eq!((t.pages(), t.others_with(1, false), t.others_with(1000, false)), (3, 3, 0));
    }

    #[test]
    fn the_byte_budget_stops_new_sites() {
        let mut all = SiteStore::new(usize::MAX, 100_000);
        for site in 0..1000u64 {
            let sigs: Vec<u64> = (0..300).map(|k| k + site * 1000).collect();
            all.learn(&format!("s{site}"), &PageSignatures::new(&sigs));
        }
        assert!(all.memory_bytes() < 200_000, "{}", all.memory_bytes());
        assert!(all.len() < 1000);
    }
}
