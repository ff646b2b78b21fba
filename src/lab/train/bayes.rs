//! The Naive Bayes block model (Wang et al.): block every page with gold text the same way extraction
//! does, label each block by how much of its text the gold text contains, and count the binned features
//! per class. Counts are integers, so the same pages always give the same file.

use std::collections::HashMap;

use rayon::prelude::*;

use super::PageFilter;
use crate::algorithms::bayes::{BayesModel, blocks};
use crate::lab::dataset::Dataset;
use crate::text::words;
use crate::{engine::Engine, error::Error};

/// Share of a block's words found in the gold text (each gold word used at most as often as it occurs).
pub fn gold_share(block_words: &[String], gold: &HashMap<String, u32>) -> f64 {
    if block_words.is_empty() {
        return 0.0;
    }
    let mut left = gold.clone();
    let mut hit = 0usize;
    for w in block_words {
        if let Some(c) = left.get_mut(w)
            && *c > 0
        {
            *c -= 1;
            hit += 1;
        }
    }
    hit as f64 / block_words.len() as f64
}

/// Learn a model from the pages with gold text of `datasets` that `keep` admits.
pub fn train(
    datasets: &[Dataset],
    engine: &Engine,
    keep: PageFilter<'_>,
    label_threshold: f64,
) -> Result<BayesModel, Error> {
    let merge_siblings = engine.params.bayes.merge_siblings;
    let mut model = BayesModel { label_threshold, ..BayesModel::default() };
    for ds in datasets {
        let pages: Vec<_> = ds.pages.iter().filter(|p| p.gold.is_some() && keep(ds, p)).collect();
        crate::lab::progress::phase(&format!("naive bayes {}", ds.name), Some(pages.len() as u64));
        let per_page: Vec<Vec<([usize; 4], bool)>> = pages
            .par_iter()
            .map(|p| -> Result<Vec<([usize; 4], bool)>, Error> {
                let bytes = ds.html(p)?;
                let Ok(page) = engine.prepare_for_training(&bytes, p.url.as_deref()) else { return Ok(Vec::new()) };
                let doc = &page.doc;
                let mut gold: HashMap<String, u32> = HashMap::new();
                for w in words::words(&words::normalize(p.gold.as_deref().unwrap_or(""))) {
                    *gold.entry(w).or_default() += 1;
                }
                let mut out = Vec::new();
                for b in blocks(doc, merge_siblings) {
                    let text: String = b.texts.iter().map(|&t| doc.text(t)).collect::<Vec<_>>().join(" ");
                    let words = words::words(&words::normalize(&text));
                    if words.is_empty() {
                        continue;
                    }
                    let theme = gold_share(&words, &gold) >= label_threshold;
                    out.push((b.counts.features(), theme));
                }
                Ok(out)
            })
            .inspect(|_| crate::lab::progress::advance(1))
            .collect::<Result<_, _>>()?;
        for obs in per_page.iter().flatten() {
            model.observe(&obs.0, obs.1);
        }
        model.trained_on.push(format!("{} ({} pages with gold)", ds.name, pages.len()));
    }
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_share_counts_multiplicity() {
        let gold: HashMap<String, u32> = [("a".to_string(), 1), ("b".to_string(), 2)].into_iter().collect();
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(gold_share(&w("a a b"), &gold), 2.0 / 3.0);
        assert_eq!(gold_share(&[], &gold), 0.0);
    }
}
