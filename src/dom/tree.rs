//! The parser's working tree: what html5ever builds before the arena copy.
//!
//! html5ever needs a mutable tree while it parses (the adoption agency and foster parenting move nodes
//! after they were inserted), so the preorder arena cannot be written directly. This tree is the
//! cheapest thing that satisfies the parser: one `Vec` of nodes linked by index, element names and
//! attributes moved in from the tokenizer untouched, text kept as the tokenizer's tendrils, comments
//! and processing instructions reduced to placeholders. It lives only for the length of one parse.

use std::borrow::Cow;
use std::cell::{Ref, RefCell};

use html5ever::TokenizerResult;
use html5ever::buffer_queue::BufferQueue;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{TokenSink, Tokenizer};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeSink};
use html5ever::{Attribute, LocalName, Namespace, QualName, ns};

use super::self_closed::EmptySelfClosed;

/// Index of a node in [`Tree::nodes`].
pub(crate) type Id = u32;
/// No node.
pub(crate) const NIL: Id = u32::MAX;
/// The document node is always the first.
pub(crate) const DOCUMENT: Id = 0;

/// An element's namespace: the parser makes elements in these four only (a byte instead of an 8-byte
/// atom keeps a node at 56 bytes instead of 80, with the attributes' exact-length slice below).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Ns {
    Html,
    Svg,
    MathMl,
    Other,
}

/// The namespaces [`Ns`] stands for, in its order.
static NAMESPACES: [Namespace; 4] = [ns!(html), ns!(svg), ns!(mathml), ns!()];

impl Ns {
    fn of(ns: &Namespace) -> Ns {
        match *ns {
            ns!(html) => Ns::Html,
            ns!(svg) => Ns::Svg,
            ns!(mathml) => Ns::MathMl,
            _ => Ns::Other,
        }
    }

    pub(crate) fn namespace(self) -> &'static Namespace {
        &NAMESPACES[self as usize]
    }
}

pub(crate) enum Data {
    Document,
    Element {
        local: LocalName,
        ns: Ns,
        /// As the tokenizer made them, at their exact length.
        attrs: Box<[Attribute]>,
        /// The separate fragment html5ever fills for `<template>` (never part of the page's text).
        template_contents: Id,
    },
    Text(StrTendril),
    /// Comments, processing instructions and template fragments: kept as nodes only because the
    /// parser may hand their handles back.
    Other,
}

pub(crate) struct TreeNode {
    pub parent: Id,
    pub first_child: Id,
    pub last_child: Id,
    pub prev_sibling: Id,
    pub next_sibling: Id,
    pub data: Data,
}

pub(crate) struct Tree {
    pub nodes: Vec<TreeNode>,
    /// Elements and text nodes that are not whitespace alone, counted as the parser makes them (a
    /// text merged into counts again): at least the nodes the arena copy can keep, so the arena is
    /// sized from it instead of from every node (whitespace between tags is a third to a half of a
    /// page's nodes, and the arena's room is reserved while this tree is alive, at the parse's peak).
    pub kept_bound: usize,
    /// The parser chose quirks mode (no or an old doctype): a browser must lay the page out the same way.
    pub quirks: bool,
    /// Answer to a name question about a non-element, which the parser promises never to ask.
    placeholder: LocalName,
}

impl Tree {
    fn new() -> Tree {
        Tree::with_capacity(256)
    }

    /// A tree for `html`, whose parse stops past `max_nodes` nodes, with room for all its nodes at once.
    ///
    /// Every element starts at a `<`, and every text node follows a tag or opens the page, so a page
    /// with `n` bytes `<` has at most `2n + 1` nodes besides the few the parser implies (`html`, `head`,
    /// `body`, a table's `tbody`, each also after a `<` or at the start). Sized so, the node list never
    /// grows: growing it doubled its memory at the peak on text-dense pages (a 411 KB GBK page's list
    /// grew from 1.4 MB to 2.7 MB, both alive during the copy), and an estimate from the page's length
    /// alone is wrong by a factor of two either way. Counting the `<` is a vector scan, a few
    /// microseconds for a large page; the room never written is never touched.
    fn for_page(html: &str, max_nodes: usize) -> Tree {
        let tags = memchr::memchr_iter(b'<', html.as_bytes()).count();
        Tree::with_capacity(tags.saturating_mul(2).saturating_add(8).clamp(256, max_nodes.saturating_add(2)))
    }

    fn with_capacity(nodes: usize) -> Tree {
        let mut t =
            Tree { nodes: Vec::with_capacity(nodes), kept_bound: 0, quirks: false, placeholder: LocalName::from("") };
        t.push(Data::Document);
        t
    }

    /// Bytes of text (each text node trimmed) in the subtree of `root`, template contents aside.
    /// Iterative, so depth costs no stack.
    pub(crate) fn text_len(&self, root: Id) -> usize {
        let mut total = 0;
        let mut id = root;
        while id != NIL {
            let n = &self.nodes[id as usize];
            if let Data::Text(s) = &n.data {
                total += s.trim().len();
            }
            id = if n.first_child != NIL { n.first_child } else { self.next_after(id, root, || {}) };
        }
        total
    }

    /// The node after `id`'s subtree in preorder, staying inside `root`'s subtree (`NIL` past its end):
    /// `id`'s next sibling, else that of the nearest ancestor below `root` that has one. `leave` is
    /// called once per ancestor climbed out of (below `root`), innermost first, so that a walk can close
    /// the elements it opened. Every preorder walk over this tree climbs here; parent links, not
    /// recursion, so depth costs no stack.
    pub(crate) fn next_after(&self, mut id: Id, root: Id, mut leave: impl FnMut()) -> Id {
        while id != root && id != NIL {
            let n = &self.nodes[id as usize];
            if n.next_sibling != NIL {
                return n.next_sibling;
            }
            id = n.parent;
            if id != root && id != NIL {
                leave();
            }
        }
        NIL
    }

    fn push(&mut self, data: Data) -> Id {
        let id = self.nodes.len() as Id;
        self.nodes.push(TreeNode {
            parent: NIL,
            first_child: NIL,
            last_child: NIL,
            prev_sibling: NIL,
            next_sibling: NIL,
            data,
        });
        id
    }

    fn detach(&mut self, id: Id) {
        let (parent, prev, next) = {
            let n = &self.nodes[id as usize];
            (n.parent, n.prev_sibling, n.next_sibling)
        };
        if parent == NIL {
            return;
        }
        self.join(parent, prev, next, next, prev);
        self.place(id, NIL, NIL, NIL);
    }

    /// Put the detached node `id` under `parent` between `prev` and `next` (`NIL` for an end of the
    /// child list).
    fn link(&mut self, id: Id, parent: Id, prev: Id, next: Id) {
        self.join(parent, prev, next, id, id);
        self.place(id, parent, prev, next);
    }

    /// In `parent`'s child list, make `after_prev` follow `prev` and `before_next` precede `next`
    /// (`NIL` for an end of the list, where the parent's first or last child changes instead): what
    /// taking a node out from between them (`next`, `prev`) and putting one in (`id`, `id`) both do.
    fn join(&mut self, parent: Id, prev: Id, next: Id, after_prev: Id, before_next: Id) {
        if prev == NIL {
            self.nodes[parent as usize].first_child = after_prev;
        } else {
            self.nodes[prev as usize].next_sibling = after_prev;
        }
        if next == NIL {
            self.nodes[parent as usize].last_child = before_next;
        } else {
            self.nodes[next as usize].prev_sibling = before_next;
        }
    }

    /// Node `id`'s own links.
    fn place(&mut self, id: Id, parent: Id, prev: Id, next: Id) {
        let n = &mut self.nodes[id as usize];
        n.parent = parent;
        n.prev_sibling = prev;
        n.next_sibling = next;
    }

    fn append_child(&mut self, parent: Id, id: Id) {
        self.detach(id);
        let last = self.nodes[parent as usize].last_child;
        self.link(id, parent, last, NIL);
    }

    fn insert_before(&mut self, sibling: Id, id: Id) {
        self.detach(id);
        let (parent, prev) = {
            let s = &self.nodes[sibling as usize];
            (s.parent, s.prev_sibling)
        };
        self.link(id, parent, prev, sibling);
    }

    /// Append text after `prev` (a sibling, or `NIL`), merging into it when it is text already.
    fn merge_text(&mut self, prev: Id, text: &StrTendril) -> bool {
        if prev == NIL {
            return false;
        }
        if let Data::Text(t) = &mut self.nodes[prev as usize].data {
            t.push_tendril(text);
            self.kept_bound += usize::from(!is_blank(text));
            return true;
        }
        false
    }

    /// A new text node.
    #[inline]
    fn push_text(&mut self, text: StrTendril) -> Id {
        self.kept_bound += usize::from(!is_blank(&text));
        self.push(Data::Text(text))
    }
}

/// Whether a text is spaces and control characters alone (the arena keeps no node for whitespace).
/// Treating the rare other control characters as blank too can only make the bound short, which costs
/// the arena one growth, never a node. Sixteen bytes at a time: whitespace between tags is most of a
/// page's text nodes, and a byte-by-byte test of them cost 0.7% of `auto`.
fn is_blank(text: &str) -> bool {
    let b = text.as_bytes();
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) if f > b' ' || l > b' ' => false,
        _ => b.chunks(16).all(|c| c.iter().fold(0u8, |m, &x| m.max(x)) <= b' '),
    }
}

/// html5ever's view of the tree under construction. Handles are node indexes.
pub(crate) struct Sink {
    tree: RefCell<Tree>,
}

/// An element's name borrowed from the tree (the parser only reads it).
#[derive(Debug)]
pub(crate) struct NameRef<'a> {
    local: Ref<'a, LocalName>,
    ns: &'static Namespace,
}

impl html5ever::tree_builder::ElemName for NameRef<'_> {
    fn ns(&self) -> &html5ever::Namespace {
        self.ns
    }
    fn local_name(&self) -> &LocalName {
        &self.local
    }
}

impl TreeSink for Sink {
    type Handle = Id;
    type Output = Tree;
    type ElemName<'a> = NameRef<'a>;

    fn finish(self) -> Tree {
        self.tree.into_inner()
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Id {
        DOCUMENT
    }

    fn elem_name<'a>(&'a self, target: &'a Id) -> NameRef<'a> {
        let mut ns = Ns::Other;
        let local = Ref::map(self.tree.borrow(), |t| match t.nodes.get(*target as usize).map(|n| &n.data) {
            Some(Data::Element { local, ns: of, .. }) => {
                ns = *of;
                local
            }
            _ => &t.placeholder,
        });
        NameRef { local, ns: ns.namespace() }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Id {
        let mut t = self.tree.borrow_mut();
        let template_contents = if flags.template { t.push(Data::Other) } else { NIL };
        let ns = Ns::of(&name.ns);
        t.kept_bound += 1;
        t.push(Data::Element { local: name.local, ns, attrs: attrs.into_boxed_slice(), template_contents })
    }

    fn create_comment(&self, _text: StrTendril) -> Id {
        self.tree.borrow_mut().push(Data::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Id {
        self.tree.borrow_mut().push(Data::Other)
    }

    fn append(&self, parent: &Id, child: NodeOrText<Id>) {
        let mut t = self.tree.borrow_mut();
        match child {
            NodeOrText::AppendNode(id) => t.append_child(*parent, id),
            NodeOrText::AppendText(text) => {
                let last = t.nodes[*parent as usize].last_child;
                if !t.merge_text(last, &text) {
                    let id = t.push_text(text);
                    t.append_child(*parent, id);
                }
            }
        }
    }

    fn append_based_on_parent_node(&self, element: &Id, prev_element: &Id, child: NodeOrText<Id>) {
        let has_parent = self.tree.borrow().nodes[*element as usize].parent != NIL;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _name: StrTendril, _public_id: StrTendril, _system_id: StrTendril) {}

    fn get_template_contents(&self, target: &Id) -> Id {
        let mut t = self.tree.borrow_mut();
        match t.nodes[*target as usize].data {
            Data::Element { template_contents, .. } if template_contents != NIL => template_contents,
            // Only templates are asked about; anything else gets a fresh detached fragment.
            _ => t.push(Data::Other),
        }
    }

    fn same_node(&self, x: &Id, y: &Id) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.tree.borrow_mut().quirks = mode == QuirksMode::Quirks;
    }

    fn append_before_sibling(&self, sibling: &Id, new_node: NodeOrText<Id>) {
        let mut t = self.tree.borrow_mut();
        if t.nodes[*sibling as usize].parent == NIL {
            return;
        }
        match new_node {
            NodeOrText::AppendNode(id) => t.insert_before(*sibling, id),
            NodeOrText::AppendText(text) => {
                let prev = t.nodes[*sibling as usize].prev_sibling;
                if !t.merge_text(prev, &text) {
                    let id = t.push_text(text);
                    t.insert_before(*sibling, id);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &Id, attrs: Vec<Attribute>) {
        let mut t = self.tree.borrow_mut();
        if let Data::Element { attrs: existing, .. } = &mut t.nodes[*target as usize].data {
            let mut all = std::mem::take(existing).into_vec();
            for a in attrs {
                if !all.iter().any(|e| e.name == a.name) {
                    all.push(a);
                }
            }
            *existing = all.into_boxed_slice();
        }
    }

    fn remove_from_parent(&self, target: &Id) {
        self.tree.borrow_mut().detach(*target);
    }

    fn reparent_children(&self, node: &Id, new_parent: &Id) {
        let mut t = self.tree.borrow_mut();
        let mut child = t.nodes[*node as usize].first_child;
        while child != NIL {
            let next = t.nodes[child as usize].next_sibling;
            t.append_child(*new_parent, child);
            child = next;
        }
    }
}

/// Parse a whole document held in one tendril (moved in, not copied), as a browser without
/// JavaScript does (see [`parse_options`]), or stop and return the node count once it passes
/// `max_nodes`. The tokens come from [`super::tokenizer`], the tree from html5ever's tree builder.
pub(crate) fn parse(html: StrTendril, max_nodes: usize) -> Result<Tree, usize> {
    let tree = Tree::for_page(&html, max_nodes);
    let builder =
        EmptySelfClosed { inner: TreeBuilder::new(Sink { tree: RefCell::new(tree) }, parse_options().tree_builder) };
    let mut nodes = 0;
    let mut over = || {
        nodes = builder.inner.sink.tree.borrow().nodes.len();
        nodes > max_nodes
    };
    if super::tokenizer::run(html, &builder, &mut over).is_err() {
        return Err(nodes);
    }
    Ok(builder.inner.sink.finish())
}

/// Bytes handed to html5ever's own tokenizer at a time by [`parse_with_html5ever`].
const CHUNK: usize = 32 * 1024;

/// The same parse with html5ever's own tokenizer in front of the tree builder: the reference the
/// tests hold [`parse`] to (`dom::tokenizers_agree`).
pub(crate) fn parse_with_html5ever(html: StrTendril, max_nodes: usize) -> Result<Tree, usize> {
    let tokenizer = html5ever_tokenizer(Sink { tree: RefCell::new(Tree::new()) });
    let input = BufferQueue::default();
    let mut at = 0;
    while at < html.len() {
        let mut end = (at + CHUNK).min(html.len());
        while !html.is_char_boundary(end) {
            end += 1;
        }
        input.push_back(html.subtendril(at as u32, (end - at) as u32));
        feed(&tokenizer, &input);
        at = end;
        let nodes = tokenizer.sink.inner.sink.tree.borrow().nodes.len();
        if nodes > max_nodes {
            return Err(nodes);
        }
    }
    tokenizer.end();
    Ok(tokenizer.sink.inner.sink.finish())
}

/// html5ever's own tokenizer in front of its tree builder over `sink`, self-closed elements read as
/// empty ([`EmptySelfClosed`]) as in every parse, with the settings of [`parse_options`].
pub(crate) fn html5ever_tokenizer<S: TreeSink>(sink: S) -> Tokenizer<EmptySelfClosed<TreeBuilder<S::Handle, S>>> {
    let options = parse_options();
    Tokenizer::new(EmptySelfClosed { inner: TreeBuilder::new(sink, options.tree_builder) }, options.tokenizer)
}

/// Feed `input` to `tokenizer` until it is used up (a script end asks the tokenizer to pause; pith
/// runs no scripts and reads on).
pub(crate) fn feed<S: TokenSink>(tokenizer: &Tokenizer<S>, input: &BufferQueue) {
    while !matches!(tokenizer.feed(input), TokenizerResult::Done) {}
}

/// The tree as text, one line per node in preorder (template contents after their element), every
/// element's name and attributes and every text in full: two parses built the same tree exactly when
/// their dumps are equal.
pub(crate) fn dump(t: &Tree) -> String {
    use std::fmt::Write;
    let mut out = format!("quirks {}\n", t.quirks);
    let mut roots = vec![DOCUMENT];
    while let Some(root) = roots.pop() {
        let mut depth = 0usize;
        let mut id = root;
        while id != NIL {
            let n = &t.nodes[id as usize];
            let pad = " ".repeat(depth);
            match &n.data {
                Data::Document => out.push_str("#document\n"),
                Data::Element { local, ns, attrs, template_contents } => {
                    let _ = write!(out, "{pad}<{:?} {}", ns.namespace(), local);
                    for a in attrs {
                        let _ = write!(out, " {:?}:{}={:?}", a.name.ns, a.name.local, &*a.value);
                    }
                    out.push_str(">\n");
                    if *template_contents != NIL {
                        roots.push(*template_contents);
                    }
                }
                Data::Text(s) => {
                    let _ = writeln!(out, "{pad}{:?}", &**s);
                }
                Data::Other => {
                    let _ = writeln!(out, "{pad}#other");
                }
            }
            if n.first_child != NIL {
                depth += 1;
                id = n.first_child;
            } else {
                id = t.next_after(id, root, || depth -= 1);
            }
        }
    }
    out
}

/// The parser settings of every parse: scripting off. pith runs no scripts, so it reads a page the way
/// a browser with JavaScript disabled shows it, and such a browser shows the markup inside
/// `<noscript>`; with scripting on, HTML parses that content as one opaque string. Some sites put
/// their whole page there for readers without scripts (forum software serving its crawler view, for
/// one), and nothing else of it in the HTML.
pub(crate) fn parse_options() -> html5ever::ParseOpts {
    html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts { scripting_enabled: false, ..Default::default() },
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(t: &Tree, parent: Id) -> Vec<String> {
        let mut out = Vec::new();
        let mut c = t.nodes[parent as usize].first_child;
        while c != NIL {
            out.push(match &t.nodes[c as usize].data {
                Data::Element { local, .. } => local.to_string(),
                Data::Text(s) => format!("'{s}'"),
                _ => "?".into(),
            });
            c = t.nodes[c as usize].next_sibling;
        }
        out
    }

    fn find(t: &Tree, local: &str) -> Id {
        t.nodes
            .iter()
            .position(|n| matches!(&n.data, Data::Element { local: l, .. } if &**l == local))
            .map_or(NIL, |i| i as Id)
    }

    #[test]
    fn a_node_takes_56_bytes() {
        // The tree holds every node of the page until the arena copy, the parse's peak: a node's size
        // is a share of every large page's memory (docs/PERFORMANCE.md).
        assert!(std::mem::size_of::<TreeNode>() <= 56, "{}", std::mem::size_of::<TreeNode>());
    }

    #[test]
    fn the_kept_bound_counts_elements_and_texts_not_blank() {
        let t = parse(StrTendril::from("<div>\n  <p>a</p>\n  <p> </p>x\t</div><table> <tr><td>b"), usize::MAX).unwrap();
        let elements = t.nodes.iter().filter(|n| matches!(n.data, Data::Element { .. })).count();
        let texts = t.nodes.iter().filter(|n| matches!(&n.data, Data::Text(s) if !s.trim().is_empty())).count();
        assert_eq!((elements, texts), (10, 3));
        assert_eq!(t.kept_bound, elements + texts);
    }

    #[test]
    fn builds_document_and_merges_text() {
        let t = parse(StrTendril::from("<p>a<!-- c -->b</p><p>c&amp;d</p>"), usize::MAX).unwrap();
        let body = find(&t, "body");
        assert_eq!(names(&t, body), ["p", "p"]);
        let p = t.nodes[body as usize].first_child;
        assert_eq!(names(&t, p), ["'a'", "?", "'b'"]);
        let p2 = t.nodes[p as usize].next_sibling;
        assert_eq!(names(&t, p2), ["'c&d'"]);
    }

    #[test]
    fn misnested_and_foster_parented_markup() {
        // The adoption agency moves nodes after insertion; foster parenting inserts before a table.
        let t = parse(StrTendril::from("<b>1<p>2</b>3</p><table>x<tr><td>y</td></tr></table>"), usize::MAX).unwrap();
        let body = find(&t, "body");
        assert_eq!(names(&t, body), ["b", "p", "'x'", "table"]);
        let p = find(&t, "p");
        assert_eq!(names(&t, p), ["b", "'3'"]);
    }

    #[test]
    fn the_climb_leaves_ancestors_innermost_first_and_stays_inside_its_root() {
        let t = parse(StrTendril::from("<div><p><b>x</b></p></div><span>y</span>"), usize::MAX).unwrap();
        let (div, b, span) = (find(&t, "div"), find(&t, "b"), find(&t, "span"));
        let x = t.nodes[b as usize].first_child;
        // From the text inside <b>: out of <b>, <p> and <div>, to the <span> after it.
        let mut left = 0;
        assert_eq!(t.next_after(x, DOCUMENT, || left += 1), span);
        assert_eq!(left, 3);
        // Inside <div>'s subtree the walk ends at <div>: climbed out of <b> and <p> only.
        left = 0;
        assert_eq!(t.next_after(x, div, || left += 1), NIL);
        assert_eq!(left, 2);
        assert_eq!(t.next_after(div, div, || left += 1), NIL);
        assert_eq!(left, 2);
        // The last node of the page: out of everything but the document.
        let y = t.nodes[span as usize].first_child;
        left = 0;
        assert_eq!(t.next_after(y, DOCUMENT, || left += 1), NIL);
        assert_eq!(left, 3);
        // Deep nesting climbs without recursion, and the text length walk uses the same climb.
        let n = 100_000;
        let deep = format!("<body>{}x{}<i>yz</i>", "<span>".repeat(n), "</span>".repeat(n));
        let t = parse(StrTendril::from(deep.as_str()), usize::MAX).unwrap();
        assert_eq!(t.text_len(DOCUMENT), 3);
    }

    #[test]
    fn chunked_input_gives_the_whole_parse_and_the_budget_stops_it() {
        // Chunk boundaries inside tags, entities and multi-byte characters.
        let unit = "<p class=\"a b\">中文 text &amp; <b>bold</b> &#x4e2d;<a href=/x>l</a></p><table>x<tr><td>y";
        let page: String = (0..2000).map(|i| format!("{unit}{i}")).collect();
        assert!(page.len() > 3 * CHUNK);
        use html5ever::tendril::TendrilSink;
        let whole = html5ever::parse_document(Sink { tree: RefCell::new(Tree::new()) }, parse_options())
            .one(StrTendril::from(page.as_str()));
        let chunked = parse_with_html5ever(StrTendril::from(page.as_str()), usize::MAX).unwrap();
        let shape = |t: &Tree| -> Vec<String> {
            (0..t.nodes.len() as Id)
                .filter(|&i| t.nodes[i as usize].first_child != NIL)
                .flat_map(|i| names(t, i))
                .collect()
        };
        assert_eq!(shape(&whole), shape(&chunked));
        let n = whole.nodes.len();
        assert!(parse(StrTendril::from(page.as_str()), n).is_ok());
        assert!(parse(StrTendril::from(page.as_str()), n / 2).is_err_and(|got| got > n / 2 && got < n));
    }
}
