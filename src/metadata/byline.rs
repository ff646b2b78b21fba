//! What the visible page says about its author and date: bylines (`By Jane Roe`, an element named
//! `author` or `byline`), Chinese labelled lines (`作者：`, `记者：`, `文/`, `发布时间：`, `来源：`),
//! the reporters a Chinese news lead names (`新京报讯（记者 陆一夫）`), and dates in elements named for
//! dates.
//!
//! These are the least trusted sources (after JSON-LD, Open Graph and `<meta>`): the text near the
//! headline is read first, and only short text nodes are looked at, so a paragraph that happens to
//! say "by" or hold a date is not taken for a byline.
//!
//! Chinese pages label their editors (`责任编辑：`, `编辑：`, `审核：`, `校对：`) and sources
//! (`来源：新京报`) in the same lines as their writers, and most portal pages name only those: an
//! editor or a source is never the author. Editors are kept apart ([`Byline::editors`]) so that no
//! other source can bring one back as the author.

use crate::dom::{Document, NodeId, Tag};

use super::dates;
use super::names::{clean_name, english_byline, is_han_name, is_label, is_placeholder, name_after, names, persons};

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
    /// The people the page labels as its editors or checkers (`责任编辑：张毅`): never its authors.
    pub editors: Vec<String>,
}

/// Chinese labels of the writer.
const AUTHOR_LABELS: &[&str] = &["作者", "记者", "撰稿", "撰文", "执笔", "采写", "编译", "通讯员", "文"];
/// Chinese labels of the people who edited, checked or signed off the article: they stand where
/// bylines stand, and are not its writers.
/// The editor's labels written at the article's foot (`责任编辑：张毅`): past one, the walk is in the
/// comments and other articles.
const FOOT_LABELS: &[&str] = &["责任编辑", "值班编辑", "本文责编", "责编"];
const EDITOR_LABELS: &[&str] = &[
    "责任编辑",
    "值班编辑",
    "本文责编",
    "编辑",
    "责编",
    "审核",
    "审校",
    "校对",
    "主编",
    "美编",
    "监制",
    "编审",
    "签发",
];
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
const SOURCE_LABELS: &[&str] = &["本文来源", "文章来源", "信息来源", "稿件来源", "来源", "稿源", "出处"];

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
const LABEL_COUNT: usize = AUTHOR_LABELS.len() + SOURCE_LABELS.len() + DATE_LABELS.len() + EDITOR_LABELS.len();
/// Where each kind of label starts in [`all_labels`] order.
const SOURCE_AT: usize = AUTHOR_LABELS.len();
const DATE_AT: usize = SOURCE_AT + SOURCE_LABELS.len();
const EDITOR_AT: usize = DATE_AT + DATE_LABELS.len();

/// The labels in one automaton: the walk asks each short text for all of them, and one pass over the
/// text costs less than the first of that many substring searches on Chinese pages (where it was a
/// tenth of `auto`'s instructions). `None` only if the automaton cannot be built; then each label is
/// searched.
static LABELS: std::sync::LazyLock<Option<aho_corasick::AhoCorasick>> =
    std::sync::LazyLock::new(|| aho_corasick::AhoCorasick::new(all_labels()).ok());

/// Every label of [`AUTHOR_LABELS`], [`SOURCE_LABELS`], [`DATE_LABELS`] and [`EDITOR_LABELS`], in
/// that order.
fn all_labels() -> impl Iterator<Item = &'static str> {
    AUTHOR_LABELS.iter().chain(SOURCE_LABELS).chain(DATE_LABELS).chain(EDITOR_LABELS).copied()
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
    // A reporter's label may also follow the outlet's name at the start of a short line
    // (`澎湃新闻记者 贺梨萍`, `南都记者 余毅菁 向雪妮`).
    if at > 0 {
        let before = &text[..at];
        let prev = before.chars().next_back()?;
        let bracketed = prev.is_whitespace()
            || matches!(
                prev,
                '[' | '【' | '(' | '（' | '|' | '/' | '丨' | '·' | '，' | '。' | '；' | ',' | ';' | '》' | '」'
            );
        let outlet = matches!(label, "记者" | "通讯员" | "作者")
            && before.chars().count() <= 12
            && !before.contains(char::is_whitespace)
            && text.chars().count() <= 40;
        if !bracketed && !outlet {
            return None;
        }
    }
    let after = &text[at + label.len()..];
    let rest = after.trim_start();
    // `文/张三`, `执笔/叨叨姐`: a slash stands for the colon after the writer's short labels.
    let slash = AUTHOR_LABELS.contains(&label).then(|| rest.strip_prefix(['/', '／'])).flatten();
    // A Chinese label of two or more characters may be followed by a space alone (`记者 陆一夫`).
    let spaced = (!label.is_ascii() && label.len() > 3 && after.starts_with(char::is_whitespace)).then_some(rest);
    let rest = rest.strip_prefix(['：', ':']).or(slash).or(spaced)?;
    Some(rest.trim_start())
}

/// A line that credits a picture (`中新社记者 杜洋 摄`, `小花母亲供图`), not the article.
fn photo_credit(text: &str) -> bool {
    let t = text.trim_end_matches(|c: char| c.is_whitespace() || "）)】]。".contains(c));
    ["摄", "摄影", "供图", "翻摄", "制图", "图"].iter().any(|w| t.ends_with(w))
}

/// Roles written before or after a name in a reporter's line (`职工通讯员 李琴雯`, `观察者网专栏作者 王文`).
const ROLES: &[&str] = &["特约记者", "见习记者", "本报记者", "记者", "实习生", "通讯员", "专栏作者", "作者"];

/// The names after a Chinese writer's label: the first as [`name_after`] reads it; more only when the
/// rest of a short line is names too (`段彦超 廖艳`, `叨叨姐、胡一刀&李小飞刀`), each of two to four Han
/// characters. A role before a name is skipped (`观察者网专栏作者 王文`).
fn names_after(rest: &str) -> Vec<String> {
    let rest = rest.trim_end_matches(|c: char| c.is_whitespace() || "）)】]".contains(c));
    let tokens: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || "、，,&＆;；".contains(c))
        .map(|t| t.trim_matches(|c: char| "（）()【】[]：:".contains(c)))
        .filter(|t| !t.is_empty())
        .collect();
    // A role first (an outlet's columnist, a staff correspondent): the name follows it.
    let skip = usize::from(tokens.len() > 1 && tokens.first().is_some_and(|t| ROLES.iter().any(|r| t.ends_with(r))));
    let Some(first) = tokens.get(skip).and_then(|t| name_after(t)) else {
        return name_after(rest).filter(|n| !is_placeholder(n)).into_iter().collect();
    };
    if is_placeholder(&first) {
        return Vec::new();
    }
    let mut out = vec![first];
    let more = &tokens[skip + 1..];
    // `编辑 刘晓阳 校对 李铭`: a label among them ends the names.
    let name_like = |t: &&str| is_han_name(t) && !is_placeholder(t) && !all_labels().any(|l| l == *t);
    if rest.chars().count() <= 30 && more.iter().all(name_like) {
        out.extend(more.iter().map(|t| t.to_string()));
    }
    out
}

/// The reporters a Chinese news lead names in brackets before its first sentence:
/// `新京报讯（记者 陆一夫）11月25日…`, `新华社巴黎12月9日电（记者唐霁）…`, `本站讯（职工通讯员 李琴雯 刘会）…`.
fn lead_reporters(text: &str) -> Vec<String> {
    let head = &text[..text.char_indices().nth(48).map_or(text.len(), |(i, _)| i)];
    let Some(open) = head.find(['（', '(']) else { return Vec::new() };
    if head[..open].chars().count() > 24 {
        return Vec::new();
    }
    let inner = &head[open + head[open..].chars().next().map_or(1, char::len_utf8)..];
    let Some(close) = inner.find(['）', ')']) else { return Vec::new() };
    let inner = inner[..close].trim();
    if !["记者", "通讯员"].iter().any(|r| inner.contains(r)) || photo_credit(inner) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for token in inner.split(|c: char| c.is_whitespace() || "、，,".contains(c)).filter(|t| !t.is_empty()) {
        // A role alone or after an outlet's name (`记者`, `职工通讯员`, `新华社记者`) comes before names.
        if ROLES.iter().any(|r| token.ends_with(r)) {
            continue;
        }
        // `记者唐霁`: the role glued to the name.
        let t = ROLES.iter().find_map(|r| token.strip_prefix(r)).unwrap_or(token);
        if is_han_name(t) && !is_placeholder(t) {
            out.push(t.to_string());
        } else {
            // `整合`, `报道`, a date: the names are over.
            break;
        }
    }
    out
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

/// A person link's name: its text up to the first place where two elements' texts meet with no space
/// between them. A browser shows those apart (a block after a block, a badge beside the name), and
/// glued they make a name no one has: `<div>扬眼</div><span>企鹅号</span>` is the account `扬眼` and
/// the platform's label, not `扬眼企鹅号`.
fn link_name(doc: &Document, a: NodeId) -> String {
    let mut out = String::new();
    let mut last: Option<NodeId> = None;
    for t in doc.text_nodes(a) {
        let (before, after) = match doc.node(t).data {
            crate::dom::NodeData::Text { space_before, space_after, .. } => (space_before, space_after),
            _ => (false, false),
        };
        if let Some(prev) = last {
            let spaced = before
                || matches!(doc.node(prev).data, crate::dom::NodeData::Text { space_after: true, .. })
                || out.ends_with(' ');
            if !spaced && doc.node(prev).parent != doc.node(t).parent {
                break;
            }
            if spaced && !out.ends_with(' ') {
                out.push(' ');
            }
        }
        out.push_str(doc.text(t));
        if after {
            out.push(' ');
        }
        last = Some(t);
    }
    out.trim_end().to_string()
}

/// Whether the walk still looks for the author: none found yet, and the article's foot not passed.
fn seeking(out: &Byline, article_over: bool) -> bool {
    out.authors.is_empty() && !article_over
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
    // The editor's label at the foot ([`FOOT_LABELS`]) ends the article: what follows is comments and
    // other articles, whose people are not this one's authors.
    let mut article_over = false;
    for (k, &t) in texts.iter().chain(before.iter()).enumerate() {
        let text = doc.text(t);
        // A link to a person's page, in the byline region: its text is the author.
        if seeking(&out, article_over)
            && doc.node(t).in_link
            && let Some(a) = doc.ancestors(t).take(3).find(|&a| doc.node(a).tag() == Some(Tag::A))
            && doc.node(a).element().and_then(|e| e.href()).is_some_and(person_link)
        {
            let name = clean_name(&link_name(doc, a));
            if !is_label(&name) && names(&name).is_some() {
                out.authors = persons(vec![name]);
            }
        }
        if pending_author_label && seeking(&out, article_over) && !is_label(text) {
            if let Some(n) = names(text) {
                out.authors = persons(n);
            }
            pending_author_label = false;
        }
        if seeking(&out, article_over) && is_label(text) {
            pending_author_label = true;
            continue;
        }
        // A news lead names its reporters before its first sentence, in a paragraph of any length.
        if seeking(&out, article_over) && !text.is_ascii() {
            out.authors = persons(lead_reporters(text));
        }
        // More than MAX_LINE characters: found at the first one past it, not by counting them all.
        if text.len() > MAX_LINE && text.chars().nth(MAX_LINE).is_some() {
            pending_author_label = false;
            pending_date_label = false;
            continue;
        }
        if pending_author_label && seeking(&out, article_over) {
            out.authors = persons(names_after(text));
        }
        if pending_date_label && out.date.is_none() {
            out.date = dates::find_in_text(text).map(|(d, _)| d);
        }
        pending_date_label = false;
        // The author and source labels are Chinese, and most date labels: an ASCII text (most texts
        // of most pages) can hold only the English date labels, and is searched only while the date
        // is unknown.
        let labels = !text.is_ascii();
        let found = if out.date.is_none()
            || (labels && (seeking(&out, article_over) || out.source.is_none() || out.editors.is_empty()))
        {
            first_occurrences(text)
        } else {
            [None; LABEL_COUNT]
        };
        if labels && seeking(&out, article_over) && !photo_credit(text) {
            for (label, &first) in AUTHOR_LABELS.iter().zip(&found) {
                if let Some(rest) = labelled(text, label, first) {
                    out.authors = persons(names_after(rest));
                    pending_author_label = seeking(&out, article_over) && rest.trim().is_empty();
                    break;
                }
            }
        }
        if labels && out.editors.is_empty() {
            for (label, &first) in EDITOR_LABELS.iter().zip(&found[EDITOR_AT..]) {
                if let Some(rest) = labelled(text, label, first) {
                    article_over |= k < texts.len() && FOOT_LABELS.contains(label);
                    for n in names_after(rest) {
                        if !out.editors.contains(&n) {
                            out.editors.push(n);
                        }
                    }
                }
            }
        }
        // Only while no author is known: the element-name test below costs a dozen substring searches
        // per ancestor, and the window is walked to its end on most pages (few name a source).
        if seeking(&out, article_over) {
            let named = author_named_ancestor(doc, t, &mut author_memo);
            // A labelled line (`责任编辑：张申` in an element named `show_author`) was read above.
            let labelled_line = labels && found[..DATE_AT].iter().chain(&found[EDITOR_AT..]).any(Option::is_some);
            if !doc.node(t).in_link || named {
                if let Some(n) = english_byline(text) {
                    out.authors = persons(n);
                } else if named
                    && !labelled_line
                    && let Some(n) = names(text)
                {
                    out.authors = persons(n);
                }
            }
        }
        if labels && out.source.is_none() {
            for (label, &first) in SOURCE_LABELS.iter().zip(&found[SOURCE_AT..]) {
                if let Some(rest) = labelled(text, label, first)
                    && let Some(n) = name_after(rest)
                {
                    out.source = Some(n);
                    break;
                }
            }
        }
        if out.date.is_none() {
            for (label, &first) in DATE_LABELS.iter().zip(&found[DATE_AT..]) {
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
        if !out.authors.is_empty() && out.date.is_some() && out.source.is_some() && !out.editors.is_empty() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // The editor is kept apart, never the author.
        assert_eq!(b.editors, ["李四"]);
    }

    /// A China Youth Daily article: its byline gives a time and a source, its foot the editor, and no
    /// writer is named. Neither the source nor the editor is an author.
    #[test]
    fn editors_and_sources_are_not_authors() {
        let doc = Document::parse(
            "<body><h1>国内多地迎来降雨</h1><div class=pwz>发稿时间：2024-05-20 13:15:00 来源：央视新闻客户端 中国青年网</div>\
             <p>记者从中央气象台获悉，今天起我国南方多地将迎来一轮强降雨过程。</p><div>责任编辑：张毅</div></body>",
        );
        let b = read(&doc);
        assert_eq!(b.authors, Vec::<String>::new());
        assert_eq!(b.editors, ["张毅"]);
        assert_eq!(b.source.as_deref(), Some("央视新闻客户端"));
        assert_eq!(b.date.as_deref(), Some("2024-05-20T13:15:00"));
        let lines = [
            ("<p>编辑 刘晓阳 校对 李铭</p>", vec![], vec!["刘晓阳", "李铭"]),
            ("<p>作者：未知 责任编辑：棒棒不是糖</p>", vec![], vec!["棒棒不是糖"]),
            ("<p>【编辑:陈海峰】</p>", vec![], vec!["陈海峰"]),
            ("<p>(责编：汤诗瑶、丁涛)</p>", vec![], vec!["汤诗瑶", "丁涛"]),
            ("<p>审核：王五</p><p>作者：赵六</p>", vec!["赵六"], vec!["王五"]),
            ("<p>时间：2019-09-25 作者：网络整理 阅读：1644</p>", vec![], vec![]),
        ];
        for (body, authors, editors) in lines {
            let b = read(&Document::parse(&format!("<body><h1>标题</h1>{body}<p>正文。</p></body>")));
            assert_eq!(
                (b.authors, b.editors),
                (
                    authors.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
                    editors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
                ),
                "{body}"
            );
        }
    }

    #[test]
    fn writers_in_chinese_bylines_and_leads() {
        let cases = [
            // The reporters a lead names in brackets, whatever the paragraph's length.
            (
                "<p>新京报讯（记者 陆一夫）11月25日，新京报记者登录拼多多全球购页面发现，亚马逊海外购与拼多多达成合作。</p>",
                vec!["陆一夫"],
            ),
            ("<p>新华社巴黎12月9日电（记者唐霁）法国9日再次爆发全国跨行业大罢工。</p>", vec!["唐霁"]),
            ("<p>长江网10月4日讯（记者陈智 整合） 国庆中秋长假过半。</p>", vec!["陈智"]),
            ("<p>本站讯（职工通讯员 李琴雯 刘会）为深入推进党建与业务工作紧密结合。</p>", vec!["李琴雯", "刘会"]),
            // An outlet's reporter line, several names; a picture's credit is not a byline.
            ("<p>澎湃新闻记者 段彦超 廖艳</p>", vec!["段彦超", "廖艳"]),
            ("<p>扬子晚报记者 张楠</p>", vec!["张楠"]),
            ("<p>采写：南都记者 余毅菁 向雪妮</p>", vec!["余毅菁", "向雪妮"]),
            ("<p>2月18日，北京故宫午门调试灯光。</p><p>中新社记者 杜洋 摄</p>", vec![]),
            // `文/` and `执笔/`, a columnist's role before the name.
            ("<p>【文/ 翟东升，整理/ 唐晓甫】</p>", vec!["翟东升"]),
            ("<p>【文/观察者网专栏作者 王文】</p>", vec!["王文"]),
            ("<p>执笔/叨叨姐、胡一刀&李小飞刀</p>", vec!["叨叨姐", "胡一刀", "李小飞刀"]),
            ("<p>作者：上官云 宋宇晟</p>", vec!["上官云", "宋宇晟"]),
        ];
        for (body, authors) in cases {
            let b = read(&Document::parse(&format!("<body><h1>标题</h1>{body}<p>正文。</p></body>")));
            assert_eq!(b.authors, authors.iter().map(|a| a.to_string()).collect::<Vec<_>>(), "{body}");
        }
    }

    #[test]
    fn a_person_links_name_is_not_glued_to_a_badge() {
        // An account's name and the platform's label in two elements, no space between them.
        let doc = Document::parse(
            "<body><h1>标题</h1><div><a class=author href='//new.qq.com/omn/author/5183008'><div>扬眼</div>\
             <span class=qiehao>企鹅号</span></a></div><p>正文。</p></body>",
        );
        assert_eq!(read(&doc).authors, ["扬眼"]);
        // Names split over elements with spaces between them stay whole.
        let doc = Document::parse(
            "<body><h1>T</h1><div><a href='/authors/jroe/'><span>Jane</span> <span>Roe</span></a></div></body>",
        );
        assert_eq!(read(&doc).authors, ["Jane Roe"]);
        let doc = Document::parse("<body><h1>T</h1><div><a href='/authors/jroe/'>Jane <b>Roe</b></a></div></body>");
        assert_eq!(read(&doc).authors, ["Jane Roe"]);
    }
}
