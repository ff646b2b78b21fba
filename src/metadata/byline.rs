//! What the visible page says about its author and date: bylines (`By Jane Roe`, an element named
//! `author` or `byline`), Chinese labelled lines (`作者：`, `编辑：`, `记者：`, `发布时间：`, `来源：`),
//! and dates in elements named for dates.
//!
//! These are the least trusted sources (after JSON-LD, Open Graph and `<meta>`): the text near the
//! headline is read first, and only short text nodes are looked at, so a paragraph that happens to
//! say "by" or hold a date is not taken for a byline.

use crate::dom::{Document, NodeId, Tag};

use super::dates;

/// Text nodes longer than this (characters of folded text) are prose, not bylines.
const MAX_LINE: usize = 200;
/// Text nodes looked at after the headline (and before it when there is none).
const WINDOW: usize = 400;

/// What the visible text gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Byline {
    pub authors: Vec<String>,
    pub date: Option<String>,
    /// `来源：` (the outlet a Chinese article was first published by).
    pub source: Option<String>,
}

/// Chinese labels, longest first so `责任编辑` is not read as `编辑`.
const AUTHOR_LABELS: &[&str] = &["责任编辑", "作者", "记者", "撰稿", "撰文", "编辑", "责编", "文"];
const DATE_LABELS: &[&str] = &[
    "发布时间",
    "发布日期",
    "发表时间",
    "发表日期",
    "更新时间",
    "时间",
    "日期",
    "发布于",
    "Published",
    "Posted",
    "Date",
];
const SOURCE_LABELS: &[&str] = &["来源", "稿源", "出处"];

/// Names for elements that hold a byline.
fn names_author(id_class: &str) -> bool {
    ["author", "byline", "writer", "posted-by", "contributor"].iter().any(|k| has(id_class, k))
        && !["authority", "author-bio", "author-box", "about-author", "author-desc", "comment"]
            .iter()
            .any(|k| has(id_class, k))
}

/// Names for elements that hold a date.
fn names_date(id_class: &str) -> bool {
    ["date", "time", "publish", "posted", "byline", "meta", "info"].iter().any(|k| has(id_class, k))
        && !has(id_class, "update")
}

/// `hay` contains `needle`, by memchr's search, which on a short string starts at once where
/// `str::contains` first builds a Two-Way searcher (these tests run on every ancestor of the texts
/// around the headline).
fn has(hay: &str, needle: &str) -> bool {
    memchr::memmem::find(hay.as_bytes(), needle.as_bytes()).is_some()
}

/// How many labels [`all_labels`] gives.
const LABEL_COUNT: usize = AUTHOR_LABELS.len() + SOURCE_LABELS.len() + DATE_LABELS.len();

/// The labels in one automaton: the walk asks each short text for all 22, and one pass over the text
/// costs less than the first of 22 substring searches on Chinese pages (where it was a tenth of
/// `auto`'s instructions). `None` only if the automaton cannot be built; then each label is searched.
static LABELS: std::sync::LazyLock<Option<aho_corasick::AhoCorasick>> =
    std::sync::LazyLock::new(|| aho_corasick::AhoCorasick::new(all_labels()).ok());

/// Every label of [`AUTHOR_LABELS`], [`SOURCE_LABELS`] and [`DATE_LABELS`], in that order.
fn all_labels() -> impl Iterator<Item = &'static str> {
    AUTHOR_LABELS.iter().chain(SOURCE_LABELS).chain(DATE_LABELS).copied()
}

/// Where each label (in [`all_labels`] order) first occurs in `text`.
fn first_occurrences(text: &str) -> [Option<usize>; LABEL_COUNT] {
    let mut at = [None; LABEL_COUNT];
    match LABELS.as_ref() {
        Some(ac) => {
            // Overlapping, so that `编辑` is found inside `责任编辑` too. Occurrences of one label
            // come in order of their ends, which for one length is the order of their starts.
            for m in ac.find_overlapping_iter(text) {
                let slot = &mut at[m.pattern().as_usize()];
                if slot.is_none() {
                    *slot = Some(m.start());
                }
            }
        }
        None => {
            for (slot, label) in at.iter_mut().zip(all_labels()) {
                *slot = memchr::memmem::find(text.as_bytes(), label.as_bytes());
            }
        }
    }
    at
}

/// The value after `label` and a colon in `text` (full-width or not), up to the next label or a
/// break; `None` when the label is not there. `first` is where the label first occurs in `text`.
fn labelled<'a>(text: &'a str, label: &str, first: Option<usize>) -> Option<&'a str> {
    let at = first?;
    // `文` and `时间` are short: require that the label starts the text or follows a space/bracket.
    if at > 0 {
        let prev = text[..at].chars().next_back()?;
        if !(prev.is_whitespace() || matches!(prev, '[' | '【' | '(' | '（' | '|' | '/' | '丨' | '·')) {
            return None;
        }
    }
    let rest = text[at + label.len()..].trim_start();
    let rest =
        rest.strip_prefix(['：', ':']).or_else(|| (label.len() > 3).then_some(rest).filter(|r| r.starts_with(' ')))?;
    Some(rest.trim_start())
}

/// A name after a label: up to a space, a separator or the next label.
fn name_after(rest: &str) -> Option<String> {
    let mut end = rest.len();
    for stop in [
        " ", "\u{3000}", "|", "丨", "/", "（", "(", "【", "[", "，", ",", "；", ";", "来源", "时间", "发布", "编辑",
        "日期",
    ] {
        if let Some(k) = rest.find(stop)
            && k > 0
        {
            end = end.min(k);
        }
    }
    let name = rest[..end].trim_matches(|c: char| c.is_whitespace() || "：:，,。.".contains(c));
    let chars = name.chars().count();
    ((2..=20).contains(&chars) && !name.chars().any(|c| c.is_ascii_digit())).then(|| name.to_string())
}

/// Words that introduce a byline: alone, they are a label waiting for its name.
const BYLINE_LABELS: &[&str] = &[
    "written by",
    "posted by",
    "words by",
    "story by",
    "reviewed by",
    "authored by",
    "article by",
    "recipe by",
    "by",
    "author",
    "authors",
    "posted",
    "written",
];

/// A byline label without a name (`By`, `Written By`, `Author:`).
pub fn is_label(s: &str) -> bool {
    // Without a lower-cased copy of every text: the labels are ASCII, and a text lower-cases to an
    // ASCII label only if it is one in another case, or spells a `k` with the Kelvin sign (three
    // bytes for one): a text over three times the longest label is none.
    let t = s.trim().trim_end_matches([':', '：']).trim();
    if t.len() > 3 * LONGEST_LABEL {
        return false;
    }
    if t.is_ascii() {
        return BYLINE_LABELS.iter().any(|l| t.eq_ignore_ascii_case(l));
    }
    // The Kelvin sign is the one non-ASCII character that lower-cases to ASCII: a text with any other
    // (every short Chinese text) is no label.
    if t.chars().any(|c| !c.is_ascii() && c != '\u{212A}') {
        return false;
    }
    BYLINE_LABELS.iter().any(|l| t.chars().flat_map(char::to_lowercase).eq(l.chars()))
}

/// The byte length of the longest [`BYLINE_LABELS`] entry.
const LONGEST_LABEL: usize = 11;

/// A name as publishers write it in declarations and bylines, without the label before it or an
/// affiliation after it (`By Jane Roe - Staff Writer`, `, USA TODAY`).
pub fn clean_name(s: &str) -> String {
    let mut t = crate::dom::fold_ws(s);
    let lower = t.to_lowercase();
    if let Some(p) = BYLINE_LABELS
        .iter()
        .filter(|p| p.len() < lower.len())
        .find(|p| lower.starts_with(*p) && lower[p.len()..].starts_with([' ', ':', '：']))
    {
        t = t[p.len()..].trim_start_matches([' ', ':', '：']).to_string();
    }
    for stop in [" - ", " | ", " – ", " — ", " • "] {
        if let Some(k) = t.find(stop) {
            t.truncate(k);
        }
    }
    let t = t.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '-'));
    let mut words: Vec<&str> = t.split(' ').collect();
    // User cards follow the name with counts (`jane 1,655 12 gold badges`): names have no word
    // that starts with a digit (a date is left whole, for the caller to reject).
    if let Some(k) = words.iter().position(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        && k > 0
        && dates::find_in_text(t).is_none()
    {
        words.truncate(k);
    }
    // ... or with the avatar's letter, the name's own initial (`jdoe J`).
    if words.len() >= 2 {
        let last = words[words.len() - 1];
        let first = words[0].chars().next().map(|c| c.to_lowercase().to_string());
        if last.chars().count() == 1 && last.chars().all(char::is_uppercase) && first == Some(last.to_lowercase()) {
            words.pop();
        }
    }
    words.join(" ").trim_end_matches([',', ';']).to_string()
}

/// Path segments of links that lead to a person's page: the link's text is that person's name.
const PERSON_PATHS: &[&str] = &[
    "author",
    "authors",
    "writer",
    "writers",
    "contributor",
    "contributors",
    "profile",
    "profiles",
    "user",
    "users",
    "u",
    "members",
    "member",
    "people",
    "staff",
    "journalist",
];

fn person_link(href: &str) -> bool {
    let path = href.split_once("://").map_or(href, |(_, r)| r.find('/').map_or("", |k| &r[k..]));
    let mut segs = path.split(['/', '?', '#']).filter(|s| !s.is_empty());
    // The person's segment must be followed by a name or id.
    let mut prev_match = false;
    for seg in segs.by_ref() {
        if prev_match {
            return true;
        }
        prev_match = PERSON_PATHS.contains(&seg.to_ascii_lowercase().as_str());
    }
    false
}

/// `By Jane Roe and John Doe`, `Written by Jane Roe | March 5`: the names, or `None`.
fn english_byline(text: &str) -> Option<Vec<String>> {
    let lower = text.to_ascii_lowercase();
    let start = ["written by ", "posted by ", "words by ", "story by ", "by "]
        .iter()
        .find_map(|p| lower.strip_prefix(p).map(|_| p.len()))
        .or_else(|| lower.starts_with("author:").then_some(7))?;
    let rest = text[start..].trim_start_matches([':', ' ']);
    names(rest)
}

/// Names in a byline's text: cut at a date, a separator or a preposition, split on `and`, `&`, `,`.
fn names(text: &str) -> Option<Vec<String>> {
    let mut t = text.trim();
    if let Some((_, r)) = dates::find_in_text(t) {
        t = &t[..r.start];
    }
    for stop in [
        " | ",
        "|",
        " • ",
        "•",
        " · ",
        " - ",
        " — ",
        " – ",
        " on ",
        " in ",
        " for ",
        " at ",
        " updated",
        " published",
        "\n",
    ] {
        if let Some(k) = t.to_ascii_lowercase().find(stop) {
            t = &t[..k];
        }
    }
    let t = t.trim().trim_end_matches([',', '.', ':', ';']).trim();
    let t = t.strip_prefix("By ").or_else(|| t.strip_prefix("by ")).unwrap_or(t);
    let mut out = Vec::new();
    for part in t.split(" and ").flat_map(|p| p.split(" & ")).flat_map(|p| p.split(", ")) {
        let p = part.trim();
        let words = p.split_whitespace().count();
        if words == 0 || words > 5 || p.chars().count() > 60 {
            return None;
        }
        // A name starts with a capital (or is not written in Latin letters at all).
        if !p.chars().next().is_some_and(|c| c.is_uppercase() || !c.is_ascii()) {
            return None;
        }
        out.push(p.to_string());
    }
    (!out.is_empty()).then_some(out)
}

/// The owner element named for authors or dates, nearest first.
fn named_ancestor(doc: &Document, id: NodeId, test: fn(&str) -> bool, levels: usize) -> bool {
    doc.ancestors(id).take(levels).any(|a| doc.node(a).element().and_then(|e| e.id_class.as_deref()).is_some_and(test))
}

/// [`named_ancestor`] with [`names_author`], each element's answer kept in `memo` (by node id: 0 not
/// yet asked, 1 no, 2 yes): the texts of the window share most of their ancestors, and each answer
/// costs a handful of substring searches.
fn author_named_ancestor(doc: &Document, id: NodeId, memo: &mut [u8]) -> bool {
    doc.ancestors(id).take(4).any(|a| {
        let Some(slot) = memo.get_mut(a as usize) else { return false };
        if *slot == 0 {
            let named = doc.node(a).element().and_then(|e| e.id_class.as_deref()).is_some_and(names_author);
            *slot = 1 + u8::from(named);
        }
        *slot == 2
    })
}

/// The headline: the first `<h1>` in the body.
fn headline(doc: &Document) -> Option<NodeId> {
    (doc.body..doc.node(doc.body).end).find(|&i| doc.node(i).tag() == Some(Tag::H1))
}

/// Read bylines and dates around the headline.
pub fn read(doc: &Document) -> Byline {
    let mut out = Byline::default();
    let body_end = doc.node(doc.body).end;
    let start = headline(doc).unwrap_or(doc.body);
    // The headline's surroundings first: a little before it (kickers, breadcrumbs hold dates too),
    // then after it.
    let texts: Vec<NodeId> = (start..body_end).filter(|&i| doc.node(i).is_text()).take(WINDOW).collect();
    let before: Vec<NodeId> = (doc.body..start).rev().filter(|&i| doc.node(i).is_text()).take(40).collect();
    let mut pending_author_label = false;
    let mut pending_date_label = false;
    let mut author_memo = vec![0u8; doc.len()];
    for &t in texts.iter().chain(before.iter()) {
        let text = doc.text(t);
        // A link to a person's page, in the byline region: its text is the author.
        if out.authors.is_empty()
            && doc.node(t).in_link
            && let Some(a) = doc.ancestors(t).take(3).find(|&a| doc.node(a).tag() == Some(Tag::A))
            && doc.node(a).element().and_then(|e| e.href()).is_some_and(person_link)
        {
            let name = clean_name(&doc.subtree_text(a));
            if !is_label(&name) && names(&name).is_some() {
                out.authors.push(name);
            }
        }
        if pending_author_label && out.authors.is_empty() && !is_label(text) {
            if let Some(n) = names(text) {
                out.authors = n;
            }
            pending_author_label = false;
        }
        if out.authors.is_empty() && is_label(text) {
            pending_author_label = true;
            continue;
        }
        if text.chars().count() > MAX_LINE {
            pending_author_label = false;
            pending_date_label = false;
            continue;
        }
        if pending_author_label
            && out.authors.is_empty()
            && let Some(n) = name_after(text)
        {
            out.authors.push(n);
        }
        if pending_date_label && out.date.is_none() {
            out.date = dates::find_in_text(text).map(|(d, _)| d);
        }
        pending_date_label = false;
        // The author and source labels are Chinese, and most date labels: an ASCII text (most texts
        // of most pages) can hold only the English date labels, and is searched only while the date
        // is unknown.
        let labels = !text.is_ascii();
        let found = if out.date.is_none() || (labels && (out.authors.is_empty() || out.source.is_none())) {
            first_occurrences(text)
        } else {
            [None; LABEL_COUNT]
        };
        if labels && out.authors.is_empty() {
            for (label, &first) in AUTHOR_LABELS.iter().zip(&found) {
                if let Some(rest) = labelled(text, label, first) {
                    match name_after(rest) {
                        Some(n) => out.authors.push(n),
                        None => pending_author_label = rest.trim().is_empty(),
                    }
                    break;
                }
            }
        }
        // Only while no author is known: the element-name test below costs a dozen substring searches
        // per ancestor, and the window is walked to its end on most pages (few name a source).
        if out.authors.is_empty() {
            let named = author_named_ancestor(doc, t, &mut author_memo);
            if !doc.node(t).in_link || named {
                if let Some(n) = english_byline(text) {
                    out.authors = n;
                } else if named && let Some(n) = names(text) {
                    out.authors = n;
                }
            }
        }
        if labels && out.source.is_none() {
            for (label, &first) in SOURCE_LABELS.iter().zip(&found[AUTHOR_LABELS.len()..]) {
                if let Some(rest) = labelled(text, label, first)
                    && let Some(n) = name_after(rest)
                {
                    out.source = Some(n);
                    break;
                }
            }
        }
        if out.date.is_none() {
            for (label, &first) in DATE_LABELS.iter().zip(&found[AUTHOR_LABELS.len() + SOURCE_LABELS.len()..]) {
                if let Some(rest) = labelled(text, label, first) {
                    match dates::find_in_text(rest) {
                        Some((d, _)) => out.date = Some(d),
                        None => pending_date_label = rest.trim().is_empty(),
                    }
                    break;
                }
            }
        }
        if out.date.is_none()
            && (text.chars().count() <= 60 || named_ancestor(doc, t, names_date, 3))
            && let Some((d, _)) = dates::find_in_text(text)
        {
            out.date = Some(d);
        }
        if !out.authors.is_empty() && out.date.is_some() && out.source.is_some() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byline_labels_are_ascii_and_the_longest_is_known() {
        assert!(BYLINE_LABELS.iter().all(|l| l.is_ascii() && *l == l.to_lowercase()));
        assert_eq!(BYLINE_LABELS.iter().map(|l| l.len()).max(), Some(LONGEST_LABEL));
        // A non-ASCII text is compared lower-cased too (`İ` lower-cases to two characters).
        assert!(!is_label("Wrİtten by") && is_label("Recipe By"));
        assert!(is_label("  WRITTEN BY：") && !is_label("Written by Jane"));
        assert!(!is_label("作者：") && !is_label("by 李明") && is_label("By"));
    }

    #[test]
    fn author_and_source_labels_are_not_ascii() {
        // `read` skips the author and source label search on ASCII texts.
        assert!(AUTHOR_LABELS.iter().chain(SOURCE_LABELS).all(|l| !l.is_ascii()));
    }

    #[test]
    fn labels_links_and_affiliations() {
        let doc = Document::parse("<body><h1>T</h1><span>Written By</span> <span>Jane Roe</span><p>x</p></body>");
        assert_eq!(read(&doc).authors, ["Jane Roe"]);
        let doc = Document::parse("<body><h1>T</h1><div><a href='/authors/jroe/'>Jane Roe</a></div><p>x</p></body>");
        assert_eq!(read(&doc).authors, ["Jane Roe"]);
        assert_eq!(clean_name("By David Jackson - Editorial Team"), "David Jackson");
        assert_eq!(clean_name(", USA TODAY"), "USA TODAY");
        // User cards: counts and the avatar's initial after the name.
        assert_eq!(clean_name("jdoe 1,65511 gold badge1414 silver badges"), "jdoe");
        assert_eq!(clean_name("JosephF J"), "JosephF");
        assert_eq!(clean_name("Jane Roe"), "Jane Roe");
        assert_eq!(clean_name("Mar 5, 2024"), "Mar 5, 2024");
        assert!(is_label("Recipe by") && is_label("Article by:") && is_label("Authored by"));
        assert!(is_label("Written By") && is_label("Author:") && !is_label("Bye Felicia"));
        assert!(person_link("https://ex.test/user/julian") && !person_link("https://ex.test/user/"));
    }

    #[test]
    fn english_bylines() {
        let doc = Document::parse(
            "<body><h1>Title</h1><div class=byline>By Jane Roe and John Doe | March 5, 2024</div><p>Text.</p></body>",
        );
        let b = read(&doc);
        assert_eq!(b.authors, ["Jane Roe", "John Doe"]);
        assert_eq!(b.date.as_deref(), Some("2024-03-05"));
        assert_eq!(names("the team said"), None);
    }

    #[test]
    fn chinese_labels() {
        let doc = Document::parse(
            "<body><h1>标题</h1><div>发布时间：2024年3月5日 10:30 来源：新华网 作者：张三</div><p>正文。</p>\
             <p>责任编辑：李四</p></body>",
        );
        let b = read(&doc);
        assert_eq!(b.authors, ["张三"]);
        assert_eq!(b.date.as_deref(), Some("2024-03-05T10:30:00"));
        assert_eq!(b.source.as_deref(), Some("新华网"));
        let split = Document::parse("<body><h1>标题</h1><span>作者：</span><span>王五</span></body>");
        assert_eq!(read(&split).authors, ["王五"]);
    }
}
