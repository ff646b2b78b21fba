//! Line-density extraction from the survey of web content extraction methods (§2.1): strip the tags,
//! read the remaining text line by line, cut it into blocks wherever two or more consecutive lines are
//! empty, and keep the blocks whose text is longer than a threshold. No DOM is needed.
//!
//! The survey gives no threshold value; ours is a character count, so it means the same for CJK and
//! Latin text (one Chinese character carries about as much as a short English word, and the default of
//! 60 is met by one real paragraph in either).

use crate::algorithms::contract::{Block, Content, Context, Outcome, coverage};
use crate::dom::decode_char_refs;
use crate::text::lexer::{Attribute, Attributes, find_end_tag, is_void_name};

/// Elements left out with their content, whatever their attributes: the bulky non-text ones that
/// pre-strip removes before the DOM parse (script and style contents are already cut from the copy
/// this reads).
const LEFT_OUT: &[&[u8]] = &[b"script", b"style", b"template", b"iframe", b"svg", b"select"];

/// Elements whose content is raw text up to their own end tag: a `<` inside starts no tag.
const RAW_TEXT: &[&[u8]] = &[b"script", b"style", b"iframe", b"xmp", b"noembed", b"noframes", b"textarea", b"title"];

/// How far down the open elements an end tag looks for its start tag. Pages leave `<p>`, `<li>` and
/// worse unclosed, so the open elements pile up; an end tag that matches none of the nearest is
/// ignored, which keeps a page of many unmatched end tags linear.
const END_TAG_REACH: usize = 256;

/// The page's text as the survey's method reads it: from `<body>` on, every tag replaced by nothing
/// but the line breaks inside it, comments and the elements a reader never sees left out (the
/// [`LEFT_OUT`] names, and elements hidden by `hidden`, `aria-hidden="true"` or an inline
/// `display:none` / `visibility:hidden`, the rules of [`crate::text::hidden`]; line breaks included), and
/// character references decoded ([`decode_char_refs`]).
///
/// One byte scan of the copy the parser reads. The DOM algorithms get the same leaving-out from the
/// DOM stage; this one reads the source, so it does its own, where it used to ask pre-strip for a
/// second rewriting pass over the page (which cost more than the parse on small pages, see
/// docs/history/performance-journal.md, sixteenth session). A left-out element ends where an end tag
/// closes it or one of its ancestors: the open elements are kept as a stack, and an end tag closes
/// everything above its nearest namesake, so a hidden menu that never closes its own `<div>`s ends
/// with the cell that holds it.
pub fn strip_tags(html: &str) -> String {
    let b = html.as_bytes();
    let mut at = crate::text::words::find_ascii_ci(b, b"<body").unwrap_or(0);
    let mut out = String::with_capacity((b.len() - at) / 2);
    let mut open: Vec<&[u8]> = Vec::new();
    // While inside a left-out element: its place in `open`.
    let mut skip: Option<usize> = None;
    while at < b.len() {
        let Some(k) = memchr::memchr(b'<', &b[at..]) else {
            if skip.is_none() {
                out.push_str(&html[at..]);
            }
            break;
        };
        let lt = at + k;
        if skip.is_none() {
            out.push_str(&html[at..lt]);
        }
        let Some(m) = markup(b, lt) else {
            // A `<` that starts no markup is text (`a < b`).
            if skip.is_none() {
                out.push('<');
            }
            at = lt + 1;
            continue;
        };
        at = m.end;
        let shown = match m.kind {
            Kind::Start { name, leaves_out, void } => {
                if !void {
                    if skip.is_none() && leaves_out {
                        skip = Some(open.len());
                    }
                    open.push(name);
                }
                skip.is_none() && !leaves_out
            }
            Kind::End { name } => {
                let was_shown = skip.is_none();
                if let Some(i) = open.iter().rev().take(END_TAG_REACH).position(|n| n.eq_ignore_ascii_case(name)) {
                    open.truncate(open.len() - 1 - i);
                }
                if skip.is_some_and(|d| open.len() <= d) {
                    skip = None;
                }
                was_shown
            }
            Kind::Other => false,
        };
        if shown {
            out.extend(std::iter::repeat_n('\n', m.newlines));
        }
        // Raw text (an empty `<script></script>` left by the cut, a `<textarea>`): up to its end tag.
        if let Kind::Start { name, void: false, .. } = m.kind
            && RAW_TEXT.iter().any(|r| r.eq_ignore_ascii_case(name))
        {
            let end = find_end_tag(b, at, name).unwrap_or(b.len());
            if skip.is_none() {
                out.push_str(&html[at..end]);
            }
            at = end;
        }
    }
    decode_char_refs(&out)
}

/// What a `<` starts.
enum Kind<'a> {
    Start {
        name: &'a [u8],
        leaves_out: bool,
        void: bool,
    },
    End {
        name: &'a [u8],
    },
    /// A comment, doctype or processing instruction: left out, line breaks and all.
    Other,
}

/// One piece of markup: what it is, where it ends and the line breaks inside it.
struct Markup<'a> {
    kind: Kind<'a>,
    end: usize,
    newlines: usize,
}

/// The length of the tag name at the start of `b`: up to a space, `/` or `>`.
fn name_len(b: &[u8]) -> usize {
    b.iter().take_while(|c| !c.is_ascii_whitespace() && !matches!(c, b'/' | b'>')).count()
}

/// The markup starting at `lt` (a `<`), or `None` when the `<` is text.
fn markup(b: &[u8], lt: usize) -> Option<Markup<'_>> {
    let rest = &b[lt + 1..];
    let to_gt = |from: usize| memchr::memchr(b'>', &b[from..]).map_or(b.len(), |k| from + k + 1);
    let other = |end| Some(Markup { kind: Kind::Other, end, newlines: 0 });
    if rest.starts_with(b"!--") {
        return other(memchr::memmem::find(&b[lt + 4..], b"-->").map_or(b.len(), |k| lt + 4 + k + 3));
    }
    match rest.first() {
        Some(b'!' | b'?') => other(to_gt(lt)),
        // `</>` is nothing and `</3` a bogus comment.
        Some(b'/') if !rest.get(1).is_some_and(u8::is_ascii_alphabetic) => other(to_gt(lt)),
        Some(b'/') => {
            let name = &rest[1..1 + name_len(&rest[1..])];
            let end = to_gt(lt + 2 + name.len());
            let newlines = memchr::memchr_iter(b'\n', &b[lt..end]).count();
            Some(Markup { kind: Kind::End { name }, end, newlines })
        }
        Some(c) if c.is_ascii_alphabetic() => Some(start_tag(b, lt)),
        _ => None,
    }
}

/// A start tag at `lt`: its name, and whether its element is left out ([`LEFT_OUT`] or hidden).
fn start_tag(b: &[u8], lt: usize) -> Markup<'_> {
    let name = &b[lt + 1..lt + 1 + name_len(&b[lt + 1..])];
    // The hiding rules of [`crate::text::hidden`]: `aria-hidden="true"` hides; `hidden` hides unless it is
    // `until-found` or the element is a streamed segment; an inline style may hide; a tab panel never is.
    let (mut aria, mut hidden, mut streamed, mut styled, mut panel) = (false, false, false, false, false);
    let mut attributes = Attributes::new(b, lt + 1 + name.len());
    for Attribute { name: attr, value, .. } in attributes.by_ref() {
        // Only the five attributes below are read; no other value is looked at.
        let is = |n: &[u8]| attr.eq_ignore_ascii_case(n);
        if !(is(b"hidden") || is(b"aria-hidden") || is(b"style") || is(b"role") || is(b"id")) {
            continue;
        }
        let value = String::from_utf8_lossy(value);
        if is(b"hidden") {
            hidden |= crate::text::hidden::hidden_attribute_hides(&value);
        } else if is(b"aria-hidden") {
            aria |= value.trim().eq_ignore_ascii_case("true");
        } else if is(b"style") {
            styled |= crate::text::hidden::style_hides(&value);
        } else if is(b"role") {
            panel |= crate::text::hidden::is_tab_panel(&value);
        } else {
            streamed |= crate::text::hidden::is_streamed_segment(&value);
        }
    }
    let end = attributes.end();
    let leaves_out =
        LEFT_OUT.iter().any(|n| n.eq_ignore_ascii_case(name)) || (!panel && (aria || (hidden && !streamed) || styled));
    let void = is_void_name(name);
    let newlines = memchr::memchr_iter(b'\n', &b[lt..end]).count();
    Markup { kind: Kind::Start { name, leaves_out, void }, end, newlines }
}

/// Split stripped text into blocks of lines.
pub fn line_blocks(text: &str, blank_lines: usize) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    let mut empty_run = 0;
    for line in text.lines() {
        let l = crate::dom::fold_ws(line);
        if l.is_empty() {
            empty_run += 1;
            if empty_run >= blank_lines && !cur.is_empty() {
                blocks.push(std::mem::take(&mut cur));
            }
        } else {
            empty_run = 0;
            cur.push(l);
        }
    }
    if !cur.is_empty() {
        blocks.push(cur);
    }
    blocks
}

/// `line-density`.
pub fn run(ctx: &Context<'_>) -> Outcome {
    let p = &ctx.params.line_density;
    let text = strip_tags(ctx.source);
    let blocks = line_blocks(&text, p.blank_lines.max(1));
    let mut kept = Vec::new();
    let mut out_blocks = Vec::new();
    let mut kept_chars = 0usize;
    let mut all_chars = 0usize;
    for b in blocks {
        let len: usize = b.iter().map(|l| l.chars().filter(|c| !c.is_whitespace()).count()).sum();
        all_chars += len;
        let keep = len > p.min_block_chars;
        out_blocks.push(Block::new(
            ctx.doc.body,
            vec![("line_block_chars", len as f64), ("lines", b.len() as f64)],
            keep,
            len as f64,
        ));
        if keep {
            kept_chars += len;
            kept.extend(b);
        }
    }
    let probability = coverage(kept_chars as f64, all_chars as f64);
    Outcome::new(Content::Text(kept), probability, out_blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_split_on_two_blank_lines() {
        let html = "<body><div>menu</div>\n\n\n<p>a long paragraph line</p>\n<p>second line</p>\n\n\n<div>foot</div>";
        let t = strip_tags(html);
        let b = line_blocks(&t, 2);
        assert_eq!(
            b,
            vec![
                vec!["menu".to_string()],
                vec!["a long paragraph line".into(), "second line".into()],
                vec!["foot".into()]
            ]
        );
    }

    #[test]
    fn hidden_elements_comments_and_non_content_are_left_out() {
        let t = strip_tags(
            "<body><p>keep</p><!-- c\n\n\n --><div style='DISPLAY: none'>gone\n\n\n</div><div hidden>gone</div>\
             <span aria-hidden=true>gone</span><p style='color:red'>kept too</p><svg><text>gone</text></svg>\
             <div hidden id=S:2><p>streamed</p></div><div hidden id=S:3 aria-hidden=true>gone</div>\
             <div role=tabpanel hidden><p>panel</p></div><div hidden=until-found>found</div>\
             <select><option>gone</select><img hidden src=x><p>after</p>",
        );
        assert_eq!(t, "keepkept toostreamedpanelfoundafter");
    }

    #[test]
    fn a_hidden_element_ends_with_the_end_tag_of_an_ancestor() {
        // The hidden menu never closes its inner `<div>`; the cell's end tag closes it.
        let t = strip_tags("<body><table><tr><td><div hidden><div>menu</td><td>content</td></tr></table>");
        assert_eq!(t, "content");
        // Custom element names with dashes, end tags in any case, and `>` inside quoted values.
        let t = strip_tags("<body><nav-menu style=display:none>menu</NAV-MENU><p title='a>b'>text</p>");
        assert_eq!(t, "text");
    }

    #[test]
    fn line_breaks_inside_kept_tags_count_and_a_bare_lt_is_text() {
        let t = strip_tags("<body><p\nclass=x>a < b</p\n><textarea>\n<b>raw</b></textarea>");
        assert_eq!(t, "\na < b\n\n<b>raw</b>");
    }

    #[test]
    fn references_are_decoded_after_the_tags_are_gone() {
        // An encoded `<` is text, not the start of a tag; a no-break space is a space to the blocks.
        let t = strip_tags("<body><p>a &lt;b&gt; &amp;&nbsp;&#20013;&#x6587;&bogus;</p>");
        assert_eq!(t, "a <b> &\u{a0}中文&bogus;");
        assert_eq!(line_blocks(&t, 2), vec![vec!["a <b> & 中文&bogus;".to_string()]]);
    }
}
