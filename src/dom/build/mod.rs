//! The arena copy: one walk over a parsed tree that numbers nodes in preorder, folds whitespace,
//! counts characters and punctuation, and then sums every statistic bottom-up in one reverse loop.
//!
//! Two trees can be walked, one file each: the parser's own working tree (`working_tree`, the normal
//! path, see `dom::tree`) and a scraper document (`scraper_tree`, used when a site template's CSS
//! selectors must run on the page first). Both walks feed the same three calls of this file, `open`,
//! `text` and `close_element`, so both give the same arena; here too are the limits, the XPath
//! namesake counts, `<pre>` text and the finish.
//!
//! The `Document` constructors live here too (`Document::parse` and its variants), since building is
//! what they do.
//!
//! Elements that never hold page text (see `text::hidden`, and `visibility` for what the copy decides
//! with the whole page in view) are skipped here, subtree and all. Pre-strip removes the bulkiest of
//! them by name before the parse; attributes are checked here, where the parser has already split them
//! out, instead of in a second lexer.

mod scraper_tree;
mod visibility;
mod working_tree;

use html5ever::LocalName;
use html5ever::tendril::StrTendril;
use scraper::Html;

use super::text::{Folded, fold_into};
use super::tree;
use super::{Document, DomLimits, Element, NONE, Node, NodeData, NodeId, Refs, Stats, Tag, fold_ws};
use crate::text::hidden::{is_ignored, is_streamed_segment, style_hides};
use crate::text::prestrip::MAX_NESTING;
use visibility::{Action, Hiding, a_dialog_hid_the_page, hid_the_page, is_form_control};

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

/// How many children of one name an element has so far, and the first of them (marked as having a
/// namesake when the second arrives).
#[derive(Clone, Copy)]
struct NameCount {
    count: u32,
    first: NodeId,
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
    /// Whether an inline `display:none` / `visibility:hidden` or `aria-hidden="true"` hides an element
    /// (see `visibility::hid_the_page` for when they do not).
    honour_style: bool,
    /// Whether `aria-hidden="true"` hides an element (see `visibility::a_dialog_hid_the_page` for when
    /// it does not).
    honour_aria_hidden: bool,
    /// The `id`s that a disclosure control names in its `aria-controls` (`visibility::note_controls`).
    disclosed: std::collections::HashSet<Box<str>>,
    /// The working-tree elements skipped for their inline style or `aria-hidden`.
    style_hidden: Vec<tree::Id>,
    /// Those of them skipped for `aria-hidden` alone.
    aria_hidden: Vec<tree::Id>,
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
            honour_aria_hidden: true,
            disclosed: Default::default(),
            style_hidden: Vec::new(),
            aria_hidden: Vec::new(),
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
        // What the attributes say about hiding the element, judged once they are all read.
        let mut hiding = Hiding::default();
        // The P value method (Lv, Cao, Wang, Yin & Zheng, "An algorithm to extract and judge the main
        // text based on the law of total probability") removes id, class and style before measuring;
        // the markup that remains is counted.
        let mut markup = 2 + name.len() as u32;
        if !Tag::is_void(name) {
            markup += 3 + name.len() as u32;
        }
        for (k, v) in attrs {
            match k {
                "id" | "class" => {
                    hiding.streamed |= k == "id" && is_streamed_segment(v);
                    hiding.disclosed |= k == "id" && !self.disclosed.is_empty() && self.disclosed.contains(v.trim());
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
                    if self.honour_style && hiding.hidden_by.is_none() && style_hides(v) {
                        hiding.hidden_by = Some(Action::StyleHidden);
                    }
                    continue;
                }
                // `hidden="until-found"` content is found by the browser's search and shown on a match:
                // written to be read and indexed.
                "hidden" => hiding.hidden_attr = crate::text::hidden::hidden_attribute_hides(v),
                // Hidden from screen readers, shown on screen: a page saved while a dialog was open
                // marks its whole body so. Read again like a style that hid the page.
                "aria-hidden"
                    if self.honour_style && self.honour_aria_hidden && v.trim().eq_ignore_ascii_case("true") =>
                {
                    hiding.hidden_by.get_or_insert(Action::AriaHidden);
                }
                "role" => {
                    hiding.tab_panel |= crate::text::hidden::is_tab_panel(v);
                    hiding.dialog_role |= self.honour_style && crate::text::hidden::is_dialog_role(v);
                }
                "aria-modal" if self.honour_style => {
                    hiding.aria_modal = Some(v.trim().eq_ignore_ascii_case("true"));
                }
                "open" => hiding.dialog_open = true,
                "href" => href = Some(v.into()),
                "src" => src = Some(v.into()),
                "alt" => alt = Some(v.into()),
                "lang" if tag == Tag::Html => lang = Some(v.trim().to_string()),
                _ => {}
            }
            markup += 4 + k.len() as u32 + v.chars().count() as u32;
        }
        if let Some(left_out) = hiding.verdict(name) {
            return left_out;
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
            depth: u16::try_from(self.stack.len()).unwrap_or(u16::MAX),
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

/// The depth past which the parse flattens elements ([`tree::parse`]): the arena's own limit, past
/// which it would flatten them anyway, and never deeper than [`MAX_NESTING`] (the tree builder's
/// cost per tag grows with the depth, so limits that raise the arena's must not raise this).
fn parse_depth(limits: DomLimits) -> u32 {
    limits.max_depth.min(u32::try_from(MAX_NESTING).unwrap_or(u32::MAX))
}

impl Document {
    /// Parse HTML (already pre-stripped) and compute every node's statistics.
    pub fn parse(html: &str) -> Document {
        let tree = tree::parse(StrTendril::from_slice(html), usize::MAX, parse_depth(DomLimits::UNBOUNDED))
            .unwrap_or_else(|_| unreachable!());
        Self::build(tree, DomLimits::UNBOUNDED)
    }

    /// Parse HTML handed over as a tendril (no copy), within the limits: past the work budget
    /// ([`DomLimits::max_nodes`]) the parse stops with [`crate::error::Error::TooComplex`].
    pub fn parse_tendril(html: StrTendril, limits: DomLimits) -> Result<Document, crate::error::Error> {
        let (tree, limits) = Self::parse_tree(html, limits)?;
        Ok(Self::build(tree, limits))
    }

    /// [`Document::parse_tendril`], with `observe` shown the parser's whole tree before the arena copy
    /// (which keeps neither `<head>` nor scripts): how `metadata` reads a page's declarations from the
    /// parse itself, for a few instructions per node instead of a pass over the text of its own.
    pub(crate) fn parse_observed<R>(
        html: StrTendril,
        limits: DomLimits,
        observe: impl FnOnce(&tree::Tree) -> R,
    ) -> Result<(Document, R), crate::error::Error> {
        let (tree, limits) = Self::parse_tree(html, limits)?;
        let seen = observe(&tree);
        Ok((Self::build(tree, limits), seen))
    }

    /// The parser's tree within the work budget, and the limits its arena copy is cut at: shared by
    /// [`Document::parse_tendril`] and the stamped parses of `serialize`, so that all give one arena.
    pub(in crate::dom) fn parse_tree(
        html: StrTendril,
        limits: DomLimits,
    ) -> Result<(tree::Tree, DomLimits), crate::error::Error> {
        let limits = limits.for_page(html.len());
        let tree = tree::parse(html, limits.max_nodes, parse_depth(limits)).map_err(|nodes| {
            crate::error::Error::TooComplex(format!(
                "its parse passed {nodes} nodes, over its budget of {} (limits.dom.max_nodes + one per \
                 limits.dom.bytes_per_node bytes)",
                limits.max_nodes
            ))
        })?;
        Ok((tree, limits))
    }

    /// Copy the parser's tree into the arena, freeing it before the arena is finished.
    fn build(tree: tree::Tree, limits: DomLimits) -> Document {
        let mut b = Builder::new(limits);
        b.build_tree(&tree);
        if hid_the_page(b.text_buf.len(), &b.style_hidden, &tree) {
            // Read again without style hiding: the page's text is what its hiding styles (or its
            // `aria-hidden`) hid.
            b = Builder { honour_style: false, ..Builder::new(limits) };
            b.build_tree(&tree);
        } else if a_dialog_hid_the_page(b.text_buf.len(), &b.aria_hidden, &tree) {
            // Read again with `aria-hidden` ignored: a modal open when the page was saved marked the
            // content behind it so.
            b = Builder { honour_aria_hidden: false, ..Builder::new(limits) };
            b.build_tree(&tree);
        }
        drop(tree);
        b.finish()
    }

    /// Copy a scraper tree into the arena (the site-template path, whose CSS selectors need scraper's
    /// tree). `drop` is asked about every element; the arena ids of the elements listed in `watch` are
    /// returned.
    pub fn from_html(
        parsed: &Html,
        limits: DomLimits,
        drop: &dyn Fn(ego_tree::NodeId) -> bool,
        watch: &[ego_tree::NodeId],
    ) -> (Document, Vec<NodeId>) {
        let mut b = Builder::new(limits);
        let watched = b.build_scraper(parsed, drop, watch);
        (b.finish(), watched)
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
        // What a renderer reads: the space recorded on the text node before it.
        let words: Vec<(&str, bool)> = doc
            .text_nodes(doc.body)
            .map(|t| (doc.text(t), matches!(doc.node(t).data, NodeData::Text { space_after: true, .. })))
            .collect();
        assert_eq!(words, [("American", true), ("television", true), ("movie", false), ("s", false)]);
    }

    #[test]
    fn both_walks_give_the_same_arena() {
        let page = "<html lang=en><head><title> T </title><style>x{}</style></head><body>\
                    <div id=A class='B c'><p>one <b>two</b>,</p><a href=/x>link</a></div>\
                    <b>1<p>2</b>3</p><table>x<tr><td>y</td></tr></table>\
                    <div hidden>h</div><div style='display:none'>h</div><span aria-hidden=true>h</span>\
                    <div id=guide><a onclick=\"hide(document.getElementById('guide'))\">Close</a>sizes</div>\
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
