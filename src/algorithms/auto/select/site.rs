//! Blocks the site repeats on its other pages (rule `site-template`): with a site's template learned
//! from its pages (`crate::site`), a chosen block that recurs on most of the site's other
//! pages is the site's chrome (its menu, hot lists, notices, footer) and is left out. Its own file for
//! the block signatures, which the learning side computes the same way.
//!
//! A block's signature hashes its structural path (the owner element and its ancestors: tag names
//! with their `id` and `class`) and its text with whitespace removed and digits masked, so "12
//! comments" and "3 comments", or a date that changes daily, in the same place are the same block.

use crate::algorithms::auto::segment::{Blocks, block_owners, segment};
use crate::algorithms::contract::SiteTemplateUse;
use crate::dom::{Document, NONE, NodeData, NodeId};
use crate::hash::Fnv1a;
use crate::site::{MIN_OTHER_PAGES, PageSignatures, SiteContext, SiteTemplate};

/// A block is chrome when it appears on at least this share of the site's other pages: all of them.
/// Measured with site-grouped 3-fold cross-validation over the ten developer sets (605 pages of sites
/// with 3+ pages): at 1.0 mean LCS precision +0.004, F1 +0.002, no page down by more than 0.05 F1;
/// with the shipped models, at 0.8 six pages lost more than 0.05 F1 and at 0.5 nine (one from 0.57
/// to 0.03): the item cards several of a site's listing pages share went too. And on at least
/// [`MIN_OTHER_PAGES`] of them.
const RECUR_SHARE: f64 = 1.0;

/// Every block's signature, in the blocks' order.
pub(crate) fn block_signatures(doc: &Document, blocks: &Blocks) -> Vec<u64> {
    let mut paths: crate::hash::IdMap<NodeId, u64> = crate::hash::IdMap::default();
    blocks
        .list
        .iter()
        .map(|b| {
            let path = *paths.entry(b.owner).or_insert_with(|| path_hash(doc, b.owner));
            let mut h = Fnv1a::new();
            h.bytes(path.to_le_bytes());
            for &t in blocks.texts_of(b) {
                for c in doc.text(t).chars().filter(|c| !c.is_whitespace()) {
                    let c = if c.is_ascii_digit() { '0' } else { c };
                    let mut buf = [0u8; 4];
                    h.bytes(c.encode_utf8(&mut buf).bytes());
                }
            }
            h.finish()
        })
        .collect()
}

/// The page's signatures, for learning a template: its blocks as `auto` cuts them.
pub fn page_signatures(doc: &Document) -> PageSignatures {
    let blocks = segment(doc, &block_owners(doc));
    PageSignatures::new(&block_signatures(doc, &blocks))
}

/// The element's path from the root: tag names with `id` and `class`, hashed.
fn path_hash(doc: &Document, owner: NodeId) -> u64 {
    let mut h = Fnv1a::new();
    let mut n = owner;
    while n != NONE {
        let node = doc.node(n);
        if let NodeData::Element(e) = &node.data {
            h.bytes(e.name.as_bytes().iter().copied());
            h.byte(b'#');
            if let Some(ic) = &e.id_class {
                h.bytes(ic.bytes());
            }
            h.byte(b'/');
        }
        n = node.parent;
    }
    h.finish()
}

/// Unchoose every chosen block that recurs on enough of the site's other pages; nothing when that
/// would leave no chosen text (a duplicate page, a listing whose items all recur still answers with
/// its main region). Returns what the template did (blocks removed: those with text) and whether any
/// block was unchosen. The rule runs last, after the page's own rules, so that what it reports
/// removing is what the answer would have had without it.
pub(super) fn drop_recurring(
    doc: &Document,
    blocks: &Blocks,
    chosen: &mut [bool],
    template: &SiteTemplate,
) -> (SiteTemplateUse, bool) {
    let signatures = block_signatures(doc, blocks);
    let site = SiteContext::new(template, PageSignatures::digest_of(&signatures));
    let others = site.other_pages() as u32;
    let unchanged = SiteTemplateUse { pages: others, blocks_removed: 0 };
    let needed = ((f64::from(others) * RECUR_SHARE).ceil() as u32).max(MIN_OTHER_PAGES);
    if others < needed {
        return (unchanged, false);
    }
    let is_chosen =
        |b: &crate::algorithms::auto::segment::TextBlock| blocks.texts_of(b).iter().any(|&t| chosen[t as usize]);
    let recurring: Vec<usize> = (0..blocks.list.len())
        .filter(|&k| is_chosen(&blocks.list[k]) && site.others_with(signatures[k]) >= needed)
        .collect();
    let kept_elsewhere = blocks
        .list
        .iter()
        .enumerate()
        .any(|(k, b)| b.chars > 0 && is_chosen(b) && recurring.binary_search(&k).is_err());
    if recurring.is_empty() || !kept_elsewhere {
        return (unchanged, false);
    }
    let mut removed = 0u32;
    for &k in &recurring {
        let b = &blocks.list[k];
        removed += u32::from(b.chars > 0);
        for &t in blocks.texts_of(b) {
            chosen[t as usize] = false;
        }
    }
    (SiteTemplateUse { pages: others, blocks_removed: removed }, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::SiteTemplate;

    fn page(article: &str) -> String {
        format!(
            "<html><body><ul class=menu><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
             <div class=main><h1>{article}</h1><p>{article} is the story of the day, told at length.</p></div>\
             <div class=footer><p>Copyright 2024 Example Site. 12 visitors online.</p></div></body></html>"
        )
    }

    fn parse(html: &str) -> (Document, Blocks) {
        let doc = Document::parse(html);
        let blocks = segment(&doc, &block_owners(&doc));
        (doc, blocks)
    }

    #[test]
    fn shared_blocks_go_and_the_page_own_stay() {
        let mut t = SiteTemplate::new();
        for a in ["Alpha", "Beta", "Gamma"] {
            let (doc, _) = parse(&page(a).replace("12 visitors", "47 visitors"));
            t.learn(&page_signatures(&doc));
        }
        let (doc, blocks) = parse(&page("Delta"));
        let mut chosen = vec![true; doc.len()];
        assert_eq!(drop_recurring(&doc, &blocks, &mut chosen, &t), (used(3, 3), true));
        let kept: String = blocks
            .list
            .iter()
            .filter(|b| super::super::unchoose::wholly_chosen(&blocks, b, &chosen))
            .flat_map(|b| blocks.texts_of(b).iter().map(|&t| doc.text(t).to_string()))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(kept.contains("Delta is the story"), "{kept}");
        assert!(!kept.contains("Home") && !kept.contains("Copyright"), "{kept}");
    }

    #[test]
    fn a_page_whose_blocks_all_recur_is_left_whole() {
        let mut t = SiteTemplate::new();
        for a in ["Alpha", "Alpha2", "Alpha3"] {
            let (doc, _) = parse(&page("Same").replace("<ul", &format!("<p>{a}</p><ul")));
            t.learn(&page_signatures(&doc));
        }
        let (doc, blocks) = parse(&page("Same"));
        let mut chosen = vec![true; doc.len()];
        // "Alpha2" and "Alpha3" are one page once digits are masked: two pages learned.
        assert_eq!(drop_recurring(&doc, &blocks, &mut chosen, &t), (used(2, 0), false));
        assert!(chosen.iter().all(|&c| c));
    }

    #[test]
    fn too_few_other_pages_change_nothing() {
        let mut t = SiteTemplate::new();
        let (doc, _) = parse(&page("Alpha"));
        t.learn(&page_signatures(&doc));
        let (doc, blocks) = parse(&page("Beta"));
        let mut chosen = vec![true; doc.len()];
        assert_eq!(drop_recurring(&doc, &blocks, &mut chosen, &t), (used(1, 0), false));
    }

    fn used(pages: u32, blocks_removed: u32) -> SiteTemplateUse {
        SiteTemplateUse { pages, blocks_removed }
    }
}
