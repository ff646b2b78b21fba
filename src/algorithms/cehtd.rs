//! `cehtd-ds`: Content Extraction via Hybrid Text Density with DensitySum, after Sun, Song & Liao, "A
//! hybrid approach for content extraction with text density and visual importance of DOM nodes"
//! (§3.4, Def. 3.3–3.4; evaluated in its Table 4).
//!
//! The method needs the page's layout ([`crate::dom::layout::Layout`]):
//!
//! 1. **Node_L** is the element under `<body>` with the longest horizontal span; its edges x_L1 < x_L2
//!    are mapped to −1 and +1 of a standard normal distribution, i.e. the page's visual-importance
//!    density is N(μ, σ²) with μ = (x_L1 + x_L2)/2 and σ = (x_L2 − x_L1)/2.
//! 2. **Visual Importance** of a leaf (an innermost tag holding only text) spanning x_1..x_2 is the
//!    probability mass of that distribution over its span: VI = Φ((x_2 − μ)/σ) − Φ((x_1 − μ)/σ). A hidden
//!    leaf occupies no space and gets 0.
//! 3. **Hybrid CharNumber**: HC = VI · C for a leaf; for every other node the sum of its children's HC.
//! 4. **Hybrid Text Density** (Def. 3.4) is Composite Text Density with every CharNumber (C_i and the
//!    body's C_b) replaced by HC; link characters and tag counts stay as they are. Where T_i is 0 the
//!    paper sets it to HC_i/C_i instead of 1.
//! 5. DensitySum, its threshold and ExtractContent exactly as `cectd-ds`
//!    ([`super::cetd::density_sum_select_from`]).
//!
//! Where pith departs, and why:
//! * pith's arena keeps text as separate nodes, so text sitting directly inside an element that also
//!   has element children (`<p>text <b>bold</b> more</p>`) is weighted by that element's VI: the
//!   innermost tag around it, which is what "leaf" means for the text a leaf tag holds.
//! * "Under the root node" is read as under `<body>`, where the paper's study begins; `<body>` and
//!   `<html>` themselves span the whole canvas and would make every page's Node_L the viewport.
//! * The formula is implemented as written, negative values included: with T_i = HC_i/C_i the log's
//!   argument (HC/LC)·(T/LT) falls below 1 for short or link-only leaves, so their density is negative
//!   (the worked example in the tests shows one). The paper's stated aim for the adaptation, keeping
//!   HTD non-negative, is not what its formula does; we report the values the definition gives.

use super::cetd::density_sum_select_from;
use crate::algorithms::contract::{Content, Context, Outcome, coverage_probability, elements, ratio, score_elements};
use crate::dom::layout::Layout;
use crate::dom::{Document, NodeData, NodeId, Stats};

/// The visual-importance distribution of one page (step 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distribution {
    /// Node_L: the widest element under `<body>` (`None` when nothing under it was laid out, and the
    /// body's or the viewport's span stands in).
    pub node_l: Option<NodeId>,
    pub mu: f64,
    pub sigma: f64,
}

impl Distribution {
    /// Build it from the layout.
    pub fn of(doc: &Document, layout: &Layout) -> Distribution {
        let body = doc.body;
        let mut best: Option<(NodeId, f32, f32)> = None;
        for i in (body + 1)..doc.node(body).end {
            if let Some(b) = layout.get(i)
                && b.visible
                && best.is_none_or(|(_, _, w)| b.rect.w > w)
            {
                best = Some((i, b.rect.x, b.rect.w));
            }
        }
        let (node_l, x1, w) = match best {
            Some((i, x, w)) if w > 0.0 => (Some(i), x, w),
            _ => match layout.get(body) {
                Some(b) if b.rect.w > 0.0 => (None, b.rect.x, b.rect.w),
                _ => (None, 0.0, layout.viewport.0.max(1.0)),
            },
        };
        let (x1, x2) = (f64::from(x1), f64::from(x1 + w));
        Distribution { node_l, mu: (x1 + x2) / 2.0, sigma: (x2 - x1) / 2.0 }
    }

    /// Def. 3.3: the probability mass over `x1..x2`.
    pub fn importance(&self, x1: f64, x2: f64) -> f64 {
        if x2 <= x1 || self.sigma <= 0.0 {
            return 0.0;
        }
        (phi((x2 - self.mu) / self.sigma) - phi((x1 - self.mu) / self.sigma)).clamp(0.0, 1.0)
    }
}

/// Standard normal distribution function.
pub fn phi(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// Complementary error function, Chebyshev fit with fractional error below 1.2·10⁻⁷ everywhere
/// (Press et al., Numerical Recipes, `erfcc`).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Step 2–3: every element's VI (leaves: Def. 3.3; others: HC/C, the character-weighted mean of what
/// they hold) and every node's Hybrid CharNumber.
pub struct Hybrid {
    pub distribution: Distribution,
    pub vi: Vec<f64>,
    pub hc: Vec<f64>,
}

pub fn hybrid_chars(doc: &Document, layout: &Layout) -> Hybrid {
    let distribution = Distribution::of(doc, layout);
    let n = doc.len();
    // VI of every element's own span (hidden or not laid out: 0).
    let mut own = vec![0.0; n];
    for i in elements(doc) {
        if let Some(b) = layout.get(i)
            && b.visible
        {
            own[i as usize] = distribution.importance(f64::from(b.rect.x), f64::from(b.rect.right()));
        }
    }
    let mut hc = vec![0.0; n];
    for (i, node) in doc.nodes.iter().enumerate() {
        if let NodeData::Text { .. } = node.data
            && node.parent != crate::dom::NONE
        {
            hc[i] = own[node.parent as usize] * f64::from(node.stats.chars);
        }
    }
    // Children have larger ids: one reverse pass sums every subtree.
    for i in (1..n).rev() {
        let p = doc.nodes[i].parent;
        if p != crate::dom::NONE {
            hc[p as usize] += hc[i];
        }
    }
    let vi = (0..n)
        .map(|i| {
            let s = &doc.nodes[i].stats;
            if doc.nodes[i].is_text() {
                0.0
            } else if s.tags == 0 {
                own[i]
            } else {
                ratio(hc[i], f64::from(s.chars))
            }
        })
        .collect();
    Hybrid { distribution, vi, hc }
}

/// Def. 3.4: Composite Text Density with C → HC (node and body), T_i = 0 → HC_i/C_i.
pub fn hybrid_density(s: &Stats, hc: f64, body: &Stats, hc_body: f64) -> f64 {
    let c = f64::from(s.chars);
    if c == 0.0 || hc <= 0.0 {
        return 0.0;
    }
    let t = if s.tags == 0 { hc / c } else { f64::from(s.tags) };
    let lc = f64::from(s.link_chars);
    let lt = f64::from(s.link_tags);
    let nlc = f64::from(s.non_link_chars());
    let arg = ratio(hc, lc) * ratio(t, lt);
    let base = (ratio(hc, nlc) * lc + ratio(f64::from(body.link_chars), hc_body) * hc + std::f64::consts::E).ln();
    let ln_base = base.ln().max(1e-9);
    if arg <= 0.0 {
        return 0.0;
    }
    ratio(hc, t) * (arg.ln() / ln_base)
}

/// Every element's HTD (0 for text nodes and nodes outside `<body>`).
pub fn hybrid_densities(doc: &Document, h: &Hybrid) -> Vec<f64> {
    let body = doc.node(doc.body).stats;
    let hc_body = h.hc[doc.body as usize];
    let mut d = vec![0.0; doc.len()];
    for i in elements(doc) {
        d[i as usize] = hybrid_density(&doc.node(i).stats, h.hc[i as usize], &body, hc_body);
    }
    d
}

/// `cehtd-ds`. Without a layout (the engine never calls it so) nothing is extracted.
pub fn run(ctx: &Context<'_>) -> Outcome {
    let doc = ctx.doc;
    let Some(layout) = ctx.layout else { return Outcome::empty() };
    let h = hybrid_chars(doc, layout);
    let run = density_sum_select_from(doc, hybrid_densities(doc, &h));
    let blocks = score_elements(doc, &run.marked, |i| {
        let k = i as usize;
        (
            vec![("htd", run.density[k]), ("vi", h.vi[k]), ("hc", h.hc[k]), ("density_sum", run.density_sum[k])],
            run.density_sum[k],
        )
    });
    let d = h.distribution;
    Outcome::new(Content::Nodes(run.marked), coverage_probability(doc, &blocks), blocks)
        .with_signals(vec![("vi_mu", d.mu), ("vi_sigma", d.sigma)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::layout::{ElementBox, Rect};

    /// Sun, Song & Liao's Example 3.1 (the Financial Times fragment), as its worked example 3.2 counts it.
    const FT: &str = r#"<html><body><div class="main"><div class="article"><div class="story-header">Lunch with the FT: Biz Stone</div><div class="story-body">Though the value of the company was <a>recently estimated at $3.7bn</a></div></div></div></body></html>"#;

    fn by_class(doc: &Document, class: &str) -> NodeId {
        (0..doc.len() as NodeId)
            .find(|&i| doc.node(i).element().and_then(|e| e.id_class.as_deref()) == Some(class))
            .unwrap()
    }

    fn boxed(x: f32, w: f32) -> Option<ElementBox> {
        Some(ElementBox { rect: Rect::new(x, 0.0, w, 20.0), visible: true, ..ElementBox::default() })
    }

    #[test]
    fn normal_distribution_function() {
        assert!((phi(0.0) - 0.5).abs() < 1e-7);
        assert!((phi(1.0) - 0.841_344_746).abs() < 1e-7);
        assert!((phi(-1.96) - 0.024_997_895).abs() < 1e-7);
        let d = Distribution { node_l: None, mu: 400.0, sigma: 400.0 };
        // Node_L's own span maps to −1..+1: 68.27% of the mass.
        assert!((d.importance(0.0, 800.0) - 0.682_689_49).abs() < 1e-7);
        assert_eq!(d.importance(500.0, 500.0), 0.0);
    }

    /// A hand-computed example. The page is 1000 px wide; `main` and `article` span x = 0..800 (Node_L
    /// is `main`, the first of the widest: μ = 400, σ = 400); the header spans 200..600, the story body
    /// 400..800 and its link 600..800.
    ///
    /// VI(header) = Φ(0.5) − Φ(−0.5) = 0.382925, VI(story-body) = Φ(1) − Φ(0) = 0.341345,
    /// VI(a) = Φ(1) − Φ(0.5) = 0.149882.
    /// HC(header) = 28 · 0.382925 = 10.72190; HC(a) = 28 · 0.149882 = 4.19670; the story body's own
    /// 35 characters weigh 35 · 0.341345 = 11.94707, so HC(story-body) = 16.14377 and
    /// HC(article) = HC(main) = HC(body) = 26.86567. LC_b = 28.
    ///
    /// HTD(header): T = 0 → T = HC/C = 0.382925; HC/T = 28; argument HC·T = 4.10570;
    ///   base = ln((28/26.86567)·10.72190 + e) = ln(13.89272) = 2.63136; HTD = 28·ln 4.10570/ln 2.63136
    ///   = 40.8745.
    /// HTD(a): T = 0.149882, LC = 28, LT = 1, ¬LC = 0 (counted 1): argument (4.19670/28)·0.149882 =
    ///   0.022465 < 1; base = ln(4.19670·28 + (28/26.86567)·4.19670 + e) = ln(124.60); HTD = 28 · ln
    ///   0.022465 / ln ln 124.60 = −67.5311 (negative: see the module doc).
    /// HTD(story-body): T = 1, LT = 1: argument 16.14377/28 = 0.576563; HTD = −7.12889.
    /// HTD(article): T = 3: 7.15852. HTD(main): T = 4: 6.82977.
    #[test]
    fn hand_computed_example() {
        let doc = Document::parse(FT);
        let mut boxes = vec![None; doc.len()];
        let main = by_class(&doc, "main");
        let article = by_class(&doc, "article");
        let header = by_class(&doc, "story-header");
        let story = by_class(&doc, "story-body");
        let a = (0..doc.len() as NodeId).find(|&i| doc.node(i).tag() == Some(crate::dom::Tag::A)).unwrap();
        boxes[doc.body as usize] = boxed(0.0, 1000.0);
        boxes[main as usize] = boxed(0.0, 800.0);
        boxes[article as usize] = boxed(0.0, 800.0);
        boxes[header as usize] = boxed(200.0, 400.0);
        boxes[story as usize] = boxed(400.0, 400.0);
        boxes[a as usize] = boxed(600.0, 200.0);
        let layout = Layout {
            boxes,
            viewport: (1000.0, 800.0),
            fingerprint: crate::dom::layout::fingerprint(&doc),
            ..Layout::default()
        };
        let h = hybrid_chars(&doc, &layout);
        assert_eq!(h.distribution.node_l, Some(main));
        assert_eq!((h.distribution.mu, h.distribution.sigma), (400.0, 400.0));
        let close = |got: f64, want: f64, what: &str| {
            assert!((got - want).abs() <= 1e-4 * want.abs().max(1.0), "{what}: got {got}, want {want}");
        };
        close(h.vi[header as usize], 0.382925, "VI header");
        close(h.vi[a as usize], 0.149882, "VI a");
        close(h.hc[header as usize], 10.72190, "HC header");
        close(h.hc[a as usize], 4.19670, "HC a");
        close(h.hc[story as usize], 16.14377, "HC story-body");
        close(h.hc[article as usize], 26.86567, "HC article");
        close(h.hc[doc.body as usize], 26.86567, "HC body");
        let htd = hybrid_densities(&doc, &h);
        close(htd[header as usize], 40.8745, "HTD header");
        close(htd[a as usize], -67.5311, "HTD a");
        close(htd[story as usize], -7.12889, "HTD story-body");
        close(htd[article as usize], 7.15852, "HTD article");
        close(htd[main as usize], 6.82977, "HTD main");
    }

    #[test]
    fn hidden_leaves_weigh_nothing_and_central_text_wins() {
        let page = "<html><body><div class=side><p>Side links and teasers with some words in them here.</p></div>\
                    <div class=story><p>The central story of the page, with long sentences, commas, and several \
                    clauses that carry the meaning of the article to its readers.</p><p>A second paragraph that \
                    continues the story at the same width in the middle column.</p></div>\
                    <div class=gone><p>Hidden text that a reader never sees on the page at all.</p></div></body></html>";
        let doc = Document::parse(page);
        let side = by_class(&doc, "side");
        let story = by_class(&doc, "story");
        let gone = by_class(&doc, "gone");
        let mut boxes = vec![None; doc.len()];
        boxes[doc.body as usize] = boxed(0.0, 1200.0);
        boxes[side as usize] = boxed(0.0, 200.0);
        boxes[side as usize + 1] = boxed(0.0, 200.0);
        boxes[story as usize] = boxed(250.0, 700.0);
        for c in doc.children(story) {
            boxes[c as usize] = boxed(250.0, 700.0);
        }
        // The hidden block: laid out but `visibility: hidden`.
        boxes[gone as usize] = Some(ElementBox { visible: false, ..boxed(300.0, 600.0).unwrap() });
        boxes[gone as usize + 1] = Some(ElementBox { visible: false, ..boxed(300.0, 600.0).unwrap() });
        let layout = Layout {
            boxes,
            viewport: (1200.0, 800.0),
            fingerprint: crate::dom::layout::fingerprint(&doc),
            ..Layout::default()
        };
        let h = hybrid_chars(&doc, &layout);
        assert_eq!(h.hc[gone as usize], 0.0);
        let run = density_sum_select_from(&doc, hybrid_densities(&doc, &h));
        assert!(run.marked.contains(&story), "{:?}", run.marked);
        assert!(!run.marked.iter().any(|&m| doc.contains(m, side) || doc.contains(side, m)));
    }
}
