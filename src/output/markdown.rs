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
//! prefixes past [`MAX_NESTING`], so hostile nesting costs time in proportion to the input only.

use crate::dom::{Document, NodeData, NodeId, Tag};

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

/// A table is written as a GitHub table only up to this many cells; larger ones as blocks.
const MAX_TABLE_CELLS: usize = 10_000;

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

#[derive(Debug)]
struct Container {
    /// Written before the container's first line (a list marker, or `> `).
    first: String,
    /// Written before every later line.
    rest: String,
    /// The first line is still to come.
    pending: bool,
}

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

struct Writer<'d> {
    doc: &'d Document,
    base: Option<url::Url>,
    opts: MarkdownOptions,
    out: String,
    containers: Vec<Container>,
    /// Containers opened beyond `MAX_NESTING` (they push nothing).
    excess: usize,
    /// Ordered lists' next numbers (`None` for unordered), innermost last.
    lists: Vec<Option<u32>>,
    /// The paragraph being built, already in Markdown.
    inline: String,
    /// The last text written asked for a space before the next.
    space: bool,
    /// A block was written in the current container: the next needs a blank line first.
    sep: bool,
    /// Inside a heading or a table cell: blocks and line breaks become spaces.
    flatten: u32,
    /// Inside a link (a link in a link would not parse).
    in_link: u32,
    /// Length of the inline buffer right after an opening delimiter (no space may follow it).
    opened_at: usize,
    /// The last code span: where it starts and ends in the inline buffer, and its text. A code span
    /// right after another would merge with it through their backticks, so the two become one.
    last_code: Option<(usize, usize, String)>,
}

impl<'d> Writer<'d> {
    fn new(doc: &'d Document, base: Option<url::Url>, opts: MarkdownOptions) -> Self {
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

    fn finish(mut self) -> String {
        self.flush();
        let end = self.out.trim_end().len();
        self.out.truncate(end);
        self.out
    }

    /// A blank line before the next block when one was written before it in this container.
    fn separate(&mut self) {
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
    fn block(&mut self, text: &str) {
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
    fn flush(&mut self) {
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
    fn boundary(&mut self) {
        if self.flatten > 0 {
            self.space = !self.inline.is_empty();
        } else {
            self.flush();
        }
    }

    fn push_container(&mut self, first: String) {
        if self.containers.len() >= MAX_NESTING {
            self.excess += 1;
            return;
        }
        let rest = if first.starts_with('>') { first.clone() } else { " ".repeat(first.len()) };
        self.containers.push(Container { first, rest, pending: true });
    }

    fn pop_container(&mut self) {
        if self.excess > 0 {
            self.excess -= 1;
        } else {
            self.containers.pop();
        }
    }

    fn at_line_start(&self) -> bool {
        self.inline.is_empty() || self.inline.ends_with('\n')
    }

    fn text(&mut self, id: NodeId) {
        let NodeData::Text { space_before, space_after, .. } = self.doc.node(id).data else { return };
        if (space_before || self.space)
            && !self.inline.is_empty()
            && !self.inline.ends_with([' ', '\n'])
            && self.inline.len() != self.opened_at
        {
            self.inline.push(' ');
        }
        let text = self.doc.text(id);
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
    fn pending_space(&mut self) {
        if self.space && !self.inline.is_empty() && !self.inline.ends_with([' ', '\n']) {
            self.inline.push(' ');
        }
        self.space = false;
    }

    /// An inline construct about to open: a space the source had before its first text goes before
    /// the opening delimiter, not after it.
    fn space_before_inside(&mut self, id: NodeId) {
        if let Some(t) = self.doc.text_nodes(id).next()
            && let NodeData::Text { space_before: true, .. } = self.doc.node(t).data
        {
            self.space = true;
        }
    }

    fn resolve(&self, link: &str) -> String {
        let abs = match self.base.as_ref().and_then(|b| b.join(link).ok()) {
            Some(u) => u.to_string(),
            None => link.trim().to_string(),
        };
        let mut out = String::with_capacity(abs.len());
        for c in abs.chars() {
            match c {
                ' ' => out.push_str("%20"),
                '(' | ')' | '\\' | '<' | '>' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() => {}
                c => out.push(c),
            }
        }
        out
    }

    /// Does the element hold a block element (which a link or emphasis could not span)?
    fn has_block(&self, id: NodeId) -> bool {
        (id + 1..self.doc.node(id).end).any(|i| self.doc.node(i).tag().is_some_and(|t| t.is_block() && t != Tag::Br))
    }

    /// Emphasis cannot span blocks, nor directly follow another delimiter run, and it must open and
    /// close at a word character: not at a link's bracket or a code span's backtick (checked again
    /// when it closes, on what was written).
    fn can_emphasise(&self, id: NodeId) -> bool {
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

    /// Walk one subtree, writing blocks as they end.
    fn walk(&mut self, root: NodeId) {
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

    fn image(&mut self, id: NodeId) {
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
    fn code_span(&mut self, id: NodeId) {
        let text = self.doc.subtree_text(id);
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

    /// `<pre>`: a fenced code block of its text as written.
    fn code_block(&mut self, id: NodeId) {
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
    fn code_text(&mut self, pre: NodeId, code: &str) {
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

    /// A data table as a GitHub table; returns false (and writes nothing) for a layout table, whose
    /// cells are then walked as blocks.
    fn table(&mut self, id: NodeId) -> bool {
        let doc = self.doc;
        let end = doc.node(id).end;
        for i in id + 1..end {
            if let Some(t) = doc.node(i).tag()
                && (matches!(t, Tag::Table | Tag::Pre | Tag::Ul | Tag::Ol | Tag::Dl | Tag::Blockquote | Tag::Hr)
                    || t.is_heading())
            {
                return false;
            }
        }
        // Rows of this table only: `tr` children of the table or of its row groups.
        let mut rows: Vec<Vec<NodeId>> = Vec::new();
        let mut caption = None;
        for c in doc.children(id) {
            match doc.node(c).tag() {
                Some(Tag::Tr) => rows.push(cells(doc, c)),
                Some(Tag::Thead | Tag::Tbody | Tag::Tfoot) => {
                    rows.extend(doc.children(c).filter(|&r| doc.node(r).tag() == Some(Tag::Tr)).map(|r| cells(doc, r)))
                }
                Some(Tag::Caption) => caption = Some(c),
                _ => {}
            }
        }
        rows.retain(|r| !r.is_empty());
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        if cols < 2 || rows.len() * cols > MAX_TABLE_CELLS {
            return false;
        }
        // Text outside the rows (stray text in a table) would be lost.
        let in_cells: u32 = rows.iter().flatten().map(|&c| doc.node(c).stats.chars).sum();
        let in_caption = caption.map_or(0, |c| doc.node(c).stats.chars);
        if in_cells + in_caption != doc.node(id).stats.chars {
            return false;
        }
        self.flush();
        // The caption where the page has it, so the Markdown reads in the order of `content.text`: a
        // `<caption>` written after the rows is parsed there (HTML moves it into the table, after them).
        let caption_first = caption.filter(|&c| rows.first().and_then(|r| r.first()).is_none_or(|&cell| cell > c));
        if let Some(c) = caption_first {
            self.walk(c);
            self.flush();
        }
        let mut text = String::new();
        for (r, row) in rows.iter().enumerate() {
            text.push('|');
            for k in 0..cols {
                let cell = row.get(k).map(|&c| self.cell(c)).unwrap_or_default();
                text.push(' ');
                text.push_str(&cell);
                text.push_str(" |");
            }
            text.push('\n');
            if r == 0 {
                text.push('|');
                text.push_str(&" --- |".repeat(cols));
                text.push('\n');
            }
        }
        text.pop();
        self.block(&text);
        if let Some(c) = caption.filter(|_| caption_first.is_none()) {
            self.flush();
            self.walk(c);
            self.flush();
        }
        true
    }

    /// One table cell's content on one line.
    fn cell(&mut self, id: NodeId) -> String {
        let saved = std::mem::take(&mut self.inline);
        let saved_space = std::mem::replace(&mut self.space, false);
        let saved_code = self.last_code.take();
        self.flatten += 1;
        // The cell element itself would be a boundary: walk its children.
        let mut c = self.doc.node(id).first_child;
        while c != crate::dom::NONE {
            self.walk(c);
            c = self.doc.node(c).next_sibling;
        }
        self.flatten -= 1;
        let cell = std::mem::replace(&mut self.inline, saved);
        self.space = saved_space;
        self.last_code = saved_code;
        cell.trim().to_string()
    }

    /// Chosen inline nodes of one block, written as that block's kind.
    fn inline_group(&mut self, blk: NodeId, nodes: &[NodeId]) {
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

/// The text of code as written, with a line break where a block element (a line of a highlighted
/// listing, often) starts, as `content.text` has it.
fn code_of(doc: &Document, roots: &[NodeId]) -> String {
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
                None => code.push_str(doc.raw_text(i)),
            }
        }
    }
    code
}

fn pre_ancestor(doc: &Document, id: NodeId) -> Option<NodeId> {
    doc.ancestors(id).find(|&a| doc.node(a).tag() == Some(Tag::Pre))
}

fn cells(doc: &Document, row: NodeId) -> Vec<NodeId> {
    doc.children(row).filter(|&c| matches!(doc.node(c).tag(), Some(Tag::Td | Tag::Th))).collect()
}

fn block_ancestor(doc: &Document, id: NodeId) -> NodeId {
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

fn is_script(href: &str) -> bool {
    let h = href.trim_start().as_bytes();
    h.len() >= 11 && h[..11].eq_ignore_ascii_case(b"javascript:")
}

/// A code language from class names: `language-rust`, `lang-rust`.
fn language(id_class: &str) -> Option<&str> {
    id_class.split_ascii_whitespace().find_map(|c| {
        let l = c.strip_prefix("language-").or_else(|| c.strip_prefix("lang-"))?;
        (!l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '#' | '_' | '.')))
            .then_some(l)
    })
}

fn longest_run(s: &str, ch: char) -> usize {
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

fn escape_hashes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_backslash = false;
    for c in s.chars() {
        if c == '#' && !prev_backslash {
            out.push('\\');
        }
        prev_backslash = c == '\\' && !prev_backslash;
        out.push(c);
    }
    out
}

/// Text escaped for the middle of a line, escaped again for the start of one (`None`: nothing to add).
fn escape_line_start(s: &str) -> Option<String> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if s.starts_with(['#', '-', '+', '=']) {
        Some(format!("\\{s}"))
    } else if digits > 0 && digits <= 9 && matches!(s.as_bytes().get(digits), Some(b'.' | b')')) {
        Some(format!("{}\\{}", &s[..digits], &s[digits..]))
    } else {
        None
    }
}

/// Append folded text with every character that Markdown could read as syntax escaped. `line_start`:
/// the text begins a line, where `#`, `-`, `+`, `=` and `1.` would start a block.
pub fn escape_text(s: &str, out: &mut String, line_start: bool) {
    let mut chars = s.char_indices();
    if line_start {
        let first = s.chars().next();
        match first {
            Some('#' | '-' | '+' | '=') => {
                out.push('\\');
            }
            Some(c) if c.is_ascii_digit() => {
                // `1.` or `1)` after up to nine digits starts an ordered list.
                let digits = s.bytes().take_while(u8::is_ascii_digit).count();
                if digits <= 9 && matches!(s.as_bytes().get(digits), Some(b'.' | b')')) {
                    out.push_str(&s[..digits]);
                    out.push('\\');
                    for _ in 0..digits {
                        chars.next();
                    }
                }
            }
            _ => {}
        }
    }
    for (i, c) in chars {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '&' => {
                // Only before what could be read as an entity.
                if s[i + 1..].starts_with(|n: char| n.is_ascii_alphanumeric() || n == '#') {
                    out.push('\\');
                }
                out.push('&');
            }
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
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
