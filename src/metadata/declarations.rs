//! What a page declares about itself: `<meta>` names and properties, `<link rel>`, JSON-LD scripts,
//! `<title>`, `<html lang>`, `<time>` elements, microdata (`itemprop`) values and `rel="author"` links.
//! `metadata` reads them; the arena keeps none of them (it skips `<head>` and scripts and keeps few
//! attributes), so they are gathered beside it.
//!
//! Two collectors fill [`Declarations`]: [`collect`] walks the parser's working tree before the arena
//! copy, when the tree holds the whole page (pre-strip passed it through), and `metadata::scan` runs
//! lol_html handlers over the page's text when pre-strip's own pass removes the scripts first (the
//! handlers then run inside that pass). The walk costs a few instructions per node where a tokenizer
//! pass of its own cost a few per byte: on 15 l3s-gn1 pages it replaced 41 M instructions of a run's
//! 465 M. Everything kept is bounded ([`MAX_TEXT`], [`MAX_JSON_LD`], [`MAX_ITEMS`]).

use html5ever::local_name;

use crate::dom::tree::{DOCUMENT, Data, Id, NIL, Ns, Tree};

/// Bytes kept of any one text (a title, a microdata value).
pub const MAX_TEXT: usize = 1024;
/// Bytes of JSON-LD kept in all.
pub const MAX_JSON_LD: usize = 2 * 1024 * 1024;
/// Meta tags, times and microdata values kept, each.
pub const MAX_ITEMS: usize = 512;

/// A `<time>` element.
#[derive(Debug, Clone, Default)]
pub struct TimeEl {
    pub datetime: Option<String>,
    pub text: String,
    /// `pubdate`, `itemprop="datePublished"` or a class naming publication.
    pub published: bool,
    /// `itemprop="dateModified"` or a class naming an update.
    pub modified: bool,
}

/// The declarations, in document order.
#[derive(Debug, Clone, Default)]
pub struct Declarations {
    /// `(key, content)`: the key is the lower-cased `property`, `name` or `itemprop` of a `<meta>`.
    pub meta: Vec<(String, String)>,
    /// `(rel, href)` of `<link>` elements, `rel` lower-cased.
    pub links: Vec<(String, String)>,
    pub json_ld: Vec<String>,
    pub title: Option<String>,
    pub lang: Option<String>,
    pub times: Vec<TimeEl>,
    /// `(itemprop, value)` of microdata elements other than `<meta>`: their `content`/`datetime`
    /// attribute, else their text.
    pub itemprops: Vec<(String, String)>,
    /// Texts of `rel="author"` links.
    pub rel_authors: Vec<String>,
}

impl Declarations {
    /// The first `<meta>` content for any of `keys`, in the order of `keys`.
    pub fn meta(&self, keys: &[&str]) -> Option<&str> {
        keys.iter()
            .find_map(|k| self.meta.iter().find(|(mk, v)| mk == k && !v.trim().is_empty()).map(|(_, v)| v.trim()))
    }

    /// Every `<meta>` content for `key`.
    pub fn meta_all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.meta.iter().filter(move |(k, v)| k == key && !v.trim().is_empty()).map(|(_, v)| v.trim())
    }

    pub fn link(&self, rel: &str) -> Option<&str> {
        self.links
            .iter()
            .find(|(r, h)| r.split_ascii_whitespace().any(|x| x == rel) && !h.trim().is_empty())
            .map(|(_, h)| h.trim())
    }

    pub fn itemprop(&self, name: &str) -> Option<&str> {
        self.itemprops.iter().find(|(k, v)| k == name && !v.trim().is_empty()).map(|(_, v)| v.trim())
    }
}

/// Append `s` to `buf` up to `max` bytes in all, cut at a character boundary.
pub fn push_bounded(buf: &mut String, s: &str, max: usize) {
    if buf.len() >= max {
        return;
    }
    let mut cut = (max - buf.len()).min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    buf.push_str(&s[..cut]);
}

/// Whether a class names a publication date, an update, or neither.
pub fn class_kind(class: &str) -> (bool, bool) {
    let c = class.to_ascii_lowercase();
    let published =
        ["publish", "posted", "entry-date", "post-date", "pubdate", "created"].iter().any(|k| c.contains(k));
    let modified = ["updated", "modified"].iter().any(|k| c.contains(k));
    (published, modified)
}

/// Microdata properties `metadata` reads from elements other than `<meta>` (lower-cased).
pub fn wanted_itemprop(prop: &str) -> bool {
    matches!(prop, "author" | "name" | "datepublished" | "datemodified" | "headline" | "creator")
}

/// An element whose text is being gathered, and for what.
enum Open {
    Title,
    JsonLd,
    Time(TimeEl),
    Itemprop(String),
    Author,
}

/// Walk the parser's tree in document order (template contents aside, as browsers show them) and
/// gather what it declares. Attribute values and text arrive with character references already
/// decoded by the parser. Iterative, so depth costs no stack; texts are gathered for at most one
/// element of each kind at a time (the outermost, as for microdata), so the walk stays linear.
pub(super) fn collect(tree: &Tree) -> Declarations {
    let mut out = Declarations::default();
    let mut json_total = 0usize;
    // The elements gathering text, each with its node and its buffer.
    let mut open: Vec<(Id, Open, String)> = Vec::new();
    let mut id = tree.nodes[DOCUMENT as usize].first_child;
    while id != NIL {
        let node = &tree.nodes[id as usize];
        match &node.data {
            Data::Element { local, ns, attrs, .. } => {
                let attr = |n: &str| attrs.iter().find(|a| &*a.name.local == n).map(|a| a.value.to_string());
                let html = *ns == Ns::Html;
                if html && *local == local_name!("html") && out.lang.is_none() {
                    out.lang = attr("lang");
                } else if html && *local == local_name!("meta") {
                    let key = attr("property").or_else(|| attr("name")).or_else(|| attr("itemprop"));
                    if let (Some(k), Some(v)) = (key, attr("content"))
                        && out.meta.len() < MAX_ITEMS
                    {
                        let mut v2 = String::new();
                        push_bounded(&mut v2, &v, MAX_TEXT);
                        out.meta.push((k.trim().to_ascii_lowercase(), v2));
                    }
                } else if html && *local == local_name!("link") {
                    if let (Some(r), Some(h)) = (attr("rel"), attr("href"))
                        && out.links.len() < MAX_ITEMS
                    {
                        out.links.push((r.to_ascii_lowercase(), h));
                    }
                } else if html && *local == local_name!("title") && out.title.is_none() {
                    open.push((id, Open::Title, String::new()));
                } else if html
                    && *local == local_name!("script")
                    && attr("type").is_some_and(|t| t.to_ascii_lowercase().contains("ld+json"))
                {
                    open.push((id, Open::JsonLd, String::new()));
                } else if html && *local == local_name!("time") {
                    let itemprop = attr("itemprop").unwrap_or_default().to_ascii_lowercase();
                    let (cp, cm) = class_kind(&attr("class").unwrap_or_default());
                    let t = TimeEl {
                        datetime: attr("datetime"),
                        text: String::new(),
                        published: attr("pubdate").is_some() || itemprop == "datepublished" || cp,
                        modified: itemprop == "datemodified" || cm,
                    };
                    open.retain(|(_, o, _)| !matches!(o, Open::Time(_)));
                    open.push((id, Open::Time(t), String::new()));
                } else if html
                    && *local == local_name!("a")
                    && attr("rel").is_some_and(|r| r.split_ascii_whitespace().any(|x| x.eq_ignore_ascii_case("author")))
                {
                    open.retain(|(_, o, _)| !matches!(o, Open::Author));
                    open.push((id, Open::Author, String::new()));
                }
                if *local != local_name!("meta")
                    && let Some(prop) = attr("itemprop")
                {
                    let prop = prop.trim().to_ascii_lowercase();
                    if wanted_itemprop(&prop) {
                        if let Some(v) = attr("content").or_else(|| attr("datetime")) {
                            if out.itemprops.len() < MAX_ITEMS {
                                out.itemprops.push((prop, v));
                            }
                        } else if !open.iter().any(|(_, o, _)| matches!(o, Open::Itemprop(_))) {
                            open.push((id, Open::Itemprop(prop), String::new()));
                        }
                    }
                }
            }
            Data::Text(t) if !open.is_empty() => {
                for (_, kind, buf) in open.iter_mut() {
                    let max = if matches!(kind, Open::JsonLd) { MAX_JSON_LD } else { MAX_TEXT };
                    push_bounded(buf, t, max);
                }
            }
            _ => {}
        }
        // Next in preorder: the first child, else the next sibling of the nearest node (this one or an
        // ancestor) that has one; every element left behind closes what it gathered.
        if node.first_child != NIL && matches!(node.data, Data::Element { .. }) {
            id = node.first_child;
            continue;
        }
        let mut at = id;
        loop {
            close(&mut open, at, &mut out, &mut json_total);
            let n = &tree.nodes[at as usize];
            if n.next_sibling != NIL {
                id = n.next_sibling;
                break;
            }
            at = n.parent;
            if at == DOCUMENT || at == NIL {
                id = NIL;
                break;
            }
        }
    }
    out
}

/// The element `id` ends: file what it gathered.
fn close(open: &mut Vec<(Id, Open, String)>, id: Id, out: &mut Declarations, json_total: &mut usize) {
    while let Some(i) = open.iter().position(|(o, _, _)| *o == id) {
        let (_, kind, text) = open.remove(i);
        match kind {
            Open::Title => {
                let t = crate::dom::fold_ws(&text);
                if !t.is_empty() {
                    out.title.get_or_insert(t);
                }
            }
            Open::JsonLd => {
                if !text.trim().is_empty() && *json_total + text.len() <= MAX_JSON_LD {
                    *json_total += text.len();
                    out.json_ld.push(text);
                }
            }
            Open::Time(mut t) => {
                t.text = crate::dom::fold_ws(&text);
                if out.times.len() < MAX_ITEMS {
                    out.times.push(t);
                }
            }
            Open::Itemprop(k) => {
                let v = crate::dom::fold_ws(&text);
                if !v.is_empty() && out.itemprops.len() < MAX_ITEMS {
                    out.itemprops.push((k, v));
                }
            }
            Open::Author => {
                let v = crate::dom::fold_ws(&text);
                if !v.is_empty() && out.rel_authors.len() < MAX_ITEMS {
                    out.rel_authors.push(v);
                }
            }
        }
    }
}
