//! Cross-validation: every model trained per fold on the other folds' pages (or read back from
//! [`FoldModels`]), and each page extracted by its own fold's models through [`super::run_with`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{FoldModels, Options, PageResult, Report, run_with};
use crate::lab::dataset::{Dataset, LabelledPage};
use crate::{algorithms::Algorithm, engine::Engine, error::Error};

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
        let keep = |ds: &Dataset, p: &LabelledPage| fold(&ds.name, &p.id) != f;
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
            if !saved.page_models && !dir.join(crate::engine::models::SITE_FILE).exists() {
                // Saved before there was a site model: the embedded one saw every fold.
                engine.models.site = crate::lab::train::site::train(sets, &engine, keep)?;
                engine.models.save_dir(dir)?;
            }
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
