//! Stage 2: remove what can never be main content, in one streaming lol_html pass.
//!
//! Doing this before the DOM parse means html5ever never builds nodes for scripts, styles, SVG art and
//! hidden menus: on script-heavy pages that halves the tree. The DOM stage still ignores these elements
//! if they survive (for instance when lol_html refuses malformed input), so this pass is an
//! optimisation and a noise filter, never a correctness requirement.
//!
//! `<form>` itself is kept: many sites (ASP.NET among them) wrap the whole page in one form. Its
//! controls go.

use std::cell::Cell;
use std::rc::Rc;

use lol_html::{RewriteStrSettings, doc_comments, element, rewrite_str};

/// Elements removed with everything inside them.
const DROP: &str = "script, style, noscript, template, iframe, object, embed, svg, canvas, \
                    input, select, textarea, button, option, datalist, link, [hidden], [aria-hidden=\"true\"]";

/// Elements nested deeper than this are flattened (tags removed, text kept). html5ever checks the
/// stack of open elements on every block start tag, so 100,000 nested `<div>`s cost it O(n²) — about
/// 20 s. No real page nests anywhere near this deep.
pub const MAX_NESTING: usize = 1024;

/// Result of the pass.
pub struct Prestripped {
    pub html: String,
    /// False when lol_html rejected the input and the original text is passed through unchanged.
    pub applied: bool,
}

/// Remove comments, non-content elements and inline-hidden elements (`display:none`,
/// `visibility:hidden`), as seed 003's rule R1 asks.
pub fn prestrip(html: &str) -> Prestripped {
    // Non-strict: a page with an ambiguous construct (text inside `<select>`, say) is rewritten on a
    // best-effort basis instead of refused.
    let settings = RewriteStrSettings::new()
        .with_strict(false)
        .append_element_content_handler(element!(DROP, |el| {
            el.remove();
            Ok(())
        }))
        .append_element_content_handler(element!("[style]", |el| {
            if let Some(style) = el.get_attribute("style")
                && style_hides(&style)
            {
                el.remove();
            }
            Ok(())
        }))
        .append_document_content_handler(doc_comments!(|c| {
            c.remove();
            Ok(())
        }));
    // Depth tracking costs a handler call per element, so it runs only when a quick scan says the page
    // may nest past the limit. Implicitly closed elements (`<p>`, `<li>` without end tags) make the
    // count drift upwards; that can only flatten more, never lose text.
    let settings = if nesting_estimate(html) > MAX_NESTING {
        let depth = Rc::new(Cell::new(0usize));
        settings.append_element_content_handler(element!("*", move |el| {
            if el.is_self_closing() || !el.can_have_content() {
                return Ok(());
            }
            if depth.get() >= MAX_NESTING {
                el.remove_and_keep_content();
                return Ok(());
            }
            depth.set(depth.get() + 1);
            let d = depth.clone();
            if let Some(handlers) = el.end_tag_handlers() {
                let on_end: lol_html::EndTagHandler<'static> = Box::new(move |_end| {
                    d.set(d.get().saturating_sub(1));
                    Ok(())
                });
                handlers.push(on_end);
            }
            Ok(())
        }))
    } else {
        settings
    };
    match rewrite_str(html, settings) {
        Ok(out) => Prestripped { html: out, applied: true },
        Err(_) => Prestripped { html: html.to_string(), applied: false },
    }
}

/// Upper estimate of the page's element nesting from a byte scan of start and end tags (void elements
/// and self-closing tags ignored). Cheap next to parsing; exact only for well-formed pages.
pub fn nesting_estimate(html: &str) -> usize {
    let b = html.as_bytes();
    let (mut depth, mut max) = (0usize, 0usize);
    let mut i = 0;
    // `str::find` with a one-byte pattern runs memchr, several times faster than a byte-by-byte loop.
    while let Some(off) = html[i..].find('<') {
        i += off + 1;
        match b.get(i) {
            Some(b'/') => depth = depth.saturating_sub(1),
            Some(c) if c.is_ascii_alphabetic() => {
                let name_end = b[i..].iter().position(|c| !c.is_ascii_alphanumeric()).map_or(b.len(), |e| i + e);
                if !is_void_name(&b[i..name_end]) {
                    depth += 1;
                    max = max.max(depth);
                }
            }
            _ => {}
        }
    }
    max
}

/// Void element names, any case (the names are ASCII alphanumeric, at most 6 bytes long).
fn is_void_name(name: &[u8]) -> bool {
    if name.len() < 2 || name.len() > 6 {
        return false;
    }
    let mut buf = [0u8; 6];
    for (d, s) in buf.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    matches!(
        &buf[..name.len()],
        b"br"
            | b"img"
            | b"hr"
            | b"meta"
            | b"link"
            | b"input"
            | b"wbr"
            | b"area"
            | b"base"
            | b"col"
            | b"source"
            | b"embed"
            | b"track"
            | b"param"
    )
}

/// True for inline styles that hide the element: `display:none` or `visibility:hidden`, any spacing or case.
fn style_hides(style: &str) -> bool {
    let compact: String = style.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect();
    compact.split(';').any(|decl| {
        let decl = decl.trim_end_matches("!important");
        decl == "display:none" || decl == "visibility:hidden"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_noise_and_keeps_content() {
        let out = prestrip(
            "<body><!-- c --><script>x()</script><style>p{}</style><p>keep <a href=/>link</a></p>\
             <div style='DISPLAY: none'>gone</div><div hidden>gone too</div><svg><text>art</text></svg>\
             <form><p>form text</p><input value=v></form></body>",
        );
        assert!(out.applied);
        let h = out.html;
        assert!(h.contains("keep <a href=/>link</a>"));
        assert!(h.contains("form text"));
        for gone in ["x()", "p{}", "gone", "art", "<!--", "value=v"] {
            assert!(!h.contains(gone), "{gone} survived in {h}");
        }
    }

    #[test]
    fn deep_nesting_is_flattened_and_text_kept() {
        let n = MAX_NESTING * 3;
        let html = format!("<body>{}deep text{}</body>", "<div>".repeat(n), "</div>".repeat(n));
        assert!(nesting_estimate(&html) >= n);
        let out = prestrip(&html).html;
        assert!(out.contains("deep text"));
        assert!(nesting_estimate(&out) <= MAX_NESTING + 2, "{}", nesting_estimate(&out));
        // Ordinary pages are left alone.
        assert_eq!(prestrip("<div><div>x</div></div>").html, "<div><div>x</div></div>");
    }

    #[test]
    fn hiding_styles() {
        assert!(style_hides("color:red; display : none"));
        assert!(style_hides("visibility:hidden !important"));
        assert!(!style_hides("display:block"));
        assert!(!style_hides("visibility:visible"));
    }
}
