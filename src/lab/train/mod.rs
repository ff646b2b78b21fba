//! Training: every model `pith train` writes, one module each, learned from the developers'
//! labelled pages in an order that lets each model use the ones before it.
//!
//! | model | module | what is fitted |
//! |---|---|---|
//! | Naive Bayes blocks (Wang et al.) | [`bayes`] | class-conditional counts of four binned block features |
//! | `auto`'s block classifier | [`blocks`] | two stages of gradient-boosted oblivious trees ([`crate::learn::gbdt`]) |
//! | `auto`'s has-article model | [`has_article`] | gradient-boosted trees over page signals (and a logistic regression kept for its readable weights) |
//! | `auto`'s page-type model | [`page_type`] | six one-vs-rest forests over the same page signals |
//! | `auto`'s site model | [`site`] | gradient-boosted trees over a chosen block's recurrences on its site's other pages |
//!
//! Pages go through the engine's own stages ([`crate::engine::Engine::prepare`], as `auto` sees them, site rules
//! aside), so what is learned is what extraction computes. Pages are visited in dataset order and every
//! learner is deterministic, so the same data always gives the same files.

pub mod bayes;
pub mod blocks;
pub mod export;
pub mod has_article;
pub mod page_type;
pub mod site;

use crate::hash::Fnv1a;
use crate::lab::dataset::Dataset;
use crate::{engine::Engine, error::Error};

pub use crate::lab::dataset::{PageFilter, all_pages};
pub use crate::learn::gbdt::TrainParams;
pub use blocks::{GoldGrams, Labels, Learn, PageRows, page_rows};

/// Train all five models in order — Naive Bayes, the block classifier (which reads the Naive Bayes
/// posterior), then the page-level models (which read `auto`'s output) — each with the ones before
/// it, into a copy of `base`.
pub fn train_all(base: &Engine, datasets: &[Dataset], keep: PageFilter<'_>, learn: &Learn) -> Result<Engine, Error> {
    let mut engine = base.clone();
    engine.models.bayes = bayes::train(datasets, &engine, keep, 0.5)?;
    engine.models.blocks = blocks::train(datasets, &engine, keep, learn)?;
    train_page_models(&mut engine, datasets, keep)?;
    Ok(engine)
}

/// Train the has-article, page-type and site models on top of the engine's block models (cheap: one
/// `auto` run per labelled page, and one more per page of a site with several pages). All three are
/// replaced.
pub fn train_page_models(engine: &mut Engine, datasets: &[Dataset], keep: PageFilter<'_>) -> Result<(), Error> {
    // The signals are read without the models being replaced, so their own verdicts do not leak in
    // (the block models do, as they do at extraction).
    engine.models.article = Default::default();
    engine.models.page_type = Default::default();
    let rows = has_article::page_signals(datasets, engine, keep)?;
    engine.models.article = has_article::train(&rows)?;
    engine.models.page_type = page_type::train(&rows)?;
    engine.models.site = site::train(datasets, engine, keep)?;
    Ok(())
}

/// Cross-validation folds grouped by site: every page of a site (its registered domain, see
/// [`crate::lab::dataset::site_of`]) falls in the same fold, so no model is scored on a site it was trained
/// on. Splitting pages instead would let a model learn a site's template from some of its pages and
/// be scored on the others, which says nothing about sites it has never seen.
#[derive(Debug, Clone, Default)]
pub struct SiteFolds {
    k: usize,
    fold: std::collections::HashMap<(String, String), usize>,
}

impl SiteFolds {
    /// Assign every page of `datasets` to one of `k` folds by a stable hash (FNV-1a) of its site;
    /// pages without any site hint are groups of their own. Reads every page's bytes once.
    pub fn new(datasets: &[Dataset], k: usize) -> Result<SiteFolds, Error> {
        use rayon::prelude::*;
        let k = k.max(2);
        let mut fold = std::collections::HashMap::new();
        for ds in datasets {
            let sites: Vec<String> = ds
                .pages
                .par_iter()
                .map(|p| -> Result<String, Error> {
                    let bytes = ds.html(p)?;
                    Ok(crate::lab::dataset::site_of(p, &bytes).unwrap_or_else(|| format!("{}/{}", ds.name, p.id)))
                })
                .collect::<Result<_, _>>()?;
            for (p, site) in ds.pages.iter().zip(sites) {
                let mut h = Fnv1a::new();
                h.bytes(site.bytes());
                fold.insert((ds.name.clone(), p.id.clone()), (h.finish() % k as u64) as usize);
            }
        }
        Ok(SiteFolds { k, fold })
    }

    /// Number of folds.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The fold of a page (0 for a page the folds were not built from).
    pub fn of(&self, dataset: &str, id: &str) -> usize {
        self.fold.get(&(dataset.to_string(), id.to_string())).copied().unwrap_or(0)
    }
}
