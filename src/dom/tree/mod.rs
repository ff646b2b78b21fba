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

use super::self_closed::{EmptySelfClosed, builder_closes};

use crate::text::prestrip::MAX_ATTRIBUTES;

mod release;

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
    /// Ancestors when the node was last put in place (the document's children have 1). Nodes moved
    /// with a subtree keep theirs: it is read only to find elements opened too deep (see
    /// [`Tree::too_deep`]), where an estimate serves.
    pub depth: u32,
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
    /// Elements put in place with more ancestors than this are opened too deep (see
    /// [`Tree::too_deep`]).
    max_depth: u32,
    /// The element created last, until it is first put in place.
    fresh: Id,
    /// The element created last, when it was first put in place too deep (else `NIL`).
    deep: Id,
}

impl Tree {
    fn new() -> Tree {
        Tree::with_capacity(256, u32::MAX)
    }

    /// A tree for `html`, whose parse stops past `max_nodes` nodes, with room for all its nodes at once
    /// ([`node_estimate`]). Sized so, the node list rarely grows: growing it doubled its memory at the
    /// peak (a 411 KB GBK page's list grew from 1.4 MB to 2.7 MB, both alive during the copy).
    fn for_page(html: &str, max_nodes: usize, max_depth: u32) -> Tree {
        Tree::with_capacity(node_estimate(html.as_bytes()).clamp(256, max_nodes.saturating_add(2)), max_depth)
    }

    fn with_capacity(nodes: usize, max_depth: u32) -> Tree {
        let mut t = Tree {
            nodes: Vec::with_capacity(nodes),
            kept_bound: 0,
            quirks: false,
            placeholder: LocalName::from(""),
            max_depth,
            fresh: NIL,
            deep: NIL,
        };
        t.push(Data::Document);
        t
    }

    /// Whether the element the start tag `name` just made was put in place too deep, in which case it
    /// is taken out of the tree (with whatever it holds moved up into its place) and the caller closes
    /// it. Void elements, foreign self-closing ones and self-closed HTML ones (`super::self_closed`)
    /// are closed already and never count; nor does an element made under another name (`<image>` makes an `img`, a misnested
    /// `<a>` makes copies of other formatting elements first).
    ///
    /// Why: the tree builder looks through its stack of open elements on most start tags (is a `<p>`
    /// open in button scope, a list item in list scope), so a page of 100,000 nested `<div>`s costs it
    /// time in the square of its depth (about 20 s), and a page of unclosed `<li><dt><dd>`, each
    /// opened inside the last, costs it a walk down the whole stack for every tag. Flattening past
    /// [`Tree::max_depth`] keeps that walk bounded: the parse is given the arena's own limit
    /// ([`super::DomLimits::max_depth`], 512, as in Blink's parser), past which the arena would
    /// flatten the elements anyway. No real page nests anywhere near it. The text is all kept.
    fn too_deep(&mut self, name: &LocalName, self_closing: bool) -> bool {
        let id = std::mem::replace(&mut self.deep, NIL);
        if id == NIL {
            return false;
        }
        let Data::Element { local, ns, .. } = &self.nodes[id as usize].data else { return false };
        if local != name || self_closing || (*ns == Ns::Html && builder_closes(local)) {
            return false;
        }
        // Its content (none is expected: it was just opened) goes where it was.
        let mut child = self.nodes[id as usize].first_child;
        while child != NIL {
            let next = self.nodes[child as usize].next_sibling;
            self.insert_before(id, child);
            child = next;
        }
        self.detach(id);
        true
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
            depth: 0,
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
        let depth = if parent == NIL { 0 } else { self.nodes[parent as usize].depth.saturating_add(1) };
        let n = &mut self.nodes[id as usize];
        n.parent = parent;
        n.prev_sibling = prev;
        n.next_sibling = next;
        n.depth = depth;
        if id == self.fresh && parent != NIL {
            self.fresh = NIL;
            if depth > self.max_depth {
                self.deep = id;
            }
        }
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
        let id = t.push(Data::Element { local: name.local, ns, attrs: attrs.into_boxed_slice(), template_contents });
        t.fresh = id;
        // `deep` names the element made last or none: one made too deep by a start tag the tokenizer
        // did not ask about (a raw text element's) must not be taken for a later namesake.
        t.deep = NIL;
        id
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
                // Capped as a start tag's are (see `MAX_ATTRIBUTES`): each repeated `<body>` or
                // `<html>` tag may add one, and the check before each is a look through all of them,
                // so a page of 100,000 such tags cost 20 s.
                if all.len() < MAX_ATTRIBUTES && !all.iter().any(|e| e.name == a.name) {
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

/// The parse's watch over its tree: the node budget and the depth.
struct Parse<'a> {
    builder: &'a TreeBuilder<Id, Sink>,
    max_nodes: usize,
    nodes: usize,
}

impl super::tokenizer::Watch for Parse<'_> {
    fn over_budget(&mut self) -> bool {
        self.nodes = self.builder.sink.tree.borrow().nodes.len();
        self.nodes > self.max_nodes
    }

    fn too_deep(&mut self, name: &LocalName, self_closing: bool) -> bool {
        self.builder.sink.tree.borrow_mut().too_deep(name, self_closing)
    }
}

/// How many nodes the parse of `html` makes, from one scan of its `<` bytes: every `<` but an end
/// tag's may open an element, a comment or a doctype, and a text node ends at every `<` that does not
/// follow a `>` (whitespace between tags is a text node too). Nodes the parser implies (`html`, `head`,
/// `body`, a table's `tbody`, formatting elements it reopens) come on top: an eighth more covers them.
/// Over the fifteen developer sets (3,738 pages of 200 such `<` or more) the parse made 0.997 of the
/// bare count at the median and 1.04 at the 99th percentile, and none outgrew the estimate; the earlier
/// bound, twice the `<` count, was 56% written at the median of 40 large pages, and the room never
/// written counts at the extraction's peak.
fn node_estimate(html: &[u8]) -> usize {
    let mut count = 0usize;
    for at in memchr::memchr_iter(b'<', html) {
        let ends_text = at > 0 && html[at - 1] != b'>';
        let end_tag = html.get(at + 1) == Some(&b'/') && html.get(at + 2).is_some_and(u8::is_ascii_alphabetic);
        count += usize::from(ends_text) + usize::from(!end_tag);
    }
    count + count / 8 + 16
}

/// Parse a whole document held in one tendril (moved in, not copied), as a browser without
/// JavaScript does (see [`parse_options`]), or stop and return the node count once it passes
/// `max_nodes`. Elements opened with more than `max_depth` ancestors are flattened (see
/// [`Tree::too_deep`]). The tokens come from [`super::tokenizer`], the tree from html5ever's tree
/// builder (self-closed elements read as empty, [`EmptySelfClosed`]).
pub(crate) fn parse(html: StrTendril, max_nodes: usize, max_depth: u32) -> Result<Tree, usize> {
    let tree = Tree::for_page(&html, max_nodes, max_depth);
    let builder =
        EmptySelfClosed { inner: TreeBuilder::new(Sink { tree: RefCell::new(tree) }, parse_options().tree_builder) };
    let mut watch = Parse { builder: &builder.inner, max_nodes, nodes: 0 };
    if super::tokenizer::run(html, &builder, &mut watch).is_err() {
        return Err(watch.nodes);
    }
    let mut tree = builder.inner.sink.finish();
    tree.release_page();
    Ok(tree)
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
        let t =
            parse(StrTendril::from("<div>\n  <p>a</p>\n  <p> </p>x\t</div><table> <tr><td>b"), usize::MAX, u32::MAX)
                .unwrap();
        let elements = t.nodes.iter().filter(|n| matches!(n.data, Data::Element { .. })).count();
        let texts = t.nodes.iter().filter(|n| matches!(&n.data, Data::Text(s) if !s.trim().is_empty())).count();
        assert_eq!((elements, texts), (10, 3));
        assert_eq!(t.kept_bound, elements + texts);
    }

    #[test]
    fn the_node_estimate_holds_the_fixture_pages_without_much_room_to_spare() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pages");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let html = std::fs::read_to_string(&path).unwrap();
            let estimate = node_estimate(html.as_bytes());
            let nodes = parse(StrTendril::from(html), usize::MAX, u32::MAX).unwrap().nodes.len();
            assert!(nodes <= estimate && estimate <= nodes + nodes / 3 + 16, "{path:?}: {nodes} nodes, {estimate}");
        }
        // Implied elements and text between tags counted; end tags open nothing.
        let html = "<table><tr><td>a</td><td>b</td></tr></table>\n<p>x &lt; y</p><!-- c -->";
        let nodes = parse(StrTendril::from(html), usize::MAX, u32::MAX).unwrap().nodes.len();
        assert!(nodes <= node_estimate(html.as_bytes()));
    }

    #[test]
    fn builds_document_and_merges_text() {
        let t = parse(StrTendril::from("<p>a<!-- c -->b</p><p>c&amp;d</p>"), usize::MAX, u32::MAX).unwrap();
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
        let t = parse(StrTendril::from("<b>1<p>2</b>3</p><table>x<tr><td>y</td></tr></table>"), usize::MAX, u32::MAX)
            .unwrap();
        let body = find(&t, "body");
        assert_eq!(names(&t, body), ["b", "p", "'x'", "table"]);
        let p = find(&t, "p");
        assert_eq!(names(&t, p), ["b", "'3'"]);
    }

    #[test]
    fn the_climb_leaves_ancestors_innermost_first_and_stays_inside_its_root() {
        let t = parse(StrTendril::from("<div><p><b>x</b></p></div><span>y</span>"), usize::MAX, u32::MAX).unwrap();
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
        let t = parse(StrTendril::from(deep.as_str()), usize::MAX, u32::MAX).unwrap();
        assert_eq!(t.text_len(DOCUMENT), 3);
    }

    /// The deepest element in the tree (ancestors counted from the document), and all its text.
    fn depth_and_text(t: &Tree) -> (usize, String) {
        let (mut depth, mut deepest, mut text) = (0usize, 0usize, String::new());
        let mut id = t.nodes[DOCUMENT as usize].first_child;
        depth += 1;
        while id != NIL {
            let n = &t.nodes[id as usize];
            match &n.data {
                Data::Element { .. } => deepest = deepest.max(depth),
                Data::Text(s) => text.push_str(s),
                _ => {}
            }
            if n.first_child != NIL {
                depth += 1;
                id = n.first_child;
            } else {
                id = t.next_after(id, DOCUMENT, || depth -= 1);
            }
        }
        (deepest, text)
    }

    #[test]
    fn attributes_merged_into_the_body_are_capped() {
        // Each repeated `<body>` adds its attributes to the one body element, up to the cap.
        let page: String = (0..MAX_ATTRIBUTES + 100).map(|i| format!("<body a{i}=v b=w>")).collect();
        let t = parse(StrTendril::from(page.as_str()), usize::MAX, u32::MAX).unwrap();
        let Data::Element { attrs, .. } = &t.nodes[find(&t, "body") as usize].data else { unreachable!() };
        assert_eq!(attrs.len(), MAX_ATTRIBUTES);
        let names: Vec<&str> = attrs.iter().map(|a| &*a.name.local).collect();
        assert_eq!(names[..3], ["a0", "b", "a1"]);
        assert_eq!(names[MAX_ATTRIBUTES - 1], format!("a{}", MAX_ATTRIBUTES - 2));
    }

    #[test]
    fn elements_opened_too_deep_are_flattened_with_their_text_kept() {
        for unit in [
            "<div>",
            "<p>",
            "<b>",
            "<span><em>",
            "<a href=x>",
            "<ul><li>",
            "<dl><dd>",
            "<table><tr><td>",
            "<select><option>",
            "<button>",
            "<h2>",
            "<form>",
            "<svg><g>",
            "<math><mi>",
            "<div/>",
            "<template>",
            "<object>",
            "<nobr>",
        ] {
            let page = format!("<body>{}<p>end</p>", (0..3000).map(|i| format!("{unit}{i} ")).collect::<String>());
            let full = parse(StrTendril::from(page.as_str()), usize::MAX, u32::MAX).unwrap();
            let flat = parse(StrTendril::from(page.as_str()), usize::MAX, 100).unwrap();
            let (deep, all) = depth_and_text(&full);
            let (shallow, kept) = depth_and_text(&flat);
            // Units that close (or, `<form>`, ignore) their predecessors nest no deeper, nor do empty
            // self-closed ones; templates nest in their contents, which the walk does not enter.
            let closes = [
                "<p>",
                "<a href=x>",
                "<select><option>",
                "<button>",
                "<h2>",
                "<form>",
                "<nobr>",
                "<template>",
                "<div/>",
            ]
            .contains(&unit);
            assert_eq!(deep > 1000, !closes, "{unit}: {deep}");
            // Past the limit by at most what the tree builder adds on its own (`tbody`).
            assert!(shallow <= 102, "{unit}: {shallow}");
            // Template contents are a fragment of their own; everything else is the page's text.
            if !unit.contains("template") {
                assert_eq!(kept, all, "{unit}");
            }
        }
        // Closed, the flattened elements' end tags are dropped: what follows is where it was.
        let page = format!("<body>{}x{}<p>after</p>", "<div>".repeat(300), "</div>".repeat(300));
        let t = parse(StrTendril::from(page.as_str()), usize::MAX, 100).unwrap();
        let (p, body) = (find(&t, "p"), find(&t, "body"));
        assert_eq!(t.nodes[p as usize].parent, body);
        // Below the limit the tree is the standard's.
        let page = "<div><b>1<p>2</b>3</p><table>x<tr><td>y</td></tr></table></div>".repeat(20);
        let a = parse(StrTendril::from(page.as_str()), usize::MAX, 100).unwrap();
        let b = parse(StrTendril::from(page.as_str()), usize::MAX, u32::MAX).unwrap();
        assert_eq!(dump(&a), dump(&b));
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
        assert!(parse(StrTendril::from(page.as_str()), n, u32::MAX).is_ok());
        assert!(parse(StrTendril::from(page.as_str()), n / 2, u32::MAX).is_err_and(|got| got > n / 2 && got < n));
    }
}
