//! Repairs to the page before it is admitted: an unclosed `<title>` closed, and start tags with more
//! attributes than [`MAX_ATTRIBUTES`] cut down. Both make a rare hostile or garbled page readable (or
//! cheap to parse) and leave every other page as it is, so the admission scan counts the page the
//! parser will read.

use super::scan::{Cut, EndTags, MAX_ATTRIBUTES, Prescan, prescan, scan_with};
use crate::text::words::find_ascii_ci;

/// When a start tag has more than [`MAX_ATTRIBUTES`] attributes (`scan`, the page's [`prescan`], says
/// whether one has: the usual answer is no), the page with the rest of every such tag's attributes
/// cut, and its scan.
pub(super) fn cap_attributes(html: &str, scan: &Prescan) -> Option<(String, Prescan)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::prestrip::strip;

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
}
