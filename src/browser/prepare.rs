//! The page as the browser gets it: decoded and pre-stripped by the engine's own stages 1–2
//! ([`Engine::strip`]), parsed into the same arena, written back out with arena ids stamped on the
//! elements and the page's own style sheets in its `<head>`. The stripped page is kept, so that
//! extraction continues from it once the layout is known instead of decoding and pre-stripping again.
//!
//! Pre-strip removes `<style>` elements, so their text is collected first, in document order, from the
//! decoded page. `<link rel=stylesheet>` addresses are collected too but not fetched here: the layout
//! pass makes no request of its own (see [`super::page`]); a caller may fetch them through its checked
//! fetcher and pass their text in as `extra_css`.

use std::cell::RefCell;
use std::rc::Rc;

use lol_html::html_content::{Element, TextChunk};
use lol_html::{ElementContentHandlers, HtmlRewriter, Selector, Settings};

use crate::dom::{Document, parse_stamped};
use crate::engine::{Engine, Request, Stripped};
use crate::error::Error;

/// Most bytes of inline CSS carried into the layout pass (real pages stay far below).
const MAX_INLINE_CSS: usize = 4 * 1024 * 1024;

/// A page ready for the browser.
pub struct Prepared<'e> {
    /// The arena the stamps refer to: the one the engine builds from the same bytes.
    pub doc: Document,
    /// Stamped HTML, UTF-8.
    pub html: String,
    /// `href`s of the page's external style sheets, in document order, as written.
    pub links: Vec<String>,
    /// The page after the engine's stages 1–2, for extraction to continue from.
    pub stripped: Stripped<'e>,
}

/// Decode, collect styles, pre-strip, parse and stamp, with the engine's own stages, so that the
/// arenas match.
pub fn prepare<'e>(
    engine: &'e Engine,
    bytes: &[u8],
    charset: Option<&str>,
    extra_css: &[String],
) -> Result<Prepared<'e>, Error> {
    prepare_request(engine, &Request { charset, ..Request::new(bytes) }, extra_css)
}

/// [`prepare`] for the extraction `req` asks for (its algorithm decides what stages 1–2 keep beside the
/// page).
pub fn prepare_request<'e>(engine: &'e Engine, req: &Request<'_>, extra_css: &[String]) -> Result<Prepared<'e>, Error> {
    let prep = engine.preparation(req, req.options.algorithm.needs(), None);
    let (stripped, styles) = engine.strip(req.bytes, &prep, true, collect_styles)?;
    let mut head = String::from("<meta charset=\"utf-8\">");
    for css in extra_css.iter().chain(std::iter::once(&styles.css)) {
        if css.trim().is_empty() {
            continue;
        }
        head.push_str("<style>");
        push_css(css, &mut head);
        head.push_str("</style>");
    }
    let (doc, html) = parse_stamped(stripped.html.clone(), engine.limits.dom, &head)?;
    Ok(Prepared { doc, html, links: styles.links, stripped })
}

/// Append CSS so that nothing in it can close the `<style>` element early (`</style` is written as
/// `<\/style`, the same thing to a CSS parser).
fn push_css(css: &str, out: &mut String) {
    let bytes = css.as_bytes();
    let mut last = 0;
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', &bytes[i..]) {
        let at = i + k;
        if bytes.len() >= at + 7 && bytes[at + 1] == b'/' && bytes[at + 2..at + 7].eq_ignore_ascii_case(b"style") {
            out.push_str(&css[last..at + 1]);
            out.push('\\');
            last = at + 1;
        }
        i = at + 1;
    }
    out.push_str(&css[last..]);
}

#[derive(Default)]
struct Styles {
    css: String,
    links: Vec<String>,
}

/// The text of every `<style>` element, joined in document order, and every style sheet link.
fn collect_styles(html: &str) -> Styles {
    let found = Rc::new(RefCell::new(Styles::default()));
    let (Ok(style), Ok(link)) = ("style".parse::<Selector>(), "link[rel][href]".parse::<Selector>()) else {
        return Styles::default();
    };
    let f1 = found.clone();
    let f2 = found.clone();
    let on_text = move |t: &mut TextChunk<'_>| {
        let mut s = f1.borrow_mut();
        if s.css.len() + t.as_str().len() <= MAX_INLINE_CSS {
            s.css.push_str(t.as_str());
            if t.last_in_text_node() {
                s.css.push('\n');
            }
        }
        Ok(())
    };
    let on_link = move |el: &mut Element<'_, '_>| {
        let rel = el.get_attribute("rel").unwrap_or_default().to_ascii_lowercase();
        if rel.split_ascii_whitespace().any(|r| r == "stylesheet")
            && let Some(href) = el.get_attribute("href")
        {
            f2.borrow_mut().links.push(href.trim().to_string());
        }
        Ok(())
    };
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler((
            std::borrow::Cow::Owned(style),
            ElementContentHandlers::default().text(on_text),
        ))
        .append_element_content_handler((
            std::borrow::Cow::Owned(link),
            ElementContentHandlers::default().element(on_link),
        ));
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    // A page lol_html refuses is still laid out, only without its inline styles.
    let ok = rewriter.write(html.as_bytes()).is_ok() && rewriter.end().is_ok();
    let out = std::mem::take(&mut *found.borrow_mut());
    if ok { out } else { Styles { css: String::new(), links: out.links } }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_are_collected_in_order_and_kept_inside_their_element() {
        let s = collect_styles(
            "<head><style>a{color:red}</style><link rel='Stylesheet preload' href=' /s.css '>\
             <link rel=icon href=/i.png></head><body><style>p{margin:0}</style></body>",
        );
        assert_eq!(s.css, "a{color:red}\np{margin:0}\n");
        assert_eq!(s.links, ["/s.css"]);
        let mut out = String::new();
        push_css("x{content:'</STYLE><script>'}", &mut out);
        assert_eq!(out, "x{content:'<\\/STYLE><script>'}");
    }

    #[test]
    fn prepared_arena_is_the_engines() {
        let engine = Engine::untrained().unwrap();
        let page = b"<html><head><style>.n{float:left}</style></head><body><div class=n><a href=/>Home</a></div>\
                     <p>Body text of the page.</p><script>x()</script></body></html>";
        let p = prepare(&engine, page, None, &["body{margin:0}".to_string()]).unwrap();
        let plain = Document::parse(std::str::from_utf8(page).unwrap());
        assert_eq!(crate::dom::layout::fingerprint(&p.doc), crate::dom::layout::fingerprint(&plain));
        assert!(
            p.html.contains(
                "<head><meta charset=\"utf-8\"><style>body{margin:0}</style><style>.n{float:left}\n</style></head>"
            ),
            "{}",
            p.html
        );
        assert!(!p.html.contains("x()"));
    }
}
