//! `content.text`: the plain text of the chosen nodes, block elements on lines of their own,
//! whitespace folded, code as written. It shares nothing with the HTML and Markdown renderers but the
//! chosen nodes, so it has its own file.

use crate::dom::{Document, NodeData, NodeId, Tag};

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
                // Code keeps its line breaks and indentation (the text of `<pre>` as written); soft
                // hyphens and zero-width spaces go (`crate::text::words::visible`).
                out.push_str(&crate::text::words::visible(doc.raw_text(i)));
                newline = false;
                space = *space_after;
                prev_selected = true;
            }
        }
    }
    out.trim_end().to_string()
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
    fn text_reads_as_the_page_shows_it() {
        // Soft hyphens and zero-width spaces go, a Persian zero-width non-joiner stays; a ruby
        // annotation's reading is not text of the page.
        let doc = Document::parse(
            "<body><div><p>Mit&shy;tel&shy;al&shy;ter\u{200b}lich, \u{645}\u{6cc}\u{200c}\u{62e}\u{648}\u{627}\u{647}\u{645}</p>\
             <p><ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp></ruby>どもの<ruby>体罰<rt>たいばつ</rt></ruby></p></div></body>",
        );
        let div = doc.children(doc.body).next().unwrap();
        assert_eq!(
            render_text(&doc, &[div]),
            "Mittelalterlich, \u{645}\u{6cc}\u{200c}\u{62e}\u{648}\u{627}\u{647}\u{645}\n子どもの体罰"
        );
    }
}
