//! The site templates an `Extractor` learns as it extracts (`site_templates=True`): what a crawler
//! calling pith in-process needs to get what the service gives with `site_templates.enabled`, a
//! site's menus, hot lists and footer left out of its pages' answers once a few of its pages were
//! seen.
//!
//! The store is the library's own (`pith::site::SiteStore`, the one `pith batch --site-templates`
//! fills), behind a mutex. An extraction works on a copy of its site's template taken
//! under the lock (a few kilobytes, some tens of microseconds at most), so the lock is held for
//! the copy and for learning, never for a parse: threads extracting pages of one site do not wait on
//! each other's pages. A page's own blocks are never evidence about it (the engine checks the page's
//! digest against those the template learned), so a page extracted again answers as before.

use std::sync::{Mutex, PoisonError};

use pith::site::{PageSignatures, SiteStore, SiteTemplate, registered_domain};

/// Sites with a template at most, and the memory of all templates together: the service's defaults
/// (`[site_templates]` in config/default.toml). Past either bound a new site gets no template and
/// its pages are extracted on their own; the sites already learned keep theirs.
pub const MAX_SITES: usize = 10_000;
pub const MAX_BYTES: usize = 256 << 20;

/// Every site's template, learned from the pages extracted with it.
#[derive(Debug)]
pub struct LearnedSites {
    store: Mutex<SiteStore>,
}

impl Default for LearnedSites {
    fn default() -> Self {
        LearnedSites { store: Mutex::new(SiteStore::new(MAX_SITES, MAX_BYTES)) }
    }
}

impl LearnedSites {
    /// The site a page belongs to: the registered domain of its URL (none without an http(s) URL).
    pub fn site_of(url: Option<&str>) -> Option<String> {
        url.and_then(registered_domain)
    }

    /// The site's template as it is now (empty when nothing was learned of it yet).
    pub fn snapshot(&self, site: &str) -> SiteTemplate {
        self.store.lock().unwrap_or_else(PoisonError::into_inner).get(site).cloned().unwrap_or_default()
    }

    /// Learn one page of `site` (a page learned before counts once; a full template learns no more).
    pub fn learn(&self, site: &str, page: &PageSignatures) {
        self.store.lock().unwrap_or_else(PoisonError::into_inner).learn(site, page);
    }

    /// Sites a page was learned of.
    pub fn sites(&self) -> usize {
        self.store.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Pages learned of `site`.
    pub fn pages(&self, site: &str) -> usize {
        self.store.lock().unwrap_or_else(PoisonError::into_inner).pages(site)
    }
}
