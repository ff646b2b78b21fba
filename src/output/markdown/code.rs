//! Code blocks: the text of `<pre>` as written (a line break where a highlighter's line element
//! starts), fenced by more backticks than any run inside, with the language its class names give.

use super::escape::escape_text;
use super::writer::Writer;
use crate::dom::{Document, NodeId, Tag};

impl Writer<'_> {
    /// `<pre>`: a fenced code block of its text as written.
    pub(super) fn code_block(&mut self, id: NodeId) {
        let doc = self.doc;
        let code = code_of(doc, &[id]);
        if self.flatten > 0 {
            // A code block cannot sit inside a heading or cell: its text goes inline.
            if !code.trim().is_empty() {
                self.pending_space();
                escape_text(&crate::dom::fold_ws(&code), &mut self.inline, false);
            }
            return;
        }
        self.flush();
        self.code_text(id, &code);
    }

    /// A fenced code block of `code`, language from a `language-*` or `lang-*` class on the `<pre>`
    /// (`pre`) or a `<code>` inside it.
    pub(super) fn code_text(&mut self, pre: NodeId, code: &str) {
        let doc = self.doc;
        let code = code.trim_matches('\n').trim_end();
        if code.trim().is_empty() {
            return;
        }
        let lang = (pre..doc.node(pre).end)
            .filter_map(|i| doc.node(i).element())
            .filter(|e| matches!(e.tag, Tag::Pre | Tag::Code))
            .find_map(|e| e.id_class.as_deref().and_then(language));
        let fence = "`".repeat(longest_run(code, '`').max(2) + 1);
        let mut text = String::with_capacity(code.len() + 16);
        text.push_str(&fence);
        text.push_str(lang.unwrap_or(""));
        text.push('\n');
        for line in code.lines() {
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text.push_str(&fence);
        self.block(&text);
    }
}

/// The text of code as written, with a line break where a block element (a line of a highlighted
/// listing, often) starts, as `content.text` has it.
pub(super) fn code_of(doc: &Document, roots: &[NodeId]) -> String {
    let mut code = String::new();
    let mut prev_end = None;
    for &r in roots {
        // Pieces chosen apart (line numbers without their lines, say) go on lines of their own.
        if prev_end.is_some_and(|e| e < r) && !code.is_empty() && !code.ends_with('\n') {
            code.push('\n');
        }
        prev_end = Some(doc.node(r).end);
        for i in r..doc.node(r).end {
            match doc.node(i).tag() {
                Some(t) if t.is_block() && t != Tag::Br => {
                    if !code.is_empty() && !code.ends_with('\n') {
                        code.push('\n');
                    }
                }
                Some(_) => {}
                None => code.push_str(&crate::text::words::visible(doc.raw_text(i))),
            }
        }
    }
    code
}

pub(super) fn pre_ancestor(doc: &Document, id: NodeId) -> Option<NodeId> {
    doc.ancestors(id).find(|&a| doc.node(a).tag() == Some(Tag::Pre))
}

/// A code language from class names: `language-rust`, `lang-rust`.
fn language(id_class: &str) -> Option<&str> {
    id_class.split_ascii_whitespace().find_map(|c| {
        let l = c.strip_prefix("language-").or_else(|| c.strip_prefix("lang-"))?;
        (!l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '#' | '_' | '.')))
            .then_some(l)
    })
}

pub(super) fn longest_run(s: &str, ch: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        if c == ch {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}
