//! Stage 2: remove what can never be main content before the DOM parse.
//!
//! Two tools, cheapest first. The byte scan that admits the page (see [`prescan`]) already finds
//! every script and style; their contents are left out of the copy handed to the parser
//! (`Cut::RawText`), on every page, at the cost of that copy. A streaming lol_html pass then
//! removes whole elements (scripts, styles, SVG art and the like), only where what is left of them is
//! still a large share of the page: on such pages html5ever would otherwise tokenize and build nodes
//! for half the bytes. The pass matches tag names only: an attribute selector makes lol_html lex
//! every start tag in full, which cost more than it saved (see docs/PERFORMANCE.md), so hidden
//! elements (`hidden`, `aria-hidden`, inline `display:none`) are dropped by the DOM stage, which reads
//! attributes anyway. The DOM stage also skips any non-content element that survives (for instance
//! when lol_html refuses malformed input), so both tools are optimisations, never a correctness
//! requirement.
//!
//! `<form>` itself is kept: many sites (ASP.NET among them) wrap the whole page in one form.

use std::cell::Cell;
use std::rc::Rc;

use crate::text::words::find_ascii_ci;

use html5ever::tendril::{ByteTendril, StrTendril};
use std::borrow::Cow;
use std::sync::LazyLock;

use lol_html::html_content::Element;
use lol_html::{ElementContentHandlers, HandlerResult, HtmlRewriter, RewriteStrSettings, Selector, Settings};

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

/// The pass runs only when at least this share (in percent) of the page's bytes lies inside the
/// elements it removes (script and style contents, which the scan cuts anyway, aside). Below it,
/// parsing those bytes costs html5ever less than the lol_html pass costs: per-page timings of `auto`
/// over 1,000 news pages with and without the pass broke even at a share of 30–40% (see
/// docs/PERFORMANCE.md). The DOM stage skips the same elements either way.
pub const MIN_NOISE_PERCENT: usize = 35;

/// Elements nested deeper than this are flattened (tags removed, text kept). html5ever checks the
/// stack of open elements on every block start tag, so 100,000 nested `<div>`s cost it O(n²) — about
/// 20 s. No real page nests anywhere near this deep.
pub const MAX_NESTING: usize = 1024;

/// Attributes kept per start tag; the rest are cut before any parser sees them. html5ever checks each
/// new attribute against the tag's earlier ones, so one element with 400,000 attributes cost it 47 s.
/// Real elements carry a few dozen at most.
pub const MAX_ATTRIBUTES: usize = 256;

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

/// The work budget as this stage is given it: the most elements a page of `n` bytes may build. The
/// DOM stage owns the budget ([`crate::dom::DomLimits::node_budget`]); the pipeline passes it down.
pub type ElementBudget<'a> = &'a dyn Fn(usize) -> usize;

/// No budget: every page goes through the pass.
pub const UNBOUNDED: ElementBudget<'static> = &|_| usize::MAX;

/// A page refused before the pass: its start tags alone pass the budget of its own length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverBudget {
    pub elements: usize,
    pub budget: usize,
}

/// A page scanned and admitted under the work budget, ready for the pass: the title repaired and
/// the attributes capped when needed (see [`repair_title`], [`MAX_ATTRIBUTES`]), and its scan.
pub struct Admitted<'a> {
    html: Cow<'a, str>,
    scan: Prescan,
    /// The byte ranges left out of the copy the parser reads, in page order: script and style
    /// contents ([`Cut::RawText`]) and iframe start tags inside `<noscript>` ([`Cut::Tag`]).
    raw_text: Vec<(usize, usize)>,
}

/// Scan the page and refuse it if its start tags pass the budget of its own length. This comes
/// before any lol_html pass over the page (this stage's, and the metadata scan's, which the pipeline
/// runs after admission): lol_html keeps state for every element it tracks, so a page of a million
/// unclosed `<p>`s peaked near 400 MB in them. The budget of the page before the pass is at least
/// that of the page after it (the pass only removes bytes), so this refuses no page the check on the
/// stripped page would have accepted; that check still follows for the pages the pass shrinks.
pub fn admit<'a>(html: &'a str, budget: ElementBudget<'_>) -> Result<Admitted<'a>, OverBudget> {
    let html = match repair_title(html) {
        Some(fixed) => Cow::Owned(fixed),
        None => Cow::Borrowed(html),
    };
    let mut raw_text = Vec::new();
    let scan = scan_raw_text(&html, &mut raw_text);
    let (html, scan) = match cap_attributes(&html, &scan) {
        Some((page, _)) => {
            raw_text.clear();
            let scan = scan_raw_text(&page, &mut raw_text);
            (Cow::Owned(page), scan)
        }
        None => (html, scan),
    };
    let budget = budget(html.len());
    if scan.elements > budget {
        return Err(OverBudget { elements: scan.elements, budget });
    }
    Ok(Admitted { html, scan, raw_text })
}

/// [`prescan`], also collecting the ranges the parser need not read ([`Cut::RawText`], [`Cut::Tag`]).
fn scan_raw_text(html: &str, raw_text: &mut Vec<(usize, usize)>) -> Prescan {
    scan_with(html, &mut EndTags::default(), &mut |cut| {
        if let Cut::RawText(from, to) | Cut::Tag(from, to) = cut {
            raw_text.push((from, to));
        }
    })
}

/// lol_html element handlers (each with its selector) of another reader of the page, run in this
/// stage's pass so that the page is tokenized once (the pipeline passes the metadata scan's). They see
/// every element and text of the page as admitted, whatever the pass removes.
pub type Observers = Vec<(Cow<'static, Selector>, ElementContentHandlers<'static>)>;

impl Admitted<'_> {
    /// Start tags in the page (see [`Prestripped::elements`]).
    pub fn elements(&self) -> usize {
        self.scan.elements
    }

    /// Whether the page goes on as it was given to [`admit`]: no title repaired, no attribute cut.
    pub fn is_unchanged(&self) -> bool {
        matches!(self.html, Cow::Borrowed(_))
    }

    /// Whether [`Admitted::prestrip`] runs the lol_html pass rather than passing the page through.
    pub fn runs_pass(&self) -> bool {
        let left_out: usize = self.raw_text.iter().map(|(from, to)| to - from).sum();
        self.scan.max_depth > MAX_NESTING
            || self.scan.noise_bytes.saturating_sub(left_out) * 100 >= self.html.len() * MIN_NOISE_PERCENT
    }

    /// Remove the non-content elements named in `DROP`, and flatten nesting past [`MAX_NESTING`].
    pub fn prestrip(self) -> Prestripped {
        self.prestrip_observed(Vec::new())
    }

    /// [`Admitted::prestrip`] with `observers` run in the same pass. They run only when the pass does
    /// ([`Admitted::runs_pass`]).
    pub fn prestrip_observed(self, observers: Observers) -> Prestripped {
        let elements = self.scan.elements;
        let runs = self.runs_pass();
        let html = without_ranges(&self.html, &self.raw_text);
        if !runs {
            return Prestripped { html, applied: !self.raw_text.is_empty(), elements };
        }
        Prestripped { elements, ..run(&html, self.scan.max_depth, observers) }
    }
}

/// `html` without the byte `ranges` (in order, not overlapping), in the tendril the parser takes.
fn without_ranges(html: &str, ranges: &[(usize, usize)]) -> StrTendril {
    let cut: usize = ranges.iter().map(|(from, to)| to - from).sum();
    let mut out = StrTendril::with_capacity(u32::try_from(html.len() - cut).unwrap_or(u32::MAX));
    let mut at = 0;
    for &(from, to) in ranges {
        out.push_slice(&html[at..from]);
        at = to;
    }
    out.push_slice(&html[at..]);
    out
}

/// [`admit`] then [`Admitted::prestrip`].
pub fn prestrip(html: &str, budget: ElementBudget<'_>) -> Result<Prestripped, OverBudget> {
    admit(html, budget).map(Admitted::prestrip)
}

/// When a start tag has more than [`MAX_ATTRIBUTES`] attributes (`scan`, the page's [`prescan`], says
/// whether one has: the usual answer is no), the page with the rest of every such tag's attributes
/// cut, and its scan.
fn cap_attributes(html: &str, scan: &Prescan) -> Option<(String, Prescan)> {
    if scan.max_attributes <= MAX_ATTRIBUTES {
        return None;
    }
    let mut cuts = Vec::new();
    scan_with(html, &mut EndTags::default(), &mut |cut| {
        if let Cut::Attributes(from, to) = cut {
            cuts.push((from, to));
        }
    });
    let mut out = String::with_capacity(html.len());
    let mut at = 0;
    for (from, to) in cuts {
        out.push_str(&html[at..from]);
        at = to;
    }
    out.push_str(&html[at..]);
    let scan = prescan(&out);
    Some((out, scan))
}

/// A `<title>` without an end tag swallows the rest of the page: HTML parses a title's content as
/// text up to `</title>`, and browsers show an empty page too. Truncated or garbled crawls produce
/// this often enough to matter (8 of the 435 pages of one news set), and the page is readable with the
/// title closed at the first `<` after its start tag. Returns the repaired page, or `None` when the
/// title is closed (the usual case: two searches in the page's first bytes).
pub fn repair_title(html: &str) -> Option<String> {
    let head = &html.as_bytes()[..html.len().min(256 * 1024)];
    let open = find_ascii_ci(head, b"<title")?;
    let after = open + 6;
    // `<title>` or `<title attr…>`, not `<titles>`.
    if !head.get(after).is_some_and(|&b| b == b'>' || b.is_ascii_whitespace() || b == b'/') {
        return None;
    }
    let start = after + memchr::memchr(b'>', &head[after..])? + 1;
    let mut from = start;
    while let Some(k) = find_ascii_ci(&html.as_bytes()[from..], b"</title") {
        let end = from + k + 7;
        match html.as_bytes().get(end) {
            Some(b) if *b == b'>' || *b == b'/' || b.is_ascii_whitespace() => return None,
            None => break,
            _ => from = end,
        }
    }
    let cut = start + memchr::memchr(b'<', &html.as_bytes()[start..])?;
    let mut fixed = String::with_capacity(html.len() + 8);
    fixed.push_str(&html[..cut]);
    fixed.push_str("</title>");
    fixed.push_str(&html[cut..]);
    Some(fixed)
}

fn run(html: &str, max_depth: usize, observers: Observers) -> Prestripped {
    // Non-strict: a page with an ambiguous construct (text inside `<select>`, say) is rewritten on a
    // best-effort basis instead of refused.
    let settings = on(RewriteStrSettings::new().with_strict(false), SEL_DROP, |el| {
        el.remove();
        Ok(())
    });
    // Depth tracking costs a handler call per element, so it runs only when a quick scan says the page
    // may nest past the limit. Implicitly closed elements (`<p>`, `<li>` without end tags) make the
    // count drift upwards; that can only flatten more, never lose text.
    let settings = if max_depth > MAX_NESTING {
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
    // The output goes straight into the tendril html5ever will read: no second copy of the page.
    let mut out = ByteTendril::with_capacity(u32::try_from(html.len()).unwrap_or(u32::MAX));
    let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| out.push_slice(chunk));
    let ok = rewriter.write(html.as_bytes()).is_ok() && rewriter.end().is_ok();
    if ok && let Ok(text) = out.try_reinterpret() {
        return Prestripped { html: text, applied: true, elements: 0 };
    }
    Prestripped { html: StrTendril::from_slice(html), applied: false, elements: 0 }
}

/// What a byte scan of the page says before any parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prescan {
    /// Upper estimate of the element nesting (void elements and self-closing tags ignored). Exact only
    /// for well-formed pages: implicitly closed `<p>`s make it drift upwards.
    pub max_depth: usize,
    /// Bytes inside `script`, `style`, `svg`, `iframe`, `select` and `template` elements.
    pub noise_bytes: usize,
    /// Start tags, void ones included (scripts' and styles' contents are not scanned).
    pub elements: usize,
    /// The most attributes on one start tag.
    pub max_attributes: usize,
}

/// Scan start and end tags once: nesting depth and the bytes the pass would remove. Cheap next to
/// parsing (a memchr for each `<`).
pub fn prescan(html: &str) -> Prescan {
    scan_with(html, &mut EndTags::default(), &mut |_| {})
}

/// A byte range of the page the scan finds it can leave out of what the parser reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// A start tag's attributes past [`MAX_ATTRIBUTES`], from the first of them to the tag's end.
    Attributes(usize, usize),
    /// The content of a `<script>` or `<style>` element, which no stage reads: html5ever would
    /// tokenize it and copy it into a text node only for the DOM stage to skip it. JSON-LD scripts
    /// are kept (`metadata` reads them from the tree), and so is any content that holds its own
    /// element's start tag (`document.write("<script>…")`, or a `<script>` in a comment or a
    /// `<textarea>` that the scan, which knows neither, took for a real one): there the tokenizer's
    /// idea of where the element ends may differ from the scan's, and the parser is left to decide.
    RawText(usize, usize),
    /// An `<iframe>` start tag inside a `<noscript>`: one whose own end tag comes after the next
    /// `</noscript>`, or never (`<noscript><iframe src=… /></noscript>`, the tag-manager snippet as
    /// some frameworks write it). A browser runs scripts and never parses a `<noscript>`'s markup; pith
    /// does, and there an iframe's content is raw text up to `</iframe>`: without its start tag the
    /// rest of the page would be read as the frame's text. The DOM stage skips iframes anyway.
    Tag(usize, usize),
}

/// [`prescan`] with the end-tag search given (the tests compare the remembering search with the plain
/// one), telling `cut` what the parser need not read ([`Cut`]).
fn scan_with(html: &str, ends: &mut impl FindEnd, cut: &mut impl FnMut(Cut)) -> Prescan {
    let b = html.as_bytes();
    let (mut depth, mut max, mut noise) = (0usize, 0usize, 0usize);
    let (mut elements, mut max_attributes, mut lexed_to) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        i += off + 1;
        match b.get(i) {
            Some(b'/') => depth = depth.saturating_sub(1),
            Some(c) if c.is_ascii_alphabetic() => {
                let name_end = b[i..].iter().position(|c| !c.is_ascii_alphanumeric()).map_or(b.len(), |e| i + e);
                let name = &b[i..name_end];
                // A `<` inside an attribute value already lexed is not lexed (nor counted) again: each
                // byte of the page is lexed once, however the values nest `<`s. (Depth and noise are
                // estimated as before, `<`s in values included.)
                let mut content_from = None;
                if name_end >= lexed_to {
                    elements += 1;
                    let tag = lex_attributes(b, name_end);
                    lexed_to = tag.end;
                    max_attributes = max_attributes.max(tag.count);
                    if let Some(from) = tag.cut_from {
                        cut(Cut::Attributes(from, tag.end - usize::from(b.get(tag.end - 1) == Some(&b'>'))));
                    }
                    content_from = Some(tag.end);
                }
                if is_void_name(name) {
                    continue;
                }
                if name.eq_ignore_ascii_case(b"iframe")
                    && let Some(tag_end) = content_from
                    && let Some(closes) = ends.find(b, name_end, b"noscript")
                    && ends.find(b, name_end, b"iframe").is_none_or(|end| end > closes)
                {
                    cut(Cut::Tag(i - 1, tag_end));
                    continue;
                }
                depth += 1;
                max = max.max(depth);
                if let Some(raw_text) = noise_kind(name) {
                    let found = ends.find(b, name_end, name);
                    let end = found.unwrap_or(b.len());
                    noise += end - i;
                    if raw_text
                        && let (Some(from), Some(to)) = (content_from, found)
                        && from < to
                        && leaves_out(b, i, from, to, name)
                    {
                        cut(Cut::RawText(from, to));
                    }
                    // Script and style hold no tags: skip to their end tag, so that a `<` in code is
                    // not taken for one. Other elements are scanned on for their nesting.
                    // (The end tag itself is then met as usual and closes the element.)
                    if raw_text {
                        i = end;
                    }
                }
            }
            _ => {}
        }
    }
    Prescan { max_depth: max, noise_bytes: noise, elements, max_attributes }
}

/// Whether the content `from..to` of the script or style element whose name starts at `start` (just
/// after its `<`) and whose end tag starts at `to` can be left out ([`Cut::RawText`]).
fn leaves_out(b: &[u8], start: usize, from: usize, to: usize, name: &[u8]) -> bool {
    let tag = &b[start..from];
    // The end tag is one to the tokenizer too: its name ends there.
    let closes = b.get(to + 2 + name.len()).is_none_or(|c| c.is_ascii_whitespace() || matches!(c, b'/' | b'>'));
    // JSON-LD, however its type is written (a character reference included).
    let declares = find_ascii_ci(tag, b"json").is_some() || tag.contains(&b'&');
    // Its own start tag inside it (any case): raw text is only ever a script's or a style's.
    let open: &[u8] = if name.eq_ignore_ascii_case(b"script") { b"<script" } else { b"<style" };
    closes && !declares && find_ascii_ci(&b[from..to], open).is_none()
}

/// A start tag's attributes, lexed as the HTML tokenizer does.
struct TagLex {
    count: usize,
    /// Just past the tag's `>` (the page's end when it never closes).
    end: usize,
    /// Where the attribute after the first [`MAX_ATTRIBUTES`] begins, when there is one.
    cut_from: Option<usize>,
}

/// Lex the attributes of the start tag whose name ends at `from` ([`Attributes`]): how many, where the
/// tag ends, and where the attribute past [`MAX_ATTRIBUTES`] begins.
fn lex_attributes(b: &[u8], from: usize) -> TagLex {
    let mut attributes = Attributes::new(b, from);
    let mut count = 0;
    let mut cut_from = None;
    for attribute in attributes.by_ref() {
        if count == MAX_ATTRIBUTES {
            cut_from = Some(attribute.start);
        }
        count += 1;
    }
    TagLex { count, end: attributes.end(), cut_from }
}

/// One attribute of a start tag, as slices of the page.
pub(crate) struct Attribute<'a> {
    /// Where its name begins.
    pub start: usize,
    pub name: &'a [u8],
    /// Without its quotes; empty when the attribute has no value.
    pub value: &'a [u8],
}

/// The attributes of a start tag, lexed as the HTML tokenizer does: names end at whitespace, `/`, `>`
/// or `=` (a leading `=` belongs to the name); values are quoted (up to the same quote, `>` included)
/// or run to whitespace or `>`. Once it has given the last one, [`Attributes::end`] is just past the
/// tag's `>` (the page's end when the tag never closes).
pub(crate) struct Attributes<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Attributes<'a> {
    /// The attributes of the start tag whose name ends at `from`.
    pub(crate) fn new(b: &'a [u8], from: usize) -> Self {
        Attributes { b, at: from }
    }

    /// Just past the tag's `>`, once the attributes are all read.
    pub(crate) fn end(&self) -> usize {
        self.at
    }

    fn skip_ws(&self, mut i: usize) -> usize {
        while self.b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        i
    }
}

impl<'a> Iterator for Attributes<'a> {
    type Item = Attribute<'a>;

    fn next(&mut self) -> Option<Attribute<'a>> {
        let b = self.b;
        let mut i = self.at;
        loop {
            i = self.skip_ws(i);
            match b.get(i) {
                None => {
                    self.at = b.len();
                    return None;
                }
                Some(b'>') => {
                    self.at = i + 1;
                    return None;
                }
                Some(b'/') => i += 1,
                Some(_) => break,
            }
        }
        let start = i;
        i += 1;
        while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && !matches!(c, b'/' | b'>' | b'=')) {
            i += 1;
        }
        let name = &b[start..i];
        let after = self.skip_ws(i);
        if b.get(after) != Some(&b'=') {
            self.at = after;
            return Some(Attribute { start, name, value: b"" });
        }
        i = self.skip_ws(after + 1);
        let value = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let close = memchr::memchr(q, &b[i + 1..]).map_or(b.len(), |k| i + 1 + k);
                let value = &b[i + 1..close];
                i = (close + 1).min(b.len());
                value
            }
            _ => {
                let v0 = i;
                while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && c != b'>') {
                    i += 1;
                }
                &b[v0..i]
            }
        };
        self.at = i;
        Some(Attribute { start, name, value })
    }
}

/// How the scan finds an element's end tag.
trait FindEnd {
    fn find(&mut self, b: &[u8], from: usize, name: &[u8]) -> Option<usize>;
}

/// Upper estimate of the page's element nesting; see [`Prescan::max_depth`].
pub fn nesting_estimate(html: &str) -> usize {
    prescan(html).max_depth
}

/// For the elements the pass removes: whether their content is raw text (no tags inside).
fn noise_kind(name: &[u8]) -> Option<bool> {
    let is = |n: &str| name.eq_ignore_ascii_case(n.as_bytes());
    if is("script") || is("style") {
        Some(true)
    } else if is("svg") || is("iframe") || is("select") || is("template") {
        Some(false)
    } else {
        None
    }
}

/// [`find_end_tag`] with the last answer per element name remembered. The scan only moves forward, and
/// the first end tag at or after `from` is also the first at or after any later start up to it, so a
/// page of ten thousand `<select>`s that never close is searched to its end once, not once per
/// `<select>` (which took a minute on a 1.6 MB page).
#[derive(Default)]
struct EndTags {
    /// (lower-case name, searched from, answer).
    known: Vec<(Vec<u8>, usize, Option<usize>)>,
}

impl FindEnd for EndTags {
    fn find(&mut self, b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
        let slot = match self.known.iter().position(|(n, ..)| n.eq_ignore_ascii_case(name)) {
            Some(k) => k,
            None => {
                self.known.push((name.to_ascii_lowercase(), usize::MAX, None));
                self.known.len() - 1
            }
        };
        let (_, searched_from, answer) = &mut self.known[slot];
        let still_valid = *searched_from <= from && answer.is_none_or(|e| from <= e);
        if !still_valid {
            *searched_from = from;
            *answer = find_end_tag(b, from, name);
        }
        *answer
    }
}

/// Index of the `<` of the first `</name` (any case) at or after `from`.
pub(crate) fn find_end_tag(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut i = from;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        let at = i + off;
        let rest = &b[at + 1..];
        if rest.first() == Some(&b'/') && rest.len() > name.len() && rest[1..=name.len()].eq_ignore_ascii_case(name) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// Void element names, any case (the names are ASCII alphanumeric, at most 6 bytes long).
pub(crate) fn is_void_name(name: &[u8]) -> bool {
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

    fn strip(html: &str) -> Prestripped {
        prestrip(html, UNBOUNDED).unwrap()
    }

    #[test]
    fn start_tags_over_the_budget_are_refused_before_the_pass() {
        // Deep enough that the pass would run (flattening), with many more tags than the budget.
        let page = format!("<html><body>{}</body></html>", "<div><p>x".repeat(5_000));
        let asked = Cell::new(0usize);
        let budget = |len: usize| {
            asked.set(len);
            len / 16
        };
        let refused = prestrip(&page, &budget).err().expect("refused");
        assert_eq!(asked.get(), page.len(), "the budget is the page's own, before the pass");
        assert_eq!(refused, OverBudget { elements: 10_002, budget: page.len() / 16 });
        // Under a budget it passes, the same as without one.
        let generous = |len: usize| len / 4;
        let admitted = prestrip(&page, &generous).unwrap();
        assert!(admitted.applied);
        assert_eq!(admitted.html, strip(&page).html);
        assert_eq!(admitted.elements, 10_002);
    }

    #[test]
    fn admission_sees_the_repaired_and_capped_page() {
        // An unclosed title is repaired first, so the tags after it are counted, not swallowed as text.
        let page = format!("<title>t{}", "<p>x".repeat(100));
        let refused = prestrip(&page, &|_| 50).err().expect("refused");
        assert_eq!(refused.elements, 101);
        let capped = format!("<p {}>x</p>", (0..1000).map(|i| format!("a{i}")).collect::<Vec<_>>().join(" "));
        let lens = Cell::new(0usize);
        let admitted = admit(&capped, &|len| {
            lens.set(len);
            usize::MAX
        })
        .unwrap();
        assert!(lens.get() < capped.len(), "the budget is that of the capped page");
        assert_eq!(admitted.elements(), 1);
    }

    #[test]
    fn dropped_names_are_non_content_names() {
        for name in DROP.split(',').map(str::trim) {
            assert!(crate::text::hidden::is_ignored(name), "{name}");
        }
    }

    #[test]
    fn an_unclosed_title_is_closed_at_the_next_tag() {
        let page = "<html><head><title>Story (Site)ntById(x);\n<script>f()</script></head><body><p>Text.</p></body>";
        let fixed = repair_title(page).expect("repaired");
        assert!(fixed.contains("<title>Story (Site)ntById(x);\n</title><script>"));
        let doc = crate::dom::Document::parse(&strip(page).html);
        assert_eq!(doc.subtree_text(doc.body), "Text.");
        // Closed titles, garbled end tags and no title at all.
        assert!(repair_title("<TITLE>A</Title ><p>x").is_none());
        assert!(repair_title("<title>A</titlevalue=1><p>x</title>").is_none());
        assert!(repair_title("<title>A</titlevalue=1><p>x").is_some());
        assert!(repair_title("<p>no title</p>").is_none());
        assert!(repair_title("<titles>x").is_none());
        assert!(repair_title("<title>").is_none());
    }

    #[test]
    fn drops_noise_and_keeps_content() {
        let out = run(
            "<body><!-- c --><script>x()</script><style>p{}</style><p>keep <a href=/>link</a></p>\
             <svg><text>art</text></svg><form><p>form text</p><select><option>opt</select></form></body>",
            0,
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
    fn an_iframe_inside_noscript_does_not_swallow_the_page() {
        // Without its end tag, the iframe's raw text would run to the end of the page.
        let page =
            "<body><noscript><iframe src=\"https://t.example/ns\" height=\"0\" /></noscript><p>article</p></body>";
        let h = strip(page).html.to_string();
        assert_eq!(h, "<body><noscript></noscript><p>article</p></body>");
        // An iframe that closes before the `</noscript>`, or outside any, is left to the parser.
        for kept in [
            "<body><noscript><iframe src=x></iframe></noscript><p>a</p></body>",
            "<body><iframe src=x></iframe><p>a</p></body>",
        ] {
            assert_eq!(strip(kept).html.to_string(), kept);
        }
    }

    #[test]
    fn script_and_style_contents_are_left_out_of_what_the_parser_reads() {
        let words = "words ".repeat(200);
        let page = format!(
            "<head><style>p {{ color: red }}</style><script type=\"application/ld+json\">{{\"@type\":\"NewsArticle\"}}</script>\
             <script type=\"application/ld&#x2B;json\">{{\"a\":1}}</script></head><body><p>{words}</p>\
             <script>var a = b < c; go();</script><script>document.write(\"<script>w()<\\/script>\")</script>\
             <SCRIPT src=x.js></SCRIPT><script>y()</scripts></script><p>end</p></body>"
        );
        let out = strip(&page);
        assert!(out.applied);
        let html = &*out.html;
        // Contents gone, elements kept (empty); the words around them untouched.
        assert!(!html.contains("color") && !html.contains("go()") && !html.contains("x()"), "{html}");
        assert!(html.contains("<style></style>") && html.contains("<script></script>") && html.contains(&words));
        // JSON-LD, however its type is written, and a script that writes a script stay whole.
        assert!(html.contains("NewsArticle") && html.contains("{\"a\":1}") && html.contains("w()"));
        // `</scripts>` is not the script's end tag: the scan stops at it and leaves the script whole.
        assert!(html.contains("<script>y()</scripts></script>"));
        assert!(html.ends_with("<p>end</p></body>"));
        // The page's text is the same.
        let text = |h: &str| {
            let doc = crate::dom::Document::parse(h);
            doc.subtree_text(doc.body)
        };
        assert_eq!(text(html), text(&page));
    }

    #[test]
    fn a_script_tag_the_parser_does_not_see_as_one_cuts_nothing() {
        // In a comment, a textarea or a title, `<script>` is text; the next real end tag is further on.
        for fake in ["<!-- <script> -->", "<textarea><script></textarea>", "<title>a <style> b</title>"] {
            let page = format!("<body>{fake}<p>kept text</p><script>x()</script><style>p{{}}</style></body>");
            let out = strip(&page);
            assert!(out.html.contains("<p>kept text</p>"), "{fake}: {}", &*out.html);
        }
    }

    #[test]
    fn prescan_measures_noise_and_depth() {
        let page = "<html><body><script>if (a<b) x();</script><div><p>text</p></div><SVG><g></g></svg></body></html>";
        let scan = prescan(page);
        let script = "<script>if (a<b) x();".len() - 1;
        let svg = "<SVG><g></g>".len() - 1;
        assert_eq!(scan.noise_bytes, script + svg);
        assert_eq!(scan.max_depth, 4);
        // A page with little noise is passed through untouched; one heavy with noise other than script
        // and style contents (which are cut without the pass) goes through the pass.
        let light = format!("<body><p>{}</p><svg><g></g></svg></body>", "words ".repeat(100));
        assert!(!admit(&light, UNBOUNDED).unwrap().runs_pass());
        assert!(!strip(&light).applied);
        let scripted = format!("<body><p>text</p><script>{}</script></body>", "x();".repeat(100));
        assert!(!admit(&scripted, UNBOUNDED).unwrap().runs_pass());
        assert!(!strip(&scripted).html.contains("x()"));
        let heavy = format!("<body><p>text</p><svg>{}</svg></body>", "<g></g>".repeat(100));
        assert!(admit(&heavy, UNBOUNDED).unwrap().runs_pass());
        let out = strip(&heavy);
        assert!(out.applied && !out.html.contains("<g>"));
    }

    /// The plain search, from scratch each time.
    struct Plain;

    impl FindEnd for Plain {
        fn find(&mut self, b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
            find_end_tag(b, from, name)
        }
    }

    #[test]
    fn attributes_past_the_cap_are_cut_and_the_rest_kept() {
        let many: String = (0..MAX_ATTRIBUTES + 500).map(|k| format!(" a{k}=\"<v{k}>\"")).collect();
        let page = format!("<body><div id=main{many} />text</div><p q='x>y' r=s>more <b c d>bold</b></p></body>");
        let scan = prescan(&page);
        assert_eq!(scan.max_attributes, MAX_ATTRIBUTES + 501);
        assert_eq!(scan.elements, 4);
        let (capped, after) = cap_attributes(&page, &scan).unwrap();
        assert_eq!(after.max_attributes, MAX_ATTRIBUTES);
        let last = MAX_ATTRIBUTES - 2;
        assert!(capped.contains(&format!(" a{last}=\"<v{last}>\" >text</div>")), "{}", &capped[capped.len() - 120..]);
        assert!(capped.ends_with("<p q='x>y' r=s>more <b c d>bold</b></p></body>"));
        assert!(cap_attributes(&capped, &prescan(&capped)).is_none());
        let out = strip(&page);
        assert_eq!(out.elements, 4);
        assert!(crate::dom::Document::parse(&out.html).nodes.len() < 20);
    }

    #[test]
    fn remembered_end_tag_searches_give_the_plain_answers() {
        let pages = [
            "<select><option>1<select><option>2</select><SELECT>3</Select><svg><g><svg>x</svg><noscript>",
            "<template><iframe>a</iframe><template>b</template><iframe>c<p>d</p></template></iframe>",
            "<noscript>x</noscript><noscript><select></noscript></select><select><script>a<b</script>",
        ];
        for page in pages
            .iter()
            .map(|p| p.to_string())
            .chain(["<select><option>1".repeat(50), "<svg><g></g>".repeat(30) + &"</svg>".repeat(7)])
        {
            assert_eq!(prescan(&page), scan_with(&page, &mut Plain, &mut |_| {}), "{page}");
        }
    }

    #[test]
    fn deep_nesting_is_flattened_and_text_kept() {
        let n = MAX_NESTING * 3;
        let html = format!("<body>{}deep text{}</body>", "<div>".repeat(n), "</div>".repeat(n));
        assert!(nesting_estimate(&html) >= n);
        let out = strip(&html).html.to_string();
        assert!(out.contains("deep text"));
        assert!(nesting_estimate(&out) <= MAX_NESTING + 2, "{}", nesting_estimate(&out));
        // Ordinary pages are left alone.
        assert_eq!(&*strip("<div><div>x</div></div>").html, "<div><div>x</div></div>");
    }
}
