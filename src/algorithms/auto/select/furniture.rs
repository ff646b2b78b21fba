//! Short blocks that are page furniture wherever they stand: share prompts, interface labels,
//! breadcrumb trails, a forum poster's details, bare addresses (one rule each, run together in one pass over the blocks), lines
//! that point at another page (rule `cross-references`), headings that close an article's text
//! (`trailing-headings`), and the headline when it opens the text (rule `leading-headline`). One family because each is read from one short block's own text.
//!
//! `cross-references` is known by its shape alone (a label, a colon, one link), so it needs no word
//! list. Measured when it came: trafbench-dev, pages of sites no model saw, snippet precision 0.864 →
//! 0.870, F1 0.908 → 0.911, recall unchanged; site-grouped 3-fold CV over the ten older sets
//! unchanged to the third decimal on every set but dragnet (LCS F1 0.9067 → 0.9065: one page whose
//! gold keeps a "Continue reading: <a>…</a>" line).
//! `trailing-headings` (an article's chosen text does not end in headings) likewise: trafbench-dev
//! snippet precision 0.870 → 0.877, F1 0.911 → 0.915, recall unchanged; the CV sets within 0.0007
//! of before (zh-cwce LCS F1 0.9418 → 0.9425, dragnet 0.9065 → 0.9069, wcxb-dev word F1 0.8711 →
//! 0.8712). (`pith eval $SETS --cv 3 --cv-models DIR --without-rule NAME` against the same run with
//! the rule.)

use super::unchoose::{partly_chosen, unchoose_block, wholly_chosen};
use crate::algorithms::auto::lexicon;
use crate::algorithms::auto::segment::Blocks;
use crate::dom::Document;

/// The longest share prompt, in characters.
const SHARE_PROMPT_MAX_CHARS: u32 = 40;
/// The longest interface label, in characters.
const INTERFACE_LABEL_MAX_CHARS: u32 = 30;
/// The longest breadcrumb trail, in characters.
const BREADCRUMB_MAX_CHARS: u32 = 200;
/// The longest bare address, in characters.
const BARE_ADDRESS_MAX_CHARS: u32 = 300;

/// A kind of short furniture, one rule each in the table: the longest block it can be, in
/// characters, and the test of the block's text.
#[derive(Clone, Copy)]
pub(crate) struct Furniture {
    pub(super) max_chars: u32,
    pub(super) is: fn(&str) -> bool,
}

/// Rule `share-prompts`.
pub(super) const SHARE_PROMPTS: Furniture =
    Furniture { max_chars: SHARE_PROMPT_MAX_CHARS, is: lexicon::is_share_prompt };
/// Rule `interface-labels`.
pub(super) const INTERFACE_LABELS: Furniture =
    Furniture { max_chars: INTERFACE_LABEL_MAX_CHARS, is: lexicon::is_interface_label };
/// Rule `breadcrumbs`.
pub(super) const BREADCRUMBS: Furniture = Furniture { max_chars: BREADCRUMB_MAX_CHARS, is: lexicon::is_breadcrumb };
/// Rule `bare-addresses`.
pub(super) const BARE_ADDRESSES: Furniture =
    Furniture { max_chars: BARE_ADDRESS_MAX_CHARS, is: lexicon::is_bare_address };

/// Unchoose the short blocks that are page furniture whatever their place, of the `kinds` given (the
/// furniture rules switched on), in one pass over the blocks (their text nodes joined by spaces):
///
/// - share prompts (rule `share-prompts`, at most [`SHARE_PROMPT_MAX_CHARS`]
///   characters, [`lexicon::is_share_prompt`]: "Share this with friends", "分享到：", "微信扫一扫"):
///   share bars sit between the headline and the body or right after it, in the article's own
///   container, and their labels survive when their icons are links to other sites;
/// - interface labels (`interface-labels`, at most
///   [`INTERFACE_LABEL_MAX_CHARS`], [`lexicon::is_interface_label`]: "Click to expand...",
///   "Loading...", "Read more", "加载更多"): they sit inside the content (a forum quote's expander, a
///   card's link, a lazy list's placeholder) and say nothing of it;
/// - breadcrumb trails (`breadcrumbs`, at most [`BREADCRUMB_MAX_CHARS`],
///   [`lexicon::is_breadcrumb`]: "您现在的位置：首页 > 新闻 > 正文", "You are here: Home » News"):
///   portals print the trail in the article's own cell, just above the headline;
/// - a bare address (`bare-addresses`, at most [`BARE_ADDRESS_MAX_CHARS`],
///   [`lexicon::is_bare_address`]: `https://cdn.example.com/images/160x160/bone.jpg`), a web address
///   written out as a block's whole text: a page's raw data fields, which a reader never sees as
///   prose (an address meant to be read is a link's label, or sits in a sentence).
///
/// Returns the blocks it unchose, each with the place in `kinds` of the kind it was taken for (the
/// first that matched), so that the decision record names the rule.
pub(super) fn drop_short_furniture(
    doc: &Document,
    blocks: &Blocks,
    chosen: &mut [bool],
    kinds: &[Furniture],
) -> Vec<(usize, usize)> {
    let Some(max_chars) = kinds.iter().map(|k| k.max_chars).max() else { return Vec::new() };
    let mut text = String::new();
    let mut dropped = Vec::new();
    for (index, b) in blocks.list.iter().enumerate().filter(|(_, b)| b.chars > 0 && b.chars <= max_chars) {
        if !wholly_chosen(blocks, b, chosen) {
            continue;
        }
        blocks.text_into(doc, b, &mut text);
        if let Some(kind) = kinds.iter().position(|k| b.chars <= k.max_chars && (k.is)(&text))
            && unchoose_block(blocks, b, chosen)
        {
            dropped.push((kind, index));
        }
    }
    dropped
}

/// The longest cross-reference line, in characters: a label and one other page's headline.
const CROSS_REFERENCE_MAX_CHARS: u32 = 300;
/// The longest label before a cross-reference's link, in characters ("Read more:", "Lea también:",
/// "相关阅读：").
const CROSS_REFERENCE_LABEL_MAX_CHARS: usize = 24;

/// Unchoose the lines that point the reader at another page (rule `cross-references`): a block of at
/// most [`CROSS_REFERENCE_MAX_CHARS`] characters whose text opens with a short label of its own (at
/// most [`CROSS_REFERENCE_LABEL_MAX_CHARS`] characters and three words, not a link) that ends in a
/// colon, followed by a link that holds nearly all the rest: "Lea también: <a>…</a>", "Read more:
/// <a>…</a>", "相关阅读：<a>…</a>", "Category: <a>Press releases</a>", "Źródło: <a>…</a>" (one link;
/// a label over several, "Cast: <a>…</a>, <a>…</a>", lists what the page is about). Known by
/// shape, not by the label's words, so it holds in any language: news sites print such lines between
/// an article's paragraphs and under it, and a sentence of the article is never a label and a
/// headline. Returns whether any text was unchosen.
pub(super) fn drop_cross_references(doc: &Document, blocks: &Blocks, chosen: &mut [bool]) -> bool {
    let mut dropped = false;
    for b in blocks.list.iter().filter(|b| b.chars >= 8 && b.chars <= CROSS_REFERENCE_MAX_CHARS) {
        if b.link_text_nodes > 0 && wholly_chosen(blocks, b, chosen) && is_cross_reference(doc, blocks.texts_of(b)) {
            dropped |= unchoose_block(blocks, b, chosen);
        }
    }
    dropped
}

/// Whether a block's text nodes read as a label, a colon, and a link that holds the rest.
fn is_cross_reference(doc: &Document, texts: &[crate::dom::NodeId]) -> bool {
    let Some(first_link) = texts.iter().position(|&t| doc.node(t).in_link) else { return false };
    let label: String = texts[..first_link].iter().map(|&t| doc.text(t)).collect();
    let label = label.trim();
    let Some(head) = label.strip_suffix(':').or_else(|| label.strip_suffix('：')) else { return false };
    let head = head.trim_end();
    if head.is_empty()
        || head.chars().count() > CROSS_REFERENCE_LABEL_MAX_CHARS
        || head.split_whitespace().count() > 3
        || head.contains([':', '：'])
    {
        return false;
    }
    let (mut linked, mut rest, mut runs, mut in_run) = (0usize, 0usize, 0usize, false);
    for &t in &texts[first_link..] {
        let n = doc.text(t).trim().chars().count();
        rest += n;
        if doc.node(t).in_link {
            linked += n;
            runs += usize::from(!in_run);
            in_run = true;
        } else if n > 0 {
            in_run = false;
        }
    }
    // One headline: "Cast: <a>…</a>, <a>…</a>" and "Tags: <a>…</a> <a>…</a>" list several things
    // the page is about, which is the page's own content.
    if runs != 1 {
        return false;
    }
    // A headline's worth of link text, and at most a few characters beside it (a date, a bracket).
    linked >= 8 && linked * 10 >= rest * 8
}

/// The longest heading read as a label, in characters: pages of the nineties set whole paragraphs
/// in `<h5>`.
const TRAILING_HEADING_MAX_CHARS: u32 = 100;

/// Unchoose the headings that close an article's chosen text (rule `trailing-headings`): the run of
/// chosen blocks after the last chosen block that is not a heading (`h1`–`h6` of at most
/// [`TRAILING_HEADING_MAX_CHARS`] characters), when such a block exists. A heading introduces what
/// follows it; one with nothing chosen after it introduces text that was left out, the teasers under
/// "More on this topic", "Das könnte Sie auch interessieren", "相关新闻", "DW recommends", so it is
/// the label of chrome, whatever its language. Articles only: on a listing or a collection the last
/// card's title can close the content. Returns whether any text was unchosen.
pub(super) fn drop_trailing_headings(doc: &Document, blocks: &Blocks, chosen: &mut [bool]) -> bool {
    let is_heading = |b: &crate::algorithms::auto::segment::TextBlock| {
        b.chars <= TRAILING_HEADING_MAX_CHARS && doc.node(b.owner).tag().is_some_and(|t| t.is_heading())
    };
    let Some(last_body) =
        blocks.list.iter().rposition(|b| b.chars > 0 && wholly_chosen(blocks, b, chosen) && !is_heading(b))
    else {
        return false;
    };
    let mut dropped = false;
    for b in blocks.list[last_body + 1..].iter().filter(|b| is_heading(b)) {
        dropped |= unchoose_block(blocks, b, chosen);
    }
    dropped
}

/// The longest headline read, in characters.
const HEADLINE_MAX_CHARS: u32 = 300;

/// Unchoose the page's headline when it opens the chosen text
/// (rule `leading-headline`): the first chosen blocks (at most two, a headline printed twice) of at most [`HEADLINE_MAX_CHARS`] characters whose chosen text,
/// eight letters or more, `<title>` holds. The title is the answer's `title`; at the top of the text
/// it is read twice by whoever indexes both. Returns whether any text was unchosen.
pub(super) fn drop_leading_headline(doc: &Document, blocks: &Blocks, chosen: &mut [bool]) -> bool {
    let Some(title) = doc.title.as_deref().map(crate::text::words::alnum_key).filter(|k| !k.is_empty()) else {
        return false;
    };
    let mut dropped = false;
    let mut text = String::new();
    for _ in 0..2 {
        let Some(b) = blocks.list.iter().find(|b| partly_chosen(blocks, b, chosen)) else {
            break;
        };
        if b.chars > HEADLINE_MAX_CHARS {
            break;
        }
        text.clear();
        for &t in blocks.texts_of(b).iter().filter(|&&t| chosen[t as usize]) {
            text.push_str(doc.text(t));
        }
        let k = crate::text::words::alnum_key(&text);
        if k.chars().count() < 8 || !title.contains(&k) {
            break;
        }
        dropped |= unchoose_block(blocks, b, chosen);
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::super::rules::furniture_kinds;
    use super::super::testing::chosen_text;
    use super::*;
    use crate::algorithms::auto::segment::block_owners;
    use crate::algorithms::contract::params::AutoParams;
    use crate::dom::NodeId;

    /// Choose every text node, run `step` over the page's blocks, and return whether it unchose any
    /// text and the text still chosen.
    fn kept_after(html: &str, step: impl Fn(&Document, &Blocks, &mut [bool]) -> bool) -> (bool, String) {
        let doc = Document::parse(html);
        let blocks = crate::algorithms::auto::segment::segment(&doc, &block_owners(&doc));
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let dropped = step(&doc, &blocks, &mut chosen);
        (dropped, chosen_text(&doc, &chosen))
    }

    /// [`kept_after`] the short-furniture pass with the kinds `auto` leaves on.
    fn kept_after_furniture(html: &str, auto: &AutoParams) -> (bool, String) {
        let kinds: Vec<Furniture> = furniture_kinds(|rule| !rule.is_off(auto)).into_iter().map(|k| k.1).collect();
        kept_after(html, |doc, blocks, chosen| !drop_short_furniture(doc, blocks, chosen, &kinds).is_empty())
    }

    #[test]
    fn a_headline_opening_the_text_is_dropped_and_one_further_down_is_not() {
        let kept = |html: &str| kept_after(html, drop_leading_headline);
        let body = "<p>Two hundred farmers came to the county's first rice course.</p>";
        // Printed twice (a visually hidden copy and the visible one), both go; `<title>` holds it with
        // the site's name.
        let page = format!(
            "<title>Rice course opens | County Farm News</title><body><h1>Rice course opens</h1>\
             <div><h2>Rice Course Opens!</h2>{body}</div><p>Rice course opens</p></body>"
        );
        assert_eq!(
            kept(&page),
            (true, "Two hundred farmers came to the county's first rice course.|Rice course opens".to_string())
        );
        // A first block `<title>` does not hold stays, and so does a short one (`News`).
        let page = format!("<title>Rice course opens</title><body><h1>Farm news</h1>{body}</body>");
        assert!(!kept(&page).0);
        let page = format!("<title>News | Rice course opens</title><body><p>News</p>{body}</body>");
        assert!(!kept(&page).0);
    }

    #[test]
    fn breadcrumb_trails_are_dropped_and_a_sentence_about_a_place_is_not() {
        let body = "县农业局今天举办农民培训班，两百多名农民参加了培训。";
        let html = format!(
            "<body><div>您现在的位置：<a href=/>首页</a> &gt; <a href=/n>新闻</a> &gt; 正文</div><h1>培训班开班</h1>\
             <p>{body}</p><p>当前位置很好</p><p>You are here: <a href=/>Home</a> » News</p></body>"
        );
        let auto = AutoParams { drop_share_prompts: false, drop_interface_labels: false, ..AutoParams::default() };
        assert_eq!(kept_after_furniture(&html, &auto), (true, format!("培训班开班|{body}|当前位置很好")));
    }

    #[test]
    fn interface_labels_are_dropped_and_a_sentence_that_holds_one_is_not() {
        let post = "I replaced the fan and the noise is gone.";
        let html = format!(
            "<body><blockquote><p>The fan is loud.</p><div><a href=#>Click to expand...</a></div></blockquote>\
             <p>{post}</p><p>Loading…</p><p><a href=/more>READ MORE »</a></p><p>Read more about fans here.</p>\
             <div><button>Quick view</button><button>Add to cart</button><span>Compare</span></div>\
             <p>Compare the two fans before you buy.</p><p>Sort by:</p><p>12 Likes</p><p>Advertisement</p>\
             <p>Sort the seeds by size.</p></body>"
        );
        let auto = AutoParams { drop_share_prompts: false, drop_breadcrumbs: false, ..AutoParams::default() };
        assert_eq!(
            kept_after_furniture(&html, &auto),
            (
                true,
                format!(
                    "The fan is loud.|{post}|Read more about fans here.|Compare the two fans before you buy.|Sort the seeds by size."
                )
            )
        );
    }

    #[test]
    fn cross_references_are_dropped_in_any_language_and_sentences_with_links_are_not() {
        let body = "The council approved the budget on Tuesday after a long debate about schools.";
        let html = format!(
            "<body><p>{body}</p><p><strong>Lea también:</strong> <a href=/a>Impiden ingreso a reportero</a></p>\
             <p>Read more : <a href=/b>Looted colonial art: a new office</a></p>\
             <p>相关阅读：<a href=/c>县农业局举办农民培训班</a></p>\
             <p>Category: <a href=/d>Press Releases</a></p>\
             <p>Cast: <a href=/i>Robert De Niro</a>, <a href=/j>Eliza Dushku</a></p>\
             <p>See <a href=/e>the full report</a> for the figures on schools.</p>\
             <p>The mayor said: <a href=/f>we will build two schools</a> and then explained why it matters.</p>\
             <p>On Tuesday the council said this: <a href=/g>budget</a></p>\
             <p><a href=/h>Budget: the details</a></p></body>"
        );
        let kept = kept_after(&html, drop_cross_references);
        assert_eq!(
            kept,
            (
                true,
                format!(
                    "{body}|Cast:|Robert De Niro|,|Eliza Dushku|See|the full report|for the figures on schools.|The mayor said:|we will build two schools|\
                     and then explained why it matters.|On Tuesday the council said this:|budget|Budget: the details"
                )
            )
        );
    }

    #[test]
    fn headings_with_nothing_chosen_after_them_are_dropped() {
        let body = "The council approved the budget on Tuesday after a long debate about schools.";
        let html = format!(
            "<body><h1>Budget passes</h1><p>{body}</p><h2>Schools</h2><p>{body}</p>\
             <h3>Das könnte Sie auch interessieren</h3><ul><li><h4><a href=/a>Seed fair</a></h4></li></ul>\
             <h3>相关新闻</h3></body>"
        );
        let doc = Document::parse(&html);
        let blocks = crate::algorithms::auto::segment::segment(&doc, &block_owners(&doc));
        // The teaser list was left out before; its headings are what remains of it.
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        for b in blocks.list.iter().filter(|b| doc.node(b.owner).tag() == Some(crate::dom::Tag::H4)) {
            for &t in blocks.texts_of(b) {
                chosen[t as usize] = false;
            }
        }
        assert!(drop_trailing_headings(&doc, &blocks, &mut chosen));
        assert_eq!(chosen_text(&doc, &chosen), format!("Budget passes|{body}|Schools|{body}"));
        // A paragraph set in a heading is text, not a label.
        let long = "x ".repeat(60);
        let html = format!("<body><p>{body}</p><h5>{long}</h5><h5>More</h5></body>");
        let (_, kept) = kept_after(&html, drop_trailing_headings);
        assert_eq!(kept, format!("{body}|{}", long.trim_end()));
        // Nothing but headings: nothing to close, nothing dropped.
        let (dropped, _) = kept_after("<body><h1>Budget</h1><h2>Schools</h2></body>", drop_trailing_headings);
        assert!(!dropped);
    }

    #[test]
    fn share_prompts_are_dropped_and_words_that_begin_alike_are_not() {
        let body = "The council approved the budget on Tuesday after a long debate about schools.";
        let html = format!(
            "<body><h1>Budget passes</h1><div><span>Share this with friends</span></div><p>{body}</p>\
             <ul><li>分享到：</li><li>微信扫一扫</li></ul><h2>Shareholders agreement</h2><p>Share</p></body>"
        );
        let auto = AutoParams { drop_breadcrumbs: false, drop_interface_labels: false, ..AutoParams::default() };
        assert_eq!(kept_after_furniture(&html, &auto), (true, format!("Budget passes|{body}|Shareholders agreement")));
    }
}
