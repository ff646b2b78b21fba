//! How an evaluation runs: how much of the datasets, with which renderer, which engine for each page
//! (one, or each fold's under cross-validation), and where each fold's models are kept.

use std::path::Path;

use crate::engine::Engine;
use crate::lab::dataset::LabelledPage;

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
    /// never counted as evidence), for sites with at least
    /// [`MIN_SITE_PAGES`](crate::site::MIN_SITE_PAGES) pages in the set.
    pub site_context: bool,
}

/// Which engine extracts a page, and under cross-validation the fold it belongs to.
pub type EngineFor<'a, 'e> = &'a (dyn Fn(&str, &LabelledPage) -> (&'e Engine, Option<usize>) + Sync);

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
