//! What the page shows, chosen from the page results: each algorithm's worst pages under its
//! datasets' metrics, and the has-article (or a page type's) probabilities binned for the reliability
//! diagrams.

use crate::lab::eval::PageResult;
use crate::lab::eval::anchors::{Anchors, Metric};
use crate::lab::eval::metrics::Judgement;

/// One of the worst pages of an algorithm, with the link to its explanation page (relative to the
/// report) once it is written.
#[derive(Debug, Clone)]
pub struct Worst<'a> {
    pub page: &'a PageResult,
    pub metric: Metric,
    pub f1: f64,
    /// The page's address, from its dataset (filled in by [`super::write()`]).
    pub url: Option<String>,
    pub href: Option<String>,
}

/// The `n` pages of `algorithm` with the lowest F1, each under its dataset's metric; ties in dataset
/// and id order, so the list is the same from run to run.
pub fn worst<'a>(pages: &'a [PageResult], anchors: &Anchors, algorithm: &str, n: usize) -> Vec<Worst<'a>> {
    let mut out: Vec<Worst<'a>> = pages
        .iter()
        .filter(|p| p.algorithm == algorithm)
        .filter_map(|p| {
            let metric = anchors.metric(&p.dataset);
            let f1 = metric.of_page(p.scores.as_ref()?);
            Some(Worst { page: p, metric, f1, url: None, href: None })
        })
        .collect();
    out.sort_by(|a, b| {
        a.f1.total_cmp(&b.f1).then_with(|| a.page.dataset.cmp(&b.page.dataset)).then_with(|| a.page.id.cmp(&b.page.id))
    });
    out.truncate(n);
    out
}

/// One bin of the reliability diagram: labelled pages whose probability fell in it, their mean
/// probability and the share of them labelled as articles.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Bin {
    pub n: usize,
    pub mean_p: f64,
    pub share: f64,
}

/// Ten equal-width bins of the has-article probability (the last one closed), as the expected
/// calibration error in [`crate::lab::eval::metrics::has_article`] bins them.
pub fn reliability<'a>(pages: impl Iterator<Item = &'a PageResult>) -> [Bin; 10] {
    let js: Vec<Judgement> = pages.filter_map(|p| Some((p.has_article?, p.probability, p.is_article))).collect();
    bins(&js)
}

/// Ten equal-width bins of any (label, probability) judgements: a page type's probability against
/// its label in the per-type diagrams.
pub fn bins(js: &[Judgement]) -> [Bin; 10] {
    let mut sums = [(0usize, 0.0f64, 0.0f64); 10];
    for &(label, p, _) in js {
        let k = ((p * 10.0).floor().max(0.0) as usize).min(9);
        sums[k].0 += 1;
        sums[k].1 += p;
        sums[k].2 += if label { 1.0 } else { 0.0 };
    }
    sums.map(|(n, ps, ys)| if n == 0 { Bin::default() } else { Bin { n, mean_p: ps / n as f64, share: ys / n as f64 } })
}

#[cfg(test)]
mod tests {
    use super::super::tests::page;
    use super::*;

    #[test]
    fn reliability_bins_like_the_calibration_error() {
        let text = "a b c d";
        let pages: Vec<PageResult> = [(0.0, false), (0.05, true), (0.55, true), (1.0, true), (1.0, false)]
            .iter()
            .map(|&(p, l)| page("x", "d", text, text, Some(l), p, None))
            .chain([page("y", "d", text, text, None, 0.5, None)])
            .collect();
        let bins = reliability(pages.iter());
        assert_eq!(bins[0], Bin { n: 2, mean_p: 0.025, share: 0.5 });
        assert_eq!(bins[5], Bin { n: 1, mean_p: 0.55, share: 1.0 });
        assert_eq!(bins[9], Bin { n: 2, mean_p: 1.0, share: 0.5 });
        assert_eq!(bins.iter().map(|b| b.n).sum::<usize>(), 5);
    }
}
