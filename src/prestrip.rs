//! Stage 2: remove what can never be main content, in one streaming lol_html pass.
//!
//! Doing this before the DOM parse means html5ever never builds nodes for scripts, styles, SVG art and
//! hidden menus: on script-heavy pages that halves the tree. The DOM stage still ignores these elements
//! if they survive (for instance when lol_html refuses malformed input), so this pass is an
//! optimisation and a noise filter, never a correctness requirement.
//!
//! `<form>` itself is kept: many sites (ASP.NET among them) wrap the whole page in one form. Its
//! controls go.

use lol_html::{RewriteStrSettings, doc_comments, element, rewrite_str};

/// Elements removed with everything inside them.
const DROP: &str = "script, style, noscript, template, iframe, object, embed, svg, canvas, \
                    input, select, textarea, button, option, datalist, link, [hidden]";

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
    match rewrite_str(html, settings) {
        Ok(out) => Prestripped { html: out, applied: true },
        Err(_) => Prestripped { html: html.to_string(), applied: false },
    }
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
    fn hiding_styles() {
        assert!(style_hides("color:red; display : none"));
        assert!(style_hides("visibility:hidden !important"));
        assert!(!style_hides("display:block"));
        assert!(!style_hides("visibility:visible"));
    }
}
