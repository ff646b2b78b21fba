//! The Markdown options, the writer's state, and the one place where output is written: a finished
//! block goes out line by line behind the prefixes of the containers (list items, quotes) it sits in,
//! with a blank line between blocks. The other files add to the paragraph being built (`inline`) and hand it here
//! when a block ends.

use crate::dom::Document;

/// What to include besides the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MarkdownOptions {
    /// Links as `[text](url)` (otherwise their text only).
    pub links: bool,
    /// Images as `![alt](src)` (otherwise left out).
    pub images: bool,
}

impl Default for MarkdownOptions {
    fn default() -> Self {
        MarkdownOptions { links: true, images: true }
    }
}

/// Quotes and list items nested deeper than this add no further prefix (their text is still written).
pub const MAX_NESTING: usize = 16;

#[derive(Debug)]
pub(super) struct Container {
    /// Written before the container's first line (a list marker, or `> `).
    pub(super) first: String,
    /// Written before every later line.
    rest: String,
    /// The first line is still to come.
    pending: bool,
}

pub(super) struct Writer<'d> {
    pub(super) doc: &'d Document,
    pub(super) base: Option<url::Url>,
    pub(super) opts: MarkdownOptions,
    out: String,
    pub(super) containers: Vec<Container>,
    /// Containers opened beyond `MAX_NESTING` (they push nothing).
    excess: usize,
    /// Ordered lists' next numbers (`None` for unordered), innermost last.
    pub(super) lists: Vec<Option<u32>>,
    /// The paragraph being built, already in Markdown.
    pub(super) inline: String,
    /// The last text written asked for a space before the next.
    pub(super) space: bool,
    /// A block was written in the current container: the next needs a blank line first.
    pub(super) sep: bool,
    /// Inside a heading or a table cell: blocks and line breaks become spaces.
    pub(super) flatten: u32,
    /// Inside a link (a link in a link would not parse).
    pub(super) in_link: u32,
    /// Length of the inline buffer right after an opening delimiter (no space may follow it).
    pub(super) opened_at: usize,
    /// The last code span: where it starts and ends in the inline buffer, and its text. A code span
    /// right after another would merge with it through their backticks, so the two become one.
    pub(super) last_code: Option<(usize, usize, String)>,
}

impl<'d> Writer<'d> {
    pub(super) fn new(doc: &'d Document, base: Option<url::Url>, opts: MarkdownOptions) -> Self {
        Writer {
            doc,
            base,
            opts,
            out: String::new(),
            containers: Vec::new(),
            excess: 0,
            lists: Vec::new(),
            inline: String::new(),
            space: false,
            sep: false,
            flatten: 0,
            in_link: 0,
            opened_at: usize::MAX,
            last_code: None,
        }
    }

    pub(super) fn finish(mut self) -> String {
        self.flush();
        let end = self.out.trim_end().len();
        self.out.truncate(end);
        self.out
    }

    /// A blank line before the next block when one was written before it in this container.
    pub(super) fn separate(&mut self) {
        if self.sep && !self.containers.iter().any(|c| c.pending) {
            let mut prefix = String::new();
            for c in &self.containers {
                prefix.push_str(&c.rest);
            }
            self.out.push_str(prefix.trim_end());
            self.out.push('\n');
        }
        self.sep = false;
    }

    /// Write a block of one or more lines with the containers' prefixes.
    pub(super) fn block(&mut self, text: &str) {
        self.separate();
        for line in text.split('\n') {
            for c in &mut self.containers {
                self.out.push_str(if c.pending { &c.first } else { &c.rest });
                c.pending = false;
            }
            self.out.push_str(line);
            // A prefix alone (an empty line in a code block) leaves no trailing space.
            let end = self.out.trim_end_matches(' ').len();
            self.out.truncate(end);
            self.out.push('\n');
        }
        self.sep = true;
    }

    /// Write the paragraph built so far.
    pub(super) fn flush(&mut self) {
        self.space = false;
        self.last_code = None;
        // A trailing hard break would escape the paragraph's end.
        while self.inline.ends_with("\\\n") || self.inline.ends_with(' ') {
            let cut = if self.inline.ends_with(' ') { 1 } else { 2 };
            self.inline.truncate(self.inline.len() - cut);
        }
        if self.inline.is_empty() {
            return;
        }
        let text = std::mem::take(&mut self.inline);
        self.block(&text);
    }

    /// At a block boundary: a paragraph ends (a space, inside headings and cells).
    pub(super) fn boundary(&mut self) {
        if self.flatten > 0 {
            self.space = !self.inline.is_empty();
        } else {
            self.flush();
        }
    }

    pub(super) fn push_container(&mut self, first: String) {
        if self.containers.len() >= MAX_NESTING {
            self.excess += 1;
            return;
        }
        let rest = if first.starts_with('>') { first.clone() } else { " ".repeat(first.len()) };
        self.containers.push(Container { first, rest, pending: true });
    }

    pub(super) fn pop_container(&mut self) {
        if self.excess > 0 {
            self.excess -= 1;
        } else {
            self.containers.pop();
        }
    }

    pub(super) fn at_line_start(&self) -> bool {
        self.inline.is_empty() || self.inline.ends_with('\n')
    }
}
