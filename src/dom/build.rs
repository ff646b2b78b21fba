//! The arena copy: one walk over a parsed tree that numbers nodes in preorder, folds whitespace,
//! counts characters and punctuation, and then sums every statistic bottom-up in one reverse loop.
//!
//! Two trees can be walked: the parser's own working tree (the normal path, see `tree`) and a scraper
//! document (used when a site template's CSS selectors must run on the page first). Both walks feed
//! the same three calls, `open`, `text` and `close_element`, so both give the same arena.
//!
//! Elements that never hold page text (see `hidden`) are skipped here, subtree and all. Pre-strip
//! removes the bulkiest of them by name before the parse; attributes are checked here, where the
//! parser has already split them out, instead of in a second lexer.

use html5ever::LocalName;
use scraper::Html;

use super::text::{Folded, fold_into};
use super::tree::{self, Data, Tree};
use super::{Document, DomLimits, Element, NONE, Node, NodeData, NodeId, Refs, Stats, Tag, fold_ws};
use crate::text::hidden::{is_ignored, is_streamed_segment, style_hides};

/// The document title is cut to this many bytes of source text.
const MAX_TITLE_BYTES: usize = 1024;

/// Per open element while copying: its id, its last child so far, and same-name child counts for XPath.
#[derive(Clone, Copy)]
struct Frame {
    id: NodeId,
    last_child: NodeId,
    /// Where this element's child-name counts start in [`Builder::names`].
    names_start: usize,
}

/// Distinct child names an open element counts in [`Builder::names`] before the rest go to
/// [`Builder::more_names`]: a linear search is the fastest for the few names real elements have, and
/// a page of a hundred thousand differently named siblings must not make every one search them all.
const FEW_NAMES: usize = 16;

/// The most visible text (bytes) a page may keep and still count as hidden by its inline styles
/// ([`Builder::hid_the_page`]).
const SHOWN_MAX: usize = 512;
/// The least text (bytes) inline styles must hide for the page to count as hidden.
const HIDDEN_MIN: usize = 1000;

/// How many children of one name an element has so far, and the first of them (marked as having a
/// namesake when the second arrives).
#[derive(Clone, Copy)]
struct NameCount {
    count: u32,
    first: NodeId,
}

/// What `open` did with an element, so that its close can undo it.
#[derive(Clone, Copy, PartialEq)]
enum Action {
    /// A new arena node, now the open element.
    Pushed,
    /// Not copied, nor anything inside it.
    Skipped,
    /// Skipped for its inline style. The parser-tree walk records these, to read the page again
    /// without style hiding when they hid nearly all of it ([`Builder::hid_the_page`]); the scraper
    /// walk (site rules) has no second reading and skips them like any other.
    StyleHidden,
    /// Past a limit: the tag is dropped, its content goes to the nearest kept ancestor.
    Flattened,
}

impl Action {
    /// The element is left out with its subtree.
    fn skips(self) -> bool {
        matches!(self, Action::Skipped | Action::StyleHidden)
    }
}

/// At most this many `aria-controls` ids are remembered per page: a bound on what a hostile page can
/// make the build hold, far above the few dozen disclosures of a long FAQ.
const MAX_DISCLOSED: usize = 4096;

/// How many wrappers deep a disclosed element may sit ([`climb_wrappers`]).
const WRAPPER_LEVELS: usize = 2;

/// Mark the ancestors of a disclosed element `start` that wrap it and nothing else: its parent when
/// `start` is that parent's only element child with no text beside it (`only_child`), and so on up,
/// [`WRAPPER_LEVELS`] at most. Accordion components often hide such a wrapper
/// (`<div style="display:none"><div id=panel role=region>…`) rather than the panel a control names, so
/// the wrapper's inline style is the disclosure's closed state and hides the same content a click away.
fn climb_wrappers<I: Copy + PartialEq>(
    start: I,
    parent: impl Fn(I) -> Option<I>,
    only_child: impl Fn(I) -> Option<I>,
    mut mark: impl FnMut(I),
) {
    let mut child = start;
    for _ in 0..WRAPPER_LEVELS {
        let Some(p) = parent(child) else { return };
        if only_child(p) != Some(child) {
            return;
        }
        mark(p);
        child = p;
    }
}

/// A control a visitor operates: a button, a text area, or an input other than a hidden one. (`select`
/// is left out: pre-strip removes it on some pages and not others.)
fn is_form_control<'a>(name: &LocalName, mut attrs: impl Iterator<Item = (&'a str, &'a str)>) -> bool {
    match &**name {
        "button" | "textarea" => true,
        "input" => !attrs.any(|(k, v)| k == "type" && v.trim().eq_ignore_ascii_case("hidden")),
        _ => false,
    }
}

pub(super) struct Builder {
    limits: DomLimits,
    nodes: Vec<Node>,
    text_buf: String,
    /// The element being opened's id and class, lower-cased: one buffer for every element, so that
    /// each element's name is allocated once, at its length.
    name_buf: String,
    stack: Vec<Frame>,
    /// Same-name child counts of every open element, stacked (one shared buffer instead of a `Vec` per
    /// element): the open element's children's counts are `names[top.names_start..]`, at most
    /// [`FEW_NAMES`] of them.
    names: Vec<(LocalName, NameCount)>,
    /// The counts of further names, by parent.
    more_names: std::collections::HashMap<(NodeId, LocalName), NameCount>,
    title: Option<String>,
    lang: Option<String>,
    body: NodeId,
    truncated: bool,
    /// Form controls met (see [`Document::form_controls`]).
    form_controls: u32,
    /// The last text node made, to be told when whitespace follows it (see [`Builder::text`]).
    last_text: NodeId,
    /// When set, the arena id given to each working-tree element (by tree id; `NONE` when not copied),
    /// for `serialize`'s id stamps.
    pub(super) stamps: Option<Vec<NodeId>>,
    /// When set, working-tree elements (by tree id) to leave out with their subtree, as if hidden.
    pub(super) skip: Option<Vec<bool>>,
    /// Open `<pre>` elements, and the id of the outermost.
    pre_depth: u32,
    pre_start: NodeId,
    /// Unfolded text of the text nodes inside `<pre>` (see [`Document::raw_text`]).
    preformatted: Vec<(NodeId, Box<str>)>,
    /// Whitespace met inside `<pre>` before the next text node (whitespace-only text makes no node).
    pre_pending: String,
    /// Whether an inline `display:none` / `visibility:hidden` hides an element (see
    /// [`Builder::hid_the_page`] for when it does not).
    honour_style: bool,
    /// The `id`s that a disclosure control names in its `aria-controls` ([`Builder::note_controls`]).
    disclosed: std::collections::HashSet<Box<str>>,
    /// The working-tree elements skipped for their inline style.
    style_hidden: Vec<tree::Id>,
}

impl Builder {
    pub(super) fn new(limits: DomLimits) -> Self {
        Builder {
            limits,
            nodes: Vec::new(),
            text_buf: String::new(),
            name_buf: String::new(),
            stack: Vec::new(),
            names: Vec::new(),
            more_names: Default::default(),
            title: None,
            lang: None,
            body: NONE,
            truncated: false,
            form_controls: 0,
            last_text: NONE,
            stamps: None,
            skip: None,
            pre_depth: 0,
            pre_start: NONE,
            preformatted: Vec::new(),
            pre_pending: String::new(),
            honour_style: true,
            disclosed: Default::default(),
            style_hidden: Vec::new(),
        }
    }

    /// The same builder, but blind to inline hiding styles (for a page that [`Builder::hid_the_page`]).
    pub(super) fn without_style_hiding(limits: DomLimits) -> Self {
        Builder { honour_style: false, ..Builder::new(limits) }
    }

    /// True when inline styles hid nearly all of the page's text: some pages wrap the whole body in a
    /// `visibility:hidden` element that a script reveals once its styles load (an anti-flicker
    /// wrapper). A reader sees that text, so the page should be read without style hiding. "Nearly
    /// all": at most [`SHOWN_MAX`] bytes of text stayed visible, and the hidden text is at least
    /// [`HIDDEN_MIN`] bytes and twenty times what stayed. Hidden menus and dialogs beside a page's
    /// visible content never come near that, so ordinary pages keep their hiding.
    pub(super) fn hid_the_page(&self, t: &Tree) -> bool {
        let shown = self.text_buf.len();
        if self.style_hidden.is_empty() || shown > SHOWN_MAX {
            return false;
        }
        let hidden: usize = self.style_hidden.iter().map(|&root| t.text_len(root)).sum();
        hidden >= HIDDEN_MIN && hidden >= 20 * shown
    }

    /// Remember the `id`s an element's `aria-controls` names. A button or link that names the element
    /// it shows and hides (an accordion's answer, a "read more" section, a tab's panel) discloses
    /// content of the page a click away, and [`Builder::open`] keeps that element though hidden;
    /// menus disclosed the same way are left to the block model like visible menus.
    fn note_controls<'a>(&mut self, attrs: impl Iterator<Item = (&'a str, &'a str)>) {
        for (k, v) in attrs {
            if k == "aria-controls" && self.disclosed.len() < MAX_DISCLOSED {
                self.disclosed.extend(v.split_ascii_whitespace().take(MAX_DISCLOSED).map(Box::from));
            }
        }
    }

    /// Per working-tree element (empty when nothing is disclosed): whether it wraps a disclosed
    /// element ([`climb_wrappers`]), so that [`Builder::build_tree`] reads it whatever its inline style.
    fn disclosed_wrappers(&self, t: &Tree) -> Vec<bool> {
        if self.disclosed.is_empty() {
            return Vec::new();
        }
        // The element child of `p` when it is the only one and no text stands beside it.
        let only_child = |p: tree::Id| {
            let mut c = t.nodes[p as usize].first_child;
            let mut found = None;
            while c != tree::NIL {
                match &t.nodes[c as usize].data {
                    Data::Element { .. } if found.is_none() => found = Some(c),
                    Data::Element { .. } => return None,
                    Data::Text(s) if !s.trim().is_empty() => return None,
                    _ => {}
                }
                c = t.nodes[c as usize].next_sibling;
            }
            found
        };
        let parent = |c: tree::Id| Some(t.nodes[c as usize].parent).filter(|&p| p != tree::NIL);
        let mut wrappers = vec![false; t.nodes.len()];
        for (i, n) in t.nodes.iter().enumerate() {
            if let Data::Element { attrs, .. } = &n.data
                && attrs.iter().any(|a| &*a.name.local == "id" && self.disclosed.contains(a.value.trim()))
            {
                climb_wrappers(i as tree::Id, parent, only_child, |w| wrappers[w as usize] = true);
            }
        }
        wrappers
    }

    /// [`Builder::disclosed_wrappers`] for a scraper tree.
    fn disclosed_wrappers_scraper(&self, parsed: &Html) -> std::collections::HashSet<ego_tree::NodeId> {
        let mut wrappers = std::collections::HashSet::new();
        if self.disclosed.is_empty() {
            return wrappers;
        }
        let only_child = |p: ego_tree::NodeId| {
            let mut found = None;
            for c in parsed.tree.get(p)?.children() {
                match c.value() {
                    scraper::Node::Element(_) if found.is_none() => found = Some(c.id()),
                    scraper::Node::Element(_) => return None,
                    scraper::Node::Text(s) if !s.trim().is_empty() => return None,
                    _ => {}
                }
            }
            found
        };
        let parent = |c: ego_tree::NodeId| parsed.tree.get(c)?.parent().map(|p| p.id());
        for node in parsed.tree.nodes() {
            if let scraper::Node::Element(el) = node.value()
                && el.id().is_some_and(|id| self.disclosed.contains(id.trim()))
            {
                climb_wrappers(node.id(), parent, only_child, |w| {
                    wrappers.insert(w);
                });
            }
        }
        wrappers
    }

    /// Copy the parser's working tree. Iterative: a parent link climbs back up, so depth costs no stack.
    pub(super) fn build_tree(&mut self, t: &Tree) {
        // Both outputs sized once: growing them by doubling copied and faulted in fresh pages each time.
        self.nodes.reserve(t.kept_bound);
        let text: usize = t.nodes.iter().map(|n| if let Data::Text(s) = &n.data { s.len() } else { 0 }).sum();
        self.text_buf.reserve(text);
        for n in &t.nodes {
            if let Data::Element { attrs, .. } = &n.data {
                self.note_controls(attrs.iter().map(|a| (&*a.name.local, &*a.value)));
            }
        }
        let wrappers = self.disclosed_wrappers(t);
        // One entry per element being walked: whether `open` pushed an arena node for it.
        let mut open: Vec<Action> = Vec::new();
        let mut id = t.nodes[tree::DOCUMENT as usize].first_child;
        while id != tree::NIL {
            let n = &t.nodes[id as usize];
            let mut descend = false;
            match &n.data {
                Data::Element { local, attrs, .. } => {
                    let action = if self.skip.as_ref().is_some_and(|s| s[id as usize]) {
                        Action::Skipped
                    } else if wrappers.get(id as usize).copied().unwrap_or(false) && self.honour_style {
                        // A disclosed element's wrapper ([`climb_wrappers`]): read whatever its style.
                        self.honour_style = false;
                        let action = self.open(local, attrs.iter().map(|a| (&*a.name.local, &*a.value)));
                        self.honour_style = true;
                        action
                    } else {
                        self.open(local, attrs.iter().map(|a| (&*a.name.local, &*a.value)))
                    };
                    if action == Action::Pushed
                        && let Some(s) = self.stamps.as_mut()
                    {
                        s[id as usize] = self.nodes.len() as NodeId - 1;
                    }
                    if action == Action::StyleHidden {
                        self.style_hidden.push(id);
                    }
                    if action.skips() {
                        if &**local == "head" {
                            self.read_head_tree(t, id);
                        }
                    } else if n.first_child != tree::NIL {
                        open.push(action);
                        descend = true;
                    } else if action == Action::Pushed {
                        self.close_element();
                    }
                }
                Data::Text(s) => self.text(s),
                Data::Document | Data::Other => {}
            }
            if descend {
                id = n.first_child;
                continue;
            }
            // Next in preorder, closing every element climbed out of.
            id = t.next_after(id, tree::DOCUMENT, || {
                if open.pop() == Some(Action::Pushed) {
                    self.close_element();
                }
            });
        }
        while !self.stack.is_empty() {
            self.close_element();
        }
    }

    fn read_head_tree(&mut self, t: &Tree, head: tree::Id) {
        // The head is small and shallow; an explicit stack keeps even a hostile one off the call stack.
        let mut todo = vec![t.nodes[head as usize].first_child];
        while let Some(mut id) = todo.pop() {
            while id != tree::NIL && self.title.is_none() {
                let n = &t.nodes[id as usize];
                if let Data::Element { local, .. } = &n.data {
                    if &**local == "title" {
                        let mut s = String::new();
                        let mut c = n.first_child;
                        while c != tree::NIL {
                            if let Data::Text(x) = &t.nodes[c as usize].data {
                                s.push_str(x);
                            }
                            c = t.nodes[c as usize].next_sibling;
                        }
                        self.set_title(&s);
                    } else if n.first_child != tree::NIL {
                        todo.push(n.first_child);
                    }
                }
                id = n.next_sibling;
            }
        }
    }

    fn set_title(&mut self, raw: &str) {
        // An unclosed `<title>` swallows the rest of the page as its text; no real title is this long.
        let mut cut = raw.len().min(MAX_TITLE_BYTES);
        while !raw.is_char_boundary(cut) {
            cut -= 1;
        }
        let t = fold_ws(&raw[..cut]);
        if !t.is_empty() && self.title.is_none() {
            self.title = Some(t);
        }
    }

    /// Copy a scraper tree. `drop` is asked about every element; the arena ids of the elements listed
    /// in `watch` are returned.
    pub(super) fn build_scraper(
        &mut self,
        parsed: &Html,
        drop: &dyn Fn(ego_tree::NodeId) -> bool,
        watch: &[ego_tree::NodeId],
    ) -> Vec<NodeId> {
        let mut watched = Vec::new();
        for node in parsed.tree.nodes() {
            if let scraper::Node::Element(el) = node.value() {
                self.note_controls(el.attrs());
            }
        }
        let wrappers = self.disclosed_wrappers_scraper(parsed);
        use ego_tree::iter::Edge;
        // Depth of skipped subtrees; each Close of such an element decrements it.
        let mut skip_depth = 0usize;
        let mut actions: Vec<Action> = Vec::new();
        for edge in parsed.tree.root().traverse() {
            match edge {
                Edge::Open(node) => match node.value() {
                    scraper::Node::Element(el) => {
                        let action = if skip_depth > 0 || drop(node.id()) {
                            Action::Skipped
                        } else {
                            let next = self.nodes.len() as NodeId;
                            // A disclosed element's wrapper, as in `build_tree`.
                            let blind = self.honour_style && wrappers.contains(&node.id());
                            self.honour_style &= !blind;
                            let a = self.open(&el.name.local, el.attrs());
                            self.honour_style |= blind;
                            if a == Action::Pushed && watch.contains(&node.id()) {
                                watched.push(next);
                            }
                            if a.skips() && el.name() == "head" {
                                self.read_head_scraper(node);
                            }
                            a
                        };
                        if action.skips() {
                            skip_depth += 1;
                        }
                        actions.push(action);
                    }
                    scraper::Node::Text(t) if skip_depth == 0 => self.text(&t.text),
                    _ => {}
                },
                Edge::Close(node) => {
                    if let scraper::Node::Element(_) = node.value() {
                        match actions.pop() {
                            Some(Action::Pushed) => self.close_element(),
                            Some(Action::Skipped | Action::StyleHidden) => skip_depth -= 1,
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

    fn read_head_scraper(&mut self, head: ego_tree::NodeRef<'_, scraper::Node>) {
        for d in head.descendants() {
            if let scraper::Node::Element(el) = d.value()
                && el.name() == "title"
                && self.title.is_none()
            {
                let t: String = d.children().filter_map(|c| c.value().as_text().map(|t| t.text.to_string())).collect();
                self.set_title(&t);
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

    /// Start an element: skip it (non-content or hidden), flatten it (past a limit) or copy it.
    fn open<'a>(&mut self, name: &LocalName, attrs: impl Iterator<Item = (&'a str, &'a str)>) -> Action {
        if is_ignored(name) {
            if is_form_control(name, attrs) {
                self.form_controls += 1;
            }
            return Action::Skipped;
        }
        let tag = Tag::from_name(name);
        let mut href = None;
        let mut src = None;
        let mut alt = None;
        let mut lang = None;
        let mut id_class = std::mem::take(&mut self.name_buf);
        id_class.clear();
        let mut hidden_attr = false;
        let mut streamed = false;
        // The first hiding attribute met (inline style or `aria-hidden`), and whether the element is
        // a tab panel: see below.
        let mut hidden_by: Option<Action> = None;
        let mut tab_panel = false;
        let mut dialog_open = false;
        let mut disclosed = false;
        // Seed 001 removes id, class and style before measuring; the markup that remains is counted.
        let mut markup = 2 + name.len() as u32;
        if !Tag::is_void(name) {
            markup += 3 + name.len() as u32;
        }
        for (k, v) in attrs {
            match k {
                "id" | "class" => {
                    streamed |= k == "id" && is_streamed_segment(v);
                    disclosed |= k == "id" && !self.disclosed.is_empty() && self.disclosed.contains(v.trim());
                    if !id_class.is_empty() {
                        id_class.push(' ');
                    }
                    // Copied whole and lower-cased in place: a char at a time was 3% of `auto`.
                    let from = id_class.len();
                    id_class.push_str(v);
                    id_class[from..].make_ascii_lowercase();
                    continue;
                }
                "style" => {
                    if self.honour_style && hidden_by.is_none() && style_hides(v) {
                        hidden_by = Some(Action::StyleHidden);
                    }
                    continue;
                }
                // `hidden="until-found"` content is found by the browser's search and shown on a match:
                // written to be read and indexed.
                "hidden" => hidden_attr = crate::text::hidden::hidden_attribute_hides(v),
                "aria-hidden" if v.trim().eq_ignore_ascii_case("true") => {
                    hidden_by.get_or_insert(Action::Skipped);
                }
                "role" => tab_panel |= crate::text::hidden::is_tab_panel(v),
                "open" => dialog_open = true,
                "href" => href = Some(v.into()),
                "src" => src = Some(v.into()),
                "alt" => alt = Some(v.into()),
                "lang" if tag == Tag::Html => lang = Some(v.trim().to_string()),
                _ => {}
            }
            markup += 4 + k.len() as u32 + v.chars().count() as u32;
        }
        // A tab panel ([`crate::text::hidden::is_tab_panel`]) or an element a control discloses
        // ([`Builder::note_controls`]) is kept even while hidden.
        // A `<dialog>` shows only while `open` (a script opens it: a sign-up form, a share sheet).
        hidden_attr |= !dialog_open && &**name == "dialog";
        if !tab_panel && !disclosed {
            if let Some(hidden) = hidden_by {
                return hidden;
            }
            if hidden_attr && !streamed {
                return Action::Skipped;
            }
        }
        if self.stack.len() as u32 >= self.limits.max_depth || self.nodes.len() >= self.limits.max_nodes {
            self.truncated = true;
            return Action::Flattened;
        }
        if lang.is_some() {
            self.lang = lang;
        }
        let id = self.nodes.len() as NodeId;
        let (xpath_index, first_namesake) = self.count_name(name, id);
        if let Some(first) = first_namesake
            && let NodeData::Element(e) = &mut self.nodes[first as usize].data
        {
            e.has_namesake = true;
        }
        // A link: an `<a>`, or a custom element that carries an `href` (`<dropdown-item href=…>`, a
        // component that renders its anchor itself): menus built of them are link lists to a reader.
        let link = tag == Tag::A || (href.is_some() && name.contains('-'));
        let in_link = link || self.stack.last().is_some_and(|f| self.nodes[f.id as usize].in_link);
        if tag == Tag::Body && self.body == NONE {
            self.body = id;
        }
        let stats = Stats { link_tags: u32::from(link), p_count: u32::from(tag == Tag::P), markup, ..Stats::default() };
        let element = Element {
            tag,
            name: name.clone(),
            xpath_index,
            has_namesake: xpath_index > 1,
            id_class: (!id_class.is_empty()).then(|| Box::from(id_class.as_str())),
            refs: (href.is_some() || src.is_some() || alt.is_some()).then(|| Box::new(Refs { href, src, alt })),
        };
        self.name_buf = id_class;
        self.push_node(in_link, NodeData::Element(element), stats);
        self.link(id);
        self.stack.push(Frame { id, last_child: NONE, names_start: self.names.len() });
        if tag == Tag::Pre {
            if self.pre_depth == 0 {
                self.pre_start = id;
            }
            self.pre_depth += 1;
        } else if tag == Tag::Br && self.pre_depth > 0 {
            self.pre_space("\n");
        }
        Action::Pushed
    }

    /// Count a child called `name` (to be node `id`) of the open element: its 1-based position among
    /// its namesakes, and, when it is the second of them, the first (which now has a namesake too).
    fn count_name(&mut self, name: &LocalName, id: NodeId) -> (u32, Option<NodeId>) {
        let Some(top) = self.stack.last() else { return (1, None) };
        let (start, parent) = (top.names_start, top.id);
        let slot = match self.names[start..].iter().position(|(n, _)| n == name) {
            Some(k) => Some(start + k),
            None if self.names.len() - start < FEW_NAMES => {
                self.names.push((name.clone(), NameCount { count: 0, first: id }));
                Some(self.names.len() - 1)
            }
            None => None,
        };
        let c = match slot {
            Some(k) => &mut self.names[k].1,
            None => self.more_names.entry((parent, name.clone())).or_insert(NameCount { count: 0, first: id }),
        };
        c.count += 1;
        (c.count, (c.count == 2).then_some(c.first))
    }

    /// Append a node at the open element's depth, not yet linked to a parent or siblings.
    fn push_node(&mut self, in_link: bool, data: NodeData, stats: Stats) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            end: id + 1,
            depth: self.stack.len() as u32,
            in_link,
            data,
            stats,
        });
        id
    }

    fn close_element(&mut self) {
        if let Some(f) = self.stack.pop() {
            self.names.truncate(f.names_start);
            self.nodes[f.id as usize].end = self.nodes.len() as NodeId;
            if self.nodes[f.id as usize].tag() == Some(Tag::Pre) {
                self.pre_depth -= 1;
                if self.pre_depth == 0 {
                    self.pre_pending.clear();
                }
            }
        }
    }

    fn text(&mut self, raw: &str) {
        if self.nodes.len() >= self.limits.max_nodes {
            self.truncated = true;
            return;
        }
        let Some(&Frame { id: parent, .. }) = self.stack.last() else { return };
        let in_link = self.nodes[parent as usize].in_link;
        let start = self.text_buf.len();
        let Folded { chars, raw_chars, punct, space_before, space_after } = fold_into(raw, &mut self.text_buf);
        let len = self.text_buf.len() - start;
        if len == 0 {
            if self.pre_depth > 0 {
                self.pre_space(raw);
            }
            // Whitespace only: no node, but the source length still counts it.
            self.nodes[parent as usize].stats.raw_chars += raw_chars;
            if in_link {
                self.nodes[parent as usize].stats.raw_link_chars += raw_chars;
            }
            // Let the previous text node know a space followed it, wherever it is: between two links
            // (`American</a> <a>television`) the space belongs to neither, and without this the two
            // words would be read as one.
            if self.last_text != NONE
                && let NodeData::Text { space_after, .. } = &mut self.nodes[self.last_text as usize].data
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
        self.push_node(
            in_link,
            NodeData::Text { start: start as u32, len: len as u32, space_before, space_after },
            stats,
        );
        self.link(id);
        self.last_text = id;
        if self.pre_depth > 0 {
            let mut kept = std::mem::take(&mut self.pre_pending);
            kept.push_str(raw);
            self.preformatted.push((id, kept.into_boxed_str()));
        }
    }

    /// Whitespace inside `<pre>` that makes no node (between highlighted tokens, or a `<br>`): part of
    /// the code, so it joins the text before it, or waits for the next.
    fn pre_space(&mut self, raw: &str) {
        match self.preformatted.last_mut() {
            Some((last, text)) if *last > self.pre_start => *text = format!("{text}{raw}").into_boxed_str(),
            _ => self.pre_pending.push_str(raw),
        }
    }

    pub(super) fn finish(mut self) -> Document {
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
                let body = Element {
                    tag: Tag::Body,
                    name: LocalName::from("body"),
                    xpath_index: 1,
                    has_namesake: false,
                    id_class: None,
                    refs: None,
                };
                self.push_node(false, NodeData::Element(body), Stats::default());
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
            form_controls: self.form_controls,
            preformatted: self.preformatted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_folding_and_counts() {
        // Mixed ASCII runs, vertical tab, no-break space, CJK punctuation and a leading space.
        let doc = Document::parse("<body><p> a,b\u{0B}c\u{A0} 中文，好 x. </p></body>");
        let p = doc.nodes.iter().position(|n| n.tag() == Some(Tag::P)).map_or(0, |i| i as NodeId);
        let t = doc.nodes.iter().position(|n| n.is_text()).map_or(0, |i| i as NodeId);
        assert_eq!(doc.text(t), "a,b c 中文，好 x.");
        let s = doc.node(p).stats;
        assert_eq!(s.chars, "a,b c 中文，好 x.".chars().count() as u32);
        assert_eq!(s.raw_chars, " a,b\u{0B}c\u{A0} 中文，好 x. ".chars().count() as u32);
        assert_eq!(s.punct, 3);
        assert!(matches!(doc.node(t).data, NodeData::Text { space_before: true, space_after: true, .. }));
    }

    #[test]
    fn space_between_elements_separates_their_words() {
        // The space between two links belongs to neither; the words must not run together.
        let doc = Document::parse(
            "<body><p><a href=/a>American</a> <a href=/t>television</a>&nbsp;<b>movie</b><i>s</i></p></body>",
        );
        assert_eq!(doc.subtree_text(doc.body), "American television movies");
        assert_eq!(crate::output::render_text(&doc, &[doc.body]), "American television movies");
    }

    #[test]
    fn a_page_hidden_whole_by_its_inline_style_is_read() {
        let prose = "A sentence of the tutorial that a reader sees once the page's styles load. ".repeat(20);
        // An anti-flicker wrapper around the whole body: its text is the page's text.
        let wrapped = format!("<body><div style='visibility:hidden'><h1>Guide</h1><p>{prose}</p></div></body>");
        let doc = Document::parse(&wrapped);
        assert!(doc.subtree_text(doc.body).starts_with("Guide"), "{}", doc.subtree_text(doc.body));
        // A hidden menu beside visible content stays hidden, however long the menu is.
        let menu = "<li>menu entry</li>".repeat(200);
        let beside = format!("<body><ul style='display:none'>{menu}</ul><p>{prose}</p></body>");
        let doc = Document::parse(&beside);
        assert!(!doc.subtree_text(doc.body).contains("menu entry"));
        // Little hidden text keeps its hiding even on a page with no visible text.
        let small = Document::parse("<body><div style='display:none'>a short note</div></body>");
        assert_eq!(small.subtree_text(small.body), "");
    }

    #[test]
    fn hidden_tab_panels_are_kept_and_other_hidden_elements_are_not() {
        let page = "<body><div role=tablist><button>Python</button><button>Go</button></div>\
            <div role=tabpanel><p>pip install farm</p></div>\
            <div role=tabpanel hidden><p>go get farm</p></div>\
            <div role='TabPanel' style='display:none'><p>cargo add farm</p></div>\
            <div role=tabpanel aria-hidden=true><p>npm install farm</p></div>\
            <div hidden><p>hidden note</p></div><div style='display:none' role=dialog><p>sign up</p></div>\
            <div aria-hidden=true role=region><p>decoration</p></div><div hidden='Until-Found'><p>found note</p></div>\
            <dialog><p>newsletter</p></dialog><dialog open><p>open dialog</p></dialog></body>";
        let doc = Document::parse(page);
        let text = doc.subtree_text(doc.body);
        for kept in ["pip install", "go get", "cargo add", "npm install", "found note", "open dialog"] {
            assert!(text.contains(kept), "{kept} missing from {text}");
        }
        for dropped in ["hidden note", "sign up", "decoration", "newsletter"] {
            assert!(!text.contains(dropped), "{dropped} kept in {text}");
        }
    }

    #[test]
    fn content_a_control_discloses_is_kept_though_hidden() {
        // An accordion: the answer after its button, and one before the button that names it.
        let page = "<body><div id=a2 hidden><p>Answer two.</p></div>\
            <button aria-controls='a1' aria-expanded=false>Question one?</button>\
            <div id=a1 hidden><p>Answer one.</p></div>\
            <button aria-controls=a2>Question two?</button>\
            <div id=a3 style='display:none'><p>Not named by any control.</p></div>\
            <button aria-controls=a4>Question four?</button>\
            <div class=collapse style='display:none'> <div><div id=a4 role=region><p>Answer four.</p></div></div></div>\
            <button aria-controls=a5>Question five?</button>\
            <div style='display:none'><p>Beside the panel.</p><div id=a5><p>Answer five.</p></div></div></body>";
        let doc = Document::parse(page);
        let text = doc.subtree_text(doc.body);
        assert!(text.contains("Answer one.") && text.contains("Answer two."), "{text}");
        assert!(!text.contains("Not named"), "{text}");
        // A panel whose wrappers hide it (two levels) is read; a hidden element holding more than the
        // panel is not a wrapper and stays hidden.
        assert!(text.contains("Answer four."), "{text}");
        assert!(!text.contains("Beside the panel") && !text.contains("Answer five"), "{text}");
        // The site-rule walk (scraper's tree) reads the same.
        let (walked, _) = Document::from_html(&crate::dom::parse_html(page), DomLimits::default(), &|_| false, &[]);
        assert_eq!(walked.subtree_text(walked.body), text);
    }

    #[test]
    fn both_walks_give_the_same_arena() {
        let page = "<html lang=en><head><title> T </title><style>x{}</style></head><body>\
                    <div id=A class='B c'><p>one <b>two</b>,</p><a href=/x>link</a></div>\
                    <b>1<p>2</b>3</p><table>x<tr><td>y</td></tr></table>\
                    <div hidden>h</div><div style='display:none'>h</div><span aria-hidden=true>h</span>\
                    <script>s()</script><select><option>o</select></body></html>";
        let a = Document::parse(page);
        let parsed = crate::dom::parse_html(page);
        let (b, _) = Document::from_html(&parsed, DomLimits::default(), &|_| false, &[]);
        assert_eq!(a.title.as_deref(), Some("T"));
        // A late segment of a streamed page is shown, so it is read; other hidden elements are not.
        let streamed = Document::parse("<body><div hidden id=x>gone</div><div hidden id=S:1><p>late</p></div></body>");
        assert_eq!(streamed.subtree_text(streamed.body), "late");
        let unclosed = Document::parse(&format!("<title>{}", "word ".repeat(10_000)));
        assert!(unclosed.title.is_some_and(|t| t.len() <= MAX_TITLE_BYTES));
        assert_eq!(a.title, b.title);
        assert_eq!(a.lang, b.lang);
        assert_eq!(a.len(), b.len());
        for i in 0..a.len() as NodeId {
            assert_eq!(a.node(i).stats, b.node(i).stats, "node {i}");
            assert_eq!(a.xpath(i), b.xpath(i));
            assert_eq!(a.text(i), b.text(i));
        }
        let body = a.body;
        // Hidden, script and form-control text is gone; block boundaries are the renderer's business.
        assert_eq!(a.subtree_text(body), "one two,link123xy");
    }
}
