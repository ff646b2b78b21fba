//! The runner: loads each dataset once (page bytes and tokenised gold texts), runs every algorithm
//! over its pages on a local rayon pool, so `--jobs` is honoured exactly and the caller's global pool
//! is not touched, and gathers the [`Report`]. One page's extraction and scoring is [`super::page`]'s;
//! folding the results into figures is [`super::summary`]'s.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::metrics::Gold;
use super::page::run_page;
use super::{FoldModels, PageResult, Summary, TypeScores, by_lang, by_type, macro_average, summarize, type_scores};
use crate::algorithms::contract::site_template::{PageSignatures, SiteTemplate};
use crate::engine::Request;
use crate::lab::dataset::{Dataset, LabelledPage, site_of};
use crate::{algorithms::Algorithm, engine::Engine, error::Error};

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
    /// Extract every page that has a URL a second time without it, and compare ([`ablation`](super::ablation)).
    pub url_ablation: bool,
    /// Cross-validation only: where each fold's models are kept ([`FoldModels`]).
    pub fold_models: Option<FoldModels<'a>>,
    /// Extract each page with the template of its site learned from the set's pages (the page itself
    /// never counted as evidence), for sites with at least [`SITE_MIN_PAGES`] pages in the set.
    pub site_context: bool,
}

/// A site needs this many pages in a set for `site_context` to give its pages a template: the page
/// and at least two others.
pub const SITE_MIN_PAGES: usize = 3;

/// The indexes of at most `max` of `n` pages, evenly spread.
pub fn spread(n: usize, max: Option<usize>) -> Vec<usize> {
    match max {
        Some(m) if m < n => (0..m).map(|k| k * n / m).collect(),
        _ => (0..n).collect(),
    }
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
    /// Per language over every dataset ([`super::language`]), most pages first.
    pub by_lang: Vec<Summary>,
    /// Page-type accuracy and confusion, per dataset that labels page types (algorithms that answer
    /// a page type only).
    pub page_types: Vec<TypeScores>,
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

/// Which engine extracts a page, and under cross-validation the fold it belongs to.
pub type EngineFor<'a, 'e> = &'a (dyn Fn(&str, &LabelledPage) -> (&'e Engine, Option<usize>) + Sync);

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
        let mut ds = load(dir, &pool, opts.max_pages)?;
        if opts.site_context {
            learn_sites(&mut ds, engine_for, &pool);
        }
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
                by_lang: by_lang(algorithm.name(), &pages),
                page_types: type_scores(&pages),
                datasets: sets,
            }
        })
        .collect();
    Ok(Report { datasets: names, jobs: jobs.max(1), wall_s: t0.elapsed().as_secs_f64(), algorithms: reports })
}

/// A dataset in memory: page bytes and tokenised gold texts, shared by every algorithm.
pub(super) struct Loaded {
    pub(super) name: String,
    pub(super) pages: Vec<LabelledPage>,
    pub(super) bytes: Vec<Result<Vec<u8>, String>>,
    pub(super) gold: Vec<Option<Gold>>,
    /// With `site_context`: each page's site as an index into `templates` (`None`: a site with too
    /// few pages in the set, or none found).
    pub(super) sites: Vec<Option<usize>>,
    pub(super) templates: Vec<SiteTemplate>,
}

/// Learn the template of every site with at least [`SITE_MIN_PAGES`] pages in the set, from all of
/// them (a page's own blocks are set aside when it is extracted: see `SiteContext`).
fn learn_sites(ds: &mut Loaded, engine_for: EngineFor<'_, '_>, pool: &rayon::ThreadPool) {
    let (sites, signatures): (Vec<Option<String>>, Vec<Option<PageSignatures>>) = pool.install(|| {
        (0..ds.pages.len())
            .into_par_iter()
            .map(|k| {
                let page = &ds.pages[k];
                let Ok(bytes) = &ds.bytes[k] else { return (None, None) };
                let (engine, _) = engine_for(&ds.name, page);
                let req = Request { url: page.url.as_deref(), ..Request::new(bytes) };
                (site_of(page, bytes), engine.page_signatures(&req).ok())
            })
            .unzip()
    });
    let mut count: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for s in sites.iter().flatten() {
        *count.entry(s).or_default() += 1;
    }
    let mut index: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let mut templates: Vec<SiteTemplate> = Vec::new();
    let mut page_sites = vec![None; ds.pages.len()];
    for (k, site) in sites.iter().enumerate() {
        let Some(site) = site.as_deref().filter(|s| count.get(s).copied().unwrap_or(0) >= SITE_MIN_PAGES) else {
            continue;
        };
        let t = *index.entry(site.to_string()).or_insert_with(|| {
            templates.push(SiteTemplate::new());
            templates.len() - 1
        });
        if let Some(sig) = &signatures[k] {
            templates[t].learn(sig);
        }
        page_sites[k] = Some(t);
    }
    ds.sites = page_sites;
    ds.templates = templates;
}

fn load(dir: &Path, pool: &rayon::ThreadPool, max_pages: Option<usize>) -> Result<Loaded, Error> {
    let mut ds = Dataset::open(dir)?;
    if max_pages.is_some() {
        let keep = spread(ds.pages.len(), max_pages);
        let mut all: Vec<Option<LabelledPage>> = std::mem::take(&mut ds.pages).into_iter().map(Some).collect();
        ds.pages = keep.into_iter().filter_map(|k| all[k].take()).collect();
    }
    let (bytes, gold) = pool.install(|| {
        let bytes: Vec<_> = ds.pages.par_iter().map(|p| ds.html(p).map_err(|e| e.to_string())).collect();
        let gold: Vec<_> = ds.pages.par_iter().map(|p| p.gold.as_deref().map(Gold::new)).collect();
        (bytes, gold)
    });
    Ok(Loaded { name: ds.name, pages: ds.pages, bytes, gold, sites: Vec::new(), templates: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_spread_over_the_set() {
        assert_eq!(spread(10, Some(3)), vec![0, 3, 6]);
        assert_eq!(spread(3, Some(5)), vec![0, 1, 2]);
        assert_eq!(spread(4, None), vec![0, 1, 2, 3]);
    }
}
