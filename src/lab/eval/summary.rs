//! Page results folded into figures: a [`Summary`] per dataset, per dataset and page type
//! ([`by_type`]), over all pages (micro) and as the mean of the datasets (macro, [`macro_average`]),
//! and the page-type confusion ([`type_scores`]).

use serde::Serialize;

use super::PageResult;
use super::metrics::{self, Grade, HasArticleScores, TextScores};
use super::snippets::{self, SnippetScores};
use super::{ablation, metadata};

/// Aggregate figures for one set of pages. Every figure that can be undefined (no gold pages, no
/// labelled pages, no successful extraction) is an `Option`, so a missing value is never averaged in
/// as a zero.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Summary {
    /// A dataset name, or `macro` / `micro`.
    pub dataset: String,
    /// Set when the summary covers one page type of the dataset only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
    /// Set when the summary covers one language (over every dataset) only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    pub algorithm: String,
    pub pages: usize,
    pub gold_pages: usize,
    pub errors: usize,
    pub lcs_p: Option<f64>,
    pub lcs_r: Option<f64>,
    pub lcs_f1: Option<f64>,
    pub cleaneval: Option<f64>,
    pub length_p: Option<f64>,
    pub length_r: Option<f64>,
    pub length_f1: Option<f64>,
    pub shingle_p: Option<f64>,
    pub shingle_r: Option<f64>,
    /// F1 of the averaged shingle precision and recall, as the industry benchmark computes it.
    pub shingle_f1: Option<f64>,
    pub word_p: Option<f64>,
    pub word_r: Option<f64>,
    /// Mean of the pages' bag-of-words F1, as the multi-type benchmark averages it.
    pub word_f1: Option<f64>,
    /// Mean share of must-have snippets found, over pages that list some.
    pub with_rate: Option<f64>,
    /// Mean share of boilerplate snippets found, over pages that list some (lower is better).
    pub without_rate: Option<f64>,
    /// The many-language corpus's snippet metric, counts summed over the pages that list snippets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippets: Option<SnippetScores>,
    /// Lv, Cao, Wang, Yin & Zheng (*An Algorithm to Extract and Judge the Main Text Based on the Law
    /// of Total Probability*): pages with LCS P, R and F1 all >= 0.95.
    pub accurate: usize,
    pub accurate_rate: Option<f64>,
    pub excellent: usize,
    pub good: usize,
    pub poor: usize,
    pub excellent_rate: Option<f64>,
    /// Excellent and good together, as Wang, Wang, Gao, Yu & Cui (*Chinese Web Content Extraction
    /// Based on Naïve Bayes Model*) define their good rate.
    pub good_rate: Option<f64>,
    pub has_article: HasArticleScores,
    pub ms_median: Option<f64>,
    pub ms_p95: Option<f64>,
    /// Successful pages over the summed extraction time (one thread's throughput).
    pub pages_per_s: Option<f64>,
    /// Input megabytes (10^6 bytes) over the summed extraction time.
    pub mb_per_s: Option<f64>,
    /// Pages over the wall-clock time of the parallel run.
    pub wall_pages_per_s: Option<f64>,
    pub wall_s: f64,
    pub input_mb: f64,
    /// Metadata scores, over the pages with a recorded title, author or date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<metadata::MetadataScores>,
    /// Browser time per rendered page (visual methods only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_ms_median: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_ms_p95: Option<f64>,
    /// Agreement with and without the URL (`--url-ablation`), over the pages that have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_ablation: Option<ablation::AblationScores>,
}

/// How well the answered page types match the labels on one dataset.
#[derive(Debug, Clone, Serialize, Default)]
pub struct TypeScores {
    pub dataset: String,
    /// Labelled pages the algorithm gave a type for.
    pub pages: usize,
    pub accuracy: Option<f64>,
    /// `confusion[gold][answered]`: page counts, types in [`crate::lab::dataset::PAGE_TYPES`] order.
    pub confusion: Vec<Vec<usize>>,
    /// Per type, in the same order: of the pages answered as the type, the share labelled so.
    pub precision: Vec<Option<f64>>,
    /// Per type: of the pages labelled as the type, the share answered so.
    pub recall: Vec<Option<f64>>,
    /// Per type: how well the answered probability of the type matches how often pages are of it.
    pub calibration: Vec<TypeCalibration>,
}

/// One type's probability against its label, one type against the rest, over the labelled pages
/// whose answer gave probabilities.
#[derive(Debug, Clone, Serialize, Default)]
pub struct TypeCalibration {
    pub page_type: String,
    pub pages: usize,
    /// Pages labelled as the type.
    pub positives: usize,
    pub brier: Option<f64>,
    /// Expected calibration error over ten equal-width bins, as for has-article.
    pub ece: Option<f64>,
}

/// For each type, the (probability of the type, labelled as the type) pairs of the labelled pages of
/// `dataset` that carry probabilities: what a reliability diagram per type bins.
pub fn type_judgements<'a>(pages: impl Iterator<Item = &'a PageResult>, page_type: &str) -> Vec<metrics::Judgement> {
    pages
        .filter_map(|p| {
            let label = p.page_type.as_deref()?;
            let probs = p.type_probabilities.as_ref()?;
            let prob = probs.get(page_type).copied().unwrap_or(0.0);
            Some((label == page_type, prob, p.predicted_type.as_deref() == Some(page_type)))
        })
        .collect()
}

/// Page-type accuracy and confusion per dataset, for pages with both a label and an answer.
pub fn type_scores(pages: &[PageResult]) -> Vec<TypeScores> {
    use crate::lab::dataset::PAGE_TYPES;
    let index = |t: &str| PAGE_TYPES.iter().position(|x| *x == t);
    let mut out: Vec<TypeScores> = Vec::new();
    for p in pages {
        let (Some(g), Some(a)) = (p.page_type.as_deref().and_then(index), p.predicted_type.as_deref().and_then(index))
        else {
            continue;
        };
        let k = match out.iter().position(|s| s.dataset == p.dataset) {
            Some(k) => k,
            None => {
                out.push(TypeScores {
                    dataset: p.dataset.clone(),
                    confusion: vec![vec![0; PAGE_TYPES.len()]; PAGE_TYPES.len()],
                    ..TypeScores::default()
                });
                out.len() - 1
            }
        };
        out[k].confusion[g][a] += 1;
        out[k].pages += 1;
    }
    for s in &mut out {
        let right: usize = (0..PAGE_TYPES.len()).map(|k| s.confusion[k][k]).sum();
        s.accuracy = (s.pages > 0).then(|| right as f64 / s.pages as f64);
        s.recall =
            (0..PAGE_TYPES.len()).map(|k| metrics::ratio(s.confusion[k][k], s.confusion[k].iter().sum())).collect();
        s.precision = (0..PAGE_TYPES.len())
            .map(|k| metrics::ratio(s.confusion[k][k], s.confusion.iter().map(|row| row[k]).sum()))
            .collect();
        s.calibration = PAGE_TYPES
            .iter()
            .map(|t| {
                let js = type_judgements(pages.iter().filter(|p| p.dataset == s.dataset), t);
                let h = metrics::has_article(&js);
                TypeCalibration {
                    page_type: t.to_string(),
                    pages: js.len(),
                    positives: js.iter().filter(|j| j.0).count(),
                    brier: h.brier,
                    ece: h.ece,
                }
            })
            .collect();
    }
    out
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// Fold page results into one summary. `wall_s` is the wall-clock time the pages took to run.
pub fn summarize(dataset: &str, algorithm: &str, pages: &[PageResult], wall_s: f64) -> Summary {
    let scored: Vec<&TextScores> = pages.iter().filter_map(|p| p.scores.as_ref()).collect();
    let avg = |f: &dyn Fn(&TextScores) -> f64| mean(scored.iter().map(|s| f(s)));
    let rate = |n: usize| (!scored.is_empty()).then(|| n as f64 / scored.len() as f64);
    let count = |g: Grade| scored.iter().filter(|s| s.grade == g).count();
    let (excellent, good, poor) = (count(Grade::Excellent), count(Grade::Good), count(Grade::Poor));
    let accurate = scored.iter().filter(|s| s.accurate).count();
    let shingle_p = avg(&|s| s.shingle.p);
    let shingle_r = avg(&|s| s.shingle.r);
    let judgements: Vec<metrics::Judgement> =
        pages.iter().filter_map(|p| p.has_article.map(|l| (l, p.probability, p.is_article))).collect();
    let mut ms: Vec<f64> = pages.iter().filter_map(|p| p.ms).collect();
    let total_s = ms.iter().sum::<f64>() / 1000.0;
    let ok_bytes: usize = pages.iter().filter(|p| p.ms.is_some()).map(|p| p.bytes).sum();
    let (ms_median, ms_p95) = metrics::median_p95(&mut ms);
    let mut rendered: Vec<f64> = pages.iter().filter_map(|p| p.render_ms).collect();
    let (render_ms_median, render_ms_p95) = metrics::median_p95(&mut rendered);
    Summary {
        dataset: dataset.to_string(),
        algorithm: algorithm.to_string(),
        pages: pages.len(),
        gold_pages: scored.len(),
        errors: pages.iter().filter(|p| p.error.is_some()).count(),
        lcs_p: avg(&|s| s.lcs.p),
        lcs_r: avg(&|s| s.lcs.r),
        lcs_f1: avg(&|s| s.lcs.f1),
        cleaneval: avg(&|s| s.cleaneval),
        length_p: avg(&|s| s.length.p),
        length_r: avg(&|s| s.length.r),
        length_f1: avg(&|s| s.length.f1),
        shingle_p,
        shingle_r,
        shingle_f1: shingle_p.zip(shingle_r).map(|(p, r)| metrics::f1(p, r)),
        word_p: avg(&|s| s.word.p),
        word_r: avg(&|s| s.word.r),
        word_f1: avg(&|s| s.word.f1),
        with_rate: mean(pages.iter().filter_map(|p| p.with_rate)),
        without_rate: mean(pages.iter().filter_map(|p| p.without_rate)),
        snippets: snippets::score(pages.iter().filter_map(|p| p.snippets.as_ref())),
        page_type: None,
        lang: None,
        accurate,
        accurate_rate: rate(accurate),
        excellent,
        good,
        poor,
        excellent_rate: rate(excellent),
        good_rate: rate(excellent + good),
        has_article: metrics::has_article(&judgements),
        ms_median,
        ms_p95,
        pages_per_s: (total_s > 0.0).then(|| ms.len() as f64 / total_s),
        mb_per_s: (total_s > 0.0).then(|| ok_bytes as f64 / 1e6 / total_s),
        wall_pages_per_s: (wall_s > 0.0).then(|| pages.len() as f64 / wall_s),
        wall_s,
        input_mb: pages.iter().map(|p| p.bytes).sum::<usize>() as f64 / 1e6,
        metadata: metadata::summarize(pages.iter().filter_map(|p| p.metadata.as_ref())),
        render_ms_median,
        render_ms_p95,
        url_ablation: ablation::AblationScores::summarize(pages.iter().filter_map(|p| p.url_ablation.as_ref())),
    }
}

/// One summary per dataset and page type, in dataset order then [`crate::lab::dataset::PAGE_TYPES`] order,
/// for the pages that carry a type. Wall-clock figures are not split by type (they are 0 here).
pub fn by_type(algorithm: &str, pages: &[PageResult]) -> Vec<Summary> {
    let mut out = Vec::new();
    for ds in datasets_of(pages.iter().filter(|p| p.page_type.is_some())) {
        for t in crate::lab::dataset::PAGE_TYPES {
            let of_type: Vec<PageResult> =
                pages.iter().filter(|p| p.dataset == ds && p.page_type.as_deref() == Some(t)).cloned().collect();
            if !of_type.is_empty() {
                let mut s = summarize(ds, algorithm, &of_type, 0.0);
                s.page_type = Some(t.to_string());
                out.push(s);
            }
        }
    }
    out
}

/// The datasets `pages` come from, in the order they first appear.
fn datasets_of<'a>(pages: impl Iterator<Item = &'a PageResult>) -> Vec<&'a str> {
    let mut sets: Vec<&str> = Vec::new();
    for p in pages {
        if !sets.contains(&p.dataset.as_str()) {
            sets.push(&p.dataset);
        }
    }
    sets
}

/// One summary per language over all datasets (its `dataset` names the datasets it draws on), the
/// languages with most pages first. Wall-clock figures are not split (they are 0 here).
pub fn by_lang(algorithm: &str, pages: &[PageResult]) -> Vec<Summary> {
    let mut langs: Vec<(&str, usize)> = Vec::new();
    for p in pages {
        match langs.iter_mut().find(|(l, _)| *l == p.lang) {
            Some((_, n)) => *n += 1,
            None => langs.push((&p.lang, 1)),
        }
    }
    langs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    langs
        .into_iter()
        .map(|(l, _)| {
            let of_lang: Vec<PageResult> = pages.iter().filter(|p| p.lang == l).cloned().collect();
            let mut s = summarize(&datasets_of(of_lang.iter()).join(","), algorithm, &of_lang, 0.0);
            s.lang = Some(l.to_string());
            s
        })
        .collect()
}

/// The mean of the datasets' figures, each over the datasets where it is defined; counts are summed.
/// The shingle F1 is again taken from the averaged precision and recall.
pub fn macro_average(algorithm: &str, sets: &[Summary]) -> Summary {
    let m = |f: &dyn Fn(&Summary) -> Option<f64>| mean(sets.iter().filter_map(f));
    let sum = |f: &dyn Fn(&Summary) -> usize| sets.iter().map(f).sum::<usize>();
    let ha = |f: &dyn Fn(&HasArticleScores) -> Option<f64>| mean(sets.iter().filter_map(|s| f(&s.has_article)));
    let shingle_p = m(&|s| s.shingle_p);
    let shingle_r = m(&|s| s.shingle_r);
    Summary {
        dataset: "macro".to_string(),
        algorithm: algorithm.to_string(),
        pages: sum(&|s| s.pages),
        gold_pages: sum(&|s| s.gold_pages),
        errors: sum(&|s| s.errors),
        lcs_p: m(&|s| s.lcs_p),
        lcs_r: m(&|s| s.lcs_r),
        lcs_f1: m(&|s| s.lcs_f1),
        cleaneval: m(&|s| s.cleaneval),
        length_p: m(&|s| s.length_p),
        length_r: m(&|s| s.length_r),
        length_f1: m(&|s| s.length_f1),
        shingle_p,
        shingle_r,
        shingle_f1: shingle_p.zip(shingle_r).map(|(p, r)| metrics::f1(p, r)),
        word_p: m(&|s| s.word_p),
        word_r: m(&|s| s.word_r),
        word_f1: m(&|s| s.word_f1),
        with_rate: m(&|s| s.with_rate),
        without_rate: m(&|s| s.without_rate),
        snippets: snippets::mean_of(sets.iter().filter_map(|s| s.snippets.as_ref())),
        page_type: None,
        lang: None,
        accurate: sum(&|s| s.accurate),
        accurate_rate: m(&|s| s.accurate_rate),
        excellent: sum(&|s| s.excellent),
        good: sum(&|s| s.good),
        poor: sum(&|s| s.poor),
        excellent_rate: m(&|s| s.excellent_rate),
        good_rate: m(&|s| s.good_rate),
        has_article: HasArticleScores {
            n: sets.iter().map(|s| s.has_article.n).sum(),
            tp: sets.iter().map(|s| s.has_article.tp).sum(),
            fp: sets.iter().map(|s| s.has_article.fp).sum(),
            tn: sets.iter().map(|s| s.has_article.tn).sum(),
            fn_: sets.iter().map(|s| s.has_article.fn_).sum(),
            accuracy: ha(&|h| h.accuracy),
            precision: ha(&|h| h.precision),
            recall: ha(&|h| h.recall),
            f1: ha(&|h| h.f1),
            auc: ha(&|h| h.auc),
            brier: ha(&|h| h.brier),
            ece: ha(&|h| h.ece),
        },
        ms_median: m(&|s| s.ms_median),
        ms_p95: m(&|s| s.ms_p95),
        pages_per_s: m(&|s| s.pages_per_s),
        mb_per_s: m(&|s| s.mb_per_s),
        wall_pages_per_s: m(&|s| s.wall_pages_per_s),
        wall_s: sets.iter().map(|s| s.wall_s).sum(),
        input_mb: sets.iter().map(|s| s.input_mb).sum(),
        // Pooled: a dataset without recorded metadata adds nothing.
        metadata: sets.iter().filter_map(|s| s.metadata.as_ref()).fold(None, |acc, m| {
            Some(acc.map_or(*m, |a: metadata::MetadataScores| metadata::MetadataScores::merge(&a, m)))
        }),
        render_ms_median: m(&|s| s.render_ms_median),
        render_ms_p95: m(&|s| s.render_ms_p95),
        // Pooled over pages, as metadata.
        url_ablation: sets.iter().filter_map(|s| s.url_ablation.as_ref()).fold(None, |acc, u| {
            Some(acc.map_or(*u, |a: ablation::AblationScores| ablation::AblationScores::merge(&a, u)))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::eval::metrics::Gold;

    fn page(gold: Option<(&str, &str)>, label: Option<bool>, p: f64, ms: Option<f64>) -> PageResult {
        PageResult {
            bytes: 1000,
            ms,
            error: ms.is_none().then(|| "boom".to_string()),
            has_article: label,
            probability: p,
            is_article: p >= 0.5,
            scores: gold.map(|(pred, g)| {
                let g = Gold::new(g);
                metrics::score(&g.predicted(pred), &g.words)
            }),
            ..PageResult::blank("d", "x", "a")
        }
    }

    #[test]
    fn summary_averages_pages_and_takes_shingle_f1_from_the_averages() {
        let pages = [
            page(Some(("a b c d", "a b c d")), Some(true), 0.9, Some(2.0)),
            page(Some(("", "a b c d e")), Some(false), 0.2, None),
            page(None, Some(true), 0.7, Some(4.0)),
        ];
        let s = summarize("d", "a", &pages, 0.5);
        assert_eq!((s.pages, s.gold_pages, s.errors), (3, 2, 1));
        assert_eq!(s.lcs_f1, Some(0.5));
        assert_eq!((s.shingle_p, s.shingle_r), (Some(0.5), Some(0.5)));
        assert_eq!(s.shingle_f1, Some(0.5));
        assert_eq!((s.excellent, s.good, s.poor, s.accurate), (1, 0, 1, 1));
        assert_eq!(s.good_rate, Some(0.5));
        assert_eq!(s.has_article.accuracy, Some(1.0));
        assert_eq!(s.ms_median, Some(3.0));
        // 2 successful pages in 6 ms; 2000 bytes.
        assert!((s.pages_per_s.unwrap() - 2.0 / 0.006).abs() < 1e-6);
        assert!((s.mb_per_s.unwrap() - 0.002 / 0.006).abs() < 1e-9);
        assert_eq!(s.wall_pages_per_s, Some(6.0));

        // Shingle F1 of averages differs from the average of per-page F1 when P and R are skewed.
        let skew = [
            page(Some(("a b c d", "a b c d x y z w")), None, 0.0, Some(1.0)),
            page(Some(("a b c d e f g h", "e f g h")), None, 0.0, Some(1.0)),
        ];
        let s = summarize("d", "a", &skew, 1.0);
        let (p, r) = ((1.0 + 0.2) / 2.0, (0.2 + 1.0) / 2.0);
        assert!((s.shingle_f1.unwrap() - metrics::f1(p, r)).abs() < 1e-12);
    }

    #[test]
    fn languages_pool_pages_across_datasets() {
        let mut a = page(Some(("a b", "a b")), Some(true), 0.9, Some(1.0));
        let mut b = page(None, Some(false), 0.1, Some(1.0));
        let mut c = page(None, None, 0.1, Some(1.0));
        b.dataset = "e".into();
        (a.lang, b.lang, c.lang) = ("zh".into(), "zh".into(), "de".into());
        c.snippets = Some(crate::lab::eval::snippets::SnippetCounts { tp: 1, fn_: 1, fp: 0, tn: 2 });
        let langs = by_lang("x", &[a, b, c]);
        assert_eq!(langs.len(), 2);
        assert_eq!((langs[0].lang.as_deref(), langs[0].pages, langs[0].dataset.as_str()), (Some("zh"), 2, "d,e"));
        assert_eq!(langs[0].has_article.accuracy, Some(1.0));
        assert_eq!(langs[0].snippets, None);
        assert_eq!(langs[1].snippets.and_then(|s| s.recall), Some(0.5));
    }

    #[test]
    fn page_types_have_precision_recall_and_calibration() {
        let typed = |gold: &str, answered: &str, p_article: f64| {
            let mut r = page(None, None, p_article, Some(1.0));
            r.page_type = Some(gold.into());
            r.predicted_type = Some(answered.into());
            let probs = [("article", p_article), ("listing", 1.0 - p_article)];
            r.type_probabilities = Some(probs.iter().map(|(k, v)| (k.to_string(), *v)).collect());
            r
        };
        let pages =
            [typed("article", "article", 0.9), typed("listing", "article", 0.6), typed("listing", "listing", 0.2)];
        let s = &type_scores(&pages)[0];
        let (article, listing) = (0, 4);
        assert_eq!(s.precision[article], Some(0.5));
        assert_eq!(s.recall[article], Some(1.0));
        assert_eq!((s.precision[listing], s.recall[listing]), (Some(1.0), Some(0.5)));
        assert_eq!(s.precision[1], None);
        let c = &s.calibration[article];
        assert_eq!((c.pages, c.positives), (3, 1));
        // Brier: (0.9−1)² + 0.6² + 0.2², over 3.
        assert!((c.brier.unwrap() - (0.01 + 0.36 + 0.04) / 3.0).abs() < 1e-12);
        assert_eq!(s.calibration[1].positives, 0);
    }

    #[test]
    fn macro_skips_undefined_figures() {
        let a = summarize("a", "x", &[page(Some(("a b", "a b")), Some(true), 0.9, Some(1.0))], 1.0);
        let b = summarize("b", "x", &[page(None, Some(false), 0.9, Some(3.0))], 1.0);
        let m = macro_average("x", &[a, b]);
        // Only the first set has gold: its F1 is the macro F1, not halved by the second.
        assert_eq!(m.lcs_f1, Some(1.0));
        assert_eq!(m.has_article.accuracy, Some(0.5));
        assert_eq!(m.ms_median, Some(2.0));
        assert_eq!(m.pages, 2);
    }
}
