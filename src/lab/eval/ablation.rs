//! `pith eval --url-ablation`: each page extracted a second time without its URL, to show how much of
//! what `auto` answers comes from the address rather than the page. The URL is one weak signal among
//! many (its shape says "article" or "listing" on many sites); a model that leans on it has learned
//! sites, not pages, and its answers change when a crawler sends raw HTML without the address.

use serde::{Deserialize, Serialize};

use super::metrics::{Gold, score};

/// Text whose words match the text extracted with the URL at least this well (bag-of-words F1)
/// counts as the same text.
pub const SAME_TEXT_F1: f64 = 0.99;

/// One page with and without its URL.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct UrlAblation {
    /// The has-article verdict is the same.
    pub verdict_same: bool,
    /// The page type label is the same (both absent counts as the same).
    pub type_same: bool,
    /// Bag-of-words F1 of the text without the URL against the text with it (1.0: the same words).
    pub text_f1: f64,
    /// Has-article probability without the URL minus with it.
    pub probability_delta: f64,
}

/// What the page answered with its URL, or without.
pub struct Answer<'a> {
    pub text: &'a str,
    pub is_article: bool,
    pub probability: f64,
    pub page_type: Option<&'a str>,
}

/// Compare the answer given with the URL and the one given without.
pub fn compare(with: &Answer<'_>, without: &Answer<'_>) -> UrlAblation {
    let text_f1 = if with.text == without.text {
        1.0
    } else {
        let gold = Gold::new(with.text);
        score(&gold.predicted(without.text), &gold.predicted(with.text)).word.f1
    };
    UrlAblation {
        verdict_same: with.is_article == without.is_article,
        type_same: with.page_type == without.page_type,
        text_f1,
        probability_delta: without.probability - with.probability,
    }
}

/// Agreement over pages (those with a URL).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct AblationScores {
    pub pages: usize,
    pub verdict_same: usize,
    pub type_same: usize,
    /// Pages whose text without the URL reached [`SAME_TEXT_F1`].
    pub text_same: usize,
    /// Verdict, type and text all the same.
    pub all_same: usize,
    pub verdict_agreement: f64,
    pub type_agreement: f64,
    pub text_agreement: f64,
    pub all_agreement: f64,
    /// Mean of the pages' text F1.
    pub mean_text_f1: f64,
    /// Largest change of the has-article probability, either way.
    pub max_probability_change: f64,
}

impl AblationScores {
    /// Aggregate pages' comparisons; `None` when no page was compared.
    pub fn summarize<'a>(pages: impl Iterator<Item = &'a UrlAblation>) -> Option<AblationScores> {
        let mut s = AblationScores::default();
        let mut f1_sum = 0.0;
        for p in pages {
            s.pages += 1;
            s.verdict_same += usize::from(p.verdict_same);
            s.type_same += usize::from(p.type_same);
            let text = p.text_f1 >= SAME_TEXT_F1;
            s.text_same += usize::from(text);
            s.all_same += usize::from(p.verdict_same && p.type_same && text);
            f1_sum += p.text_f1;
            s.max_probability_change = s.max_probability_change.max(p.probability_delta.abs());
        }
        (s.pages > 0).then(|| s.with_rates(f1_sum))
    }

    /// Pool two aggregates (each page weighs the same).
    pub fn merge(a: &AblationScores, b: &AblationScores) -> AblationScores {
        let f1_sum = a.mean_text_f1 * a.pages as f64 + b.mean_text_f1 * b.pages as f64;
        AblationScores {
            pages: a.pages + b.pages,
            verdict_same: a.verdict_same + b.verdict_same,
            type_same: a.type_same + b.type_same,
            text_same: a.text_same + b.text_same,
            all_same: a.all_same + b.all_same,
            max_probability_change: a.max_probability_change.max(b.max_probability_change),
            ..Default::default()
        }
        .with_rates(f1_sum)
    }

    fn with_rates(mut self, f1_sum: f64) -> AblationScores {
        let n = self.pages.max(1) as f64;
        self.verdict_agreement = self.verdict_same as f64 / n;
        self.type_agreement = self.type_same as f64 / n;
        self.text_agreement = self.text_same as f64 / n;
        self.all_agreement = self.all_same as f64 / n;
        self.mean_text_f1 = f1_sum / n;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer<'a>(text: &'a str, is_article: bool, page_type: &'static str) -> Answer<'a> {
        Answer { text, is_article, probability: if is_article { 0.9 } else { 0.2 }, page_type: Some(page_type) }
    }

    #[test]
    fn agreement_counts_verdict_type_and_text() {
        let same = compare(&answer("one two three", true, "article"), &answer("one two three", true, "article"));
        assert_eq!((same.verdict_same, same.type_same, same.text_f1), (true, true, 1.0));
        let flipped = compare(&answer("one two three four", true, "article"), &answer("one two", false, "listing"));
        assert!(!flipped.verdict_same && !flipped.type_same);
        assert!((flipped.text_f1 - 2.0 / 3.0).abs() < 1e-9, "{}", flipped.text_f1);
        assert!((flipped.probability_delta + 0.7).abs() < 1e-9);
        let s = AblationScores::summarize([same, flipped].iter()).unwrap();
        assert_eq!((s.pages, s.verdict_same, s.type_same, s.text_same, s.all_same), (2, 1, 1, 1, 1));
        assert_eq!(s.all_agreement, 0.5);
        let pooled = AblationScores::merge(&s, &AblationScores::summarize([same].iter()).unwrap());
        assert_eq!((pooled.pages, pooled.all_same), (3, 2));
        assert!((pooled.mean_text_f1 - (2.0 + 2.0 / 3.0) / 3.0).abs() < 1e-9);
        assert!(AblationScores::summarize(std::iter::empty()).is_none());
    }
}
