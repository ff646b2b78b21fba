//! `pith train`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(datasets: &[PathBuf], out: &Path, article_out: &Path) -> Result<ExitCode, pith::Error> {
    let sets = datasets.iter().map(|d| pith::dataset::Dataset::open(d)).collect::<Result<Vec<_>, _>>()?;
    let params = pith::algorithms::Params::default();
    let model = pith::train::train(&sets, params.bayes.merge_siblings, 0.5)?;
    let mut text = serde_json::to_string_pretty(&model).map_err(|e| pith::Error::Config(e.to_string()))?;
    text.push('\n');
    std::fs::write(out, text)?;
    eprintln!(
        "pith: trained on {} theme and {} noise blocks from {} datasets; wrote {}",
        model.class_blocks[0],
        model.class_blocks[1],
        sets.len(),
        out.display()
    );
    let engine = pith::Engine::with_defaults()?;
    let article = pith::train::train_article(&sets, &engine)?;
    let mut text = serde_json::to_string_pretty(&article).map_err(|e| pith::Error::Config(e.to_string()))?;
    text.push('\n');
    std::fs::write(article_out, text)?;
    eprintln!("pith: has-article model over {} signals; wrote {}", article.signals.len(), article_out.display());
    Ok(ExitCode::SUCCESS)
}
