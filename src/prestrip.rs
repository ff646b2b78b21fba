//! Stage 2: remove what can never be main content, in one streaming lol_html pass.
//!
//! Doing this before the DOM parse means html5ever never tokenizes or builds nodes for scripts,
//! styles, SVG art and the like: on script-heavy pages that is half the bytes. The pass matches tag
//! names only: an attribute selector makes lol_html lex every start tag in full, which cost more than
//! it saved (see docs/PERFORMANCE.md), so hidden elements (`hidden`, `aria-hidden`, inline
//! `display:none`) are dropped by the DOM stage, which reads attributes anyway. The DOM stage also
//! skips any non-content element that survives (for instance when lol_html refuses malformed input),
//! so this pass is an optimisation, never a correctness requirement.
//!
//! `<form>` itself is kept: many sites (ASP.NET among them) wrap the whole page in one form.

use std::cell::Cell;
use std::rc::Rc;

use html5ever::tendril::{ByteTendril, StrTendril};
use lol_html::{HtmlRewriter, RewriteStrSettings, Settings, doc_comments, element};

/// Elements removed with everything inside them: the ones whose content is bulky and never text.
const DROP: &str = "script, style, noscript, template, iframe, svg, select";

/// Elements nested deeper than this are flattened (tags removed, text kept). html5ever checks the
/// stack of open elements on every block start tag, so 100,000 nested `<div>`s cost it O(n²) — about
/// 20 s. No real page nests anywhere near this deep.
pub const MAX_NESTING: usize = 1024;

/// Result of the pass.
pub struct Prestripped {
    /// The remaining HTML, in the tendril the parser takes without a copy.
    pub html: StrTendril,
    /// False when lol_html rejected the input and the original text is passed through unchanged.
    pub applied: bool,
}

/// Remove the non-content elements named in `DROP`, and flatten nesting past [`MAX_NESTING`].
pub fn prestrip(html: &str) -> Prestripped {
    run(html, false)
}

/// [`prestrip`], and also remove comments and hidden elements (`hidden`, `aria-hidden="true"`, inline
/// `display:none` / `visibility:hidden`). For the line-based algorithm, which reads the source text
/// rather than the DOM and so cannot rely on the DOM stage to skip them. About twice the cost.
pub fn prestrip_source(html: &str) -> Prestripped {
    run(html, true)
}

fn run(html: &str, hidden: bool) -> Prestripped {
    // Non-strict: a page with an ambiguous construct (text inside `<select>`, say) is rewritten on a
    // best-effort basis instead of refused.
    let settings = RewriteStrSettings::new().with_strict(false).append_element_content_handler(element!(DROP, |el| {
        el.remove();
        Ok(())
    }));
    // Depth tracking costs a handler call per element, so it runs only when a quick scan says the page
    // may nest past the limit. Implicitly closed elements (`<p>`, `<li>` without end tags) make the
    // count drift upwards; that can only flatten more, never lose text.
    let settings = if hidden {
        settings
            .append_element_content_handler(element!("[hidden], [aria-hidden=\"true\"]", |el| {
                el.remove();
                Ok(())
            }))
            .append_element_content_handler(element!("[style]", |el| {
                if el.get_attribute("style").is_some_and(|s| crate::dom::style_hides(&s)) {
                    el.remove();
                }
                Ok(())
            }))
            .append_document_content_handler(doc_comments!(|c| {
                c.remove();
                Ok(())
            }))
    } else {
        settings
    };
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
    let settings: Settings<'_, '_> = settings.into();
    // The output goes straight into the tendril html5ever will read: no second copy of the page.
    let mut out = ByteTendril::with_capacity(u32::try_from(html.len()).unwrap_or(u32::MAX));
    let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| out.push_slice(chunk));
    let ok = rewriter.write(html.as_bytes()).is_ok() && rewriter.end().is_ok();
    if ok && let Ok(text) = out.try_reinterpret() {
        return Prestripped { html: text, applied: true };
    }
    Prestripped { html: StrTendril::from_slice(html), applied: false }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_noise_and_keeps_content() {
        let out = prestrip(
            "<body><!-- c --><script>x()</script><style>p{}</style><p>keep <a href=/>link</a></p>\
             <svg><text>art</text></svg><form><p>form text</p><select><option>opt</select></form></body>",
        );
        assert!(out.applied);
        let h = out.html.to_string();
        assert!(h.contains("keep <a href=/>link</a>"));
        assert!(h.contains("form text"));
        for gone in ["x()", "p{}", "art", "opt"] {
            assert!(!h.contains(gone), "{gone} survived in {h}");
        }
    }

    #[test]
    fn source_variant_drops_hidden_elements_and_comments() {
        let page = "<p>keep</p><!-- c --><div style='DISPLAY: none'>gone</div><div hidden>gone</div>\
                    <span aria-hidden=true>gone</span><p style='color:red'>kept too</p>";
        let h = prestrip_source(page).html.to_string();
        assert!(h.contains("keep") && h.contains("kept too"), "{h}");
        assert!(!h.contains("gone") && !h.contains("<!--"), "{h}");
        // The DOM-feeding variant leaves them to the DOM stage.
        assert!(prestrip(page).html.contains("gone"));
    }

    #[test]
    fn deep_nesting_is_flattened_and_text_kept() {
        let n = MAX_NESTING * 3;
        let html = format!("<body>{}deep text{}</body>", "<div>".repeat(n), "</div>".repeat(n));
        assert!(nesting_estimate(&html) >= n);
        let out = prestrip(&html).html.to_string();
        assert!(out.contains("deep text"));
        assert!(nesting_estimate(&out) <= MAX_NESTING + 2, "{}", nesting_estimate(&out));
        // Ordinary pages are left alone.
        assert_eq!(&*prestrip("<div><div>x</div></div>").html, "<div><div>x</div></div>");
    }
}
