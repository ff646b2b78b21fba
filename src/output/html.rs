//! `content.html`: clean HTML of the chosen nodes (whole elements keep their structure, attributes
//! other than `href`/`src`/`alt` are dropped, addresses made absolute), and the same for paragraphs of
//! text. Its escaping is HTML's; the Markdown renderer escapes for another reader (`markdown/escape.rs`).

use crate::dom::{Document, NodeData, NodeId, Tag};

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

#[cfg(test)]
mod tests {
    use super::*;

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
