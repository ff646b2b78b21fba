//! A paragraph's content: text with the source's spaces, images, code spans, and the checks that say
//! whether a link or emphasis may open at all (one that would not parse back is not written, and its
//! text stays plain).

use super::code::longest_run;
use super::escape::escape_text;
use super::writer::Writer;
use crate::dom::{NodeData, NodeId, Tag};

impl Writer<'_> {
    pub(super) fn text(&mut self, id: NodeId) {
        let NodeData::Text { space_before, space_after, .. } = self.doc.node(id).data else { return };
        if (space_before || self.space)
            && !self.inline.is_empty()
            && !self.inline.ends_with([' ', '\n'])
            && self.inline.len() != self.opened_at
        {
            self.inline.push(' ');
        }
        let text = crate::text::words::visible(self.doc.text(id));
        let text = text.as_ref();
        let line = &self.inline[self.inline.rfind('\n').map_or(0, |k| k + 1)..];
        if !line.is_empty()
            && line.len() <= 9
            && line.bytes().all(|b| b.is_ascii_digit())
            && text.starts_with(['.', ')'])
        {
            // `<span>1</span>. Text` would start an ordered list.
            self.inline.push('\\');
        }
        let start = self.at_line_start();
        escape_text(text, &mut self.inline, start);
        self.space = space_after;
        self.opened_at = usize::MAX;
    }

    /// A space in the inline buffer when the source had one or a cell boundary asked for it.
    pub(super) fn pending_space(&mut self) {
        if self.space && !self.inline.is_empty() && !self.inline.ends_with([' ', '\n']) {
            self.inline.push(' ');
        }
        self.space = false;
    }

    /// An inline construct about to open: a space the source had before its first text goes before
    /// the opening delimiter, not after it.
    pub(super) fn space_before_inside(&mut self, id: NodeId) {
        if let Some(t) = self.doc.text_nodes(id).next()
            && let NodeData::Text { space_before: true, .. } = self.doc.node(t).data
        {
            self.space = true;
        }
    }

    /// Does the element hold a block element (which a link or emphasis could not span)?
    pub(super) fn has_block(&self, id: NodeId) -> bool {
        (id + 1..self.doc.node(id).end).any(|i| self.doc.node(i).tag().is_some_and(|t| t.is_block() && t != Tag::Br))
    }

    /// Emphasis cannot span blocks, nor directly follow another delimiter run, and it must open and
    /// close at a word character: not at a link's bracket or a code span's backtick (checked again
    /// when it closes, on what was written).
    pub(super) fn can_emphasise(&self, id: NodeId) -> bool {
        let doc = self.doc;
        let plain = |t: NodeId| {
            !doc.ancestors(t).take_while(|&a| a != id).any(|a| matches!(doc.node(a).tag(), Some(Tag::A | Tag::Code)))
        };
        let mut texts = doc.text_nodes(id);
        let (first, last) = (texts.next(), texts.last());
        !self.inline.ends_with(['*', '`'])
            && !self.has_block(id)
            && first.is_some_and(plain)
            && last.or(first).is_some_and(plain)
    }

    pub(super) fn image(&mut self, id: NodeId) {
        if !self.opts.images {
            return;
        }
        let Some(el) = self.doc.node(id).element() else { return };
        let Some(src) = el.src().map(str::trim).filter(|s| !s.is_empty() && !s.starts_with("data:")) else {
            return;
        };
        self.pending_space();
        let mut alt = String::new();
        escape_text(&crate::dom::fold_ws(el.alt().unwrap_or("")), &mut alt, false);
        let src = self.resolve(src);
        self.inline.push_str("![");
        self.inline.push_str(&alt);
        self.inline.push_str("](");
        self.inline.push_str(&src);
        self.inline.push(')');
    }

    /// `<code>` outside `<pre>`: a code span whose backtick fence is longer than any run inside.
    pub(super) fn code_span(&mut self, id: NodeId) {
        let text = crate::text::words::visible(&self.doc.subtree_text(id)).into_owned();
        if text.is_empty() {
            return;
        }
        let spaced = |t: NodeId, before: bool| match self.doc.node(t).data {
            NodeData::Text { space_before, space_after, .. } => {
                if before {
                    space_before
                } else {
                    space_after
                }
            }
            NodeData::Element(_) => false,
        };
        self.space |= self.doc.text_nodes(id).next().is_some_and(|t| spaced(t, true));
        self.pending_space();
        let text = match self.last_code.take() {
            Some((start, end, before)) if end == self.inline.len() => {
                self.inline.truncate(start);
                before + &text
            }
            _ => text,
        };
        let start = self.inline.len();
        let fence = "`".repeat(longest_run(&text, '`') + 1);
        let pad = text.starts_with('`') || text.ends_with('`');
        self.inline.push_str(&fence);
        if pad {
            self.inline.push(' ');
        }
        self.inline.push_str(&text);
        if pad {
            self.inline.push(' ');
        }
        self.inline.push_str(&fence);
        self.last_code = Some((start, self.inline.len(), text));
        self.space = self.doc.text_nodes(id).last().is_some_and(|t| spaced(t, false));
    }
}
