//! The runner: loads each dataset once (page bytes and tokenised gold texts), runs every algorithm
//! over its pages on a local rayon pool, so `--jobs` is honoured exactly and the caller's global pool
//! is not touched, and gathers the [`Report`]. One page's extraction and scoring is [`super::page`]'s;
//! folding the results into figures is [`super::summary`]'s.

use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::loaded::{learn_sites, load};
use super::options::{EngineFor, Options};
use super::page::run_page;
use super::{PageResult, Summary, TypeScores, by_lang, by_type, macro_average, summarize, type_scores};
use crate::{algorithms::Algorithm, engine::Engine, error::Error};

/// The algorithms `all` stands for: every registered name except `template`, which only answers on
/// sites that have a rule and would report errors everywhere else, and the visual methods, which need
/// a browser per page (name them to run them).
pub fn all_algorithms() -> Vec<Algorithm> {
    crate::algorithms::ALGORITHMS.iter().copied().filter(|&a| a != Algorithm::Template && !a.needs().layout).collect()
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
