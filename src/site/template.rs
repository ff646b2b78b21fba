//! A site's template, learned from its pages: which blocks recur on them (the survey of extraction
//! methods, §1, describes learning a site's template from its pages; here it is done automatically).
//!
//! Pages of one site carry the same channel menu, hot lists, notices and footer; what a site repeats
//! on its pages is its chrome, whatever the language, and what is particular to one page is its
//! content, and what a site repeats by its shape (the same element at the same place, a `来源：X` line
//! whose source changes) is chrome as well. A [`SiteTemplate`] keeps, for each key of a block (its
//! signature: structural path and text with digits masked; its place alone; its place with the text's
//! first or last characters; its text alone; hashed: see `auto`'s `select::site`), on how many of the
//! learned pages it appears. It keeps hashes and counts, never page text, and is bounded: at most [`MAX_PAGES`] pages
//! and [`MAX_SIGNATURES`] signatures, so a template's memory is a few hundred kilobytes at most.
//!
//! It is learned outside the algorithms (by `pith batch --site-templates`, the service, `pith eval
//! --site-context`, `pith extract --site-pages`) and given to them like the layout is: `auto`'s rule
//! `site-template` reads it.

use crate::hash::{Fnv1a, IdMap};

/// Pages a template learns from; later pages of the site are extracted with it but not learned.
/// Fifty pages tell a site's furniture from its content as well as more do, and keep the cost of a
/// site bounded.
pub const MAX_PAGES: usize = 50;

/// Other pages of its site a block must recur on before it counts as the site's: one other page
/// repeating a block is a coincidence or a duplicate, not a template.
pub const MIN_OTHER_PAGES: u32 = 2;

/// Pages a site needs before its template can change any of them: a page and [`MIN_OTHER_PAGES`]
/// others. Whoever learns templates skips sites with fewer.
pub const MIN_SITE_PAGES: usize = MIN_OTHER_PAGES as usize + 1;

/// Keys a template keeps. A page has some hundred blocks of five keys each (see `auto`'s
/// `select::site`), most of them its own content; when the table is full, keys seen on one page only
/// are forgotten first (see [`SiteTemplate::learn`]). At 17 bytes a key, under 256 KiB a site: the
/// number fills a table of 16,384 slots to the load its hash map allows.
pub const MAX_SIGNATURES: usize = 14_336;

/// The blocks of one page, as signatures: what a template learns from, and what it is asked about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageSignatures {
    /// One per block, sorted, without repeats.
    pub signatures: Vec<u64>,
    /// The page's identity: a hash of its block signatures in order. A page learned twice (fetched
    /// again, sent again) counts once, and a page is never its own evidence.
    pub digest: u64,
}

impl PageSignatures {
    /// From the signatures of a page's blocks, in document order.
    pub fn new(in_order: &[u64]) -> PageSignatures {
        PageSignatures::with_keys(in_order, in_order.to_vec())
    }

    /// From the signatures of a page's blocks in document order (its identity) and every key its
    /// blocks give (signatures and the keys of their shape, in any order, repeats allowed).
    pub fn with_keys(in_order: &[u64], mut keys: Vec<u64>) -> PageSignatures {
        keys.sort_unstable();
        keys.dedup();
        PageSignatures { signatures: keys, digest: PageSignatures::digest_of(in_order) }
    }

    /// The digest of a page whose block signatures, in order, are `in_order` (see `digest`): what a
    /// template is asked with, without the sorted set learning needs.
    pub fn digest_of(in_order: &[u64]) -> u64 {
        let mut h = Fnv1a::new();
        for s in in_order {
            h.bytes(s.to_le_bytes());
        }
        h.finish()
    }
}

/// What a site's pages repeat: counts of block signatures over the pages learned.
#[derive(Debug, Clone, Default)]
pub struct SiteTemplate {
    /// The digests of the pages learned, in the order learned.
    pages: Vec<u64>,
    /// Signature → pages it appears on.
    counts: IdMap<u64, u32>,
}

impl SiteTemplate {
    pub fn new() -> SiteTemplate {
        SiteTemplate::default()
    }

    /// Pages learned.
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// Whether the template has learned enough pages to change the answer for a page it has not
    /// learned (one with [`MIN_OTHER_PAGES`] other pages behind it).
    pub fn can_change_answers(&self) -> bool {
        self.pages.len() >= MIN_OTHER_PAGES as usize
    }

    /// Whether the page with this digest is one of those learned.
    pub fn has_learned(&self, digest: u64) -> bool {
        self.pages.contains(&digest)
    }

    /// Learn one page; false when it was learned before or the template is full.
    pub fn learn(&mut self, page: &PageSignatures) -> bool {
        if self.pages.len() >= MAX_PAGES || self.has_learned(page.digest) {
            return false;
        }
        self.pages.push(page.digest);
        let mut room = true;
        for &s in &page.signatures {
            if let Some(n) = self.counts.get_mut(&s) {
                *n += 1;
            } else if room && (self.counts.len() < MAX_SIGNATURES || self.forget_singletons()) {
                self.counts.insert(s, 1);
            } else {
                // Full of signatures that recur: this page's new ones are not kept.
                room = false;
            }
        }
        true
    }

    /// Make room by forgetting the signatures seen on one page only (mostly earlier pages' own
    /// content); false when none could go.
    fn forget_singletons(&mut self) -> bool {
        let before = self.counts.len();
        self.counts.retain(|_, n| *n > 1);
        self.counts.len() < before
    }

    /// Forget what no page's answer can use: signatures seen on one page only (a block must recur on
    /// two other pages to count as the site's). Done once learning is over, it leaves a template of
    /// the site's chrome alone, a few kilobytes.
    pub fn compact(&mut self) {
        self.forget_singletons();
        self.counts.shrink_to_fit();
    }

    /// On how many learned pages other than the page asking (`own`: it was learned) `signature`
    /// appears.
    pub fn others_with(&self, signature: u64, own: bool) -> u32 {
        self.counts.get(&signature).map_or(0, |&n| n.saturating_sub(u32::from(own)))
    }

    /// Bytes held, roughly: the digests and the table's entries.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<SiteTemplate>()
            + self.pages.capacity() * 8
            + self.counts.capacity() * (std::mem::size_of::<(u64, u32)>() + 1)
    }
}

/// A page's site context: its site's template, and whether the page itself is among the pages it
/// learned (then the page's own blocks are not counted as evidence).
#[derive(Debug, Clone, Copy)]
pub struct SiteContext<'a> {
    pub template: &'a SiteTemplate,
    /// The page's digest is one the template learned.
    pub learned_this_page: bool,
}

impl<'a> SiteContext<'a> {
    /// The context of a page with this digest.
    pub fn new(template: &'a SiteTemplate, digest: u64) -> SiteContext<'a> {
        SiteContext { template, learned_this_page: template.has_learned(digest) }
    }

    /// Other pages of the site the template knows.
    pub fn other_pages(&self) -> usize {
        self.template.pages() - usize::from(self.learned_this_page)
    }

    /// On how many of those `signature` appears.
    pub fn others_with(&self, signature: u64) -> u32 {
        self.template.others_with(signature, self.learned_this_page)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(sigs: &[u64]) -> PageSignatures {
        PageSignatures::new(sigs)
    }

    #[test]
    fn counts_pages_once_and_never_a_page_as_its_own_evidence() {
        let mut t = SiteTemplate::new();
        assert!(t.learn(&page(&[1, 2, 10])));
        assert!(!t.learn(&page(&[1, 2, 10])), "the same page again");
        assert!(t.learn(&page(&[1, 2, 11])));
        assert_eq!(t.pages(), 2);
        let own = SiteContext::new(&t, page(&[1, 2, 10]).digest);
        assert!(own.learned_this_page);
        assert_eq!((own.other_pages(), own.others_with(1), own.others_with(10)), (1, 1, 0));
        let new = SiteContext::new(&t, page(&[1, 2, 12]).digest);
        assert_eq!((new.other_pages(), new.others_with(1), new.others_with(12)), (2, 2, 0));
    }

    #[test]
    fn bounded_in_pages_and_signatures_keeping_what_recurs() {
        let mut t = SiteTemplate::new();
        for p in 0..(MAX_PAGES as u64 + 10) {
            // Two shared signatures, and 200 of the page's own.
            let sigs: Vec<u64> = [1, 2].into_iter().chain((0..200).map(|k| 1000 + p * 1000 + k)).collect();
            t.learn(&page(&sigs));
        }
        assert_eq!(t.pages(), MAX_PAGES);
        assert!(t.counts.len() <= MAX_SIGNATURES);
        assert_eq!(t.others_with(1, false), MAX_PAGES as u32);
        assert!(t.memory_bytes() < 256 * 1024, "{}", t.memory_bytes());
    }
}
