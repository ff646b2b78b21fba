//! What each page type's interface says, for `page_type`'s signals: the exact short texts of carts,
//! calls to action and pagination ([`CART_TEXTS`], [`CONTACT_TEXTS`], [`PAGINATION_TEXTS`]), and the
//! phrases of each type found inside short texts ([`TYPE_CUES`], counted by [`type_cue_counts`]).

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
