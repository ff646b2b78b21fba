//! `pith train`: the Naive Bayes block model (Wang et al.), then `auto`'s block classifier (which reads
//! the Naive Bayes posterior), then the has-article, page-type and site models (which read `auto`'s
//! output), each trained with the models before it, and written to `config/`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// A dataset directory (pages.jsonl + html/); repeat for several.
    #[arg(long = "dataset", required = true)]
    pub datasets: Vec<PathBuf>,
    /// Where to write the Naive Bayes block model.
    #[arg(long, default_value = "config/bayes-model.json")]
    pub out: PathBuf,
    /// Where to write `auto`'s block classifier (learned from pages with gold text or snippets).
    #[arg(long, default_value = "config/block-model.json")]
    pub block_out: PathBuf,
    /// Where to write the has-article model (learned from pages with a has_article label).
    #[arg(long, default_value = "config/article-model.json")]
    pub article_out: PathBuf,
    /// Where to write the page-type model (learned from pages with a page_type label).
    #[arg(long, default_value = "config/page-type-model.json")]
    pub page_type_out: PathBuf,
    /// Where to write the site model (learned from pages of sites with several pages in their set).
    #[arg(long, default_value = "config/site-model.json")]
    pub site_out: PathBuf,
    /// Train only the page-level models (has-article, page type and site) on top of the block models
    /// already loaded (embedded, or `--models DIR`): minutes instead of the block classifier's half hour.
    #[arg(long)]
    pub page_models_only: bool,
    /// Train only the site model on top of the models already loaded (embedded, or `--models DIR`).
    #[arg(long, conflicts_with = "page_models_only")]
    pub site_model_only: bool,
    /// With `--page-models-only` or `--site-model-only`: read the other models from this directory.
    #[arg(long, value_name = "DIR")]
    pub models: Option<PathBuf>,
    /// Leave out one cross-validation fold, `F/K` (fold F of K, counted from 0, the same folds as
    /// `pith eval --cv K`), so that fold's models can be inspected with `pith extract --models`.
    #[arg(long, value_name = "F/K", value_parser = parse_hold_out)]
    pub hold_out: Option<(usize, usize)>,
    #[command(flatten)]
    pub learn: LearnArgs,
    /// Write the block classifier's training rows (features, labels, block texts) to this directory
    /// instead of training, for study with other tools; the embedded Naive Bayes model supplies its
    /// feature.
    #[arg(long, value_name = "DIR")]
    pub export_rows: Option<PathBuf>,
}

fn parse_hold_out(s: &str) -> Result<(usize, usize), String> {
    let (f, k) = s.split_once('/').ok_or("expected F/K, e.g. 2/5")?;
    let f: usize = f.trim().parse().map_err(|_| format!("not a fold number: {f}"))?;
    let k: usize = k.trim().parse().map_err(|_| format!("not a fold count: {k}"))?;
    if k < 2 || f >= k {
        return Err(format!("need 0 <= F < K and K >= 2, got {f}/{k}"));
    }
    Ok((f, k))
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), pith::Error> {
    let mut text = serde_json::to_string(value).map_err(|e| pith::Error::Config(e.to_string()))?;
    text.push('\n');
    std::fs::write(path, text)
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())).into())
}

fn write_pretty(path: &Path, value: &impl serde::Serialize) -> Result<(), pith::Error> {
    let mut text = serde_json::to_string_pretty(value).map_err(|e| pith::Error::Config(e.to_string()))?;
    text.push('\n');
    std::fs::write(path, text)
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())).into())
}

/// Settings of the block classifier's training, shared by `train` and `eval --cv`.
#[derive(Debug, Clone, clap::Args)]
pub struct LearnArgs {
    /// Trees in the block classifier.
    #[arg(long, default_value_t = pith::lab::train::TrainParams::default().trees)]
    pub trees: usize,
    /// Depth of each tree.
    #[arg(long, default_value_t = pith::lab::train::TrainParams::default().max_depth)]
    pub depth: usize,
    /// Shrinkage of each tree's contribution.
    #[arg(long, default_value_t = pith::lab::train::TrainParams::default().learning_rate)]
    pub learning_rate: f64,
    /// L2 penalty on leaf values.
    #[arg(long, default_value_t = pith::lab::train::TrainParams::default().lambda)]
    pub lambda: f64,
    /// Smallest summed hessian of a leaf.
    #[arg(long, default_value_t = pith::lab::train::TrainParams::default().min_child_weight)]
    pub min_child_weight: f64,
    /// Dataset balance: 0 weighs every page the same, 1 every dataset the same.
    #[arg(long, default_value_t = pith::lab::train::Learn::default().balance)]
    pub balance: f64,
    /// Folds for stage 2's out-of-fold inputs (0: no stage 2).
    #[arg(long, default_value_t = pith::lab::train::Learn::default().stack_folds)]
    pub stack_folds: usize,
}

impl LearnArgs {
    pub fn params(&self) -> pith::lab::train::Learn {
        pith::lab::train::Learn {
            gbdt: pith::lab::train::TrainParams {
                trees: self.trees,
                max_depth: self.depth,
                learning_rate: self.learning_rate,
                lambda: self.lambda,
                min_child_weight: self.min_child_weight,
            },
            balance: self.balance,
            stack_folds: self.stack_folds,
        }
    }
}

pub fn run(a: TrainArgs) -> Result<ExitCode, pith::Error> {
    let sets = a.datasets.iter().map(|d| pith::lab::dataset::Dataset::open(d)).collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = &a.export_rows {
        pith::lab::train::export::rows(&sets, &super::setup::engine_from_env()?, dir)?;
        eprintln!("pith: training rows written to {}", dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    let params = a.learn.params();
    let t = std::time::Instant::now();
    let folds = match a.hold_out {
        Some((_, k)) => Some(pith::lab::train::SiteFolds::new(&sets, k)?),
        None => None,
    };
    let keep = |ds: &pith::lab::dataset::Dataset, p: &pith::lab::dataset::LabelledPage| match (&folds, a.hold_out) {
        (Some(folds), Some((f, _))) => folds.of(&ds.name, &p.id) != f,
        _ => true,
    };
    let bar = super::progress::observe_library();
    if a.site_model_only {
        let mut engine = super::setup::engine_from_env()?;
        if let Some(dir) = &a.models {
            engine.models.load_dir(dir)?;
        }
        let site = pith::lab::train::site::train(&sets, &engine, &keep)?;
        super::progress::clear(bar);
        write_json(&a.site_out, &site)?;
        eprintln!(
            "pith: site model trained on {} datasets in {:.1} s ({}): {}",
            sets.len(),
            t.elapsed().as_secs_f64(),
            a.site_out.display(),
            site.trained_on.join(", ")
        );
        return Ok(ExitCode::SUCCESS);
    }
    if a.page_models_only {
        let mut engine = super::setup::engine_from_env()?;
        if let Some(dir) = &a.models {
            engine.models.load_dir(dir)?;
        }
        pith::lab::train::train_page_models(&mut engine, &sets, &keep)?;
        super::progress::clear(bar);
        write_pretty(&a.article_out, &engine.models.article)?;
        write_json(&a.page_type_out, &engine.models.page_type)?;
        write_json(&a.site_out, &engine.models.site)?;
        eprintln!(
            "pith: page models trained on {} datasets in {:.1} s: has-article model over {} signals ({}); \
             page-type model ({})",
            sets.len(),
            t.elapsed().as_secs_f64(),
            engine.models.article.signals.len(),
            a.article_out.display(),
            a.page_type_out.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let base = super::setup::untrained_engine_from_env()?;
    let engine = pith::lab::train::train_all(&base, &sets, &keep, &params)?;
    super::progress::clear(bar);
    let models = &engine.models;
    write_pretty(&a.out, &models.bayes)?;
    write_json(&a.block_out, &models.blocks)?;
    write_pretty(&a.article_out, &models.article)?;
    write_json(&a.page_type_out, &models.page_type)?;
    write_json(&a.site_out, &models.site)?;
    eprintln!(
        "pith: trained on {} datasets in {:.1} s: Naive Bayes from {} theme and {} noise blocks ({}); \
         block classifier of {}+{} trees ({}); has-article model over {} signals ({}); page-type model ({})",
        sets.len(),
        t.elapsed().as_secs_f64(),
        models.bayes.class_blocks[0],
        models.bayes.class_blocks[1],
        a.out.display(),
        models.blocks.stage1.trees.len(),
        models.blocks.stage2.trees.len(),
        a.block_out.display(),
        models.article.signals.len(),
        a.article_out.display(),
        a.page_type_out.display()
    );
    Ok(ExitCode::SUCCESS)
}
