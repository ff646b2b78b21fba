//! The default pipeline, `auto`: the seed algorithms combined, in the spirit of the CombinE / Crunch
//! line of work the CETD paper cites.
//!
//! 1. **Core.** Composite Text Density with DensitySum (Sun, Song & Liao) finds the node whose children
//!    are densest: the article body. Unlike the paper's ExtractContent we do not mark every
//!    above-threshold node across the page (that pulls in footers and comment threads); we start from
//!    the one max-DensitySum node.
//! 2. **Region.** The core grows upward while its parent adds little but dense, link-poor text (a
//!    headline or a lead paragraph held in a sibling), and siblings whose CTD reaches the threshold
//!    line of the CETD method join it.
//! 3. **Pruning.** Inside the region, blocks that the anchor-ratio heuristic (seed 003) calls link
//!    blocks, footer marks, and containers named for comments, sharing, related links or navigation are
//!    cut out. What remains is emitted as maximal clean subtrees, so structure (lists, tables, `pre`)
//!    survives.
//! 4. **Has-article.** The page's P value (Lv et al.) and the region's own text measures combine into
//!    the probability.

use serde::{Deserialize, Serialize};

use crate::algorithms::anchor_ratio::{anchor_ratio, is_footer};
use crate::algorithms::cetd::{Density, density_sum_select, score_blocks};
use crate::algorithms::pvalue::p_values;
use crate::algorithms::{Content, Context, Outcome};
use crate::dom::{Document, NONE, NodeId, Tag};

/// What `auto` returns as text for a page it judges to have no article.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoArticleText {
    /// Only the page's first paragraph, when it is short (a listing's intro): a search index must not
    /// ingest a home page's link soup as an article.
    Lead,
    /// The region's text as for an article.
    Full,
}

/// Parameters of `auto`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AutoParams {
    pub no_article_text: NoArticleText,
    /// The longest lead kept under `Lead` (characters).
    pub lead_chars: u32,
}

impl Default for AutoParams {
    fn default() -> Self {
        AutoParams { no_article_text: NoArticleText::Lead, lead_chars: 300 }
    }
}

/// Class/id words of containers that are never main content when they sit inside the article region.
const NOISE_NAMES: &[&str] = &[
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
];

fn has_noise_name(id_class: &str) -> bool {
    NOISE_NAMES.iter().any(|w| id_class.contains(w))
}

/// `auto`.
pub fn run(ctx: &Context<'_>) -> Outcome {
    let doc = ctx.doc;
    let ds = density_sum_select(doc, Density::Composite);
    let (p, best_p) = p_values(doc);
    let core = core_node(doc, &ds.marked, ds.max_node);
    let root = region(doc, &ds.density, core, ds.threshold);
    let roots = prune(doc, ctx, &root);
    let blocks = score_blocks(doc, &roots, |i| {
        let k = i as usize;
        (vec![("ctd", ds.density[k]), ("density_sum", ds.density_sum[k]), ("p", p[k])], ds.density_sum[k])
    });
    let signals = signals(doc, &roots, p[best_p as usize]);
    let probability = if ctx.article.is_trained() {
        ctx.article.probability(&signals)
    } else {
        // Untrained (a fresh checkout before `pith train`): page P and text amount, half each.
        let kept = signals.iter().find(|(n, _)| *n == "text_chars").map_or(0.0, |s| s.1);
        0.5 * p[best_p as usize] + 0.5 * (1.0 - (-(kept.exp_m1()) / 400.0).exp())
    };
    let is_article = probability >= ctx.params.pvalue.article_threshold;
    let roots = if is_article || ctx.params.auto.no_article_text == NoArticleText::Full {
        roots
    } else {
        lead(doc, &roots, ctx.params.auto.lead_chars)
    };
    Outcome { content: Content::Nodes(roots), probability, blocks, signals }
}

/// Among the nodes the CETD ExtractContent marks, the one holding the most sentence text. The
/// max-DensitySum node alone can be a list of short link-free items: CTD's logarithm base shrinks for
/// short texts, so eleven one-word `<li>`s can out-sum a 13,000-character paragraph. Two corrections
/// keep the choice on the article: a comment thread often holds more text than the article it follows,
/// so candidates inside a container named for comments count a tenth; and a page that carries several
/// stories names the main one in its `<title>`, so words shared with the title (in the candidate's
/// opening text or the heading just before it) raise its weight up to threefold.
fn core_node(doc: &Document, marked: &[NodeId], max_node: NodeId) -> NodeId {
    let title = TitleWords::new(doc, doc.title.as_deref().map(title_words).unwrap_or_default());
    let base = |i: NodeId| {
        let s = doc.node(i).stats;
        let w = s.non_link_chars() as f64 + 10.0 * s.punct.min(s.non_link_chars()) as f64;
        let in_comments = std::iter::once(i)
            .chain(doc.ancestors(i))
            .any(|a| doc.node(a).element().and_then(|e| e.id_class.as_deref()).is_some_and(is_comment_name));
        if in_comments { w * 0.1 } else { w }
    };
    let cands: Vec<NodeId> = marked.iter().copied().chain([max_node]).collect();
    let bases: Vec<f64> = cands.iter().map(|&c| base(c)).collect();
    // The title can at most triple a weight, and matching it tokenises text: so candidates are weighed
    // in order of the most they could weigh, stopping once that is below the best weight found.
    let most = if title.is_empty() { 1.0 } else { 3.0 };
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by(|&a, &b| bases[b].total_cmp(&bases[a]));
    let mut weights = vec![f64::NEG_INFINITY; cands.len()];
    let mut max = f64::NEG_INFINITY;
    for k in order {
        if bases[k] * most < max {
            break;
        }
        weights[k] = if title.is_empty() { bases[k] } else { bases[k] * (1.0 + 2.0 * title.share(cands[k])) };
        max = max.max(weights[k]);
    }
    // Of equal weights, the last candidate wins (unweighed ones weigh less than the best).
    let mut best = (f64::NEG_INFINITY, max_node);
    for (k, &c) in cands.iter().enumerate() {
        if weights[k] >= best.0 {
            best = (weights[k], c);
        }
    }
    best.1
}

/// Container names of comment threads.
const COMMENT_NAMES: &[&str] = &["comment", "disqus", "respond", "discussion", "replies"];

/// Lower-cased words of a title (CJK characters one by one), three letters or more for Latin words;
/// sorted, deduplicated, and at most [`TitleWords::MAX`] of them.
fn title_words(title: &str) -> Vec<String> {
    let mut w: Vec<String> = crate::tokens::words(title)
        .into_iter()
        .filter(|w| w.chars().count() >= 3 || w.chars().all(crate::tokens::is_cjk))
        .collect();
    w.sort();
    w.dedup();
    w.truncate(TitleWords::MAX);
    w
}

/// Which title words a piece of text contains, as a bit set: text nodes are tokenised once each, however
/// many candidates read them.
struct TitleWords<'a> {
    doc: &'a Document,
    words: Vec<String>,
    seen: std::cell::RefCell<std::collections::HashMap<NodeId, u128>>,
}

impl<'a> TitleWords<'a> {
    const MAX: usize = 128;

    fn new(doc: &'a Document, words: Vec<String>) -> Self {
        TitleWords { doc, words, seen: Default::default() }
    }

    fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    fn mask(&self, text: &str) -> u128 {
        let mut m = 0u128;
        crate::tokens::for_each_word(text, |w| {
            // Title words have three letters or more, or are one CJK character (three bytes in UTF-8).
            if w.len() >= 3
                && let Ok(k) = self.words.binary_search_by(|t| t.as_str().cmp(w))
            {
                m |= 1 << k;
            }
        });
        m
    }

    fn node_mask(&self, t: NodeId) -> u128 {
        if let Some(&m) = self.seen.borrow().get(&t) {
            return m;
        }
        let m = self.mask(self.doc.text(t));
        self.seen.borrow_mut().insert(t, m);
        m
    }

    /// Share of the title's words found in the opening text of `i` (its text nodes up to about 600
    /// bytes) or in the nearest heading before it.
    fn share(&self, i: NodeId) -> f64 {
        let doc = self.doc;
        let mut found = 0u128;
        let mut len = 0usize;
        for t in doc.text_nodes(i) {
            found |= self.node_mask(t);
            len += doc.text(t).len() + 1;
            if len > 600 {
                break;
            }
        }
        // The heading just before the candidate: the last heading among the preceding nodes of its parent.
        let parent = doc.node(i).parent;
        if parent != NONE {
            let from = doc.node(parent).end.min(i).saturating_sub(400).max(parent);
            if let Some(h) = (from..i).rev().find(|&k| doc.node(k).tag().is_some_and(Tag::is_heading)) {
                found |= self.mask(&doc.subtree_text(h));
            }
        }
        found.count_ones() as f64 / self.words.len() as f64
    }
}

/// The article region: the core node, grown upward while the parent adds only a little dense text,
/// plus the dense siblings. Returned as a list of subtree roots in document order.
fn region(doc: &Document, density: &[f64], core: NodeId, threshold: f64) -> Vec<NodeId> {
    let body = doc.body;
    let mut cur = core;
    // Grow: a parent whose extra non-link text is small next to the core's and not link-heavy.
    while cur != body {
        let parent = doc.node(cur).parent;
        if parent == NONE || parent == body {
            break;
        }
        let c = doc.node(cur).stats;
        let ps = doc.node(parent).stats;
        let extra = ps.non_link_chars().saturating_sub(c.non_link_chars());
        let extra_links = ps.link_chars.saturating_sub(c.link_chars);
        if extra * 4 <= c.non_link_chars() && extra_links * 2 <= extra.max(1) + c.link_chars / 4 {
            cur = parent;
        } else {
            break;
        }
    }
    let mut out = vec![cur];
    if cur == body {
        return out;
    }
    // Siblings at the region's level that are themselves dense, link-poor text. (Requiring them to be
    // contiguous with the region, or free of comment containers, cost as much recall as it won precision.)
    let parent = doc.node(cur).parent;
    let core_ctd = density[cur as usize];
    let sibs: Vec<NodeId> = doc.children(parent).filter(|&c| !doc.node(c).is_text()).collect();
    let Some(pos) = sibs.iter().position(|&c| c == cur) else { return out };
    let admit = |s: NodeId, before: bool| {
        let st = doc.node(s).stats;
        let link_share = st.link_chars as f64 / st.chars.max(1) as f64;
        let named_noise = doc.node(s).element().and_then(|e| e.id_class.as_deref()).is_some_and(has_noise_name);
        if named_noise || link_share > 0.3 {
            return false;
        }
        let heading = before && doc.node(s).tag().is_some_and(Tag::is_heading);
        heading || (density[s as usize] >= threshold.max(core_ctd * 0.3) && st.punct > 0 && st.chars >= 20)
    };
    for (k, &s) in sibs.iter().enumerate() {
        if k != pos && admit(s, k < pos) {
            out.push(s);
        }
    }
    out.sort_unstable();
    out
}

fn is_comment_name(n: &str) -> bool {
    COMMENT_NAMES.iter().any(|c| n.contains(c))
}

/// Is the element `i` (inside the region) a block to cut out?
fn is_noise(doc: &Document, ctx: &Context<'_>, i: NodeId, region_chars: u32) -> bool {
    let n = doc.node(i);
    let Some(e) = n.element() else { return false };
    let s = n.stats;
    // Never cut the bulk of the region.
    if s.non_link_chars() * 2 > region_chars {
        return false;
    }
    if matches!(e.tag, Tag::Nav | Tag::Aside | Tag::Footer) {
        return true;
    }
    if e.id_class.as_deref().is_some_and(has_noise_name) {
        return true;
    }
    if s.text_nodes >= 2 && s.link_text_nodes >= 2 {
        let ar = anchor_ratio(&ctx.params.anchor_ratio, s.text_nodes, s.link_text_nodes, s.chars, s.link_chars);
        if ar >= ctx.params.anchor_ratio.max_ratio {
            return true;
        }
    }
    false
}

/// Cut noise out of the region and return maximal clean subtrees (and loose text nodes of partly cut
/// elements), in document order.
fn prune(doc: &Document, ctx: &Context<'_>, region: &[NodeId]) -> Vec<NodeId> {
    let region_chars: u32 = region.iter().map(|&r| doc.node(r).stats.non_link_chars()).sum();
    let mut cut = vec![false; doc.len()];
    let mut dirty = vec![false; doc.len()]; // has a cut descendant
    for &r in region {
        let mut i = r + 1;
        let end = doc.node(r).end;
        while i < end {
            let n = doc.node(i);
            let noise = if n.is_text() {
                is_footer(&ctx.params.anchor_ratio, doc.text(i))
            } else {
                is_noise(doc, ctx, i, region_chars)
            };
            if noise {
                cut[i as usize] = true;
                let mut a = n.parent;
                while a != NONE && a >= r && !dirty[a as usize] {
                    dirty[a as usize] = true;
                    if a == r {
                        break;
                    }
                    a = doc.node(a).parent;
                }
                i = n.end;
            } else {
                i += 1;
            }
        }
    }
    let mut out = Vec::new();
    for &r in region {
        let mut stack = vec![r];
        while let Some(n) = stack.pop() {
            if cut[n as usize] {
                continue;
            }
            if !dirty[n as usize] {
                out.push(n);
                continue;
            }
            let kids: Vec<NodeId> = doc.children(n).collect();
            for &k in kids.iter().rev() {
                stack.push(k);
            }
        }
    }
    out.sort_unstable();
    out
}

/// The first paragraph-like block of the region (a sentence mark, 25 characters or more) as text
/// nodes, if it is at most `max_chars` long; nothing otherwise.
fn lead(doc: &Document, roots: &[NodeId], max_chars: u32) -> Vec<NodeId> {
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

/// Per node: the nearest block-level element at or above it (`NONE` above `<body>`), top-down.
fn block_owners(doc: &Document) -> Vec<NodeId> {
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

/// Listing and collection pages repeat a "card": sibling elements with the same tag and class, each
/// holding a heading or a link and a little text. Returns the largest such group's size and the
/// characters in all groups of three or more.
fn card_structure(doc: &Document, headings: &[u32]) -> (u32, u32) {
    let mut best = 0u32;
    let mut chars = 0u32;
    let mut group: Vec<NodeId> = Vec::new();
    for parent in doc.body..doc.node(doc.body).end {
        if doc.node(parent).is_text() || doc.node(parent).stats.tags < 3 {
            continue;
        }
        group.clear();
        group.extend(doc.children(parent).filter(|&c| !doc.node(c).is_text()));
        if group.len() < 3 {
            continue;
        }
        // Sort the children by signature so equal ones sit together (ids keep the order stable).
        let sig = |c: NodeId| {
            let e = doc.node(c).element();
            (e.map(|e| e.tag as u8), e.and_then(|e| e.id_class.as_deref()).map(|s| s.split(' ').next().unwrap_or("")))
        };
        group.sort_by(|&a, &b| sig(a).cmp(&sig(b)).then(a.cmp(&b)));
        let mut k = 0;
        while k < group.len() {
            let mut j = k;
            while j < group.len() && sig(group[j]) == sig(group[k]) {
                j += 1;
            }
            let is_card = |c: NodeId| {
                let s = doc.node(c).stats;
                s.chars >= 20 && (s.link_tags > 0 || headings[c as usize] > 0)
            };
            let n = group[k..j].iter().filter(|&&c| is_card(c)).count() as u32;
            if n >= 3 {
                best = best.max(n);
                chars += group[k..j].iter().map(|&c| doc.node(c).stats.chars).sum::<u32>();
            }
            k = j;
        }
    }
    (best, chars.min(doc.node(doc.body).stats.chars))
}

/// The measures the has-article model weighs. Counts enter as logarithms: the difference between 50
/// and 500 characters of text matters, between 5,000 and 5,500 it does not.
fn signals(doc: &Document, roots: &[NodeId], page_p: f64) -> Vec<(&'static str, f64)> {
    let body = doc.node(doc.body).stats;
    let owners_of = block_owners(doc);
    let heads = heading_counts(doc);
    let mut text = 0u32;
    let mut punct = 0u32;
    // Paragraph-like blocks: text grouped by nearest block ancestor, with a sentence mark and some length.
    let mut owners: Vec<(NodeId, u32, u32)> = Vec::new();
    for &r in roots {
        for t in doc.text_nodes(r) {
            let n = doc.node(t);
            if n.in_link {
                continue;
            }
            text += n.stats.chars;
            punct += n.stats.punct;
            let parent = doc.node(t).parent;
            let owner = if parent == NONE { doc.body } else { owners_of[parent as usize] };
            match owners.last_mut() {
                Some(o) if o.0 == owner => {
                    o.1 += n.stats.chars;
                    o.2 += n.stats.punct;
                }
                _ => owners.push((owner, n.stats.chars, n.stats.punct)),
            }
        }
    }
    let paragraphs = owners.iter().filter(|o| o.1 >= 25 && o.2 >= 1).count();
    let para_chars: u32 = owners.iter().filter(|o| o.1 >= 25 && o.2 >= 1).map(|o| o.1).sum();
    // Listing pages are made of headline links: anchors long enough to be a title.
    let (mut headline_links, mut headline_chars) = (0u32, 0u32);
    let body_range = doc.body..doc.node(doc.body).end;
    for i in body_range {
        if doc.node(i).tag() == Some(Tag::A) && doc.node(i).stats.chars >= 20 {
            headline_links += 1;
            headline_chars += doc.node(i).stats.chars;
        }
    }
    let (mut region_chars, mut region_links, mut headings) = (0u32, 0u32, 0u32);
    for &r in roots {
        region_chars += doc.node(r).stats.chars;
        region_links += doc.node(r).stats.link_chars;
        headings += heads[r as usize];
    }
    let longest = owners.iter().map(|o| o.1).max().unwrap_or(0);
    let (cards, card_chars) = card_structure(doc, &heads);
    let ln = |x: f64| (1.0 + x).ln();
    vec![
        ("cards", ln(cards as f64)),
        ("card_text_share", card_chars as f64 / body.chars.max(1) as f64),
        ("p_value", page_p),
        ("text_chars", ln(text as f64)),
        ("text_share", text as f64 / body.non_link_chars().max(1) as f64),
        ("page_link_density", body.link_chars as f64 / body.chars.max(1) as f64),
        ("punct", ln(punct as f64)),
        ("paragraphs", ln(paragraphs as f64)),
        ("longest_paragraph", ln(longest as f64)),
        ("page_chars", ln(body.chars as f64)),
        ("headline_links", ln(headline_links as f64)),
        ("headline_link_share", headline_chars as f64 / body.chars.max(1) as f64),
        ("region_link_density", region_links as f64 / region_chars.max(1) as f64),
        ("headings", ln(headings as f64)),
        ("mean_paragraph", ln(para_chars as f64 / paragraphs.max(1) as f64)),
    ]
}
