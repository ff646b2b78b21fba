//! The service's site templates (`[site_templates]`, off by default): each site's template, learned
//! from the pages this process extracts, so that `auto` leaves out what the site repeats on its pages
//! (see `algorithms::contract::site_template`).
//!
//! Each replica learns on its own, from the pages it happens to be sent: nothing is shared between
//! replicas or kept across restarts, so behind a load balancer every replica reaches a site's template
//! after a few of the site's pages of its own. What is kept is hashes of blocks and counts, never page
//! text, so the store holds nothing a caller sent that another could read back.
//!
//! The store is a moka cache, site → slot, bounded in sites and in bytes by one weigher (every
//! template weighs at least its share of the byte budget, see [`SiteTemplates::new`]), with a time to
//! live counted from a template's last learned page, so a site that changed its chrome is learned
//! again.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use moka::future::Cache;

use crate::algorithms::contract::site_template::{MAX_PAGES, PageSignatures, SiteTemplate};
use crate::configuration::SiteTemplatesConfig;

/// One site's template. Extraction reads a snapshot (`Arc` clone, taken under the lock and used
/// without it), so an extraction of seconds never holds back another page of the site; learning swaps
/// in a copy when snapshots are out (`Arc::make_mut`), at most [`MAX_PAGES`] times per site.
#[derive(Debug, Default)]
pub struct SiteSlot {
    template: Mutex<Arc<SiteTemplate>>,
}

impl SiteSlot {
    /// The template as it is now.
    pub fn snapshot(&self) -> Arc<SiteTemplate> {
        self.template.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Pages learned so far.
    pub fn pages(&self) -> usize {
        self.template.lock().unwrap_or_else(PoisonError::into_inner).pages()
    }

    /// Learn a page that was extracted with a snapshot of `seen` pages. Returns the page count under
    /// which that page's answer holds now: the page's own blocks are never evidence about it, so a
    /// template that has learned this page alone since the snapshot answers it as the snapshot did.
    /// When other pages were learned in between, the snapshot's count (which no later lookup finds).
    fn learn(&self, page: &PageSignatures, seen: usize) -> (bool, usize) {
        let mut t = self.template.lock().unwrap_or_else(PoisonError::into_inner);
        let before = t.pages();
        let learned = before < MAX_PAGES && !t.has_learned(page.digest) && Arc::make_mut(&mut *t).learn(page);
        if learned && t.pages() == MAX_PAGES {
            // Learning is over: keep only the signatures an answer can use.
            Arc::make_mut(&mut *t).compact();
        }
        (learned, if before == seen { t.pages() } else { seen })
    }

    fn memory_bytes(&self) -> usize {
        self.template.lock().unwrap_or_else(PoisonError::into_inner).memory_bytes()
    }
}

pub struct SiteTemplates {
    inner: Option<Cache<String, Arc<SiteSlot>>>,
}

impl SiteTemplates {
    /// The store `cfg` asks for (none when disabled). moka bounds by one measure, so sites and bytes
    /// are bounded together: the capacity is `max_mib` in bytes, and every template weighs its bytes
    /// but at least `max_mib / max_sites`, so no more than `max_sites` fit either.
    pub fn new(cfg: &SiteTemplatesConfig) -> SiteTemplates {
        let inner = cfg.enabled.then(|| {
            let capacity = cfg.max_mib.saturating_mul(1 << 20);
            let floor = capacity / cfg.max_sites.max(1);
            Cache::builder()
                .max_capacity(capacity)
                .weigher(move |site: &String, slot: &Arc<SiteSlot>| {
                    let bytes = (site.len() + 64 + slot.memory_bytes()) as u64;
                    u32::try_from(bytes.max(floor)).unwrap_or(u32::MAX)
                })
                .time_to_live(Duration::from_secs(cfg.ttl_secs))
                .build()
        });
        SiteTemplates { inner }
    }

    pub fn enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// The site's slot, when it has one.
    pub async fn get(&self, site: &str) -> Option<Arc<SiteSlot>> {
        self.inner.as_ref()?.get(site).await
    }

    /// The site's slot, made empty when it has none (`None` when the store is disabled).
    pub async fn get_or_create(&self, site: &str) -> Option<Arc<SiteSlot>> {
        Some(self.inner.as_ref()?.get_with_by_ref(site, async { Arc::new(SiteSlot::default()) }).await)
    }

    /// Learn `page` into `site`'s slot (see [`SiteSlot::learn`] for the count returned), and weigh the
    /// slot again when it grew.
    pub async fn learn(&self, site: &str, slot: &Arc<SiteSlot>, page: &PageSignatures, seen: usize) -> usize {
        let (learned, pages) = slot.learn(page, seen);
        if learned && let Some(c) = &self.inner {
            // moka weighs an entry when it is written: writing it again counts what it learned.
            c.insert(site.to_string(), slot.clone()).await;
        }
        pages
    }

    /// (sites, weighted bytes), for `/metrics`.
    pub async fn usage(&self) -> (u64, u64) {
        super::cache::usage(self.inner.as_ref()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(max_sites: u64, max_mib: u64) -> SiteTemplatesConfig {
        SiteTemplatesConfig { enabled: true, max_sites, max_mib, ttl_secs: 3600 }
    }

    fn page(k: u64) -> PageSignatures {
        PageSignatures::new(&[1, 2, 3, 100 + k])
    }

    #[tokio::test]
    async fn counts_hold_for_the_page_learned_and_sites_are_bounded() {
        let store = SiteTemplates::new(&config(3, 1));
        let slot = store.get_or_create("a.example").await.unwrap();
        assert_eq!(store.learn("a.example", &slot, &page(1), 0).await, 1);
        assert_eq!(store.learn("a.example", &slot, &page(1), 1).await, 1, "a page learned again changes nothing");
        // Another page was learned after this one's snapshot: its answer holds for no current count.
        let stale = slot.snapshot().pages();
        assert_eq!(store.learn("a.example", &slot, &page(2), stale).await, 2);
        assert_eq!(store.learn("a.example", &slot, &page(3), stale).await, stale);
        assert_eq!(slot.pages(), 3);
        for site in 0..20 {
            let name = format!("s{site}.example");
            let s = store.get_or_create(&name).await.unwrap();
            store.learn(&name, &s, &page(site), 0).await;
        }
        let (sites, _) = store.usage().await;
        assert!(sites <= 3, "{sites} sites kept");
    }

    #[tokio::test]
    async fn disabled_stores_nothing() {
        let store = SiteTemplates::new(&SiteTemplatesConfig { enabled: false, ..config(3, 1) });
        assert!(!store.enabled());
        assert!(store.get_or_create("a.example").await.is_none());
    }
}
