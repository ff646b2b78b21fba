//! The page's authors: the names each source gives (JSON-LD, author `<meta>` names, microdata, the
//! visible byline, `rel="author"` links), in order of trust, cleaned and filtered to what can be a
//! person's name, with the publisher's own name set aside while a source names anyone else.
//!
//! Chinese pages are stricter: an outlet (`环球网`, `新京报`, `央视新闻客户端`: a name ending the way
//! outlets' names end), the site (its `<title>` suffix, `og:site_name`), the source the byline gives
//! (`来源：`) and the page's editors (`责任编辑：`) are never its authors, whichever source names them,
//! and an outlet's name glued to a person's (`青网新闻张毅`) leaves the person's.

use super::jsonld::{self, Entity};
use super::{Declarations, byline, dates, names};
use crate::dom::fold_ws as clean;
// `key`: normalised for containment tests, lower case, letters and digits only.
use crate::text::words::alnum_key as key;

/// Author `<meta>` names, most specific first.
const AUTHOR_META: &[&str] = &[
    "author",
    "article:author",
    "dc.creator",
    "dcterms.creator",
    "citation_author",
    "parsely-author",
    "sailthru.author",
    "byl",
    "og:article:author",
];

/// An e-mail address alone is how some people sign; `name, email@gmail.com` is a template's
/// placeholder.
fn template_address(s: &str) -> bool {
    s.contains('@') && s.contains(char::is_whitespace)
}

/// A name that is a URL, a handle, an e-mail address in a template, a bare label or placeholder, a
/// date or empty is not a name.
fn is_name(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && !names::is_label(s)
        && !names::is_placeholder(s)
        && s.chars().count() <= 80
        && !s.starts_with('@')
        && !template_address(s)
        && !s.contains(['?', '？', '!', '！', '。'])
        && !s.contains("://")
        && !s.starts_with("www.")
        && s.chars().any(char::is_alphabetic)
        && dates::find_in_text(s).is_none()
        // A month alone is a date split over elements (`<span>Mar</span> <span>5</span>`).
        && (s.contains(' ') || dates::month_name(s).is_none())
}

/// Keys (see [`key`]) of the names that belong to the publisher rather than a writer: the site's
/// name and the JSON-LD publisher, and every JSON-LD author typed as an organization. A JSON-LD
/// author typed as a person is a person even when the site bears their name (a personal site).
fn publisher_keys(s: &Declarations, ents: &[Entity], main: Option<&Entity>) -> Vec<String> {
    let mut out: Vec<String> = s.meta_all("og:site_name").chain(s.meta_all("application-name")).map(key).collect();
    out.extend(main.and_then(|e| e.value.get("publisher")).and_then(jsonld::text_of).map(|p| key(&p)));
    let persons: Vec<String> =
        ents.iter().filter(|e| e.is(&["Person"])).filter_map(|e| e.str("name")).map(|n| key(&n)).collect();
    out.retain(|k| !persons.contains(k));
    for e in ents {
        if let Some(a) = e.value.get("author") {
            let objs: Vec<&serde_json::Value> = match a {
                serde_json::Value::Array(v) => v.iter().collect(),
                other => vec![other],
            };
            for o in objs {
                let org = jsonld::types_of(o).iter().any(|t| t.contains("Organization") || t == "Corporation");
                if org && let Some(n) = jsonld::text_of(o) {
                    out.push(key(&n));
                }
            }
        }
    }
    out.retain(|k| !k.is_empty());
    out
}

/// Keys of the names a Chinese page gives its site and its source (never its authors): `og:site_name`,
/// `application-name`, every part of `<title>` after the headline's, the byline's `来源：`.
fn chinese_outlet_keys(s: &Declarations, visible: &byline::Byline) -> Vec<String> {
    let mut out: Vec<String> = s.meta_all("og:site_name").chain(s.meta_all("application-name")).map(key).collect();
    if let Some(t) = s.title.as_deref() {
        out.extend(crate::text::words::title_parts(t).into_iter().skip(1).map(key));
    }
    out.extend(visible.source.as_deref().map(key));
    out.retain(|k| k.chars().any(names::is_han));
    out
}

pub(super) fn authors(
    s: &Declarations,
    ents: &[Entity],
    main: Option<&Entity>,
    visible: &byline::Byline,
) -> Vec<String> {
    let mut declared: Vec<String> = main
        .and_then(|e| e.value.get("author").or_else(|| e.value.get("creator")))
        .map(jsonld::texts_of)
        .unwrap_or_default();
    if declared.is_empty() {
        declared = ents
            .iter()
            .find_map(|e| e.value.get("author").map(jsonld::texts_of).filter(|a| !a.is_empty()))
            .unwrap_or_default();
    }
    // The sources in order of trust, each a list of names.
    let mut lists = vec![declared];
    lists.extend(AUTHOR_META.iter().map(|k| s.meta_all(k).map(clean).collect::<Vec<_>>()));
    lists.push(s.itemprop("author").or_else(|| s.itemprop("creator")).map(|a| vec![clean(a)]).unwrap_or_default());
    lists.push(visible.authors.clone());
    lists.push(s.rel_authors.iter().take(1).cloned().collect());
    // Chinese names: outlets, the site, the source and the editors out; glued outlets cut off.
    let outlets = chinese_outlet_keys(s, visible);
    let editors: Vec<String> = visible.editors.iter().map(|e| key(e)).collect();
    let chinese_person = |a: String| -> Option<String> {
        if !a.chars().any(names::is_han) {
            return (!editors.contains(&key(&a))).then_some(a);
        }
        let k = key(&a);
        if outlets.iter().any(|o| *o == k || (o.starts_with(&k) && k.chars().count() >= 2)) {
            return None;
        }
        (!names::is_outlet(&a) && !editors.contains(&k)).then_some(a)
    };
    let lists: Vec<Vec<String>> = lists
        .into_iter()
        .map(|l| {
            l.iter()
                .filter(|a| is_name(a))
                .map(|a| names::clean_name(a))
                .filter(|a| is_name(a))
                .filter_map(chinese_person)
                .collect()
        })
        .collect();
    // Sites declare themselves as the author when a person wrote the page: a person named by a
    // later source is the better answer, and the publisher's name is kept only when no source names
    // anyone else.
    let publishers = publisher_keys(s, ents, main);
    let is_person = |a: &String| !publishers.contains(&key(a));
    let chosen: Vec<String> = match lists.iter().find(|l| l.iter().any(is_person)) {
        Some(l) => l.iter().filter(|a| is_person(a)).cloned().collect(),
        None => lists.into_iter().find(|l| !l.is_empty()).unwrap_or_default(),
    };
    let mut seen = Vec::new();
    for a in chosen {
        if !seen.contains(&a) {
            seen.push(a);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::is_name;
    use crate::metadata::names::is_outlet;
    use crate::metadata::tests::meta;

    #[test]
    fn a_person_is_preferred_to_the_publisher_as_author() {
        // The site declares itself (an organization) as the author; the byline names the writer.
        let org = r#"<title>T</title><meta property="og:site_name" content="Farm News">
            <script type="application/ld+json">{"@type":"NewsArticle","headline":"T",
              "author":{"@type":"Organization","name":"Farm Media Group"}}</script>
            <body><h1>T</h1><div class=byline>By Jane Roe</div><p>x</p></body>"#;
        assert_eq!(meta(org, None).authors, ["Jane Roe"]);
        // The site's name as the meta author.
        let site = r#"<title>T</title><meta property="og:site_name" content="Farm News">
            <meta name="author" content="Farm News"><body><h1>T</h1><div class=byline>By Jane Roe</div></body>"#;
        assert_eq!(meta(site, None).authors, ["Jane Roe"]);
        // No one else named: the publisher stays; a person typed as such stays on a site of their name.
        let alone = r#"<title>T</title><meta property="og:site_name" content="Farm News">
            <meta name="author" content="Farm News"><body><h1>T</h1><p>x</p></body>"#;
        assert_eq!(meta(alone, None).authors, ["Farm News"]);
        let personal = r#"<title>T</title><meta property="og:site_name" content="Jane Roe">
            <script type="application/ld+json">{"@type":"BlogPosting","author":{"@type":"Person","name":"Jane Roe"}}</script>
            <body><h1>T</h1><div class=byline>By John Doe</div></body>"#;
        assert_eq!(meta(personal, None).authors, ["Jane Roe"]);
        // Dates and months split over elements are not names; nor are addresses and placeholders.
        assert!(!is_name("Mar 5, 2024") && !is_name("Jul") && is_name("Jane Roe"));
        assert!(!is_name("name, email@gmail.com") && !is_name("网络整理") && !is_name("Admin"));
    }

    /// The China Youth Daily case: byline `发稿时间：… 来源：央视新闻客户端 中国青年网`, foot `责任编辑：张毅`,
    /// and the editor's name glued to the site's in a declaration. No author.
    #[test]
    fn chinese_editors_sources_and_outlets_are_not_authors() {
        let page = |head: &str| {
            format!(
                "<html><head><title>国内多地迎来降雨 气象部门发布预警_新闻频道_中国青年网</title>{head}</head><body>\
                 <h1>国内多地迎来降雨 气象部门发布预警</h1>\
                 <div class=pwz>发稿时间：2024-05-20 13:15:00 来源：<a href='/cctv'>央视新闻客户端</a> 中国青年网</div>\
                 <p>记者从中央气象台获悉，今天起我国南方多地将迎来一轮强降雨过程。</p><div>责任编辑：张毅</div></body></html>"
            )
        };
        for head in [
            "",
            r#"<meta name="author" content="青网新闻张毅">"#,
            r#"<meta name="author" content="张毅">"#,
            r#"<meta name="author" content="中国青年网">"#,
            r#"<meta name="author" content="央视新闻客户端">"#,
        ] {
            let m = meta(&page(head), None);
            assert_eq!(m.authors, Vec::<String>::new(), "{head}");
            assert_eq!(m.published.as_ref().map(|d| d.value.as_str()), Some("2024-05-20T13:15:00"), "{head}");
        }
        // A portal reprint: the site declares itself as the author (`网易`, its `<title>` says `网易财经`),
        // the byline gives a source, the foot an editor.
        let portal = r#"<html><head><title>龙湖集团暗伤曝露_网易财经</title><meta name="author" content="网易"></head>
            <body><h1>龙湖集团暗伤曝露</h1><div>2019-09-07 13:43:45 来源: 证券市场红周刊 举报</div><p>正文。</p>
            <p>本文来源：证券市场红周刊 责任编辑：杨倩_NF4425</p></body></html>"#;
        assert_eq!(meta(portal, None).authors, Vec::<String>::new());
        // An outlet declared as the author gives way to the reporter the lead names.
        let lead = r#"<html><head><title>中铁总辟谣_新浪财经</title><meta property="article:author" content="新京报"></head>
            <body><h1>中铁总辟谣</h1><p>新京报快讯（记者 裴剑飞）今日（12月28日）有网友爆料，有60万个账号外泄。</p></body></html>"#;
        assert_eq!(meta(lead, None).authors, ["裴剑飞"]);
        for outlet in
            ["青网新闻张毅", "证券时报网", "凤凰网科技", "扬眼企鹅号", "医技药剂党支部", "新浪财经-自媒体综合"]
        {
            assert!(is_outlet(outlet), "{outlet}");
        }
        for person in ["李小飞刀", "叨叨姐", "上官云", "王台", "加拿大必读", "Jane Roe"] {
            assert!(!is_outlet(person), "{person}");
        }
    }
}
