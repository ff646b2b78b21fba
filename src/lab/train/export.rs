//! `pith train --export-rows DIR`: the block classifier's training rows as files, for studying the
//! features with other tools (a notebook, another learner) before changing them here.
//!
//! Files: `names.json` (feature names, in row order), `x.f32` (rows, little-endian `f32`, row-major),
//! `blocks.jsonl` (per row: dataset, page id, block index, gold label, words, the start of its text)
//! and `pages.jsonl` (per page: dataset, id, site as cross-validation groups it, page type,
//! has-article label, gold words, number of blocks). Rows are in page order, pages in dataset order.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use super::blocks::{GoldGrams, Labels, page_rows};
use crate::algorithms::auto;
use crate::lab::dataset::Dataset;
use crate::text::words;
use crate::{engine::Engine, error::Error};

/// Write the rows of every page with gold text in `datasets` to `dir`.
pub fn rows(datasets: &[Dataset], engine: &Engine, dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir)?;
    let create = |name: &str| -> Result<std::io::BufWriter<std::fs::File>, Error> {
        Ok(std::io::BufWriter::new(std::fs::File::create(dir.join(name))?))
    };
    let (mut x, mut bj, mut pj) = (create("x.f32")?, create("blocks.jsonl")?, create("pages.jsonl")?);
    let names = serde_json::to_string(&auto::feature_names()).map_err(std::io::Error::other)?;
    std::fs::write(dir.join("names.json"), names)?;
    for ds in datasets {
        let list: Vec<_> = ds.pages.iter().filter(|p| p.gold.is_some()).collect();
        let per: Vec<Option<_>> = list
            .par_iter()
            .map(|p| {
                let bytes = ds.html(p).ok()?;
                let site = crate::lab::dataset::site_of(p, &bytes).unwrap_or_else(|| format!("{}/{}", ds.name, p.id));
                let gold = Labels::Gold(GoldGrams::new(p.gold.as_deref().unwrap_or("")));
                let rows = page_rows(engine, &bytes, p.url.as_deref(), &gold).ok()?;
                let texts = engine
                    .with_context(&bytes, p.url.as_deref(), |ctx| {
                        let m = auto::measure(ctx, &engine.models.bayes);
                        let texts: Vec<(usize, String)> = m
                            .blocks
                            .list
                            .iter()
                            .map(|b| {
                                let parts: Vec<&str> = m.blocks.texts_of(b).iter().map(|&t| ctx.doc.text(t)).collect();
                                let text = parts.join(" ");
                                (words::words(&words::normalize(&text)).len(), text.chars().take(100).collect())
                            })
                            .collect();
                        texts
                    })
                    .ok()?;
                Some((rows, texts, site))
            })
            .collect();
        for (p, got) in list.iter().zip(per) {
            let Some((rows, texts, site)) = got else { continue };
            let gold_words = words::words(&words::normalize(p.gold.as_deref().unwrap_or(""))).len();
            let line = serde_json::json!({"ds": ds.name, "id": p.id, "site": site, "page_type": p.page_type,
                "has_article": p.has_article, "gold_words": gold_words, "blocks": rows.y.len()});
            writeln!(pj, "{line}")?;
            for v in &rows.x {
                x.write_all(&v.to_le_bytes())?;
            }
            for (k, (words, head)) in texts.iter().enumerate() {
                let line =
                    serde_json::json!({"ds": ds.name, "id": p.id, "k": k, "y": rows.y[k], "n": words, "t": head});
                writeln!(bj, "{line}")?;
            }
        }
    }
    x.flush()?;
    bj.flush()?;
    pj.flush()?;
    Ok(())
}
