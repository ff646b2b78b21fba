//! What `auto` keeps once every block is judged: the blocks at or above the threshold, less comment
//! threads and second copies of the same text, as maximal clean subtrees; and, for a page that is no
//! article, only its short lead.

use super::Measured;
use super::lexicon;
use super::segment::{Block, Blocks, block_owners};
use crate::algorithms::contract::Context;
use crate::algorithms::contract::params::AutoParams;
use crate::dom::{Document, NONE, Node, NodeId, Tag};
use crate::hash::{Fnv1a, IdMap};

/// Choose every code block (`<pre>`) none of whose text is chosen but that sits between chosen text
/// with at most `max_gap` characters of unchosen text on either side (its caption, a "Copy" button)
/// and within `NODES` nodes. Returns whether any was chosen.
///
/// A listing in the middle of kept prose is part of it: a tutorial's steps are "run this", the
/// command, "then this". The block model sees a listing as a block of symbols without sentences or
/// stop words and leans against it, more so for the short ones (one command).
pub fn keep_code_between_kept(doc: &Document, chosen: &mut [bool], max_gap: u32) -> bool {
    const NODES: usize = 200;
    let mut changed = false;
    let body = doc.body;
    if body == NONE {
        return false;
    }
    let end = doc.node(body).end;
    let near = |ids: &mut dyn Iterator<Item = NodeId>, chosen: &[bool]| {
        let mut gap = 0u32;
        for k in ids.take(NODES) {
            let n = doc.node(k);
            if !n.is_text() {
                continue;
            }
            if chosen[k as usize] {
                return true;
            }
            gap += n.stats.chars;
            if gap > max_gap {
                return false;
            }
        }
        false
    };
    let mut i = body + 1;
    while i < end {
        let n = doc.node(i);
        if n.tag() != Some(Tag::Pre) {
            i += 1;
            continue;
        }
        let texts = (i..n.end).filter(|&k| doc.node(k).is_text());
        if n.stats.chars > 0
            && !texts.clone().any(|k| chosen[k as usize])
            && near(&mut (body + 1..i).rev(), chosen)
            && near(&mut (n.end..end), chosen)
        {
            for k in texts {
                chosen[k as usize] = true;
            }
            changed = true;
        }
        i = n.end;
    }
    changed
}

/// The text nodes `auto` keeps: those of blocks at or above `threshold`, less comment threads
/// when `drop_comments`.
pub(super) fn choose(ctx: &Context<'_>, m: &Measured, p: &[f64], threshold: f64, drop_comments: bool) -> Vec<bool> {
    let doc = ctx.doc;
    let mut chosen = vec![false; doc.len()];
    for (b, &pr) in m.blocks.list.iter().zip(p) {
        if pr >= threshold {
            for &t in m.blocks.texts_of(b) {
                chosen[t as usize] = true;
            }
        }
    }
    if drop_comments {
        drop_comment_threads(doc, &mut chosen, surest_owner(m, p));
    }
    chosen
}

/// Unchoose every chosen block whose text, whitespace aside, repeats an earlier chosen block's under
/// another parent, and has at least `min_chars` characters (0: none). Returns whether any was
/// unchosen.
///
/// A copy elsewhere on the page is a second rendering of the same content (a description per
/// product variant, a post quoted in a reply, a mobile layout beside the desktop one) that a reader
/// sees once; a paragraph repeated among its own siblings is the text as written, and stays.
pub(super) fn drop_repeats(doc: &Document, blocks: &Blocks, chosen: &mut [bool], min_chars: u32) -> bool {
    if min_chars == 0 {
        return false;
    }
    // A block's text without whitespace, as characters.
    let chars = |b: &Block| blocks.texts_of(b).iter().flat_map(|&t| doc.text(t).chars()).filter(|c| !c.is_whitespace());
    let parent = |b: &Block| doc.node(b.owner).parent;
    // Hash of that text → the first chosen block with it. Texts are hashed rather than copied (this
    // runs on every page), and a hash match is confirmed on the texts themselves.
    let mut seen: IdMap<u64, &Block> = IdMap::default();
    let mut dropped = false;
    for b in &blocks.list {
        let texts = blocks.texts_of(b);
        if b.chars < min_chars || !texts.iter().all(|&t| chosen[t as usize]) {
            continue;
        }
        let mut h = Fnv1a::new();
        for &t in texts {
            hash_non_whitespace(&mut h, doc.text(t));
        }
        let first = *seen.entry(h.finish()).or_insert(b);
        if !std::ptr::eq(first, b) && parent(first) != parent(b) && chars(first).eq(chars(b)) {
            for &t in texts {
                chosen[t as usize] = false;
            }
            dropped = true;
        }
    }
    dropped
}

/// Mix the UTF-8 bytes of the characters of `s` that are not whitespace ([`char::is_whitespace`])
/// into `h`, byte by byte for ASCII: most text is, and decoding every character cost as much as the
/// rest of the repeat search.
fn hash_non_whitespace(h: &mut Fnv1a, s: &str) {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            // The ASCII characters `char::is_whitespace` accepts: U+0009..U+000D and the space.
            if !matches!(b, b'\t'..=b'\r' | b' ') {
                h.byte(b);
            }
            i += 1;
        } else {
            let Some(c) = s[i..].chars().next() else { break };
            let len = c.len_utf8();
            if !c.is_whitespace() {
                h.bytes(bytes[i..i + len].iter().copied());
            }
            i += len;
        }
    }
}

/// Unchoose the text of comment threads: containers named for comments that start after the first
/// chosen text node and do not hold the page's most confident block. Comments follow the article, so
/// a container that holds the article's beginning or its surest paragraph (a page wrapper that
/// happens to carry such a name, an opinion section's "tone-comment") is never one; readers' comments
/// are prose and the block classifier alone keeps some.
pub fn drop_comment_threads(doc: &Document, chosen: &mut [bool], surest: NodeId) {
    drop_threads(doc, chosen, surest, &lexicon::COMMENT_THREADS);
}

/// The owner of the block the classifier is surest of (the first of equals).
pub(super) fn surest_owner(m: &Measured, p: &[f64]) -> NodeId {
    let blocks = m.blocks.list.iter().zip(p);
    blocks.fold((NodeId::MAX, f64::MIN), |best, (b, &pr)| if pr > best.1 { (b.owner, pr) } else { best }).0
}

/// [`drop_comment_threads`] for the containers `rules` name (a product's reviews:
/// [`lexicon::REVIEW_THREADS`]). Returns whether any chosen text was unchosen.
pub fn drop_threads(doc: &Document, chosen: &mut [bool], surest: NodeId, rules: &[lexicon::Names]) -> bool {
    drop_named_after_first(doc, chosen, rules, |i, n| !(i..n.end).contains(&surest))
}

/// On a listing or collection page ([`crate::algorithms::contract::params::AutoParams::drop_filter_panels`]),
/// unchoose its filter and sort panels ([`lexicon::FILTER_PANELS`])
/// that start after the first chosen text, hold neither the surest block nor half of the chosen text
/// (a results grid wrapped in a "filterable" container stays). Returns whether any text was
/// unchosen.
pub fn drop_filter_panels(doc: &Document, chosen: &mut [bool], surest: NodeId) -> bool {
    let before = chosen_before(doc, chosen);
    let total = before.last().copied().unwrap_or(0);
    drop_named_after_first(doc, chosen, &lexicon::FILTER_PANELS, |i, n| {
        let held = before[n.end as usize] - before[i as usize];
        !(i..n.end).contains(&surest) && 2 * held < total
    })
}

/// On a page judged an article, unchoose comment threads ([`lexicon::COMMENT_THREADS`]) that
/// follow at least `min_before` bytes of chosen text, even one holding the block the classifier is
/// surest of (0: none). A long thread's best-written reply can outscore a short post, and the
/// first pass then spares the thread as if it wrapped the article; a wrapper is preceded by a
/// headline at most, not by the article itself. Returns whether any chosen text was unchosen.
pub fn drop_threads_after_article(doc: &Document, chosen: &mut [bool], min_before: u32) -> bool {
    if min_before == 0 {
        return false;
    }
    let before = chosen_before(doc, chosen);
    drop_named_after_first(doc, chosen, &lexicon::COMMENT_THREADS, |i, _| before[i as usize] >= min_before as usize)
}

/// Unchoose the topmost elements that start after the first chosen text node, are named as `rules`
/// say and that `thread` accepts (the two comment-thread steps differ only there). Returns whether
/// any chosen text was unchosen.
fn drop_named_after_first(
    doc: &Document,
    chosen: &mut [bool],
    rules: &[lexicon::Names],
    thread: impl Fn(NodeId, &Node) -> bool,
) -> bool {
    let Some(first) = chosen.iter().position(|&c| c) else { return false };
    // `thread` first: it is a comparison or two, and the name rules read the whole name.
    let candidate = |i: NodeId, n: &Node| {
        thread(i, n) && n.element().and_then(|e| e.id_class.as_deref()).is_some_and(|c| lexicon::matches_any(rules, c))
    };
    unchoose_topmost(doc, chosen, (first as NodeId).saturating_add(1), candidate, |_, _, _| true)
}

/// Walk the nodes from `start` to the end of the body, and at each one `candidate` accepts (its
/// subtree is then not entered) unchoose the subtree when it holds chosen text and `drop` agrees
/// (`drop` reads the choice as it stands). The walk the steps that leave out whole elements share.
/// `candidate` must not depend on being asked: it is not asked of nodes without chosen text below.
/// Returns whether any chosen text was unchosen.
fn unchoose_topmost(
    doc: &Document,
    chosen: &mut [bool],
    start: NodeId,
    mut candidate: impl FnMut(NodeId, &Node) -> bool,
    mut drop: impl FnMut(NodeId, &Node, &[bool]) -> bool,
) -> bool {
    let end = doc.node(doc.body).end;
    let mut dropped = false;
    let mut i = start;
    // The first chosen node at or after `i`: a subtree without chosen text has nothing to unchoose,
    // and is passed over without asking `candidate` (a name rule reads the whole name) of its nodes.
    // Unchoosing clears only the subtree just left behind, so the pointer only moves forward.
    let mut next_chosen = start;
    while i < end {
        next_chosen = next_chosen.max(i);
        while next_chosen < end && !chosen[next_chosen as usize] {
            next_chosen += 1;
        }
        if next_chosen >= end {
            break;
        }
        let n = doc.node(i);
        if next_chosen >= n.end {
            i = n.end.max(i + 1);
            continue;
        }
        if candidate(i, n) {
            if chosen[i as usize..n.end as usize].contains(&true) && drop(i, n, chosen) {
                chosen[i as usize..n.end as usize].fill(false);
                dropped = true;
            }
            i = n.end.max(i + 1);
        } else {
            i += 1;
        }
    }
    dropped
}

/// The last steps of the selection, run after the page signals are read (so that the models see the
/// choice they were trained on): repeated copies, text outside the page's `<main>`, text in menus,
/// sidebars and footers, tables of contents, cookie notices and notices about JavaScript. Returns
/// whether any text was unchosen.
pub fn drop_after_signals(doc: &Document, blocks: &Blocks, chosen: &mut [bool], auto: &AutoParams) -> bool {
    let mut changed = drop_repeats(doc, blocks, chosen, auto.repeat_min_chars);
    changed |= confine_to_main(doc, chosen, auto.main_min_share);
    changed |= auto.drop_sectioning_chrome && drop_sectioning_chrome(doc, chosen, auto.drop_named_footers);
    changed |= auto.drop_tables_of_contents && drop_tables_of_contents(doc, chosen);
    changed |= auto.drop_consent_notices && drop_consent_notices(doc, chosen);
    changed |= auto.drop_script_notices && drop_script_notices(doc, chosen);
    changed |= auto.drop_reprint_notices && drop_reprint_notices(doc, chosen);
    changed |= drop_short_furniture(doc, blocks, chosen, auto);
    changed |= auto.drop_leading_headline && drop_leading_headline(doc, blocks, chosen);
    changed
}

/// The longest headline read, in characters.
const HEADLINE_MAX_CHARS: u32 = 300;

/// Unchoose the page's headline when it opens the chosen text
/// ([`crate::algorithms::contract::params::AutoParams::drop_leading_headline`]): the first chosen blocks (at most
/// two, a headline printed twice) of at most [`HEADLINE_MAX_CHARS`] characters whose chosen text,
/// eight letters or more, `<title>` holds. The title is the answer's `title`; at the top of the text
/// it is read twice by whoever indexes both. Returns whether any text was unchosen.
pub fn drop_leading_headline(doc: &Document, blocks: &Blocks, chosen: &mut [bool]) -> bool {
    let Some(title) = doc.title.as_deref().map(crate::text::words::alnum_key).filter(|k| !k.is_empty()) else {
        return false;
    };
    let mut dropped = false;
    let mut text = String::new();
    for _ in 0..2 {
        let Some(b) = blocks.list.iter().find(|b| blocks.texts_of(b).iter().any(|&t| chosen[t as usize])) else {
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
        for &t in blocks.texts_of(b) {
            chosen[t as usize] = false;
        }
        dropped = true;
    }
    dropped
}

/// The most text (characters) a `<noscript>` element may hold and be a notice: some forums write a
/// whole thread there for crawlers, and that is content.
const SCRIPT_NOTICE_MAX_CHARS: u32 = 400;

/// Unchoose notices about JavaScript ([`crate::algorithms::contract::params::AutoParams::drop_script_notices`]):
/// the chosen text of `<noscript>` elements of at most [`SCRIPT_NOTICE_MAX_CHARS`] characters that
/// name it ("JavaScript is disabled. For a better experience, please enable JavaScript…"). pith reads
/// `<noscript>` as markup, since many pages put their images and some their text there, so these
/// lines reach the classifier as short prose. Returns whether any was unchosen.
pub fn drop_script_notices(doc: &Document, chosen: &mut [bool]) -> bool {
    let noscript = |_: NodeId, n: &Node| n.tag() == Some(Tag::Noscript);
    let notice = |i: NodeId, n: &Node, _: &[bool]| {
        n.stats.chars <= SCRIPT_NOTICE_MAX_CHARS
            && doc.text_nodes(i).any(|t| doc.text(t).to_ascii_lowercase().contains("javascript"))
    };
    unchoose_topmost(doc, chosen, doc.body, noscript, notice)
}

/// Unchoose cookie and consent notices
/// ([`crate::algorithms::contract::params::AutoParams::drop_consent_notices`]): containers named for consent
/// ([`lexicon::CONSENT_NOTICES`]) whose text speaks of cookies, whatever their share of the chosen
/// text, when chosen text lies outside them. A consent manager's "preference center" can hold more
/// text than a short forum post. Returns whether any was unchosen.
pub fn drop_consent_notices(doc: &Document, chosen: &mut [bool]) -> bool {
    let total = chosen_chars(doc, chosen, doc.body, doc.node(doc.body).end);
    let named =
        |_: NodeId, n: &Node| n.element().and_then(|e| e.id_class.as_deref()).is_some_and(lexicon::is_consent_notice);
    let notice = |i: NodeId, n: &Node, chosen: &[bool]| {
        let inside = chosen_chars(doc, chosen, i, n.end);
        inside > 0 && inside < total && doc.text_nodes(i).any(|t| speaks_of_cookies(doc.text(t)))
    };
    unchoose_topmost(doc, chosen, doc.body, named, notice)
}

/// Does `text` say "cookie" (in lower or upper case, after its first letter)?
fn speaks_of_cookies(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memmem::find(b, b"ookie").is_some() || memchr::memmem::find(b, b"OOKIE").is_some()
}

/// The fewest links into the page that make a table of contents.
const CONTENTS_MIN_LINKS: u32 = 3;
/// The least link text a table of contents has per link, in bytes: shorter ones are footnote marks
/// ("1", "^") and page numbers.
const CONTENTS_MIN_LINK_BYTES: usize = 8;

/// Unchoose tables of contents ([`crate::algorithms::contract::params::AutoParams::drop_tables_of_contents`]): the
/// topmost elements holding at least [`CONTENTS_MIN_LINKS`] links into the page itself
/// (`href="#..."`) of [`CONTENTS_MIN_LINK_BYTES`] or more bytes each on average, whose text is at least
/// four fifths such link text (a "Contents" caption aside), when they hold less than half of the
/// chosen characters. Returns whether any was unchosen.
pub fn drop_tables_of_contents(doc: &Document, chosen: &mut [bool]) -> bool {
    let body = doc.body;
    let end = doc.node(body).end;
    let n = (end - body) as usize;
    // Per node below `body`, bottom-up: its text bytes (trimmed), the bytes of that inside links into
    // the page, and how many such links.
    let (mut all, mut frag, mut links) = (vec![0usize; n], vec![0usize; n], vec![0u32; n]);
    for i in (body..end).rev() {
        let k = (i - body) as usize;
        let node = doc.node(i);
        if node.is_text() {
            all[k] = doc.text(i).trim().len();
        } else if let Some(e) = node.element()
            && e.tag == Tag::A
            && e.href().is_some_and(|h| h.len() > 1 && h.starts_with('#'))
        {
            frag[k] = all[k];
            links[k] += 1;
        }
        if i != body && node.parent != NONE && node.parent >= body {
            let pk = (node.parent - body) as usize;
            all[pk] += all[k];
            frag[pk] += frag[k];
            links[pk] += links[k];
        }
    }
    let total = chosen_chars(doc, chosen, body, end);
    let contents = |i: NodeId, node: &Node| {
        let k = (i - body) as usize;
        node.element().is_some()
            && links[k] >= CONTENTS_MIN_LINKS
            && frag[k] >= CONTENTS_MIN_LINK_BYTES * links[k] as usize
            && frag[k] * 5 >= all[k] * 4
    };
    let minor = |i: NodeId, node: &Node, chosen: &[bool]| {
        let inside = chosen_chars(doc, chosen, i, node.end);
        inside > 0 && inside * 2 < total
    };
    unchoose_topmost(doc, chosen, body, contents, minor)
}

/// Unchoose the blocks of at most `max_words` words that are link text and nothing else: on a
/// service page these are its calls to action ("Get started", "Book a demo", "Contact sales"),
/// which the lowered service threshold lets through beside the sections they close
/// ([`crate::algorithms::contract::params::AutoParams::service_cta_max_words`]; 0: none). Returns whether any
/// was unchosen.
pub fn drop_calls_to_action(blocks: &Blocks, chosen: &mut [bool], max_words: u32) -> bool {
    let mut dropped = false;
    for b in blocks.list.iter().filter(|b| b.chars > 0 && b.link_chars == b.chars && b.scan.words <= max_words) {
        for &t in blocks.texts_of(b) {
            dropped |= std::mem::replace(&mut chosen[t as usize], false);
        }
    }
    dropped
}

/// The longest share prompt, in characters.
const SHARE_PROMPT_MAX_CHARS: u32 = 40;
/// The longest interface label, in characters.
const INTERFACE_LABEL_MAX_CHARS: u32 = 30;
/// The longest breadcrumb trail, in characters.
const BREADCRUMB_MAX_CHARS: u32 = 200;
/// The longest link to the previous or next article, in characters.
const PREV_NEXT_MAX_CHARS: u32 = 100;
/// The longest site footer read for a registration record, in characters.
const SITE_RECORD_MAX_CHARS: u32 = 300;
/// The longest line about a forum poster, in characters.
const POSTER_DETAIL_MAX_CHARS: u32 = 40;
/// The longest bare address, in characters.
const BARE_ADDRESS_MAX_CHARS: u32 = 300;

/// Unchoose the short blocks that are page furniture whatever their place, each kind as `auto`
/// asks, in one pass over the blocks (their text nodes joined by spaces):
///
/// - share prompts ([`AutoParams::drop_share_prompts`], at most [`SHARE_PROMPT_MAX_CHARS`]
///   characters, [`lexicon::is_share_prompt`]: "Share this with friends", "分享到：", "微信扫一扫"):
///   share bars sit between the headline and the body or right after it, in the article's own
///   container, and their labels survive when their icons are links to other sites;
/// - interface labels ([`AutoParams::drop_interface_labels`], at most
///   [`INTERFACE_LABEL_MAX_CHARS`], [`lexicon::is_interface_label`]: "Click to expand...",
///   "Loading...", "Read more", "加载更多"): they sit inside the content (a forum quote's expander, a
///   card's link, a lazy list's placeholder) and say nothing of it;
/// - breadcrumb trails ([`AutoParams::drop_breadcrumbs`], at most [`BREADCRUMB_MAX_CHARS`],
///   [`lexicon::is_breadcrumb`]: "您现在的位置：首页 > 新闻 > 正文", "You are here: Home » News"):
///   portals print the trail in the article's own cell, just above the headline;
/// - links to the previous and next article ([`AutoParams::drop_prev_next_links`], at most
///   [`PREV_NEXT_MAX_CHARS`], [`lexicon::is_prev_next_link`]: "上一篇：…", "Next post: …"), printed
///   right under the body;
/// - a site's registration record ([`AutoParams::drop_site_records`], at most
///   [`SITE_RECORD_MAX_CHARS`], [`lexicon::is_site_record`]: "京ICP备12345678号", "公网安备 …号"),
///   which every site in China shows in its footer, with its sponsor, address and telephone;
/// - what a forum prints about each post's poster ([`AutoParams::drop_poster_details`], at most
///   [`POSTER_DETAIL_MAX_CHARS`], [`lexicon::is_poster_detail`]: "Posts: 1,077", "Joined: Mar 2019",
///   "Senior Member"), the user panel beside every reply;
/// - a bare address ([`AutoParams::drop_bare_addresses`], at most [`BARE_ADDRESS_MAX_CHARS`],
///   [`lexicon::is_bare_address`]: `https://cdn.example.com/images/160x160/bone.jpg`), a web address
///   written out as a block's whole text: a page's raw data fields, which a reader never sees as
///   prose (an address meant to be read is a link's label, or sits in a sentence).
///
/// Returns whether any text was unchosen.
pub fn drop_short_furniture(doc: &Document, blocks: &Blocks, chosen: &mut [bool], auto: &AutoParams) -> bool {
    let kinds = [
        (auto.drop_share_prompts, SHARE_PROMPT_MAX_CHARS, lexicon::is_share_prompt as fn(&str) -> bool),
        (auto.drop_interface_labels, INTERFACE_LABEL_MAX_CHARS, lexicon::is_interface_label),
        (auto.drop_breadcrumbs, BREADCRUMB_MAX_CHARS, lexicon::is_breadcrumb),
        (auto.drop_prev_next_links, PREV_NEXT_MAX_CHARS, lexicon::is_prev_next_link),
        (auto.drop_site_records, SITE_RECORD_MAX_CHARS, lexicon::is_site_record),
        (auto.drop_poster_details, POSTER_DETAIL_MAX_CHARS, lexicon::is_poster_detail),
        (auto.drop_bare_addresses, BARE_ADDRESS_MAX_CHARS, lexicon::is_bare_address),
    ];
    let Some(max_chars) = kinds.iter().filter(|k| k.0).map(|k| k.1).max() else { return false };
    let mut text = String::new();
    let mut dropped = false;
    for b in blocks.list.iter().filter(|b| b.chars > 0 && b.chars <= max_chars) {
        let texts = blocks.texts_of(b);
        if !texts.iter().all(|&t| chosen[t as usize]) {
            continue;
        }
        text.clear();
        for (k, &t) in texts.iter().enumerate() {
            if k > 0 {
                text.push(' ');
            }
            text.push_str(doc.text(t));
        }
        if kinds.iter().any(|&(on, max, is)| on && b.chars <= max && is(&text)) {
            for &t in texts {
                chosen[t as usize] = false;
            }
            dropped = true;
        }
    }
    dropped
}

/// The longest heading of a recommendation rail, in bytes.
const RAIL_HEADING_MAX_BYTES: usize = 60;
/// The most section openers read on one page: a bound on the work a hostile page can ask for, far
/// above the three or four rails of a real product page or the one notice of a news page.
const MAX_OPENERS: usize = 64;

/// Unchoose a product page's recommendation rails
/// ([`crate::algorithms::contract::params::AutoParams::drop_recommendation_rails`]): a chosen heading that stands
/// alone in its block and names a rail ([`lexicon::RAIL_HEADINGS`]: "Customers also bought",
/// "Similar items"), with the highest ancestor that starts with it and holds neither the surest block
/// nor half of the chosen text. Shops render these rails as cards much like the product's own
/// blocks, and often with class names no rule can read. Returns whether any text was unchosen.
pub fn drop_recommendation_rails(doc: &Document, chosen: &mut [bool], surest: NodeId) -> bool {
    drop_opened_sections(doc, chosen, surest, RAIL_HEADING_MAX_BYTES, Opener::WholeBlock, |text| {
        let lower = text.to_lowercase();
        lexicon::RAIL_HEADINGS.iter().any(|p| lower.contains(p))
    })
}

/// The longest reprint or copyright notice read, in bytes (about 200 CJK characters).
const REPRINT_NOTICE_MAX_BYTES: usize = 600;

/// Unchoose reprint and copyright notices ([`crate::algorithms::contract::params::AutoParams::drop_reprint_notices`]):
/// a chosen text that opens its block and is one ([`lexicon::is_reprint_notice`]:
/// "声明：该文观点仅代表作者本人…", "版权与免责声明：", "未经书面许可，擅自转载…侵权"), with the highest
/// ancestor that starts with it and holds less than half of the chosen text (the numbered clauses
/// under such a heading). Chinese news sites print them under every article, in the article's own
/// container and type, so density and the block classifier keep them. A page whose main content is
/// a statement keeps it: its text is at least half of what is chosen. Returns whether any text was
/// unchosen.
pub fn drop_reprint_notices(doc: &Document, chosen: &mut [bool]) -> bool {
    drop_opened_sections(doc, chosen, NONE, REPRINT_NOTICE_MAX_BYTES, Opener::BlockStart, lexicon::is_reprint_notice)
}

/// Where in its block the text that opens a section stands.
#[derive(Clone, Copy, PartialEq)]
enum Opener {
    /// It is the block's whole text: a heading ("Customers also bought"), not a phrase in a sentence.
    WholeBlock,
    /// It is the block's first chosen text: a notice's name before its clauses in one paragraph.
    BlockStart,
}

/// Unchoose every section a chosen text opens: a text node of at most `max_bytes` that stands in its
/// block as `opener` says and that `opens` accepts, with the highest ancestor that starts with it
/// and holds neither `surest` nor half of the chosen text (with [`Opener::BlockStart`], that
/// ancestor holds the whole block). At most [`MAX_OPENERS`] openers are read.
fn drop_opened_sections(
    doc: &Document,
    chosen: &mut [bool],
    surest: NodeId,
    max_bytes: usize,
    opener: Opener,
    opens: impl Fn(&str) -> bool,
) -> bool {
    let end = doc.node(doc.body).end;
    let total = chosen_chars(doc, chosen, doc.body, end);
    let mut openers = 0;
    // Chosen bytes before each node, so that every ancestor's share costs one subtraction; rebuilt
    // after each section is dropped.
    let mut before: Vec<usize> = Vec::new();
    let mut dropped = false;
    for t in doc.body..end {
        let node = doc.node(t);
        if !chosen[t as usize] || !node.is_text() || doc.text(t).len() > max_bytes {
            continue;
        }
        let mut block = node.parent;
        while block != NONE && doc.node(block).tag().is_some_and(|t| !t.is_block()) {
            block = doc.node(block).parent;
        }
        let whole = block != NONE && doc.node(block).stats.chars <= node.stats.chars + 2;
        if block == NONE || (opener == Opener::WholeBlock && !whole) || !opens(doc.text(t)) {
            continue;
        }
        openers += 1;
        if openers > MAX_OPENERS {
            break;
        }
        if before.is_empty() {
            before = chosen_before(doc, chosen);
        }
        let chosen_in = |from: NodeId, to: NodeId| before[to as usize] - before[from as usize];
        let mut section = NONE;
        let mut up = node.parent;
        while up != NONE && up > doc.body {
            let n = doc.node(up);
            if (up..n.end).contains(&surest) || chosen_in(up, t) > 0 || chosen_in(up, n.end) * 2 >= total {
                break;
            }
            section = up;
            up = n.parent;
        }
        // Ids are in document order: an ancestor of the block has a smaller one.
        if section != NONE && (opener == Opener::WholeBlock || section <= block) {
            let section_end = doc.node(section).end as usize;
            chosen[section as usize..section_end].fill(false);
            dropped = true;
            before.clear();
        }
    }
    dropped
}

/// Bytes of chosen text before each node id (and one past the last: the total).
fn chosen_before(doc: &Document, chosen: &[bool]) -> Vec<usize> {
    let mut before = Vec::with_capacity(doc.len() + 1);
    let mut sum = 0;
    for (i, &c) in chosen.iter().enumerate().take(doc.len()) {
        before.push(sum);
        if c {
            sum += doc.text(i as NodeId).len();
        }
    }
    before.push(sum);
    before
}

/// Bytes of chosen text among the nodes `from..to`.
fn chosen_chars(doc: &Document, chosen: &[bool], from: NodeId, to: NodeId) -> usize {
    (from..to).filter(|&i| chosen[i as usize]).map(|i| doc.text(i).len()).sum()
}

/// Unchoose the chosen text outside the page's `<main>` element when at least `min_share` of the
/// chosen characters are inside it ([`crate::algorithms::contract::params::AutoParams::main_min_share`]), but
/// not the run of chosen text that leads into `<main>` with no unchosen text between (a headline
/// and dek written above it). A page with no `<main>`, or with two apart, is left as it is, and so
/// is one whose chosen text is all inside. Returns whether any was unchosen.
pub fn confine_to_main(doc: &Document, chosen: &mut [bool], min_share: f64) -> bool {
    if min_share <= 0.0 {
        return false;
    }
    let end = doc.node(doc.body).end;
    let mut mains = (doc.body..end).filter(|&i| doc.node(i).tag() == Some(Tag::Main));
    let Some(main) = mains.next() else { return false };
    if mains.any(|i| !doc.contains(main, i)) {
        return false;
    }
    let main_end = doc.node(main).end as usize;
    let all = chosen_chars(doc, chosen, 0, chosen.len() as NodeId);
    let inside = chosen_chars(doc, chosen, main, main_end as NodeId);
    if inside == all || (inside as f64) < min_share * all as f64 {
        return false;
    }
    // Back from `<main>` over the chosen text that leads into it.
    let mut lead_start = main as usize;
    for i in (0..main as usize).rev() {
        if doc.node(i as NodeId).is_text() && !doc.text(i as NodeId).trim().is_empty() {
            if !chosen[i] {
                break;
            }
            lead_start = i;
        }
    }
    chosen[..lead_start].fill(false);
    if let Some(after) = chosen.get_mut(main_end..) {
        after.fill(false);
    }
    true
}

/// Unchoose the chosen text of `<nav>`, `<aside>` and `<footer>` elements (and, with `named_footers`,
/// of elements whose id or class has the word "footer": [`lexicon::FOOTERS`],
/// [`crate::algorithms::contract::params::AutoParams::drop_named_footers`]) that hold less than half of the
/// chosen characters, and of `<nav>` elements whose chosen text is at least nine tenths link
/// text when some chosen text lies outside them (a shop's mega-menu can outweigh the page it
/// serves) ([`crate::algorithms::contract::params::AutoParams::drop_sectioning_chrome`]). Returns whether any
/// was unchosen.
pub fn drop_sectioning_chrome(doc: &Document, chosen: &mut [bool], named_footers: bool) -> bool {
    let total = chosen_chars(doc, chosen, doc.body, doc.node(doc.body).end);
    let sectioning = |_: NodeId, n: &Node| {
        matches!(n.tag(), Some(Tag::Nav | Tag::Aside | Tag::Footer))
            || (named_footers
                && n.element()
                    .and_then(|e| e.id_class.as_deref())
                    .is_some_and(|c| lexicon::matches_any(&lexicon::FOOTERS, c)))
    };
    let chrome = |i: NodeId, n: &Node, chosen: &[bool]| {
        let inside = chosen_chars(doc, chosen, i, n.end);
        // A menu is navigation whatever its share, unless it is all there is.
        let menu = n.tag() == Some(Tag::Nav) && inside < total && {
            let linked: usize =
                (i..n.end).filter(|&t| chosen[t as usize] && doc.node(t).in_link).map(|t| doc.text(t).len()).sum();
            linked * 10 >= inside * 9
        };
        inside > 0 && (inside * 2 < total || menu)
    };
    unchoose_topmost(doc, chosen, doc.body, sectioning, chrome)
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

/// The first paragraph-like block of the region (a sentence mark, 25 characters or more) as text
/// nodes, if it is at most `max_chars` long; nothing otherwise.
pub(super) fn lead(doc: &Document, roots: &[NodeId], max_chars: u32) -> Vec<NodeId> {
    let owners = block_owners(doc);
    let owner_of = |t: NodeId| owners[doc.node(t).parent as usize];
    let texts: Vec<NodeId> = roots.iter().flat_map(|&r| doc.text_nodes(r)).collect();
    let mut k = 0;
    while k < texts.len() {
        let owner = owner_of(texts[k]);
        let mut j = k;
        let (mut chars, mut punct) = (0u32, 0u32);
        while j < texts.len() && owner_of(texts[j]) == owner {
            chars += doc.node(texts[j]).stats.chars;
            punct += doc.node(texts[j]).stats.punct;
            j += 1;
        }
        if chars >= 25 && punct >= 1 {
            return if chars <= max_chars { texts[k..j].to_vec() } else { Vec::new() };
        }
        k = j;
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The non-empty chosen texts, trimmed, joined by `|`.
    fn chosen_text(doc: &Document, chosen: &[bool]) -> String {
        (0..doc.len() as NodeId)
            .filter(|&i| chosen[i as usize] && !doc.text(i).trim().is_empty())
            .map(|i| doc.text(i).trim())
            .collect::<Vec<_>>()
            .join("|")
    }

    /// Choose every text node, drop repeats of at least `min_chars`, and return the text still chosen.
    fn kept_after_repeat_drop(html: &str, min_chars: u32) -> String {
        let doc = Document::parse(html);
        let blocks = super::super::segment::segment(&doc, &block_owners(&doc));
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        drop_repeats(&doc, &blocks, &mut chosen, min_chars);
        chosen_text(&doc, &chosen)
    }

    #[test]
    fn the_repeat_hash_skips_exactly_the_whitespace_chars_skip() {
        let hash = |s: &str| {
            let mut h = Fnv1a::new();
            hash_non_whitespace(&mut h, s);
            h.finish()
        };
        let by_chars = |s: &str| {
            let mut h = Fnv1a::new();
            let kept: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            h.bytes(kept.bytes());
            h.finish()
        };
        for s in ["a b\tc\u{0B}d\r\ne", "農業\u{3000}培訓\u{00A0}x", "\u{2028}é\u{1F600} \u{85}z", ""] {
            assert_eq!(hash(s), by_chars(s), "{s:?}");
        }
        assert_eq!(hash("a b"), hash("ab"));
        assert_ne!(hash("ab"), hash("ba"));
    }

    #[test]
    fn a_copy_under_another_parent_is_dropped_and_a_repeat_among_siblings_kept() {
        let desc = "A sturdy mug thrown by hand from local clay, glazed in earthy tones.";
        // One description per product variant: the reader sees one.
        let variants = format!(
            "<body><h1>Mug</h1><div class=v1><p>{desc}</p><p>Blue variant</p></div>\
             <div class=v2><p>{}</p><p>Green variant</p></div></body>",
            desc.replace(' ', "\n  ")
        );
        assert_eq!(kept_after_repeat_drop(&variants, 40), format!("Mug|{desc}|Blue variant|Green variant"));
        // 0 keeps every copy; so does a threshold above the copy's length.
        assert_eq!(kept_after_repeat_drop(&variants, 0).matches("sturdy").count(), 2);
        assert_eq!(kept_after_repeat_drop(&variants, 400).matches("sturdy").count(), 2);
        // The same paragraph twice in one container is the text as written.
        let refrain = format!("<body><div><p>{desc}</p><p>Chorus</p><p>{desc}</p></div></body>");
        assert_eq!(kept_after_repeat_drop(&refrain, 40).matches("sturdy").count(), 2);
        // Short repeats stay: a spec line in two tables.
        let specs = "<body><div><p>Colour: green</p></div><div><p>Colour: green</p></div></body>";
        assert_eq!(kept_after_repeat_drop(specs, 40), "Colour: green|Colour: green");
    }

    #[test]
    fn a_listing_between_kept_steps_is_kept_and_one_beside_dropped_text_is_not() {
        let page = "<body><nav><a href=/>Docs</a></nav><main><p>Create a project first.</p>\
            <div><span>Terminal</span><pre><code>npm create vite</code></pre></div><p>Then install it.</p>\
            <pre>npm install pith</pre><aside><p>Sponsored by a long list of friends of the project who keep the lights on and the builds green every single day of the year.</p></aside>\
            <p>Last step.</p></main><footer><pre>ascii art logo</pre></footer></body>";
        let doc = Document::parse(page);
        let keep = ["Create a project first.", "Then install it.", "Last step."];
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| keep.contains(&doc.text(i as NodeId).trim())).collect();
        assert!(keep_code_between_kept(&doc, &mut chosen, 100));
        // The first listing has a short caption before it and kept text after; the second has 120
        // characters of dropped text after it; the third has no kept text after it.
        assert_eq!(chosen_text(&doc, &chosen), "Create a project first.|npm create vite|Then install it.|Last step.");
        let mut none: Vec<bool> = (0..doc.len()).map(|i| keep.contains(&doc.text(i as NodeId).trim())).collect();
        assert!(!keep_code_between_kept(&doc, &mut none, 5));
        assert_eq!(chosen_text(&doc, &none), "Create a project first.|Then install it.|Last step.");
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
        let thread = |name: &str| lexicon::matches_any(&lexicon::COMMENT_THREADS, name);
        assert!(thread("disqus_thread") && thread("pinglun-box"));
        assert!(!thread("recommend") && !thread("commentary"));
    }

    #[test]
    fn a_thread_after_the_article_is_dropped_on_an_article_page_whatever_it_holds() {
        let post = "A short post that says what it has to say in two plain sentences. Thanks for reading.";
        let page = format!(
            "<body><h1>Title</h1><div class=post><p>{post}</p></div>\
             <div id=comments><h3>Comments</h3><p>A reader's long and well-written reply.</p></div></body>"
        );
        let doc = Document::parse(&page);
        let all = || (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect::<Vec<bool>>();
        let mut chosen = all();
        assert!(drop_threads_after_article(&doc, &mut chosen, 50));
        assert_eq!(chosen_text(&doc, &chosen), format!("Title|{post}"));
        // Kept text before the thread shorter than the bound (a headline over a wrapper): kept.
        let mut chosen = all();
        assert!(!drop_threads_after_article(&doc, &mut chosen, 500));
        assert!(chosen_text(&doc, &chosen).contains("reply"));
        // 0 turns the step off.
        let mut chosen = all();
        assert!(!drop_threads_after_article(&doc, &mut chosen, 0));
    }

    #[test]
    fn a_products_reviews_are_its_comment_thread() {
        let page = "<body><h1>Trail pack</h1><div class=description><p>A 25-litre pack with a padded back.</p></div>\
                    <section id=product-reviews><h2>Reviews</h2><p>Took it out last weekend and loved it.</p></section>\
                    <p>Ships in two days.</p></body>";
        let doc = Document::parse(page);
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let surest =
            (0..doc.len() as NodeId).find(|&i| doc.text(i).starts_with("A 25-litre")).map(|i| doc.node(i).parent);
        assert!(drop_threads(&doc, &mut chosen, surest.unwrap_or(NONE), &lexicon::REVIEW_THREADS));
        assert_eq!(chosen_text(&doc, &chosen), "Trail pack|A 25-litre pack with a padded back.|Ships in two days.");
        // The same container as the page's surest block (a "review" article's body) stays.
        let mut all: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let in_reviews =
            (0..doc.len() as NodeId).find(|&i| doc.text(i).starts_with("Took it")).map(|i| doc.node(i).parent);
        assert!(!drop_threads(&doc, &mut all, in_reviews.unwrap_or(NONE), &lexicon::REVIEW_THREADS));
    }

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

    /// Choose the text nodes whose text is in `picked` (all when empty), confine to `<main>` at
    /// `min_share`, and return the text still chosen.
    fn kept_after_main_confinement(html: &str, picked: &[&str], min_share: f64) -> String {
        let doc = Document::parse(html);
        let mut chosen: Vec<bool> = (0..doc.len() as NodeId)
            .map(|i| doc.node(i).is_text() && (picked.is_empty() || picked.contains(&doc.text(i).trim())))
            .collect();
        confine_to_main(&doc, &mut chosen, min_share);
        chosen_text(&doc, &chosen)
    }

    #[test]
    fn text_outside_main_is_dropped_when_most_is_inside() {
        let body = "A long paragraph of the article, well over twice what the menu, the rail and the widget hold \
                    together, as the body of a page usually is.";
        let page = format!(
            "<body><nav><p>Menu entry</p></nav><p>Top stories</p><div><h1>Headline</h1><p>Dek</p></div>\
             <main><p>{body}</p></main><aside><p>What customers say</p></aside></body>"
        );
        let all_but = |left_out: &str| {
            ["Menu entry", "Top stories", "Headline", "Dek", body, "What customers say"]
                .into_iter()
                .filter(|t| *t != left_out)
                .collect::<Vec<_>>()
        };
        // The headline and dek run straight into <main> and stay; the menu, cut off from <main> by the
        // unchosen rail, and the widget after <main> go.
        assert_eq!(kept_after_main_confinement(&page, &all_but("Top stories"), 0.65), format!("Headline|Dek|{body}"));
        // With "Dek" unchosen the headline no longer leads into <main>.
        assert_eq!(kept_after_main_confinement(&page, &all_but("Dek"), 0.65), body);
        // Everything chosen is one run into <main>: only what follows it goes.
        assert_eq!(
            kept_after_main_confinement(&page, &[], 0.65),
            format!("Menu entry|Top stories|Headline|Dek|{body}")
        );
        // 0 never confines; nor does a share above what <main> holds.
        assert!(kept_after_main_confinement(&page, &[], 0.0).ends_with("|What customers say"));
        assert!(kept_after_main_confinement(&page, &[], 0.99).ends_with("|What customers say"));
        // Two <main> elements apart (a template's mistake): nothing is known, nothing dropped.
        let two = format!("<body><main><p>{body}</p></main><p>Footer</p><main><p>Other</p></main></body>");
        assert_eq!(kept_after_main_confinement(&two, &[], 0.65), format!("{body}|Footer|Other"));
        // No <main>: left as it is.
        let none = format!("<body><p>Menu</p><div><p>{body}</p></div></body>");
        assert_eq!(kept_after_main_confinement(&none, &[], 0.65), format!("Menu|{body}"));
    }

    #[test]
    fn menus_sidebars_and_footers_holding_little_of_the_answer_are_dropped() {
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            drop_sectioning_chrome(&doc, &mut chosen, true);
            chosen_text(&doc, &chosen)
        };
        let body = "The article's own paragraph, longer than the menu, the sidebar and the footer together.";
        // A footer written as a `<div>` named for it goes as `<footer>` does; "footnotes" is not one.
        let named = format!(
            "<body><div class=\"site-footer\"><p>Copyright 2026 County News</p></div><p>{body}</p>\
             <div id=footnotes><p>1. A note.</p></div><div id=\"page-footer-links\"><p>Terms</p></div></body>"
        );
        assert_eq!(kept(&named), format!("{body}|1. A note."));
        let page = format!(
            "<body><nav><p>Home</p></nav><div><p>{body}</p><footer><p>Filed under news</p></footer></div>\
             <aside><p>Popular this week</p></aside><footer><p>Copyright</p></footer></body>"
        );
        assert_eq!(kept(&page), body);
        // A template that wraps the whole article in <aside> keeps it.
        let wrapped = format!("<body><aside><p>{body}</p></aside><p>Menu</p></body>");
        assert_eq!(kept(&wrapped), format!("{body}|Menu"));
        // A menu of links larger than the page is still a menu; a <nav> wrapping prose is not.
        let items: String = (0..30).map(|k| format!("<li><a href=/c{k}>Category number {k}</a></li>")).collect();
        let mega = format!("<body><nav><ul>{items}</ul></nav><p>{body}</p></body>");
        assert_eq!(kept(&mega), body);
        let prose_nav = format!("<body><nav><p>{body}</p></nav><p>Menu</p></body>");
        assert_eq!(kept(&prose_nav), format!("{body}|Menu"));
        // Nothing outside it: what the classifier kept stays.
        let only = format!("<body><nav><ul>{items}</ul></nav></body>");
        assert!(kept(&only).starts_with("Category number 0|"));
    }

    #[test]
    fn tables_of_contents_are_dropped_and_footnote_marks_and_outside_links_are_not() {
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            let dropped = drop_tables_of_contents(&doc, &mut chosen);
            (dropped, chosen_text(&doc, &chosen))
        };
        let body = "<h2 id=why>Why it matters</h2><p>A paragraph long enough to outweigh the contents list \
            above it, and then some more words so that it holds most of the kept text on its own.</p>\
            <h2 id=how>How it works</h2><p>Another paragraph.</p>";
        let toc = "<div class=toc><p>Contents</p><ul><li><a href=#why>Why it matters</a></li>\
            <li><a href=#how>How it works</a></li><li><a href=#faq>Questions people ask</a></li></ul></div>";
        let (dropped, text) = kept(&format!("<body>{toc}{body}</body>"));
        assert!(dropped);
        assert!(text.starts_with("Why it matters|A paragraph"), "{text}");
        // The same list linking to other pages is not a table of contents.
        let (dropped, _) = kept(&format!("<body>{}{body}</body>", toc.replace("href=#", "href=/")));
        assert!(!dropped);
        // Footnote marks are links into the page too, but short.
        let notes = "<p><sup><a href=#n1>1</a></sup><sup><a href=#n2>2</a></sup><sup><a href=#n3>3</a></sup></p>";
        assert!(!kept(&format!("<body>{notes}{body}</body>")).0);
        // A page that is nothing but its contents list keeps it.
        assert!(!kept(&format!("<body>{toc}</body>")).0);
    }

    #[test]
    fn cookie_notices_are_dropped_whatever_their_size_and_a_page_about_cookies_is_not() {
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            let dropped = drop_consent_notices(&doc, &mut chosen);
            (dropped, chosen_text(&doc, &chosen))
        };
        let notice = "<div id=onetrust-consent-sdk><p>We use cookies to improve your experience.</p>\
            <p>Strictly necessary cookies keep the site working; performance cookies count visits and \
            help us improve the pages you read, and you can switch them off at any time.</p></div>";
        let post = "<p>Does the case fit a 360 mm radiator?</p>";
        let (dropped, text) = kept(&format!("<body>{post}{notice}</body>"));
        assert!(dropped);
        assert_eq!(text, "Does the case fit a 360 mm radiator?");
        // A consent checkbox of a form says nothing of cookies and stays.
        let form = "<div class=form-gdpr><p>I agree to be contacted.</p></div>";
        assert!(!kept(&format!("<body>{post}{form}</body>")).0);
        // A page that is nothing but the notice keeps it; a section on cookies is not a notice.
        assert!(!kept(&format!("<body>{notice}</body>")).0);
        let docs = "<div id=cookies><h2>Cookies</h2><p>Use the cookies attribute to read cookies.</p></div>";
        assert!(!kept(&format!("<body>{post}{docs}</body>")).0);
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
    fn reprint_notices_are_dropped_with_their_clauses_and_a_statement_page_is_not() {
        let body = "县农业局今天举办农民培训班，技术员讲解水稻新品种的种植方法，两百多名农民参加了培训。";
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            drop_reprint_notices(&doc, &mut chosen);
            chosen_text(&doc, &chosen)
        };
        // A notice named in its paragraph's first line goes with the clauses under it.
        let named = format!(
            "<body><p>{body}</p><table><tr><td><p><b>本网版权与免责声明：</b><br>① 凡本网注明来源的作品，版权均属本网。\
             <br>② 联系电话：010-12345678</p></td></tr></table></body>"
        );
        assert_eq!(kept(&named), body);
        // One that opens with "声明：", and one that speaks of reprinting and infringement.
        let opened = format!("<body><p>{body}</p><p>声明：该文观点仅代表作者本人。</p></body>");
        assert_eq!(kept(&opened), body);
        let rights = format!(
            "<body><p>{body}</p><div><span>原创版权禁止商业转载</span><span>报告侵权请联系我们</span></div></body>"
        );
        assert_eq!(kept(&rights), body);
        // A writer's "do not reprint" names no right; "声明：" inside a sentence opens nothing.
        let own = format!("<body><p>{body}</p><p>本文为我原创，禁止转载。</p><p>他说：<b>声明：</b>无效。</p></body>");
        assert_eq!(kept(&own), format!("{body}|本文为我原创，禁止转载。|他说：|声明：|无效。"));
        // A page whose content is a statement keeps it: it is most of the text.
        let statement = "<body><p>导航</p><p>声明：本公司从未授权任何机构以本公司名义招聘，请广大求职者提高警惕，谨防上当受骗。</p></body>";
        assert!(kept(statement).contains("从未授权"));
    }

    /// Choose every text node, run `step` over the page's blocks, and return whether it unchose any
    /// text and the text still chosen.
    fn kept_after(html: &str, step: impl Fn(&Document, &Blocks, &mut [bool]) -> bool) -> (bool, String) {
        let doc = Document::parse(html);
        let blocks = super::super::segment::segment(&doc, &block_owners(&doc));
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let dropped = step(&doc, &blocks, &mut chosen);
        (dropped, chosen_text(&doc, &chosen))
    }

    /// [`kept_after`] the short-furniture pass with `auto`.
    fn kept_after_furniture(html: &str, auto: &AutoParams) -> (bool, String) {
        kept_after(html, |doc, blocks, chosen| drop_short_furniture(doc, blocks, chosen, auto))
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
    fn links_to_the_next_article_and_a_sites_record_are_dropped() {
        let body = "县农业局今天举办农民培训班，两百多名农民参加了培训。";
        let html = format!(
            "<body><p>{body}</p><p>上一篇：<a href=/a>关于春季农机安全检查的通知</a></p>\
             <p>Next post: <a href=/b>Seed fair</a></p><p>上篇文章讲到了育苗。</p>\
             <div>主办：县农业局 电话：0123-4567890 备案号：某ICP备12345678号</div>\
             <p>网站要办理ICP备案。</p></body>"
        );
        let kept = format!("{body}|上篇文章讲到了育苗。|网站要办理ICP备案。");
        assert_eq!(kept_after_furniture(&html, &AutoParams::default()), (true, kept));
        let auto = AutoParams { drop_prev_next_links: false, drop_site_records: false, ..AutoParams::default() };
        assert!(!kept_after_furniture(&html, &auto).0);
    }

    #[test]
    fn a_forum_posters_details_are_dropped_and_a_reply_about_posts_is_not() {
        let reply = "I replaced the fan and the noise is gone.";
        let html = format!(
            "<body><div><p>Senior Member</p><p>Posts: 1,077</p><p>Joined: Mar 2019</p></div><p>{reply}</p>\
             <p>Member</p><p>Posts about rice</p><p>Moderators of this forum</p></body>"
        );
        assert_eq!(
            kept_after_furniture(&html, &AutoParams::default()),
            (true, format!("{reply}|Posts about rice|Moderators of this forum"))
        );
        let auto = AutoParams { drop_poster_details: false, ..AutoParams::default() };
        assert!(!kept_after_furniture(&html, &auto).0);
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

    #[test]
    fn notices_about_javascript_are_dropped_and_a_thread_written_for_crawlers_is_not() {
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            let dropped = drop_script_notices(&doc, &mut chosen);
            (dropped, chosen_text(&doc, &chosen))
        };
        let post = "<p>The fan header on the bottom panel is for a second pump.</p>";
        let notice =
            "<noscript><p>JavaScript is disabled. For a better experience, please enable JavaScript.</p></noscript>";
        let (dropped, text) = kept(&format!("<body>{notice}{post}</body>"));
        assert!(dropped);
        assert_eq!(text, "The fan header on the bottom panel is for a second pump.");
        // An image fallback says nothing of scripts; a long thread for crawlers is content.
        assert!(!kept(&format!("<body><noscript><p>Photo: the case from the side</p></noscript>{post}</body>")).0);
        let thread =
            format!("<body><noscript>{}<p>Best viewed with JavaScript enabled</p></noscript></body>", post.repeat(8));
        assert!(!kept(&thread).0);
    }

    #[test]
    fn short_link_only_blocks_are_calls_to_action() {
        let html = "<body><h2>Payroll in minutes</h2><p>Run payroll for every state in one place.</p>\
            <p><a href=/start>Get started</a></p><p><a href=/demo>Book a free demo</a></p>\
            <p>Read <a href=/guide>our guide</a> first.</p><ul><li><a href=/p>Pricing</a> from $5</li></ul></body>";
        let doc = Document::parse(html);
        let blocks = super::super::segment(&doc, &block_owners(&doc));
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
