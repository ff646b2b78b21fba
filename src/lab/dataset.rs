//! Reading the labelled datasets: `pages.jsonl` (one page per line: id, url, lang, has_article, gold,
//! source) beside `html/<id>.html.gz` (the raw bytes as served, gzipped).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::algorithms::contract::PageType;
use crate::error::Error;
use crate::site::registered_domain;

/// One labelled page.
#[derive(Debug, Clone, Deserialize)]
pub struct LabelledPage {
    pub id: String,
    pub url: Option<String>,
    pub lang: Option<String>,
    pub has_article: Option<bool>,
    pub gold: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    /// What kind of page it is, where the dataset says: a `page_type` field, or `page_type=…` in
    /// `source` (a label no type answers to reads as none).
    #[serde(default, deserialize_with = "page_type_label")]
    pub page_type: Option<PageType>,
    /// Snippets a correct extraction must contain (the multi-type benchmark's `with`).
    #[serde(default)]
    pub with: Vec<String>,
    /// Boilerplate snippets a correct extraction must not contain (its `without`).
    #[serde(default)]
    pub without: Vec<String>,
    /// The page's own title, as the labellers recorded it (wcxb-dev), for scoring `metadata`.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub author: Option<String>,
    /// `YYYY-MM-DD`.
    #[serde(default)]
    pub publish_date: Option<String>,
    /// The site the dataset's makers grouped the page under, where they say (`?` for unknown).
    #[serde(default)]
    pub site: Option<String>,
}

/// The page types' names, in the order reports list them (the report tables are keyed by name).
pub const PAGE_TYPES: [&str; 7] = {
    let mut names = [""; 7];
    let mut k = 0;
    while k < names.len() {
        names[k] = PageType::ALL[k].name();
        k += 1;
    }
    names
};

/// The type a dataset's label names: a type's own name, or a blog post (an article) or a category
/// page (a collection).
fn labelled_type(label: &str) -> Option<PageType> {
    match label {
        "blog" => Some(PageType::Article),
        "category" => Some(PageType::Collection),
        other => PageType::named(other),
    }
}

/// `page_type` as a dataset writes it, read by [`labelled_type`].
fn page_type_label<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<PageType>, D::Error> {
    Ok(Option::<String>::deserialize(d)?.as_deref().and_then(labelled_type))
}

impl LabelledPage {
    /// The labelled page type, from the `page_type` field or, when it has none, from `page_type=…` in
    /// `source`.
    fn settle_page_type(&mut self) {
        if self.page_type.is_some() {
            return;
        }
        self.page_type = self.source.as_deref().and_then(|s| {
            let at = s.find("page_type=")? + "page_type=".len();
            let rest = &s[at..];
            labelled_type(&rest[..rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len())])
        });
    }
}

/// A dataset directory and its pages.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub name: String,
    pub dir: PathBuf,
    pub pages: Vec<LabelledPage>,
}

impl Dataset {
    /// Read `dir/pages.jsonl`.
    pub fn open(dir: &Path) -> Result<Dataset, Error> {
        let file = dir.join("pages.jsonl");
        let f = std::fs::File::open(&file).map_err(|e| Error::Config(format!("{}: {e}", file.display())))?;
        let mut pages = Vec::new();
        for (n, line) in BufReader::new(f).lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let mut p: LabelledPage = serde_json::from_str(&line)
                .map_err(|e| Error::Config(format!("{} line {}: {e}", file.display(), n + 1)))?;
            p.settle_page_type();
            pages.push(p);
        }
        let name = dir
            .canonicalize()
            .unwrap_or_else(|_| dir.to_path_buf())
            .file_name()
            .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
        Ok(Dataset { name, dir: dir.to_path_buf(), pages })
    }

    /// The raw bytes of one page (gunzipped).
    pub fn html(&self, page: &LabelledPage) -> Result<Vec<u8>, Error> {
        let path = self.dir.join("html").join(format!("{}.html.gz", page.id));
        let f = std::fs::File::open(&path).map_err(|e| Error::Config(format!("{}: {e}", path.display())))?;
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(f).read_to_end(&mut out)?;
        Ok(out)
    }
}

/// Which pages of a dataset a run may read (cross-validation leaves a fold out of training).
pub type PageFilter<'a> = &'a (dyn Fn(&Dataset, &LabelledPage) -> bool + Sync);

/// Every page.
pub fn all_pages(_: &Dataset, _: &LabelledPage) -> bool {
    true
}

/// The site a page belongs to, for grouping cross-validation folds so that no site is both trained on
/// and scored: the registered domain (by the public suffix list) of the page's URL; failing that, of the
/// address the page declares for itself (`<link rel=canonical>`, `og:url`, `<base href>`); failing that,
/// the registered domain its absolute links point to most often (a page links to its own site more than
/// to any other). A site the dataset names itself (its `site` field) comes first: a set split by site
/// for publication (the many-language corpus) keeps its own grouping. `None` when the page gives no
/// hint at all: it is then a group of its own.
pub fn site_of(page: &LabelledPage, bytes: &[u8]) -> Option<String> {
    if let Some(s) = page.site.as_deref().filter(|s| !s.is_empty() && *s != "?") {
        return Some(s.to_ascii_lowercase());
    }
    if let Some(d) = page.url.as_deref().and_then(registered_domain) {
        return Some(d);
    }
    // ASCII only (anything else becomes '?'), so every byte offset below is a character boundary.
    let head: String = bytes[..bytes.len().min(512 * 1024)]
        .iter()
        .map(|&b| if b.is_ascii() { char::from(b.to_ascii_lowercase()) } else { '?' })
        .collect();
    for (marker, attr) in [("rel=\"canonical\"", "href="), ("og:url", "content="), ("<base ", "href=")] {
        for (at, _) in head.match_indices(marker) {
            let start = head[..at].rfind('<').unwrap_or(at);
            let end = head[at..].find('>').map_or(head.len(), |e| at + e);
            if let Some(d) = attribute(&head[start..end], attr).and_then(registered_domain) {
                return Some(d);
            }
        }
    }
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for (at, _) in head.match_indices("href=") {
        if let Some(d) = attribute(&head[at..(at + 300).min(head.len())], "href=").and_then(registered_domain) {
            *counts.entry(d).or_default() += 1;
        }
    }
    // The most linked domain; the alphabetically first of equals, so the choice is stable.
    counts.into_iter().max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0))).map(|(d, _)| d)
}

/// The value of `name` (given with its `=`) in a tag's text, quoted or not.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(name)? + name.len();
    let rest = tag[at..].trim_start();
    let (quote, rest) = match rest.chars().next()? {
        q @ ('"' | '\'') => (Some(q), &rest[1..]),
        _ => (None, rest),
    };
    let end = match quote {
        Some(q) => rest.find(q)?,
        None => rest.find(|c: char| c.is_whitespace() || c == '>').unwrap_or(rest.len()),
    };
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: Option<&str>, source: Option<&str>) -> LabelledPage {
        let mut p = LabelledPage {
            id: "1".into(),
            url: url.map(String::from),
            lang: None,
            has_article: None,
            gold: None,
            source: source.map(String::from),
            page_type: None,
            with: Vec::new(),
            without: Vec::new(),
            title: None,
            author: None,
            publish_date: None,
            site: None,
        };
        p.settle_page_type();
        p
    }

    #[test]
    fn sites_come_from_the_url_then_the_page_then_its_links() {
        assert_eq!(registered_domain("https://news.bbc.co.uk/a/b").as_deref(), Some("bbc.co.uk"));
        assert_eq!(registered_domain("ftp://example.com/").as_deref(), None);
        let no_url = page(None, None);
        assert_eq!(site_of(&page(Some("http://www.example.com/x"), None), b"").as_deref(), Some("example.com"));
        let canonical = b"<head><link href='https://blog.example.org/p/1' rel=\"canonical\"></head>";
        assert_eq!(site_of(&no_url, canonical).as_deref(), Some("example.org"));
        let links = "<a href=\"http://a.example.net/1\">x</a> <a href=http://b.example.net/2>y</a> \
                     <a href='https://other.com/'>z</a> caf\u{e9}";
        assert_eq!(site_of(&no_url, links.as_bytes()).as_deref(), Some("example.net"));
        assert_eq!(site_of(&no_url, b"<p>no links</p>"), None);
        let named = LabelledPage { site: Some("Example.DE".into()), ..page(Some("http://other.com/"), None) };
        assert_eq!(site_of(&named, b"").as_deref(), Some("example.de"), "the dataset's own site comes first");
        let unknown = LabelledPage { site: Some("?".into()), ..page(Some("http://other.com/"), None) };
        assert_eq!(site_of(&unknown, b"").as_deref(), Some("other.com"));
    }

    #[test]
    fn page_types_from_a_field_or_the_source() {
        assert_eq!(
            page(None, Some("x:1.html (page_type=listing, confidence=high)")).page_type,
            Some(PageType::Listing)
        );
        assert_eq!(page(None, Some("x (page_type=blog)")).page_type, Some(PageType::Article));
        assert_eq!(page(None, Some("x (page_type=unknown)")).page_type, None);
    }
}
