//! Elements that never hold page text: the non-content names (scripts, styles, form controls, embedded
//! objects; not `<noscript>`, whose markup a browser without JavaScript shows and pith parses), and elements hidden by `hidden`, `aria-hidden="true"` or an inline
//! `display:none`/`visibility:hidden` (rule R1 of Thanadechteemapat & Fung's XPath heuristic). Pre-strip (stage 2) removes the bulkiest of
//! them before the parse; the DOM stage (3) skips whatever is left, with its subtree (and a `<dialog>`
//! without `open`, which a browser shows only when a script opens it). Both ask here.

/// Elements whose content is never page text. Pre-strip removes most of them; any that remain are
/// skipped here.
pub fn is_ignored(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "template"
            | "iframe"
            | "object"
            | "embed"
            | "svg"
            | "canvas"
            | "input"
            | "select"
            | "textarea"
            | "button"
            | "option"
            | "datalist"
            | "math"
            | "head"
            | "link"
            // Ruby annotations: the reading printed above a word (furigana, pinyin, zhuyin), and the
            // parentheses shown where ruby is not supported. The base text is the text.
            | "rt"
            | "rp"
    )
}

/// Whether a `hidden` attribute of this value hides its element: `hidden="until-found"` does not
/// for a reader, as the browser's find-in-page searches that content and shows it on a match.
pub fn hidden_attribute_hides(value: &str) -> bool {
    !value.trim().eq_ignore_ascii_case("until-found")
}

/// An ARIA tab panel (`role="tabpanel"`): kept even while hidden. A page shows one panel at a time
/// (one language's code sample, one operating system's steps, a product's specifications) and the
/// others are its content as much as the one shown, a click away.
pub fn is_tab_panel(role: &str) -> bool {
    role.trim().eq_ignore_ascii_case("tabpanel")
}

/// True for the roles of a dialog laid over the page (a consent banner, a sign-up form, a size guide).
pub fn is_dialog_role(role: &str) -> bool {
    let r = role.trim();
    r.eq_ignore_ascii_case("dialog") || r.eq_ignore_ascii_case("alertdialog")
}

/// True for the `id` of a segment that a streaming server renderer sends late: React sends
/// `<div hidden id="S:3">…</div>` after the shell, and a small inline script moves it into place as
/// soon as it arrives. A browser shows that content, so its `hidden` attribute does not hide it
/// (the fallback it replaces sits in a `<template>`, which stays ignored).
pub fn is_streamed_segment(id: &str) -> bool {
    id.strip_prefix("S:").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// True for inline styles that hide the element: `display:none` or `visibility:hidden`, any spacing or case.
pub fn style_hides(style: &str) -> bool {
    // Cheap rejection first: most styles mention neither property. Only the places where a needle's
    // first letter occurs are compared (a byte-by-byte comparison of long inline styles cost more than
    // the rest of the element's copy).
    let b = style.as_bytes();
    let has = |needle: &[u8]| {
        let mut at = 0;
        while let Some(k) = memchr::memchr2(needle[0], needle[0].to_ascii_uppercase(), &b[at..]) {
            let i = at + k;
            if b.get(i..i + needle.len()).is_some_and(|w| w.eq_ignore_ascii_case(needle)) {
                return true;
            }
            at = i + 1;
        }
        false
    };
    if !has(b"none") && !has(b"hidden") {
        return false;
    }
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
    fn hiding_styles() {
        assert!(style_hides("color:red; display : none"));
        assert!(style_hides("visibility:hidden !important"));
        assert!(is_streamed_segment("S:0") && is_streamed_segment("S:12"));
        assert!(!is_streamed_segment("S:") && !is_streamed_segment("S:1a") && !is_streamed_segment("s:1"));
        assert!(style_hides("DISPLAY: NONE"));
        assert!(!style_hides("display:block"));
        assert!(!style_hides("visibility:visible"));
        assert!(!style_hides("border:none"));
    }
}
