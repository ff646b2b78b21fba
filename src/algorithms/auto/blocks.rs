//! Text blocks and the measures the block classifier weighs.
//!
//! A block is a run of text nodes in document order that share their nearest block-level element (the
//! *owner*): a paragraph, a list item, a heading, a table cell, or the loose text of a `<div>` between
//! its child blocks. This is the unit the seed papers score (the Naive Bayes paper's blocks, the
//! anchor-ratio paper's XPath leaves, CETD's nodes), made fine enough that one decision per block can
//! keep a paragraph and drop the share bar beside it.
//!
//! Each block gets [`FEATURES`]: its own text measures, the tags and class/id words of its ancestors,
//! every seed method's verdict on it (composite text density and DensitySum, the P value, the Naive
//! Bayes posterior, the anchor ratio, the heuristic region), its neighbours' measures, and a few
//! page-level figures. All are computed in a handful of linear passes over the arena.

use crate::algorithms::anchor_ratio::AnchorRatios;
use crate::algorithms::bayes::BayesBlocks;
use crate::algorithms::pvalue::PValues;
use crate::dom::{Document, NONE, NodeId, Tag};

/// One block.
#[derive(Debug, Clone)]
pub struct Block {
    /// The nearest block-level element above the text.
    pub owner: NodeId,
    /// Range into [`Blocks::texts`].
    pub first: u32,
    pub last: u32,
    pub chars: u32,
    pub link_chars: u32,
    pub punct: u32,
    pub text_nodes: u32,
    pub link_text_nodes: u32,
    /// Characters of text before this block on the page.
    pub offset: u32,
    /// The owner is a list item or a table cell.
    pub in_list: bool,
    scan: Scan,
}

/// Counts from reading the block's characters once.
#[derive(Debug, Clone, Copy, Default)]
struct Scan {
    words: u32,
    cjk: u32,
    digits: u32,
    sentence_ends: u32,
    upper_start: bool,
    terminal_end: bool,
    started: bool,
    /// Words and phrases typical of page furniture ("share", "comments", "版权", ...).
    cues: u32,
    /// A date or a time of day appears ("2004-12-27", "2005年6月", "12:46").
    dated: bool,
}

impl Scan {
    fn read(&mut self, s: &str) {
        let mut in_word = false;
        let mut last = None;
        if s.is_ascii() {
            // The common case, byte by byte.
            for &b in s.as_bytes() {
                if b.is_ascii_whitespace() {
                    in_word = false;
                    continue;
                }
                if !self.started {
                    self.started = true;
                    self.upper_start = b.is_ascii_uppercase();
                }
                last = Some(b as char);
                self.digits += u32::from(b.is_ascii_digit());
                self.sentence_ends += u32::from(matches!(b, b'.' | b'!' | b'?'));
                if b.is_ascii_alphanumeric() {
                    self.words += u32::from(!in_word);
                    in_word = true;
                } else {
                    in_word = false;
                }
            }
            if let Some(c) = last {
                self.terminal_end = matches!(c, '.' | '!' | '?' | '"' | ')' | ':');
            }
            return;
        }
        for c in s.chars() {
            if c.is_whitespace() {
                in_word = false;
                continue;
            }
            if !self.started {
                self.started = true;
                self.upper_start = c.is_uppercase();
            }
            last = Some(c);
            if crate::tokens::is_cjk(c) {
                self.cjk += 1;
                self.words += 1;
                in_word = false;
                continue;
            }
            if c.is_ascii_digit() {
                self.digits += 1;
            }
            if matches!(c, '.' | '!' | '?' | '。' | '！' | '？') {
                self.sentence_ends += 1;
            }
            if c.is_alphanumeric() {
                if !in_word {
                    self.words += 1;
                }
                in_word = true;
            } else {
                in_word = false;
            }
        }
        if let Some(c) = last {
            self.terminal_end = matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '"' | '”' | ')' | '」' | ':' | '：');
        }
    }
}

/// The page's blocks, in document order.
#[derive(Debug, Clone, Default)]
pub struct Blocks {
    /// Every text node under `<body>`, in order; blocks index into it.
    pub texts: Vec<NodeId>,
    pub list: Vec<Block>,
}

impl Blocks {
    /// The text nodes of block `b`.
    pub fn texts_of(&self, b: &Block) -> &[NodeId] {
        &self.texts[b.first as usize..b.last as usize]
    }
}

/// Per node: the nearest block-level element at or above it (`NONE` above `<body>`), top-down.
pub fn block_owners(doc: &Document) -> Vec<NodeId> {
    let mut o = vec![NONE; doc.len()];
    for i in 0..doc.len() as NodeId {
        let n = doc.node(i);
        o[i as usize] = if n.tag().is_some_and(|t| t.is_block()) {
            i
        } else if n.parent != NONE {
            o[n.parent as usize]
        } else {
            NONE
        };
    }
    o
}

/// Cut the page into blocks.
pub fn segment(doc: &Document, owners: &[NodeId]) -> Blocks {
    let mut out = Blocks::default();
    let body = doc.body;
    let mut offset = 0u32;
    let mut prev_text: NodeId = NONE;
    for i in body..doc.node(body).end {
        let n = doc.node(i);
        if !n.is_text() {
            continue;
        }
        let owner = owners[n.parent as usize];
        let owner = if owner == NONE { body } else { owner };
        // A new block when the owner changes, or when a block element sits between this text and the
        // previous one (text, <p>…</p>, text under one <div> makes three blocks).
        let same = out.list.last().is_some_and(|b: &Block| {
            b.owner == owner && !(prev_text + 1..i).any(|k| doc.node(k).tag().is_some_and(|t| t.is_block()))
        });
        if !same {
            out.list.push(Block {
                owner,
                first: out.texts.len() as u32,
                last: out.texts.len() as u32,
                chars: 0,
                link_chars: 0,
                punct: 0,
                text_nodes: 0,
                link_text_nodes: 0,
                offset,
                in_list: matches!(doc.node(owner).tag(), Some(Tag::Li | Tag::Td | Tag::Th | Tag::Dd | Tag::Dt)),
                scan: Scan::default(),
            });
        }
        out.texts.push(i);
        let s = n.stats;
        offset += s.chars;
        if let Some(b) = out.list.last_mut() {
            b.last += 1;
            b.chars += s.chars;
            b.link_chars += s.link_chars;
            b.punct += s.punct;
            b.text_nodes += 1;
            b.link_text_nodes += u32::from(n.in_link);
            b.scan.read(doc.text(i));
        }
        prev_text = i;
    }
    for b in &mut out.list {
        // Furniture is short; long blocks are not searched.
        if b.chars <= 200 {
            let texts = &out.texts[b.first as usize..b.last as usize];
            b.scan.cues = texts.iter().map(|&t| boilerplate_cues(doc.text(t))).sum();
            b.scan.dated = texts.iter().any(|&t| has_date(doc.text(t)));
        }
    }
    out
}

/// Latin-script words of page furniture, lower-case and sorted (for a binary search).
const CUE_WORDS: &[&str] = &[
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
const CUE_PHRASES: &[&str] = &[
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

/// True when the text holds a date (four digits, a separator, one or two digits) or a time of day
/// (one or two digits, a colon, two digits): the stamps of posts, comments and teasers.
fn has_date(text: &str) -> bool {
    let b = text.as_bytes();
    let digits_at = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let run = digits_at(i);
        let after = i + run;
        if run == 4 {
            // 2004-12-27, 2004/12/27, 2004.12.27, 2004年12月
            let sep = if b[after..].starts_with("年".as_bytes()) {
                3
            } else {
                usize::from(matches!(b.get(after), Some(b'-' | b'/' | b'.')))
            };
            if sep > 0 && after + sep < b.len() && (1..=2).contains(&digits_at(after + sep)) {
                return true;
            }
        } else if (1..=2).contains(&run)
            && b.get(after) == Some(&b':')
            && after + 1 < b.len()
            && digits_at(after + 1) == 2
        {
            return true;
        }
        i = after;
    }
    false
}

/// How many furniture words and phrases a text holds.
fn boilerplate_cues(text: &str) -> u32 {
    let mut n = 0;
    // Words are lower-cased into a small buffer: cue words are short, longer words cannot match, and a
    // word with non-ASCII letters in it is none of them.
    let mut word = [0u8; 16];
    let mut len = 0usize;
    let mut spoilt = false;
    let check = |word: &[u8], n: &mut u32| {
        if word.len() >= 3 && CUE_WORDS.binary_search_by(|c| c.as_bytes().cmp(word)).is_ok() {
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
    if !text.is_ascii() {
        n += CUE_PHRASES.iter().map(|p| text.matches(p).count() as u32).sum::<u32>();
    }
    n
}

/// Class/id word groups. An element's name matches a group when one of its `-`/`_`/space-separated
/// words starts with one of the group's stems.
const NAME_GROUPS: &[(&str, &[&str])] = &[
    ("name_comment", &["comment", "disqus", "respond", "reply", "replies", "discussion", "discuss"]),
    ("name_share", &["share", "sharing", "social", "sociable", "addthis", "facebook", "twitter", "whatsapp"]),
    ("name_related", &["related", "recommend", "more", "also", "popular", "trending", "similar", "next", "prev"]),
    ("name_nav", &["nav", "menu", "breadcrumb", "pagination", "pager", "crumb", "skip", "toc"]),
    ("name_footer", &["footer", "foot", "copyright", "legal", "bottom"]),
    ("name_sidebar", &["sidebar", "side", "widget", "aside", "rail", "column", "col"]),
    ("name_ad", &["ad", "ads", "advert", "promo", "sponsor", "banner", "outbrain", "taboola", "dfp", "commercial"]),
    ("name_meta", &["author", "byline", "meta", "date", "time", "dateline", "published", "posted", "info"]),
    ("name_tags", &["tag", "tags", "category", "categories", "keyword", "topic", "label"]),
    ("name_media", &["caption", "credit", "photo", "image", "img", "gallery", "media", "video", "figure"]),
    ("name_content", &["content", "article", "post", "entry", "story", "body", "text", "main", "detail", "news"]),
    ("name_title", &["title", "headline", "heading", "header", "hed"]),
    ("name_hidden", &["hidden", "hide", "sr", "visually", "screen", "offscreen", "print"]),
    ("name_signup", &["newsletter", "subscribe", "signup", "login", "cookie", "consent", "popup", "modal", "cta"]),
    ("name_list", &["list", "item", "card", "teaser", "tile", "grid", "feed", "river", "stream"]),
    ("name_summary", &["summary", "lead", "intro", "excerpt", "abstract", "dek", "standfirst", "description"]),
];

/// Ancestor tags recorded as flags, in bit order after the name groups.
const TAG_FLAGS: &[(&str, &[Tag])] = &[
    ("in_nav", &[Tag::Nav]),
    ("in_aside", &[Tag::Aside]),
    ("in_footer", &[Tag::Footer]),
    ("in_header", &[Tag::Header]),
    ("in_form", &[Tag::Form, Tag::Label]),
    ("in_li", &[Tag::Li, Tag::Ul, Tag::Ol]),
    ("in_table", &[Tag::Table, Tag::Td, Tag::Th]),
    ("in_article", &[Tag::Article]),
    ("in_main", &[Tag::Main]),
    ("in_figure", &[Tag::Figure, Tag::Figcaption]),
    ("in_quote", &[Tag::Blockquote]),
    ("in_pre", &[Tag::Pre, Tag::Code]),
    ("in_dl", &[Tag::Dl, Tag::Dt, Tag::Dd]),
    ("in_section", &[Tag::Section]),
    ("in_heading", &[Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6]),
    ("in_time_address", &[Tag::Time, Tag::Address]),
];

/// The stems of [`NAME_GROUPS`] by first letter, with their group's bit: a class word is compared only
/// with the stems that can match it.
static STEMS_BY_LETTER: std::sync::LazyLock<Vec<Vec<(&'static str, u32)>>> = std::sync::LazyLock::new(|| {
    let mut t = vec![Vec::new(); 128];
    for (g, (_, stems)) in NAME_GROUPS.iter().enumerate() {
        for s in *stems {
            t[usize::from(s.as_bytes()[0] & 0x7f)].push((*s, 1u32 << g));
        }
    }
    t
});

fn name_bits(id_class: &str) -> u32 {
    let table = &*STEMS_BY_LETTER;
    let mut bits = 0u32;
    for word in id_class.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        for &(s, bit) in &table[usize::from(word.as_bytes()[0] & 0x7f)] {
            // Short stems ("ad", "sr", "col") only as whole short words: "adult" is not an advert.
            if word.starts_with(s) && (s.len() > 2 || word.len() <= 3) {
                bits |= bit;
            }
        }
    }
    bits
}

fn tag_bits(tag: Tag) -> u32 {
    let mut bits = 0u32;
    for (k, (_, tags)) in TAG_FLAGS.iter().enumerate() {
        if tags.contains(&tag) {
            bits |= 1 << k;
        }
    }
    bits
}

/// Per node: name-group bits (low word) and tag bits (high word) of the node and all its ancestors.
fn inherited_flags(doc: &Document) -> Vec<u64> {
    let mut f = vec![0u64; doc.len()];
    for i in doc.body..doc.node(doc.body).end {
        let n = doc.node(i);
        let Some(e) = n.element() else { continue };
        let parent = if n.parent == NONE { 0 } else { f[n.parent as usize] };
        let own_names = e.id_class.as_deref().map_or(0, name_bits);
        f[i as usize] = parent | u64::from(own_names) | (u64::from(tag_bits(e.tag)) << 32);
    }
    f
}

/// Owner tag codes the trees can split on.
fn tag_code(t: Option<Tag>) -> f32 {
    use Tag::*;
    match t {
        Some(P) => 1.0,
        Some(Div) => 2.0,
        Some(Li) => 3.0,
        Some(Td | Th) => 4.0,
        Some(H1) => 5.0,
        Some(H2 | H3) => 6.0,
        Some(H4 | H5 | H6) => 7.0,
        Some(Pre) => 8.0,
        Some(Blockquote) => 9.0,
        Some(Dd | Dt) => 10.0,
        Some(Figcaption | Caption) => 11.0,
        Some(Section | Article | Main) => 12.0,
        Some(Body) => 13.0,
        Some(Header | Footer | Nav | Aside) => 14.0,
        Some(Tr | Table | Tbody | Thead | Tfoot) => 15.0,
        _ => 0.0,
    }
}

/// Names of the block features, in the order [`features`] writes them.
pub fn feature_names() -> Vec<&'static str> {
    debug_assert_eq!(BASE[REGION_KEEP], "region_keep");
    let mut v: Vec<&'static str> = BASE.to_vec();
    v.extend(NAME_GROUPS.iter().map(|(n, _)| *n));
    v.extend(TAG_FLAGS.iter().map(|(n, _)| *n));
    v.extend(NEIGHBOUR);
    v
}

/// Index of `region_keep` in a feature row.
pub(crate) const REGION_KEEP: usize = 30;

const BASE: &[&str] = &[
    "chars",
    "words",
    "chars_per_word",
    "link_density",
    "punct_density",
    "sentence_ends",
    "terminal_end",
    "upper_start",
    "cjk_share",
    "digit_share",
    "text_nodes",
    "link_text_share",
    "tag",
    "depth",
    "owner_chars",
    "owner_link_density",
    "parent_chars",
    "parent_link_density",
    "parent_children",
    "same_siblings",
    "container_chars",
    "container_link_density",
    "ctd",
    "ctd_parent",
    "density_sum",
    "density_sum_parent",
    "cetd_marked",
    "in_max_density_sum",
    "in_core",
    "in_region",
    "region_keep",
    "p_rel",
    "in_max_p",
    "bayes_p",
    "anchor_ratio",
    "position",
    "block_position",
    "title_share",
    "title_cover",
    "page_chars",
    "page_link_density",
    "page_blocks",
    "region_share",
    "block_share",
    "after_title",
    "blocks_from_title",
    "core_distance",
    "boilerplate_cues",
    "dated",
    "parent_dated_share",
    "grandparent_dated_share",
];

const NEIGHBOUR: &[&str] = &[
    "prev_chars",
    "prev_link_density",
    "prev_keep",
    "next_chars",
    "next_link_density",
    "next_keep",
    "prev2_chars",
    "next2_chars",
    "window_keep_share",
];

/// Everything the feature pass reads besides the page: the seed methods' published measures and the
/// heuristic region.
pub struct Inputs<'a> {
    /// Composite text density and DensitySum per node, the marked nodes and the max-DensitySum node
    /// (from [`crate::algorithms::cetd::DensitySumRun`]).
    pub density: &'a [f64],
    pub density_sum: &'a [f64],
    pub marked: &'a [NodeId],
    pub max_ds: NodeId,
    /// The heuristic region's core, the region, and the region after pruning (subtree roots and loose
    /// text nodes).
    pub core: NodeId,
    pub region: &'a [NodeId],
    pub keep: &'a [NodeId],
    pub p: &'a PValues,
    pub bayes: &'a BayesBlocks,
    pub anchor_ratios: &'a AnchorRatios<'a>,
    pub title_words: &'a [String],
}

/// Per node: true when inside one of `roots`' subtrees.
fn covered(doc: &Document, roots: &[NodeId]) -> Vec<bool> {
    let mut v = vec![false; doc.len()];
    for &r in roots {
        for i in r..doc.node(r).end {
            v[i as usize] = true;
        }
    }
    v
}

fn ln1(x: f64) -> f32 {
    (1.0 + x.max(0.0)).ln() as f32
}

fn share(a: u32, b: u32) -> f32 {
    if b == 0 { 0.0 } else { a as f32 / b as f32 }
}

/// The feature rows of every block, row-major (`feature_names().len()` values per block).
pub fn features(doc: &Document, blocks: &Blocks, inp: &Inputs<'_>) -> Vec<f32> {
    let nf = feature_names().len();
    let flags = inherited_flags(doc);
    let marked = covered(doc, inp.marked);
    let region = covered(doc, inp.region);
    let keep = covered(doc, inp.keep);
    let body = doc.node(doc.body);
    let body_chars = body.stats.chars;
    let region_chars: u32 = inp.region.iter().map(|&r| doc.node(r).stats.chars).sum();
    let best_p = inp.p.page().max(1e-9);
    // Naive Bayes posterior per text node, through the paper's own blocking.
    let mut nb = vec![0f32; doc.len()];
    for (b, &pr) in inp.bayes.blocks.iter().zip(&inp.bayes.theme) {
        let pr = pr as f32;
        for &t in &b.texts {
            nb[t as usize] = pr;
        }
    }
    let n = blocks.list.len();
    let mut rows = vec![0f32; n * nf];
    let mut sibling_sigs: crate::hash::IdMap<NodeId, Vec<u64>> = crate::hash::IdMap::default();
    // Title overlap of headline candidates only: short, and not mostly link text (menus and teaser
    // lists are many and would cost a tokenisation each).
    let titles: Vec<(f32, f32)> = blocks
        .list
        .iter()
        .map(|b| {
            if b.chars <= 300 && b.link_chars * 2 <= b.chars && !inp.title_words.is_empty() {
                title_overlap(doc, blocks.texts_of(b), inp.title_words)
            } else {
                (0.0, 0.0)
            }
        })
        .collect();
    // Share of dated blocks among the blocks under the same parent (and grandparent) of their owner:
    // comment threads and teaser lists stamp every entry, articles once.
    let mut dated_groups: crate::hash::IdMap<NodeId, (u32, u32)> = crate::hash::IdMap::default();
    let up = |o: NodeId| if o == doc.body || doc.node(o).parent == NONE { o } else { doc.node(o).parent };
    for b in &blocks.list {
        let p = up(b.owner);
        for g in [p, up(p)] {
            let e = dated_groups.entry(g).or_default();
            e.0 += u32::from(b.scan.dated);
            e.1 += 1;
        }
    }
    let dated_share = |g: NodeId| dated_groups.get(&g).map_or(0.0, |e| share(e.0, e.1));
    // The headline: the first block that holds most of the title's words.
    let title_block = titles.iter().position(|t| t.0 >= 0.5);
    let keep_of: Vec<f32> =
        blocks.list.iter().map(|b| f32::from(u8::from(keep[blocks.texts[b.first as usize] as usize]))).collect();
    for (k, b) in blocks.list.iter().enumerate() {
        let row = &mut rows[k * nf..(k + 1) * nf];
        let first = blocks.texts[b.first as usize];
        let owner = doc.node(b.owner);
        let parent = if owner.parent == NONE || b.owner == doc.body { b.owner } else { owner.parent };
        // The container: the nearest ancestor holding at least three times the block's text.
        let mut container = parent;
        while container != doc.body && doc.node(container).stats.chars < 3 * b.chars.max(1) {
            let up = doc.node(container).parent;
            if up == NONE {
                break;
            }
            container = up;
        }
        // The anchor-ratio paper's XPath block: the lowest ancestor holding more than one leaf.
        let ar = inp.anchor_ratios.ratio(inp.anchor_ratios.xpath_block(b.owner));
        let (children, same) = if parent == b.owner {
            (0, 0)
        } else {
            let kids = sibling_sigs.entry(parent).or_insert_with(|| {
                doc.children(parent).filter(|&c| !doc.node(c).is_text()).map(|c| signature(doc, c)).collect()
            });
            let me = signature(doc, b.owner);
            (kids.len() as u32, kids.iter().filter(|&&k| k == me).count() as u32)
        };
        let (title_share, title_cover) = titles[k];
        let os = owner.stats;
        let ps = doc.node(parent).stats;
        let cs = doc.node(container).stats;
        let fl = flags[b.owner as usize];
        let s = &b.scan;
        let base = [
            ln1(b.chars as f64),
            ln1(s.words as f64),
            share(b.chars, s.words.max(1)),
            share(b.link_chars, b.chars),
            share(b.punct, b.chars),
            ln1(s.sentence_ends as f64),
            f32::from(u8::from(s.terminal_end)),
            f32::from(u8::from(s.upper_start)),
            share(s.cjk, b.chars),
            share(s.digits, b.chars),
            ln1(b.text_nodes as f64),
            share(b.link_text_nodes, b.text_nodes),
            tag_code(owner.tag()),
            owner.depth.saturating_sub(body.depth) as f32,
            ln1(os.chars as f64),
            share(os.link_chars, os.chars),
            ln1(ps.chars as f64),
            share(ps.link_chars, ps.chars),
            ln1(children as f64),
            ln1(same as f64),
            ln1(cs.chars as f64),
            share(cs.link_chars, cs.chars),
            ln1(inp.density[b.owner as usize]),
            ln1(inp.density[parent as usize]),
            ln1(inp.density_sum[b.owner as usize]),
            ln1(inp.density_sum[parent as usize]),
            f32::from(u8::from(marked[first as usize])),
            f32::from(u8::from(doc.contains(inp.max_ds, first))),
            f32::from(u8::from(doc.contains(inp.core, first))),
            f32::from(u8::from(region[first as usize])),
            keep_of[k],
            (inp.p.p[b.owner as usize] / best_p) as f32,
            f32::from(u8::from(doc.contains(inp.p.best, first))),
            nb[first as usize],
            ar as f32,
            share(b.offset, body_chars),
            k as f32 / n.max(1) as f32,
            title_share,
            title_cover,
            ln1(body_chars as f64),
            share(body.stats.link_chars, body_chars),
            ln1(n as f64),
            share(region_chars, body_chars),
            share(b.chars, region_chars.max(1)),
            title_block.map_or(0.5, |t| f32::from(u8::from(k >= t))),
            title_block.map_or(5.0, |t| ln1(k.abs_diff(t) as f64)),
            ln1(core_distance(doc, b.owner, inp.core) as f64),
            ln1(s.cues as f64),
            f32::from(u8::from(s.dated)),
            dated_share(up(b.owner)),
            dated_share(up(up(b.owner))),
        ];
        row[..base.len()].copy_from_slice(&base);
        let mut at = base.len();
        for g in 0..NAME_GROUPS.len() {
            row[at] = ((fl >> g) & 1) as f32;
            at += 1;
        }
        for t in 0..TAG_FLAGS.len() {
            row[at] = ((fl >> (32 + t)) & 1) as f32;
            at += 1;
        }
        let nb_at = |j: isize| -> Option<&Block> {
            let j = k as isize + j;
            (j >= 0 && (j as usize) < n).then(|| &blocks.list[j as usize])
        };
        let chars_of = |j: isize| nb_at(j).map_or(0.0, |o| ln1(o.chars as f64));
        let ld_of = |j: isize| nb_at(j).map_or(0.0, |o| share(o.link_chars, o.chars));
        let keep_at = |j: isize| {
            let j = k as isize + j;
            if j >= 0 && (j as usize) < n { keep_of[j as usize] } else { 0.0 }
        };
        let (lo, hi) = (k.saturating_sub(3), (k + 4).min(n));
        let window: f32 = keep_of[lo..hi].iter().sum::<f32>() / (hi - lo) as f32;
        let neigh = [
            chars_of(-1),
            ld_of(-1),
            keep_at(-1),
            chars_of(1),
            ld_of(1),
            keep_at(1),
            chars_of(-2),
            chars_of(2),
            window,
        ];
        row[at..at + neigh.len()].copy_from_slice(&neigh);
    }
    rows
}

/// An element's tag and first class word, hashed: siblings with equal signatures are repeats.
fn signature(doc: &Document, c: NodeId) -> u64 {
    let mut h = crate::hash::Fnv1a::new();
    if let Some(e) = doc.node(c).element() {
        h.byte(e.tag as u8);
        h.byte(0xff);
        h.bytes(e.id_class.as_deref().and_then(|s| s.split(' ').next()).unwrap_or("").bytes());
    }
    h.finish()
}

/// Levels between `owner` and the nearest ancestor that also holds `core`; 0 inside the core.
fn core_distance(doc: &Document, owner: NodeId, core: NodeId) -> u32 {
    if doc.contains(core, owner) {
        return 0;
    }
    let mut steps = 1;
    for a in doc.ancestors(owner) {
        if doc.contains(a, core) {
            return steps;
        }
        steps += 1;
    }
    steps
}

/// Share of the title's words found in the block, and share of the block's words that are title words.
fn title_overlap(doc: &Document, texts: &[NodeId], title: &[String]) -> (f32, f32) {
    let mut found = vec![false; title.len()];
    let (mut words, mut hits) = (0u32, 0u32);
    for &t in texts {
        crate::tokens::for_each_word(doc.text(t), |w| {
            words += 1;
            if let Ok(k) = title.binary_search_by(|x| x.as_str().cmp(w)) {
                found[k] = true;
                hits += 1;
            }
        });
    }
    let f = found.iter().filter(|&&x| x).count() as u32;
    (share(f, title.len() as u32), share(hits, words))
}

/// Whether an element's class/id names a reader-comment thread ("comments", "comment-list",
/// "disqus_thread", "respond", "replies", or the pinyin "pinglun" of Chinese sites), but not an
/// opinion piece ("commentary").
fn is_comment_thread_name(id_class: &str) -> bool {
    id_class.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        (w.starts_with("comment") && !w.starts_with("commentar"))
            || w.starts_with("disqus")
            || w == "respond"
            || w == "replies"
            || w.starts_with("pinglun")
    })
}

/// Unchoose the text of comment threads: containers named for comments that start after the first
/// chosen text node and do not hold the page's most confident block. Comments follow the article, so
/// a container that holds the article's beginning or its surest paragraph (a page wrapper that
/// happens to carry such a name, an opinion section's "tone-comment") is never one; readers' comments
/// are prose and the block classifier alone keeps some.
pub fn drop_comment_threads(doc: &Document, chosen: &mut [bool], surest: NodeId) {
    let Some(first) = chosen.iter().position(|&c| c) else { return };
    let end = doc.node(doc.body).end;
    let mut i = (first as NodeId).saturating_add(1);
    while i < end {
        let n = doc.node(i);
        let named = n.element().and_then(|e| e.id_class.as_deref()).is_some_and(is_comment_thread_name);
        if named && !(i..n.end).contains(&surest) {
            chosen[i as usize..n.end as usize].fill(false);
            i = n.end.max(i + 1);
        } else {
            i += 1;
        }
    }
}

/// The chosen content as subtree roots: every element whose text nodes are all chosen (topmost only),
/// and chosen text nodes whose parent is not, in document order. `chosen` is indexed by node id.
pub fn roots_of(doc: &Document, chosen: &[bool]) -> Vec<NodeId> {
    let body = doc.body;
    let end = doc.node(body).end;
    // Bottom-up: does the subtree hold any text, and is every text node chosen?
    let mut any = vec![false; doc.len()];
    let mut all = vec![true; doc.len()];
    for i in (body..end).rev() {
        let n = doc.node(i);
        if n.is_text() {
            any[i as usize] = doc.text(i).chars().any(|c| !c.is_whitespace());
            all[i as usize] = chosen[i as usize] || !any[i as usize];
        }
        if i != body && n.parent != NONE {
            let (a, l) = (any[i as usize], all[i as usize]);
            any[n.parent as usize] |= a;
            all[n.parent as usize] &= l;
        }
    }
    let mut out = Vec::new();
    let mut i = body;
    while i < end {
        let n = doc.node(i);
        if any[i as usize] && all[i as usize] {
            out.push(i);
            i = n.end;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cue_words_are_sorted_and_found() {
        assert!(CUE_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(boilerplate_cues("Share this: Facebook, Twitter. 3 Comments"), 4);
        assert_eq!(boilerplate_cues("分享到：微博 | 责任编辑：王明"), 2);
        assert_eq!(boilerplate_cues("Farmers learned new methods."), 0);
    }

    #[test]
    fn dates_and_times() {
        for yes in ["2004-12-27 12:46 flyingbirds", "发表于 2005年6月14日", "at 9:05 pm", "2020/11/18"] {
            assert!(has_date(yes), "{yes}");
        }
        for no in ["Page 2 of 12", "1999 was a year", "ratio 3:1", "12345-6", "", "2004-"] {
            assert!(!has_date(no), "{no}");
        }
    }

    /// Choose every text node, drop comment threads, and return the text still chosen.
    fn kept_after_comment_drop(html: &str, surest_text: &str) -> String {
        let doc = Document::parse(html);
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let surest = (0..doc.len() as NodeId)
            .find(|&i| doc.node(i).is_text() && doc.text(i).contains(surest_text))
            .map(|i| doc.node(i).parent)
            .unwrap_or(NONE);
        drop_comment_threads(&doc, &mut chosen, surest);
        (0..doc.len() as NodeId)
            .filter(|&i| chosen[i as usize])
            .map(|i| doc.text(i).trim())
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn comment_threads_after_the_article_are_dropped() {
        let page = "<body><h1>Title</h1><div class=post><p>Article text.</p></div>\
                    <div id=comments><h3>Comments</h3><p>A reader writes at length.</p></div></body>";
        assert_eq!(kept_after_comment_drop(page, "Article"), "Title|Article text.");
        // A wrapper named for comments that holds the article's start is not a thread.
        let wrapped = "<body><div class='main has-comments'><h1>Title</h1><p>Article text.</p></div></body>";
        assert_eq!(kept_after_comment_drop(wrapped, "Article"), "Title|Article text.");
        // Nor is one holding the surest block, even when something before it was kept.
        let opinion = "<body><p>Menu</p><div class='tone-comment'><p>Opinion text.</p></div></body>";
        assert_eq!(kept_after_comment_drop(opinion, "Opinion"), "Menu|Opinion text.");
        // "commentary" is an opinion section, not reader comments.
        let commentary = "<body><p>Lead.</p><div class=commentary><p>More text.</p></div></body>";
        assert_eq!(kept_after_comment_drop(commentary, "Lead"), "Lead.|More text.");
        assert!(is_comment_thread_name("disqus_thread") && is_comment_thread_name("pinglun-box"));
        assert!(!is_comment_thread_name("recommend") && !is_comment_thread_name("commentary"));
    }
}
