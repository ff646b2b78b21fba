//! Stage 2: remove what can never be main content before the DOM parse.
//!
//! Two tools, cheapest first. The byte scan that admits the page (see [`prescan`](scan::prescan)) already finds
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
//!
//! | file | job |
//! |------|-----|
//! | `mod.rs` | the stage's API: [`admit`] a page under the work budget, then [`Admitted::prestrip`] it |
//! | `scan.rs` | the byte scan before any parser: start tags, nesting, noise, the ranges left out |
//! | `repair.rs` | an unclosed `<title>` closed and attributes past [`MAX_ATTRIBUTES`](scan::MAX_ATTRIBUTES) cut, before admission |
//! | `pass.rs` | the lol_html pass: non-content elements removed, deep nesting flattened |
//!
//! The start-tag lexer the scan reads tags with is shared with line-density: `src/text/lexer.rs`.

mod pass;
mod repair;
mod scan;

use std::borrow::Cow;

use html5ever::tendril::StrTendril;

use scan::{Cut, EndTags, scan_with};

pub use pass::{MAX_NESTING, Observers, Prestripped};
pub use repair::repair_title;
pub use scan::{MAX_ATTRIBUTES, Prescan};

/// The pass runs only when at least this share (in percent) of the page's bytes lies inside the
/// elements it removes (script and style contents, which the scan cuts anyway, aside). Below it,
/// parsing those bytes costs html5ever less than the lol_html pass costs: per-page timings of `auto`
/// over 1,000 news pages with and without the pass broke even at a share of 30–40% (see
/// docs/PERFORMANCE.md). The DOM stage skips the same elements either way.
pub const MIN_NOISE_PERCENT: usize = 35;

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
/// the attributes capped when needed (see [`repair_title`], [`MAX_ATTRIBUTES`](scan::MAX_ATTRIBUTES)), and its scan.
pub struct Admitted<'a> {
    html: Cow<'a, str>,
    scan: Prescan,
    /// pith's own parse reads the page (and flattens deep nesting itself).
    by_pith: bool,
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
    let (html, scan) = match repair::cap_attributes(&html, &scan) {
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
    Ok(Admitted { html, scan, by_pith: true, raw_text })
}

/// [`prescan`](scan::prescan), also collecting the ranges the parser need not read ([`Cut::RawText`], [`Cut::Tag`]).
fn scan_raw_text(html: &str, raw_text: &mut Vec<(usize, usize)>) -> Prescan {
    scan_with(html, &mut EndTags::default(), &mut |cut| {
        if let Cut::RawText(from, to) | Cut::Tag(from, to) = cut {
            raw_text.push((from, to));
        }
    })
}

impl Admitted<'_> {
    /// Start tags in the page (see [`Prestripped::elements`]).
    #[cfg(test)]
    pub fn elements(&self) -> usize {
        self.scan.elements
    }

    /// Whether the page goes on as it was given to [`admit`]: no title repaired, no attribute cut.
    pub fn is_unchanged(&self) -> bool {
        matches!(self.html, Cow::Borrowed(_))
    }

    /// Tell the stage which parser reads the page next: pith's own (the default), which flattens
    /// nesting past [`MAX_NESTING`] as it builds the tree, or html5ever's tokenizer (the parse that
    /// site rules' selectors run on), for which the pass flattens it. The pass's flattening counts
    /// depth by matching tags, which unclosed `<p>`s and `<li>`s make drift upwards, and it holds
    /// state for every open element: on a 1 MB page of unclosed paragraphs, 80 MB.
    pub fn parsed_by_pith(mut self, yes: bool) -> Self {
        self.by_pith = yes;
        self
    }

    /// Whether the pass flattens deep nesting.
    fn flattens(&self) -> bool {
        !self.by_pith && self.scan.max_depth > MAX_NESTING
    }

    /// Whether [`Admitted::prestrip`] runs the lol_html pass rather than passing the page through.
    pub fn runs_pass(&self) -> bool {
        let left_out: usize = self.raw_text.iter().map(|(from, to)| to - from).sum();
        self.flattens() || self.scan.noise_bytes.saturating_sub(left_out) * 100 >= self.html.len() * MIN_NOISE_PERCENT
    }

    /// Remove the non-content elements named in `DROP`, and flatten nesting past [`MAX_NESTING`] for a
    /// page that html5ever's tokenizer will read ([`Admitted::parsed_by_pith`]).
    pub fn prestrip(self) -> Prestripped {
        self.prestrip_observed(Vec::new())
    }

    /// [`Admitted::prestrip`] with `observers` run in the same pass. They run only when the pass does
    /// ([`Admitted::runs_pass`]).
    pub fn prestrip_observed(self, observers: Observers) -> Prestripped {
        let elements = self.scan.elements;
        let runs = self.runs_pass();
        let flatten = self.flattens();
        let html = without_ranges(&self.html, &self.raw_text);
        if !runs {
            return Prestripped { html, applied: !self.raw_text.is_empty(), elements };
        }
        Prestripped { elements, ..pass::run(&html, flatten, observers) }
    }
}

/// `html` without the byte `ranges` (in order, not overlapping), in the tendril the parser takes.
///
/// The tendril is made by one copy of exactly the text's length: a tendril given a capacity, or grown,
/// rounds it up to a power of two, and this one lives until the parse ends, at the extraction's peak (a
/// 270 KB page held 512 KB).
fn without_ranges(html: &str, ranges: &[(usize, usize)]) -> StrTendril {
    if ranges.is_empty() {
        return StrTendril::from_slice(html);
    }
    let cut: usize = ranges.iter().map(|(from, to)| to - from).sum();
    let mut out = String::with_capacity(html.len() - cut);
    let mut at = 0;
    for &(from, to) in ranges {
        out.push_str(&html[at..from]);
        at = to;
    }
    out.push_str(&html[at..]);
    StrTendril::from_slice(&out)
}

/// [`admit`] then [`Admitted::prestrip`].
pub fn prestrip(html: &str, budget: ElementBudget<'_>) -> Result<Prestripped, OverBudget> {
    admit(html, budget).map(Admitted::prestrip)
}

/// [`prestrip`] without a budget, for the tests.
#[cfg(test)]
fn strip(html: &str) -> Prestripped {
    prestrip(html, UNBOUNDED).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

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
        let unbounded = strip(&page);
        assert_eq!((admitted.applied, &admitted.html), (unbounded.applied, &unbounded.html));
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
}
