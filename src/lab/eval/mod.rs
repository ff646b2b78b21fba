//! `pith eval`: the seed papers' accuracy measures, the industry benchmark's, the has-article
//! judgement and speed, over labelled datasets, through the library (no subprocess per page).
//!
//! The runner loads a dataset's page bytes and tokenised gold texts once, then runs each algorithm over
//! all pages on a local rayon pool, so `--jobs` is honoured exactly and the caller's global pool is not
//! touched. Each page yields a [`PageResult`]; [`summarize`] folds a set of them into a [`Summary`],
//! per dataset, over all pages (micro) and as the mean of the datasets (macro, [`macro_average`]).
//! [`report`] renders the summaries as aligned text, markdown or JSON; [`html`] as a page with charts
//! beside the peers' figures ([`anchors`]).

pub mod ablation;
pub mod anchors;
pub mod html;
pub mod lcs;
pub mod metadata;
pub mod metrics;
pub mod report;

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::lab::dataset::{Dataset, Page};
use crate::{Algorithm, Engine, Error, Request};
use metrics::{Gold, Grade, HasArticleScores, TextScores};

/// The algorithms `all` stands for: every registered name except `template`, which only answers on
/// sites that have a rule and would report errors everywhere else, and the visual methods, which need
/// a browser per page (name them to run them).
pub fn all_algorithms() -> Vec<Algorithm> {
    crate::algorithms::ALGORITHMS.iter().copied().filter(|&a| a != Algorithm::Template && !a.needs().layout).collect()
}

/// Lays a page out for the visual methods: `(engine, bytes)` → layout, or why not.
pub type LayoutFn<'a> = &'a (dyn Fn(&Engine, &[u8]) -> Result<crate::dom::layout::Layout, String> + Sync);

/// How much of the datasets to run, and how to render.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// At most this many pages per dataset, spread evenly over it (every k-th page), so a subset still
    /// covers the whole set's sources.
    pub max_pages: Option<usize>,
    /// The renderer for algorithms that need a layout (without one they report an error per page).
    pub layout: Option<LayoutFn<'a>>,
    /// Extract every page that has a URL a second time without it, and compare ([`ablation`]).
    pub url_ablation: bool,
    /// Cross-validation only: where each fold's models are kept ([`FoldModels`]).
    pub fold_models: Option<FoldModels<'a>>,
}

/// Each fold's trained models kept in a directory (`fold-F-of-K/`, with a `cv.json` saying which
/// datasets, folds and training settings they came from), so that a second cross-validation with other
/// extraction settings (thresholds, say) skips the half hour of training: a fold's directory is read
/// when its `cv.json` matches the run, trained and written when absent, and refused when it differs.
/// They stay valid only while the block features are unchanged; `page_models` retrains each fold's
/// page models (has-article, page type) over its saved block models, for changes to the page signals,
/// and writes them back in place of the old ones.
#[derive(Clone, Copy)]
pub struct FoldModels<'a> {
    pub dir: &'a Path,
    pub page_models: bool,
}

/// The indexes of at most `max` of `n` pages, evenly spread.
pub fn spread(n: usize, max: Option<usize>) -> Vec<usize> {
    match max {
        Some(m) if m < n => (0..m).map(|k| k * n / m).collect(),
        _ => (0..n).collect(),
    }
}

/// One page run through one algorithm.
#[derive(Debug, Clone, Serialize)]
pub struct PageResult {
    pub dataset: String,
    pub id: String,
    pub algorithm: String,
    pub bytes: usize,
    /// `timings_ms.total` of the extraction; `None` when it failed.
    pub ms: Option<f64>,
    /// The engine's error; the page then counts as an empty prediction.
    pub error: Option<String>,
    /// The label, when the page has one.
    pub has_article: Option<bool>,
    /// The page type label, when the dataset has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
    /// The page type the algorithm answered (`auto` with a page-type model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted_type: Option<String>,
    /// Share of the page's must-have snippets found in the text (pages that list some).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with_rate: Option<f64>,
    /// Share of the page's boilerplate snippets found in the text (lower is better).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub without_rate: Option<f64>,
    pub probability: f64,
    pub is_article: bool,
    /// Text metrics, when the page has gold text.
    pub scores: Option<TextScores>,
    /// The has-article signals the algorithm reported (`auto` only).
    #[serde(skip_serializing_if = "crate::output::Signals::is_empty")]
    pub signals: crate::output::Signals,
    /// Metadata against the page's recorded title, author and date, when it has any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<metadata::MetaResult>,
    /// Milliseconds the browser took to lay the page out (visual methods only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_ms: Option<f64>,
    /// The page extracted again without its URL (`--url-ablation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url_ablation: Option<ablation::UrlAblation>,
    /// Under cross-validation, the fold whose models extracted the page (`fold-N-of-K` in
    /// `--cv-models`): the models to load to look at one page as the evaluation saw it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fold: Option<usize>,
}

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
    /// Seed 001: pages with LCS P, R and F1 all >= 0.95.
    pub accurate: usize,
    pub accurate_rate: Option<f64>,
    pub excellent: usize,
    pub good: usize,
    pub poor: usize,
    pub excellent_rate: Option<f64>,
    /// Excellent and good together, as seed 000 defines its good rate.
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

/// Everything one algorithm produced.
#[derive(Debug, Clone, Serialize)]
pub struct AlgorithmReport {
    pub algorithm: String,
    pub datasets: Vec<Summary>,
    /// Mean of the datasets' figures (each dataset weighs the same).
    #[serde(rename = "macro")]
    pub macro_avg: Summary,
    /// All pages pooled (each page weighs the same).
    pub micro: Summary,
    /// Per dataset and page type, for the datasets that label page types.
    pub by_type: Vec<Summary>,
    /// Page-type accuracy and confusion, per dataset that labels page types (algorithms that answer
    /// a page type only).
    pub page_types: Vec<TypeScores>,
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
    }
    out
}

/// The whole evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub datasets: Vec<String>,
    pub jobs: usize,
    /// Wall-clock seconds for everything: loading, extraction and scoring.
    pub wall_s: f64,
    pub algorithms: Vec<AlgorithmReport>,
}

/// A dataset in memory: page bytes and tokenised gold texts, shared by every algorithm.
struct Loaded {
    name: String,
    pages: Vec<Page>,
    bytes: Vec<Result<Vec<u8>, String>>,
    gold: Vec<Option<Gold>>,
}

fn load(dir: &Path, pool: &rayon::ThreadPool, max_pages: Option<usize>) -> Result<Loaded, Error> {
    let mut ds = Dataset::open(dir)?;
    if max_pages.is_some() {
        let keep = spread(ds.pages.len(), max_pages);
        let mut all: Vec<Option<Page>> = std::mem::take(&mut ds.pages).into_iter().map(Some).collect();
        ds.pages = keep.into_iter().filter_map(|k| all[k].take()).collect();
    }
    let (bytes, gold) = pool.install(|| {
        let bytes: Vec<_> = ds.pages.par_iter().map(|p| ds.html(p).map_err(|e| e.to_string())).collect();
        let gold: Vec<_> = ds.pages.par_iter().map(|p| p.gold.as_deref().map(Gold::new)).collect();
        (bytes, gold)
    });
    Ok(Loaded { name: ds.name, pages: ds.pages, bytes, gold })
}

fn run_page<'e>(
    engine_for: EngineFor<'_, 'e>,
    algorithm: Algorithm,
    ds: &Loaded,
    k: usize,
    opts: &Options<'_>,
) -> PageResult {
    let page = &ds.pages[k];
    let (engine, fold) = engine_for(&ds.name, page);
    let (bytes, read_error) = match &ds.bytes[k] {
        Ok(b) => (b.as_slice(), None),
        Err(e) => (&[][..], Some(e.clone())),
    };
    let options = crate::Options { html: false, blocks: false, ..crate::Options::for_algorithm(algorithm) };
    let req = Request { url: page.url.as_deref(), ..Request::with_options(bytes, options) };
    let mut signals = crate::output::Signals::new();
    let mut predicted_type = None;
    // The visual methods: the page laid out first (a browser failure is this page's error).
    let layout = match (algorithm.needs().layout, read_error.is_none(), opts.layout) {
        (true, true, Some(f)) => Some(f(engine, bytes)),
        _ => None,
    };
    let render_ms = match &layout {
        Some(Ok(l)) => Some(l.render_ms),
        _ => None,
    };
    let read_error = match (&layout, read_error) {
        (_, Some(e)) => Some(e),
        (Some(Err(e)), None) => Some(format!("render: {e}")),
        _ => None,
    };
    let extract = |req: &Request<'_>| match &layout {
        Some(Ok(l)) => engine.extract_rendered(req, l),
        _ => engine.extract(req),
    };
    let gold_meta = metadata::MetaGold {
        title: page.title.clone(),
        author: page.author.clone(),
        publish_date: page.publish_date.clone(),
    };
    let mut found_meta = crate::metadata::Metadata::default();
    let (text, probability, is_article, ms, error) = match read_error {
        Some(e) => (String::new(), 0.0, false, None, Some(e)),
        // A panic in one algorithm on one page is a finding to report, not a reason to lose the run.
        None => match std::panic::catch_unwind(AssertUnwindSafe(|| extract(&req))) {
            Ok(Ok(x)) => {
                signals = x.has_article.signals;
                predicted_type = x.page_type.map(|t| t.label);
                found_meta = x.metadata;
                (x.content.text, x.has_article.probability, x.has_article.is_article, Some(x.timings_ms.total), None)
            }
            Ok(Err(e)) => (String::new(), 0.0, false, None, Some(e.to_string())),
            Err(panic) => (String::new(), 0.0, false, None, Some(format!("panic: {}", panic_message(&*panic)))),
        },
    };
    let url_ablation = match (opts.url_ablation, &error, page.url.as_deref()) {
        (true, None, Some(_)) => {
            let again = std::panic::catch_unwind(AssertUnwindSafe(|| extract(&Request { url: None, ..req })));
            let with = ablation::Answer { text: &text, is_article, probability, page_type: predicted_type.as_deref() };
            Some(match again {
                Ok(Ok(x)) => ablation::compare(
                    &with,
                    &ablation::Answer {
                        text: &x.content.text,
                        is_article: x.has_article.is_article,
                        probability: x.has_article.probability,
                        page_type: x.page_type.as_ref().map(|t| t.label.as_str()),
                    },
                ),
                // An error without the URL that the page did not have with it: nothing agrees.
                _ => ablation::compare(
                    &with,
                    &ablation::Answer { text: "", is_article: !is_article, probability: 0.0, page_type: None },
                ),
            })
        }
        _ => None,
    };
    let scores = ds.gold[k].as_ref().map(|g| metrics::score(&g.predicted(&text), &g.words));
    let lower = if page.with.is_empty() && page.without.is_empty() { String::new() } else { text.to_lowercase() };
    PageResult {
        page_type: page.page_type.clone(),
        predicted_type,
        with_rate: metrics::snippet_rate(&lower, &page.with),
        without_rate: metrics::snippet_rate(&lower, &page.without),
        dataset: ds.name.clone(),
        id: page.id.clone(),
        algorithm: algorithm.to_string(),
        bytes: bytes.len(),
        ms,
        error,
        has_article: page.has_article,
        probability,
        is_article,
        scores,
        signals,
        metadata: (!gold_meta.is_empty()).then(|| metadata::score(&found_meta, &gold_meta)),
        render_ms,
        url_ablation,
        fold,
    }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".to_string())
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
        page_type: None,
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
    let mut sets: Vec<&str> = Vec::new();
    for p in pages.iter().filter(|p| p.page_type.is_some()) {
        if !sets.contains(&p.dataset.as_str()) {
            sets.push(&p.dataset);
        }
    }
    let mut out = Vec::new();
    for ds in sets {
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
        page_type: None,
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

/// Which engine extracts a page, and under cross-validation the fold it belongs to.
pub type EngineFor<'a, 'e> = &'a (dyn Fn(&str, &Page) -> (&'e Engine, Option<usize>) + Sync);

/// Run `algorithms` over every page of `datasets` with `jobs` threads. `on_page` sees every page result
/// (for `--per-page`), in dataset, algorithm, page order.
pub fn run(
    engine: &Engine,
    datasets: &[PathBuf],
    algorithms: &[Algorithm],
    jobs: usize,
    on_page: impl FnMut(&PageResult) -> Result<(), Error>,
) -> Result<Report, Error> {
    run_with(&|_, _| (engine, None), datasets, algorithms, jobs, &Options::default(), on_page)
}

/// [`run`] with [`Options`]: a subset of pages, a renderer for the visual methods.
pub fn run_opts(
    engine: &Engine,
    datasets: &[PathBuf],
    algorithms: &[Algorithm],
    jobs: usize,
    opts: &Options<'_>,
    on_page: impl FnMut(&PageResult) -> Result<(), Error>,
) -> Result<Report, Error> {
    run_with(&|_, _| (engine, None), datasets, algorithms, jobs, opts, on_page)
}

/// A page's fold from its dataset name and id.
type FoldOf = dyn Fn(&str, &str) -> usize + Sync;

/// How cross-validation splits the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folds {
    /// `k` folds grouped by site ([`crate::lab::train::SiteFolds`]): no site is both trained on and scored.
    Sites(usize),
    /// One fold per dataset: each dataset is scored by models trained on the others only, the closest
    /// stand-in for sources never seen.
    Datasets,
}

/// Cross-validation: for each fold every model (Naive Bayes, block classifier, has-article) is trained
/// from `base` on the other folds' pages, and the fold's pages are extracted with those models only.
/// The report then holds figures for pages no model saw in training, the honest estimate of how the
/// shipped models do on new pages.
pub fn cross_validate(
    base: &Engine,
    datasets: &[PathBuf],
    algorithms: &[Algorithm],
    jobs: usize,
    (folds, learn): (Folds, &crate::lab::train::Learn),
    opts: &Options<'_>,
    on_page: impl FnMut(&PageResult) -> Result<(), Error>,
) -> Result<Report, Error> {
    let t0 = Instant::now();
    let sets = datasets.iter().map(|d| Dataset::open(d)).collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = sets.iter().map(|s| s.name.clone()).collect();
    let (k, fold): (usize, Box<FoldOf>) = match folds {
        Folds::Sites(k) => {
            let folds = crate::lab::train::SiteFolds::new(&sets, k)?;
            (folds.k(), Box::new(move |ds: &str, id: &str| folds.of(ds, id)))
        }
        Folds::Datasets => {
            let names = names.clone();
            (sets.len(), Box::new(move |ds: &str, _: &str| names.iter().position(|n| n == ds).unwrap_or(0)))
        }
    };
    let mut engines = Vec::with_capacity(k);
    for f in 0..k {
        let keep = |ds: &Dataset, p: &Page| fold(&ds.name, &p.id) != f;
        let engine = match opts.fold_models {
            None => crate::lab::train::train_all(base, &sets, &keep, learn)?,
            Some(saved) => {
                let split = match folds {
                    Folds::Sites(_) => format!("sites {k}"),
                    Folds::Datasets => "datasets".into(),
                };
                let manifest =
                    serde_json::json!({ "datasets": names, "folds": split, "fold": f, "learn": format!("{learn:?}") });
                saved_fold(base, &sets, &keep, learn, saved, &saved.dir.join(format!("fold-{f}-of-{k}")), manifest)?
            }
        };
        engines.push(engine);
    }
    let mut report = run_with(
        &|ds, p| {
            let f = fold(ds, &p.id);
            (&engines[f], Some(f))
        },
        datasets,
        algorithms,
        jobs,
        opts,
        on_page,
    )?;
    // The wall clock covers the training of every fold, not only the extraction.
    report.wall_s = t0.elapsed().as_secs_f64();
    Ok(report)
}

/// One fold's engine from its saved models in `dir` when `dir/cv.json` is `manifest` (the page models
/// retrained over them when [`FoldModels::page_models`] asks), trained and saved there when `dir` holds
/// none, refused when it holds another cross-validation's.
fn saved_fold(
    base: &Engine,
    sets: &[Dataset],
    keep: crate::lab::train::PageFilter<'_>,
    learn: &crate::lab::train::Learn,
    saved: FoldModels<'_>,
    dir: &Path,
    manifest: serde_json::Value,
) -> Result<Engine, Error> {
    let manifest_path = dir.join("cv.json");
    let config_error = |e: &dyn std::fmt::Display| Error::Config(format!("{}: {e}", manifest_path.display()));
    match std::fs::read_to_string(&manifest_path) {
        Ok(text) => {
            let found: serde_json::Value = serde_json::from_str(&text).map_err(|e| config_error(&e))?;
            if found != manifest {
                return Err(Error::Config(format!(
                    "{} holds models of another cross-validation ({found}); this one is {manifest}: use another directory",
                    dir.display()
                )));
            }
            let mut engine = base.clone();
            engine.models.load_dir(dir)?;
            if saved.page_models {
                crate::lab::train::train_page_models(&mut engine, sets, keep)?;
                // Written back, so that the next run without the flag scores these page models, not
                // the ones they replace.
                engine.models.save_dir(dir)?;
            }
            Ok(engine)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let engine = crate::lab::train::train_all(base, sets, keep, learn)?;
            engine.models.save_dir(dir)?;
            std::fs::write(&manifest_path, manifest.to_string()).map_err(|e| config_error(&e))?;
            Ok(engine)
        }
        Err(e) => Err(config_error(&e)),
    }
}

/// [`run`] with an engine chosen per page.
pub fn run_with<'e>(
    engine_for: EngineFor<'_, 'e>,
    datasets: &[PathBuf],
    algorithms: &[Algorithm],
    jobs: usize,
    opts: &Options<'_>,
    mut on_page: impl FnMut(&PageResult) -> Result<(), Error>,
) -> Result<Report, Error> {
    let t0 = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| Error::Config(format!("thread pool: {e}")))?;
    // per_algo[a] = (per-dataset summaries, all page results of that algorithm)
    let mut per_algo: Vec<(Vec<Summary>, Vec<PageResult>)> = algorithms.iter().map(|_| Default::default()).collect();
    let mut names = Vec::with_capacity(datasets.len());
    for dir in datasets {
        let ds = load(dir, &pool, opts.max_pages)?;
        names.push(ds.name.clone());
        for (a, algorithm) in algorithms.iter().enumerate() {
            let t = Instant::now();
            crate::lab::progress::phase(&format!("eval {} {}", ds.name, algorithm.name()), Some(ds.pages.len() as u64));
            let results: Vec<PageResult> = pool.install(|| {
                (0..ds.pages.len())
                    .into_par_iter()
                    .map(|k| {
                        let r = run_page(engine_for, *algorithm, &ds, k, opts);
                        crate::lab::progress::advance(1);
                        r
                    })
                    .collect()
            });
            let wall = t.elapsed().as_secs_f64();
            for r in &results {
                on_page(r)?;
            }
            per_algo[a].0.push(summarize(&ds.name, algorithm.name(), &results, wall));
            per_algo[a].1.extend(results);
        }
    }
    let reports = algorithms
        .iter()
        .zip(per_algo)
        .map(|(algorithm, (sets, pages))| {
            let wall: f64 = sets.iter().map(|s| s.wall_s).sum();
            AlgorithmReport {
                algorithm: algorithm.to_string(),
                macro_avg: macro_average(algorithm.name(), &sets),
                micro: summarize("micro", algorithm.name(), &pages, wall),
                by_type: by_type(algorithm.name(), &pages),
                page_types: type_scores(&pages),
                datasets: sets,
            }
        })
        .collect();
    Ok(Report { datasets: names, jobs: jobs.max(1), wall_s: t0.elapsed().as_secs_f64(), algorithms: reports })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(gold: Option<(&str, &str)>, label: Option<bool>, p: f64, ms: Option<f64>) -> PageResult {
        PageResult {
            dataset: "d".into(),
            id: "x".into(),
            algorithm: "a".into(),
            bytes: 1000,
            ms,
            error: ms.is_none().then(|| "boom".to_string()),
            has_article: label,
            page_type: None,
            predicted_type: None,
            with_rate: None,
            without_rate: None,
            probability: p,
            is_article: p >= 0.5,
            scores: gold.map(|(pred, g)| {
                let g = Gold::new(g);
                metrics::score(&g.predicted(pred), &g.words)
            }),
            signals: Default::default(),
            metadata: None,
            render_ms: None,
            url_ablation: None,
            fold: None,
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

    #[test]
    fn subsets_spread_over_the_set() {
        assert_eq!(spread(10, Some(3)), vec![0, 3, 6]);
        assert_eq!(spread(3, Some(5)), vec![0, 1, 2]);
        assert_eq!(spread(4, None), vec![0, 1, 2, 3]);
    }
}
