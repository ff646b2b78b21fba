//! `auto`'s block classifier: every block of every page with gold text becomes a row of features
//! ([`crate::algorithms::auto::feature_names`]) labelled by how much of its text the gold text holds;
//! a page with snippets instead of gold text (`with` lines that belong to the main content, `without`
//! lines of boilerplate) labels only the blocks a snippet covers, and its other blocks weigh nothing.
//! Stage 1 of gradient-boosted trees learns from those rows, stage 2 from the same rows with stage 1's
//! out-of-fold verdicts on the block's neighbours added.

use rayon::prelude::*;

use super::PageFilter;
use crate::algorithms::auto;
use crate::lab::dataset::Dataset;
use crate::text::words;
use crate::{engine::Engine, error::Error};

/// Hashes of a gold text's word n-grams (n = 1, 2, 3) and of its lines, for labelling blocks.
pub struct GoldGrams {
    grams: std::collections::HashSet<u64>,
    lines: std::collections::HashSet<u64>,
}

fn hash_words<S: AsRef<str>>(n: u8, words: &[S]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    n.hash(&mut h);
    for w in words {
        w.as_ref().hash(&mut h);
    }
    h.finish()
}

impl GoldGrams {
    pub fn new(gold: &str) -> GoldGrams {
        let norm = words::normalize(gold);
        let words = words::words(&norm);
        let mut grams = std::collections::HashSet::new();
        for n in 1..=3usize {
            for w in words.windows(n) {
                grams.insert(hash_words(n as u8, w));
            }
        }
        let lines = gold
            .lines()
            .map(|l| words::words(&words::normalize(l)))
            .filter(|w| !w.is_empty())
            .map(|w| hash_words(0, &w))
            .collect();
        GoldGrams { grams, lines }
    }

    /// How much of a block's text is in the gold text: the share of its words covered by a word
    /// trigram that the gold text also has (the shingle metric's view, without counting common words
    /// alone). One- and two-word blocks count when they are a whole gold line, or (two words) a gold
    /// bigram.
    pub fn label(&self, words: &[String]) -> f64 {
        match words.len() {
            0 => 0.0,
            n if self.lines.contains(&hash_words(0, words)) && n <= 2 => 1.0,
            1 => 0.0,
            2 => f64::from(u8::from(self.grams.contains(&hash_words(2, words)))),
            n => {
                let mut covered = vec![false; n];
                for (k, w) in words.windows(3).enumerate() {
                    if self.grams.contains(&hash_words(3, w)) {
                        covered[k..k + 3].iter_mut().for_each(|c| *c = true);
                    }
                }
                covered.iter().filter(|&&c| c).count() as f64 / n as f64
            }
        }
    }
}

/// What a training page says about its blocks: a gold text labels every block, snippets only the
/// blocks they cover.
pub enum Labels {
    Gold(GoldGrams),
    Snippets { with: GoldGrams, without: GoldGrams },
}

impl Labels {
    /// Whether the page labels any block: it has gold text or snippets ([`Labels::of`] is `Some`).
    pub fn available(page: &crate::lab::dataset::LabelledPage) -> bool {
        page.gold.is_some() || !page.with.is_empty() || !page.without.is_empty()
    }

    /// The page's labels: its gold text when it has one, else its snippets, else none.
    pub fn of(page: &crate::lab::dataset::LabelledPage) -> Option<Labels> {
        if let Some(gold) = &page.gold {
            return Some(Labels::Gold(GoldGrams::new(gold)));
        }
        Labels::available(page).then(|| Labels::Snippets {
            with: GoldGrams::new(&page.with.join("\n")),
            without: GoldGrams::new(&page.without.join("\n")),
        })
    }

    /// A block's label, or `None` when the page does not say. A block counts as main content when a
    /// `with` snippet covers at least half its words and no `without` snippet does, and as boilerplate
    /// when a `without` snippet covers half its words and `with` snippets hardly any.
    pub fn label(&self, words: &[String]) -> Option<f64> {
        match self {
            Labels::Gold(g) => Some(g.label(words)),
            Labels::Snippets { with, without } => {
                let (w, wo) = (with.label(words), without.label(words));
                if w >= 0.5 && wo < 0.5 {
                    Some(w)
                } else if wo >= 0.5 && w < 0.2 {
                    Some(0.0)
                } else {
                    None
                }
            }
        }
    }
}

/// One page's blocks for the block classifier: every block's features, gold label and weight (0 for
/// blocks without a word), and the layout the context features need.
#[derive(Debug, Default)]
pub struct PageRows {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub w: Vec<f32>,
    pub layout: auto::Neighbourhood,
}

/// Feature rows and labels of every block of one page. Each labelled block weighs by its words, scaled
/// so that a page's labelled blocks average weight 1: the metrics average over pages, so a long page
/// should not outweigh a short one, while inside a page long blocks matter more than short ones.
/// Unlabelled blocks weigh 0 (their rows stay: the context features read every block).
pub fn page_rows(engine: &Engine, bytes: &[u8], url: Option<&str>, labels: &Labels) -> Result<PageRows, Error> {
    engine.with_context(bytes, url, |ctx| {
        let m = auto::measure(ctx, &engine.models.bayes);
        let mut rows = PageRows {
            x: m.feature_rows(ctx.doc),
            layout: auto::Neighbourhood::of(ctx.doc, &m.blocks),
            ..PageRows::default()
        };
        let mut sizes = Vec::new();
        for b in &m.blocks.list {
            let text: Vec<&str> = m.blocks.texts_of(b).iter().map(|&t| ctx.doc.text(t)).collect();
            let words = words::words(&words::normalize(&text.join(" ")));
            let label = labels.label(&words);
            rows.y.push(label.unwrap_or(0.0) as f32);
            sizes.push(if label.is_some() { words.len() as f32 } else { 0.0 });
        }
        let total: f32 = sizes.iter().sum();
        let n = sizes.iter().filter(|&&s| s > 0.0).count() as f32;
        rows.w = sizes.iter().map(|&s| s / total.max(1.0) * n).collect();
        rows
    })
}

/// How the block classifier is learned.
#[derive(Debug, Clone, Copy)]
pub struct Learn {
    pub gbdt: crate::learn::gbdt::TrainParams,
    /// Datasets weigh (mean pages per dataset / their pages)^balance: 0 lets every page weigh the
    /// same, 1 every dataset (as the macro average does).
    pub balance: f64,
    /// Folds for the out-of-fold stage-1 probabilities stage 2 learns from; 0 or 1 trains stage 1 only.
    pub stack_folds: usize,
}

impl Default for Learn {
    fn default() -> Self {
        Learn { gbdt: crate::learn::gbdt::TrainParams::default(), balance: 0.5, stack_folds: 4 }
    }
}

/// Rows of many pages, flattened for the learner (rows with weight 0 left out).
fn flatten(pages: &[(PageRows, f32)], x_of: impl Fn(usize, &PageRows) -> Vec<f32>) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut x, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for (k, (p, factor)) in pages.iter().enumerate() {
        let rows = x_of(k, p);
        if rows.is_empty() {
            continue;
        }
        let nf = rows.len() / p.y.len().max(1);
        for b in 0..p.y.len() {
            if p.w[b] > 0.0 {
                x.extend_from_slice(&rows[b * nf..(b + 1) * nf]);
                y.push(p.y[b]);
                w.push(p.w[b] * factor);
            }
        }
    }
    (x, y, w)
}

/// Learn the block classifier from every page with gold text or snippets: stage 1 on the blocks' own features;
/// then, when `stack_folds` > 1, stage 2 on those features plus context features computed from
/// out-of-fold stage-1 probabilities (each page's from a stage 1 that did not see it).
pub fn train(
    datasets: &[Dataset],
    engine: &Engine,
    keep: PageFilter<'_>,
    learn: &Learn,
) -> Result<auto::BlockModel, Error> {
    let counts: Vec<usize> =
        datasets.iter().map(|ds| ds.pages.iter().filter(|p| Labels::available(p) && keep(ds, p)).count()).collect();
    let used: Vec<usize> = counts.iter().copied().filter(|&c| c > 0).collect();
    let mean = used.iter().sum::<usize>() as f64 / used.len().max(1) as f64;
    let mut pages: Vec<(PageRows, f32)> = Vec::new();
    let mut trained_on = Vec::new();
    for (ds, &count) in datasets.iter().zip(&counts) {
        let factor = (mean / count.max(1) as f64).powf(learn.balance) as f32;
        let list: Vec<_> = ds.pages.iter().filter(|p| Labels::available(p) && keep(ds, p)).collect();
        crate::lab::progress::phase(&format!("block features {}", ds.name), Some(list.len() as u64));
        let per: Vec<Option<PageRows>> = list
            .par_iter()
            .map(|p| -> Result<Option<PageRows>, Error> {
                let bytes = ds.html(p)?;
                let rows = Labels::of(p)
                    .and_then(|labels| page_rows(engine, &bytes, p.url.as_deref(), &labels).ok())
                    .filter(|r| r.w.iter().any(|&w| w > 0.0));
                crate::lab::progress::advance(1);
                Ok(rows)
            })
            .collect::<Result<_, _>>()?;
        pages.extend(per.into_iter().flatten().map(|r| (r, factor)));
        if count > 0 {
            trained_on.push(format!("{} ({count} pages with gold or snippets)", ds.name));
        }
    }
    crate::lab::progress::phase("fitting the block classifier", None);
    let names1 = auto::feature_names();
    let fit = |x: &[f32], y: &[f32], w: &[f32], names: &[&str]| {
        crate::learn::gbdt::train(&crate::learn::gbdt::Data { x, y, w, features: names.len() }, names, &learn.gbdt)
    };
    let (x, y, w) = flatten(&pages, |_, p| p.x.clone());
    let stage1 = fit(&x, &y, &w, &names1);
    drop((x, y, w));
    let mut model = auto::BlockModel { stage1, trained_on, ..Default::default() };
    if learn.stack_folds < 2 {
        return Ok(model);
    }
    // Out-of-fold stage-1 probabilities: page k is predicted by a stage 1 trained without its fold.
    let folds = learn.stack_folds;
    let mut oof: Vec<Vec<f64>> = vec![Vec::new(); pages.len()];
    for f in 0..folds {
        let (x, y, w) = flatten(&pages, |k, p| if k % folds == f { Vec::new() } else { p.x.clone() });
        let m = fit(&x, &y, &w, &names1);
        for (k, (p, _)) in pages.iter().enumerate() {
            if k % folds == f {
                let nf = names1.len();
                oof[k] = (0..p.y.len()).map(|b| m.predict(&p.x[b * nf..(b + 1) * nf])).collect();
            }
        }
    }
    let names2 = auto::stage2_names();
    let (x, y, w) = flatten(&pages, |k, p| {
        let ctx = auto::context_features(&p.layout, &oof[k]);
        auto::stage2_rows(&p.x, &ctx, p.y.len())
    });
    model.stage2 = fit(&x, &y, &w, &names2);
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(s: &str) -> Vec<String> {
        words::words(&words::normalize(s))
    }

    #[test]
    fn snippets_label_only_the_blocks_they_cover() {
        let page: crate::lab::dataset::LabelledPage = serde_json::from_value(serde_json::json!({
            "id": "x", "url": null, "lang": null, "has_article": null, "gold": null,
            "with": ["Die Regierung hat am Mittwoch die Förderung für kleine Betriebe erhöht."],
            "without": ["Folgen Sie uns auf allen Kanälen"]
        }))
        .unwrap();
        let labels = Labels::of(&page).unwrap();
        let body = words_of("Die Regierung hat am Mittwoch die Förderung für kleine Betriebe erhöht.");
        assert_eq!(labels.label(&body), Some(1.0));
        assert_eq!(labels.label(&words_of("Folgen Sie uns auf allen Kanälen")), Some(0.0));
        assert_eq!(labels.label(&words_of("Ein ganz anderer Absatz ohne jeden Schnipsel darin")), None);
        let none: crate::lab::dataset::LabelledPage = serde_json::from_value(
            serde_json::json!({"id": "y", "url": null, "lang": null, "has_article": true, "gold": null}),
        )
        .unwrap();
        assert!(Labels::of(&none).is_none(), "a page with neither gold nor snippets labels nothing");
        assert!(Labels::available(&page) && !Labels::available(&none));
    }
}
