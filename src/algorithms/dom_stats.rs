//! DOM statistical extraction from the survey of web content extraction methods (§2.2): for every node,
//! count its text and links and the length of each; a node whose text/link count ratio and text/link
//! length ratio both pass a threshold is a content node; a preorder walk merges the content nodes.
//!
//! The survey leaves the candidate nodes and thresholds open. We judge the nodes that hold text
//! directly (their own text children), count "text" as non-link text so that a link is not counted on
//! both sides of the ratio, and use 3 (length) and 1 (count) as defaults: a paragraph with one short
//! link passes, a list of links does not.

use crate::algorithms::contract::{
    Content, Context, Outcome, coverage_probability, elements, ratio, score_elements, topmost,
};

/// `dom-stats`.
pub fn run(ctx: &Context<'_>) -> Outcome {
    let doc = ctx.doc;
    let p = &ctx.params.dom_stats;
    let measure = |i: u32| {
        let s = doc.node(i).stats;
        let len = ratio(s.non_link_chars() as f64, s.link_chars as f64);
        let cnt = ratio((s.text_nodes - s.link_text_nodes) as f64, s.link_tags as f64);
        (len, cnt)
    };
    let mut content = Vec::new();
    for i in elements(doc) {
        if i == doc.body || doc.node(i).in_link {
            continue;
        }
        let holds_text = doc.children(i).any(|c| doc.node(c).is_text() && !doc.node(c).in_link);
        if !holds_text {
            continue;
        }
        let (len, cnt) = measure(i);
        if len >= p.length_ratio && cnt >= p.count_ratio {
            content.push(i);
        }
    }
    let content = topmost(doc, content);
    let blocks = score_elements(doc, &content, |i| {
        let (len, cnt) = measure(i);
        (vec![("text_link_length_ratio", len), ("text_link_count_ratio", cnt)], len.min(1e6))
    });
    let probability = coverage_probability(doc, &blocks);
    Outcome::new(Content::Nodes(content), probability, blocks)
}
