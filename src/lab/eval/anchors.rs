//! The peers' accuracy figures `pith eval --report` draws beside pith's: `config/anchors.json`,
//! transcribed from the developers' anchors (`../shared/anchors.md`, cited in the file), embedded so
//! the report needs no file at run time.
//!
//! Each figure carries the metric it was measured with, and the report compares it only with pith's
//! figure for the same metric on the same dataset (and page type): a peer's shingle F1 is never drawn
//! beside a bag-of-words F1.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Summary;
use super::metrics::{TextScores, f1};
use crate::error::Error;

const EMBEDDED: &str = include_str!("../../../config/anchors.json");

/// A text metric the anchors use, with the matching figure of a [`Summary`] and of one page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// The industry article benchmark: 4-word shingles, F1 of the pages' mean precision and recall.
    ShingleF1,
    /// Word-level LCS (one word per CJK character), F1 of the pages' mean precision and recall.
    LcsF1,
    /// The multi-type benchmark: bag-of-words F1 per page, mean over pages.
    WordF1,
}

impl Metric {
    /// A short label for charts and tables.
    pub fn label(self) -> &'static str {
        match self {
            Metric::ShingleF1 => "shingle F1",
            Metric::LcsF1 => "LCS F1",
            Metric::WordF1 => "bag-of-words F1",
        }
    }

    /// The key in `anchors.json`'s `metrics`.
    pub fn key(self) -> &'static str {
        match self {
            Metric::ShingleF1 => "shingle_f1",
            Metric::LcsF1 => "lcs_f1",
            Metric::WordF1 => "word_f1",
        }
    }

    /// pith's figure for this metric. The LCS figure is taken from the mean precision and recall,
    /// as the anchors aggregate it, not from [`Summary::lcs_f1`] (the mean of the pages' F1).
    pub fn of(self, s: &Summary) -> Option<f64> {
        match self {
            Metric::ShingleF1 => s.shingle_f1,
            Metric::LcsF1 => s.lcs_p.zip(s.lcs_r).map(|(p, r)| f1(p, r)),
            Metric::WordF1 => s.word_f1,
        }
    }

    /// One page's F1 under this metric (to rank the worst pages).
    pub fn of_page(self, s: &TextScores) -> f64 {
        match self {
            Metric::ShingleF1 => s.shingle.f1,
            Metric::LcsF1 => s.lcs.f1,
            Metric::WordF1 => s.word.f1,
        }
    }
}

/// The peers' figures for one dataset (or one page type of it).
#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    pub dataset: String,
    #[serde(default)]
    pub page_type: Option<String>,
    pub metric: Metric,
    /// Peer name → figure.
    pub figures: BTreeMap<String, f64>,
}

/// Everything in `anchors.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct Anchors {
    /// Where the figures come from.
    pub source: String,
    /// The peers' versions.
    pub versions: String,
    /// Metric key → how it is computed.
    pub metrics: BTreeMap<String, String>,
    pub datasets: Vec<Entry>,
    pub page_types: Vec<Entry>,
    /// Has-article accuracy of the peers' readerable judgement, per dataset.
    #[serde(default)]
    pub has_article: Vec<Judged>,
}

/// The peers' has-article accuracy on one dataset's labelled pages.
#[derive(Debug, Clone, Deserialize)]
pub struct Judged {
    pub dataset: String,
    /// Peer (judgement) name → accuracy.
    pub figures: BTreeMap<String, f64>,
}

impl Anchors {
    /// The figures shipped with pith.
    pub fn embedded() -> Result<Anchors, Error> {
        serde_json::from_str(EMBEDDED).map_err(|e| Error::Config(format!("config/anchors.json: {e}")))
    }

    /// The peers' figures for a whole dataset, if any were measured.
    pub fn dataset(&self, name: &str) -> Option<&Entry> {
        self.datasets.iter().find(|e| e.dataset == name)
    }

    /// The peers' figures for one page type of a dataset.
    pub fn page_type(&self, dataset: &str, page_type: &str) -> Option<&Entry> {
        self.page_types.iter().find(|e| e.dataset == dataset && e.page_type.as_deref() == Some(page_type))
    }

    /// The peers' has-article accuracy on a dataset.
    pub fn has_article(&self, dataset: &str) -> Option<&Judged> {
        self.has_article.iter().find(|e| e.dataset == dataset)
    }

    /// The metric a dataset is compared by: the anchors' when they have the dataset, else the
    /// industry benchmark's shingle F1 (the general-purpose one).
    pub fn metric(&self, dataset: &str) -> Metric {
        self.dataset(dataset).map_or(Metric::ShingleF1, |e| e.metric)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_anchors_parse_and_name_their_metrics() {
        let a = Anchors::embedded().unwrap();
        assert!(a.source.contains("anchors.md"));
        for e in a.datasets.iter().chain(&a.page_types) {
            assert!(a.metrics.contains_key(e.metric.key()), "{} {:?}", e.dataset, e.metric);
            assert!(e.figures.values().all(|v| (0.0..=1.0).contains(v)), "{}", e.dataset);
        }
        // The best peers per set as the anchors' "best per set" rows give them.
        let best = |e: &Entry| e.figures.values().copied().fold(0.0, f64::max);
        assert_eq!(best(a.dataset("dragnet").unwrap()), 0.900);
        assert_eq!(a.metric("zh-cwce"), Metric::LcsF1);
        assert_eq!(a.metric("wcxb-dev"), Metric::WordF1);
        assert_eq!(best(a.page_type("wcxb-dev", "forum").unwrap()), 0.735);
        assert_eq!(a.metric("no-such-set"), Metric::ShingleF1);
        assert!(a.metrics.contains_key("accuracy"));
        assert_eq!(a.has_article("zh-gne").unwrap().figures.values().next(), Some(&0.44));
    }
}
