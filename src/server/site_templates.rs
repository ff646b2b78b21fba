//! The service's site templates (`[site_templates]`, off by default): each site's template, learned
//! from the pages this process extracts, so that `auto` leaves out what the site repeats on its pages
//! (see `site`).
//!
//! Each replica learns on its own, from the pages it happens to be sent: nothing is shared between
//! replicas or kept across restarts, so behind a load balancer every replica reaches a site's template
//! after a few of the site's pages of its own. What is kept is hashes of blocks and counts, never page
//! text, so the store holds nothing a caller sent that another could read back.
//!
//! The store is a moka cache, site → [`SharedTemplate`] (the `site` module's), bounded in sites and in bytes by one weigher (every
//! template weighs at least its share of the byte budget, see [`SiteTemplateCache::new`]), with a time to
//! live counted from a template's last learned page, so a site that changed its chrome is learned
//! again.

use std::sync::Arc;
use std::time::Duration;

use moka::future::Cache;

use crate::configuration::SiteTemplatesConfig;
use crate::site::{PageSignatures, SharedTemplate};

/// The sites' templates, each a [`SharedTemplate`], in a moka cache.
pub struct SiteTemplateCache {
    inner: Option<Cache<String, Arc<SharedTemplate>>>,
}

impl SiteTemplateCache {
    /// The store `cfg` asks for (none when disabled). moka bounds by one measure, so sites and bytes
    /// are bounded together: the capacity is `max_mib` in bytes, and every template weighs its bytes
    /// but at least `max_mib / max_sites`, so no more than `max_sites` fit either.
    pub fn new(cfg: &SiteTemplatesConfig) -> SiteTemplateCache {
        let inner = cfg.enabled.then(|| {
            let capacity = cfg.max_mib.saturating_mul(1 << 20);
            let floor = capacity / cfg.max_sites.max(1);
            Cache::builder()
                .max_capacity(capacity)
                .weigher(move |site: &String, slot: &Arc<SharedTemplate>| {
                    let bytes = (site.len() + 64 + slot.memory_bytes()) as u64;
                    u32::try_from(bytes.max(floor)).unwrap_or(u32::MAX)
                })
                .time_to_live(Duration::from_secs(cfg.ttl_secs))
                .build()
        });
        SiteTemplateCache { inner }
    }

    pub fn enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// The site's slot, when it has one.
    pub async fn get(&self, site: &str) -> Option<Arc<SharedTemplate>> {
        self.inner.as_ref()?.get(site).await
    }

    /// The site's slot, made empty when it has none (`None` when the store is disabled).
    pub async fn get_or_create(&self, site: &str) -> Option<Arc<SharedTemplate>> {
        Some(self.inner.as_ref()?.get_with_by_ref(site, async { Arc::new(SharedTemplate::default()) }).await)
    }

    /// Learn `page` into `site`'s slot (see [`SharedTemplate::learn`] for the count returned), and weigh the
    /// slot again when it grew.
    pub async fn learn(&self, site: &str, slot: &Arc<SharedTemplate>, page: &PageSignatures, seen: usize) -> usize {
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
    async fn learns_into_the_site_slot_and_bounds_the_sites() {
        let store = SiteTemplateCache::new(&config(3, 1));
        let slot = store.get_or_create("a.example").await.unwrap();
        assert_eq!(store.learn("a.example", &slot, &page(1), 0).await, 1);
        assert_eq!(store.get("a.example").await.map(|s| s.pages()), Some(1));
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
        let store = SiteTemplateCache::new(&SiteTemplatesConfig { enabled: false, ..config(3, 1) });
        assert!(!store.enabled());
        assert!(store.get_or_create("a.example").await.is_none());
    }
}
