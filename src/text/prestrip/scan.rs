//! The admission scan: one byte pass over the page, before any parser, that counts its start tags,
//! estimates its nesting and the bytes the lol_html pass would remove ([`Prescan`]), and finds the
//! byte ranges the parser need not read ([`Cut`]: script and style contents, iframe tags inside
//! `<noscript>`, attributes past the cap). It is the stage's cheapest tool and runs on every page; the
//! rest of the stage only acts on what it reports.

use crate::text::lexer::{Attributes, find_end_tag, is_void_name};
use crate::text::words::find_ascii_ci;

/// Attributes kept per start tag; the rest are cut before any parser sees them. html5ever checks each
/// new attribute against the tag's earlier ones, so one element with 400,000 attributes cost it 47 s.
/// Real elements carry a few dozen at most.
pub const MAX_ATTRIBUTES: usize = 256;

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
pub(super) enum Cut {
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
pub(super) fn scan_with(html: &str, ends: &mut impl FindEnd, cut: &mut impl FnMut(Cut)) -> Prescan {
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

/// How the scan finds an element's end tag.
pub(super) trait FindEnd {
    fn find(&mut self, b: &[u8], from: usize, name: &[u8]) -> Option<usize>;
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
pub(super) struct EndTags {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::prestrip::{UNBOUNDED, admit, strip};

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
}
