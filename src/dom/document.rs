//! The parsed page: the arena of nodes in preorder ([`Document`]), each node's data and subtree
//! statistics, and the limits its construction works under ([`DomLimits`]). Building one is `build`'s.

use html5ever::LocalName;

use super::Tag;

/// Index of a node in [`Document::nodes`].
pub type NodeId = u32;
/// "No node" for parent/sibling links.
pub const NONE: NodeId = u32::MAX;

/// Counts over a node's subtree (the node included). Characters are Unicode scalar values after
/// whitespace folding, as the worked example of Sun, Song & Liao's text-density paper counts them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Characters of text (folded, trimmed per text node).
    pub chars: u32,
    /// Element descendants, the node itself excluded (Sun, Song & Liao: T of a leaf tag is 0, then set to 1).
    pub tags: u32,
    /// Characters of text inside `<a>` elements.
    pub link_chars: u32,
    /// `<a>` elements, the node itself included.
    pub link_tags: u32,
    /// Punctuation characters, ASCII and CJK full-width.
    pub punct: u32,
    /// `<p>` elements, the node itself included.
    pub p_count: u32,
    /// Characters of text as in the source (whitespace kept): l_t in Lv et al.'s P value.
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
    pub(crate) fn add(&mut self, o: &Stats) {
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

    /// The source length l_s of Lv et al.'s P value.
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
    /// True when a sibling element has the same name (the XPath then writes the index).
    pub has_namesake: bool,
    /// `id` and `class` joined and lower-cased, for heuristics that look at names like "comment" or "nav".
    pub id_class: Option<Box<str>>,
    /// `href`, `src` and `alt`, boxed together: few elements carry them, and inline they made every
    /// node of the arena (text nodes too) 48 bytes larger.
    pub(crate) refs: Option<Box<Refs>>,
}

/// The attributes kept for output.
#[derive(Debug, Clone, Default)]
pub(crate) struct Refs {
    pub href: Option<Box<str>>,
    pub src: Option<Box<str>>,
    pub alt: Option<Box<str>>,
}

impl Element {
    pub fn href(&self) -> Option<&str> {
        self.refs.as_ref().and_then(|r| r.href.as_deref())
    }
    pub fn src(&self) -> Option<&str> {
        self.refs.as_ref().and_then(|r| r.src.as_deref())
    }
    pub fn alt(&self) -> Option<&str> {
        self.refs.as_ref().and_then(|r| r.alt.as_deref())
    }
}

/// What a node is.
#[derive(Debug, Clone)]
pub enum NodeData {
    Element(Element),
    /// Folded text, as a byte range into the document's text buffer ([`Document::text`] reads it).
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
    /// Ancestors in the arena. Two bytes: the arena is flattened at [`DomLimits::max_depth`] (512 by
    /// default; a larger setting past 65,535 reads as 65,535 here), and with four the node took 112
    /// bytes instead of 104, one in thirteen of the arena at the extraction's peak.
    pub depth: u16,
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

    /// The next sibling that is an element (text siblings skipped).
    pub fn next_sibling_element(&self, doc: &Document) -> Option<NodeId> {
        let mut s = self.next_sibling;
        while s != NONE {
            if !doc.node(s).is_text() {
                return Some(s);
            }
            s = doc.node(s).next_sibling;
        }
        None
    }
}

/// Limits that keep hostile pages bounded.
#[derive(Debug, Clone, Copy)]
pub struct DomLimits {
    /// Elements deeper than this are flattened into their ancestor at the limit (their text is kept).
    pub max_depth: u32,
    /// The work budget, with [`DomLimits::bytes_per_node`]: a page of `n` bytes whose parse tree
    /// passes `max_nodes + n / bytes_per_node` nodes (elements, text, comments) is refused with
    /// [`crate::error::Error::TooComplex`] as soon as the parser gets there. Elements cost the parser, the
    /// arena and `auto` a few hundred bytes each, and four bytes of `<p>` make one, so a budget in
    /// nodes per byte is what keeps memory and time per MB of input bounded. Real pages are far below
    /// it: the densest large page of three thousand in the evaluation sets has one element per 128
    /// bytes (with its text, about one node per 64), and the floor covers any small page (the largest
    /// real one has 16,000 elements). The defaults, 120,000 nodes and one more per 24 bytes, keep every
    /// class of `pith adversarial` from 0.1 to 8 MB under 40 MB + 16 × its input of peak memory (a
    /// node held by the tree builder, the arena and `auto` together is about 280 bytes at the peak);
    /// at 200,000 and one per 16, pages of `<br>` lines and of elements fostered out of a table
    /// passed it between 1 and 2 MB.
    pub max_nodes: usize,
    /// Input bytes that earn the budget one more node.
    pub bytes_per_node: usize,
}

impl Default for DomLimits {
    fn default() -> Self {
        DomLimits { max_depth: 512, max_nodes: 120_000, bytes_per_node: 24 }
    }
}

impl DomLimits {
    /// No work budget: the tools' and tests' parse of pages they trust.
    pub const UNBOUNDED: DomLimits = DomLimits { max_depth: 512, max_nodes: usize::MAX, bytes_per_node: 1 };

    /// The nodes a page of `bytes` bytes may have.
    pub fn node_budget(&self, bytes: usize) -> usize {
        self.max_nodes.saturating_add(bytes / self.bytes_per_node.max(1))
    }

    /// These limits with the budget of a page of `bytes` bytes as a fixed count (what the arena copy
    /// is cut at).
    pub fn for_page(&self, bytes: usize) -> DomLimits {
        DomLimits { max_nodes: self.node_budget(bytes), bytes_per_node: usize::MAX, ..*self }
    }
}

/// The page: nodes in preorder, their text, and page-level facts.
#[derive(Debug, Clone)]
pub struct Document {
    pub nodes: Vec<Node>,
    pub(super) text_buf: String,
    pub body: NodeId,
    pub title: Option<String>,
    pub lang: Option<String>,
    /// True when a limit cut the tree.
    pub truncated: bool,
    /// Form controls in the body and head (buttons, text areas, inputs other than hidden ones): the
    /// arena keeps none of them, a shop's, a service page's or a forum's pages have many.
    pub form_controls: u32,
    /// Text nodes inside `<pre>` with their text as written (line breaks and indentation kept), in id
    /// order. The statistics read folded text like every other node's; only renderers of code want this.
    pub(super) preformatted: Vec<(NodeId, Box<str>)>,
}

impl Document {
    /// Folded text of a text node (empty for elements).
    pub fn text(&self, id: NodeId) -> &str {
        match self.nodes[id as usize].data {
            NodeData::Text { start, len, .. } => &self.text_buf[start as usize..(start + len) as usize],
            NodeData::Element(_) => "",
        }
    }

    /// A text node's text as written when it lies inside `<pre>` (line breaks and indentation kept, the
    /// whitespace between highlighted tokens included), its folded text otherwise.
    pub fn raw_text(&self, id: NodeId) -> &str {
        match self.preformatted.binary_search_by_key(&id, |(i, _)| *i) {
            Ok(k) => &self.preformatted[k].1,
            Err(_) => self.text(id),
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

    /// Children of `id` in order, text nodes included (filter with [`Node::is_text`] for elements only).
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
                    if e.has_namesake {
                        let _ = write!(s, "[{}]", e.xpath_index);
                    }
                }
                None => s.push_str("text()"),
            }
        }
        s
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

    /// The arena is the largest share of a page's peak memory: its node must not grow unnoticed.
    #[test]
    fn a_node_takes_104_bytes() {
        assert!(std::mem::size_of::<Node>() <= 104, "{}", std::mem::size_of::<Node>());
    }

    #[test]
    fn custom_elements_with_an_href_are_links() {
        let doc = Document::parse(
            "<body><div id=x><menu-item href=/a>Guitars</menu-item><menu-item>Basses</menu-item>\
             <span href=/b>Drums</span></div></body>",
        );
        let s = doc.node(find(&doc, |e| e.id_class.as_deref() == Some("x"))).stats;
        // Only the custom element with an `href`: a plain element's `href` means nothing to a browser.
        assert_eq!((s.link_chars, s.link_tags), (7, 1));
    }

    #[test]
    fn xpath_indexes_namesakes() {
        let doc = Document::parse("<body><div>a</div><div><p>b</p></div></body>");
        let p = find(&doc, |e| e.tag == Tag::P);
        assert_eq!(doc.xpath(p), "/html/body/div[2]/p");
        let first = find(&doc, |e| e.tag == Tag::Div);
        assert_eq!(doc.xpath(first), "/html/body/div[1]");
        // Past the few names counted in line, the rest are counted by parent: same answers.
        let many: String = (0..40).map(|i| format!("<x-{i}>{i}</x-{i}>")).collect();
        let doc = Document::parse(&format!("<body>{many}<x-35>a</x-35><x-39>b</x-39><x-3>c</x-3><x-0>d</x-0></body>"));
        let paths: Vec<String> =
            (0..doc.len() as NodeId).filter(|&i| !doc.node(i).is_text()).map(|i| doc.xpath(i)).collect();
        for (name, want) in [("x-35", "[1]"), ("x-39", "[2]"), ("x-3", "[2]"), ("x-0", "[2]"), ("x-1", "")] {
            assert!(paths.contains(&format!("/html/body/{name}{want}")), "{name}{want} in {paths:?}");
        }
        assert!(paths.contains(&"/html/body/x-35[2]".to_string()));
        assert!(!paths.contains(&"/html/body/x-1[1]".to_string()));
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
