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

mod byline;
pub mod dates;
pub mod declarations;
mod gather;
pub mod jsonld;
pub mod page_meta;
mod scan;

use serde::{Deserialize, Serialize};

use crate::dom::{Document, Tag};
pub use declarations::{Declarations, TimeEl};
pub use gather::{Declared, Gathered, Gathering, Wanted};
// `key`: normalised for containment tests, lower case, letters and digits only.
use crate::text::words::{TITLE_SEPARATORS, alnum_key as key, split_title};
use jsonld::Entity;
pub use scan::{Found, handlers, scan};

/// Where a date was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DateSource {
    JsonLd,
    Opengraph,
    Meta,
    Time,
    Byline,
    Url,
}

/// A date in ISO 8601 (`2024-03-05`, or with a time and offset when the page gives them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dated {
    pub value: String,
    pub source: DateSource,
}

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

const PUBLISHED_OG: &[&str] = &["article:published_time", "og:article:published_time", "og:published_time"];
const PUBLISHED_META: &[&str] = &[
    "datepublished",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "publication_date",
    "publication-date",
    "published",
    "published-date",
    "published_date",
    "date",
    "dc.date.issued",
    "dc.date",
    "dcterms.issued",
    "dcterms.date",
    "dcterms.created",
    "citation_publication_date",
    "citation_date",
    "citation_online_date",
    "sailthru.date",
    "parsely-pub-date",
    "article.published",
    "article_date_original",
    "originalpublicationdate",
    "og:pubdate",
    "release_date",
];
const MODIFIED_OG: &[&str] = &["article:modified_time", "og:updated_time", "og:article:modified_time"];
const MODIFIED_META: &[&str] =
    &["datemodified", "last-modified", "dcterms.modified", "dc.date.modified", "article.updated"];

/// The description of the one product a page declares in JSON-LD (`@type` Product), as paragraphs:
/// tags removed, character references decoded, one paragraph per line or `<p>` / `<br>` break.
/// `None` when the page declares no product, several (a catalogue, whose first is not the page's
/// subject), or one without a description. `auto` falls back on it when the visible page holds
/// little of it (a description behind a script-driven accordion or a hidden `<main>`).
pub fn product_description(scanned: &Declarations) -> Option<Vec<String>> {
    let ents = jsonld::entities(&scanned.json_ld);
    let mut products = ents.iter().filter(|e| e.is(&["Product"]));
    let one = products.next()?;
    if products.next().is_some() {
        return None;
    }
    let raw = match one.value.get("description")? {
        serde_json::Value::String(s) => s.as_str(),
        _ => return None,
    };
    let paras: Vec<String> = strip_tags(raw)
        .lines()
        .map(|l| crate::dom::fold_ws(&crate::dom::decode_char_refs(l)))
        .filter(|l| !l.is_empty())
        .collect();
    (!paras.is_empty()).then_some(paras)
}

/// Markup in a declared text: tags removed, a line break where a block or `<br>` ended.
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let tag = rest[open + 1..open + close].trim_start_matches('/').to_ascii_lowercase();
        let name = tag.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
        let breaks =
            matches!(name, "br" | "p" | "div" | "li" | "ul" | "ol" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "tr");
        out.push(if breaks { '\n' } else { ' ' });
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
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

    let published = date_from_entities(&ents, main, &["datePublished", "dateCreated", "uploadDate", "startDate"])
        .map(|v| Dated { value: v, source: DateSource::JsonLd })
        .or_else(|| meta_date(scanned, PUBLISHED_OG, DateSource::Opengraph))
        .or_else(|| meta_date(scanned, PUBLISHED_META, DateSource::Meta))
        .or_else(|| {
            scanned
                .itemprop("datepublished")
                .and_then(dates::parse_machine)
                .map(|v| Dated { value: v, source: DateSource::Meta })
        })
        .or_else(|| time_date(scanned, true))
        .or_else(|| visible.date.clone().map(|v| Dated { value: v, source: DateSource::Byline }))
        .or_else(|| time_date(scanned, false))
        .or_else(|| url.and_then(dates::from_url).map(|v| Dated { value: v, source: DateSource::Url }));
    let modified = date_from_entities(&ents, main, &["dateModified"])
        .map(|v| Dated { value: v, source: DateSource::JsonLd })
        .or_else(|| meta_date(scanned, MODIFIED_OG, DateSource::Opengraph))
        .or_else(|| meta_date(scanned, MODIFIED_META, DateSource::Meta))
        .or_else(|| {
            scanned
                .times
                .iter()
                .filter(|t| t.modified)
                .find_map(|t| t.datetime.as_deref().and_then(dates::parse_machine))
                .map(|v| Dated { value: v, source: DateSource::Time })
        });
    // A page that declares only when it was updated shows that date as its date: the best there is
    // (the source still says where it came from).
    let published = published.or_else(|| modified.clone());
    // Timestamps are often written in UTC while the address carries the day the writer published on,
    // in their own time zone: a timestamp one day from the address's date is that local day.
    let published = published.map(|d| match url.and_then(dates::from_url) {
        Some(day) if d.value.len() > 10 && dates::days_apart(&d.value, &day) == Some(1) => {
            Dated { value: day, source: DateSource::Url }
        }
        _ => d,
    });

    Metadata {
        title: title(scanned, doc, main, url, article),
        authors: authors(scanned, &ents, main, &visible),
        published,
        modified,
        description: main.and_then(|e| e.str("description")).or_else(|| {
            scanned.meta(&["og:description", "description", "twitter:description", "dc.description"]).map(clean)
        }),
        site_name: scanned
            .meta(&["og:site_name", "application-name", "twitter:site"])
            .map(clean)
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
        tags: tags(scanned, main),
        categories: categories(scanned, main),
        types,
    }
}

fn clean(s: &str) -> String {
    crate::dom::fold_ws(s)
}

/// The entity that describes the page's content: the first of a main-content type (the article
/// family, forum threads, products...: [`Entity::is_main_type`]), else a `WebPage` with a headline.
fn main_entity(ents: &[Entity]) -> Option<&Entity> {
    ents.iter().find(|e| e.is_main_type()).or_else(|| {
        ents.iter().find(|e| e.types.iter().any(|t| t.ends_with("Page")) && e.value.get("headline").is_some())
    })
}

fn date_from_entities(ents: &[Entity], main: Option<&Entity>, keys: &[&str]) -> Option<String> {
    let from = |e: &Entity| keys.iter().find_map(|k| e.str(k).and_then(|v| dates::parse_machine(&v)));
    main.and_then(from).or_else(|| {
        ents.iter().filter(|e| e.is_main_type() || e.types.iter().any(|t| t.ends_with("Page"))).find_map(from)
    })
}

/// The first `<meta>` date among `keys`: a machine-readable value, or a short one written for people
/// (`<meta name="published" content="July 17, 2025">`).
fn meta_date(s: &Declarations, keys: &[&str], source: DateSource) -> Option<Dated> {
    let read = |v: &str| {
        dates::parse_machine(v).or_else(|| (v.len() <= 40).then(|| dates::find_in_text(v).map(|(d, _)| d)).flatten())
    };
    keys.iter().find_map(|k| s.meta_all(k).find_map(read)).map(|value| Dated { value, source })
}

/// A `<time>` element's date: `marked` asks for one marked as the publication date; otherwise the
/// first with a readable date.
fn time_date(s: &Declarations, marked: bool) -> Option<Dated> {
    s.times
        .iter()
        .filter(|t| if marked { t.published } else { !t.modified })
        .find_map(|t| {
            t.datetime
                .as_deref()
                .and_then(dates::parse_machine)
                .or_else(|| dates::find_in_text(&t.text).map(|(d, _)| d))
        })
        .map(|value| Dated { value, source: DateSource::Time })
}

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

fn authors(s: &Declarations, ents: &[Entity], main: Option<&Entity>, visible: &byline::Byline) -> Vec<String> {
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

/// Characters from which a declared headline may have been cut to a length limit.
const CUT_HEADLINE_CHARS: usize = 100;

/// The page's title ([`choose_title`]); when that is an `<h1>`, without what follows a separator in
/// it: headings carry suffixes as titles do (`Tips for a first visit - Japan Forum`, `Catering Tips |
/// Cookshack`, `Best movers in 2025 | Top 19 companies`), and the part kept is the one `<title>`'s
/// would be.
fn title(s: &Declarations, doc: &Document, main: Option<&Entity>, url: Option<&str>, article: bool) -> Option<String> {
    let (chosen, h1s) = choose_title(s, doc, main, url, article);
    let site = s.meta(&["og:site_name", "application-name"]).map(key);
    chosen.map(|t| if h1s.contains(&t) { strip_site(&t, site.as_deref()) } else { t })
}

/// The title among `<title>`, its parts, the `<h1>`s and the declared headlines; and the `<h1>`s read.
fn choose_title(
    s: &Declarations,
    doc: &Document,
    main: Option<&Entity>,
    url: Option<&str>,
    article: bool,
) -> (Option<String>, Vec<String>) {
    let page_title = s.title.clone().or_else(|| doc.title.clone());
    let h1s: Vec<String> = (doc.body..doc.node(doc.body).end)
        .filter(|&i| doc.node(i).tag() == Some(Tag::H1))
        .map(|i| heading_text(doc, i))
        .filter(|t| !t.is_empty())
        .take(8)
        .collect();
    let declared = main
        .and_then(|e| e.str("headline").or_else(|| e.str("name")))
        .or_else(|| s.meta(&["og:title", "twitter:title", "dc.title", "citation_title"]).map(clean));
    let mut site = s.meta(&["og:site_name", "application-name"]).map(key);
    let declarations: Vec<String> = main
        .into_iter()
        .flat_map(|e| [e.str("headline"), e.str("name")])
        .chain(["og:title", "twitter:title"].iter().map(|k| s.meta(&[k]).map(clean)))
        .flatten()
        .map(|d| strip_site(&d, site.as_deref()))
        .collect();
    if let Some(t) = &page_title {
        let tk = key(t);
        // The article's own title: an `<h1>` that `<title>` repeats (sites put logos in `<h1>` too).
        let mut contained: Vec<&String> = h1s.iter().filter(|h| key(h).len() >= 4 && tk.contains(&key(h))).collect();
        // One that names the site (its `og:site_name`, or the name its address is registered under) is
        // its logo, even when it is the only one: the title is then found among the other sources.
        let host = url.and_then(registered_name);
        let names_site = |h: &str, site: Option<&str>| {
            let k = key(h);
            site == Some(k.as_str()) || host.as_deref() == Some(k.as_str())
        };
        contained.retain(|h| !names_site(h, site.as_deref()));
        // An `<h1>` equal to the last part of `<title>` (`Page - Site`) is the site's logo, and names
        // the part to strip when no `og:site_name` does.
        if let Some(last) = last_part(t)
            && contained.iter().any(|h| key(h) == last)
        {
            contained.retain(|h| key(h) != last);
            site.get_or_insert(last);
        }
        // Of the rest, the longest: a logo or section name is shorter than the headline.
        if let Some(h) = contained.iter().copied().reduce(|a, b| if key(b).len() > key(a).len() { b } else { a }) {
            // The title's own spelling when a part of it is the heading (headings split into styled
            // spans lose the spaces between words).
            let hk = key(h);
            let part = every_part(t).find(|p| key(p) == hk);
            return (Some(part.map_or_else(|| h.clone(), str::to_string)), h1s);
        }
        // An `<h1>` that the page's own declarations repeat (JSON-LD headline or name, `og:title`,
        // `twitter:title`, each without a site suffix) is its title, even where `<title>` words it
        // otherwise: two sources written for readers agree against the one written for search engines.
        if let Some(h) = h1s.iter().find(|h| key(h).len() >= 4 && declarations.iter().any(|d| key(d) == key(h))) {
            return (Some(h.clone()), h1s);
        }
        // An article's single `<h1>` is its headline even when `<title>` words it otherwise (titles are
        // often rewritten for search engines), provided the two share words: an `<h1>` sharing none is
        // more likely a section label or the site's name.
        if article
            && h1s.len() == 1
            && !names_site(&h1s[0], site.as_deref())
            && word_overlap(&h1s[0], &strip_site(t, site.as_deref())) >= 0.2
        {
            return (Some(h1s[0].clone()), h1s);
        }
        if let Some(d) = &declared
            && key(d).len() >= 4
            && tk.contains(&key(d))
        {
            // A declared headline cut to a length limit (structured-data tools cut near 110
            // characters, some with an ellipsis) is read whole from `<title>`'s part that it begins.
            let dk = key(d.trim_end_matches(['…', '.']));
            if d.chars().count() >= CUT_HEADLINE_CHARS || d.ends_with('…') || d.ends_with("...") {
                let whole = every_part(t).filter(|p| key(p).starts_with(&dk)).min_by_key(|p| p.len());
                if let Some(p) = whole.filter(|p| key(p).len() > dk.len()) {
                    return (Some(p.to_string()), h1s);
                }
            }
            return (Some(strip_site(d, site.as_deref())), h1s);
        }
    }
    if h1s.len() == 1 && declared.as_ref().is_some_and(|d| key(d) == key(&h1s[0])) {
        return (Some(h1s[0].clone()), h1s);
    }
    // A `<title>` that is only the site's name says nothing of the page: the declared headline or the
    // single heading does.
    let generic = |t: &str| site.as_deref().is_some_and(|s| key(t) == s) || !t.contains(' ');
    if let Some(t) = page_title.as_deref().map(|t| strip_site(t, site.as_deref()))
        && generic(&t)
    {
        if let Some(d) = declared.as_deref().filter(|d| !generic(d)) {
            return (Some(strip_site(d, site.as_deref())), h1s);
        }
        if h1s.len() == 1 {
            return (Some(h1s[0].clone()), h1s);
        }
    }
    let chosen = page_title
        .map(|t| strip_site(&t, site.as_deref()))
        .or_else(|| declared.map(|d| strip_site(&d, site.as_deref())))
        .or_else(|| h1s.first().cloned());
    (chosen, h1s)
}

/// A heading's text as the reader sees it: a line break is a space between words (`Packaging<br>Design`
/// reads `Packaging Design`), and soft hyphens and zero-width characters, which only tell the browser
/// where it may break a line, are dropped (`Assis&shy;tance` reads `Assistance`).
fn heading_text(doc: &Document, id: crate::dom::NodeId) -> String {
    let mut out = String::new();
    for i in id..doc.node(id).end {
        let (before, after) = match doc.node(i).data {
            crate::dom::NodeData::Text { space_before, space_after, .. } => (space_before, space_after),
            crate::dom::NodeData::Element(ref e) => {
                if e.tag == Tag::Br && !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
                continue;
            }
        };
        if before && !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
        out.extend(doc.text(i).chars().filter(|c| !is_invisible(*c)));
        if after {
            out.push(' ');
        }
    }
    // The permalink mark documentation generators put after each heading (`Middleware¶`) is a link
    // to the heading, not a word of it.
    out.trim_end().trim_end_matches('¶').trim_end().to_string()
}

/// Characters that take no room on the page: the soft hyphen, zero-width spaces and joiners, the
/// word joiner and the byte-order mark.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{ad}' | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
}

/// The key of the name a site's address is registered under: `archlinux` for `bbs.archlinux.org`,
/// `bbc` for `news.bbc.co.uk` (by the public suffix list).
fn registered_name(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok()?;
    let host = parsed.host_str()?.trim_end_matches('.');
    let domain = psl::domain_str(host)?;
    let name = domain.strip_suffix(psl::suffix_str(host)?)?.trim_end_matches('.');
    Some(key(name)).filter(|k| !k.is_empty())
}

/// The parts of `title` split at each separator in turn (at one at a time, not all at once), trimmed;
/// where a separator does not occur, the whole title.
fn every_part(title: &str) -> impl Iterator<Item = &str> {
    TITLE_SEPARATORS.iter().flat_map(move |sep| split_title(title, sep)).map(str::trim)
}

/// The key of the last of two or more parts of a title (`Page - Site`), where sites put their name.
fn last_part(title: &str) -> Option<String> {
    TITLE_SEPARATORS.iter().find_map(|sep| {
        let parts: Vec<&str> = split_title(title, sep).map(str::trim).filter(|p| !p.is_empty()).collect();
        (parts.len() >= 2).then(|| key(parts[parts.len() - 1]))
    })
}

/// Shared words over all words (Jaccard) of two texts, lower-cased, split at non-alphanumerics.
fn word_overlap(a: &str, b: &str) -> f64 {
    let words = |s: &str| -> std::collections::HashSet<String> {
        s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
    };
    let (a, b) = (words(a), words(b));
    let union = a.union(&b).count();
    if union == 0 { 0.0 } else { a.intersection(&b).count() as f64 / union as f64 }
}

/// `<title>` without its site's name: the longest part between separators, unless the site name
/// says which part it is.
fn strip_site(title: &str, site: Option<&str>) -> String {
    for sep in TITLE_SEPARATORS {
        if title.contains(sep) {
            let parts: Vec<&str> = split_title(title, sep).map(str::trim).filter(|p| !p.is_empty()).collect();
            if parts.len() < 2 {
                continue;
            }
            let kept: Vec<&str> =
                parts.iter().copied().filter(|p| site.is_none_or(|s| key(p) != s && !s.contains(&key(p)))).collect();
            let kept = if kept.is_empty() { parts.clone() } else { kept };
            if kept.len() < parts.len() {
                return kept.join(sep);
            }
            // No site name to go by: the first part is the page's own, unless it is much shorter than
            // another (a section name in front).
            let first = kept[0];
            let longest = kept.iter().copied().max_by_key(|p| p.chars().count()).unwrap_or(first);
            return if first.chars().count() * 3 < longest.chars().count() { longest } else { first }.to_string();
        }
    }
    title.to_string()
}

fn tags(s: &Declarations, main: Option<&Entity>) -> Vec<String> {
    let mut out: Vec<String> = s.meta_all("article:tag").map(clean).collect();
    if out.is_empty()
        && let Some(k) = main.and_then(|e| e.value.get("keywords"))
    {
        out = match k {
            serde_json::Value::String(s) => s.split(',').map(clean).collect(),
            other => jsonld::texts_of(other),
        };
    }
    if out.is_empty()
        && let Some(k) = s.meta(&["keywords", "news_keywords"])
    {
        out = k.split([',', '，', ';']).map(clean).collect();
    }
    dedup(out)
}

fn categories(s: &Declarations, main: Option<&Entity>) -> Vec<String> {
    let mut out: Vec<String> = s.meta_all("article:section").map(clean).collect();
    if out.is_empty()
        && let Some(sec) = main.and_then(|e| e.value.get("articleSection"))
    {
        out = jsonld::texts_of(sec);
    }
    dedup(out)
}

fn dedup(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for x in v {
        if !x.is_empty() && x.chars().count() <= 100 && !out.contains(&x) && out.len() < 64 {
            out.push(x);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_declared_products_description_in_paragraphs() {
        let one = r#"<html><head><script type="application/ld+json">{"@type":"Product","name":"Mug",
            "description":"<h4>HAND MADE.</h4><p>A stoneware mug &amp; saucer,<br>glazed by hand.</p>\nDishwasher safe."}</script>
            </head><body></body></html>"#;
        assert_eq!(
            product_description(&scan(one)).unwrap(),
            ["HAND MADE.", "A stoneware mug & saucer,", "glazed by hand.", "Dishwasher safe."]
        );
        let two = r#"<script type="application/ld+json">[{"@type":"Product","description":"One mug."},
            {"@type":"Product","description":"Another mug."}]</script>"#;
        assert_eq!(product_description(&scan(two)), None, "a catalogue has no one product");
        let none = r#"<script type="application/ld+json">{"@type":"Product","name":"Mug"}</script>"#;
        assert_eq!(product_description(&scan(none)), None);
    }

    fn meta(html: &str, url: Option<&str>) -> Metadata {
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
    fn meta_dates_written_for_people_are_read() {
        let m = meta(r#"<meta name="PUBDATE" content="Jan 16, 2008"><p>x</p>"#, None);
        assert_eq!(m.published, Some(Dated { value: "2008-01-16".into(), source: DateSource::Meta }));
        let m = meta(r#"<meta name="published-date" content="2021-02-16"><p>x</p>"#, None);
        assert_eq!(m.published.map(|d| d.value).as_deref(), Some("2021-02-16"));
        // A long value is prose, not a date.
        let m = meta(
            r#"<meta name="date" content="We have been farming rice since March 5, 2020 and more"><p>x</p>"#,
            None,
        );
        assert_eq!(m.published, None);
    }

    fn title_of(html: &str, article: bool) -> Option<String> {
        extract(&scan(html), &Document::parse(html), None, article).title
    }

    #[test]
    fn a_headings_permalink_mark_is_not_part_of_the_title() {
        let page = r##"<title>json — JSON encoder and decoder — Python documentation</title>
            <body><h1>json — JSON encoder and decoder<a class="headerlink" href="#json">¶</a></h1><p>x</p></body>"##;
        assert_eq!(title_of(page, true).as_deref(), Some("JSON encoder and decoder"));
    }

    #[test]
    fn underscores_inside_names_do_not_split_titles() {
        let t = |html: &str| title_of(html, false);
        assert_eq!(
            t("<title>rustc_codegen_gcc: Progress Report #39</title>").as_deref(),
            Some("rustc_codegen_gcc: Progress Report #39")
        );
        assert_eq!(
            t("<title>Module ngx_http_rewrite_module</title>").as_deref(),
            Some("Module ngx_http_rewrite_module")
        );
        // Between parts that are not spaced, `_` still separates them.
        assert_eq!(
            t("<title>关于开展水稻种植培训的通知_通知公告_示例网</title>").as_deref(),
            Some("关于开展水稻种植培训的通知")
        );
    }

    #[test]
    fn a_cut_declared_headline_is_read_whole_from_the_title() {
        let whole = "Fix it Friday: struggling with how to arrange your living room? We help four readers find solutions (including one trick that works)";
        let cut = &whole[..whole.find(" one trick").unwrap()];
        let page = format!(
            r#"<title>{whole} - Farm Blog</title><script type="application/ld+json">{{"@type":"Article","headline":"{cut}"}}</script><body><p>x</p></body>"#
        );
        assert_eq!(title_of(&page, true).as_deref(), Some(whole));
        // A long one that a part of `<title>` repeats whole is not cut: the site's name stays out.
        let long = "Treadmill repair and fitness equipment repair in the county, with maintenance of every machine. Free estimates.";
        let page = format!(
            r#"<title>{long} - Gym Fixers</title><meta property="og:title" content="{long}"><body><p>x</p></body>"#
        );
        assert_eq!(title_of(&page, true).as_deref(), Some(long));
        // A short declared headline is taken as written.
        let page = r#"<title>Rice yields rise in the south - Farm News</title><meta property="og:title" content="Rice yields rise"><body><p>x</p></body>"#;
        assert_eq!(title_of(page, true).as_deref(), Some("Rice yields rise"));
    }

    #[test]
    fn an_articles_only_heading_naming_the_site_is_not_its_title() {
        let page = "<title>What happened with Arch Linux ISO in 2024 / Discussion / Arch Linux Forums</title>\
            <body><h1>Arch Linux</h1><p>x</p></body>";
        let url = Some("https://bbs.archlinux.org/viewtopic.php?id=1");
        let title = |url| extract(&scan(page), &Document::parse(page), url, true).title;
        assert_eq!(title(url).as_deref(), Some("What happened with Arch Linux ISO in 2024"));
        // Without the address nothing says the heading is the site's name.
        assert_eq!(title(None).as_deref(), Some("Arch Linux"));
    }

    #[test]
    fn title_prefers_the_headline_over_logo_headings() {
        // Of two `<h1>`s that `<title>` repeats, the one naming the site is its logo.
        let site = r#"<title>Farm News Daily: Rice</title><meta property="og:site_name" content="Farm News Daily">
            <body><h1>Farm News Daily</h1><h1>Rice</h1></body>"#;
        assert_eq!(title_of(site, false).as_deref(), Some("Rice"));
        // Otherwise the longest: a section label is shorter than the headline.
        let longest = "<title>How to grow rice in dry years - Farm Guide</title>\
            <body><h1>Rice</h1><h1>How to grow rice in dry years</h1></body>";
        assert_eq!(title_of(longest, false).as_deref(), Some("How to grow rice in dry years"));
        // An `<h1>` that is the last part of `<title>` is the site's name, the part to strip.
        let logo = "<title>What is tillage? - The Farming Book</title><body><h1>The Farming Book</h1><p>x</p></body>";
        assert_eq!(title_of(logo, false).as_deref(), Some("What is tillage?"));
    }

    #[test]
    fn heading_text_reads_as_displayed() {
        // A line break separates words; a soft hyphen and a zero-width space are not shown.
        let page = "<title>x</title><body><h1>Cosmetic Packaging<br/><span>Design</span></h1><p>x</p></body>";
        assert_eq!(title_of(page, true).as_deref(), Some("Cosmetic Packaging Design"));
        let page = "<title>y</title><body><h1>Home Repair Assis&shy;tance\u{200b} Program</h1></body>";
        assert_eq!(title_of(page, true).as_deref(), Some("Home Repair Assistance Program"));
    }

    #[test]
    fn a_heading_the_declarations_repeat_is_the_title() {
        // `<title>` words it for search engines; `og:title` (without its site suffix) repeats the `<h1>`.
        let page = r#"<title>Sustainable Sneakers for Men | Allbirds</title>
            <meta property="og:title" content="Men's Sneakers | Allbirds"><meta property="og:site_name" content="Allbirds">
            <body><h1>Men's Sneakers</h1><h1>Table of Contents</h1></body>"#;
        assert_eq!(title_of(page, false).as_deref(), Some("Men's Sneakers"));
        // The JSON-LD headline counts too; without any declaration `<title>` stays.
        let ld = r#"<title>Cleaning costs in San Diego — Cleaning Co.</title>
            <script type="application/ld+json">{"@type":"Article","headline":"What cleaning costs in San Diego"}</script>
            <body><h1>Cleaning Co.</h1><h1>What cleaning costs in San Diego</h1></body>"#;
        assert_eq!(title_of(ld, false).as_deref(), Some("What cleaning costs in San Diego"));
        let bare = "<title>Sustainable Sneakers for Men | Allbirds</title><body><h1>Men's Sneakers</h1></body>";
        assert_eq!(title_of(bare, false).as_deref(), Some("Sustainable Sneakers for Men"));
    }

    #[test]
    fn a_heading_chosen_as_title_loses_its_suffix() {
        let page = "<title>Tips from a first visitor - Japan Forum - Travel Site</title>\
            <body><h1>Tips from a first visitor - Japan Forum</h1><p>x</p></body>";
        assert_eq!(title_of(page, false).as_deref(), Some("Tips from a first visitor"));
        // The suffix named as the site goes whatever its length; a heading without separators stays.
        let site = r#"<title>x</title><meta property="og:site_name" content="Cookshack">
            <body><h1>Catering Tips | Cookshack</h1></body>"#;
        assert_eq!(title_of(site, true).as_deref(), Some("Catering Tips"));
        let plain = "<title>Rice: a guide | Farm</title><body><h1>Rice: a guide</h1></body>";
        assert_eq!(title_of(plain, false).as_deref(), Some("Rice: a guide"));
    }

    #[test]
    fn a_heading_naming_the_site_is_its_logo() {
        // The only `<h1>` that `<title>` repeats is the name of the site's address: the title is the rest.
        let page = "<title>What happened with the ISO / Discussion / Arch Linux Forums</title>\
            <body><h1>Arch Linux</h1><p>x</p></body>";
        let m =
            extract(&scan(page), &Document::parse(page), Some("https://bbs.archlinux.org/viewtopic.php?id=1"), false);
        assert_eq!(m.title.as_deref(), Some("What happened with the ISO"));
        assert_eq!(registered_name("https://news.bbc.co.uk/a").as_deref(), Some("bbc"));
        // Named by `og:site_name`: the declared title, which `<title>` repeats, is the page's.
        let blog = r#"<title>Roger's Blog: Advent of Code week 2</title><meta property="og:site_name" content="Roger's Blog">
            <meta property="og:title" content="Advent of Code week 2"><body><h1>Roger's Blog</h1><h1>Day 7</h1></body>"#;
        assert_eq!(title_of(blog, true).as_deref(), Some("Advent of Code week 2"));
    }

    #[test]
    fn an_articles_single_heading_is_its_headline() {
        let page = "<title>Rice yields: what farmers should know | Farm News</title>\
            <body><h1>What farmers should know about rice yields this year</h1><p>x</p></body>";
        assert_eq!(title_of(page, true).as_deref(), Some("What farmers should know about rice yields this year"));
        // Not on other pages, and not when the heading shares no word with the title.
        assert_eq!(title_of(page, false).as_deref(), Some("Rice yields: what farmers should know"));
        let label = "<title>Rice yields: what farmers should know | Farm News</title><body><h1>Latest</h1></body>";
        assert_eq!(title_of(label, true).as_deref(), Some("Rice yields: what farmers should know"));
    }

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

    #[test]
    fn a_utc_timestamp_a_day_from_the_address_date_is_the_local_day() {
        let page = r#"<meta property="article:published_time" content="2025-12-19T02:41:41+00:00"><p>x</p>"#;
        let m = meta(page, Some("https://ex.test/2025/12/18/story"));
        assert_eq!(m.published, Some(Dated { value: "2025-12-18".into(), source: DateSource::Url }));
        // Further apart, the declaration wins; so does a date without a time.
        let far = meta(page, Some("https://ex.test/2025/12/10/story"));
        assert_eq!(far.published.map(|d| d.source), Some(DateSource::Opengraph));
        let day = r#"<meta property="article:published_time" content="2025-12-19"><p>x</p>"#;
        let m = meta(day, Some("https://ex.test/2025/12/18/story"));
        assert_eq!(m.published.map(|d| d.value).as_deref(), Some("2025-12-19"));
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
