//! Scoring `metadata` against a dataset's recorded title, author and publication date (wcxb-dev
//! has them): per field, the share of pages where the value matches exactly after normalising, and
//! the share where a value was found at all, both over the pages whose gold has the field.
//!
//! Normalising: Unicode NFKC, lower case, typographic quotes and dashes to ASCII, and every run of
//! characters that are not letters or digits to one space. So `Jane Roe` matches `jane roe` and
//! `“Rice” – a guide` matches `"rice" - a guide`, but a missing or extra word never matches. Authors:
//! the gold string against the found names joined in order (`Maria & Katerina` or
//! `Maria and Katerina` against `["Maria", "Katerina"]`: the word `and` is left out on both sides).
//! Dates: the calendar day (`2024-03-05`), time and offset aside.

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::metadata::Metadata;

/// One page's gold metadata.
#[derive(Debug, Clone, Default)]
pub struct MetaGold {
    pub title: Option<String>,
    pub author: Option<String>,
    pub publish_date: Option<String>,
}

impl MetaGold {
    pub fn is_empty(&self) -> bool {
        let none = |v: &Option<String>| v.as_deref().is_none_or(|s| s.trim().is_empty());
        none(&self.title) && none(&self.author) && none(&self.publish_date)
    }
}

/// One field on one page: found at all, and equal to the gold after normalising.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldResult {
    pub found: bool,
    pub exact: bool,
}

/// One page's metadata results, with what was found (for `--per-page`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MetaResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<FieldResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<FieldResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<FieldResult>,
    pub found_title: Option<String>,
    pub found_authors: Vec<String>,
    pub found_date: Option<String>,
}

/// Aggregate over pages for one field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct FieldScores {
    /// Pages whose gold has the field.
    pub gold: usize,
    pub found: usize,
    pub exact: usize,
    /// `exact / gold`.
    pub exact_rate: Option<f64>,
    /// `found / gold`.
    pub coverage: Option<f64>,
}

impl FieldScores {
    fn add(&mut self, r: Option<FieldResult>) {
        if let Some(r) = r {
            self.gold += 1;
            self.found += usize::from(r.found);
            self.exact += usize::from(r.exact);
        }
    }

    fn finish(mut self) -> Self {
        if self.gold > 0 {
            self.exact_rate = Some(self.exact as f64 / self.gold as f64);
            self.coverage = Some(self.found as f64 / self.gold as f64);
        }
        self
    }

    /// Counts summed, rates recomputed.
    pub fn merge(a: FieldScores, b: FieldScores) -> FieldScores {
        FieldScores { gold: a.gold + b.gold, found: a.found + b.found, exact: a.exact + b.exact, ..Default::default() }
            .finish()
    }
}

/// Aggregate over pages, per field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct MetadataScores {
    pub title: FieldScores,
    pub author: FieldScores,
    pub date: FieldScores,
}

impl MetadataScores {
    pub fn merge(a: &MetadataScores, b: &MetadataScores) -> MetadataScores {
        MetadataScores {
            title: FieldScores::merge(a.title, b.title),
            author: FieldScores::merge(a.author, b.author),
            date: FieldScores::merge(a.date, b.date),
        }
    }
}

/// Normalised for comparison (see the module doc).
pub fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut gap = false;
    for c in s.nfkc().flat_map(char::to_lowercase) {
        let c = match c {
            '‘' | '’' | '´' | '`' => '\'',
            '“' | '”' | '„' => '"',
            '–' | '—' | '‐' | '‑' => '-',
            c => c,
        };
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.push(c);
        } else {
            gap = true;
        }
    }
    out
}

/// Authors normalised, and the word `and` dropped: a list of names is recorded as one string joined
/// by `,`, `&` or `and` (`Jane Roe and John Doe`), and found as names, compared joined by spaces.
fn author_key(s: &str) -> String {
    normalise(s).split(' ').filter(|w| *w != "and").collect::<Vec<_>>().join(" ")
}

/// Score one page.
pub fn score(found: &Metadata, gold: &MetaGold) -> MetaResult {
    // An empty recorded value is the same as none.
    let field = |gold: &Option<String>, got: Option<String>, norm: fn(&str) -> String| {
        gold.as_ref().filter(|g| !g.trim().is_empty()).map(|g| FieldResult {
            found: got.is_some(),
            exact: got.is_some_and(|v| !norm(g).is_empty() && norm(&v) == norm(g)),
        })
    };
    let authors = (!found.authors.is_empty()).then(|| found.authors.join(" "));
    let day = |s: &str| s.get(..10).unwrap_or(s).to_string();
    MetaResult {
        title: field(&gold.title, found.title.clone(), normalise),
        author: field(&gold.author, authors, author_key),
        date: field(&gold.publish_date.as_deref().map(day), found.published.as_ref().map(|d| day(&d.value)), normalise),
        found_title: found.title.clone(),
        found_authors: found.authors.clone(),
        found_date: found.published.as_ref().map(|d| d.value.clone()),
    }
}

/// Fold page results.
pub fn summarize<'a>(results: impl Iterator<Item = &'a MetaResult>) -> Option<MetadataScores> {
    let mut s = MetadataScores::default();
    let mut any = false;
    for r in results {
        any = true;
        s.title.add(r.title);
        s.author.add(r.author);
        s.date.add(r.date);
    }
    any.then(|| MetadataScores { title: s.title.finish(), author: s.author.finish(), date: s.date.finish() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::{DateSource, Dated};

    #[test]
    fn normalising_and_scoring() {
        assert_eq!(normalise(" “Rice” – a  Guide! "), "rice a guide");
        assert_eq!(normalise("Ｆｕｌｌ　width"), "full width");
        let found = Metadata {
            title: Some("Rice: a guide".into()),
            authors: vec!["Maria".into(), "Katerina".into()],
            published: Some(Dated { value: "2024-03-05T10:00:00Z".into(), source: DateSource::JsonLd }),
            ..Default::default()
        };
        let gold = MetaGold {
            title: Some("Rice - A Guide".into()),
            author: Some("Maria & Katerina".into()),
            publish_date: Some("2024-03-06".into()),
        };
        let r = score(&found, &gold);
        assert_eq!(r.title, Some(FieldResult { found: true, exact: true }));
        assert_eq!(r.author, Some(FieldResult { found: true, exact: true }));
        assert_eq!(r.date, Some(FieldResult { found: true, exact: false }));
        let and = MetaGold { author: Some("Jared Newman and Sam Singleton".into()), ..Default::default() };
        let two = Metadata { authors: vec!["Jared Newman".into(), "Sam Singleton".into()], ..Default::default() };
        assert_eq!(score(&two, &and).author, Some(FieldResult { found: true, exact: true }));
        let none = score(&Metadata::default(), &MetaGold { title: Some("x".into()), ..Default::default() });
        assert_eq!(none.title, Some(FieldResult { found: false, exact: false }));
        assert_eq!(none.author, None);
        let s = summarize([r, none].iter()).unwrap();
        assert_eq!((s.title.gold, s.title.found, s.title.exact), (2, 1, 1));
        assert_eq!(s.title.coverage, Some(0.5));
        assert_eq!(s.date.exact_rate, Some(0.0));
    }
}
