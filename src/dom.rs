//! Stage 3: the parsed page as a flat arena in document order, with every node's statistics.
//!
//! html5ever (through scraper) parses; we then copy the tree once into a `Vec<Node>` numbered in
//! preorder, so that a node's subtree is the id range `id..node.end`, a parent always has a smaller id
//! than its children, and the bottom-up statistics pass is one reverse loop: no recursion, so a page of
//! 100,000 nested `<div>`s cannot overflow the stack. Every algorithm reads these numbers; none re-parses.

use html5ever::LocalName;
use scraper::Html;

/// Index of a node in [`Document::nodes`].
pub type NodeId = u32;
/// "No node" for parent/sibling links.
pub const NONE: NodeId = u32::MAX;

/// Tags the algorithms treat specially. Everything else is `Other` (its name is still kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    Html,
    Head,
    Title,
    Body,
    Div,
    P,
    A,
    Table,
    Tbody,
    Thead,
    Tfoot,
    Tr,
    Td,
    Th,
    Ul,
    Ol,
    Li,
    Dl,
    Dt,
    Dd,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Section,
    Article,
    Main,
    Aside,
    Nav,
    Header,
    Footer,
    Span,
    Br,
    Hr,
    Img,
    Pre,
    Code,
    Blockquote,
    Figure,
    Figcaption,
    Form,
    Label,
    Meta,
    Center,
    Font,
    Caption,
    Address,
    Details,
    Summary,
    Time,
    Other,
}

impl Tag {
    fn from_name(name: &str) -> Tag {
        use Tag::*;
        match name {
            "html" => Html,
            "head" => Head,
            "title" => Title,
            "body" => Body,
            "div" => Div,
            "p" => P,
            "a" => A,
            "table" => Table,
            "tbody" => Tbody,
            "thead" => Thead,
            "tfoot" => Tfoot,
            "tr" => Tr,
            "td" => Td,
            "th" => Th,
            "ul" => Ul,
            "ol" => Ol,
            "li" => Li,
            "dl" => Dl,
            "dt" => Dt,
            "dd" => Dd,
            "h1" => H1,
            "h2" => H2,
            "h3" => H3,
            "h4" => H4,
            "h5" => H5,
            "h6" => H6,
            "section" => Section,
            "article" => Article,
            "main" => Main,
            "aside" => Aside,
            "nav" => Nav,
            "header" => Header,
            "footer" => Footer,
            "span" => Span,
            "br" => Br,
            "hr" => Hr,
            "img" => Img,
            "pre" => Pre,
            "code" => Code,
            "blockquote" => Blockquote,
            "figure" => Figure,
            "figcaption" => Figcaption,
            "form" => Form,
            "label" => Label,
            "meta" => Meta,
            "center" => Center,
            "font" => Font,
            "caption" => Caption,
            "address" => Address,
            "details" => Details,
            "summary" => Summary,
            "time" => Time,
            _ => Other,
        }
    }

    /// Elements that start a new line of text when rendered (and that make up "blocks").
    pub fn is_block(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Html | Body
                | Div
                | P
                | Table
                | Tbody
                | Thead
                | Tfoot
                | Tr
                | Ul
                | Ol
                | Li
                | Dl
                | Dt
                | Dd
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Section
                | Article
                | Main
                | Aside
                | Nav
                | Header
                | Footer
                | Br
                | Hr
                | Pre
                | Blockquote
                | Figure
                | Figcaption
                | Form
                | Center
                | Caption
                | Address
                | Details
                | Summary
        )
    }

    pub fn is_heading(self) -> bool {
        matches!(self, Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
    }

    /// Void elements have no end tag in the source.
    fn is_void(name: &str) -> bool {
        matches!(
            name,
            "area"
                | "base"
                | "br"
                | "col"
                | "embed"
                | "hr"
                | "img"
                | "input"
                | "link"
                | "meta"
                | "source"
                | "track"
                | "wbr"
        )
    }
}

/// Elements whose content is never page text. Pre-strip removes them; the DOM stage skips any that remain.
fn is_ignored(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "noscript"
            | "template"
            | "iframe"
            | "object"
            | "embed"
            | "svg"
            | "canvas"
            | "input"
            | "select"
            | "textarea"
            | "button"
            | "option"
            | "datalist"
            | "math"
            | "head"
    )
}

/// Counts over a node's subtree (the node included). Characters are Unicode scalar values after
/// whitespace folding, as seed 004's worked example counts them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Characters of text (folded, trimmed per text node).
    pub chars: u32,
    /// Element descendants, the node itself excluded (seed 004: T of a leaf tag is 0, then set to 1).
    pub tags: u32,
    /// Characters of text inside `<a>` elements.
    pub link_chars: u32,
    /// `<a>` elements, the node itself included.
    pub link_tags: u32,
    /// Punctuation characters, ASCII and CJK full-width.
    pub punct: u32,
    /// `<p>` elements, the node itself included.
    pub p_count: u32,
    /// Characters of text as in the source (whitespace kept): seed 001's text length l_t.
    pub raw_chars: u32,
    /// Raw characters inside `<a>`.
    pub raw_link_chars: u32,
    /// Characters of markup (start and end tags with their kept attributes): l_s = raw_chars + markup.
    pub markup: u32,
    /// Non-empty text nodes.
    pub text_nodes: u32,
    /// Non-empty text nodes inside links.
    pub link_text_nodes: u32,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.chars += o.chars;
        self.link_chars += o.link_chars;
        self.link_tags += o.link_tags;
        self.punct += o.punct;
        self.p_count += o.p_count;
        self.raw_chars += o.raw_chars;
        self.raw_link_chars += o.raw_link_chars;
        self.markup += o.markup;
        self.text_nodes += o.text_nodes;
        self.link_text_nodes += o.link_text_nodes;
    }

    /// Characters not inside links.
    pub fn non_link_chars(&self) -> u32 {
        self.chars.saturating_sub(self.link_chars)
    }

    /// Seed 001's source length l_s.
    pub fn source_len(&self) -> u32 {
        self.raw_chars + self.markup
    }
}

/// An element's data.
#[derive(Debug, Clone)]
pub struct Element {
    pub tag: Tag,
    pub name: LocalName,
    /// 1-based position among element siblings of the same name (for XPath).
    pub xpath_index: u32,
    pub href: Option<Box<str>>,
    pub src: Option<Box<str>>,
    pub alt: Option<Box<str>>,
    /// `id` and `class` joined and lower-cased, for heuristics that look at names like "comment" or "nav".
    pub id_class: Option<Box<str>>,
}

/// What a node is.
#[derive(Debug, Clone)]
pub enum NodeData {
    Element(Element),
    /// Folded text, as a byte range into [`Document::text_buf`].
    Text {
        start: u32,
        len: u32,
        space_before: bool,
        space_after: bool,
    },
}

/// One node of the arena.
#[derive(Debug, Clone)]
pub struct Node {
    pub parent: NodeId,
    pub first_child: NodeId,
    pub next_sibling: NodeId,
    /// One past the last descendant: the subtree is `id..end`.
    pub end: NodeId,
    pub depth: u32,
    /// True when the node is an `<a>` or inside one.
    pub in_link: bool,
    pub data: NodeData,
    pub stats: Stats,
}

impl Node {
    pub fn element(&self) -> Option<&Element> {
        match &self.data {
            NodeData::Element(e) => Some(e),
            NodeData::Text { .. } => None,
        }
    }

    pub fn tag(&self) -> Option<Tag> {
        self.element().map(|e| e.tag)
    }

    pub fn is_text(&self) -> bool {
        matches!(self.data, NodeData::Text { .. })
    }
}

/// Limits that keep hostile pages bounded.
#[derive(Debug, Clone, Copy)]
pub struct DomLimits {
    /// Elements deeper than this are flattened into their ancestor at the limit (their text is kept).
    pub max_depth: u32,
    /// Nodes beyond this count are dropped (their text is lost); real pages stay far below it.
    pub max_nodes: usize,
}

impl Default for DomLimits {
    fn default() -> Self {
        DomLimits { max_depth: 512, max_nodes: 4_000_000 }
    }
}

/// The page: nodes in preorder, their text, and page-level facts.
#[derive(Debug, Clone)]
pub struct Document {
    pub nodes: Vec<Node>,
    text_buf: String,
    pub body: NodeId,
    pub title: Option<String>,
    pub lang: Option<String>,
    /// True when a limit cut the tree.
    pub truncated: bool,
}

/// Punctuation counted by seed 000's feature and by the statistics: ASCII and CJK full-width marks.
pub fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(
            c,
            '，' | '。'
                | '、'
                | '；'
                | '：'
                | '？'
                | '！'
                | '“'
                | '”'
                | '‘'
                | '’'
                | '《'
                | '》'
                | '「'
                | '」'
                | '『'
                | '』'
                | '（'
                | '）'
                | '【'
                | '】'
                | '…'
                | '—'
                | '．'
                | '·'
        )
}

impl Document {
    /// Parse HTML (already pre-stripped) and compute every node's statistics.
    pub fn parse(html: &str) -> Document {
        Self::parse_with(html, DomLimits::default(), &|_| false)
    }

    /// Parse with limits and a predicate that drops elements (and their subtrees), used by site templates
    /// to remove noise before anything is measured.
    pub fn parse_with(html: &str, limits: DomLimits, drop: &dyn Fn(ego_tree::NodeId) -> bool) -> Document {
        let parsed = Html::parse_document(html);
        Self::from_html(&parsed, limits, drop, &[]).0
    }

    /// Copy a scraper tree into the arena. `drop` is asked about every element; the arena ids of the
    /// elements listed in `watch` are returned (site templates select their content this way).
    pub fn from_html(
        parsed: &Html,
        limits: DomLimits,
        drop: &dyn Fn(ego_tree::NodeId) -> bool,
        watch: &[ego_tree::NodeId],
    ) -> (Document, Vec<NodeId>) {
        let mut b = Builder::new(limits);
        let watched = b.build(parsed, drop, watch);
        (b.finish(), watched)
    }

    /// Folded text of a text node (empty for elements).
    pub fn text(&self, id: NodeId) -> &str {
        match self.nodes[id as usize].data {
            NodeData::Text { start, len, .. } => &self.text_buf[start as usize..(start + len) as usize],
            NodeData::Element(_) => "",
        }
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Element children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Walk<'_> {
        Walk { doc: self, next: self.nodes[id as usize].first_child, step: |n| n.next_sibling }
    }

    /// True when `anc` is `id` or one of its ancestors.
    pub fn contains(&self, anc: NodeId, id: NodeId) -> bool {
        anc <= id && id < self.nodes[anc as usize].end
    }

    /// Ancestors of `id`, nearest first, `id` excluded.
    pub fn ancestors(&self, id: NodeId) -> Walk<'_> {
        Walk { doc: self, next: self.nodes[id as usize].parent, step: |n| n.parent }
    }

    /// The element's XPath from the root, e.g. `/html/body/div[2]/p`. Indexes are written where a
    /// same-name sibling exists.
    pub fn xpath(&self, id: NodeId) -> String {
        use std::fmt::Write;
        // Ancestors first (root at the end), then written root-first into one buffer: no per-step string.
        let mut chain: Vec<NodeId> = Vec::with_capacity(self.nodes[id as usize].depth as usize + 1);
        let mut cur = id;
        while cur != NONE {
            chain.push(cur);
            cur = self.nodes[cur as usize].parent;
        }
        let mut s = String::with_capacity(chain.len() * 6);
        for &c in chain.iter().rev() {
            s.push('/');
            match self.nodes[c as usize].element() {
                Some(e) => {
                    s.push_str(&e.name);
                    let idx = e.xpath_index;
                    if idx > 1 || self.has_later_namesake(c) {
                        let _ = write!(s, "[{idx}]");
                    }
                }
                None => s.push_str("text()"),
            }
        }
        s
    }

    fn has_later_namesake(&self, id: NodeId) -> bool {
        let Some(e) = self.nodes[id as usize].element() else { return false };
        let mut sib = self.nodes[id as usize].next_sibling;
        while sib != NONE {
            if let Some(o) = self.nodes[sib as usize].element()
                && o.name == e.name
            {
                return true;
            }
            sib = self.nodes[sib as usize].next_sibling;
        }
        false
    }

    /// Text-node ids in `id`'s subtree, in document order.
    pub fn text_nodes(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        (id..self.nodes[id as usize].end).filter(|&i| self.nodes[i as usize].is_text())
    }

    /// All the folded text under `id`, text nodes joined by single spaces where the source had space.
    pub fn subtree_text(&self, id: NodeId) -> String {
        let mut out = String::new();
        for t in self.text_nodes(id) {
            if let NodeData::Text { space_before, .. } = self.nodes[t as usize].data
                && space_before
                && !out.is_empty()
                && !out.ends_with(' ')
            {
                out.push(' ');
            }
            out.push_str(self.text(t));
            if let NodeData::Text { space_after: true, .. } = self.nodes[t as usize].data {
                out.push(' ');
            }
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out
    }
}

/// Iterator following one link (next sibling, or parent) from node to node until `NONE`.
pub struct Walk<'a> {
    doc: &'a Document,
    next: NodeId,
    step: fn(&Node) -> NodeId,
}

impl Iterator for Walk<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = (self.step)(&self.doc.nodes[id as usize]);
        Some(id)
    }
}

/// Per open element while copying: its id, its last child so far, and same-name child counts for XPath.
struct Frame {
    id: NodeId,
    last_child: NodeId,
    /// Where this element's child-name counts start in [`Builder::names`].
    names_start: usize,
}

struct Builder {
    limits: DomLimits,
    nodes: Vec<Node>,
    text_buf: String,
    stack: Vec<Frame>,
    /// Same-name child counts of every open element, stacked (one shared buffer instead of a `Vec` per
    /// element): the open element's children's counts are `names[top.names_start..]`.
    names: Vec<(LocalName, u32)>,
    title: Option<String>,
    lang: Option<String>,
    body: NodeId,
    truncated: bool,
}

impl Builder {
    fn new(limits: DomLimits) -> Self {
        Builder {
            limits,
            nodes: Vec::new(),
            text_buf: String::new(),
            stack: Vec::new(),
            names: Vec::new(),
            title: None,
            lang: None,
            body: NONE,
            truncated: false,
        }
    }

    fn build(
        &mut self,
        parsed: &Html,
        drop: &dyn Fn(ego_tree::NodeId) -> bool,
        watch: &[ego_tree::NodeId],
    ) -> Vec<NodeId> {
        let mut watched = Vec::new();
        use ego_tree::iter::Edge;
        // Depth of skipped subtrees (ignored elements, dropped by a template); each Close of such an
        // element decrements it. Elements flattened by a limit need no counter: `actions` remembers them.
        let mut skip_depth = 0usize;
        // Per open scraper element: what we did with it, so Close can undo it.
        #[derive(Clone, Copy, PartialEq)]
        enum Action {
            Pushed,
            Skipped,
            Flattened,
        }
        let mut actions: Vec<Action> = Vec::new();
        for edge in parsed.tree.root().traverse() {
            match edge {
                Edge::Open(node) => match node.value() {
                    scraper::Node::Element(el) => {
                        let name = el.name();
                        if skip_depth > 0 || is_ignored(name) || drop(node.id()) {
                            if name == "head" && skip_depth == 0 {
                                self.read_head(node);
                            }
                            skip_depth += 1;
                            actions.push(Action::Skipped);
                        } else if self.stack.len() as u32 >= self.limits.max_depth
                            || self.nodes.len() >= self.limits.max_nodes
                        {
                            self.truncated = true;
                            actions.push(Action::Flattened);
                        } else {
                            if watch.contains(&node.id()) {
                                watched.push(self.nodes.len() as NodeId);
                            }
                            self.open_element(el);
                            actions.push(Action::Pushed);
                        }
                    }
                    scraper::Node::Text(t) if skip_depth == 0 => {
                        if self.nodes.len() >= self.limits.max_nodes {
                            self.truncated = true;
                        } else {
                            self.add_text(&t.text);
                        }
                    }
                    _ => {}
                },
                Edge::Close(node) => {
                    if let scraper::Node::Element(_) = node.value() {
                        match actions.pop() {
                            Some(Action::Pushed) => self.close_element(),
                            Some(Action::Skipped) => skip_depth -= 1,
                            Some(Action::Flattened) | None => {}
                        }
                    }
                }
            }
        }
        while !self.stack.is_empty() {
            self.close_element();
        }
        watched
    }

    fn read_head(&mut self, head: ego_tree::NodeRef<'_, scraper::Node>) {
        for d in head.descendants() {
            if let scraper::Node::Element(el) = d.value()
                && el.name() == "title"
                && self.title.is_none()
            {
                let t: String = d.children().filter_map(|c| c.value().as_text().map(|t| t.text.to_string())).collect();
                let t = fold_ws(&t);
                if !t.is_empty() {
                    self.title = Some(t);
                }
            }
        }
    }

    fn link(&mut self, id: NodeId) {
        if let Some(top) = self.stack.last_mut() {
            let parent = top.id;
            if top.last_child == NONE {
                self.nodes[parent as usize].first_child = id;
            } else {
                self.nodes[top.last_child as usize].next_sibling = id;
            }
            top.last_child = id;
            self.nodes[id as usize].parent = parent;
        }
    }

    fn open_element(&mut self, el: &scraper::node::Element) {
        let name = el.name.local.clone();
        let tag = Tag::from_name(&name);
        let id = self.nodes.len() as NodeId;
        let xpath_index = match self.stack.last() {
            Some(top) => match self.names[top.names_start..].iter_mut().find(|(n, _)| *n == name) {
                Some((_, c)) => {
                    *c += 1;
                    *c
                }
                None => {
                    self.names.push((name.clone(), 1));
                    1
                }
            },
            None => 1,
        };
        let in_link = tag == Tag::A || self.stack.last().is_some_and(|f| self.nodes[f.id as usize].in_link);
        let mut href = None;
        let mut src = None;
        let mut alt = None;
        let mut id_class = String::new();
        // Seed 001 removes id, class and style before measuring; the markup that remains is counted.
        let mut markup = 2 + name.len() as u32;
        if !Tag::is_void(&name) {
            markup += 3 + name.len() as u32;
        }
        for (k, v) in el.attrs() {
            match k {
                "id" | "class" => {
                    if !id_class.is_empty() {
                        id_class.push(' ');
                    }
                    id_class.extend(v.chars().map(|c| c.to_ascii_lowercase()));
                    continue;
                }
                "style" => continue,
                "href" => href = Some(v.into()),
                "src" => src = Some(v.into()),
                "alt" => alt = Some(v.into()),
                "lang" if tag == Tag::Html => self.lang = Some(v.trim().to_string()),
                _ => {}
            }
            markup += 4 + k.len() as u32 + v.chars().count() as u32;
        }
        if tag == Tag::Body && self.body == NONE {
            self.body = id;
        }
        let stats = Stats {
            link_tags: u32::from(tag == Tag::A),
            p_count: u32::from(tag == Tag::P),
            markup,
            ..Stats::default()
        };
        self.nodes.push(Node {
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            end: id + 1,
            depth: self.stack.len() as u32,
            in_link,
            data: NodeData::Element(Element {
                tag,
                name,
                xpath_index,
                href,
                src,
                alt,
                id_class: (!id_class.is_empty()).then(|| id_class.into_boxed_str()),
            }),
            stats,
        });
        self.link(id);
        self.stack.push(Frame { id, last_child: NONE, names_start: self.names.len() });
    }

    fn close_element(&mut self) {
        if let Some(f) = self.stack.pop() {
            self.names.truncate(f.names_start);
            self.nodes[f.id as usize].end = self.nodes.len() as NodeId;
        }
    }

    fn add_text(&mut self, raw: &str) {
        let Some(top) = self.stack.last() else { return };
        let parent = top.id;
        let raw_chars = raw.chars().count() as u32;
        let in_link = self.nodes[parent as usize].in_link;
        let start = self.text_buf.len();
        let mut chars = 0u32;
        let mut punct = 0u32;
        let mut pending_space = false;
        let space_before = raw.starts_with(|c: char| c.is_whitespace());
        for c in raw.chars() {
            if c.is_whitespace() {
                pending_space = true;
                continue;
            }
            if pending_space && self.text_buf.len() > start {
                self.text_buf.push(' ');
                chars += 1;
            }
            pending_space = false;
            self.text_buf.push(c);
            chars += 1;
            if is_punct(c) {
                punct += 1;
            }
        }
        let len = self.text_buf.len() - start;
        if len == 0 {
            // Whitespace only: no node, but the source length still counts it.
            self.nodes[parent as usize].stats.raw_chars += raw_chars;
            if in_link {
                self.nodes[parent as usize].stats.raw_link_chars += raw_chars;
            }
            // Let the previous text node know a space followed it.
            if top.last_child != NONE
                && let NodeData::Text { space_after, .. } = &mut self.nodes[top.last_child as usize].data
            {
                *space_after = true;
            }
            return;
        }
        let id = self.nodes.len() as NodeId;
        let stats = Stats {
            chars,
            link_chars: if in_link { chars } else { 0 },
            punct,
            raw_chars,
            raw_link_chars: if in_link { raw_chars } else { 0 },
            text_nodes: 1,
            link_text_nodes: u32::from(in_link),
            ..Stats::default()
        };
        self.nodes.push(Node {
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            end: id + 1,
            depth: self.stack.len() as u32,
            in_link,
            data: NodeData::Text { start: start as u32, len: len as u32, space_before, space_after: pending_space },
            stats,
        });
        self.link(id);
    }

    fn finish(mut self) -> Document {
        // Bottom-up: children have larger ids than their parent, so one reverse sweep sums subtrees.
        for i in (1..self.nodes.len()).rev() {
            let parent = self.nodes[i].parent;
            if parent == NONE {
                continue;
            }
            let child = self.nodes[i].stats;
            let is_el = !self.nodes[i].is_text();
            let p = &mut self.nodes[parent as usize].stats;
            p.add(&child);
            if is_el {
                p.tags += 1 + child.tags;
            }
        }
        if self.body == NONE {
            // html5ever always makes a body; an empty arena (nothing but ignored content) gets a bare one.
            if self.nodes.is_empty() {
                self.nodes.push(Node {
                    parent: NONE,
                    first_child: NONE,
                    next_sibling: NONE,
                    end: 1,
                    depth: 0,
                    in_link: false,
                    data: NodeData::Element(Element {
                        tag: Tag::Body,
                        name: LocalName::from("body"),
                        xpath_index: 1,
                        href: None,
                        src: None,
                        alt: None,
                        id_class: None,
                    }),
                    stats: Stats::default(),
                });
            }
            self.body = 0;
        }
        Document {
            nodes: self.nodes,
            text_buf: self.text_buf,
            body: self.body,
            title: self.title,
            lang: self.lang.filter(|l| !l.is_empty()),
            truncated: self.truncated,
        }
    }
}

/// Fold whitespace runs to one space and trim.
pub fn fold_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(doc: &Document, pred: impl Fn(&Element) -> bool) -> NodeId {
        (0..doc.len() as NodeId).find(|&i| doc.node(i).element().is_some_and(&pred)).expect("node present")
    }

    #[test]
    fn preorder_ranges_and_stats() {
        let doc = Document::parse("<body><div id=x><p>Hello, world.</p><a href=/a>link</a></div></body>");
        let div = find(&doc, |e| e.id_class.as_deref() == Some("x"));
        let s = doc.node(div).stats;
        assert_eq!(s.chars, 13 + 4);
        assert_eq!(s.link_chars, 4);
        assert_eq!(s.tags, 2);
        assert_eq!(s.link_tags, 1);
        assert_eq!(s.p_count, 1);
        assert_eq!(s.punct, 2);
        let p = find(&doc, |e| e.tag == Tag::P);
        assert!(doc.contains(div, p));
        assert!(!doc.contains(p, div));
        assert_eq!(doc.xpath(p), "/html/body/div/p");
    }

    #[test]
    fn xpath_indexes_namesakes() {
        let doc = Document::parse("<body><div>a</div><div><p>b</p></div></body>");
        let p = find(&doc, |e| e.tag == Tag::P);
        assert_eq!(doc.xpath(p), "/html/body/div[2]/p");
        let first = find(&doc, |e| e.tag == Tag::Div);
        assert_eq!(doc.xpath(first), "/html/body/div[1]");
    }

    #[test]
    fn cjk_punctuation_counts() {
        let doc = Document::parse("<body><p>农民培训，技术推广。“好”</p></body>");
        let p = find(&doc, |e| e.tag == Tag::P);
        assert_eq!(doc.node(p).stats.punct, 4);
        assert_eq!(doc.node(p).stats.chars, 13);
    }

    #[test]
    fn title_and_lang() {
        let doc = Document::parse("<html lang=zh-CN><head><title> A  page </title></head><body>x</body></html>");
        assert_eq!(doc.title.as_deref(), Some("A page"));
        assert_eq!(doc.lang.as_deref(), Some("zh-CN"));
    }

    #[test]
    fn subtree_text_keeps_word_spaces() {
        let doc = Document::parse("<body><p>one <b>two</b> three<a>four</a></p></body>");
        let p = find(&doc, |e| e.tag == Tag::P);
        assert_eq!(doc.subtree_text(p), "one two three four".replace(" four", "four"));
    }
}
