//! What kind of page this is: the page signals that tell article, forum thread, product,
//! collection, listing, documentation and service pages apart (the model that reads them is
//! `page_type_model.rs`).
//!
//! Why a type at all: an indexer treats a product page or a forum thread differently from an article,
//! and every type has main content of its own. The has-article model already answers "article or
//! not"; the page-type model answers "which of the six other types" over the same page signals plus
//! the ones here, each explainable on its own: declared JSON-LD types, code blocks, post and reply
//! structures, cart and contact calls to action, pagination, forms and tables, and the address's
//! vocabulary (a weak signal: many sites use none of these words).

use super::lexicon::{
    self, ALL_NAME_GROUPS, CART_TEXTS, CONTACT_TEXTS, NAME_GROUPS, PAGE_NAME_GROUPS, PAGINATION_TEXTS, POST_NAMES,
    TYPE_CUE_CHARS, TYPE_CUES, TYPE_PATH_WORDS,
};
use crate::dom::{Document, Tag};
use crate::metadata::page_meta::PageMeta;

/// The longest text compared against the call-to-action lists (characters of UTF-8).
const SHORT_TEXT: usize = 40;

/// Page signals that tell the non-article types apart, less the address's words ([`url_words`]):
/// what the page itself shows and declares. Counts enter as logarithms, as the has-article signals
/// do. The block classifier reads some of these too ([`super::features`]'s page kind), so that a spec
/// table on a product page or a reply on a thread is judged knowing what kind of page holds it; the
/// address stays out of the blocks' view, so that passing it or not changes no block's probability.
///
/// Besides code, forms, lists, tables, posts, carts, contact texts and pagination: the page's form
/// controls (a shop's, a service page's and a forum's many buttons), images, subheadings and
/// sections, inline code (documentation names identifiers in running text), long paragraphs and the
/// share of the text in paragraphs (prose), the interface phrases of each type in short texts
/// ([`TYPE_CUES`]), short dated texts (a thread dates every post, a listing every card), short texts
/// that read as prices, the largest run of posts ([`post_share`]), self-linked headings and the
/// contents that link to them ([`heading_links`]), and how many elements are named
/// for each group of [`NAME_GROUPS_COUNTED`] (`names`, from [`super::name_flags::name_flags`]).
pub(super) fn dom_signals(doc: &Document, meta: &PageMeta, names: &[u32; ALL_NAME_GROUPS]) -> Vec<(&'static str, f64)> {
    let body = doc.node(doc.body).stats;
    let (mut pre, mut code_chars, mut forms, mut list_items, mut rows, mut posts) =
        (0u32, 0u32, 0u32, 0u32, 0u32, 0u32);
    let (mut cart, mut contact, mut pages, mut in_pre_end) = (0u32, 0u32, 0u32, 0u32);
    let (mut images, mut subheadings, mut sections, mut inline_code) = (0u32, 0u32, 0u32, 0u32);
    let (mut long_paragraphs, mut paragraph_chars, mut dated, mut prices) = (0u32, 0u32, 0u32, 0u32);
    // The short texts, joined for one pass of the phrase automaton.
    let (mut cue_texts, mut cue_starts) = (String::new(), Vec::new());
    for i in doc.body..doc.node(doc.body).end {
        let n = doc.node(i);
        match n.element() {
            Some(e) => {
                match e.tag {
                    // Code: a `pre` and everything in it counted once (a `code` inside a `pre` is the
                    // same block).
                    Tag::Pre if i >= in_pre_end => {
                        pre += 1;
                        code_chars += n.stats.chars;
                        in_pre_end = n.end;
                    }
                    Tag::Code if i >= in_pre_end => {
                        inline_code += 1;
                        if n.stats.chars >= 40 {
                            code_chars += n.stats.chars;
                        }
                    }
                    Tag::Form => forms += 1,
                    Tag::Li => list_items += 1,
                    Tag::Tr => rows += 1,
                    Tag::Img => images += 1,
                    Tag::H2 | Tag::H3 => subheadings += 1,
                    Tag::Section => sections += 1,
                    Tag::P => {
                        paragraph_chars += n.stats.chars;
                        long_paragraphs += u32::from(n.stats.chars >= LONG_PARAGRAPH);
                    }
                    _ => {}
                }
                if n.stats.chars >= 40 && e.id_class.as_deref().is_some_and(|c| POST_NAMES.matches(c)) {
                    posts += 1;
                }
            }
            None => {
                let t = doc.text(i).trim();
                if t.is_empty() || t.len() > TYPE_CUE_CHARS * 4 {
                    continue;
                }
                let chars = t.chars().count();
                if chars > TYPE_CUE_CHARS {
                    continue;
                }
                cue_starts.push(cue_texts.len());
                cue_texts.push_str(t);
                cue_texts.push('\n');
                dated += u32::from(looks_dated(t));
                prices += u32::from(crate::text::words::looks_like_price(t));
                if chars > SHORT_TEXT {
                    continue;
                }
                let lower = crate::text::words::lowercase(t);
                let is = |list: &[&str]| list.iter().any(|w| *w == lower);
                cart += u32::from(is(CART_TEXTS));
                contact += u32::from(is(CONTACT_TEXTS));
                pages += u32::from(n.in_link && (is(PAGINATION_TEXTS) || lower.chars().all(|c| c.is_ascii_digit())));
            }
        }
    }
    let cues = lexicon::type_cue_counts(&cue_texts, &cue_starts);
    let ln = |x: u32| (1.0 + f64::from(x)).ln();
    let flag = |b: bool| f64::from(u8::from(b));
    let mut out = vec![
        ("code_blocks", ln(pre)),
        ("code_share", f64::from(code_chars.min(body.chars)) / f64::from(body.chars.max(1))),
        ("forms", ln(forms)),
        ("list_items", ln(list_items)),
        ("table_rows", ln(rows)),
        ("post_units", ln(posts)),
        ("cart_texts", ln(cart)),
        ("contact_texts", ln(contact)),
        ("pagination_links", ln(pages)),
        ("ld_forum", flag(meta.ld_forum)),
        ("ld_docs", flag(meta.ld_docs)),
        ("ld_service", flag(meta.ld_service)),
        ("controls", ln(doc.form_controls)),
        ("images", ln(images)),
        ("subheadings", ln(subheadings)),
        ("sections", ln(sections)),
        ("inline_code", ln(inline_code)),
        ("long_paragraphs", ln(long_paragraphs)),
        ("paragraph_share", f64::from(paragraph_chars.min(body.chars)) / f64::from(body.chars.max(1))),
        ("short_dates", ln(dated)),
        ("price_texts", ln(prices)),
    ];
    out.push(("post_share", post_share(doc)));
    let (anchored, contents) = heading_links(doc);
    out.push(("heading_anchors", ln(anchored)));
    out.push(("contents_links", ln(contents)));
    out.extend(TYPE_CUES.iter().zip(cues).map(|((name, _), c)| (*name, ln(c))));
    out.extend(NAME_GROUPS_COUNTED.iter().map(|&(signal, group)| (signal, ln(names[group_index(group)]))));
    out
}

/// The share of the page's text in its largest run of posts: sibling elements of one signature (tag
/// and first class word), at least three, each a long text (150 characters or more on average) with
/// few links. Threads are made of them; an article's paragraphs are `p` elements and do not count.
/// (Runs of cards, each a link with a little text beside it, are has-article's `cards`.)
fn post_share(doc: &Document) -> f64 {
    #[derive(Default)]
    struct Run {
        count: u32,
        chars: u32,
        link_chars: u32,
    }
    let mut runs: crate::hash::IdMap<u64, Run> = Default::default();
    for i in doc.body + 1..doc.node(doc.body).end {
        let n = doc.node(i);
        let Some(e) = n.element() else { continue };
        if !matches!(e.tag, Tag::Div | Tag::Li | Tag::Article | Tag::Section | Tag::Tr | Tag::Figure)
            || n.stats.chars == 0
        {
            continue;
        }
        let mut h = crate::hash::Fnv1a::new();
        h.bytes(n.parent.to_le_bytes());
        h.bytes(super::block_measures::signature(doc, i).to_le_bytes());
        let run = runs.entry(h.finish()).or_default();
        run.count += 1;
        run.chars += n.stats.chars;
        run.link_chars += n.stats.link_chars;
    }
    let body = f64::from(doc.node(doc.body).stats.chars.max(1));
    runs.values()
        .filter(|r| r.count >= 3 && r.chars / r.count >= 150 && r.link_chars * 10 < r.chars * 3)
        .map(|r| f64::from(r.chars) / body)
        .fold(0.0, f64::max)
        .min(1.0)
}

/// Documentation's own markup: headings that carry a link to themselves (a permalink, `#id`, which
/// generators put on every section heading so that a reader can cite the section) and a table of
/// contents of in-page links to the headings. Shapes, not words. Measured over the developer sets'
/// typed pages: a heading linking to its own id on 54-57% of documentation pages, on 0-3% of
/// articles, forum threads, products, listings and service pages; contents links on 51-66% of
/// documentation pages, on 1-23% of the others (a product's tabs link to its sections' headings,
/// and a "skip to content" link may name the section a heading stands in).
///
/// A heading counts when an in-page link inside it names the heading's id, its parent's (a section
/// around it) or an element's inside it, or has at most two characters of text (a `¶`, `#` or an
/// icon). Contents links are in-page links outside headings that name such an id. Bounded: at most
/// [`HEADING_IDS`] ids and as many links are compared, each against each.
fn heading_links(doc: &Document) -> (u32, u32) {
    let (mut anchored, mut heading_end, mut open) = (0u32, 0, false);
    // The heading's own links, checked once its ids are all read.
    let mut heading_links: Vec<(&str, u32)> = Vec::new();
    let mut ids: Vec<&str> = Vec::new();
    let mut fragments: Vec<&str> = Vec::new();
    let tokens =
        |i: u32| doc.node(i).element().and_then(|e| e.id_class.as_deref()).into_iter().flat_map(str::split_whitespace);
    let mut close_heading = |from: usize, links: &mut Vec<(&str, u32)>, ids: &[&str]| {
        let own = &ids[from..];
        if links.iter().any(|&(f, chars)| chars <= 2 || own.iter().any(|t| t.eq_ignore_ascii_case(f))) {
            anchored += 1;
        }
        links.clear();
    };
    let mut heading_ids_from = 0;
    for i in doc.body + 1..doc.node(doc.body).end {
        if open && i >= heading_end {
            close_heading(heading_ids_from, &mut heading_links, &ids);
            open = false;
        }
        let n = doc.node(i);
        let Some(e) = n.element() else { continue };
        let fragment = (e.tag == Tag::A)
            .then(|| e.href().and_then(|h| h.trim().strip_prefix('#')))
            .flatten()
            .filter(|f| !f.is_empty());
        if e.tag.is_heading() && !open {
            (heading_end, open, heading_ids_from) = (n.end, true, ids.len());
            let room = HEADING_IDS - ids.len();
            ids.extend(tokens(n.parent).chain(tokens(i)).take(room));
        } else if open {
            let room = HEADING_IDS - ids.len();
            ids.extend(tokens(i).take(room));
            if let Some(f) = fragment {
                heading_links.push((f, n.stats.chars));
            }
        } else if let Some(f) = fragment
            && fragments.len() < HEADING_IDS
        {
            fragments.push(f);
        }
    }
    if open {
        close_heading(heading_ids_from, &mut heading_links, &ids);
    }
    let contents = fragments.iter().filter(|f| ids.iter().any(|t| t.eq_ignore_ascii_case(f))).count();
    (anchored, contents as u32)
}

/// The most heading ids, and in-page links, [`heading_links`] compares.
const HEADING_IDS: usize = 256;

/// Paragraphs of at least this many characters are prose (`long_paragraphs`).
const LONG_PARAGRAPH: u32 = 200;

/// The name groups whose element counts are page signals, and the group each counts: the block
/// features' groups that tell page types apart, then every [`PAGE_NAME_GROUPS`] group.
const NAME_GROUPS_COUNTED: &[(&str, &str)] = &[
    ("names_comment", "name_comment"),
    ("names_list", "name_list"),
    ("names_meta", "name_meta"),
    ("names_nav", "name_nav"),
    ("names_sidebar", "name_sidebar"),
    ("names_content", "name_content"),
    ("names_signup", "name_signup"),
    ("names_product", "names_product"),
    ("names_filter", "names_filter"),
    ("names_hero", "names_hero"),
    ("names_docs", "names_docs"),
    ("names_post", "names_post"),
];

/// Where the group named `group` sits among the bits of [`lexicon::name_group_bits`].
fn group_index(group: &str) -> usize {
    NAME_GROUPS
        .iter()
        .map(|(n, _)| *n)
        .chain(PAGE_NAME_GROUPS.iter().map(|(n, _)| *n))
        .position(|n| n == group)
        .unwrap_or(0)
}

/// A short text that reads as a date: "Posted 3 days ago", "March 5, 2024", "2024-03-05",
/// "05/03/2024", "2024年3月5日". A year (1990–2039) with a month's name or a date's separators, or
/// "ago" after a number. Only shapes, not a parse: the signal counts dated texts, it reads no date.
fn looks_dated(t: &str) -> bool {
    let b = t.as_bytes();
    if !b.iter().any(u8::is_ascii_digit) {
        return false;
    }
    let lower_has = |w: &str| {
        b.windows(w.len()).enumerate().any(|(i, s)| {
            s.eq_ignore_ascii_case(w.as_bytes())
                && (i == 0 || !b[i - 1].is_ascii_alphabetic())
                && b.get(i + w.len()).is_none_or(|c| !c.is_ascii_alphabetic())
        })
    };
    if lower_has("ago") {
        return true;
    }
    let year = b.windows(4).enumerate().any(|(i, w)| {
        w.iter().all(u8::is_ascii_digit)
            && (w.starts_with(b"199") || w.starts_with(b"20") && w[2] <= b'3')
            && (i == 0 || !b[i - 1].is_ascii_digit())
            && b.get(i + 4).is_none_or(|c| !c.is_ascii_digit())
    });
    if !year {
        return false;
    }
    if t.contains('年') {
        return true;
    }
    let separated =
        b.windows(3).any(|w| w[0].is_ascii_digit() && matches!(w[1], b'-' | b'/' | b'.') && w[2].is_ascii_digit());
    separated || lexicon::words(t).any(is_month)
}

/// A month's English name or its abbreviation of three letters or more (`Mar`, `sept`, `March`).
fn is_month(word: &str) -> bool {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    word.len() >= 3
        && MONTHS
            .iter()
            .any(|m| m.len() >= word.len() && m.as_bytes()[..word.len()].eq_ignore_ascii_case(word.as_bytes()))
}

/// One flag per type vocabulary of [`TYPE_PATH_WORDS`]: some path segment is one of its words. A
/// page signal, not a block feature.
pub(super) fn url_words(url: Option<&str>) -> Vec<(&'static str, f64)> {
    let (_, segments) = super::has_article::path_segments(url);
    TYPE_PATH_WORDS
        .iter()
        .map(|(name, words)| (*name, f64::from(u8::from(segments.iter().any(|s| words.contains(&s.as_str()))))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &[(&str, f64)], name: &str) -> f64 {
        s.iter().find(|(n, _)| *n == name).map(|x| x.1).unwrap_or(f64::NAN)
    }

    #[test]
    fn signals_see_code_posts_carts_and_pagination() {
        let page = "<html><body><pre><code>fn main() {\n    println!(\"hello, world\");\n}</code></pre>\
            <div class='post reply'>First reply with enough words to count as a post unit here.</div>\
            <div class=message>Second reply with enough words to count as a post unit too.</div>\
            <a href=/cart>Add to cart</a><p>In stock</p>\
            <a href=/2>2</a><a href=/3>3</a><a href=/next>Next</a><span>下一页</span></body></html>";
        let doc = Document::parse(page);
        let mut s = dom_signals(&doc, &PageMeta::default(), &super::super::name_flags::name_flags(&doc).counts);
        s.extend(url_words(Some("https://example.com/forum/thread/123")));
        assert_eq!(value(&s, "code_blocks"), 2f64.ln());
        assert!(value(&s, "code_share") > 0.1);
        assert_eq!(value(&s, "post_units"), 3f64.ln());
        assert_eq!(value(&s, "cart_texts"), 3f64.ln());
        // The last "下一页" is not a link.
        assert_eq!(value(&s, "pagination_links"), 4f64.ln());
        assert_eq!(value(&s, "url_forum"), 1.0);
        assert_eq!(value(&s, "url_product"), 0.0);
    }

    #[test]
    fn headings_that_link_to_themselves_and_the_contents_that_link_to_them_are_counted() {
        // Three generators' permalinks: an id on the section around the heading, an id on the
        // heading, an icon link (no text) whose id differs from its fragment; then a contents list
        // naming two of the ids, a link to an id no heading has, and an article's heading whose
        // in-page link (to the comments) is neither short nor the heading's own.
        let docs = "<html><body><nav><a href='#install'>Install</a><a href='#usage'>Usage</a>\
            <a href='#top'>Top</a></nav>\
            <section id=install><h2>Install<a class=headerlink href='#install'>¶</a></h2><p>Run it.</p></section>\
            <h2 id=usage>Usage <a href='#usage'>link</a></h2><p>Call it.</p>\
            <h3><a id=user-content-api class=anchor href='#api'><svg></svg></a>API</h3>\
            <h2>Reader comments <a href='#comments'>12 comments</a></h2><div id=comments>Nice.</div>\
            </body></html>";
        assert_eq!(heading_links(&Document::parse(docs)), (3, 2));
        let article = "<html><body><h1>Rice course opens</h1><p>Text.</p>\
            <h2>Comments <a href='#respond'>Leave a reply</a></h2><p id=respond>Form.</p></body></html>";
        assert_eq!(heading_links(&Document::parse(article)), (0, 0));
        let s = dom_signals(&Document::parse(docs), &PageMeta::default(), &[0; ALL_NAME_GROUPS]);
        assert_eq!(value(&s, "heading_anchors"), 4f64.ln());
        assert_eq!(value(&s, "contents_links"), 3f64.ln());
    }

    #[test]
    fn signals_count_controls_prose_cues_dates_and_names() {
        let long = "word ".repeat(50);
        let page = format!(
            "<html><body><form><input type=hidden name=t><input name=q><button>Go</button><textarea></textarea>\
             </form><div class='product-card'><img src=a.jpg><span>Add to cart – $24.99</span></div>\
             <div class='filters'><span>Sort by: Newest</span></div><section><h2>Plans</h2><p>{long}</p>\
             <p>Call <code>parse()</code> first.</p></section><div class=post><span>Posted 3 days ago</span>\
             <span>March 5, 2024</span><span>2024-03-05</span><span>Multiple notes</span><span>v2.0.1</span></div>\
             </body></html>"
        );
        let doc = Document::parse(&page);
        let s = dom_signals(&doc, &PageMeta::default(), &super::super::name_flags::name_flags(&doc).counts);
        // The hidden input is no control; the others are, though the arena keeps none of them.
        assert_eq!(value(&s, "controls"), 4f64.ln());
        assert_eq!(value(&s, "images"), 2f64.ln());
        assert_eq!(value(&s, "subheadings"), 2f64.ln());
        assert_eq!(value(&s, "sections"), 2f64.ln());
        assert_eq!(value(&s, "inline_code"), 2f64.ln());
        assert_eq!(value(&s, "long_paragraphs"), 2f64.ln());
        assert!(value(&s, "paragraph_share") > 0.5);
        assert_eq!(value(&s, "cues_cart"), 2f64.ln());
        assert_eq!(value(&s, "cues_listing"), 2f64.ln());
        // Whole words only: "Multiple notes" holds neither "tip" nor "note".
        assert_eq!(value(&s, "cues_docs"), 0.0);
        // Three dated texts; a version number is none.
        assert_eq!(value(&s, "short_dates"), 4f64.ln());
        assert_eq!(value(&s, "names_product"), 2f64.ln());
        assert_eq!(value(&s, "names_filter"), 2f64.ln());
        assert_eq!(value(&s, "names_post"), 2f64.ln());
        assert_eq!(value(&s, "names_docs"), 0.0);
    }

    #[test]
    fn posts_are_told_apart_from_cards_paragraphs_and_menus() {
        let card = "<li class=card><a href=/p>A product name</a> <span>$19.99</span> in stock</li>";
        let post = format!("<div class=reply>{}</div>", "A long reply that says something. ".repeat(6));
        let para = format!("<p>{}</p>", "A paragraph of running text in the article. ".repeat(5));
        let menu = "<li class=m><a href=/x>Menu entry</a></li>";
        let listing = format!("<html><body><ul>{}</ul></body></html>", card.repeat(6));
        let thread = format!("<html><body><main>{}</main></body></html>", post.repeat(4));
        let article =
            format!("<html><body><ul>{}</ul><article>{}</article></body></html>", menu.repeat(8), para.repeat(6));
        let of = |page: &str| post_share(&Document::parse(page));
        assert!(of(&thread) > 0.9);
        assert_eq!((of(&listing), of(&article)), (0.0, 0.0), "cards, paragraphs and menus are no posts");
    }

    #[test]
    fn dates_are_recognised_by_shape() {
        for t in ["Posted 3 days ago", "March 5, 2024", "5 Sept 2023", "2024-03-05", "05/03/2024", "2024年3月5日"] {
            assert!(looks_dated(t), "{t}");
        }
        for t in ["v2.0.1", "Call 555-1234", "1,999 members", "ago", "Marching 2024 band", "In 1850-1860"] {
            assert!(!looks_dated(t), "{t}");
        }
    }
}
