//! The page's authors: the names each source gives (JSON-LD, author `<meta>` names, microdata, the
//! visible byline, `rel="author"` links), in order of trust, cleaned and filtered to what can be a
//! person's name, with the publisher's own name set aside while a source names anyone else.

use super::jsonld::{self, Entity};
use super::{Declarations, byline, dates};
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

/// A name that is a URL, a handle, a bare label, a date or empty is not a name.
fn is_name(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && !byline::is_label(s)
        && s.chars().count() <= 80
        && !s.starts_with('@')
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
    let lists: Vec<Vec<String>> = lists
        .into_iter()
        .map(|l| l.iter().filter(|a| is_name(a)).map(|a| byline::clean_name(a)).filter(|a| is_name(a)).collect())
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
        // Dates and months split over elements are not names.
        assert!(!is_name("Mar 5, 2024") && !is_name("Jul") && is_name("Jane Roe"));
    }
}
