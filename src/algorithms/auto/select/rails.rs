//! What a page of a given type carries beside its content: a listing's filter and sort panels (rule
//! `filter-panels`), a service page's calls to action (`calls-to-action`). One family because each
//! is what a page of its type carries beside its content. (A product's recommendation rails are
//! found by their record regions: `records`.)

use super::unchoose::{chosen_before, drop_named_after_first, unchoose_block};
use crate::algorithms::auto::lexicon;
use crate::algorithms::auto::segment::Blocks;
use crate::dom::{Document, NodeId};

/// On a listing or collection page (rule `filter-panels`), unchoose its filter and sort panels
/// ([`lexicon::FILTER_PANELS`]) that start after the first chosen text, hold neither the surest
/// block nor half of the chosen text (a results grid wrapped in a "filterable" container stays).
/// Returns whether any text was unchosen.
pub(super) fn drop_filter_panels(doc: &Document, chosen: &mut [bool], surest: NodeId) -> bool {
    let before = chosen_before(doc, chosen);
    let total = before.last().copied().unwrap_or(0);
    drop_named_after_first(doc, chosen, &lexicon::FILTER_PANELS, |i, n| {
        let held = before[n.end as usize] - before[i as usize];
        !(i..n.end).contains(&surest) && 2 * held < total
    })
}

/// Unchoose the blocks of at most `max_words` words that are link text and nothing else: on a
/// service page these are its calls to action ("Get started", "Book a demo", "Contact sales"),
/// which the lowered service threshold lets through beside the sections they close
/// ([`crate::algorithms::contract::params::AutoParams::service_cta_max_words`]; 0: none). Returns whether any
/// was unchosen.
pub(super) fn drop_calls_to_action(blocks: &Blocks, chosen: &mut [bool], max_words: u32) -> bool {
    let mut dropped = false;
    for b in blocks.list.iter().filter(|b| b.chars > 0 && b.link_chars == b.chars && b.scan.words <= max_words) {
        dropped |= unchoose_block(blocks, b, chosen);
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::super::testing::chosen_text;
    use super::*;
    use crate::algorithms::auto::segment::block_owners;
    use crate::dom::NONE;

    #[test]
    fn a_listings_filter_panels_are_left_out_but_not_a_grid_they_wrap() {
        let page = "<body><h1>Bike helmets</h1><div class=facet-list><p>Size: S M L</p><p>Sort by: Price</p></div>\
                    <ul class=results><li>Road helmet, light and vented</li><li>Mountain helmet with a visor</li></ul></body>";
        let doc = Document::parse(page);
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let surest = (0..doc.len() as NodeId).find(|&i| doc.text(i).starts_with("Road")).map(|i| doc.node(i).parent);
        assert!(drop_filter_panels(&doc, &mut chosen, surest.unwrap_or(NONE)));
        assert_eq!(
            chosen_text(&doc, &chosen),
            "Bike helmets|Road helmet, light and vented|Mountain helmet with a visor"
        );
        // A results grid inside a container named for filtering holds most of the kept text: it stays.
        let wrapped = "<body><h1>Bike helmets</h1><div class=filterable-grid><ul><li>Road helmet, light and vented</li>\
                       <li>Mountain helmet with a visor</li></ul></div></body>";
        let doc = Document::parse(wrapped);
        let mut all: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        assert!(!drop_filter_panels(&doc, &mut all, NONE));
    }

    #[test]
    fn short_link_only_blocks_are_calls_to_action() {
        let html = "<body><h2>Payroll in minutes</h2><p>Run payroll for every state in one place.</p>\
            <p><a href=/start>Get started</a></p><p><a href=/demo>Book a free demo</a></p>\
            <p>Read <a href=/guide>our guide</a> first.</p><ul><li><a href=/p>Pricing</a> from $5</li></ul></body>";
        let doc = Document::parse(html);
        let blocks = crate::algorithms::auto::segment(&doc, &block_owners(&doc));
        let kept = |max: u32| {
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            let dropped = drop_calls_to_action(&blocks, &mut chosen, max);
            (dropped, chosen_text(&doc, &chosen))
        };
        // "Get started" goes; "Book a free demo" has four words; blocks with text besides the link stay.
        let (dropped, text) = kept(3);
        assert!(dropped);
        assert_eq!(
            text,
            "Payroll in minutes|Run payroll for every state in one place.|Book a free demo|Read|our guide|first.|Pricing|from $5"
        );
        assert!(kept(4).1.starts_with("Payroll in minutes|Run payroll for every state in one place.|Read|"));
        assert!(!kept(0).0);
    }
}
