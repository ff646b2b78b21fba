//! The page's publication and update dates: which of the dates a page gives is which, each from the
//! most trusted source that gives one (JSON-LD, Open Graph, `<meta>` names and microdata, `<time>`
//! elements, the visible byline, the address). Reading a date written in any of those places is
//! `dates`'s job; choosing among them is this file's.

use super::jsonld::Entity;
use super::{DateSource, Dated, Declarations, byline, dates};

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

/// The publication and update dates of the page: `scanned` its declarations, `ents` its JSON-LD
/// entities and `main` the one describing its content, `visible` its byline, `url` its address.
pub(super) fn published_and_modified(
    scanned: &Declarations,
    ents: &[Entity],
    main: Option<&Entity>,
    visible: &byline::Byline,
    url: Option<&str>,
) -> (Option<Dated>, Option<Dated>) {
    let published = date_from_entities(ents, main, &["datePublished", "dateCreated", "uploadDate", "startDate"])
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
    let modified = date_from_entities(ents, main, &["dateModified"])
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
    (published, modified)
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

#[cfg(test)]
mod tests {
    use crate::metadata::tests::meta;
    use crate::metadata::{DateSource, Dated};

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
}
