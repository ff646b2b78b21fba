//! `metadata`: what a page says about itself — its own title, authors, publication and update dates,
//! description, site name, language, canonical address, image, tags and categories, and the
//! JSON-LD / Open Graph types it declares.
//!
//! Sources, in order of trust: JSON-LD (`jsonld`), Open Graph and `article:*` properties, `<meta>`
//! names (Dublin Core, `citation_*`, `twitter:*`, the common publisher names) and microdata, then the
//! visible page (`<time>` elements, bylines and Chinese labelled lines, `byline`), and the URL last.
//! Every date says where it came from, so a caller can decide how far to trust it.
//!
//! Everything here is generic: no rule names a site.
//!
//! This file holds the result's types and [`extract`], which reads each field from its sources; the
//! folder holds, one job a file:
//!
//! | file | job |
//! |---|---|
//! | `gather` | where one page's declarations are read (the parser's tree, pre-strip's pass, or a pass of their own) |
//! | `declarations` | the [`Declarations`] a page makes, and their collection from the parser's working tree |
//! | `scan` | the lol_html handlers that collect the same [`Declarations`] from the page's text |
//! | `page_meta` | the Open Graph and JSON-LD types and publication time, by byte searches: signals for the algorithms |
//! | `jsonld` | JSON-LD blocks parsed, repaired, and read as typed entities |
//! | `byline` | what the visible page says of its author and date (bylines, Chinese labelled lines) |
//! | `dates` | dates as pages write them, read into ISO 8601 |
//! | `date_choice` | which of the page's dates is its publication date and which its update |
//! | `title` | the page's title among `<title>`, the `<h1>`s and the declared headlines |
//! | `authors` | the page's authors, the publisher's own name set aside |
//! | `taxonomy` | the page's tags and categories |
//! | `product` | the one declared product's description, which `auto` falls back on |

mod authors;
mod byline;
mod date_choice;
pub mod dates;
pub mod declarations;
mod gather;
pub mod jsonld;
mod names;
pub mod page_meta;
mod product;
mod scan;
mod taxonomy;
mod title;

use serde::{Deserialize, Serialize};

use crate::dom::{Document, fold_ws};
pub use dates::{DateSource, Dated};
pub use declarations::Declarations;
pub use gather::{Gathered, Gathering, Wanted};
use jsonld::Entity;
pub use product::product_description;
#[cfg(test)]
pub(crate) use scan::{handlers, scan};

/// Types the page declares.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Types {
    /// Every JSON-LD `@type` found, in document order, without repeats.
    pub json_ld: Vec<String>,
    /// `og:type`.
    pub opengraph: Option<String>,
}

/// The page's metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// The page's own title: an `<h1>` that `<title>` repeats (not the site's logo) or that the
    /// declarations repeat, else an article's single `<h1>`, the declared headline or `<title>`
    /// without its site suffix; a heading chosen loses its own suffix.
    pub title: Option<String>,
    pub authors: Vec<String>,
    pub published: Option<Dated>,
    pub modified: Option<Dated>,
    pub description: Option<String>,
    pub site_name: Option<String>,
    pub lang: Option<String>,
    pub canonical_url: Option<String>,
    pub image: Option<String>,
    pub tags: Vec<String>,
    pub categories: Vec<String>,
    pub types: Types,
}

/// Read the metadata: `scanned` from the decoded page ([`scan`]), `doc` the parsed page, `url` its
/// address, `article` whether the extractor judged the page an article (its `<h1>` is then trusted as
/// the headline).
pub fn extract(scanned: &Declarations, doc: &Document, url: Option<&str>, article: bool) -> Metadata {
    let ents = jsonld::entities(&scanned.json_ld);
    let main = main_entity(&ents);
    let base = url.and_then(|u| url::Url::parse(u).ok());
    let absolute = |link: &str| match base.as_ref().and_then(|b| b.join(link.trim()).ok()) {
        Some(u) => u.to_string(),
        None => link.trim().to_string(),
    };
    let visible = byline::read(doc);

    let mut types = Types { json_ld: Vec::new(), opengraph: scanned.meta(&["og:type"]).map(str::to_string) };
    for e in &ents {
        for t in &e.types {
            if !types.json_ld.contains(t) {
                types.json_ld.push(t.clone());
            }
        }
    }

    let (published, modified) = date_choice::published_and_modified(scanned, &ents, main, &visible, url);

    Metadata {
        title: title::title(scanned, doc, main, url, article),
        authors: authors::authors(scanned, &ents, main, &visible),
        published,
        modified,
        description: main.and_then(|e| e.str("description")).or_else(|| {
            scanned.meta(&["og:description", "description", "twitter:description", "dc.description"]).map(fold_ws)
        }),
        site_name: scanned
            .meta(&["og:site_name", "application-name", "twitter:site"])
            .map(fold_ws)
            .filter(|s| !s.starts_with('@'))
            .or_else(|| main.and_then(|e| e.value.get("publisher")).and_then(jsonld::text_of))
            .or_else(|| ents.iter().find(|e| e.is(&["WebSite"])).and_then(|e| e.str("name"))),
        lang: scanned
            .lang
            .clone()
            .or_else(|| doc.lang.clone())
            .or_else(|| scanned.meta(&["og:locale", "content-language", "dc.language"]).map(str::to_string))
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty()),
        canonical_url: scanned.link("canonical").or_else(|| scanned.meta(&["og:url"])).map(absolute),
        image: main
            .and_then(|e| e.value.get("image"))
            .and_then(jsonld::image_of)
            .or_else(|| {
                scanned.meta(&["og:image", "og:image:url", "twitter:image", "twitter:image:src"]).map(str::to_string)
            })
            .map(|i| absolute(&i)),
        tags: taxonomy::tags(scanned, main),
        categories: taxonomy::categories(scanned, main),
        types,
    }
}

/// The entity that describes the page's content: the first of a main-content type (the article
/// family, forum threads, products...: [`Entity::is_main_type`]), else a `WebPage` with a headline.
fn main_entity(ents: &[Entity]) -> Option<&Entity> {
    ents.iter().find(|e| e.is_main_type()).or_else(|| {
        ents.iter().find(|e| e.types.iter().any(|t| t.ends_with("Page")) && e.value.get("headline").is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::title::strip_site;
    use super::*;

    pub(super) fn meta(html: &str, url: Option<&str>) -> Metadata {
        extract(&scan(html), &Document::parse(html), url, false)
    }

    #[test]
    fn trusted_sources_first() {
        let m = meta(
            r#"<html lang=en><head><title>Rice yields rise | Farm News</title>
            <meta property="og:site_name" content="Farm News"><meta property="og:type" content="article">
            <meta property="article:published_time" content="2024-03-06T08:00:00Z">
            <meta name="author" content="Meta Author"><meta property="article:tag" content="rice">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"FN"},
            {"@type":"NewsArticle","headline":"Rice yields rise","datePublished":"2024-03-05T10:00:00+08:00",
             "dateModified":"2024-03-07","author":{"@type":"Person","name":"Jane Roe"},"articleSection":"Crops"}]}</script>
            </head><body><h1>Logo</h1><h1>Rice yields rise</h1><p>By Someone Else</p></body></html>"#,
            Some("https://ex.test/2020/01/01/x"),
        );
        assert_eq!(m.title.as_deref(), Some("Rice yields rise"));
        assert_eq!(m.authors, ["Jane Roe"]);
        assert_eq!(m.published, Some(Dated { value: "2024-03-05T10:00:00+08:00".into(), source: DateSource::JsonLd }));
        assert_eq!(m.modified.as_ref().map(|d| d.value.as_str()), Some("2024-03-07"));
        assert_eq!(m.site_name.as_deref(), Some("Farm News"));
        assert_eq!(m.types.json_ld, ["WebSite", "NewsArticle", "Person"]);
        assert_eq!(m.types.opengraph.as_deref(), Some("article"));
        assert_eq!(m.tags, ["rice"]);
        assert_eq!(m.categories, ["Crops"]);
        assert_eq!(m.lang.as_deref(), Some("en"));
    }

    #[test]
    fn falls_back_to_the_visible_page_and_the_url() {
        let m = meta(
            "<html><head><title>农业技术培训班开班_新闻中心_某某网</title></head><body><h1>农业技术培训班开班</h1>\
             <div>发布时间：2024年3月5日 来源：某某日报 作者：张三</div><p>正文。</p></body></html>",
            None,
        );
        assert_eq!(m.title.as_deref(), Some("农业技术培训班开班"));
        assert_eq!(m.authors, ["张三"]);
        assert_eq!(m.published, Some(Dated { value: "2024-03-05".into(), source: DateSource::Byline }));
        let u = meta("<p>x</p>", Some("https://ex.test/news/2023/11/02/a.html"));
        assert_eq!(u.published, Some(Dated { value: "2023-11-02".into(), source: DateSource::Url }));
        assert_eq!(strip_site("How to grow rice - Farm Guide", None), "How to grow rice");
        assert_eq!(
            strip_site("News | How farmers in the south grow rice today", None),
            "How farmers in the south grow rice today"
        );
    }
}
