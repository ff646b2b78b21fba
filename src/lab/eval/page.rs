//! One page run through one algorithm: the extraction (laid out first for the visual methods, a
//! panic caught as the page's error), the optional second extraction without the URL, and the scores
//! against the page's gold text, snippets and metadata, all in one [`PageResult`].

use std::panic::AssertUnwindSafe;

use serde::Serialize;

use super::loaded::Loaded;
use super::metrics::TextScores;
use super::{EngineFor, Options, ablation, language, metadata, metrics, snippets};
use crate::{algorithms::Algorithm, engine::Request};

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
    /// The page's language: the dataset's label, else detected ([`language`]).
    pub lang: String,
    /// The many-language corpus's snippet counts ([`snippets`]), for pages that list snippets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippets: Option<snippets::SnippetCounts>,
    /// The probability of every page type the algorithm answered (`auto` with a page-type model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_probabilities: Option<std::collections::BTreeMap<String, f64>>,
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
    /// What the site's template did (`--site-context`, pages of a site with enough other pages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_template: Option<crate::algorithms::contract::SiteTemplateUse>,
}

#[cfg(test)]
impl PageResult {
    /// Page `id` of `dataset` through `algorithm`, extracted in a millisecond with nothing measured:
    /// what the reports' tests build their pages from, setting what they look at.
    pub(crate) fn blank(dataset: &str, id: &str, algorithm: &str) -> PageResult {
        PageResult {
            dataset: dataset.into(),
            id: id.into(),
            algorithm: algorithm.into(),
            bytes: 0,
            ms: Some(1.0),
            error: None,
            has_article: None,
            page_type: None,
            predicted_type: None,
            lang: "en".into(),
            snippets: None,
            type_probabilities: None,
            with_rate: None,
            without_rate: None,
            probability: 0.0,
            is_article: false,
            scores: None,
            signals: Default::default(),
            metadata: None,
            render_ms: None,
            url_ablation: None,
            fold: None,
            site_template: None,
        }
    }
}

pub(super) fn run_page<'e>(
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
    let options =
        crate::engine::Options { html: false, blocks: false, ..crate::engine::Options::for_algorithm(algorithm) };
    let req = Request { url: page.url.as_deref(), site: ds.template(k), ..Request::with_options(bytes, options) };
    let mut site_template = None;
    let mut signals = crate::output::Signals::new();
    let mut predicted_type = None;
    let mut type_probabilities = None;
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
    let gold_meta = metadata::MetaGold::of(&ds.name, page);
    let mut found_meta = crate::metadata::Metadata::default();
    let (text, probability, is_article, ms, error) = match read_error {
        Some(e) => (String::new(), 0.0, false, None, Some(e)),
        // A panic in one algorithm on one page is a finding to report, not a reason to lose the run.
        None => match std::panic::catch_unwind(AssertUnwindSafe(|| extract(&req))) {
            Ok(Ok(x)) => {
                signals = x.has_article.signals;
                if let Some(t) = x.page_type {
                    predicted_type = Some(t.label.name().to_string());
                    type_probabilities = Some(t.probabilities);
                }
                found_meta = x.metadata;
                site_template = x.template;
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
                        page_type: x.page_type.as_ref().map(|t| t.label.name()),
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
        lang: language::of_page(page, bytes, &text),
        snippets: snippets::count(&text, &page.with, &page.without),
        type_probabilities,
        page_type: page.page_type.map(|t| t.name().to_string()),
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
        site_template,
    }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".to_string())
}
