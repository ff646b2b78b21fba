//! Which elements the arena copy leaves out, and which hidden ones it reads anyway: the page-level side
//! of hiding. The per-element tests (non-content names, `hidden` values, hiding styles, tab panels,
//! streamed segments) live in [`crate::text::hidden`], shared with pre-strip; what needs the whole page
//! or the copy's state lives here: the verdict that combines an element's tests ([`Hiding`]), content
//! a control discloses ([`note_controls`]) and the wrappers that hide it ([`climb_wrappers`]), pages
//! hidden whole by an anti-flicker style ([`hid_the_page`]), and the form controls counted though
//! skipped.

use std::collections::HashSet;

use html5ever::LocalName;

use crate::dom::tree::{self, Tree};

/// The most visible text (bytes) a page may keep and still count as hidden by its inline styles
/// ([`hid_the_page`]).
const SHOWN_MAX: usize = 2048;
/// The least text (bytes) inline styles must hide for the page to count as hidden.
const HIDDEN_MIN: usize = 1000;

/// What `open` did with an element, so that its close can undo it.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Action {
    /// A new arena node, now the open element.
    Pushed,
    /// Not copied, nor anything inside it.
    Skipped,
    /// Skipped for its inline style or `aria-hidden`. The parser-tree walk records these, to read the page again
    /// without style hiding when they hid nearly all of it ([`hid_the_page`]); the scraper
    /// walk (site rules) has no second reading and skips them like any other.
    StyleHidden,
    /// Skipped for `aria-hidden="true"`: counted with [`Action::StyleHidden`], and also apart, to read
    /// the page again with only `aria-hidden` ignored when it hid most of the text
    /// ([`a_dialog_hid_the_page`]).
    AriaHidden,
    /// Past a limit: the tag is dropped, its content goes to the nearest kept ancestor.
    Flattened,
}

impl Action {
    /// The element is left out with its subtree.
    pub(super) fn skips(self) -> bool {
        matches!(self, Action::Skipped | Action::StyleHidden | Action::AriaHidden)
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
pub(super) fn climb_wrappers<I: Copy + PartialEq>(
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
pub(super) fn is_form_control<'a>(name: &LocalName, mut attrs: impl Iterator<Item = (&'a str, &'a str)>) -> bool {
    match &**name {
        "button" | "textarea" => true,
        "input" => !attrs.any(|(k, v)| k == "type" && v.trim().eq_ignore_ascii_case("hidden")),
        _ => false,
    }
}

/// What an element's attributes say about hiding it, gathered in the builder's one pass over them
/// (`Builder::open`).
#[derive(Default)]
pub(super) struct Hiding {
    /// A `hidden` attribute that hides ([`crate::text::hidden::hidden_attribute_hides`]).
    pub(super) hidden_attr: bool,
    /// The element is a late segment of a streamed page ([`crate::text::hidden::is_streamed_segment`]).
    pub(super) streamed: bool,
    /// The first hiding attribute met (inline style or `aria-hidden`).
    pub(super) hidden_by: Option<Action>,
    /// The element is a tab panel ([`crate::text::hidden::is_tab_panel`]).
    pub(super) tab_panel: bool,
    /// The element has an `open` attribute (a `<dialog>` shows only with one).
    pub(super) dialog_open: bool,
    /// A control names the element in its `aria-controls` ([`note_controls`]).
    pub(super) disclosed: bool,
    /// The element's role is a dialog's ([`crate::text::hidden::is_dialog_role`]).
    pub(super) dialog_role: bool,
    /// Its `aria-modal`, when it has one.
    pub(super) aria_modal: Option<bool>,
}

impl Hiding {
    /// How the element called `name` is left out, or `None` when it is read.
    pub(super) fn verdict(mut self, name: &LocalName) -> Option<Action> {
        // A `<dialog>` shows only while `open` (a script opens it: a sign-up form, a share sheet).
        self.hidden_attr |= !self.dialog_open && &**name == "dialog";
        let hidden = self.hidden_by.or((self.hidden_attr && !self.streamed).then_some(Action::Skipped));
        // A dialog laid over the page (a consent banner, a newsletter prompt, a menu drawer, a size
        // guide) is not the page, even while shown and even when a button on the page opens it; one
        // that says it is not modal (`aria-modal="false"`: a product's sheet in the page's flow) is
        // read. One its markup shows is left out as a style hides, so a page saved as nothing but a
        // dialog is read again whole ([`hid_the_page`]).
        if (self.dialog_role && self.aria_modal != Some(false)) || self.aria_modal == Some(true) {
            return Some(hidden.unwrap_or(Action::StyleHidden));
        }
        // A tab panel ([`crate::text::hidden::is_tab_panel`]) or an element a control discloses
        // ([`note_controls`]) is kept even while hidden.
        if self.tab_panel || self.disclosed { None } else { hidden }
    }
}

/// True when inline styles (or `aria-hidden`) hid nearly all of the page's text: some pages wrap the
/// whole body in a `visibility:hidden` element that a script reveals once its styles load (an
/// anti-flicker wrapper), and a page saved while a dialog was open has its whole body
/// `aria-hidden="true"` (a shop's item page, the dialog an offer). A reader sees that text, so the
/// page should be read without style hiding. "Nearly all": at most
/// [`SHOWN_MAX`] bytes of text stayed visible (`shown`), and the text of the elements skipped for
/// their style (`style_hidden`) is at least [`HIDDEN_MIN`] bytes and twenty times what stayed. Hidden
/// menus and dialogs beside a page's visible content never come near that, so ordinary pages keep
/// their hiding.
pub(super) fn hid_the_page(shown: usize, style_hidden: &[tree::Id], t: &Tree) -> bool {
    if style_hidden.is_empty() || shown > SHOWN_MAX {
        return false;
    }
    let hidden = text_under(style_hidden, t);
    hidden >= HIDDEN_MIN && hidden >= 20 * shown
}

/// How many times the text it stayed visible `aria-hidden` must hide for the page to count as saved
/// with a dialog open ([`a_dialog_hid_the_page`]).
const ARIA_HIDDEN_FACTOR: usize = 3;

/// True when `aria-hidden="true"` hid most of the page's text: at least [`HIDDEN_MIN`] bytes and
/// [`ARIA_HIDDEN_FACTOR`] times what stayed visible (`shown`). A script that opens a modal (a consent
/// banner, a sign-in prompt) marks everything behind it `aria-hidden` for screen readers; a page saved
/// in that state has its whole content so marked while its header and the modal stay visible, more
/// than [`hid_the_page`] allows. The content is on screen behind the modal, so the page is read again
/// with `aria-hidden` ignored and its inline styles still honoured. Decorative `aria-hidden` (icons,
/// a carousel's copies, a duplicate menu) stays beside a page's visible content and never comes near
/// three quarters of its text.
pub(super) fn a_dialog_hid_the_page(shown: usize, aria_hidden: &[tree::Id], t: &Tree) -> bool {
    if aria_hidden.is_empty() {
        return false;
    }
    let hidden = text_under(aria_hidden, t);
    hidden >= HIDDEN_MIN && hidden >= ARIA_HIDDEN_FACTOR * shown
}

/// Bytes of text under the skipped elements `roots` (none inside another: a skipped element's subtree
/// is not walked).
fn text_under(roots: &[tree::Id], t: &Tree) -> usize {
    roots.iter().map(|&root| t.text_len(root)).sum()
}

/// At most this many click handlers a page are read for the overlay they close: a bound on what a
/// hostile page can make the build do (each handler climbs [`OVERLAY_LEVELS`] ancestors at most).
pub(super) const MAX_HANDLERS: usize = 4096;

/// How many levels above its control an overlay may stand.
const OVERLAY_LEVELS: usize = 12;

/// How many quoted names of one handler are read.
const MAX_NAMES: usize = 4;

/// Whether a click handler hides what it acts on: it calls something that hides, closes, removes or
/// dismisses, or sets `none` (`display`). Read in the page's script, whatever language its text is in;
/// a handler that shows or toggles (a disclosure, whose content is the page's) does not count, nor does
/// jQuery's `closest`, which finds an ancestor and closes nothing.
fn hides(handler: &str) -> bool {
    let h = handler.to_ascii_lowercase().replace("closest", "");
    let any = |words: &[&str]| words.iter().any(|w| h.contains(w));
    any(&["hide", "close", "remove", "dismiss", "'none'", "\"none\"", "fadeout", "slideup"])
        && !any(&["show", "toggle"])
}

/// The names a handler writes in quotes (`getElementById('size_grid')`, `$('#popup')`), `#` left
/// out: the `id`s it may act on.
fn quoted_names(handler: &str) -> impl Iterator<Item = &str> {
    handler
        .split(['\'', '"'])
        .skip(1)
        .step_by(2)
        .map(|q| q.strip_prefix('#').unwrap_or(q))
        .filter(|q| {
            !q.is_empty() && q.len() <= 64 && q.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_:".contains(&b))
        })
        .take(MAX_NAMES)
}

/// Mark the overlay a control closes by its own `id`: the nearest of `control`'s ancestors (up to
/// [`OVERLAY_LEVELS`] above it, `<body>` and `<html>` aside) whose `id` the control's click handler
/// names, when the handler hides what it acts on ([`hides`]). A size guide, a video layer or a
/// newsletter box laid over the page carries its own close button (`<a onclick="hide(document.
/// getElementById('size_grid'))">Close</a>` inside `<div id=size_grid>`); shown only after a click,
/// and closed again by one, it is not the page's text, whatever stylesheet hides it meanwhile.
pub(super) fn closed_by_its_own_control<I: Copy>(
    control: I,
    handler: &str,
    parent: impl Fn(I) -> Option<I>,
    has_id: impl Fn(I, &str) -> bool,
    is_root: impl Fn(I) -> bool,
    mut mark: impl FnMut(I),
) {
    if !hides(handler) {
        return;
    }
    let names: Vec<&str> = quoted_names(handler).collect();
    if names.is_empty() {
        return;
    }
    let mut at = control;
    for _ in 0..OVERLAY_LEVELS {
        let Some(p) = parent(at) else { return };
        if is_root(p) {
            return;
        }
        if names.iter().any(|n| has_id(p, n)) {
            mark(p);
            return;
        }
        at = p;
    }
}

/// Remember the `id`s an element's `aria-controls` names. A button or link that names the element it
/// shows and hides (an accordion's answer, a "read more" section, a tab's panel) discloses content of
/// the page a click away, and the builder keeps that element though hidden; menus disclosed the same
/// way are left to the block model like visible menus.
pub(super) fn note_controls<'a>(disclosed: &mut HashSet<Box<str>>, attrs: impl Iterator<Item = (&'a str, &'a str)>) {
    for (k, v) in attrs {
        if k == "aria-controls" && disclosed.len() < MAX_DISCLOSED {
            disclosed.extend(v.split_ascii_whitespace().take(MAX_DISCLOSED).map(Box::from));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dom::{Document, DomLimits};

    #[test]
    fn an_overlay_its_own_control_closes_is_left_out() {
        let prose = "The slippers are knitted from boiled wool and soled with natural rubber. ".repeat(5);
        let text = |html: &str| {
            let doc = Document::parse(&format!("<body><h1>Slippers</h1><p>{prose}</p>{html}</body>"));
            doc.subtree_text(doc.body)
        };
        // A size guide whose close link hides it by its id, however deep the link sits.
        let guide = "<div id=size_grid><div><span><a href=# onclick=\"hide(document.getElementById('size_grid'));\
                     return false;\">Close X</a></span></div><h2>Size guide</h2><p>Measure your foot.</p></div>";
        assert!(!text(guide).contains("Size guide"), "{}", text(guide));
        // The same with jQuery's selector, and with the style set by hand.
        let jq = "<div id=promo><button onclick=\"$('#promo').fadeOut()\">x</button>Join our list</div>";
        assert!(!text(jq).contains("Join our list"));
        let by_hand = "<div id=layer><a onclick=\"document.getElementById('layer').style.display='none'\">x</a>\
                       Watch the video</div>";
        assert!(!text(by_hand).contains("Watch the video"));
        // A control that shows or toggles its section discloses the page's content: it stays.
        let faq = "<div id=answer1><a onclick=\"toggle('answer1')\">Answer</a>Wash them by hand.</div>";
        assert!(text(faq).contains("Wash them by hand."));
        // Finding an ancestor is not closing it.
        let pick = "<div id=row><a onclick=\"$(this).closest('#row').addClass('picked')\">Pick</a>Size 38</div>";
        assert!(text(pick).contains("Size 38"));
        // A handler that names another element, or none, closes nothing here.
        let other = "<div id=box><a onclick=\"hide('cart')\">Close cart</a>Free delivery.</div>";
        assert!(text(other).contains("Free delivery."));
        // The body is never an overlay, whatever a handler names.
        let doc = Document::parse(&format!(
            "<body id=page><p>{prose}</p><a onclick=\"closeMenu('page')\">Close menu</a></body>"
        ));
        assert!(doc.subtree_text(doc.body).contains("boiled wool"));
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
    fn a_page_saved_under_an_open_dialog_is_read() {
        let prose = "The seller describes the item: new, with tags, in the original packing. ".repeat(20);
        // The dialog's page marks everything behind it aria-hidden; that text is the page's text.
        let behind = format!(
            "<body><div aria-hidden=\"true\"><h1>Hip pads</h1><p>{prose}</p></div>\
             <div role=dialog><p>Sign in for offers</p></div></body>"
        );
        let doc = Document::parse(&behind);
        assert!(doc.subtree_text(doc.body).starts_with("Hip pads"), "{}", doc.subtree_text(doc.body));
        // An aria-hidden icon or duplicate beside visible text stays out.
        let icons = format!("<body><span aria-hidden=\"true\">{}</span><p>{prose}</p></body>", "icon ".repeat(300));
        let doc = Document::parse(&icons);
        assert!(!doc.subtree_text(doc.body).contains("icon"));
    }

    #[test]
    fn a_page_behind_an_open_modal_is_read_with_its_header_and_styles() {
        let prose = "The seller describes the item: new, with tags, in the original packing. ".repeat(40);
        let header = "<a href=/>Home</a> <a href=/deals>Deals</a> <a href=/help>Help</a> ".repeat(10);
        // A consent modal left open: the script marked the item aria-hidden, while the site's header and
        // the modal stay visible, too much text for the whole page to count as hidden by its styles.
        let consent = "By clicking Accept you agree to the use of cookies on this site. ".repeat(6);
        let page = format!(
            "<body><header>{header}</header><div class=modal><p>{consent}</p></div>\
             <div aria-hidden=\"true\"><h1>Hip pads</h1><p>{prose}</p>\
             <div style='display:none'><p>Your basket is empty.</p></div></div></body>"
        );
        let doc = Document::parse(&page);
        let text = doc.subtree_text(doc.body);
        assert!(text.contains("Hip pads") && text.contains("original packing"), "{text}");
        // Read again with aria-hidden ignored, not every hiding: the inline style still hides.
        assert!(!text.contains("basket"), "{text}");
        // When the visible text is more than a third of what aria-hidden hides, the hiding holds.
        let more_visible = format!("<body><p>{prose}</p><div aria-hidden=\"true\"><p>{prose}</p></div></body>");
        let doc = Document::parse(&more_visible);
        assert_eq!(doc.subtree_text(doc.body).matches("original packing").count(), 40);
    }

    #[test]
    fn dialogs_over_the_page_are_left_out_and_sheets_in_its_flow_are_read() {
        let prose = "The oil softens the beard and calms the skin beneath it, morning and night. ".repeat(20);
        let page = format!(
            "<body><button aria-controls=nav>Menu</button>\
             <div id=nav role=dialog aria-modal=true><a href=/>Shop</a><a href=/about>About</a></div>\
             <div role=alertdialog><p>We use cookies to improve your visit.</p></div>\
             <div aria-modal=true class=drawer><p>Your cart is empty.</p></div>\
             <h1>Beard oil</h1><p>{prose}</p>\
             <div role=dialog aria-modal=false><p>Sandalwood, cedar and bergamot.</p></div></body>"
        );
        let doc = Document::parse(&page);
        let text = doc.subtree_text(doc.body);
        for dropped in ["Shop", "cookies", "cart is empty"] {
            assert!(!text.contains(dropped), "{dropped} kept in {text}");
        }
        for kept in ["Beard oil", "softens the beard", "Sandalwood"] {
            assert!(text.contains(kept), "{kept} missing from {text}");
        }
        // A page saved as nothing but a dialog (a quick view stored on its own) is read whole.
        let alone = format!("<body><div role=dialog><h1>Beard oil</h1><p>{prose}</p></div></body>");
        let doc = Document::parse(&alone);
        assert!(doc.subtree_text(doc.body).starts_with("Beard oil"), "{}", doc.subtree_text(doc.body));
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
}
