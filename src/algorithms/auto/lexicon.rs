//! Every word `auto` matches against a page's names and text, and the rules it matches them by, in
//! one place: the class/id words of containers (noise, comment threads, the feature groups), the cue
//! words and phrases of page furniture, and the path words of listing addresses.
//!
//! An element's *name* here is its `id` and `class` attributes, lower-cased and joined by spaces
//! ([`crate::dom::Element::id_class`]). A rule ([`Names`]) matches a name in one of three documented
//! ways ([`Match`]). Each list says which way it uses and why; they differ on purpose, and each was tuned
//! where it is used with the shipped models trained on its verdicts, so a list may not change its way
//! of matching without retraining and re-evaluating:
//!
//! | list | used for | match |
//! |---|---|---|
//! | [`NOISE_CONTAINERS`] | containers pruned from the heuristic region | [`Match::Within`] |
//! | [`COMMENT_CONTAINERS`] | candidates of the region's core weighed down | [`Match::Within`] |
//! | [`COMMENT_THREADS`] | comment threads left out of the answer | [`Match::WordStart`] (but not "commentar…") and [`Match::Word`] |
//! | [`REVIEW_THREADS`] | a product page's customer reviews, left out like comment threads | [`Match::WordStart`] |
//! | [`CONSENT_NOTICES`] | cookie notices left out of the answer (when their text speaks of cookies) | [`Match::Within`] |
//! | [`NAME_GROUPS`] | the `name_*` block features | [`Match::WordStart`] |
//!
//! Reader comments are thus named by three rules. `Within` over the whole name is broad ("nocomments",
//! "commentary" match) and costs little where a miss is worse than a false alarm (weighing the core,
//! pruning inside a region the classifier judges again); leaving text out of the answer is final, so
//! the thread rule reads whole words and spares opinion sections ("commentary") and wrappers that
//! merely mention comments.

use std::sync::OnceLock;

/// How a stem matches an element's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// The stem occurs anywhere in the name: "comment" matches "nocomments" and "post-comment-list",
    /// and a stem may hold a separator ("author-box").
    Within,
    /// A word of the name begins with the stem; words are split at anything but ASCII letters and
    /// digits. A stem of one or two letters matches only words of at most three letters ("ad" matches
    /// "ad" and "ads", not "adult"; "sr" matches "sr-only" but not "src").
    WordStart,
    /// A word of the name is the stem.
    Word,
}

/// Stems matched one way, with the word beginnings that exclude a match.
///
/// The rules are statics, not constants: each indexes its stems by first byte on first use. A name
/// was compared with each stem in turn (a substring search per stem, or each word with each stem),
/// and the noise, thread and post rules, asked of every element several times a page, were about a
/// tenth of `auto`'s instructions.
#[derive(Debug)]
pub struct Names {
    pub how: Match,
    pub stems: &'static [&'static str],
    /// Words beginning with one of these do not match, whatever stem they begin with (word rules only).
    pub unless: &'static [&'static str],
    /// The stems by first byte, built on first use.
    by_first: OnceLock<StemIndex>,
}

impl Names {
    pub const fn within(stems: &'static [&'static str]) -> Names {
        Names { how: Match::Within, stems, unless: &[], by_first: OnceLock::new() }
    }

    pub const fn word_start(stems: &'static [&'static str]) -> Names {
        Names { how: Match::WordStart, stems, unless: &[], by_first: OnceLock::new() }
    }

    pub const fn words(stems: &'static [&'static str]) -> Names {
        Names { how: Match::Word, stems, unless: &[], by_first: OnceLock::new() }
    }

    /// [`Names::word_start`] but for words that begin with one of `unless`.
    pub const fn word_start_unless(stems: &'static [&'static str], unless: &'static [&'static str]) -> Names {
        Names { how: Match::WordStart, stems, unless, by_first: OnceLock::new() }
    }

    /// Does one word of a name match `stem` (one of this rule's stems)? Word rules only.
    #[inline]
    pub fn word_matches(&self, stem: &str, word: &str) -> bool {
        let hit = match self.how {
            Match::Within => false,
            Match::WordStart => word.starts_with(stem) && (stem.len() > 2 || word.len() <= 3),
            Match::Word => word == stem,
        };
        hit && !self.unless.iter().any(|u| word.starts_with(u))
    }

    /// Does the element name `id_class` match?
    pub fn matches(&self, id_class: &str) -> bool {
        let by_first = self.by_first.get_or_init(|| StemIndex::new(self.stems));
        let bytes = id_class.as_bytes();
        match self.how {
            Match::Within => (0..bytes.len()).any(|i| {
                by_first.starting_with(bytes[i]).iter().any(|&s| bytes[i..].starts_with(self.stems[s].as_bytes()))
            }),
            _ => words(id_class)
                .any(|w| by_first.starting_with(w.as_bytes()[0]).iter().any(|&s| self.word_matches(self.stems[s], w))),
        }
    }

    /// [`Names::matches`] comparing every stem (what the index must agree with).
    #[cfg(test)]
    fn matches_stem_by_stem(&self, id_class: &str) -> bool {
        match self.how {
            Match::Within => self.stems.iter().any(|s| id_class.contains(s)),
            _ => words(id_class).any(|w| self.stems.iter().any(|s| self.word_matches(s, w))),
        }
    }
}

/// A rule's stems by their first byte: a name is compared only with the stems that can start at each
/// of its bytes (or words).
#[derive(Debug)]
struct StemIndex {
    /// Where each first byte's stems start in `stems`, and end (at the next byte's start).
    starts: [u16; 257],
    /// Indices into the rule's stems, grouped by first byte.
    stems: Vec<usize>,
}

impl StemIndex {
    fn new(stems: &[&str]) -> StemIndex {
        let first = |s: usize| usize::from(stems[s].as_bytes().first().copied().unwrap_or(0));
        let mut order: Vec<usize> = (0..stems.len()).collect();
        order.sort_by_key(|&s| first(s));
        let mut starts = [0u16; 257];
        for (b, start) in starts.iter_mut().enumerate() {
            let n = order.iter().take_while(|&&s| first(s) < b).count();
            *start = u16::try_from(n).unwrap_or(u16::MAX);
        }
        StemIndex { starts, stems: order }
    }

    /// The stems whose first byte is `b`.
    #[inline]
    fn starting_with(&self, b: u8) -> &[usize] {
        let b = usize::from(b);
        self.stems.get(usize::from(self.starts[b])..usize::from(self.starts[b + 1])).unwrap_or(&[])
    }
}

/// Does the element name `id_class` match any of `rules`?
pub fn matches_any(rules: &[Names], id_class: &str) -> bool {
    rules.iter().any(|r| r.matches(id_class))
}

/// The words of an element name: its runs of ASCII letters and digits (anything else separates).
/// Found byte by byte: a word is an ASCII run, so its bytes are a `str`, and no character is decoded
/// (the name rules read every element's name several times a page).
pub fn words(id_class: &str) -> impl Iterator<Item = &str> {
    let bytes = id_class.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        (at > start).then(|| &id_class[start..at])
    })
}

/// Containers that are never main content when they sit inside the heuristic article region.
pub static NOISE_CONTAINERS: Names = Names::within(&[
    "comment",
    "disqus",
    "share",
    "sharing",
    "social",
    "related",
    "recommend",
    "sidebar",
    "footer",
    "breadcrumb",
    "menu",
    "navbar",
    "newsletter",
    "subscribe",
    "promo",
    "advert",
    "sponsor",
    "cookie",
    "popup",
    "widget",
    "pagination",
    "pager",
    "tagcloud",
    "toolbar",
    "rating",
    "respond",
    "reply",
    "author-box",
    "authorbox",
    "more-stories",
    "read-more",
    "readmore",
    "outbrain",
    "taboola",
]);

/// Containers of comment threads, whose text weighs a tenth when the region's core is chosen (a
/// thread often holds more text than the article it follows).
pub static COMMENT_CONTAINERS: Names = Names::within(&["comment", "disqus", "respond", "discussion", "replies"]);

/// Reader-comment threads ("comments", "comment-list", "disqus_thread", "respond", "replies", or the
/// pinyin "pinglun" of Chinese sites), but not an opinion piece ("commentary").
pub static COMMENT_THREADS: [Names; 2] = [
    Names::word_start_unless(&["comment", "disqus", "pinglun"], &["commentar"]),
    Names::words(&["respond", "replies"]),
];

/// Footers written as plain elements named for one ("footer", "site-footer", "page_footer",
/// "footer-links"): the word itself, as `<footer>` would be. "footnotes" is another word.
pub static FOOTERS: [Names; 1] = [Names::words(&["footer"])];

/// Customer-review sections of a product page ("reviews", "product-reviews", "review-list"): a
/// product's comment thread. Review widgets' vendor names and "rating" / "testimonial" added nothing
/// on product pages and cost elsewhere (docs/EVALUATION.md), so the one stem stays.
pub static REVIEW_THREADS: [Names; 1] = [Names::word_start(&["review"])];

/// A listing's filter and sort panels ("filters-panel", "facet-list", "refinements").
pub static FILTER_PANELS: [Names; 1] = [Names::word_start(&["filter", "facet", "refine"])];

/// Cookie and consent notices: consent managers' containers ("onetrust-consent-sdk",
/// "cookie-consent", "moove_gdpr_cookie_modal") and cookie banners. A bare "cookie" is not among
/// them: documentation names its section on cookies so.
pub static CONSENT_NOTICES: Names = Names::within(&[
    "consent",
    "gdpr",
    "cookie-banner",
    "cookiebanner",
    "cookie-notice",
    "cookienotice",
    "cookie-bar",
    "cookiebar",
    "cookie-law",
    "cookielaw",
]);

/// Does the element name `id_class` match [`CONSENT_NOTICES`]? Every element's name is asked, so the
/// three roots the stems share are searched first with searchers built once; the ten stems only when
/// "cookie" is there.
pub fn is_consent_notice(id_class: &str) -> bool {
    use memchr::memmem::Finder;
    static ROOTS: std::sync::LazyLock<[Finder<'static>; 3]> =
        std::sync::LazyLock::new(|| [Finder::new("consent"), Finder::new("gdpr"), Finder::new("cookie")]);
    let [consent, gdpr, cookie] = &*ROOTS;
    let name = id_class.as_bytes();
    consent.find(name).is_some()
        || gdpr.find(name).is_some()
        || (cookie.find(name).is_some() && CONSENT_NOTICES.matches(id_class))
}

/// Names of a reprint or copyright notice, matched anywhere in a short text: "版权与免责声明：",
/// "反侵权公告" (simplified and traditional script).
const REPRINT_NOTICE_NAMES: &[&str] =
    &["免责声明", "版权声明", "侵权公告", "版权与免责", "免責聲明", "版權聲明", "侵權公告", "版權與免責"];
/// What a notice opens with: "声明：该文观点仅代表作者本人…".
const REPRINT_NOTICE_OPENINGS: &[&str] = &["声明：", "声明:", "聲明：", "聲明:"];
/// Words of rights that, beside "reprint" (转载), make a text a reprint notice.
const REPRINT_RIGHTS: &[&str] = &["侵权", "版权", "著作权", "侵權", "版權", "著作權"];

/// Is the short `text` a reprint or copyright notice: named so, opening with "声明：", or speaking of
/// reprinting (转载) and of rights or infringement together ("未经书面许可，擅自转载…侵权")? A
/// writer's "本文禁止转载" under a post names no right and is not one.
pub fn is_reprint_notice(text: &str) -> bool {
    // Every notice here is in Chinese script; most texts asked are not (a quick scan first).
    if text.is_ascii() {
        return false;
    }
    let text = text.trim_start();
    REPRINT_NOTICE_NAMES.iter().any(|n| text.contains(n))
        || REPRINT_NOTICE_OPENINGS.iter().any(|o| text.starts_with(o))
        || ((text.contains("转载") || text.contains("轉載")) && REPRINT_RIGHTS.iter().any(|r| text.contains(r)))
}

/// Labels of controls, lower-case, without trailing dots, ellipses or arrows.
pub const INTERFACE_LABELS: &[&str] = &[
    "loading",
    "click to expand",
    "click to shrink",
    "show more",
    "show less",
    "load more",
    "see more",
    "view more",
    "read more",
    "expand",
    "collapse",
    "加载中",
    "加载更多",
    "查看更多",
    "点击加载更多",
    "展开",
    "收起",
];
/// Is `text`, whole, a control's label ([`INTERFACE_LABELS`], [`SHOP_CONTROLS`],
/// [`LISTING_CONTROLS`]) or a vote count ("12 likes"): "Click to expand...", "Loading…", "READ MORE
/// »", "Add to cart", "Sort by:"? Case, spacing and trailing dots, ellipses and arrows aside.
pub fn is_interface_label(text: &str) -> bool {
    static LABELS: std::sync::LazyLock<Phrases> =
        std::sync::LazyLock::new(|| Phrases::new(&[INTERFACE_LABELS, SHOP_CONTROLS]));
    static CONTROLS: std::sync::LazyLock<Phrases> = std::sync::LazyLock::new(|| Phrases::new(&[LISTING_CONTROLS]));
    let t = text.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '.' | '…' | '>' | '»' | '+'));
    LABELS.hold(t) || {
        // Sort and filter labels end with a colon ("Sort by:").
        let t = t.trim_end_matches(|c: char| c.is_whitespace() || c == ':');
        CONTROLS.hold(t) || is_like_count(t)
    }
}

/// The largest [`solid_length`]: longer texts and phrases count as this long.
const SOLID_MAX: usize = 127;

/// The bytes of `text` outside whitespace, up to [`SOLID_MAX`]: the same for a text as for a phrase
/// it has the [`same_words`] as, since ASCII case folding keeps every byte's length.
fn solid_length(text: &str) -> usize {
    text.split_whitespace().map(str::len).sum::<usize>().min(SOLID_MAX)
}

/// Phrases grouped by their [`solid_length`]: a text is compared only with the phrases of its own
/// length. The lists are asked of every short block, and most texts have a length no phrase has;
/// the others were compared with every phrase of the lists (a fifth of the selection's
/// instructions on wcxb-dev).
struct Phrases(Vec<Vec<&'static str>>);

impl Phrases {
    fn new(lists: &[&[&'static str]]) -> Phrases {
        let mut by_length = vec![Vec::new(); SOLID_MAX + 1];
        for &p in lists.iter().flat_map(|l| l.iter()) {
            by_length[solid_length(p)].push(p);
        }
        Phrases(by_length)
    }

    /// Whether `text` has the [`same_words`] as one of the phrases.
    fn hold(&self, text: &str) -> bool {
        self.0[solid_length(text)].iter().any(|p| same_words(text, p))
    }
}

/// A forum poster's rank as the whole text ("Senior Member", "Moderator").
pub const MEMBER_RANKS: &[&str] = &[
    "member",
    "new member",
    "junior member",
    "senior member",
    "full member",
    "active member",
    "well-known member",
    "moderator",
    "administrator",
    "original poster",
];

/// Is `text` what a forum prints beside each post about its poster and thread ("Posts: 1,077",
/// "Joined: Mar 2019", "Registered: 2016-07-02", "Start date Jul 9, 2022", with a number), or a rank
/// ([`MEMBER_RANKS`])? "Posts about rice" has neither colon nor number.
/// Asked of every short block, so nothing is allocated (case is compared ASCII-insensitively).
pub fn is_poster_detail(t: &str) -> bool {
    let t = t.trim();
    static RANKS: std::sync::LazyLock<Phrases> = std::sync::LazyLock::new(|| Phrases::new(&[MEMBER_RANKS]));
    let counted = ["posts:", "messages:", "reaction score:", "joined:", "registered:", "start date"];
    RANKS.hold(t)
        || (t.len() <= 40 && counted.iter().any(|p| opens_with(t, p)) && t.bytes().any(|b| b.is_ascii_digit()))
}

/// Controls over a list of results and the page: sorting and filtering it, applying to a listed job
/// or course, skipping to the results, and the label over an advertisement.
pub const LISTING_CONTROLS: &[&str] = &[
    "apply now",
    "sort",
    "sort by",
    "filter",
    "filters",
    "filter by",
    "skip to search results",
    "skip to content",
    "skip to main content",
    "advertisement",
];

/// A post's vote widget: "1 Like", "12 likes".
fn is_like_count(t: &str) -> bool {
    let mut w = t.split_whitespace();
    matches!((w.next(), w.next(), w.next()), (Some(n), Some(l), None)
        if n.bytes().all(|b| b.is_ascii_digit()) && (l.eq_ignore_ascii_case("like") || l.eq_ignore_ascii_case("likes")))
}

/// A shop's controls, printed on every product card of a listing and beside a product's own text
/// ("Quick view", "Add to cart", "Compare"). "Learn more" is not among them: service pages' golds
/// keep it as often as not (docs/EVALUATION.md).
pub const SHOP_CONTROLS: &[&str] = &[
    "quick view",
    "quick shop",
    "quick add",
    "add to cart",
    "add to bag",
    "add to basket",
    "add to wishlist",
    "add to wish list",
    "add to compare",
    "wishlist",
    "+ wishlist",
    "compare",
    "select size",
    "select options",
    "choose options",
    "view options",
    "view details",
    "shop now",
    "buy now",
    "back to product",
    "back to top",
    "qty:",
];

/// Are the whitespace-separated words of `text` those of `phrase` (one space between words), ASCII
/// case aside? Asked of every short block, so nothing is allocated.
fn same_words(text: &str, phrase: &str) -> bool {
    let mut words = text.split_whitespace();
    phrase.split(' ').all(|p| words.next().is_some_and(|w| w.eq_ignore_ascii_case(p))) && words.next().is_none()
}

/// What a breadcrumb trail opens with: "您现在的位置：", "当前位置：", "You are here:".
const BREADCRUMB_OPENINGS: &[&str] = &[
    "您现在的位置",
    "您的位置",
    "你的位置",
    "当前位置",
    "所在位置",
    "現在位置",
    "目前位置",
    "您現在的位置",
    "當前位置",
    "you are here",
];
/// The signs that separate a trail's steps.
const BREADCRUMB_SEPARATORS: &[char] = &['>', '»', '›', '/', '→', '＞', '|', '-'];

/// Is `text` a breadcrumb trail: it opens by saying where the reader is ([`BREADCRUMB_OPENINGS`]) and
/// names the steps with a separator between them?
pub fn is_breadcrumb(text: &str) -> bool {
    let t = text.trim_start();
    BREADCRUMB_OPENINGS.iter().any(|o| opens_with(t, o)) && t.contains(BREADCRUMB_SEPARATORS)
}

/// Does `text` open with `opening`, ASCII case aside?
fn opens_with(text: &str, opening: &str) -> bool {
    text.get(..opening.len()).is_some_and(|p| p.eq_ignore_ascii_case(opening))
}

/// What a link to the previous or next article opens with, before a colon.
const PREV_NEXT_OPENINGS: &[&str] = &[
    "上一篇",
    "下一篇",
    "上一条",
    "下一条",
    "前一篇",
    "后一篇",
    "上篇",
    "下篇",
    "上一篇文章",
    "下一篇文章",
    "上一則",
    "下一則",
    "previous article",
    "next article",
    "previous post",
    "next post",
    "previous story",
    "next story",
];

/// Is `text` a link to the previous or next article: it opens with one of [`PREV_NEXT_OPENINGS`]
/// and a colon ("上一篇：关于…的通知", "Next post: Seed fair")? "上篇文章讲到…" has no colon.
pub fn is_prev_next_link(text: &str) -> bool {
    let t = text.trim_start();
    PREV_NEXT_OPENINGS.iter().any(|o| opens_with(t, o) && t[o.len()..].trim_start().starts_with([':', '：']))
}

/// The marks of a site's registration record in China: "京ICP备12345678号", "京ICP证030173号",
/// "京公网安备 11000002000001号".
const SITE_RECORD_MARKS: &[&str] = &["ICP备", "ICP证", "公网安备"];

/// Is `text` one web address and nothing else: a single word (no whitespace once trimmed) that opens
/// with `http://`, `https://` or `//` and has a dot after the scheme? A label before it ("Website:")
/// or a sentence around it makes it no bare address.
pub fn is_bare_address(text: &str) -> bool {
    let t = text.trim();
    let rest = ["https://", "http://", "//"]
        .iter()
        .find_map(|s| t.get(..s.len()).filter(|p| p.eq_ignore_ascii_case(s)).map(|_| &t[s.len()..]));
    rest.is_some_and(|r| r.len() >= 4 && r.contains('.') && !r.contains(char::is_whitespace))
}

/// Does `text` hold a site's registration record: one of [`SITE_RECORD_MARKS`] with a digit within
/// the next four characters? An article about filing ("网站要办理ICP备案") names the mark without a
/// number.
pub fn is_site_record(text: &str) -> bool {
    static MARKS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::LazyLock::new(|| SITE_RECORD_MARKS.iter().map(memchr::memmem::Finder::new).collect());
    !text.is_ascii()
        && MARKS.iter().any(|m| {
            let len = m.needle().len();
            m.find_iter(text.as_bytes()).any(|i| text[i + len..].chars().take(4).any(|c| c.is_ascii_digit()))
        })
}

/// Is `text` a share prompt: "Share", "Share this with friends", "Share on X" (the word "share" and
/// at most four more), "Show more sharing options", "分享到：", or a prompt to scan a QR code
/// ("微信扫一扫", "扫码阅读全文", "关注该公众号")? "Shareholders" and "Shared storage" are not.
pub fn is_share_prompt(text: &str) -> bool {
    let t = text.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '：')).trim_start();
    (t.split_whitespace().next().is_some_and(|w| w.eq_ignore_ascii_case("share")) && t.split_whitespace().count() <= 5)
        || same_words(t, "show more sharing options")
        || (!t.is_ascii()
            && (t == "分享"
                || ["分享到", "分享至", "分享：", "分享:"].iter().any(|p| t.starts_with(p))
                || QR_PROMPTS.iter().any(|f| f.find(t.as_bytes()).is_some())))
}

/// Prompts to scan a QR code, in searchers built once: asked of every short block, and a `str`
/// search prepares its searcher anew on each call.
static QR_PROMPTS: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 4]> =
    std::sync::LazyLock::new(|| ["扫一扫", "二维码", "扫码", "关注该公众号"].map(memchr::memmem::Finder::new));

/// Headings of a product page's recommendation rails, lower-case, matched anywhere in a short heading
/// ("People who viewed this item also viewed", "Others like you also bought:").
pub const RAIL_HEADINGS: &[&str] = &[
    "also viewed",
    "also bought",
    "also like",
    "also love",
    "similar items",
    "similar products",
    "related products",
    "related items",
    "recommended for you",
    "customers also",
    "frequently bought together",
    "complete the look",
    "recently viewed",
    "you may like",
    "相关推荐",
    "猜你喜欢",
];

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

/// Latin-script words of page furniture, lower-case and sorted (for a binary search).
pub const CUE_WORDS: &[&str] = &[
    "advertisement",
    "archive",
    "archives",
    "bookmark",
    "categories",
    "category",
    "comment",
    "comments",
    "contact",
    "cookie",
    "cookies",
    "copyright",
    "email",
    "facebook",
    "follow",
    "home",
    "login",
    "logout",
    "menu",
    "newsletter",
    "next",
    "password",
    "posted",
    "previous",
    "print",
    "privacy",
    "recommended",
    "register",
    "related",
    "reply",
    "reserved",
    "rss",
    "search",
    "share",
    "sign",
    "sponsored",
    "subscribe",
    "tags",
    "terms",
    "tweet",
    "twitter",
    "whatsapp",
];

/// Phrases of page furniture in scripts written without spaces.
pub const CUE_PHRASES: &[&str] = &[
    "分享",
    "评论",
    "责任编辑",
    "相关",
    "推荐",
    "上一篇",
    "下一篇",
    "登录",
    "注册",
    "版权",
    "广告",
    "来源",
    "点击",
    "首页",
    "收藏",
    "打印",
    "关注",
    "举报",
];

/// How many furniture words and phrases a text holds.
pub fn boilerplate_cues(text: &str) -> u32 {
    let mut n = 0;
    // Words are lower-cased into a small buffer: cue words are short, longer words cannot match, and a
    // word with non-ASCII letters in it is none of them.
    let mut word = [0u8; 16];
    let mut len = 0usize;
    let mut spoilt = false;
    let mut cjk = false;
    // Per first letter, the lengths of the cue words that begin with it (bit `len`): most words of a
    // text are answered by this before any comparison (a binary search of the list compared strings,
    // most of the time spent cutting pages into blocks).
    static LENGTHS: std::sync::LazyLock<[u32; 26]> = std::sync::LazyLock::new(|| {
        let mut t = [0u32; 26];
        for w in CUE_WORDS {
            let first = w.as_bytes()[0];
            if first.is_ascii_lowercase() && w.len() < 32 {
                t[usize::from(first - b'a')] |= 1 << w.len();
            }
        }
        t
    });
    let lengths = &*LENGTHS;
    // `word` is 1 to 16 bytes long (the buffer below).
    let possible =
        |word: &[u8]| word[0].is_ascii_lowercase() && lengths[usize::from(word[0] - b'a')] >> word.len() & 1 == 1;
    let check = |word: &[u8], n: &mut u32| {
        if word.len() >= 3 && possible(word) && CUE_WORDS.binary_search_by(|c| c.as_bytes().cmp(word)).is_ok() {
            *n += 1;
        }
    };
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() {
            if len < word.len() {
                word[len] = b.to_ascii_lowercase();
                len += 1;
            } else {
                spoilt = true;
            }
        } else if b >= 0x80 {
            spoilt |= len > 0;
            cjk |= b >= CJK_LEAD;
        } else {
            if len > 0 && !spoilt {
                check(&word[..len], &mut n);
            }
            len = 0;
            spoilt = false;
        }
    }
    if len > 0 && !spoilt {
        check(&word[..len], &mut n);
    }
    // Every cue phrase is CJK (U+3000 and up, lead byte 0xE3 or more): a text without such a
    // character, curly quotes and accents aside, holds none of them.
    if cjk {
        n += cue_phrases(text);
    }
    n
}

/// How many times the [`CUE_PHRASES`] occur in `text`, each phrase counted as a search for it alone
/// would count it (occurrences of one phrase do not overlap; occurrences of different phrases may).
/// One automaton pass: a search per phrase read each block's text eighteen times, a few percent of
/// `auto`'s instructions on Chinese pages.
fn cue_phrases(text: &str) -> u32 {
    static PHRASES: std::sync::LazyLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::LazyLock::new(|| aho_corasick::AhoCorasick::new(CUE_PHRASES).ok());
    let Some(ac) = PHRASES.as_ref() else {
        return CUE_PHRASES.iter().map(|p| text.matches(p).count() as u32).sum();
    };
    // Where the last counted occurrence of each phrase ended: one phrase's occurrences come in the
    // order of their starts, and one that begins inside the last counted is not counted.
    let mut ends = [0usize; CUE_PHRASES.len()];
    let mut n = 0;
    for m in ac.find_overlapping_iter(text) {
        let end = &mut ends[m.pattern().as_usize()];
        if m.start() >= *end {
            *end = m.end();
            n += 1;
        }
    }
    n
}

/// The smallest lead byte of a UTF-8 character at U+3000 or above.
const CJK_LEAD: u8 = 0xE3;

/// Path segments of listing addresses (`/category/...`, `/tags/`, `/page/2`): a whole segment, any case.
pub const LISTING_PATH_WORDS: &[&str] = &[
    "category",
    "categories",
    "tag",
    "tags",
    "topic",
    "topics",
    "list",
    "lists",
    "search",
    "shop",
    "collections",
    "collection",
    "products",
    "archive",
    "archives",
    "page",
    "index",
    "c",
    "browse",
    "section",
];

/// Path segments that suggest a page type, one weak signal among many: a whole segment, any case.
/// Each list is one type's vocabulary across common publishing systems and languages (pinyin
/// included: Chinese portals name their columns so).
pub const TYPE_PATH_WORDS: &[(&str, &[&str])] = &[
    (
        "url_forum",
        &[
            "forum",
            "forums",
            "thread",
            "threads",
            "t",
            "community",
            "discuss",
            "discussion",
            "discussions",
            "questions",
            "q",
            "bbs",
            "board",
            "boards",
            "viewtopic",
            "showthread",
            "r",
            "comments",
        ],
    ),
    ("url_product", &["product", "products", "p", "item", "items", "dp", "sku", "goods", "buy", "shop", "store"]),
    (
        "url_docs",
        &[
            "docs",
            "doc",
            "documentation",
            "api",
            "reference",
            "guide",
            "guides",
            "manual",
            "learn",
            "tutorial",
            "tutorials",
            "wiki",
            "handbook",
            "kb",
            "knowledge-base",
            "help",
            "developer",
            "developers",
        ],
    ),
    (
        "url_service",
        &[
            "services",
            "service",
            "solutions",
            "solution",
            "pricing",
            "about",
            "about-us",
            "contact",
            "contact-us",
            "features",
            "plans",
            "locations",
            "careers",
            "fuwu",
        ],
    ),
];

/// Short texts of buttons and labels that sell: a product page has them once or twice near its
/// price, a shop listing once per card. Matched case-insensitively as the whole (trimmed) text.
pub const CART_TEXTS: &[&str] = &[
    "add to cart",
    "add to bag",
    "add to basket",
    "add to trolley",
    "buy now",
    "buy it now",
    "in stock",
    "out of stock",
    "sold out",
    "add to wishlist",
    "加入购物车",
    "立即购买",
    "马上购买",
    "有货",
    "无货",
];

/// Element name words of posts in a thread (forums, Q&A sites, comment-style replies).
pub static POST_NAMES: Names = Names::words(&[
    "post",
    "posts",
    "reply",
    "replies",
    "message",
    "answer",
    "answers",
    "postbody",
    "post-body",
    "topic-post",
]);

/// Link texts of pagination: listings and threads run over pages.
pub const PAGINATION_TEXTS: &[&str] =
    &["next", "next page", "older posts", "newer posts", "»", "›", "下一页", "上一页", "尾页", "末页", "下页", "上页"];

/// Phrases of a page type's interface, found anywhere in a short text (at most [`TYPE_CUE_CHARS`]
/// characters, ASCII case ignored) and counted per text as page signals `cues_<group>`: a shop's
/// buying controls, a service page's calls to action and sections, documentation's page furniture,
/// a thread's post controls and poster details, a listing's sorting and paging. Where the exact-text
/// lists ([`CART_TEXTS`], [`CONTACT_TEXTS`]) ask for the whole text, these find the phrase inside a
/// label ("Add to cart – $24.99", "Posted 3 days ago", "Sort by: Newest").
pub const TYPE_CUES: &[(&str, &[&str])] = &[
    (
        "cues_cart",
        &[
            "add to cart",
            "add to bag",
            "add to basket",
            "buy now",
            "in stock",
            "out of stock",
            "add to wishlist",
            "quantity",
            "free shipping",
            "sold out",
            "select size",
            "size guide",
            "checkout",
            "加入购物车",
            "立即购买",
            "库存",
        ],
    ),
    (
        "cues_service",
        &[
            "get started",
            "book a demo",
            "contact us",
            "free trial",
            "free quote",
            "request a quote",
            "get a quote",
            "schedule",
            "pricing",
            "testimonials",
            "why choose",
            "our services",
            "learn more",
            "talk to",
            "call us",
            "book now",
            "sign up",
            "request a demo",
            "get in touch",
            "our team",
            "case studies",
            "联系我们",
            "在线咨询",
            "免费咨询",
            "立即咨询",
        ],
    ),
    (
        "cues_docs",
        &[
            "edit this page",
            "on this page",
            "table of contents",
            "was this page helpful",
            "api reference",
            "parameters",
            "returns",
            "see also",
            "syntax",
            "example",
            "note",
            "warning",
            "tip",
            "next",
            "previous",
            "copy",
            "edit on github",
            "version",
            "参数",
            "返回值",
            "示例",
            "目录",
        ],
    ),
    (
        "cues_reply",
        &[
            "reply",
            "replies",
            "quote",
            "joined",
            "posts:",
            "members",
            "thread",
            "upvote",
            "permalink",
            "report",
            "votes",
            "points",
            "share",
            "posted",
            "member",
            "messages",
            "likes",
            "original poster",
            "回复",
            "楼主",
            "发表于",
            "引用",
            "举报",
        ],
    ),
    (
        "cues_listing",
        &[
            "sort by",
            "filter",
            "load more",
            "view all",
            "show more",
            "results",
            "next page",
            "items",
            "showing",
            "更多",
            "下一页",
        ],
    ),
];

/// The longest text (characters of UTF-8, as bytes at most four times as many) read for [`TYPE_CUES`].
pub const TYPE_CUE_CHARS: usize = 60;

/// The [`TYPE_CUES`] automaton and each phrase's group.
static TYPE_CUE_PHRASES: std::sync::LazyLock<Option<(aho_corasick::AhoCorasick, Vec<u32>)>> =
    std::sync::LazyLock::new(|| {
        let mut phrases: Vec<&str> = Vec::new();
        let mut group: Vec<u32> = Vec::new();
        for (k, (_, list)) in TYPE_CUES.iter().enumerate() {
            phrases.extend(list.iter().copied());
            group.extend(std::iter::repeat_n(k as u32, list.len()));
        }
        let ac = aho_corasick::AhoCorasick::builder().ascii_case_insensitive(true).build(&phrases).ok()?;
        Some((ac, group))
    });

/// How many of the texts hold a phrase of each group of [`TYPE_CUES`], whole words only ("tip" is no
/// cue in "multiple", nor "note" in "notebook"). The texts come joined in `joined`, each followed by
/// a line break (no phrase holds one), starting at the offsets `starts`: one automaton pass over all
/// of them, where a search per text spent most of its time starting and stopping.
pub fn type_cue_counts(joined: &str, starts: &[usize]) -> [u32; TYPE_CUES.len()] {
    let mut counts = [0u32; TYPE_CUES.len()];
    let Some((ac, group)) = TYPE_CUE_PHRASES.as_ref() else { return counts };
    let b = joined.as_bytes();
    let bound = |i: usize| b.get(i).is_none_or(|c| !c.is_ascii_alphanumeric());
    // The text being read and the groups already counted for it.
    let (mut text, mut seen) = (usize::MAX, 0u32);
    for m in ac.find_overlapping_iter(joined) {
        if !((m.start() == 0 || bound(m.start() - 1)) && bound(m.end())) {
            continue;
        }
        let k = starts.partition_point(|&s| s <= m.start()).saturating_sub(1);
        if k != text {
            (text, seen) = (k, 0);
        }
        let bit = 1u32 << group[m.pattern().as_usize()];
        if seen & bit == 0 {
            seen |= bit;
            counts[group[m.pattern().as_usize()] as usize] += 1;
        }
    }
    counts
}

/// Short texts that invite a visitor to get in touch or sign up: the calls to action of service pages.
pub const CONTACT_TEXTS: &[&str] = &[
    "contact us",
    "get a quote",
    "request a quote",
    "get started",
    "book now",
    "book a demo",
    "request a demo",
    "schedule a consultation",
    "free consultation",
    "get in touch",
    "call now",
    "联系我们",
    "在线咨询",
    "立即咨询",
    "免费咨询",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_automaton_matches_names_as_the_stems_one_by_one_do() {
        let names = [
            "post-comment-list",
            "nocomments",
            "commentary",
            "comments-area",
            "ad",
            "ads adult",
            "sr-only src",
            "post-body",
            "topic-post posts",
            "postbody",
            "entry-content",
            "reply replies",
            "review-list reviews",
            "site-footer",
            "footnotes",
            "filters facet-group",
            "author-box authorbox",
            "ré-comment é",
            "navbar nav-main",
            "",
        ];
        let mut rules: Vec<&Names> = vec![&NOISE_CONTAINERS, &COMMENT_CONTAINERS, &CONSENT_NOTICES, &POST_NAMES];
        rules.extend(COMMENT_THREADS.iter().chain(&FOOTERS).chain(&REVIEW_THREADS).chain(&FILTER_PANELS));
        rules.extend(NAME_GROUPS.iter().map(|(_, n)| n));
        rules.extend(PAGE_NAME_GROUPS.iter().map(|(_, n)| n));
        for name in names {
            let by_chars: Vec<&str> =
                name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
            assert_eq!(words(name).collect::<Vec<_>>(), by_chars, "{name:?}");
        }
        let mut hits = 0;
        for rule in rules {
            for name in names {
                assert_eq!(rule.matches(name), rule.matches_stem_by_stem(name), "{name:?} {:?}", rule.stems);
                hits += usize::from(rule.matches(name));
            }
        }
        assert!(hits > 20, "{hits}");
        assert!(COMMENT_THREADS[0].matches("post-comment-list") && !COMMENT_THREADS[0].matches("commentary"));
        assert!(POST_NAMES.matches("topic-post posts") && !POST_NAMES.matches("postbodyx poster"));
    }

    #[test]
    fn phrases_by_length_answer_as_every_phrase_compared_does() {
        let lists: [&[&str]; 3] = [INTERFACE_LABELS, SHOP_CONTROLS, MEMBER_RANKS];
        let phrases = Phrases::new(&lists);
        let mut texts: Vec<String> =
            lists.concat().iter().flat_map(|p| [p.to_uppercase(), format!(" {p}  x")]).collect();
        texts.extend(
            ["", "Add  to   CART", "add to carts", "Senior  Member", "x".repeat(200).as_str()].map(String::from),
        );
        for t in &texts {
            assert_eq!(phrases.hold(t), lists.concat().iter().any(|p| same_words(t, p)), "{t:?}");
        }
        assert!(phrases.hold("Add  to   CART") && !phrases.hold("add to carts"));
    }

    #[test]
    fn phrase_lists_are_single_spaced_so_their_lengths_answer_for_them() {
        for p in [INTERFACE_LABELS, SHOP_CONTROLS, LISTING_CONTROLS, MEMBER_RANKS].concat() {
            assert_eq!(p.split_whitespace().collect::<Vec<_>>().join(" "), p, "{p:?}");
        }
        assert!(is_interface_label("READ  MORE »") && is_interface_label("Sort by:") && is_interface_label("12 likes"));
        assert!(!is_interface_label("Read more about rice") && !is_interface_label(&"x ".repeat(40)));
        assert!(is_poster_detail("Senior  Member") && !is_poster_detail("Senior Members"));
    }

    #[test]
    fn consent_notice_names_match_as_their_stems_do() {
        for name in [
            "onetrust-consent-sdk",
            "moove_gdpr_cookie_modal",
            "site cookie-banner",
            "cookielaw-popup",
            "cookie-notice",
        ] {
            assert!(is_consent_notice(name) && CONSENT_NOTICES.matches(name), "{name}");
        }
        for name in ["cookies", "cookie-recipes", "article-body", ""] {
            assert!(!is_consent_notice(name) && !CONSENT_NOTICES.matches(name), "{name}");
        }
    }

    #[test]
    fn cue_words_are_sorted_and_found() {
        assert!(CUE_WORDS.windows(2).all(|w| w[0] < w[1]));
        // The length table of `boilerplate_cues` is indexed by a word's first letter.
        assert!(CUE_WORDS.iter().all(|w| w.as_bytes()[0].is_ascii_lowercase() && w.len() < 32));
        assert_eq!(boilerplate_cues("Share this: Facebook, Twitter. 3 Comments"), 4);
        assert_eq!(boilerplate_cues("分享到：微博 | 责任编辑：王明"), 2);
        assert_eq!(boilerplate_cues("Farmers learned new methods."), 0);
        // Each phrase as often as a search for it alone finds it, overlapping phrases each once.
        assert_eq!(cue_phrases("首页首页 > 相关推荐"), 4);
        assert_eq!(cue_phrases("分享分享享"), 2);
    }

    #[test]
    fn bare_addresses_are_one_address_and_nothing_else() {
        for t in
            ["https://cdn.example.com/images/160x160/bone.jpg", " HTTP://example.org/a ", "//cdn.example.net/x.png"]
        {
            assert!(is_bare_address(t), "{t}");
        }
        for t in [
            "Website: https://example.com",
            "see https://example.com/a for more",
            "https://",
            "http://localhost",
            "example.com",
        ] {
            assert!(!is_bare_address(t), "{t}");
        }
    }

    #[test]
    fn reprint_notices_in_either_script() {
        assert!(is_reprint_notice("【免责声明】本文仅代表作者本人观点"));
        assert!(is_reprint_notice("  聲明：本文僅代表作者觀點"));
        assert!(is_reprint_notice("未經授權不得轉載，侵權必究"));
        assert!(!is_reprint_notice("本文禁止转载或摘编"));
        assert!(!is_reprint_notice("两国领导人签署了联合声明：反对扩张"));
    }

    #[test]
    fn share_prompts_in_either_language() {
        assert!(is_share_prompt("Share this with friends") && is_share_prompt("SHARE:") && is_share_prompt("分享到："));
        assert!(is_share_prompt("用微信扫码二维码") && is_share_prompt("Show more sharing options"));
        assert!(!is_share_prompt("Shared Security Podcast") && !is_share_prompt("Shareholders Agreement"));
        assert!(!is_share_prompt("Share your thoughts on what the council should fund next year please"));
    }

    #[test]
    fn breadcrumbs_open_with_where_the_reader_is() {
        assert!(is_breadcrumb("您的位置：主页>艺术教育>院校招生资讯") && is_breadcrumb("You are here: Home / News"));
        assert!(is_breadcrumb("當前位置：首頁 » 新聞"));
        assert!(!is_breadcrumb("当前位置很好") && !is_breadcrumb("Home > News"));
    }

    #[test]
    fn links_to_the_next_article_and_site_records() {
        assert!(is_prev_next_link("上一篇：关于春季农机安全检查的通知") && is_prev_next_link("Previous post: Notes"));
        assert!(!is_prev_next_link("上篇文章讲到了育苗") && !is_prev_next_link("Next, post the form"));
        assert!(is_site_record("备案号：京ICP备12345678号") && is_site_record("京公网安备 11000002000001号"));
        assert!(!is_site_record("网站要办理ICP备案，流程如下") && !is_site_record("ICP 12345"));
    }

    #[test]
    fn the_three_ways_of_matching() {
        // Within: anywhere, separators included.
        assert!(NOISE_CONTAINERS.matches("post nocomments") && NOISE_CONTAINERS.matches("x author-box"));
        assert!(COMMENT_CONTAINERS.matches("commentary"));
        // Word rules: whole words, exclusions, short stems only as short words.
        let is_thread = |n: &str| matches_any(&COMMENT_THREADS, n);
        assert!(is_thread("disqus_thread") && is_thread("pinglun-box") && is_thread("comment-list"));
        assert!(!is_thread("recommend") && !is_thread("commentary") && !is_thread("nocomments"));
        assert!(is_thread("respond") && !is_thread("responder"));
        let ad = 1 << NAME_GROUPS.iter().position(|(n, _)| *n == "name_ad").unwrap();
        assert_eq!(name_group_bits("top-ad") & ad, ad);
        assert_eq!(name_group_bits("ads-slot") & ad, ad);
        assert_eq!(name_group_bits("adult-content") & ad, 0);
    }
}
