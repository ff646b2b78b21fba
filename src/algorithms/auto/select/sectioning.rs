//! What HTML's sectioning elements say is not the page's main content: text outside its one
//! `<main>` (rule `outside-main`), `<nav>`, `<aside>` and `<footer>` elements and the ones named for
//! a footer (`sectioning-chrome`, `named-footers`), and tables of contents, which only repeat the
//! headings (`tables-of-contents`). One family because each reads the page's structure, not its
//! words.

use super::unchoose::{chosen_chars, unchoose_topmost};
use crate::dom::{Document, NONE, Node, NodeId, Tag};

/// Unchoose the chosen text outside the page's `<main>` element when at least `min_share` of the
/// chosen characters are inside it ([`crate::algorithms::contract::params::AutoParams::main_min_share`]), but
/// not the run of chosen text that leads into `<main>` with no unchosen text between (a headline
/// and dek written above it). A page with no `<main>`, or with two apart, is left as it is, and so
/// is one whose chosen text is all inside. Returns whether any was unchosen.
pub(super) fn confine_to_main(doc: &Document, chosen: &mut [bool], min_share: f64) -> bool {
    if min_share <= 0.0 {
        return false;
    }
    let end = doc.node(doc.body).end;
    let mut mains = (doc.body..end).filter(|&i| doc.node(i).tag() == Some(Tag::Main));
    let Some(main) = mains.next() else { return false };
    if mains.any(|i| !doc.contains(main, i)) {
        return false;
    }
    let main_end = doc.node(main).end as usize;
    let all = chosen_chars(doc, chosen, 0, chosen.len() as NodeId);
    let inside = chosen_chars(doc, chosen, main, main_end as NodeId);
    if inside == all || (inside as f64) < min_share * all as f64 {
        return false;
    }
    // Back from `<main>` over the chosen text that leads into it.
    let mut lead_start = main as usize;
    for i in (0..main as usize).rev() {
        if doc.node(i as NodeId).is_text() && !doc.text(i as NodeId).trim().is_empty() {
            if !chosen[i] {
                break;
            }
            lead_start = i;
        }
    }
    chosen[..lead_start].fill(false);
    if let Some(after) = chosen.get_mut(main_end..) {
        after.fill(false);
    }
    true
}

/// Unchoose the chosen text of `<nav>`, `<aside>` and `<footer>` elements that hold less than half of
/// the chosen characters, and of `<nav>` elements
/// whose chosen text is at least nine tenths link text when some chosen text lies outside them (a
/// shop's mega-menu can outweigh the page it serves) (rule `sectioning-chrome`). Returns whether
/// any was unchosen.
pub(super) fn drop_sectioning_chrome(doc: &Document, chosen: &mut [bool]) -> bool {
    let total = chosen_chars(doc, chosen, doc.body, doc.node(doc.body).end);
    let sectioning = |_: NodeId, n: &Node| matches!(n.tag(), Some(Tag::Nav | Tag::Aside | Tag::Footer));
    let chrome = |i: NodeId, n: &Node, chosen: &[bool]| {
        let inside = chosen_chars(doc, chosen, i, n.end);
        // A menu is navigation whatever its share, unless it is all there is.
        let menu = n.tag() == Some(Tag::Nav) && inside < total && {
            let linked: usize =
                (i..n.end).filter(|&t| chosen[t as usize] && doc.node(t).in_link).map(|t| doc.text(t).len()).sum();
            linked * 10 >= inside * 9
        };
        inside > 0 && (inside * 2 < total || menu)
    };
    unchoose_topmost(doc, chosen, doc.body, sectioning, chrome)
}

/// The fewest links into the page that make a table of contents.
const CONTENTS_MIN_LINKS: u32 = 3;
/// The least link text a table of contents has per link, in bytes: shorter ones are footnote marks
/// ("1", "^") and page numbers.
const CONTENTS_MIN_LINK_BYTES: usize = 8;

/// Unchoose tables of contents (rule `tables-of-contents`): the topmost elements holding at least
/// [`CONTENTS_MIN_LINKS`] links into the page itself (`href="#..."`) of [`CONTENTS_MIN_LINK_BYTES`]
/// or more bytes each on average, whose text is at least four fifths such link text (a "Contents"
/// caption aside), when they hold less than half of the chosen characters. Returns whether any was
/// unchosen.
pub(super) fn drop_tables_of_contents(doc: &Document, chosen: &mut [bool]) -> bool {
    let body = doc.body;
    let end = doc.node(body).end;
    let n = (end - body) as usize;
    // Per node below `body`, bottom-up: its text bytes (trimmed), the bytes of that inside links into
    // the page, and how many such links.
    let (mut all, mut frag, mut links) = (vec![0usize; n], vec![0usize; n], vec![0u32; n]);
    for i in (body..end).rev() {
        let k = (i - body) as usize;
        let node = doc.node(i);
        if node.is_text() {
            all[k] = doc.text(i).trim().len();
        } else if let Some(e) = node.element()
            && e.tag == Tag::A
            && e.href().is_some_and(|h| h.len() > 1 && h.starts_with('#'))
        {
            frag[k] = all[k];
            links[k] += 1;
        }
        if i != body && node.parent != NONE && node.parent >= body {
            let pk = (node.parent - body) as usize;
            all[pk] += all[k];
            frag[pk] += frag[k];
            links[pk] += links[k];
        }
    }
    let total = chosen_chars(doc, chosen, body, end);
    let contents = |i: NodeId, node: &Node| {
        let k = (i - body) as usize;
        node.element().is_some()
            && links[k] >= CONTENTS_MIN_LINKS
            && frag[k] >= CONTENTS_MIN_LINK_BYTES * links[k] as usize
            && frag[k] * 5 >= all[k] * 4
    };
    let minor = |i: NodeId, node: &Node, chosen: &[bool]| {
        let inside = chosen_chars(doc, chosen, i, node.end);
        inside > 0 && inside * 2 < total
    };
    unchoose_topmost(doc, chosen, body, contents, minor)
}

#[cfg(test)]
mod tests {
    use super::super::testing::chosen_text;
    use super::*;

    /// Choose the text nodes whose text is in `picked` (all when empty), confine to `<main>` at
    /// `min_share`, and return the text still chosen.
    fn kept_after_main_confinement(html: &str, picked: &[&str], min_share: f64) -> String {
        let doc = Document::parse(html);
        let mut chosen: Vec<bool> = (0..doc.len() as NodeId)
            .map(|i| doc.node(i).is_text() && (picked.is_empty() || picked.contains(&doc.text(i).trim())))
            .collect();
        confine_to_main(&doc, &mut chosen, min_share);
        chosen_text(&doc, &chosen)
    }

    #[test]
    fn text_outside_main_is_dropped_when_most_is_inside() {
        let body = "A long paragraph of the article, well over twice what the menu, the rail and the widget hold \
                    together, as the body of a page usually is.";
        let page = format!(
            "<body><nav><p>Menu entry</p></nav><p>Top stories</p><div><h1>Headline</h1><p>Dek</p></div>\
             <main><p>{body}</p></main><aside><p>What customers say</p></aside></body>"
        );
        let all_but = |left_out: &str| {
            ["Menu entry", "Top stories", "Headline", "Dek", body, "What customers say"]
                .into_iter()
                .filter(|t| *t != left_out)
                .collect::<Vec<_>>()
        };
        // The headline and dek run straight into <main> and stay; the menu, cut off from <main> by the
        // unchosen rail, and the widget after <main> go.
        assert_eq!(kept_after_main_confinement(&page, &all_but("Top stories"), 0.65), format!("Headline|Dek|{body}"));
        // With "Dek" unchosen the headline no longer leads into <main>.
        assert_eq!(kept_after_main_confinement(&page, &all_but("Dek"), 0.65), body);
        // Everything chosen is one run into <main>: only what follows it goes.
        assert_eq!(
            kept_after_main_confinement(&page, &[], 0.65),
            format!("Menu entry|Top stories|Headline|Dek|{body}")
        );
        // 0 never confines; nor does a share above what <main> holds.
        assert!(kept_after_main_confinement(&page, &[], 0.0).ends_with("|What customers say"));
        assert!(kept_after_main_confinement(&page, &[], 0.99).ends_with("|What customers say"));
        // Two <main> elements apart (a template's mistake): nothing is known, nothing dropped.
        let two = format!("<body><main><p>{body}</p></main><p>Footer</p><main><p>Other</p></main></body>");
        assert_eq!(kept_after_main_confinement(&two, &[], 0.65), format!("{body}|Footer|Other"));
        // No <main>: left as it is.
        let none = format!("<body><p>Menu</p><div><p>{body}</p></div></body>");
        assert_eq!(kept_after_main_confinement(&none, &[], 0.65), format!("Menu|{body}"));
    }

    #[test]
    fn menus_sidebars_and_footers_holding_little_of_the_answer_are_dropped() {
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            drop_sectioning_chrome(&doc, &mut chosen);
            chosen_text(&doc, &chosen)
        };
        let body = "The article's own paragraph, longer than the menu, the sidebar and the footer together.";
        // A footer written as a `<div>` named for it is left to the block model: the names are no rule.
        let named =
            format!("<body><div class=\"site-footer\"><p>Copyright 2026 County News</p></div><p>{body}</p></body>");
        assert_eq!(kept(&named), format!("Copyright 2026 County News|{body}"));
        let page = format!(
            "<body><nav><p>Home</p></nav><div><p>{body}</p><footer><p>Filed under news</p></footer></div>\
             <aside><p>Popular this week</p></aside><footer><p>Copyright</p></footer></body>"
        );
        assert_eq!(kept(&page), body);
        // A template that wraps the whole article in <aside> keeps it.
        let wrapped = format!("<body><aside><p>{body}</p></aside><p>Menu</p></body>");
        assert_eq!(kept(&wrapped), format!("{body}|Menu"));
        // A menu of links larger than the page is still a menu; a <nav> wrapping prose is not.
        let items: String = (0..30).map(|k| format!("<li><a href=/c{k}>Category number {k}</a></li>")).collect();
        let mega = format!("<body><nav><ul>{items}</ul></nav><p>{body}</p></body>");
        assert_eq!(kept(&mega), body);
        let prose_nav = format!("<body><nav><p>{body}</p></nav><p>Menu</p></body>");
        assert_eq!(kept(&prose_nav), format!("{body}|Menu"));
        // Nothing outside it: what the classifier kept stays.
        let only = format!("<body><nav><ul>{items}</ul></nav></body>");
        assert!(kept(&only).starts_with("Category number 0|"));
    }

    #[test]
    fn tables_of_contents_are_dropped_and_footnote_marks_and_outside_links_are_not() {
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            let dropped = drop_tables_of_contents(&doc, &mut chosen);
            (dropped, chosen_text(&doc, &chosen))
        };
        let body = "<h2 id=why>Why it matters</h2><p>A paragraph long enough to outweigh the contents list \
            above it, and then some more words so that it holds most of the kept text on its own.</p>\
            <h2 id=how>How it works</h2><p>Another paragraph.</p>";
        let toc = "<div class=toc><p>Contents</p><ul><li><a href=#why>Why it matters</a></li>\
            <li><a href=#how>How it works</a></li><li><a href=#faq>Questions people ask</a></li></ul></div>";
        let (dropped, text) = kept(&format!("<body>{toc}{body}</body>"));
        assert!(dropped);
        assert!(text.starts_with("Why it matters|A paragraph"), "{text}");
        // The same list linking to other pages is not a table of contents.
        let (dropped, _) = kept(&format!("<body>{}{body}</body>", toc.replace("href=#", "href=/")));
        assert!(!dropped);
        // Footnote marks are links into the page too, but short.
        let notes = "<p><sup><a href=#n1>1</a></sup><sup><a href=#n2>2</a></sup><sup><a href=#n3>3</a></sup></p>";
        assert!(!kept(&format!("<body>{notes}{body}</body>")).0);
        // A page that is nothing but its contents list keeps it.
        assert!(!kept(&format!("<body>{toc}</body>")).0);
    }
}
