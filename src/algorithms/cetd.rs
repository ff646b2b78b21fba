//! Content Extraction via Text Density, after Sun, Song & Liao, "DOM based content extraction via text
//! density" and its journal extension with visual importance.
//!
//! Three selectable variants share this module:
//! - `cetd-ds`: Text Density TD = C/T (Def. 3.1) with DensitySum (Def. 3.5), threshold and
//!   ExtractContent (Alg. 2).
//! - `cectd-ds`: Composite Text Density (Def. 3.2), which punishes link text, with DensitySum.
//! - `cectd-s`: Composite Text Density smoothed over siblings, each node labelled by the threshold
//!   alone: the comparison variant the paper uses to show what DensitySum adds.

use crate::algorithms::contract::{
    Content, Context, Outcome, coverage_probability, elements, ratio, score_elements, topmost,
};
use crate::dom::{Document, NONE, NodeId, Stats};

/// Which density a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Density {
    Text,
    Composite,
}

/// Text Density (Def. 3.1): characters per tag under the node, T = 0 counted as 1.
pub fn text_density(s: &Stats) -> f64 {
    ratio(s.chars as f64, s.tags as f64)
}

/// Composite Text Density (Def. 3.2):
/// CTD = (C/T) · log_b((C/LC)·(T/LT)), b = ln((C/¬LC)·LC + (LC_b/C_b)·C + e), zero denominators as 1.
///
/// When the page has no link text at all the base is exactly e's logarithm, 1, and the logarithm is
/// undefined (the paper: "all tags ... will get an infinite density"). We keep the ordering the formula
/// implies by dividing by a tiny positive number instead, so densities stay finite and comparable.
pub fn composite_density(s: &Stats, body: &Stats) -> f64 {
    let c = s.chars as f64;
    if c == 0.0 {
        return 0.0;
    }
    // Sun, Song & Liao: a tag count of 0 is counted as 1, wherever T appears.
    let t = s.tags.max(1) as f64;
    let lc = s.link_chars as f64;
    let lt = s.link_tags as f64;
    let nlc = s.non_link_chars() as f64;
    let lcb = body.link_chars as f64;
    let cb = body.chars as f64;
    let arg = ratio(c, lc) * ratio(t, lt);
    let base = (ratio(c, nlc) * lc + ratio(lcb, cb) * c + std::f64::consts::E).ln();
    let ln_base = base.ln().max(1e-9);
    if arg <= 0.0 {
        return 0.0;
    }
    ratio(c, t) * (arg.ln() / ln_base)
}

/// Per-element densities of the page (0 for text nodes and nodes outside `<body>`).
pub fn densities(doc: &Document, kind: Density) -> Vec<f64> {
    let body = doc.node(doc.body).stats;
    let mut d = vec![0.0; doc.len()];
    for i in elements(doc) {
        let s = &doc.node(i).stats;
        d[i as usize] = match kind {
            Density::Text => text_density(s),
            Density::Composite => composite_density(s, &body),
        };
    }
    d
}

/// DensitySum (Def. 3.5): the sum of the element children's densities.
pub fn density_sums(doc: &Document, density: &[f64]) -> Vec<f64> {
    let mut ds = vec![0.0; doc.len()];
    for i in elements(doc) {
        if i == doc.body {
            continue;
        }
        let p = doc.node(i).parent;
        if p != NONE {
            ds[p as usize] += density[i as usize];
        }
    }
    ds
}

/// For every node, the node of largest `value` in its subtree (itself included; earliest wins ties).
fn subtree_argmax(doc: &Document, value: &[f64]) -> Vec<NodeId> {
    let mut best: Vec<NodeId> = (0..doc.len() as NodeId).collect();
    let body = doc.body;
    for i in (body + 1..doc.node(body).end).rev() {
        let p = doc.node(i).parent;
        if p == NONE || doc.node(i).is_text() {
            continue;
        }
        let cand = best[i as usize];
        let cur = best[p as usize];
        // Reverse order visits later siblings first, so replacing on equal values lets the earliest
        // sibling win ties, and a descendant win a tie with the node itself.
        if value[cand as usize] >= value[cur as usize] {
            best[p as usize] = cand;
        }
    }
    best
}

/// Sun, Song & Liao's threshold: the smallest value on the path from `from` up to `<body>`, both included.
fn path_min(doc: &Document, value: &[f64], from: NodeId) -> f64 {
    let mut min = value[from as usize];
    for a in std::iter::once(from).chain(doc.ancestors(from)) {
        min = min.min(value[a as usize]);
        if a == doc.body {
            break;
        }
    }
    min
}

/// The DensitySum selection's measures: the method's public result, which `auto` reads.
pub struct DensitySumRun {
    pub density: Vec<f64>,
    pub density_sum: Vec<f64>,
    pub threshold: f64,
    /// The node with the largest DensitySum under `<body>`.
    pub max_node: NodeId,
    /// Marked content roots, topmost only, in document order.
    pub marked: Vec<NodeId>,
}

/// Alg. 2: threshold = the minimum density on the path from the max-DensitySum node up to `<body>`;
/// then from `<body>` down, every node whose density reaches the threshold marks the max-DensitySum
/// node of its subtree as content, and its children are visited in turn.
pub fn density_sum_select(doc: &Document, kind: Density) -> DensitySumRun {
    density_sum_select_from(doc, densities(doc, kind))
}

/// [`density_sum_select`] over densities computed elsewhere (the hybrid density of `cehtd-ds`).
pub fn density_sum_select_from(doc: &Document, density: Vec<f64>) -> DensitySumRun {
    let density_sum = density_sums(doc, &density);
    let best = subtree_argmax(doc, &density_sum);
    let body = doc.body;
    // The max node "under <body>": among body's descendants; body itself only if it has no element child.
    let mut max_node = body;
    let mut max_val = f64::NEG_INFINITY;
    for c in doc.children(body) {
        if doc.node(c).is_text() {
            continue;
        }
        let b = best[c as usize];
        if density_sum[b as usize] > max_val {
            max_val = density_sum[b as usize];
            max_node = b;
        }
    }
    let threshold = path_min(doc, &density, max_node);
    let mut marked = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if density[n as usize] >= threshold {
            marked.push(best[n as usize]);
            for c in doc.children(n) {
                if !doc.node(c).is_text() {
                    stack.push(c);
                }
            }
        }
    }
    let marked = topmost(doc, marked);
    DensitySumRun { density, density_sum, threshold, max_node, marked }
}

/// `cetd-ds` and `cectd-ds`.
pub fn run_density_sum(ctx: &Context<'_>, kind: Density) -> Outcome {
    let doc = ctx.doc;
    let run = density_sum_select(doc, kind);
    let dname = if kind == Density::Text { "td" } else { "ctd" };
    let blocks = score_elements(doc, &run.marked, |i| {
        (
            vec![(dname, run.density[i as usize]), ("density_sum", run.density_sum[i as usize])],
            run.density_sum[i as usize],
        )
    });
    Outcome::new(Content::Nodes(run.marked), coverage_probability(doc, &blocks), blocks)
}

/// `cectd-s`: smooth CTD over siblings, threshold from the max smoothed node's path, and keep the direct
/// text of every node whose smoothed density reaches it along an unbroken path from `<body>`.
pub fn run_smoothed(ctx: &Context<'_>) -> Outcome {
    let doc = ctx.doc;
    let w = ctx.params.cetd.smoothing_self_weight;
    let density = densities(doc, Density::Composite);
    let mut smooth = vec![0.0; doc.len()];
    for p in elements(doc) {
        let kids: Vec<NodeId> = doc.children(p).filter(|&c| !doc.node(c).is_text()).collect();
        for (k, &c) in kids.iter().enumerate() {
            let mut sum = w * density[c as usize];
            let mut weight = w;
            if k > 0 {
                sum += density[kids[k - 1] as usize];
                weight += 1.0;
            }
            if k + 1 < kids.len() {
                sum += density[kids[k + 1] as usize];
                weight += 1.0;
            }
            smooth[c as usize] = sum / weight;
        }
    }
    let body = doc.body;
    smooth[body as usize] = density[body as usize];
    let max_node =
        elements(doc).filter(|&i| i != body).max_by(|&a, &b| smooth[a as usize].total_cmp(&smooth[b as usize]));
    let threshold = max_node.map_or(smooth[body as usize], |m| path_min(doc, &smooth, m));
    // Label nodes top-down; a node counts only if its whole path from body passes.
    let mut passes = vec![false; doc.len()];
    let mut keep = Vec::new();
    for i in elements(doc) {
        let parent_ok = i == body || passes[doc.node(i).parent as usize];
        let ok = parent_ok && smooth[i as usize] >= threshold;
        passes[i as usize] = ok;
        if ok && i != body && doc.children(i).any(|c| doc.node(c).is_text()) {
            keep.push(i);
        }
    }
    let marked = topmost(doc, keep);
    let blocks = score_elements(doc, &marked, |i| {
        (vec![("ctd", density[i as usize]), ("ctd_smoothed", smooth[i as usize])], smooth[i as usize])
    });
    Outcome::new(Content::Nodes(marked), coverage_probability(doc, &blocks), blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sun, Song & Liao, Example 3.1: the Financial Times fragment.
    const FT: &str = r#"<html><body><div class="main">
  <div class="article">
    <div class="story-header">
      Lunch with the FT: Biz Stone</div>
    <div class="story-body">
      Though the value of the company was
      <a>recently estimated at $3.7bn</a>
    </div></div></div></body></html>"#;

    fn by_class(doc: &Document, class: &str) -> NodeId {
        (0..doc.len() as NodeId)
            .find(|&i| doc.node(i).element().and_then(|e| e.id_class.as_deref()) == Some(class))
            .expect("class present")
    }

    #[test]
    fn worked_example_3_2() {
        let doc = Document::parse(FT);
        let a = (0..doc.len() as NodeId).find(|&i| doc.node(i).tag() == Some(crate::dom::Tag::A)).unwrap();
        let expect = [
            (by_class(&doc, "main"), 91, 4, 22.75),
            (by_class(&doc, "article"), 91, 3, 30.33),
            (by_class(&doc, "story-header"), 28, 0, 28.0),
            (by_class(&doc, "story-body"), 63, 1, 63.0),
            (a, 28, 0, 28.0),
        ];
        for (id, chars, tags, td) in expect {
            let s = doc.node(id).stats;
            assert_eq!(s.chars, chars, "chars of {}", doc.xpath(id));
            assert_eq!(s.tags, tags, "tags of {}", doc.xpath(id));
            assert!((text_density(&s) - td).abs() < 0.005, "density of {}", doc.xpath(id));
        }
    }

    #[test]
    fn density_sum_picks_the_story() {
        let page = format!(
            "<html><body><div class=nav><a>Home</a> <a>World</a> <a>Business</a> <a>Sport</a></div>{}\
             <div class=foot><a>Terms</a> <a>Privacy</a></div></body></html>",
            "<div class=story><p>First paragraph of the story, long enough to carry real weight in the page.</p>\
             <p>Second paragraph, also long, with commas, and full stops. It keeps going for a while.</p>\
             <p>Third paragraph closes the piece with yet more prose than any menu would have.</p></div>"
        );
        let doc = Document::parse(&page);
        for kind in [Density::Text, Density::Composite] {
            let run = density_sum_select(&doc, kind);
            let story = by_class(&doc, "story");
            assert_eq!(run.max_node, story, "{kind:?}");
            assert!(run.marked.contains(&story), "{kind:?}: {:?}", run.marked);
            let nav = by_class(&doc, "nav");
            if kind == Density::Composite {
                assert!(!run.marked.iter().any(|&m| doc.contains(m, nav) || doc.contains(nav, m)));
            }
        }
    }

    #[test]
    fn ctd_is_zero_for_pure_links_and_finite_without_links() {
        let doc = Document::parse("<body><div><a>only links here</a></div><p>text</p></body>");
        let body = doc.node(doc.body).stats;
        let div = doc.children(doc.body).next().unwrap();
        assert_eq!(composite_density(&doc.node(div).stats, &body), 0.0);
        let nolinks = Document::parse("<body><p>just text, no links</p></body>");
        let b = nolinks.node(nolinks.body).stats;
        assert!(composite_density(&b, &b).is_finite());
    }
}
