//! Stage 5: the answer. One result type for the CLI and the HTTP service, and the renderers that turn
//! chosen nodes into plain text (paragraphs on their own lines) and into clean HTML (structure kept,
//! attributes other than `href`/`src`/`alt` dropped).

pub mod explain_page;
pub mod markdown;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::algorithms::contract::Block;
use crate::dom::{Document, NodeData, NodeId, Tag};

/// The result of one extraction.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Extraction {
    pub url: Option<String>,
    pub title: Option<String>,
    pub lang: Option<String>,
    pub charset: String,
    pub algorithm: String,
    pub content: ContentOut,
    pub has_article: HasArticle,
    /// What kind of page this is (`auto` with a page-type model; `null` otherwise).
    #[serde(default)]
    pub page_type: Option<PageType>,
    /// What the page says about itself (title, authors, dates, ...), see [`crate::metadata`].
    #[serde(default)]
    pub metadata: crate::metadata::Metadata,
    pub blocks: Vec<BlockOut>,
    pub timings_ms: Timings,
}

/// Main content as text, as HTML and (when asked for) as Markdown.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ContentOut {
    pub text: String,
    pub html: String,
    /// CommonMark with GitHub tables (see [`crate::output::markdown`]); present only when requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The explanation page, one self-contained HTML document (see [`crate::output::explain_page`]); present
    /// only when requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain: Option<String>,
}

/// The has-article judgement.
/// Named measures: has-article signals, block scores (names are static in the library; owned when read
/// back from JSON).
pub type Signals = BTreeMap<Cow<'static, str>, f64>;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HasArticle {
    pub probability: f64,
    pub is_article: bool,
    /// The measures the probability was computed from (`auto` only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub signals: Signals,
}

/// The page type: the likeliest label and every type's probability (they sum to 1).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PageType {
    pub label: String,
    pub probabilities: BTreeMap<String, f64>,
}

impl PageType {
    /// The distribution made of the has-article probability and the other types' odds given that the
    /// page is not an article. The label is `article` exactly when `article_p` reaches `threshold`
    /// (as `has_article.is_article` is decided), else the likeliest other type.
    pub fn new(article_p: f64, threshold: f64, odds: &crate::algorithms::contract::NonArticleOdds) -> PageType {
        use crate::algorithms::contract::NON_ARTICLE_TYPES;
        let mut probabilities = BTreeMap::new();
        probabilities.insert("article".to_string(), article_p);
        for (name, o) in NON_ARTICLE_TYPES.iter().zip(odds.0) {
            probabilities.insert(name.to_string(), (1.0 - article_p) * o);
        }
        let label = if article_p >= threshold { "article" } else { NON_ARTICLE_TYPES[odds.argmax()] };
        PageType { label: label.to_string(), probabilities }
    }
}

/// One scored block as reported.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BlockOut {
    pub id: u32,
    pub path: String,
    pub tag: String,
    pub text_chars: u32,
    pub link_chars: u32,
    pub tags: u32,
    pub scores: Signals,
    pub content: bool,
}

/// Time spent per stage, milliseconds.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Default)]
pub struct Timings {
    pub decode: f64,
    pub prestrip: f64,
    pub parse: f64,
    /// The algorithm alone (and a site rule's override).
    pub score: f64,
    /// Rendering text and HTML and building the block report.
    pub output: f64,
    /// Reading the page's metadata (its declarations, bylines and dates).
    #[serde(default)]
    pub metadata: f64,
    pub total: f64,
    /// Milliseconds in the browser (scripts and layout), when the page was rendered; not in `total`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render: Option<f64>,
}

/// Per-node flag: inside one of the chosen subtrees.
fn selection(doc: &Document, roots: &[NodeId]) -> Vec<bool> {
    let mut sel = vec![false; doc.len()];
    for &r in roots {
        for i in r..doc.node(r).end {
            sel[i as usize] = true;
        }
    }
    sel
}

/// Plain text of the chosen nodes: block elements start new lines, whitespace folded, no markup.
pub fn render_text(doc: &Document, roots: &[NodeId]) -> String {
    if roots.is_empty() {
        return String::new();
    }
    let sel = selection(doc, roots);
    let mut out = String::new();
    let mut open_blocks: Vec<NodeId> = Vec::new(); // `end` of open block elements
    let mut newline = false;
    let mut space = false;
    let first = roots[0].min(doc.body);
    let last = doc.node(doc.body).end.max(roots.iter().map(|&r| doc.node(r).end).max().unwrap_or(0));
    let mut prev_selected = false;
    for i in first..last {
        while open_blocks.last().is_some_and(|&e| e <= i) {
            open_blocks.pop();
            newline = true;
        }
        let n = doc.node(i);
        match &n.data {
            NodeData::Element(e) => {
                if e.tag.is_block() {
                    newline = true;
                    if e.tag != Tag::Br && e.tag != Tag::Hr {
                        open_blocks.push(n.end);
                    }
                } else if matches!(e.tag, Tag::Td | Tag::Th) {
                    space = true;
                }
            }
            NodeData::Text { space_before, space_after, .. } => {
                if !sel[i as usize] {
                    if prev_selected {
                        // Text left out between two chosen pieces separates them.
                        newline = true;
                    }
                    prev_selected = false;
                    continue;
                }
                if !out.is_empty() {
                    if newline {
                        if !out.ends_with('\n') {
                            out.push('\n');
                        }
                    } else if (space || *space_before) && !out.ends_with(' ') && !out.ends_with('\n') {
                        out.push(' ');
                    }
                }
                // Code keeps its line breaks and indentation (the text of `<pre>` as written).
                out.push_str(doc.raw_text(i));
                newline = false;
                space = *space_after;
                prev_selected = true;
            }
        }
    }
    out.trim_end().to_string()
}

/// Escape text for HTML.
fn escape(s: &str, out: &mut String, attr: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

fn resolve(base: Option<&url::Url>, link: &str) -> String {
    match base.and_then(|b| b.join(link).ok()) {
        Some(u) => u.to_string(),
        None => link.to_string(),
    }
}

const VOID: &[&str] = &["br", "hr", "img", "wbr", "area", "col", "source", "track"];

/// Serialize one element's start tag with the kept attributes.
fn start_tag(doc: &Document, i: NodeId, base: Option<&url::Url>, out: &mut String) -> Option<&'static str> {
    let NodeData::Element(e) = &doc.node(i).data else { return None };
    out.push('<');
    out.push_str(&e.name);
    for (k, v) in [("href", e.href()), ("src", e.src()), ("alt", e.alt())] {
        if let Some(v) = v {
            out.push(' ');
            out.push_str(k);
            out.push_str("=\"");
            let v = if k == "alt" { v.to_string() } else { resolve(base, v) };
            escape(&v, out, true);
            out.push('"');
        }
    }
    out.push('>');
    if VOID.contains(&&*e.name) { Some("void") } else { None }
}

/// Clean HTML of the chosen nodes. Whole elements keep their structure; chosen text nodes are wrapped
/// in their nearest block ancestor's tag (a `<p>` when that is a layout container).
pub fn render_html(doc: &Document, roots: &[NodeId], base_url: Option<&str>) -> String {
    let base = base_url.and_then(|u| url::Url::parse(u).ok());
    let base = base.as_ref();
    let mut out = String::new();
    let mut k = 0;
    while k < roots.len() {
        let r = roots[k];
        if doc.node(r).is_text() {
            // Group consecutive chosen text nodes under the same block ancestor.
            let blk = block_ancestor(doc, r);
            let tag = doc.node(blk).element().map_or("p", |e| wrapper_tag(e.tag));
            out.push('<');
            out.push_str(tag);
            out.push('>');
            let mut first = true;
            while k < roots.len() && doc.node(roots[k]).is_text() && block_ancestor(doc, roots[k]) == blk {
                if !first {
                    out.push(' ');
                }
                escape(doc.text(roots[k]), &mut out, false);
                first = false;
                k += 1;
            }
            out.push_str("</");
            out.push_str(tag);
            out.push_str(">\n");
            continue;
        }
        let mut stack: Vec<(NodeId, &str)> = Vec::new();
        for i in r..doc.node(r).end {
            while let Some(&(end, name)) = stack.last() {
                if end > i {
                    break;
                }
                out.push_str("</");
                out.push_str(name);
                out.push('>');
                stack.pop();
            }
            let n = doc.node(i);
            match &n.data {
                NodeData::Element(e) => {
                    if start_tag(doc, i, base, &mut out).is_none() {
                        stack.push((n.end, &e.name));
                    }
                }
                NodeData::Text { space_before, space_after, .. } => {
                    if *space_before {
                        out.push(' ');
                    }
                    escape(doc.raw_text(i), &mut out, false);
                    if *space_after {
                        out.push(' ');
                    }
                }
            }
        }
        while let Some((_, name)) = stack.pop() {
            out.push_str("</");
            out.push_str(name);
            out.push('>');
        }
        out.push('\n');
        k += 1;
    }
    out.trim_end().to_string()
}

fn block_ancestor(doc: &Document, id: NodeId) -> NodeId {
    for a in doc.ancestors(id) {
        if doc.node(a).tag().is_some_and(|t| t.is_block() || matches!(t, Tag::Td | Tag::Th)) {
            return a;
        }
    }
    doc.body
}

fn wrapper_tag(tag: Tag) -> &'static str {
    match tag {
        Tag::H1 => "h1",
        Tag::H2 => "h2",
        Tag::H3 => "h3",
        Tag::H4 => "h4",
        Tag::H5 => "h5",
        Tag::H6 => "h6",
        Tag::Li => "li",
        Tag::Pre => "pre",
        Tag::Blockquote => "blockquote",
        Tag::Dt => "dt",
        Tag::Dd => "dd",
        Tag::Figcaption => "figcaption",
        _ => "p",
    }
}

/// Paragraphs as HTML (for methods that produce text, not nodes).
pub fn paragraphs_html(paras: &[String]) -> String {
    let mut out = String::new();
    for p in paras {
        out.push_str("<p>");
        escape(p, &mut out, false);
        out.push_str("</p>\n");
    }
    out.trim_end().to_string()
}

/// The reported blocks: the top `max` by rank, plus content blocks, at most `4·max` in all, in
/// document order.
pub fn report_blocks(doc: &Document, mut blocks: Vec<Block>, max: usize) -> Vec<BlockOut> {
    blocks.sort_by(|a, b| b.rank.total_cmp(&a.rank).then(a.node.cmp(&b.node)));
    let mut chosen: Vec<Block> = Vec::new();
    let mut rest_content = Vec::new();
    for (k, b) in blocks.into_iter().enumerate() {
        if k < max {
            chosen.push(b);
        } else if b.content {
            rest_content.push(b);
        }
    }
    chosen.extend(rest_content.into_iter().take(max.saturating_mul(3)));
    chosen.sort_by_key(|b| b.node);
    chosen.dedup_by_key(|b| b.node);
    chosen
        .into_iter()
        .map(|b| {
            let n = doc.node(b.node);
            BlockOut {
                id: b.node,
                path: doc.xpath(b.node),
                tag: n.element().map_or_else(|| "#text".to_string(), |e| e.name.to_string()),
                text_chars: n.stats.chars,
                link_chars: n.stats.link_chars,
                tags: n.stats.tags,
                scores: b
                    .scores
                    .iter()
                    .map(|&(k, v)| (Cow::Borrowed(k), if v.is_finite() { v } else { 0.0 }))
                    .collect(),
                content: b.content,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_puts_blocks_on_lines() {
        let doc = Document::parse(
            "<body><div><h1>Title</h1><p>One <b>bold</b> word.</p><ul><li>a</li><li>b</li></ul></div></body>",
        );
        let div = doc.children(doc.body).next().unwrap();
        assert_eq!(render_text(&doc, &[div]), "Title\nOne bold word.\na\nb");
    }

    #[test]
    fn html_keeps_structure_and_only_safe_attributes() {
        let doc = Document::parse(
            "<body><div class=x onclick=y><p>Hi <a href='/p' class=z>there</a> &amp; <img src=i.png alt='A'></p></div></body>",
        );
        let div = doc.children(doc.body).next().unwrap();
        let h = render_html(&doc, &[div], Some("https://ex.test/a/b"));
        assert_eq!(
            h,
            "<div><p>Hi <a href=\"https://ex.test/p\">there</a> &amp; <img src=\"https://ex.test/a/i.png\" alt=\"A\"></p></div>"
        );
    }
}
