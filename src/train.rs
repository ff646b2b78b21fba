//! Training phase of the Naive Bayes block classifier (seed 000): block every page with gold text the
//! same way extraction does, label each block by how much of its text the gold text contains, and count
//! the binned features per class. Pages are visited in dataset order and counts are integers, so the
//! same data always gives the same file.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::algorithms::bayes::{BayesModel, blocks};
use crate::dataset::Dataset;
use crate::dom::Document;
use crate::{Error, decode, prestrip, tokens};

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

/// Learn a model from the pages with gold text of `datasets`.
pub fn train(datasets: &[Dataset], merge_siblings: bool, label_threshold: f64) -> Result<BayesModel, Error> {
    let mut model = BayesModel { label_threshold, ..BayesModel::default() };
    for ds in datasets {
        let pages: Vec<_> = ds.pages.iter().filter(|p| p.gold.is_some()).collect();
        let per_page: Vec<Vec<([usize; 4], bool)>> = pages
            .par_iter()
            .map(|p| -> Result<Vec<([usize; 4], bool)>, Error> {
                let bytes = ds.html(p)?;
                let Ok(dec) = decode::decode(&bytes, None) else { return Ok(Vec::new()) };
                let html = prestrip::prestrip(&dec.text).html;
                let doc = Document::parse(&html);
                let mut gold: HashMap<String, u32> = HashMap::new();
                for w in tokens::words(&tokens::normalize(p.gold.as_deref().unwrap_or(""))) {
                    *gold.entry(w).or_default() += 1;
                }
                let mut out = Vec::new();
                for b in blocks(&doc, merge_siblings) {
                    let text: String = b.texts.iter().map(|&t| doc.text(t)).collect::<Vec<_>>().join(" ");
                    let words = tokens::words(&tokens::normalize(&text));
                    if words.is_empty() {
                        continue;
                    }
                    let theme = gold_share(&words, &gold) >= label_threshold;
                    out.push((b.counts.features(), theme));
                }
                Ok(out)
            })
            .collect::<Result<_, _>>()?;
        for obs in per_page.iter().flatten() {
            model.observe(&obs.0, obs.1);
        }
        model.trained_on.push(format!("{} ({} pages with gold)", ds.name, pages.len()));
    }
    Ok(model)
}

/// Learn the has-article model from every page whose `has_article` is labelled: run `auto` on it,
/// read the signals it reports, and fit the logistic regression (see [`crate::article`]).
pub fn train_article(datasets: &[Dataset], engine: &crate::Engine) -> Result<crate::article::ArticleModel, Error> {
    let mut names: Vec<String> = Vec::new();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let mut labels: Vec<bool> = Vec::new();
    let mut trained_on = Vec::new();
    for ds in datasets {
        let pages: Vec<_> = ds.pages.iter().filter(|p| p.has_article.is_some()).collect();
        let got: Vec<Option<(crate::output::Signals, bool)>> = pages
            .par_iter()
            .map(|p| -> Result<_, Error> {
                let bytes = ds.html(p)?;
                let req = crate::Request {
                    url: p.url.as_deref(),
                    want_html: false,
                    want_blocks: false,
                    ..crate::Request::new(&bytes)
                };
                Ok(engine.extract(&req).ok().map(|r| (r.has_article.signals, p.has_article == Some(true))))
            })
            .collect::<Result<_, _>>()?;
        for (signals, label) in got.into_iter().flatten() {
            if names.is_empty() {
                names = signals.keys().map(|k| k.to_string()).collect();
            }
            rows.push(names.iter().map(|n| signals.get(n.as_str()).copied().unwrap_or(0.0)).collect());
            labels.push(label);
        }
        let pos = pages.iter().filter(|p| p.has_article == Some(true)).count();
        trained_on.push(format!("{} ({} article, {} not)", ds.name, pos, pages.len() - pos));
    }
    if names.is_empty() {
        return Err(Error::Config("no page with a has_article label to learn from".into()));
    }
    let mut model = crate::article::ArticleModel::fit(&names, &rows, &labels, 1e-3, 3000);
    model.trained_on = trained_on;
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
