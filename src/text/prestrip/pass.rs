//! The streaming lol_html pass: whole non-content elements (scripts, styles, SVG art and the like)
//! removed, and nesting past [`MAX_NESTING`] flattened, on the pages where that pays for itself
//! ([`super::Admitted::runs_pass`]). The metadata scan's observers ride along in the same pass
//! ([`Observers`]), so the page is tokenized once.

use std::borrow::Cow;
use std::cell::Cell;
use std::rc::Rc;
use std::sync::LazyLock;

use html5ever::tendril::StrTendril;
use lol_html::html_content::Element;
use lol_html::{ElementContentHandlers, HandlerResult, HtmlRewriter, RewriteStrSettings, Selector, Settings};

/// Elements nested deeper than this are flattened (tags removed, text kept). html5ever checks the
/// stack of open elements on every block start tag, so 100,000 nested `<div>`s cost it O(n²) — about
/// 20 s. No real page nests anywhere near this deep. pith's own parse (`dom::tree`) flattens by the
/// depth at which the tree builder puts each element; this pass flattens, by an estimate, only the
/// pages that html5ever's own tokenizer will read (see [`super::Admitted::parsed_by_pith`]).
pub const MAX_NESTING: usize = 1024;

/// Result of the pass.
pub struct Prestripped {
    /// The remaining HTML, in the tendril the parser takes without a copy.
    pub html: StrTendril,
    /// False when the text is passed through unchanged: no script or style content to leave out, and
    /// too little else to strip for the pass to pay for itself (or lol_html rejected the page).
    pub applied: bool,
    /// Start tags in the page (outside scripts, styles and attribute values), counted before the pass:
    /// about the elements a parser would build (each start tag makes one, repeated `<html>`, `<head>`
    /// and `<body>` aside), so that the work budget can refuse a page before parsing it.
    pub elements: usize,
}

/// lol_html element handlers (each with its selector) of another reader of the page, run in this
/// stage's pass so that the page is tokenized once (the pipeline passes the metadata scan's). They see
/// every element and text of the page as admitted, whatever the pass removes.
pub type Observers = Vec<(Cow<'static, Selector>, ElementContentHandlers<'static>)>;

/// Elements removed with everything inside them: the ones whose content is bulky and never text (a
/// subset of [`crate::text::hidden::is_ignored`], which the DOM stage applies to whatever is left).
const DROP: &str = "script, style, template, iframe, svg, select";

/// The selectors, parsed once: on a small page parsing them cost about a fifth of the pass.
static SELECTORS: LazyLock<[Option<Selector>; 2]> = LazyLock::new(|| [DROP, "*"].map(|s| s.parse().ok()));
const SEL_DROP: usize = 0;
const SEL_ANY: usize = 1;

/// Add an element handler for one of [`SELECTORS`] (the constants parse; a failure would only skip it).
fn on<'h>(
    settings: RewriteStrSettings<'h, 'static>,
    selector: usize,
    handler: impl FnMut(&mut Element<'_, '_>) -> HandlerResult + 'h,
) -> RewriteStrSettings<'h, 'static> {
    match SELECTORS[selector].as_ref() {
        Some(sel) => settings
            .append_element_content_handler((Cow::Borrowed(sel), ElementContentHandlers::default().element(handler))),
        None => settings,
    }
}

pub(super) fn run(html: &str, flatten: bool, observers: Observers) -> Prestripped {
    // Non-strict: a page with an ambiguous construct (text inside `<select>`, say) is rewritten on a
    // best-effort basis instead of refused.
    let settings = on(RewriteStrSettings::new().with_strict(false), SEL_DROP, |el| {
        el.remove();
        Ok(())
    });
    // Depth tracking costs a handler call per element, so it runs only when a quick scan says the page
    // may nest past the limit (and html5ever's tokenizer will read it, see `Admitted::parsed_by_pith`).
    // Implicitly closed elements (`<p>`, `<li>` without end tags) make the count drift upwards; that
    // can only flatten more, never lose text.
    let settings = if flatten {
        let depth = Rc::new(Cell::new(0usize));
        on(settings, SEL_ANY, move |el| {
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
        })
    } else {
        settings
    };
    let settings = observers.into_iter().fold(settings, |s, h| s.append_element_content_handler(h));
    let settings: Settings<'_, '_> = settings.into();
    // The pass only removes, so the output fits the input's length; it is then copied into a tendril of
    // exactly its own (one given a capacity rounds it up to a power of two, and lives to the parse's end).
    let mut out = Vec::with_capacity(html.len());
    let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| out.extend_from_slice(chunk));
    let ok = rewriter.write(html.as_bytes()).is_ok() && rewriter.end().is_ok();
    if ok && let Ok(text) = std::str::from_utf8(&out) {
        return Prestripped { html: StrTendril::from_slice(text), applied: true, elements: 0 };
    }
    Prestripped { html: StrTendril::from_slice(html), applied: false, elements: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::prestrip::scan::prescan;
    use crate::text::prestrip::{UNBOUNDED, admit, strip};

    fn nesting_estimate(html: &str) -> usize {
        prescan(html).max_depth
    }

    #[test]
    fn dropped_names_are_non_content_names() {
        for name in DROP.split(',').map(str::trim) {
            assert!(crate::text::hidden::is_ignored(name), "{name}");
        }
    }

    #[test]
    fn drops_noise_and_keeps_content() {
        let out = run(
            "<body><!-- c --><script>x()</script><style>p{}</style><p>keep <a href=/>link</a></p>\
             <svg><text>art</text></svg><form><p>form text</p><select><option>opt</select></form></body>",
            false,
            Vec::new(),
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
    fn deep_nesting_is_flattened_and_text_kept() {
        let n = MAX_NESTING * 3;
        let html = format!("<body>{}deep text{}</body>", "<div>".repeat(n), "</div>".repeat(n));
        assert!(nesting_estimate(&html) >= n);
        // For html5ever's tokenizer the pass flattens; pith's own parse flattens as it builds the tree
        // (`dom::tree`), so for it the page is passed through.
        let out = admit(&html, UNBOUNDED).unwrap().parsed_by_pith(false).prestrip().html.to_string();
        assert!(out.contains("deep text"));
        assert!(nesting_estimate(&out) <= MAX_NESTING + 2, "{}", nesting_estimate(&out));
        assert_eq!(&*strip(&html).html, html);
        // Ordinary pages are left alone.
        assert_eq!(&*strip("<div><div>x</div></div>").html, "<div><div>x</div></div>");
    }
}
