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

use crate::algorithms::anchor_ratio::{anchor_ratio, is_footer};
use crate::algorithms::cetd::{Density, density_sum_select, score_blocks};
use crate::algorithms::pvalue::p_values;
use crate::algorithms::{Content, Context, Outcome};
use crate::dom::{Document, NONE, NodeId, Tag};

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
    let kept: u32 = roots.iter().map(|&r| doc.node(r).stats.non_link_chars()).sum();
    let probability = has_article(doc, p[best_p as usize], kept);
    Outcome { content: Content::Nodes(roots), probability, blocks }
}

/// Among the nodes the CETD ExtractContent marks, the one holding the most sentence text. The
/// max-DensitySum node alone can be a list of short link-free items: CTD's logarithm base shrinks for
/// short texts, so eleven one-word `<li>`s can out-sum a 13,000-character paragraph.
fn core_node(doc: &Document, marked: &[NodeId], max_node: NodeId) -> NodeId {
    let weight = |i: NodeId| {
        let s = doc.node(i).stats;
        s.non_link_chars() as f64 + 10.0 * s.punct.min(s.non_link_chars()) as f64
    };
    marked.iter().copied().chain([max_node]).max_by(|&a, &b| weight(a).total_cmp(&weight(b))).unwrap_or(max_node)
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
    // Siblings at the region's level that are themselves dense, link-poor text.
    let parent = doc.node(cur).parent;
    let core_ctd = density[cur as usize];
    for s in doc.children(parent) {
        if s == cur || doc.node(s).is_text() {
            continue;
        }
        let st = doc.node(s).stats;
        let link_share = st.link_chars as f64 / st.chars.max(1) as f64;
        let tag = doc.node(s).tag();
        let named_noise = doc.node(s).element().and_then(|e| e.id_class.as_deref()).is_some_and(has_noise_name);
        let heading = tag.is_some_and(Tag::is_heading) && s < cur;
        if named_noise || link_share > 0.3 {
            continue;
        }
        if heading || (density[s as usize] >= threshold.max(core_ctd * 0.3) && st.punct > 0 && st.chars >= 20) {
            out.push(s);
        }
    }
    out.sort_unstable();
    out
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

/// Has-article probability from the page's P value and the amount of clean text found.
fn has_article(doc: &Document, page_p: f64, kept_chars: u32) -> f64 {
    let _ = doc;
    let size = 1.0 - (-(kept_chars as f64) / 400.0).exp();
    (0.5 * page_p + 0.5 * size).clamp(0.0, 1.0)
}
