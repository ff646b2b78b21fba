//! The page-level measures behind `auto`'s has-article probability.

use super::lexicon::LISTING_PATH_WORDS;
use super::prose::{ProseRun, headline_prose};
use super::segment::Blocks;
use crate::dom::{Document, NONE, NodeId, Tag};
use crate::metadata::page_meta::{OgType, PageMeta};
use crate::text::words::distinct_words;

/// Per node: headings in its subtree (itself included), summed bottom-up in one reverse sweep.
fn heading_counts(doc: &Document) -> Vec<u32> {
    let mut h = vec![0u32; doc.len()];
    for i in (0..doc.len() as NodeId).rev() {
        if doc.node(i).tag().is_some_and(Tag::is_heading) {
            h[i as usize] += 1;
        }
        let p = doc.node(i).parent;
        if p != NONE {
            h[p as usize] += h[i as usize];
        }
    }
    h
}

/// Listing and collection pages repeat a "card": sibling elements with the same tag and class, each
/// holding a heading or a link and a little text. Returns the largest such group's size and the
/// characters in all groups of three or more.
fn card_structure(doc: &Document, headings: &[u32]) -> (u32, u32, Vec<bool>) {
    let mut best = 0u32;
    let mut chars = 0u32;
    // Difference array over node ids: +1 where a card's subtree starts, -1 where it ends.
    let mut diff = vec![0i32; doc.len() + 1];
    // The element children of one parent, each with its signature (tag and first class word).
    let mut group: Vec<(u64, NodeId)> = Vec::new();
    for parent in doc.body..doc.node(doc.body).end {
        if doc.node(parent).is_text() || doc.node(parent).stats.tags < 3 {
            continue;
        }
        group.clear();
        group.extend(
            doc.children(parent)
                .filter(|&c| !doc.node(c).is_text())
                .map(|c| (super::block_measures::signature(doc, c), c)),
        );
        if group.len() < 3 {
            continue;
        }
        // Equal signatures sit together (ids keep the order stable).
        group.sort_unstable();
        for run in group.chunk_by(|a, b| a.0 == b.0) {
            let is_card = |c: NodeId| {
                let s = doc.node(c).stats;
                s.chars >= 20 && (s.link_tags > 0 || headings[c as usize] > 0)
            };
            let n = run.iter().filter(|&&(_, c)| is_card(c)).count() as u32;
            if n >= 3 {
                best = best.max(n);
                chars += run.iter().map(|&(_, c)| doc.node(c).stats.chars).sum::<u32>();
                for &(_, c) in run {
                    diff[c as usize] += 1;
                    diff[doc.node(c).end as usize] -= 1;
                }
            }
        }
    }
    let mut in_card = vec![false; doc.len()];
    let mut depth = 0i32;
    for (i, flag) in in_card.iter_mut().enumerate() {
        depth += diff[i];
        *flag = depth > 0;
    }
    (best, chars.min(doc.node(doc.body).stats.chars), in_card)
}

/// The signal of the kept text's paragraph-like blocks (log of their count), which `auto` also
/// reads itself (an article has one).
pub(super) const PARAGRAPHS: &str = "paragraphs";
/// The signal of the prose under the page's headline, ln(1 + characters) ([`headline_prose`]).
const HEADLINE_PROSE: &str = "headline_prose";
/// The signal of the kept text's amount (log of its characters).
pub(super) const TEXT_CHARS: &str = "text_chars";

/// The measures the has-article model weighs. Counts enter as logarithms: the difference between 50
/// and 500 characters of text matters, between 5,000 and 5,500 it does not.
pub(super) fn signals(
    doc: &Document,
    owners_of: &[NodeId],
    roots: &[NodeId],
    page_p: f64,
    judged: Option<Judged<'_>>,
    meta: &PageMeta,
    url: Option<&str>,
) -> Vec<(&'static str, f64)> {
    let body = doc.node(doc.body).stats;
    let heads = heading_counts(doc);
    let mut text = 0u32;
    let mut punct = 0u32;
    // Paragraph-like blocks: text grouped by nearest block ancestor, with a sentence mark and some length.
    // Scripts written without sentence marks (Thai, Lao, Khmer, Myanmar) count their text as marked.
    let mut owners: Vec<(NodeId, u32, u32)> = Vec::new();
    for &r in roots {
        for t in doc.text_nodes(r) {
            let n = doc.node(t);
            if n.in_link {
                continue;
            }
            text += n.stats.chars;
            punct += n.stats.punct;
            let marks = if n.stats.punct == 0 && n.stats.chars >= 10 && doc.text(t).chars().any(unmarked_script) {
                1
            } else {
                n.stats.punct
            };
            let parent = doc.node(t).parent;
            let owner = if parent == NONE { doc.body } else { owners_of[parent as usize] };
            match owners.last_mut() {
                Some(o) if o.0 == owner => {
                    o.1 += n.stats.chars;
                    o.2 += marks;
                }
                _ => owners.push((owner, n.stats.chars, marks)),
            }
        }
    }
    let paragraphs = owners.iter().filter(|o| o.1 >= 25 && o.2 >= 1).count();
    let para_chars: u32 = owners.iter().filter(|o| o.1 >= 25 && o.2 >= 1).map(|o| o.1).sum();
    let (mut region_chars, mut region_links, mut headings) = (0u32, 0u32, 0u32);
    for &r in roots {
        region_chars += doc.node(r).stats.chars;
        region_links += doc.node(r).stats.link_chars;
        headings += heads[r as usize];
    }
    let longest = owners.iter().map(|o| o.1).max().unwrap_or(0);
    let (cards, card_chars, in_card) = card_structure(doc, &heads);
    // Listings repeat what an article has once: linked headings, dates, prices; and keep their text in
    // the repeated cards. Listing pages are made of headline links too: anchors long enough to be a
    // title. One pass over the body counts them all.
    let (mut linked_headings, mut times, mut prices) = (0u32, 0u32, 0u32);
    let (mut headline_links, mut headline_chars) = (0u32, 0u32);
    for i in doc.body..doc.node(doc.body).end {
        let n = doc.node(i);
        match n.tag() {
            Some(Tag::A) if n.stats.chars >= 20 => {
                headline_links += 1;
                headline_chars += n.stats.chars;
            }
            Some(t) if t.is_heading() && n.stats.chars > 0 && n.stats.link_chars * 2 >= n.stats.chars => {
                linked_headings += 1
            }
            Some(Tag::Time) => times += 1,
            None => prices += price_marks(doc.text(i)),
            _ => {}
        }
    }
    let mut kept_card = 0u32;
    for &r in roots {
        for t in doc.text_nodes(r) {
            if in_card[t as usize] && !doc.node(t).in_link {
                kept_card += doc.node(t).stats.chars;
            }
        }
    }
    let ln = |x: f64| (1.0 + x).ln();
    let mut out = vec![
        ("cards", ln(cards as f64)),
        ("card_text_share", card_chars as f64 / body.chars.max(1) as f64),
        ("p_value", page_p),
        (TEXT_CHARS, ln(text as f64)),
        ("text_share", text as f64 / body.non_link_chars().max(1) as f64),
        ("page_link_density", body.link_chars as f64 / body.chars.max(1) as f64),
        ("punct", ln(punct as f64)),
        (PARAGRAPHS, ln(paragraphs as f64)),
        ("longest_paragraph", ln(longest as f64)),
        ("page_chars", ln(body.chars as f64)),
        ("headline_links", ln(headline_links as f64)),
        ("headline_link_share", headline_chars as f64 / body.chars.max(1) as f64),
        ("region_link_density", region_links as f64 / region_chars.max(1) as f64),
        ("headings", ln(headings as f64)),
        ("mean_paragraph", ln(para_chars as f64 / paragraphs.max(1) as f64)),
    ];
    let flag = |b: bool| f64::from(u8::from(b));
    out.extend([
        ("og_article", flag(meta.og_type == OgType::Article)),
        ("og_website", flag(meta.og_type == OgType::Website)),
        ("og_product", flag(meta.og_type == OgType::Product)),
        ("ld_article", flag(meta.ld_article)),
        ("ld_listing", flag(meta.ld_listing)),
        ("ld_product", flag(meta.ld_product)),
        ("published", flag(meta.published)),
    ]);
    out.extend([
        ("kept_card_share", kept_card as f64 / text.max(1) as f64),
        ("linked_headings", ln(linked_headings as f64)),
        ("time_elements", ln(times as f64)),
        ("price_marks", ln(prices as f64)),
    ]);
    out.extend(headline_signals(doc));
    out.extend(url_signals(url));
    out.extend(block_signals(doc, judged));
    out
}

/// How many `<h1>`s [`headline_signals`] reads the text of.
const MAX_H1_READ: u32 = 8;

/// The shape of the page's headline: an article's `<title>` names one story at length (a dozen words,
/// often with a number: "15 indoor plants that handle low light"), a home, listing or service page's
/// names a site or a section in two or three; an article has one `<h1>` that repeats its `<title>`.
/// Word counts treat a CJK character as half a word ([`crate::text::words::word_weight`]), so the signals
/// mean the same in Chinese as in English.
fn headline_signals(doc: &Document) -> [(&'static str, f64); 7] {
    let title = doc.title.as_deref().unwrap_or("");
    let parts = crate::text::words::title_parts(title);
    let longest = parts
        .iter()
        .map(|p| (crate::text::words::word_weight(p), *p))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap_or((0.0, ""));
    let title_words = distinct_words(title);
    let (mut h1s, mut first_words, mut overlap) = (0u32, 0.0f64, 0.0f64);
    for i in doc.body..doc.node(doc.body).end {
        if doc.node(i).tag() != Some(Tag::H1) {
            continue;
        }
        h1s += 1;
        // Only the first few are read: `<h1>`s may nest (through a `<div>`), and reading each one's
        // subtree would then cost the page's size once per level.
        if h1s > MAX_H1_READ {
            continue;
        }
        let text = doc.subtree_text(i);
        if h1s == 1 {
            first_words = crate::text::words::word_weight(&text);
        }
        let words = distinct_words(&text);
        let union = words.union(&title_words).count();
        if union > 0 {
            overlap = overlap.max(words.intersection(&title_words).count() as f64 / union as f64);
        }
    }
    let ln = |x: f64| (1.0 + x).ln();
    [
        ("title_words", ln(crate::text::words::word_weight(title))),
        ("title_part_words", ln(longest.0)),
        ("title_parts", ln(parts.len() as f64)),
        ("title_digit", f64::from(u8::from(longest.1.chars().any(|c| c.is_ascii_digit())))),
        ("h1_count", ln(f64::from(h1s))),
        ("h1_words", ln(first_words)),
        ("h1_title_overlap", overlap),
    ]
}

/// Currency signs ([`crate::text::words::is_currency_sign`]) followed by a digit (spaces between
/// allowed): prices, which shop listings show by the dozen. Every text of the page passes here, so the
/// signs are found by their leading bytes with vector searches (`$`, and the lead bytes of the two-
/// and three-byte signs) and only those places are decoded; `￥` and `฿` are searched for apart, since
/// their lead bytes (EF, E0) also lead the full-width punctuation of every Chinese sentence and the
/// letters of Indic scripts.
fn price_marks(text: &str) -> u32 {
    let b = text.as_bytes();
    let digit_after = |mut i: usize| {
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        b.get(i).is_some_and(u8::is_ascii_digit)
    };
    let sign_at =
        |i: usize| text.get(i..).and_then(|s| s.chars().next()).filter(|&c| crate::text::words::is_currency_sign(c));
    let mut n = 0;
    for i in memchr::memchr3_iter(b'$', 0xC2, 0xE2, b) {
        if let Some(c) = sign_at(i) {
            n += u32::from(digit_after(i + c.len_utf8()));
        }
    }
    static APART: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 2]> = std::sync::LazyLock::new(|| {
        [memchr::memmem::Finder::new("￥".as_bytes()), memchr::memmem::Finder::new("฿".as_bytes())]
    });
    for finder in APART.iter() {
        for i in finder.find_iter(b) {
            n += u32::from(digit_after(i + finder.needle().len()));
        }
    }
    n
}

/// Letters of scripts that separate sentences by spaces rather than marks.
fn unmarked_script(c: char) -> bool {
    matches!(c as u32, 0x0E00..=0x0EFF | 0x1780..=0x17FF | 0x1000..=0x109F)
}

/// The shape of the address: articles live at long, specific paths (a date, a slug of many words, a
/// numeric id), listings at short or generic ones (`/`, `/news/`, `/category/...`).
fn url_signals(url: Option<&str>) -> [(&'static str, f64); 6] {
    let (known, segments) = path_segments(url);
    let last = segments.last().map(String::as_str).unwrap_or("");
    let stem = last.rsplit_once('.').map_or(last, |(a, _)| a);
    let slug_words = stem.split(['-', '_']).filter(|w| w.chars().any(|c| c.is_alphabetic())).count();
    let digits_run = {
        let (mut best, mut cur) = (0, 0);
        for c in stem.chars() {
            cur = if c.is_ascii_digit() { cur + 1 } else { 0 };
            best = best.max(cur);
        }
        best
    };
    let path = segments.join("/");
    let dated = segments.windows(2).any(|w| {
        w[0].len() == 4 && w[0].starts_with("20") && w[0].chars().all(|c| c.is_ascii_digit()) && w[1].len() <= 2
    }) || path.contains("/20") && digits_run >= 6;
    let listing = segments.iter().any(|s| LISTING_PATH_WORDS.contains(&s.as_str()));
    let flag = |b: bool| if known { f64::from(u8::from(b)) } else { 0.0 };
    [
        ("url_depth", segments.len() as f64),
        ("url_root", flag(segments.is_empty())),
        ("url_slug_words", (1.0 + slug_words as f64).ln()),
        ("url_numeric_id", flag(digits_run >= 5)),
        ("url_dated", flag(dated)),
        ("url_listing", flag(listing)),
    ]
}

/// Whether the address parses, and its non-empty path segments in lower case: what the URL signals
/// of both page models read.
pub(super) fn path_segments(url: Option<&str>) -> (bool, Vec<String>) {
    let Some(parsed) = url.and_then(|u| url::Url::parse(u).ok()) else { return (false, Vec::new()) };
    let segments = parsed
        .path_segments()
        .map(|s| s.filter(|x| !x.is_empty()).map(str::to_ascii_lowercase).collect())
        .unwrap_or_default();
    (true, segments)
}

/// The block classifier's verdicts on a page: each block's probability, and the threshold at which a
/// block is kept (`params.auto.block_threshold`, as the selection uses it).
#[derive(Debug, Clone, Copy)]
pub(super) struct Judged<'a> {
    pub blocks: &'a Blocks,
    /// The page's longest run of prose, as `measure` found it.
    pub prose: &'a ProseRun,
    pub p: &'a [f64],
    pub threshold: f64,
}

/// How sure the block classifier is: the character-weighted mean probability of the blocks it kept,
/// how many long blocks it is sure of, and into how many separate runs the kept blocks fall.
fn block_signals(doc: &Document, judged: Option<Judged<'_>>) -> [(&'static str, f64); 9] {
    let Some(Judged { blocks, prose: run, p, threshold }) = judged else {
        return [
            ("kept_mean_p", 0.0),
            ("sure_blocks", 0.0),
            ("kept_runs", 0.0),
            ("kept_list_share", 0.0),
            ("prose_run", 0.0),
            ("prose_run_blocks", 0.0),
            ("prose_run_share", 0.0),
            (HEADLINE_PROSE, 0.0),
            ("headline_prose_share", 0.0),
        ];
    };
    let (mut mass, mut chars, mut sure, mut runs) = (0.0, 0.0, 0u32, 0u32);
    let mut prev = false;
    for (b, &q) in blocks.list.iter().zip(p) {
        let kept = q >= threshold;
        if kept {
            mass += q * f64::from(b.chars);
            chars += f64::from(b.chars);
            if !prev {
                runs += 1;
            }
        }
        sure += u32::from(q >= 0.9 && b.chars >= 80);
        prev = kept;
    }
    let list: f64 =
        blocks.list.iter().zip(p).filter(|(b, q)| **q >= threshold && b.in_list).map(|(b, _)| f64::from(b.chars)).sum();
    let after_headline = headline_prose(doc, blocks, super::prose::Reach::Blocks).chars;
    [
        ("kept_mean_p", mass / chars.max(1.0)),
        ("sure_blocks", (1.0 + f64::from(sure)).ln()),
        ("kept_runs", (1.0 + f64::from(runs)).ln()),
        ("kept_list_share", list / chars.max(1.0)),
        ("prose_run", (1.0 + f64::from(run.chars)).ln()),
        ("prose_run_blocks", (1.0 + f64::from(run.blocks)).ln()),
        ("prose_run_share", f64::from(run.chars) / f64::from(run.all_chars.max(1))),
        (HEADLINE_PROSE, (1.0 + f64::from(after_headline)).ln()),
        ("headline_prose_share", f64::from(after_headline) / f64::from(run.all_chars.max(1))),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::segment::block_owners;
    use super::*;

    fn value(s: &[(&str, f64)], name: &str) -> f64 {
        s.iter().find(|(n, _)| *n == name).map(|x| x.1).unwrap_or(f64::NAN)
    }

    #[test]
    fn prices_read_byte_by_byte_as_character_by_character() {
        // The reading this one replaced: character by character, a sign followed by spaces and a digit.
        fn by_chars(text: &str) -> u32 {
            let (mut n, mut prev) = (0, false);
            for c in text.chars() {
                n += u32::from(prev && c.is_ascii_digit());
                prev = crate::text::words::is_currency_sign(c) || (prev && c == ' ');
            }
            n
        }
        for t in [
            "$5 and € 10, £3.50, ¥ 800, ₹99, ￥12",
            "₽ 90, ₩5000, ₺7, ₫1, ฿ 35, ₴4",
            "$$5 $ $6 $ x7 5$",
            "价格：￥ 128元，原价￥168",
            "हिन्दी ฿",
            "“$”",
            "€",
            "$",
        ] {
            assert_eq!(price_marks(t), by_chars(t), "{t}");
        }
    }

    #[test]
    fn prices_need_a_currency_sign_and_a_digit() {
        assert_eq!(price_marks("Now $19.99, was $ 25 — €5 off, ¥100; costs $x or 5$"), 4);
        assert_eq!(price_marks("no prices here"), 0);
    }

    #[test]
    fn listing_and_article_signals_differ_where_they_should() {
        let card = |k: u32| {
            format!(
                "<div class=card><h3><a href=/{k}>Headline number {k} of the day</a></h3><time>May {k}</time><p>$1{k} each</p></div>"
            )
        };
        let listing =
            format!("<html><body><div class=list>{}</div></body></html>", (1..=6).map(card).collect::<String>());
        let doc = Document::parse(&listing);
        let all: Vec<NodeId> = vec![doc.body];
        let s = signals(
            &doc,
            &block_owners(&doc),
            &all,
            0.1,
            None,
            &PageMeta::default(),
            Some("https://example.com/category/news/"),
        );
        assert_eq!(value(&s, "linked_headings"), (7.0f64).ln());
        assert_eq!(value(&s, "time_elements"), (7.0f64).ln());
        assert_eq!(value(&s, "price_marks"), (7.0f64).ln());
        assert!(value(&s, "kept_card_share") > 0.99);
        assert_eq!(value(&s, "url_listing"), 1.0);
        assert_eq!(value(&s, "url_depth"), 2.0);

        let article = "<html><body><article><h1>Farmers learn new rice methods</h1><p>More than two hundred \
            farmers attended the course, which ran for three days.</p></article></body></html>";
        let doc = Document::parse(article);
        let s = signals(
            &doc,
            &block_owners(&doc),
            &[doc.body],
            0.9,
            None,
            &PageMeta::default(),
            Some("https://example.com/2026/05/farmers-learn-new-rice-methods"),
        );
        assert_eq!(value(&s, "linked_headings"), 0.0);
        assert_eq!(value(&s, "kept_card_share"), 0.0);
        assert_eq!(value(&s, "paragraphs"), (2.0f64).ln());
        assert_eq!(value(&s, "url_dated"), 1.0);
        assert_eq!(value(&s, "url_slug_words"), (6.0f64).ln());
    }

    #[test]
    fn headline_signals_measure_title_and_h1() {
        let page = "<html><head><title>15 Indoor Plants That Can Handle Low Light | Green Home</title></head>\
            <body><h1>15 Indoor Plants That Can Handle Low Light</h1><p>Text.</p></body></html>";
        let doc = Document::parse(page);
        let s = headline_signals(&doc);
        let v = |n: &str| s.iter().find(|x| x.0 == n).map(|x| x.1).unwrap_or(f64::NAN);
        assert_eq!(v("title_words"), 11f64.ln());
        assert_eq!(v("title_part_words"), 9f64.ln());
        assert_eq!(v("title_parts"), 3f64.ln());
        assert_eq!(v("title_digit"), 1.0);
        assert_eq!(v("h1_count"), 2f64.ln());
        assert_eq!(v("h1_words"), 9f64.ln());
        assert!((v("h1_title_overlap") - 8.0 / 10.0).abs() < 1e-9, "{}", v("h1_title_overlap"));

        // A Chinese title: two characters make a word; a home page's short title, no <h1>.
        let doc = Document::parse("<html><head><title>农业培训网</title></head><body><p>首页</p></body></html>");
        let s = headline_signals(&doc);
        let v = |n: &str| s.iter().find(|x| x.0 == n).map(|x| x.1).unwrap_or(f64::NAN);
        assert_eq!(v("title_words"), 3.5f64.ln());
        assert_eq!(v("title_digit"), 0.0);
        assert_eq!(v("h1_count"), 0.0);
        assert_eq!(v("h1_title_overlap"), 0.0);
    }

    #[test]
    fn nested_headings_are_read_a_bounded_number_of_times() {
        let depth = 2000;
        let page = format!("<body>{}x{}</body>", "<h1><div>".repeat(depth), "</div></h1>".repeat(depth));
        let doc = Document::parse(&page);
        let s = headline_signals(&doc);
        let h1s = s.iter().find(|x| x.0 == "h1_count").map(|x| x.1).unwrap_or(0.0);
        assert!(h1s > 1.0, "{h1s}");
    }
}
