//! Site context: which site a page belongs to, and the page as a site's template learns it (see
//! `algorithms::contract::site_template`). Learning is the caller's: `pith batch --site-templates` and
//! `pith eval --site-context` learn from the pages they are given; the engine only says what a page
//! contributes.

use std::collections::HashMap;
use std::time::Instant;

use super::{Engine, Request};
use crate::algorithms::Algorithm;
use crate::algorithms::auto;
use crate::algorithms::contract::site_template::{PageSignatures, SiteTemplate};
use crate::error::Error;
use crate::output::Extraction;

impl Engine {
    /// The page's block signatures, on the page prepared as extraction with `auto` prepares it (its
    /// declarations aside, which no signature reads).
    pub fn page_signatures(&self, req: &Request<'_>) -> Result<PageSignatures, Error> {
        let needs = Algorithm::Auto.needs();
        let preparation = super::Preparation { metadata: false, ..self.preparation(req, needs, None) };
        let page = self.prepare(req.bytes, &preparation)?;
        Ok(auto::page_signatures(&page.doc))
    }

    /// Extract, and give the page's block signatures too, from the same parse: what a service that
    /// learns its sites' templates from the pages it extracts calls, so that learning costs a walk
    /// over the blocks and not a second parse.
    pub fn extract_and_sign(&self, req: &Request<'_>) -> Result<(Extraction, PageSignatures), Error> {
        let t0 = Instant::now();
        let needs = req.options.algorithm.needs();
        if needs.layout {
            return Err(Error::NeedsLayout(req.options.algorithm.to_string()));
        }
        let page = self.prepare(req.bytes, &self.preparation(req, needs, None))?;
        let signatures = auto::page_signatures(&page.doc);
        Ok((self.finish(req, page, None, t0), signatures))
    }
}

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
pub struct SiteTemplates {
    sites: HashMap<String, SiteTemplate>,
    max_sites: usize,
    max_bytes: usize,
    bytes: usize,
}

impl SiteTemplates {
    pub fn new(max_sites: usize, max_bytes: usize) -> SiteTemplates {
        SiteTemplates { sites: HashMap::new(), max_sites, max_bytes, bytes: 0 }
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

    /// Learning is over: keep only what an answer can use (templates of two pages or more, and in each
    /// the signatures that recur).
    pub fn compact(&mut self) {
        self.sites.retain(|_, t| t.pages() >= 2);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_with_ten_thousand_sites() {
        let mut all = SiteTemplates::new(10_000, 64 << 20);
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
        let mut all = SiteTemplates::new(usize::MAX, 100_000);
        for site in 0..1000u64 {
            let sigs: Vec<u64> = (0..300).map(|k| k + site * 1000).collect();
            all.learn(&format!("s{site}"), &PageSignatures::new(&sigs));
        }
        assert!(all.memory_bytes() < 200_000, "{}", all.memory_bytes());
        assert!(all.len() < 1000);
    }
}
