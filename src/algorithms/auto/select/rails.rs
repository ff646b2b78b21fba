//! What a page of a given type carries beside its content: a listing's filter and sort panels (rule
//! `filter-panels`), a product's recommendation rails (`recommendation-rails`), a service page's
//! calls to action (`calls-to-action`), and the feed of teasers after any page's running text
//! (`feeds-after-body`). One family because each is what a page carries beside its content.

use super::unchoose::{
    Opener, chosen_before, drop_named_after_first, drop_opened_sections, unchoose_block, wholly_chosen,
};
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

/// The least running text, in characters, that makes the chosen text a body a feed can follow.
const FEED_BODY_MIN_CHARS: u32 = 600;
/// The fewest link-only blocks after the body that make a feed.
const FEED_MIN_BLOCKS: usize = 3;

/// Unchoose a feed of teasers that follows the page's running text (rule `feeds-after-body`): when
/// the chosen text holds at least [`FEED_BODY_MIN_CHARS`] characters of running text (blocks of 80
/// characters or more with a sentence mark and at most a tenth link text), the chosen blocks after
/// the last of them that are link text and nothing else (nine tenths or more), when there are at
/// least [`FEED_MIN_BLOCKS`]: the cards of "related", "latest" and "recommended" under an article,
/// each a link around a headline, a summary and a date. By shape: a body's own text is never one
/// link, whatever its language. Articles only: a listing's or collection's items are such cards, and
/// an introduction of running text before them would make them a feed (site-grouped CV with the rule
/// on every page: tiptopjaw-2026 LCS F1 0.7728 → 0.7682, a listing page 0.654 → 0.102; on articles
/// only gains, e.g. utomo-big9-chaos 0.9469 → 0.9488). Returns whether any text was unchosen.
pub(super) fn drop_feeds_after_body(blocks: &Blocks, chosen: &mut [bool]) -> bool {
    let prose = |b: &crate::algorithms::auto::segment::TextBlock| {
        b.chars >= 80 && b.punct > 0 && b.link_chars * 10 <= b.chars && wholly_chosen(blocks, b, chosen)
    };
    let body: u32 = blocks.list.iter().filter(|b| prose(b)).map(|b| b.chars).sum();
    let Some(last) = blocks.list.iter().rposition(prose) else { return false };
    if body < FEED_BODY_MIN_CHARS {
        return false;
    }
    let feed: Vec<usize> = (last + 1..blocks.list.len())
        .filter(|&k| {
            let b = &blocks.list[k];
            b.chars > 0 && b.link_chars * 10 >= b.chars * 9 && wholly_chosen(blocks, b, chosen)
        })
        .collect();
    if feed.len() < FEED_MIN_BLOCKS {
        return false;
    }
    for k in feed {
        unchoose_block(blocks, &blocks.list[k], chosen);
    }
    true
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

    #[test]
    fn a_feed_of_link_cards_after_running_text_is_dropped() {
        let para = "县农业局今天举办农民培训班，两百多名农民参加了培训，学习了水稻育秧和病虫害防治的新技术。\
                    培训结束后，农民们纷纷表示收获很大，今年要把学到的技术用到自家的田里去。";
        let card = |n: u32| {
            format!(
                "<a href=/n{n}><h2>Seed fair number {n} opens</h2><p>Farmers came to see new seeds.</p><div>2025-04-2{n}</div></a>"
            )
        };
        // Eight paragraphs of about 80 characters: running text enough for a body.
        let body = format!("<h1>培训班开班</h1>{}", format!("<p>{para}</p>").repeat(8));
        let run = |html: &str| {
            let doc = Document::parse(html);
            let blocks = crate::algorithms::auto::segment(&doc, &block_owners(&doc));
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            let dropped = drop_feeds_after_body(&blocks, &mut chosen);
            (dropped, chosen_text(&doc, &chosen))
        };
        let html =
            format!("<body>{body}<div>{}{}</div><p>Read <a href=/x>the notice</a>.</p></body>", card(1), card(2));
        let (dropped, text) = run(&html);
        assert!(dropped);
        assert_eq!(text, format!("培训班开班|{}Read|the notice|.", format!("{para}|").repeat(8)));
        // Two link-only blocks are no feed; nor are cards without running text before them.
        let (dropped, _) = run(&format!("<body>{body}<p><a href=/a>Next</a></p><p><a href=/b>Home</a></p></body>"));
        assert!(!dropped);
        let (dropped, _) = run(&format!("<body><h1>Seed fairs</h1><p>{para}</p>{}{}</body>", card(1), card(2)));
        assert!(!dropped);
    }
}
