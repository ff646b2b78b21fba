//! The P value algorithm of Lv, Cao, Wang, Yin & Zheng, "An algorithm to extract and judge the main text
//! based on the law of total probability".
//!
//! For every tag, P = (l_t / l_s) · (l_vt / L_VT): the share of the tag's source that is text, times the
//! share of the page's valid (non-link) text that the tag holds. The tag of largest P is the main text,
//! and that largest P is the probability that the page has an article (>= 0.5: it has one).
//!
//! Step 1 of the paper (removing comments, scripts, forms, `<head>`, and id/class/style attributes) is
//! done by pre-strip and by the DOM stage, which counts markup without those three attributes.
//! Departure: `<form>` is kept (pre-strip removes only its controls), because many sites wrap their
//! whole page in one form and removing it would remove the article.

use crate::algorithms::contract::{Content, Context, Outcome, elements, score_elements};
use crate::dom::{Document, NodeId, Stats};

/// Eq. 1 for one tag: l_t = raw text length, l_s = text plus markup, l_vt = text outside links.
pub fn p_value(s: &Stats, page_valid_text: u32) -> f64 {
    let lt = s.raw_chars as f64;
    let ls = s.source_len() as f64;
    let lvt = s.raw_chars.saturating_sub(s.raw_link_chars) as f64;
    if ls == 0.0 || page_valid_text == 0 {
        return 0.0;
    }
    (lt / ls) * (lvt / page_valid_text as f64)
}

/// The method's measures, its public result (which `auto` reads): P for every element under `<body>`
/// (0 elsewhere) and the max-P node.
#[derive(Debug, Clone)]
pub struct PValues {
    pub p: Vec<f64>,
    pub best: NodeId,
}

impl PValues {
    /// The page's P: the largest, the method's has-article probability.
    pub fn page(&self) -> f64 {
        self.p[self.best as usize]
    }
}

/// P for every element under `<body>` (0 elsewhere), and the max-P node.
pub fn measure(doc: &Document) -> PValues {
    let body = doc.node(doc.body).stats;
    let total = body.raw_chars.saturating_sub(body.raw_link_chars);
    let mut p = vec![0.0; doc.len()];
    let mut best = doc.body;
    for i in elements(doc) {
        let v = p_value(&doc.node(i).stats, total);
        p[i as usize] = v;
        if v > p[best as usize] {
            best = i;
        }
    }
    PValues { p, best }
}

/// `p-value`.
pub fn run(ctx: &Context<'_>) -> Outcome {
    let doc = ctx.doc;
    let PValues { p, best } = measure(doc);
    let probability = p[best as usize];
    let content = if doc.node(best).stats.chars > 0 { vec![best] } else { Vec::new() };
    let blocks = score_elements(doc, &content, |i| (vec![("p", p[i as usize])], p[i as usize]));
    Outcome::new(Content::Nodes(content), probability, blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_p() {
        // <div><p>abcdefghij</p><a href="x">klmno</a></div>, attributes other than id/class/style kept.
        // p: l_t = 10, l_s = 10 + "<p>" 3 + "</p>" 4 = 17, l_vt = 10.
        // a: l_t = 5, l_s = 5 + `<a href="x">` 12 + "</a>" 4 = 21, l_vt = 0.
        // div: l_t = 15, l_s = 15 + "<div>" 5 + "</div>" 6 + 7 + 16 = 49, l_vt = 10.
        // L_VT = 10. P(p) = 10/17 · 10/10; P(div) = 15/49 · 10/10; P(a) = 0.
        let doc = Document::parse(
            r#"<body><div class="c" id=i style="x"><p>abcdefghij</p><a href="x">klmno</a></div></body>"#,
        );
        let PValues { p, best } = measure(&doc);
        let pid = (0..doc.len() as NodeId).find(|&i| doc.node(i).tag() == Some(crate::dom::Tag::P)).unwrap();
        let div = doc.node(pid).parent;
        assert!((p[pid as usize] - 10.0 / 17.0).abs() < 1e-12);
        assert!((p[div as usize] - 15.0 / 49.0).abs() < 1e-12);
        assert_eq!(best, pid);
        // Eq. 3's P' = l_t·l_vt/l_s ranks the same within a page.
        let pp = |s: &Stats| s.raw_chars as f64 * (s.raw_chars - s.raw_link_chars) as f64 / s.source_len() as f64;
        assert!(pp(&doc.node(pid).stats) > pp(&doc.node(div).stats));
    }
}
