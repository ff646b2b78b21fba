//! The page as HTML for a browser to lay out, every element stamped with its arena id.
//!
//! Rendering exists to give the visual methods a box per arena node. Matching the browser's DOM back
//! to the arena by walking both trees in step would break on every difference between two HTML
//! parsers; instead the parse that builds the arena also writes the page back out with
//! `data-pith="<id>"` on each element it copied, and the browser's snapshot names its elements by that
//! attribute. The output is the working tree after pre-strip, with what a layout does not need and a
//! browser must not act on left out: scripts, `<noscript>` (the browser runs without scripts),
//! templates, the original `<head>` (replaced by the caller's, which carries the page's collected
//! styles), event-handler attributes and `srcdoc`. Elements the arena skipped (form controls, frames,
//! hidden elements) are written without a stamp: they still take up space on the page.
//!
//! The walk is iterative, so nesting depth costs heap, not stack.

use std::fmt::Write;

use html5ever::tendril::StrTendril;

use super::build::Builder;
use super::tree::{self, Data, Tree};
use super::{Document, DomLimits, NONE, NodeId, Tag};

/// A cheap identity of an arena: its size and the sequence of element names and text lengths. Two
/// parses of the same text with the same code give the same value; a different parse almost surely
/// does not.
pub fn fingerprint(doc: &Document) -> u64 {
    let mut h = crate::hash::Fnv1a::new();
    h.bytes((doc.len() as u64).to_le_bytes());
    for n in &doc.nodes {
        match &n.data {
            super::NodeData::Element(e) => {
                h.bytes(e.name.as_bytes().iter().copied());
                h.byte(0);
            }
            super::NodeData::Text { len, .. } => {
                h.byte(1);
                h.bytes(len.to_le_bytes());
            }
        }
    }
    h.finish()
}

/// The attribute carrying arena ids.
pub const STAMP: &str = "data-pith";

/// Parse HTML (already pre-stripped) exactly as [`Document::parse_tendril`] does, and also write it
/// back out stamped with arena ids, with `head` (trusted markup: styles, a charset) as its `<head>`.
/// Past the work budget it fails as that parse does.
pub fn parse_stamped(
    html: StrTendril,
    limits: DomLimits,
    head: &str,
) -> Result<(Document, String), crate::error::Error> {
    let (tree, limits) = Document::parse_tree(html, limits)?;
    let mut b = Builder::new(limits);
    b.stamps = Some(vec![NONE; tree.nodes.len()]);
    b.build_tree(&tree);
    let stamps = b.stamps.take().unwrap_or_default();
    let out = write(&tree, &stamps, head);
    Ok((b.finish(), out))
}

/// Parse as [`Document::parse_tendril`] does, leaving out the elements `hidden` names by their id in
/// that arena (with their subtrees). Also returns the full arena's [`fingerprint`], so
/// the caller can check that the ids it asked about were the right ones. Past the work budget it fails
/// as that parse does.
pub fn parse_without(
    html: StrTendril,
    limits: DomLimits,
    hidden: &dyn Fn(NodeId) -> bool,
) -> Result<(Document, u64), crate::error::Error> {
    let (tree, limits) = Document::parse_tree(html, limits)?;
    let mut full = Builder::new(limits);
    full.stamps = Some(vec![NONE; tree.nodes.len()]);
    full.build_tree(&tree);
    let stamps = full.stamps.take().unwrap_or_default();
    let print = fingerprint(&full.finish());
    let mut pruned = Builder::new(limits);
    pruned.skip = Some(stamps.iter().map(|&s| s != NONE && hidden(s)).collect());
    pruned.build_tree(&tree);
    Ok((pruned.finish(), print))
}

/// Elements left out with everything inside them.
fn is_dropped(name: &str) -> bool {
    matches!(
        name,
        "script" | "noscript" | "template" | "style" | "link" | "meta" | "base" | "title" | "noembed" | "noframes"
    )
}

/// Attributes left out: event handlers, frame documents, and any stamp the page itself carries.
fn is_dropped_attr(name: &str) -> bool {
    let b = name.as_bytes();
    (b.len() > 2 && b[..2].eq_ignore_ascii_case(b"on"))
        || name.eq_ignore_ascii_case("srcdoc")
        || name.eq_ignore_ascii_case(STAMP)
        // A name the tokenizer let through but no serialiser may write back.
        || name.bytes().any(|c| matches!(c, b'"' | b'\'' | b'<' | b'>' | b'=' | b'/') || c.is_ascii_whitespace())
}

fn escape_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}

fn escape_attr(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

fn write(t: &Tree, stamps: &[NodeId], head: &str) -> String {
    let text_len: usize = t.nodes.iter().map(|n| if let Data::Text(s) = &n.data { s.len() } else { 0 }).sum();
    let mut out = String::with_capacity(text_len + t.nodes.len() * 24 + head.len() + 64);
    if !t.quirks {
        out.push_str("<!DOCTYPE html>");
    }
    // Frames of open elements: (tree id, whether an end tag is due).
    let mut open: Vec<(tree::Id, bool)> = Vec::new();
    let mut id = t.nodes[tree::DOCUMENT as usize].first_child;
    while id != tree::NIL {
        let n = &t.nodes[id as usize];
        let mut descend = false;
        match &n.data {
            Data::Element { local, attrs, .. } => {
                let local = &**local;
                if local == "head" {
                    out.push_str("<head>");
                    out.push_str(head);
                    out.push_str("</head>");
                } else if !is_dropped(local) {
                    out.push('<');
                    out.push_str(local);
                    for a in attrs {
                        let k = &*a.name.local;
                        if is_dropped_attr(k) {
                            continue;
                        }
                        out.push(' ');
                        if let Some(p) = &a.name.prefix {
                            out.push_str(p);
                            out.push(':');
                        }
                        out.push_str(k);
                        out.push_str("=\"");
                        escape_attr(&a.value, &mut out);
                        out.push('"');
                    }
                    if let Some(&s) = stamps.get(id as usize)
                        && s != NONE
                    {
                        let _ = write!(out, " {STAMP}=\"{s}\"");
                    }
                    out.push('>');
                    let void = Tag::is_void(local);
                    if n.first_child != tree::NIL && !void {
                        open.push((id, true));
                        descend = true;
                    } else if !void {
                        out.push_str("</");
                        out.push_str(local);
                        out.push('>');
                    }
                }
            }
            Data::Text(s) => escape_text(s, &mut out),
            Data::Document | Data::Other => {}
        }
        if descend {
            id = n.first_child;
            continue;
        }
        // Next in preorder, closing every element climbed out of.
        id = t.next_after(id, tree::DOCUMENT, || {
            if let Some((open_id, true)) = open.pop()
                && let Data::Element { local, .. } = &t.nodes[open_id as usize].data
            {
                out.push_str("</");
                out.push_str(local);
                out.push('>');
            }
        });
    }
    while let Some((open_id, _)) = open.pop() {
        if let Data::Element { local, .. } = &t.nodes[open_id as usize].data {
            out.push_str("</");
            out.push_str(local);
            out.push('>');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_match_the_arena_and_unsafe_parts_are_left_out() {
        let page = "<!doctype html><html lang=en><head><title>T</title><style>p{color:red}</style>\
                    <meta http-equiv=refresh content='0;url=http://x/'></head>\
                    <body onload=\"go()\"><div id=a class=\"x &amp; y\"><p>one &lt;two&gt;</p>\
                    <script>bad()</script><img src=/i.png alt=\"q&quot;\"><iframe srcdoc=\"<p>x</p>\"></iframe>\
                    <div hidden>h</div><a href=/l data-pith=99>link</a></div></body></html>";
        let (doc, html) = parse_stamped(StrTendril::from(page), DomLimits::default(), "<style>b{}</style>").unwrap();
        let plain = Document::parse(page);
        assert_eq!(fingerprint(&doc), fingerprint(&plain));
        assert!(
            html.starts_with(
                "<!DOCTYPE html><html lang=\"en\" data-pith=\"0\"><head><style>b{}</style></head><body data-pith=\"1\">"
            ),
            "{html}"
        );
        for gone in ["script", "bad()", "onload", "refresh", "srcdoc", "<title", "color:red", "99"] {
            assert!(!html.contains(gone), "{gone} in {html}");
        }
        assert!(html.contains("one &lt;two&gt;"));
        assert!(html.contains("class=\"x &amp; y\""));
        assert!(html.contains("alt=\"q&quot;\""));
        // Every arena element but the ones outside the written tree carries its own id.
        for i in 0..doc.len() as NodeId {
            if doc.node(i).element().is_some() {
                assert!(html.contains(&format!("data-pith=\"{i}\"")), "element {i} ({}) not stamped", doc.xpath(i));
            }
        }
        // The hidden div is written (it takes no space, but the browser decides that) without a stamp.
        assert!(html.contains("<div hidden=\"\">h</div>"));
    }

    #[test]
    fn hidden_elements_are_left_out_of_a_second_arena() {
        let page = "<body><div><p>keep</p><p>drop <b>this</b></p></div><p>tail</p></body>";
        let full = Document::parse(page);
        let second_p = (0..full.len() as NodeId).filter(|&i| full.node(i).tag() == Some(Tag::P)).nth(1).unwrap();
        let (pruned, print) =
            parse_without(StrTendril::from(page), DomLimits::default(), &|id| id == second_p).unwrap();
        assert_eq!(print, fingerprint(&full));
        assert_eq!(pruned.subtree_text(pruned.body), "keeptail");
        assert_eq!(pruned.len(), full.len() - 4);
    }

    #[test]
    fn quirks_pages_stay_in_quirks_mode() {
        let (_, html) =
            parse_stamped(StrTendril::from("<table><tr><td>x</td></tr></table>"), DomLimits::default(), "").unwrap();
        assert!(html.starts_with("<html"), "{html}");
        let (_, html) = parse_stamped(StrTendril::from("<!doctype html><p>x"), DomLimits::default(), "").unwrap();
        assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    }

    #[test]
    fn deep_nesting_is_written_without_recursion() {
        let n = 200_000;
        let page = format!("<!doctype html><body>{}x{}</body>", "<span>".repeat(n), "</span>".repeat(n));
        let (_, html) = parse_stamped(StrTendril::from(page.as_str()), DomLimits::default(), "").unwrap();
        // The parse flattens past the arena's depth limit; what is left is written as deep as it is.
        assert!(html.matches("<span").count() >= DomLimits::default().max_depth as usize - 4);
        assert!(html.ends_with("</body></html>"));
    }
}
