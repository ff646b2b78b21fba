//! What a page of a given type carries beside its content: a listing's filter and sort panels (rule
//! `filter-panels`), a product's recommendation rails (`recommendation-rails`), a service page's
//! calls to action (`calls-to-action`). One family because each is what a page of its type carries
//! beside its content.

use super::unchoose::{Opener, chosen_before, drop_named_after_first, drop_opened_sections, unchoose_block};
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

/// The longest heading of a recommendation rail, in bytes.
const RAIL_HEADING_MAX_BYTES: usize = 60;

/// Unchoose a product page's recommendation rails (rule `recommendation-rails`): a chosen heading
/// that stands alone in its block and names a rail ([`lexicon::RAIL_HEADINGS`]: "Customers also
/// bought", "Similar items"), with the highest ancestor that starts with it and holds neither the
/// surest block nor half of the chosen text. Shops render these rails as cards much like the
/// product's own blocks, and often with class names no rule can read. Returns whether any text was
/// unchosen.
pub(super) fn drop_recommendation_rails(doc: &Document, chosen: &mut [bool], surest: NodeId) -> bool {
    drop_opened_sections(doc, chosen, surest, RAIL_HEADING_MAX_BYTES, Opener::WholeBlock, |text| {
        let lower = text.to_lowercase();
        lexicon::RAIL_HEADINGS.iter().any(|p| lower.contains(p))
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
    fn a_products_recommendation_rails_are_dropped() {
        let description = "A stoneware mug, glazed by hand in small batches, that keeps coffee warm for longer \
            than the thin porcelain cups it replaces, and washes clean in the dishwasher.";
        let html = format!(
            "<body><h1>Stoneware mug</h1><p id=desc>{description}</p><ul><li>Capacity: 350 ml</li></ul>\
             <div><div><h2>Customers also bought</h2></div><ul><li><a href=/a>Teapot</a> $40</li>\
             <li><a href=/b>Saucer</a> $12</li></ul></div>\
             <p>Made in our workshop: we hope you <em>also like</em> the plates.</p></body>"
        );
        let doc = Document::parse(&html);
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let surest = (0..doc.len() as NodeId)
            .find(|&i| doc.node(i).element().and_then(|e| e.id_class.as_deref()) == Some("desc"))
            .unwrap_or(NONE);
        assert!(drop_recommendation_rails(&doc, &mut chosen, surest));
        // The rail goes, heading and cards; a phrase inside a sentence does not open one.
        assert_eq!(
            chosen_text(&doc, &chosen),
            format!(
                "Stoneware mug|{description}|Capacity: 350 ml|Made in our workshop: we hope you|also like|the plates."
            )
        );
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
