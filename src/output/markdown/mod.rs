//! Markdown of the kept content: headings by level, paragraphs, nested ordered and unordered lists,
//! GitHub tables, fenced code blocks, block quotes, links and images with absolute addresses, emphasis.
//!
//! It is rendered from the same arena nodes the algorithm chose as `content.text` and `content.html`
//! are, so the three formats never disagree on what the content is; every character of text is
//! escaped so that a CommonMark reader gives back exactly that text (the tests parse it back and
//! compare).
//!
//! Why our own renderer rather than a crate: the HTML-to-Markdown crates (htmd, html2md, fast_html2md)
//! walk an html5ever or their own DOM, so they would need `content.html` serialised and parsed a second
//! time. The arena already holds the kept subtrees with folded text, `href`/`src`/`alt`, class names
//! (for a code block's `language-*`) and the unfolded text of `<pre>`; walking it directly costs one pass
//! over the kept nodes and no allocation per node, and it lets the escaping be designed for the
//! round trip (the crates escape for looks, and their output parsed back did not always give the text).
//!
//! The walk is iterative (an explicit stack), and container nesting (quotes, list items) stops adding
//! prefixes past [`MAX_NESTING`](writer::MAX_NESTING), so hostile nesting costs time in proportion to the input only.
//!
//! The renderer's files, one job each:
//!
//! | file | what lives there |
//! |---|---|
//! | `mod.rs` | the entry points ([`render`], [`paragraphs`]) and the tests of the whole renderer |
//! | `writer.rs` | the options, the writer's state, and blocks written line by line behind the open containers' prefixes |
//! | `walk.rs` | the walk over the kept nodes: what each element opens, and what leaving it closes |
//! | `inline.rs` | a paragraph's content: text and its spaces, images, code spans, when emphasis may open |
//! | `code.rs` | code blocks: the text of `<pre>` as written, the fence, the language |
//! | `table.rs` | GitHub tables, and which tables are layout rather than data |
//! | `escape.rs` | escaping for the round trip, and link and image addresses |

mod code;
mod escape;
mod inline;
mod table;
mod walk;
mod writer;

pub use escape::escape_text;
pub use writer::MarkdownOptions;

use crate::dom::{Document, NodeId, Tag};
use code::{code_of, pre_ancestor};
use walk::block_ancestor;
use writer::Writer;

/// Markdown of the chosen subtrees (`roots`, in document order, as an algorithm returns them). Links
/// and images are resolved against `base_url`.
pub fn render(doc: &Document, roots: &[NodeId], base_url: Option<&str>, opts: MarkdownOptions) -> String {
    let base = base_url.and_then(|u| url::Url::parse(u).ok());
    let mut w = Writer::new(doc, base, opts);
    let inline = |r: NodeId| doc.node(r).tag().is_none_or(|t| !t.is_block() && !matches!(t, Tag::Td | Tag::Th));
    let mut k = 0;
    while k < roots.len() {
        let r = roots[k];
        if let Some(pre) = pre_ancestor(doc, r) {
            // Parts of a code block chosen without their `<pre>`: one code block of their text.
            let first = k;
            while k < roots.len() && pre_ancestor(doc, roots[k]) == Some(pre) {
                k += 1;
            }
            let code = code_of(doc, &roots[first..k]);
            w.flush();
            w.code_text(pre, &code);
            continue;
        }
        if inline(r) {
            // Chosen text (or inline elements) without its block: grouped by the block ancestor, whose
            // kind (heading, list item, code, quote, paragraph) it is written as, like `content.html`.
            let blk = block_ancestor(doc, r);
            let mut group = Vec::new();
            while k < roots.len() && inline(roots[k]) && block_ancestor(doc, roots[k]) == blk {
                group.push(roots[k]);
                k += 1;
            }
            w.inline_group(blk, &group);
            continue;
        }
        w.walk(r);
        w.flush();
        k += 1;
    }
    w.finish()
}

/// Markdown of plain paragraphs (for methods that choose source lines rather than nodes).
pub fn paragraphs(paras: &[String]) -> String {
    let mut out = String::new();
    for p in paras {
        let mut line = String::new();
        escape_text(&crate::dom::fold_ws(p), &mut line, true);
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::writer::MAX_NESTING;
    use super::*;

    fn md(html: &str) -> String {
        let doc = Document::parse(html);
        let root = doc.children(doc.body).next().unwrap_or(doc.body);
        render(&doc, &[root], Some("https://ex.test/a/b"), MarkdownOptions::default())
    }

    #[test]
    fn blocks_lists_and_inline() {
        let m = md("<body><div><h2>Title <a href=/x>here</a></h2><p>One <b>bold</b> and <i>it</i>.</p>\
                    <ul><li>a<ul><li>b</li></ul></li><li>c</li></ul><ol><li>x</li><li>y</li></ol></div></body>");
        assert_eq!(m, "## Title [here](https://ex.test/x)\n\nOne **bold** and *it*.\n\n- a\n  - b\n- c\n\n1. x\n2. y");
    }

    #[test]
    fn escapes_what_markdown_would_read() {
        let m = md("<body><div><p>1. not a list *star* [x] a_b &amp;amp; &lt;tag&gt;</p><p>- dash</p></div></body>");
        assert_eq!(m, "1\\. not a list \\*star\\* \\[x\\] a\\_b \\&amp; \\<tag\\>\n\n\\- dash");
    }

    #[test]
    fn code_tables_quotes_images() {
        let m = md("<body><div><pre><code class='language-rust'>fn main() {\n    x(\"```\");\n}</code></pre>\
                    <table><tr><th>k</th><th>v</th></tr><tr><td>a|b</td><td>2</td></tr></table>\
                    <blockquote><p>q1</p><p>q2</p></blockquote><p><img src=i.png alt='A pic'> <code>x`y</code></p></div></body>");
        assert_eq!(
            m,
            "````rust\nfn main() {\n    x(\"```\");\n}\n````\n\n| k | v |\n| --- | --- |\n| a\\|b | 2 |\n\n\
             > q1\n>\n> q2\n\n![A pic](https://ex.test/a/i.png)``x`y``"
        );
    }

    #[test]
    fn options_drop_links_and_images() {
        let doc = Document::parse("<body><p>See <a href=/x>this</a> <img src=a.png alt=x></p></body>");
        let root = doc.children(doc.body).next().unwrap();
        let m = render(&doc, &[root], None, MarkdownOptions { links: false, images: false });
        assert_eq!(m, "See this");
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let html = format!("<body><div>{}x{}</div></body>", "<blockquote>".repeat(400), "</blockquote>".repeat(400));
        let m = md(&html);
        assert!(m.ends_with('x'));
        assert!(m.len() < 4 * MAX_NESTING + 10, "{}", m.len());
    }
}
