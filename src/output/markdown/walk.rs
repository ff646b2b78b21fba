//! The walk over a kept subtree, the renderer's state machine: an element is either written whole by
//! its own file (a code block, a code span, a table, an image) or opens something (a heading, a list,
//! an item, a quote, a link, emphasis) that its `Close`, kept on the walk's stack, finishes when the
//! walk leaves the element. Chosen inline nodes without their block are written here too, as that
//! block's kind.

use super::escape::{escape_hashes, escape_line_start, is_script};
use super::writer::Writer;
use crate::dom::{Document, NodeData, NodeId, Tag};

/// What to do when the walk leaves an element.
enum Close {
    Nothing,
    /// End of a block element: flush the paragraph.
    Block,
    Heading(usize),
    List,
    Item,
    Quote,
    /// Close an inline construct started at this length of the inline buffer (if nothing was written
    /// inside, the opening is taken back).
    Inline {
        start: usize,
        open_len: usize,
        close: String,
    },
}

impl Writer<'_> {
    /// Walk one subtree, writing blocks as they end.
    pub(super) fn walk(&mut self, root: NodeId) {
        let doc = self.doc;
        let mut stack: Vec<(NodeId, Close)> = Vec::new();
        let mut i = root;
        let end = doc.node(root).end;
        while i < end {
            while let Some(&(e, _)) = stack.last() {
                if e > i {
                    break;
                }
                if let Some((_, close)) = stack.pop() {
                    self.close(close);
                }
            }
            let n = doc.node(i);
            let NodeData::Element(el) = &n.data else {
                self.text(i);
                i += 1;
                continue;
            };
            let skip_to = n.end;
            let close = match el.tag {
                Tag::Pre => {
                    self.code_block(i);
                    i = skip_to;
                    continue;
                }
                // Code inside `<pre>` (chosen without its `<pre>`) is a block.
                Tag::Code if doc.ancestors(i).any(|a| doc.node(a).tag() == Some(Tag::Pre)) => {
                    self.code_block(i);
                    i = skip_to;
                    continue;
                }
                Tag::Code if !self.has_block(i) => {
                    self.code_span(i);
                    i = skip_to;
                    continue;
                }
                Tag::Table if self.flatten == 0 && self.table(i) => {
                    i = skip_to;
                    continue;
                }
                Tag::Img => {
                    self.image(i);
                    Close::Nothing
                }
                Tag::Br => {
                    if self.flatten > 0 {
                        self.space = true;
                    } else if !self.at_line_start() {
                        self.inline.push_str("\\\n");
                        self.space = false;
                    }
                    Close::Nothing
                }
                Tag::Hr if self.flatten == 0 => {
                    self.flush();
                    self.block("* * *");
                    Close::Nothing
                }
                h if h.is_heading() && self.flatten == 0 => {
                    self.flush();
                    self.flatten += 1;
                    Close::Heading(heading_level(h))
                }
                Tag::Ul | Tag::Ol if self.flatten == 0 => {
                    self.flush();
                    // A list nested in an item follows the item's text without a blank line.
                    if self.containers.last().is_some_and(|c| !c.first.starts_with('>')) {
                        self.sep = false;
                    } else {
                        self.separate();
                    }
                    self.lists.push((el.tag == Tag::Ol).then_some(1));
                    Close::List
                }
                Tag::Li if self.flatten == 0 => {
                    self.flush();
                    if self.lists.is_empty() {
                        // An item chosen without its list stands apart from the blocks around it.
                        self.separate();
                    }
                    let marker = match self.lists.last_mut() {
                        Some(Some(n)) => {
                            let m = format!("{n}. ");
                            *n += 1;
                            m
                        }
                        _ => "- ".to_string(),
                    };
                    self.sep = false;
                    self.push_container(marker);
                    Close::Item
                }
                Tag::Blockquote if self.flatten == 0 => {
                    self.flush();
                    self.separate();
                    self.push_container("> ".to_string());
                    Close::Quote
                }
                Tag::A if self.opts.links && self.in_link == 0 && !self.has_block(i) => {
                    match el.href().map(str::trim).filter(|h| !h.is_empty() && !is_script(h)) {
                        Some(href) => {
                            self.space_before_inside(i);
                            self.pending_space();
                            if self.inline.ends_with('!') && !self.inline.ends_with("\\!") {
                                // `![` would open an image.
                                self.inline.pop();
                                self.inline.push_str("\\!");
                            }
                            let start = self.inline.len();
                            self.inline.push('[');
                            self.opened_at = self.inline.len();
                            self.in_link += 1;
                            Close::Inline { start, open_len: 1, close: format!("]({})", self.resolve(href)) }
                        }
                        None => Close::Nothing,
                    }
                }
                Tag::Other if matches!(&*el.name, "b" | "strong" | "i" | "em") && self.can_emphasise(i) => {
                    self.space_before_inside(i);
                    self.pending_space();
                    let marker = if matches!(&*el.name, "b" | "strong") { "**" } else { "*" };
                    let start = self.inline.len();
                    self.inline.push_str(marker);
                    self.opened_at = self.inline.len();
                    Close::Inline { start, open_len: marker.len(), close: marker.to_string() }
                }
                Tag::Td | Tag::Th => {
                    self.boundary();
                    Close::Block
                }
                t if t.is_block() => {
                    self.boundary();
                    Close::Block
                }
                _ => Close::Nothing,
            };
            stack.push((skip_to, close));
            i += 1;
        }
        while let Some((_, close)) = stack.pop() {
            self.close(close);
        }
    }

    fn close(&mut self, close: Close) {
        match close {
            Close::Nothing => {}
            Close::Block => self.boundary(),
            Close::Heading(level) => {
                self.flatten -= 1;
                let content = std::mem::take(&mut self.inline);
                self.space = false;
                let content = content.trim();
                if !content.is_empty() {
                    // A `#` ends an ATX heading's text only after a space; escaping them all is simplest.
                    let content = escape_hashes(content);
                    self.block(&format!("{} {content}", "#".repeat(level)));
                }
            }
            Close::List => {
                self.flush();
                self.lists.pop();
                self.sep = true;
            }
            Close::Item => {
                self.flush();
                self.pop_container();
                // Items of one list follow each other; anything after a lone item needs a blank line
                // (or it would continue the item's paragraph).
                self.sep = self.lists.is_empty();
            }
            Close::Quote => {
                self.flush();
                self.pop_container();
                self.sep = true;
            }
            Close::Inline { start, open_len, close } => {
                if close.starts_with(']') {
                    self.in_link = self.in_link.saturating_sub(1);
                }
                let inner = self.inline.get(start + open_len..).unwrap_or("").trim_end_matches(' ');
                let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
                if inner.trim().is_empty() {
                    // Nothing inside: take the opening back (an empty link or emphasis would not parse).
                    self.inline.truncate(start);
                } else if close.starts_with('*') && !(word(inner.chars().next()) && word(inner.chars().next_back())) {
                    // Emphasis parses only when it opens and closes at a word character (CommonMark's
                    // flanking rules, whatever comes around it): otherwise the text stays plain, escaped
                    // as the start of a line if that is where it now is.
                    let line_start = start == 0 || self.inline[..start].ends_with('\n');
                    if let Some(code) = self.last_code.as_mut().filter(|c| c.0 > start) {
                        code.0 -= open_len;
                        code.1 -= open_len;
                    }
                    let plain = self.inline.split_off(start + open_len);
                    self.inline.truncate(start);
                    if line_start && let Some(fixed) = escape_line_start(&plain) {
                        self.inline.push_str(&fixed);
                    } else {
                        self.inline.push_str(&plain);
                    }
                } else {
                    // Trailing space belongs outside the closing delimiter.
                    let trimmed = self.inline.trim_end_matches(' ').len();
                    let had_space = trimmed < self.inline.len();
                    self.inline.truncate(trimmed);
                    self.inline.push_str(&close);
                    self.space |= had_space;
                }
            }
        }
    }

    /// Chosen inline nodes of one block, written as that block's kind.
    pub(super) fn inline_group(&mut self, blk: NodeId, nodes: &[NodeId]) {
        let doc = self.doc;
        let tag = doc.node(blk).tag();
        let heading = tag.filter(|t| t.is_heading());
        if heading.is_some() {
            self.flatten += 1;
        }
        let container = match tag {
            Some(Tag::Li) => Some("- "),
            Some(Tag::Blockquote) => Some("> "),
            _ => None,
        };
        if let Some(c) = container {
            self.separate();
            self.push_container(c.to_string());
        }
        let mut prev: Option<NodeId> = None;
        for &n in nodes {
            if let Some(p) = prev {
                // What lies between two chosen pieces and was not chosen still separates them, as in
                // `content.text`: a line break, a block, or left-out text.
                let between = doc.node(p).end..n;
                if between.clone().any(|i| doc.node(i).tag() == Some(Tag::Br)) && self.flatten == 0 {
                    if !self.at_line_start() {
                        self.inline.push_str("\\\n");
                    }
                } else if between.clone().any(|i| doc.node(i).tag().is_none_or(|t| t.is_block())) {
                    self.space = true;
                }
            }
            self.walk(n);
            prev = Some(n);
        }
        match heading {
            Some(h) => self.close(Close::Heading(heading_level(h))),
            None => self.flush(),
        }
        if container.is_some() {
            self.pop_container();
            self.sep = true;
        }
    }
}

pub(super) fn block_ancestor(doc: &Document, id: NodeId) -> NodeId {
    doc.ancestors(id)
        .find(|&a| doc.node(a).tag().is_some_and(|t| t.is_block() || matches!(t, Tag::Td | Tag::Th)))
        .unwrap_or(doc.body)
}

fn heading_level(t: Tag) -> usize {
    match t {
        Tag::H1 => 1,
        Tag::H2 => 2,
        Tag::H3 => 3,
        Tag::H4 => 4,
        Tag::H5 => 5,
        _ => 6,
    }
}
