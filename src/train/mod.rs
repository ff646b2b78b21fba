//! Training: every model `pith train` writes, one module each, learned from the developers'
//! labelled pages in an order that lets each model use the ones before it.
//!
//! | model | module | what is fitted |
//! |---|---|---|
//! | Naive Bayes blocks (seed 000) | [`bayes`] | class-conditional counts of four binned block features |
//! | `auto`'s block classifier | [`blocks`] | two stages of gradient-boosted oblivious trees ([`crate::gbdt`]) |
//! | `auto`'s has-article model | [`has_article`] | gradient-boosted trees over page signals (and a logistic regression kept for its readable weights) |
//!
//! Pages go through the engine's own stages ([`crate::Engine::prepare`], as `auto` sees them, site rules
//! aside), so what is learned is what extraction computes. Pages are visited in dataset order and every
//! learner is deterministic, so the same data always gives the same files.

pub mod bayes;
pub mod blocks;
pub mod has_article;

use crate::dataset::Dataset;
use crate::hash::Fnv1a;
use crate::{Engine, Error};

pub use blocks::{GoldGrams, Learn, PageRows, page_rows};

/// Which pages of a dataset a training run may read (cross-validation leaves a fold out).
pub type PageFilter<'a> = &'a (dyn Fn(&Dataset, &crate::dataset::Page) -> bool + Sync);

/// Every page.
pub fn all_pages(_: &Dataset, _: &crate::dataset::Page) -> bool {
    true
}

/// Train all three models in order — Naive Bayes, the block classifier (which reads the Naive Bayes
/// posterior), the has-article model (which reads `auto`'s output) — each with the ones before it,
/// into a copy of `base`.
pub fn train_all(base: &Engine, datasets: &[Dataset], keep: PageFilter<'_>, learn: &Learn) -> Result<Engine, Error> {
    let mut engine = base.clone();
    engine.models.bayes = bayes::train(datasets, &engine, keep, 0.5)?;
    engine.models.blocks = blocks::train(datasets, &engine, keep, learn)?;
    engine.models.article = has_article::train(datasets, &engine, keep)?;
    Ok(engine)
}

/// The cross-validation fold of a page: a stable hash (FNV-1a) of its dataset and id, modulo `k`.
pub fn fold_of(dataset: &str, id: &str, k: usize) -> usize {
    let mut h = Fnv1a::new();
    h.bytes(dataset.bytes().chain([0u8]).chain(id.bytes()));
    (h.finish() % k.max(1) as u64) as usize
}
