//! The heuristic article region: the CECTD DensitySum core, grown upward and across to dense
//! siblings, then pruned of link blocks and containers named for noise. Its verdict is one of the
//! measures the block classifier weighs (`in_region`, `region_keep`).

use super::lexicon::{COMMENT_CONTAINERS, NOISE_CONTAINERS};
use crate::algorithms::anchor_ratio::AnchorRatios;
use crate::dom::{Document, NONE, NodeId, Tag};
use crate::hash::IdMap;
use crate::text::words::WordSet;

fn has_noise_name(id_class: &str) -> bool {
    NOISE_CONTAINERS.matches(id_class)
}

/// Among the nodes the CETD ExtractContent marks, the one holding the most sentence text. The
/// max-DensitySum node alone can be a list of short link-free items: CTD's logarithm base shrinks for
/// short texts, so eleven one-word `<li>`s can out-sum a 13,000-character paragraph. Two corrections
/// keep the choice on the article: a comment thread often holds more text than the article it follows,
/// so candidates inside a container named for comments count a tenth; and a page that carries several
/// stories names the main one in its `<title>`, so words shared with the title (in the candidate's
/// opening text or the heading just before it) raise its weight up to threefold.
pub(super) fn core_node(doc: &Document, marked: &[NodeId], max_node: NodeId, title: &WordSet) -> NodeId {
    let title = TitleWords::new(doc, title);
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

/// Lower-cased words of a title (CJK characters one by one), three letters or more for Latin words;
/// sorted, deduplicated, and at most [`TitleWords::MAX`] of them.
pub(super) fn title_words(title: &str) -> Vec<String> {
    let mut w: Vec<String> = crate::text::words::words(title)
        .into_iter()
        .filter(|w| w.chars().count() >= 3 || w.chars().all(crate::text::words::is_cjk))
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
    set: &'a WordSet,
    seen: std::cell::RefCell<IdMap<NodeId, u128>>,
}

impl<'a> TitleWords<'a> {
    const MAX: usize = 128;

    fn new(doc: &'a Document, set: &'a WordSet) -> Self {
        TitleWords { doc, set, seen: Default::default() }
    }

    fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    fn mask(&self, text: &str) -> u128 {
        let mut m = 0u128;
        crate::text::words::for_each_word(text, |w| {
            // Title words have three letters or more, or are one CJK character (three bytes in UTF-8).
            if w.len() >= 3
                && let Some(k) = self.set.index(w)
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
        found.count_ones() as f64 / self.set.len() as f64
    }
}

/// The article region: the core node, grown upward while the parent adds only a little dense text,
/// plus the dense siblings. Returned as a list of subtree roots in document order.
pub(super) fn region(doc: &Document, density: &[f64], core: NodeId, threshold: f64) -> Vec<NodeId> {
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
        if link_share > 0.3 || doc.node(s).element().and_then(|e| e.id_class.as_deref()).is_some_and(has_noise_name) {
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
    COMMENT_CONTAINERS.matches(n)
}

/// Is the element `i` (inside the region) a block to cut out?
fn is_noise(doc: &Document, ars: &AnchorRatios<'_>, i: NodeId, region_chars: u32) -> bool {
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
    s.text_nodes >= 2 && s.link_text_nodes >= 2 && ars.is_link_block(i)
}

/// Cut noise out of the region and return maximal clean subtrees (and loose text nodes of partly cut
/// elements), in document order.
pub(super) fn prune(doc: &Document, ars: &AnchorRatios<'_>, region: &[NodeId]) -> Vec<NodeId> {
    let region_chars: u32 = region.iter().map(|&r| doc.node(r).stats.non_link_chars()).sum();
    let mut cut = vec![false; doc.len()];
    let mut dirty = vec![false; doc.len()]; // has a cut descendant
    for &r in region {
        let mut i = r + 1;
        let end = doc.node(r).end;
        while i < end {
            let n = doc.node(i);
            let noise = if n.is_text() { ars.is_footer(doc.text(i)) } else { is_noise(doc, ars, i, region_chars) };
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
