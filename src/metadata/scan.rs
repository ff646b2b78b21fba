//! A streaming lol_html pass that collects a page's [`Declarations`] (`<meta>` names and properties,
//! `<link rel>`, JSON-LD scripts, `<title>`, `<html lang>`, `<time>` elements and microdata values)
//! from its text, for the pages whose parse tree cannot give them.
//!
//! Pre-strip removes the `<script>` elements that carry JSON-LD before the parse, so when its own
//! lol_html pass runs, the scan's [`handlers`] run inside that pass, over the page as decoded. Where
//! pre-strip passes the page through, the parse's own tree gives the same declarations for less
//! (`Document::parse_observed` with `declarations::collect`, see `gather`); [`scan`] runs the handlers in a pass of their own on the remaining
//! paths (site rules, rendered layouts, pages pre-strip had to rewrite). lol_html parses attributes,
//! quoting and comments the way browsers do, which byte searches would not. Everything collected is
//! bounded ([`MAX_TEXT`], [`MAX_JSON_LD`], [`MAX_ITEMS`]).

use std::cell::RefCell;
use std::rc::Rc;

use lol_html::{HtmlRewriter, RewriteStrSettings, Settings, element, text};

use super::declarations::{
    Declarations, MAX_ITEMS, MAX_JSON_LD, MAX_TEXT, TimeEl, class_kind, push_bounded, wanted_itemprop,
};
use crate::dom::decode_char_refs;
use crate::text::prestrip::Observers;

/// An end-tag handler (the boxing lol_html's handler lists want).
fn on_end(
    f: impl FnOnce(&mut lol_html::html_content::EndTag<'_>) -> lol_html::HandlerResult + 'static,
) -> lol_html::EndTagHandler<'static> {
    Box::new(f)
}

/// Which of `needles` (lower-case ASCII letters only) `hay` contains, ignoring ASCII case. The page is
/// folded a block at a time with `| 0x20`, which maps a byte onto a lower-case letter exactly when it
/// is that letter in either case, and the block searched with memmem: a few instructions per kilobyte,
/// where a search anchored on a letter's every occurrence cost several per byte.
fn contains_letters_ci<const N: usize>(hay: &[u8], needles: [&[u8]; N]) -> [bool; N] {
    const BLOCK: usize = 16 * 1024;
    debug_assert!(needles.iter().all(|n| n.iter().all(u8::is_ascii_lowercase)));
    let finders = needles.map(memchr::memmem::Finder::new);
    // A match that straddles two blocks is found in the second, which starts this much earlier.
    let overlap = needles.iter().map(|n| n.len().saturating_sub(1)).max().unwrap_or(0);
    let mut found = [false; N];
    let mut folded = Vec::with_capacity(BLOCK + overlap);
    let mut start = 0;
    while start < hay.len() && !found.iter().all(|&f| f) {
        let end = (start + BLOCK).min(hay.len());
        folded.clear();
        folded.extend(hay[start.saturating_sub(overlap)..end].iter().map(|b| b | 0x20));
        for (f, finder) in found.iter_mut().zip(&finders) {
            *f = *f || finder.find(&folded).is_some();
        }
        start = end;
    }
    found
}

/// Run the pass. Malformed input yields whatever was collected before lol_html gave up.
pub fn scan(html: &str) -> Declarations {
    let (handlers, found) = handlers(html);
    let mut settings = RewriteStrSettings::new().with_strict(false);
    for h in handlers {
        settings = settings.append_element_content_handler(h);
    }
    let settings: Settings<'_, '_> = settings.into();
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    if rewriter.write(html.as_bytes()).is_ok() {
        let _ = rewriter.end();
    }
    found.finish()
}

/// What the handlers of one [`handlers`] call collect, read once their pass is over.
pub struct Found(Rc<RefCell<Declarations>>);

impl Found {
    /// The declarations collected (the pass must be over: its rewriter dropped or ended).
    pub fn finish(self) -> Declarations {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

/// The scan's handlers for a lol_html pass over `html`, and where they put what they find. [`scan`]
/// runs them in a pass of their own; the pipeline runs them in pre-strip's pass over the same bytes
/// when that pass runs, so that the page is tokenized once. Handlers see every element and text
/// whatever other handlers of the pass remove (removal only changes the pass's output), so both give
/// the same [`Declarations`].
pub fn handlers(html: &str) -> (Observers, Found) {
    let out = Rc::new(RefCell::new(Declarations::default()));
    // Text of the element a text handler is collecting for, per kind.
    let title_buf = Rc::new(RefCell::new(String::new()));
    let ld_buf = Rc::new(RefCell::new(String::new()));
    let prop_text: Rc<RefCell<Option<(String, String)>>> = Rc::new(RefCell::new(None));
    let time_text: Rc<RefCell<Option<TimeEl>>> = Rc::new(RefCell::new(None));
    let author_text: Rc<RefCell<Option<String>>> = Rc::new(RefCell::new(None));
    let json_total = Rc::new(RefCell::new(0usize));

    let (o1, o2, o3, o4, o5, o6, o7, o8, o9) = (
        out.clone(),
        out.clone(),
        out.clone(),
        out.clone(),
        out.clone(),
        out.clone(),
        out.clone(),
        out.clone(),
        out.clone(),
    );
    let (tb1, tb2) = (title_buf.clone(), title_buf.clone());
    let (lb1, lb2) = (ld_buf.clone(), ld_buf.clone());
    let (pt1, pt2) = (prop_text.clone(), prop_text.clone());
    let (tt1, tt2) = (time_text.clone(), time_text.clone());
    let (at1, at2) = (author_text.clone(), author_text.clone());
    let jt = json_total.clone();

    // The attribute-only selector `[itemprop]` makes lol_html lex every start tag in full, and
    // `a[rel~=author]` every link; a page whose bytes never spell the attribute name (or the rel value)
    // cannot match them, so their handlers are left out there (attribute names and the selector's
    // value are compared as written, ASCII case aside). On 15 l3s-gn1 pages (none with microdata)
    // the pass went from 71.8 M to 57.0 M instructions.
    let [microdata, rel_author] = contains_letters_ci(html.as_bytes(), [b"itemprop", b"author"]);
    let mut handlers: Observers = vec![
        element!("html", move |el| {
            if let Some(l) = el.get_attribute("lang") {
                o1.borrow_mut().lang.get_or_insert(l);
            }
            Ok(())
        }),
        element!("meta", move |el| {
            let key = el
                .get_attribute("property")
                .or_else(|| el.get_attribute("name"))
                .or_else(|| el.get_attribute("itemprop"));
            if let (Some(k), Some(v)) = (key, el.get_attribute("content")) {
                let mut o = o2.borrow_mut();
                if o.meta.len() < MAX_ITEMS {
                    let mut v2 = String::new();
                    push_bounded(&mut v2, &decode_char_refs(&v), MAX_TEXT);
                    o.meta.push((k.trim().to_ascii_lowercase(), v2));
                }
            }
            Ok(())
        }),
        element!("link[rel]", move |el| {
            if let (Some(r), Some(h)) = (el.get_attribute("rel"), el.get_attribute("href")) {
                let mut o = o3.borrow_mut();
                if o.links.len() < MAX_ITEMS {
                    o.links.push((r.to_ascii_lowercase(), h));
                }
            }
            Ok(())
        }),
        element!("title", move |el| {
            tb1.borrow_mut().clear();
            let (tb, o) = (tb1.clone(), o4.clone());
            if let Some(h) = el.end_tag_handlers() {
                h.push(on_end(move |_| {
                    let t = crate::dom::fold_ws(&decode_char_refs(&tb.borrow()));
                    if !t.is_empty() {
                        o.borrow_mut().title.get_or_insert(t);
                    }
                    Ok(())
                }));
            }
            Ok(())
        }),
        text!("title", move |t| {
            push_bounded(&mut tb2.borrow_mut(), t.as_str(), MAX_TEXT);
            Ok(())
        }),
        element!("script[type*=\"ld+json\" i]", move |el| {
            lb1.borrow_mut().clear();
            let (lb, o, jt) = (lb1.clone(), o5.clone(), jt.clone());
            if let Some(h) = el.end_tag_handlers() {
                h.push(on_end(move |_| {
                    let s = std::mem::take(&mut *lb.borrow_mut());
                    let mut total = jt.borrow_mut();
                    if !s.trim().is_empty() && *total + s.len() <= MAX_JSON_LD {
                        *total += s.len();
                        o.borrow_mut().json_ld.push(s);
                    }
                    Ok(())
                }));
            }
            Ok(())
        }),
        text!("script[type*=\"ld+json\" i]", move |t| {
            push_bounded(&mut lb2.borrow_mut(), t.as_str(), MAX_JSON_LD);
            Ok(())
        }),
        element!("time", move |el| {
            let itemprop = el.get_attribute("itemprop").unwrap_or_default().to_ascii_lowercase();
            let (cp, cm) = class_kind(&el.get_attribute("class").unwrap_or_default());
            let t = TimeEl {
                datetime: el.get_attribute("datetime"),
                text: String::new(),
                published: el.has_attribute("pubdate") || itemprop == "datepublished" || cp,
                modified: itemprop == "datemodified" || cm,
            };
            *tt1.borrow_mut() = Some(t);
            let (tt, o) = (tt1.clone(), o6.clone());
            if let Some(h) = el.end_tag_handlers() {
                h.push(on_end(move |_| {
                    if let Some(mut t) = tt.borrow_mut().take() {
                        t.text = crate::dom::fold_ws(&t.text);
                        let mut o = o.borrow_mut();
                        if o.times.len() < MAX_ITEMS {
                            o.times.push(t);
                        }
                    }
                    Ok(())
                }));
            }
            Ok(())
        }),
        text!("time", move |t| {
            if let Some(el) = tt2.borrow_mut().as_mut() {
                push_bounded(&mut el.text, t.as_str(), MAX_TEXT);
            }
            Ok(())
        }),
    ];
    if microdata {
        handlers.extend([
            element!("[itemprop]:not(meta)", move |el| {
                let Some(prop) = el.get_attribute("itemprop") else { return Ok(()) };
                let prop = prop.trim().to_ascii_lowercase();
                if !wanted_itemprop(&prop) {
                    return Ok(());
                }
                if let Some(v) = el.get_attribute("content").or_else(|| el.get_attribute("datetime")) {
                    let mut o = o7.borrow_mut();
                    if o.itemprops.len() < MAX_ITEMS {
                        o.itemprops.push((prop, decode_char_refs(&v)));
                    }
                    return Ok(());
                }
                // Only the outermost collecting element gathers text (an author's `name` inside `author`).
                if pt1.borrow().is_some() || el.is_self_closing() || !el.can_have_content() {
                    return Ok(());
                }
                *pt1.borrow_mut() = Some((prop, String::new()));
                let (pt, o) = (pt1.clone(), o8.clone());
                if let Some(h) = el.end_tag_handlers() {
                    h.push(on_end(move |_| {
                        if let Some((k, v)) = pt.borrow_mut().take() {
                            let v = crate::dom::fold_ws(&decode_char_refs(&v));
                            let mut o = o.borrow_mut();
                            if !v.is_empty() && o.itemprops.len() < MAX_ITEMS {
                                o.itemprops.push((k, v));
                            }
                        }
                        Ok(())
                    }));
                } else {
                    *pt1.borrow_mut() = None;
                }
                Ok(())
            }),
            text!("[itemprop]", move |t| {
                if let Some((_, v)) = pt2.borrow_mut().as_mut() {
                    push_bounded(v, t.as_str(), MAX_TEXT);
                }
                Ok(())
            }),
        ]);
    }
    if rel_author {
        handlers.extend([
            element!("a[rel~=\"author\" i]", move |el| {
                *at1.borrow_mut() = Some(String::new());
                let (at, o) = (at1.clone(), o9.clone());
                if let Some(h) = el.end_tag_handlers() {
                    h.push(on_end(move |_| {
                        if let Some(v) = at.borrow_mut().take() {
                            let v = crate::dom::fold_ws(&decode_char_refs(&v));
                            let mut o = o.borrow_mut();
                            if !v.is_empty() && o.rel_authors.len() < MAX_ITEMS {
                                o.rel_authors.push(v);
                            }
                        }
                        Ok(())
                    }));
                }
                Ok(())
            }),
            text!("a[rel~=\"author\" i]", move |t| {
                if let Some(v) = at2.borrow_mut().as_mut() {
                    push_bounded(v, t.as_str(), MAX_TEXT);
                }
                Ok(())
            }),
        ]);
    }
    (handlers, Found(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_declarations() {
        let s = scan(
            r#"<html lang="en-GB"><head><title> A  title | Site </title>
            <meta property="og:title" content="A title"><meta name="Author" content="Jane Roe">
            <link rel="canonical" href="/a"><script type="application/ld+json">{"@type":"NewsArticle"}</script>
            </head><body><time datetime="2024-03-05" pubdate>5 March</time>
            <span itemprop="author"><span itemprop="name">Jane</span> Roe</span><a rel="author" href="/j">J. Roe</a></body></html>"#,
        );
        assert_eq!(s.lang.as_deref(), Some("en-GB"));
        assert_eq!(s.title.as_deref(), Some("A title | Site"));
        assert_eq!(s.meta(&["author"]), Some("Jane Roe"));
        assert_eq!(s.meta(&["og:title"]), Some("A title"));
        assert_eq!(s.link("canonical"), Some("/a"));
        assert_eq!(s.json_ld, vec![r#"{"@type":"NewsArticle"}"#.to_string()]);
        assert_eq!(s.times.len(), 1);
        assert!(s.times[0].published);
        assert_eq!(s.itemprop("author"), Some("Jane Roe"));
        assert_eq!(s.rel_authors, vec!["J. Roe".to_string()]);
    }

    #[test]
    fn microdata_and_author_links_are_found_in_any_case() {
        let s = scan(r#"<div ITEMPROP="Author">Jane Roe</div><A REL="Author" href="/j">J. Roe</A>"#);
        assert_eq!(s.itemprop("author"), Some("Jane Roe"));
        assert_eq!(s.rel_authors, vec!["J. Roe".to_string()]);
        assert_eq!(contains_letters_ci(b"xx ItemProp=", [b"itemprop", b"author"]), [true, false]);
        assert_eq!(contains_letters_ci(b"itempro AUTHO\xc9", [b"itemprop", b"author"]), [false, false]);
        assert_eq!(contains_letters_ci(b"", [b"author"]), [false]);
        // `@`, `[` and the like fold onto other bytes than letters; a match across blocks is found.
        assert_eq!(contains_letters_ci(b"@UTHOR {uthor", [b"author"]), [false]);
        let mut long = vec![b'x'; 16 * 1024 - 3];
        long.extend_from_slice(b"AuThOr");
        assert_eq!(contains_letters_ci(&long, [b"author"]), [true]);
    }

    #[test]
    fn the_parse_tree_gives_the_same_declarations() {
        // Pages pre-strip passes through are read from the parser's tree instead of this pass.
        let page = r#"<html lang="en-GB"><head><title> A  title | Site </title>
            <meta property="og:title" content="A title"><meta name="Author" content="Jane Roe">
            <link rel="canonical" href="/a"><script type="application/ld+json">{"@type":"NewsArticle"}</script>
            </head><body><time datetime="2024-03-05" class="entry-date">5 March</time><time class=updated>6 March</time>
            <span itemprop="author"><span itemprop="name">Jane</span> Roe</span><meta itemprop="datePublished" content="2024-03-05">
            <span itemprop="headline" content="Rice"></span><img itemprop="name"><a rel="Author nofollow" href="/j">J. Roe</a>
            <svg><title>icon</title></svg></body></html>"#;
        let (_, tree) = crate::dom::Document::parse_observed(
            page.into(),
            crate::dom::DomLimits::UNBOUNDED,
            crate::metadata::declarations::collect,
        )
        .unwrap();
        assert_eq!(format!("{tree:?}"), format!("{:?}", scan(page)));
        assert_eq!(tree.times.len(), 2);
        assert!(tree.times[0].published && tree.times[1].modified);
    }

    #[test]
    fn the_parse_tree_reads_what_the_parser_decodes() {
        // Attribute values arrive decoded: a `type` written with a character reference is JSON-LD
        // to a browser. Template contents are not part of the page.
        let page = r#"<title>Bj&ouml;rn</title><script type="application/ld&#x2B;json">{"a":1}</script>
            <template><meta name="author" content="Hidden"></template><p>x</p>"#;
        let (_, d) = crate::dom::Document::parse_observed(
            page.into(),
            crate::dom::DomLimits::UNBOUNDED,
            crate::metadata::declarations::collect,
        )
        .unwrap();
        assert_eq!(d.title.as_deref(), Some("Björn"));
        assert_eq!(d.json_ld, vec![r#"{"a":1}"#.to_string()]);
        assert!(d.meta.is_empty());
    }

    #[test]
    fn the_parse_tree_walk_is_bounded_and_flat() {
        // Deep nesting costs no stack; texts stay within their bounds.
        let page = format!(
            "<title>{}</title>{}<time>{}</time>",
            "x".repeat(100_000),
            "<div itemprop=author>".repeat(20_000),
            "y".repeat(5_000)
        );
        let (_, d) = crate::dom::Document::parse_observed(
            page.into(),
            crate::dom::DomLimits::UNBOUNDED,
            crate::metadata::declarations::collect,
        )
        .unwrap();
        assert!(d.title.is_some_and(|t| t.len() <= MAX_TEXT));
        assert!(d.itemprops.iter().all(|(_, v)| v.len() <= MAX_TEXT));
    }

    #[test]
    fn hostile_input_is_bounded() {
        let page =
            format!("<title>{}</title><script type=application/ld+json>{}", "x".repeat(100_000), "[".repeat(100_000));
        let s = scan(&page);
        assert!(s.title.is_some_and(|t| t.len() <= MAX_TEXT));
        assert!(s.json_ld.len() <= 1);
    }
}
