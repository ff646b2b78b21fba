//! The class/id word groups the classifier reads: one `name_*` block feature per group of
//! [`NAME_GROUPS`] (`features`), and the page types' vocabularies [`PAGE_NAME_GROUPS`], counted over
//! the page as `names_*` signals (`page_type`). Every group matches [`Match::WordStart`], and
//! [`name_group_bits`] answers all of them for a name in one pass.
//!
//! [`Match::WordStart`]: super::name_matcher::Match::WordStart

use super::name_matcher::{Names, words};

/// Class/id word groups, one block feature each: set when the block's owner or an ancestor has a name
/// matching the group.
pub static NAME_GROUPS: [(&str, Names); 16] = [
    ("name_comment", Names::word_start(&["comment", "disqus", "respond", "reply", "replies", "discussion", "discuss"])),
    (
        "name_share",
        Names::word_start(&["share", "sharing", "social", "sociable", "addthis", "facebook", "twitter", "whatsapp"]),
    ),
    (
        "name_related",
        Names::word_start(&["related", "recommend", "more", "also", "popular", "trending", "similar", "next", "prev"]),
    ),
    ("name_nav", Names::word_start(&["nav", "menu", "breadcrumb", "pagination", "pager", "crumb", "skip", "toc"])),
    ("name_footer", Names::word_start(&["footer", "foot", "copyright", "legal", "bottom"])),
    ("name_sidebar", Names::word_start(&["sidebar", "side", "widget", "aside", "rail", "column", "col"])),
    (
        "name_ad",
        Names::word_start(&[
            "ad",
            "ads",
            "advert",
            "promo",
            "sponsor",
            "banner",
            "outbrain",
            "taboola",
            "dfp",
            "commercial",
        ]),
    ),
    (
        "name_meta",
        Names::word_start(&["author", "byline", "meta", "date", "time", "dateline", "published", "posted", "info"]),
    ),
    ("name_tags", Names::word_start(&["tag", "tags", "category", "categories", "keyword", "topic", "label"])),
    (
        "name_media",
        Names::word_start(&["caption", "credit", "photo", "image", "img", "gallery", "media", "video", "figure"]),
    ),
    (
        "name_content",
        Names::word_start(&["content", "article", "post", "entry", "story", "body", "text", "main", "detail", "news"]),
    ),
    ("name_title", Names::word_start(&["title", "headline", "heading", "header", "hed"])),
    ("name_hidden", Names::word_start(&["hidden", "hide", "sr", "visually", "screen", "offscreen", "print"])),
    (
        "name_signup",
        Names::word_start(&[
            "newsletter",
            "subscribe",
            "signup",
            "login",
            "cookie",
            "consent",
            "popup",
            "modal",
            "cta",
        ]),
    ),
    ("name_list", Names::word_start(&["list", "item", "card", "teaser", "tile", "grid", "feed", "river", "stream"])),
    (
        "name_summary",
        Names::word_start(&["summary", "lead", "intro", "excerpt", "abstract", "dek", "standfirst", "description"]),
    ),
];

/// Element-name vocabularies of the page types, counted over the page (page signals
/// `names_<group>`), not block features: a shop names its cards, prices and carts, a listing its
/// filters, a service page its hero, features and pricing plans, a documentation site its table of
/// contents, code highlighting and admonitions, a forum its posts, users, avatars and votes. Their
/// bits follow [`NAME_GROUPS`]' in [`name_group_bits`].
pub static PAGE_NAME_GROUPS: [(&str, Names); 5] = [
    (
        "names_product",
        Names::word_start(&[
            "product", "price", "cart", "sku", "variant", "checkout", "basket", "swatch", "quantity", "qty", "stock",
            "buy",
        ]),
    ),
    ("names_filter", Names::word_start(&["filter", "facet", "refine", "sort"])),
    (
        "names_hero",
        Names::word_start(&["hero", "feature", "testimonial", "pricing", "plan", "benefit", "service", "faq"]),
    ),
    (
        "names_docs",
        Names::word_start(&[
            "docs",
            "doc",
            "toc",
            "markdown",
            "highlight",
            "language",
            "api",
            "admonition",
            "headerlink",
        ]),
    ),
    (
        "names_post",
        Names::word_start(&[
            "post",
            "message",
            "reply",
            "topic",
            "thread",
            "user",
            "avatar",
            "vote",
            "score",
            "quote",
            "signature",
        ]),
    ),
];

/// Every name group: [`NAME_GROUPS`] (bits 0–15), then [`PAGE_NAME_GROUPS`].
pub const ALL_NAME_GROUPS: usize = NAME_GROUPS.len() + PAGE_NAME_GROUPS.len();

/// Group `g` of [`NAME_GROUPS`] followed by [`PAGE_NAME_GROUPS`].
fn name_group(g: usize) -> &'static Names {
    match NAME_GROUPS.get(g) {
        Some((_, n)) => n,
        None => &PAGE_NAME_GROUPS[g - NAME_GROUPS.len()].1,
    }
}

/// The stems of every name group by first letter, with their group's bit: a name's word is compared
/// only with the stems that can match it.
static STEMS_BY_LETTER: std::sync::LazyLock<Vec<Vec<(&'static str, u32)>>> = std::sync::LazyLock::new(|| {
    let mut t = vec![Vec::new(); 128];
    for g in 0..ALL_NAME_GROUPS {
        for s in name_group(g).stems {
            t[usize::from(s.as_bytes()[0] & 0x7f)].push((*s, 1u32 << g));
        }
    }
    t
});

/// Bit `g` set when the element name matches group `g` of [`NAME_GROUPS`], bit `16 + k` when it
/// matches group `k` of [`PAGE_NAME_GROUPS`].
pub fn name_group_bits(id_class: &str) -> u32 {
    let table = &*STEMS_BY_LETTER;
    let mut bits = 0u32;
    for word in words(id_class) {
        for &(s, bit) in &table[usize::from(word.as_bytes()[0] & 0x7f)] {
            if name_group(bit.trailing_zeros() as usize).word_matches(s, word) {
                bits |= bit;
            }
        }
    }
    bits
}
