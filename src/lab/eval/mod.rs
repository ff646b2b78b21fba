//! `pith eval`: the seed papers' accuracy measures, the industry benchmark's, the has-article
//! judgement and speed, over labelled datasets, through the library (no subprocess per page).
//!
//! Each page yields a [`PageResult`]; [`summarize`] folds a set of them into a [`Summary`], per
//! dataset, over all pages (micro) and as the mean of the datasets (macro, [`macro_average`]).
//! [`report`] renders the summaries as aligned text, markdown or JSON; [`html`] as a page with charts
//! beside the peers' figures ([`anchors`]).
//!
//! | file | what lives there |
//! |---|---|
//! | `run.rs` | the runner: [`run`](run()), [`run_opts`], [`run_with`], the [`Report`] it returns |
//! | `options.rs` | how a run goes: [`Options`], [`EngineFor`], [`LayoutFn`], [`FoldModels`] |
//! | `loaded.rs` | a dataset in memory for a run, with its sites' templates under `--site-context` |
//! | `page.rs` | one page through one algorithm, scored: [`PageResult`] |
//! | `summary.rs` | page results folded into figures: [`summarize`], [`by_type`], [`by_lang`], [`macro_average`], [`type_scores`] |
//! | `cross_validation.rs` | [`cross_validate`] by site or by dataset, with [`FoldModels`] kept on disk |
//! | [`metrics`], [`lcs`] | the per-page text measures and the has-article scores |
//! | [`snippets`] | the many-language corpus's snippet metric (counts summed over pages) |
//! | [`language`] | the language a page is counted under: the dataset's label or detected |
//! | [`metadata`] | title, author and date against the recorded ones |
//! | [`ablation`] | the same page with and without its URL |
//! | [`anchors`] | the peers' published figures the report is read against |
//! | [`report`] | text, markdown and JSON rendering |
//! | [`html`] | the `--report` page and its explanation pages |

pub mod ablation;
pub mod anchors;
mod cross_validation;
pub mod html;
pub mod language;
pub mod lcs;
mod loaded;
pub mod metadata;
pub mod metrics;
mod options;
mod page;
pub mod report;
mod run;
pub mod site_context;
pub mod snippets;
mod summary;

pub use cross_validation::{Folds, cross_validate};
pub use loaded::spread;
pub use options::{EngineFor, FoldModels, LayoutFn, Options};
pub use page::PageResult;
pub use run::{AlgorithmReport, Report, all_algorithms, run, run_opts, run_with};
pub use summary::{
    Summary, TypeCalibration, TypeScores, by_lang, by_type, macro_average, summarize, type_judgements, type_scores,
};
