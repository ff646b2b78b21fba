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
//!
//! Sets whose `pages.jsonl` records no author or date get them from the project's own labels
//! (`config/metadata-labels/<dataset>.jsonl`, see the README there), keyed by the dataset's directory
//! name and the page id; a value the dataset records itself wins. Those labels also say where a page
//! names no author or shows no date (`null`): there, an answer is *spurious* (an editor or an outlet
//! taken for the writer, a list item's date taken for the page's), counted apart.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::lab::dataset::LabelledPage;
use crate::metadata::Metadata;

/// One page's gold metadata.
#[derive(Debug, Clone, Default)]
pub struct MetaGold {
    pub title: Option<String>,
    pub author: Option<String>,
    pub publish_date: Option<String>,
    /// The page was read and names no author: an author found is spurious.
    pub no_author: bool,
    /// The page was read and shows no publication date: a date found is spurious.
    pub no_date: bool,
}

impl MetaGold {
    pub fn is_empty(&self) -> bool {
        let none = |v: &Option<String>| v.as_deref().is_none_or(|s| s.trim().is_empty());
        none(&self.title) && none(&self.author) && none(&self.publish_date) && !self.no_author && !self.no_date
    }

    /// The page's gold: its own recorded fields, then the project's labels for its dataset.
    pub fn of(dataset: &str, page: &LabelledPage) -> MetaGold {
        let mut gold = MetaGold {
            title: page.title.clone(),
            author: page.author.clone(),
            publish_date: page.publish_date.clone(),
            ..Default::default()
        };
        if let Some(label) = LABELS.get(dataset).and_then(|set| set.get(&page.id)) {
            if gold.author.is_none() {
                gold.author = label.author.clone();
                gold.no_author = label.author.is_none();
            }
            if gold.publish_date.is_none() {
                gold.publish_date = label.publish_date.clone();
                gold.no_date = label.publish_date.is_none();
            }
        }
        gold
    }
}

/// One labelled page of `config/metadata-labels/` (both fields present, `null` when the page shows none).
#[derive(Debug, Clone, Deserialize)]
struct Label {
    id: String,
    author: Option<String>,
    publish_date: Option<String>,
}

/// The label files, embedded: (dataset name, JSON Lines).
const LABEL_FILES: [(&str, &str); 2] = [
    ("zh-gne", include_str!("../../../config/metadata-labels/zh-gne.jsonl")),
    ("zh-listdetail", include_str!("../../../config/metadata-labels/zh-listdetail.jsonl")),
];

/// The labels by dataset and page id (a line that does not parse is a build-time mistake the tests
/// catch; it is skipped here).
static LABELS: std::sync::LazyLock<HashMap<&'static str, HashMap<String, Label>>> = std::sync::LazyLock::new(|| {
    LABEL_FILES
        .iter()
        .map(|(name, text)| {
            let labels =
                text.lines().filter_map(|l| serde_json::from_str::<Label>(l).ok()).map(|l| (l.id.clone(), l)).collect();
            (*name, labels)
        })
        .collect()
});

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
    /// On a page labelled as naming no author: whether one was found anyway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spurious_author: Option<bool>,
    /// On a page labelled as showing no date: whether one was found anyway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spurious_date: Option<bool>,
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
    /// Pages labelled as showing none of the field.
    #[serde(default)]
    pub absent: usize,
    /// Of those, the pages where a value was found.
    #[serde(default)]
    pub spurious: usize,
    /// `spurious / absent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spurious_rate: Option<f64>,
}

impl FieldScores {
    fn add(&mut self, r: Option<FieldResult>, spurious: Option<bool>) {
        if let Some(r) = r {
            self.gold += 1;
            self.found += usize::from(r.found);
            self.exact += usize::from(r.exact);
        }
        if let Some(s) = spurious {
            self.absent += 1;
            self.spurious += usize::from(s);
        }
    }

    fn finish(mut self) -> Self {
        if self.gold > 0 {
            self.exact_rate = Some(self.exact as f64 / self.gold as f64);
            self.coverage = Some(self.found as f64 / self.gold as f64);
        }
        if self.absent > 0 {
            self.spurious_rate = Some(self.spurious as f64 / self.absent as f64);
        }
        self
    }

    /// Counts summed, rates recomputed.
    pub fn merge(a: FieldScores, b: FieldScores) -> FieldScores {
        FieldScores {
            gold: a.gold + b.gold,
            found: a.found + b.found,
            exact: a.exact + b.exact,
            absent: a.absent + b.absent,
            spurious: a.spurious + b.spurious,
            ..Default::default()
        }
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
        spurious_author: gold.no_author.then_some(!found.authors.is_empty()),
        spurious_date: gold.no_date.then_some(found.published.is_some()),
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
        s.title.add(r.title, None);
        s.author.add(r.author, r.spurious_author);
        s.date.add(r.date, r.spurious_date);
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
            ..Default::default()
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
        // A page labelled as naming no author: the author found is spurious, and no exact or coverage
        // figure counts it.
        let none_shown = MetaGold { no_author: true, no_date: true, ..Default::default() };
        assert!(!none_shown.is_empty());
        let r = score(&found, &none_shown);
        assert_eq!((r.author, r.spurious_author, r.spurious_date), (None, Some(true), Some(true)));
        let quiet = score(&Metadata::default(), &none_shown);
        let s = summarize([r, quiet].iter()).unwrap();
        assert_eq!((s.author.gold, s.author.absent, s.author.spurious), (0, 2, 1));
        assert_eq!((s.author.exact_rate, s.author.spurious_rate), (None, Some(0.5)));
    }

    #[test]
    fn the_projects_labels_parse_and_fill_what_a_dataset_does_not_record() {
        for (name, text) in LABEL_FILES {
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            assert!(!lines.is_empty(), "{name}");
            for l in &lines {
                let label: Label = serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: {l}: {e}"));
                if let Some(d) = &label.publish_date {
                    assert!(d.len() == 10 && d.as_bytes()[4] == b'-' && d.as_bytes()[7] == b'-', "{name}: {l}");
                }
                assert!(label.author.as_deref().is_none_or(|a| !a.trim().is_empty()), "{name}: {l}");
            }
            assert_eq!(LABELS[name].len(), lines.len(), "{name}: an id twice");
        }
        let page = |id: &str, author: Option<&str>| LabelledPage {
            id: id.into(),
            url: None,
            lang: None,
            has_article: None,
            gold: None,
            source: None,
            page_type: None,
            with: Vec::new(),
            without: Vec::new(),
            title: None,
            author: author.map(String::from),
            publish_date: None,
            site: None,
        };
        // A labelled writer and date; a page labelled as naming no author; a dataset's own value wins.
        let g = MetaGold::of("zh-gne", &page("tests__163__7", None));
        assert_eq!(
            (g.author.as_deref(), g.publish_date.as_deref(), g.no_author),
            (Some("陆一夫"), Some("2019-11-25"), false)
        );
        let g = MetaGold::of("zh-gne", &page("tests__163__1", None));
        assert_eq!((g.author, g.no_author, g.no_date), (None, true, false));
        let g = MetaGold::of("zh-gne", &page("tests__163__7", Some("Someone")));
        assert_eq!(g.author.as_deref(), Some("Someone"));
        assert!(MetaGold::of("wcxb-dev", &page("tests__163__7", None)).is_empty());
    }
}
