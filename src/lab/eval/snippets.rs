//! The snippet metric of the many-language evaluation corpus (trafilatura's, as its README in
//! `trafbench-dev` describes it): each page lists snippets that must be in the main content (`with`)
//! and boilerplate that must not be (`without`). A `with` snippet found is a true positive, missed a
//! false negative; a `without` snippet found is a false positive, missed a true negative. Counts are
//! summed over the pages, and precision, recall, accuracy and F1 come from the sums, so a page with
//! six snippets weighs more than a page with one, as in the published figures.
//!
//! Matching is exact and case-sensitive after collapsing every run of whitespace to one space on both
//! sides; this differs from the multi-type benchmark's `with`/`without` rates
//! ([`super::metrics::snippet_rate`]), which lower-case and average per page.

use serde::Serialize;

use super::metrics::{f1, ratio};
use crate::dom::fold_ws;

/// One page's snippet counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SnippetCounts {
    /// `with` snippets found (true positives).
    pub tp: usize,
    /// `with` snippets missed (false negatives).
    #[serde(rename = "fn")]
    pub fn_: usize,
    /// `without` snippets found (false positives).
    pub fp: usize,
    /// `without` snippets absent (true negatives).
    pub tn: usize,
}

impl SnippetCounts {
    fn add(self, o: SnippetCounts) -> SnippetCounts {
        SnippetCounts { tp: self.tp + o.tp, fn_: self.fn_ + o.fn_, fp: self.fp + o.fp, tn: self.tn + o.tn }
    }
}

/// The figures of summed counts; `None` where a denominator is zero.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct SnippetScores {
    pub pages: usize,
    pub counts: SnippetCounts,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
    pub accuracy: Option<f64>,
    pub f1: Option<f64>,
}

/// Count one page's snippets against the extracted `text`; `None` when the page lists none.
pub fn count(text: &str, with: &[String], without: &[String]) -> Option<SnippetCounts> {
    if with.is_empty() && without.is_empty() {
        return None;
    }
    let text = fold_ws(text);
    let found = |s: &String| {
        let s = fold_ws(s);
        !s.is_empty() && text.contains(&s)
    };
    let tp = with.iter().filter(|s| found(s)).count();
    let fp = without.iter().filter(|s| found(s)).count();
    Some(SnippetCounts { tp, fn_: with.len() - tp, fp, tn: without.len() - fp })
}

/// Sum the pages' counts and derive the figures; `None` when no page had snippets.
pub fn score<'a>(pages: impl Iterator<Item = &'a SnippetCounts>) -> Option<SnippetScores> {
    let (n, c) = pages.fold((0usize, SnippetCounts::default()), |(n, acc), c| (n + 1, acc.add(*c)));
    (n > 0).then(|| from_counts(n, c))
}

/// The figures of `counts` summed over `pages` pages.
pub fn from_counts(pages: usize, c: SnippetCounts) -> SnippetScores {
    let precision = ratio(c.tp, c.tp + c.fp);
    let recall = ratio(c.tp, c.tp + c.fn_);
    let accuracy = ratio(c.tp + c.tn, c.tp + c.tn + c.fp + c.fn_);
    SnippetScores { pages, counts: c, precision, recall, accuracy, f1: precision.zip(recall).map(|(p, r)| f1(p, r)) }
}

/// The mean of several sets' figures, each over the sets where it is defined (the macro row); the
/// counts are summed.
pub fn mean_of<'a>(sets: impl Iterator<Item = &'a SnippetScores>) -> Option<SnippetScores> {
    let sets: Vec<&SnippetScores> = sets.collect();
    if sets.is_empty() {
        return None;
    }
    let m = |f: &dyn Fn(&SnippetScores) -> Option<f64>| {
        let v: Vec<f64> = sets.iter().filter_map(|s| f(s)).collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    };
    Some(SnippetScores {
        pages: sets.iter().map(|s| s.pages).sum(),
        counts: sets.iter().fold(SnippetCounts::default(), |acc, s| acc.add(s.counts)),
        precision: m(&|s| s.precision),
        recall: m(&|s| s.recall),
        accuracy: m(&|s| s.accuracy),
        f1: m(&|s| s.f1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn whitespace_collapses_but_case_counts() {
        let text = "Der  erste\nSatz.\n\nTeilen Sie   diesen Artikel";
        let c = count(text, &v(&["Der erste Satz.", "der erste satz."]), &v(&["Teilen Sie\tdiesen", "Impressum"]));
        assert_eq!(c, Some(SnippetCounts { tp: 1, fn_: 1, fp: 1, tn: 1 }));
        assert_eq!(count(text, &[], &[]), None);
        // An empty snippet is never "found" (it would be in every text).
        assert_eq!(count(text, &v(&["  "]), &[]), Some(SnippetCounts { tp: 0, fn_: 1, fp: 0, tn: 0 }));
    }

    #[test]
    fn figures_come_from_summed_counts() {
        let a = SnippetCounts { tp: 5, fn_: 1, fp: 0, tn: 2 };
        let b = SnippetCounts { tp: 0, fn_: 1, fp: 2, tn: 0 };
        let s = score([a, b].iter()).unwrap();
        assert_eq!(s.counts, SnippetCounts { tp: 5, fn_: 2, fp: 2, tn: 2 });
        assert_eq!(s.precision, Some(5.0 / 7.0));
        assert_eq!(s.recall, Some(5.0 / 7.0));
        assert_eq!(s.accuracy, Some(7.0 / 11.0));
        assert!((s.f1.unwrap() - 5.0 / 7.0).abs() < 1e-12);
        assert_eq!(score(std::iter::empty()), None);
        let m = mean_of([from_counts(1, a), from_counts(1, b)].iter()).unwrap();
        assert_eq!(m.pages, 2);
        assert_eq!(m.recall, Some((5.0 / 6.0 + 0.0) / 2.0));
        // Precision of b is 0/2 = 0, defined.
        assert_eq!(m.precision, Some(0.5));
    }
}
