//! Stage 5: the explanation page (`pith extract --format explain-html`, the service's
//! `formats: ["explain"]`): the page's blocks in document order as one self-contained HTML page, each
//! shaded by its probability of being main content, kept blocks in green and dropped ones in red, every
//! measure the algorithm reported (the classifier's probability, composite text density, DensitySum,
//! the P value) in the block's tooltip. It answers "why was this kept?" for a whole page at a glance,
//! where the text form (`--format explain`) answers it line by line.
//!
//! Built from the same block list as the JSON block report, before that list is cut to its top
//! entries, so every block the algorithm scored is on the page.

use std::fmt::Write;

use crate::algorithms::contract::Block;
use crate::dom::Document;

/// Characters of a block's text shown (the tooltip says how many there are).
const SHOWN_CHARS: usize = 600;
/// Blocks on the page at most (hostile pages have hundreds of thousands of elements).
const MAX_BLOCKS: usize = 5_000;

/// What the page's header says about the extraction.
pub struct Summary<'a> {
    pub title: Option<&'a str>,
    pub url: Option<&'a str>,
    pub algorithm: &'a str,
    pub probability: f64,
    pub is_article: bool,
    /// The page type's label, when the algorithm has a page-type model.
    pub page_type: Option<&'a str>,
}

/// The blocks to show: those the algorithm judged one by one (with a `block_p`, `auto`'s text blocks),
/// else every scored element that holds text directly, so the page never nests a block in another.
pub(super) fn shown(doc: &Document, blocks: &[Block]) -> Vec<usize> {
    let judged: Vec<usize> =
        (0..blocks.len()).filter(|&k| blocks[k].scores.iter().any(|(name, _)| *name == "block_p")).collect();
    let mut chosen = if judged.is_empty() {
        (0..blocks.len())
            .filter(|&k| doc.children(blocks[k].node).any(|c| doc.node(c).is_text() && !doc.text(c).trim().is_empty()))
            .collect()
    } else {
        judged
    };
    chosen.sort_by_key(|&k| blocks[k].node);
    // An element inside one already shown would repeat its text.
    let mut out: Vec<usize> = Vec::with_capacity(chosen.len());
    for k in chosen {
        if out.last().is_some_and(|&j| doc.contains(blocks[j].node, blocks[k].node)) {
            continue;
        }
        out.push(k);
        if out.len() == MAX_BLOCKS {
            break;
        }
    }
    out
}

/// The probability a block is shaded by: the classifier's when there is one, else 1 for content and
/// 0 for the rest (the seed methods decide by thresholds, not probabilities).
pub(super) fn probability(b: &Block) -> f64 {
    b.scores.iter().find(|(n, _)| *n == "block_p").map_or(if b.content { 1.0 } else { 0.0 }, |&(_, v)| v)
}

/// Render the explanation page.
pub fn render(doc: &Document, blocks: &[Block], summary: &Summary<'_>) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let title = summary.title.unwrap_or("(untitled page)");
    out.push_str("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>pith explain: ");
    escape(title, &mut out);
    out.push_str("</title>\n<style>\n");
    out.push_str(STYLE);
    out.push_str("</style></head><body>\n<header><h1>");
    escape(title, &mut out);
    out.push_str("</h1><p>");
    if let Some(url) = summary.url {
        escape(url, &mut out);
        out.push_str(" · ");
    }
    let _ = write!(
        out,
        "algorithm <b>{}</b> · has-article probability <b>{:.3}</b> ({}) · ",
        summary.algorithm,
        summary.probability,
        if summary.is_article { "an article" } else { "not an article" }
    );
    if let Some(label) = summary.page_type {
        out.push_str("page type <b>");
        escape(label, &mut out);
        out.push_str("</b> · ");
    }
    let shown = shown(doc, blocks);
    let kept = shown.iter().filter(|&&k| blocks[k].content).count();
    let _ = write!(out, "{kept} of {} blocks kept", shown.len());
    out.push_str(
        "</p><p class=\"legend\"><span class=\"b kept\" style=\"--p:0.9\">kept</span> \
         <span class=\"b dropped\" style=\"--p:0.1\">dropped</span> shade = probability of main content; \
         hover a block for every measure</p></header>\n<main>\n",
    );
    for &k in &shown {
        let b = &blocks[k];
        let p = probability(b);
        let text = subtree_text(doc, b.node);
        let chars = text.chars().count();
        let mut tip = format!("{}\n", doc.xpath(b.node));
        for (name, value) in &b.scores {
            let _ = writeln!(tip, "{name} = {value:.4}");
        }
        let _ = write!(tip, "{chars} characters, {}", if b.content { "kept" } else { "dropped" });
        if let Some(step) = b.decided_by {
            let _ = write!(tip, " (decided by {step})");
        }
        if let Some(region) = b.region {
            let _ = write!(tip, ", in record region r{region}");
        }
        let _ = write!(
            out,
            "<div class=\"b {}\" style=\"--p:{:.3}\" data-node=\"{}\" title=\"",
            if b.content { "kept" } else { "dropped" },
            p.clamp(0.0, 1.0),
            b.node
        );
        escape(&tip, &mut out);
        let _ = write!(out, "\"><span class=\"p\">{p:.2}");
        if let Some(step) = b.decided_by {
            let _ = write!(out, " · {step}");
        }
        if let Some(region) = b.region {
            let _ = write!(out, " · r{region}");
        }
        out.push_str("</span>");
        let shown_text: String = text.chars().take(SHOWN_CHARS).collect();
        escape(&shown_text, &mut out);
        if chars > SHOWN_CHARS {
            out.push('…');
        }
        out.push_str("</div>\n");
    }
    out.push_str("</main></body></html>\n");
    out
}

/// The page's style: kept blocks green, dropped ones red, the shade's strength the probability.
const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#fff;color:#111}\n\
header{padding:12px 20px;border-bottom:1px solid #ccc}header h1{font-size:20px;margin:0 0 4px}\n\
header p{margin:2px 0;color:#333}main{padding:12px 20px;max-width:60em}\n\
.b{display:block;margin:4px 0;padding:6px 10px;border-left:6px solid;white-space:pre-wrap}\n\
.legend .b{display:inline-block}\n\
.kept{background:rgba(0,160,60,calc(0.25 + 0.6 * var(--p)));border-color:rgb(0,130,50)}\n\
.dropped{background:rgba(220,40,40,calc(0.15 + 0.35 * (1 - var(--p))));border-color:rgb(190,30,30);color:#444}\n\
.p{float:right;font:12px monospace;color:#000;margin-left:8px}\n";

/// The text under `node`, whitespace folded, with the spaces folding took off the edges of its text
/// nodes put back (`for <a>young farmers</a>` reads as three words, not two): a walk of its subtree
/// only, so the page costs time in proportion to the blocks shown, which never nest.
fn subtree_text(doc: &Document, node: crate::dom::NodeId) -> String {
    doc.subtree_text(node).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// HTML-escape `s` for text and double-quoted attributes (shared with the eval report page).
pub(crate) fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_beside_a_link_stay_apart() {
        let doc = crate::dom::Document::parse(
            "<html><body><p>training for <a href=/y>young farmers</a> returning home</p></body></html>",
        );
        let p = (0..doc.len() as crate::dom::NodeId).find(|&i| doc.node(i).tag() == Some(crate::dom::Tag::P)).unwrap();
        assert_eq!(super::subtree_text(&doc, p), "training for young farmers returning home");
    }

    #[test]
    fn kept_and_dropped_blocks_with_their_measures() {
        let engine = crate::engine::Engine::with_defaults().unwrap();
        let page = b"<html><head><title>T</title></head><body><nav><a href=/>Home</a> <a href=/n>News</a> \
            <a href=/a>About</a></nav><article><h1>Rice</h1><p>More than two hundred farmers gathered in the \
            county town on Monday for a week of training on rice cultivation, the first of its kind.</p>\
            <p>Instructors showed how to raise seedlings in trays &amp; how to time fertiliser.</p></article>\
            <footer><a href=/p>Privacy</a></footer></body></html>";
        let options =
            crate::engine::Options { explain: Some(super::super::Explain::Page), ..crate::engine::Options::default() };
        let r = engine.extract(&crate::engine::Request::with_options(page, options)).unwrap();
        let html = r.content.explain.expect("explain page");
        assert!(html.starts_with("<!doctype html>"));
        assert!(html.contains("class=\"b kept\"") && html.contains("class=\"b dropped\""), "{html}");
        // Every measure in the tooltip; text escaped.
        assert!(html.contains("block_p = ") && html.contains("density_sum = ") && html.contains("ctd = "));
        assert!(html.contains("seedlings in trays &amp; how"));
        // The step that decided each judged block, from the decision record.
        assert!(
            html.contains("kept (decided by threshold)") && html.contains("dropped (decided by threshold)"),
            "{html}"
        );
        assert!(!html.contains("<script"));
    }
}
