//! `auto`'s page-type model: six one-vs-rest forests, one per non-article type, fitted on the page
//! signals of the pages labelled with a `page_type` other than `article` (the article/not-article
//! split is the has-article model's job, learned from many more pages).
//!
//! One-vs-rest rather than one multi-class forest: each forest is the same small binary learner the
//! has-article model uses ([`crate::learn::gbdt`]), and each type's trees can be read on their own.

use super::has_article::{PageSignals, tree_params};
use crate::algorithms::auto::PageTypeModel;
use crate::algorithms::contract::PageType;
use crate::error::Error;
use crate::learn::gbdt;

/// Fit the six forests. Pages of a type outside [`PageType::NON_ARTICLE`] (and articles) are not read.
/// Without any such page the model stays untrained (`auto` then answers no page type).
pub fn train(data: &PageSignals) -> Result<PageTypeModel, Error> {
    let mut x: Vec<f32> = Vec::new();
    let mut kinds: Vec<usize> = Vec::new();
    for (r, t) in data.rows.iter().zip(&data.page_type) {
        let Some(k) = t.and_then(|t| PageType::NON_ARTICLE.iter().position(|&n| n == t)) else { continue };
        x.extend(r.iter().map(|&v| v as f32));
        kinds.push(k);
    }
    if kinds.is_empty() {
        return Ok(PageTypeModel::default());
    }
    let names: Vec<&str> = data.names.iter().map(String::as_str).collect();
    let w = vec![1.0f32; kinds.len()];
    let types = (0..PageType::NON_ARTICLE.len())
        .map(|k| {
            let y: Vec<f32> = kinds.iter().map(|&t| f32::from(u8::from(t == k))).collect();
            gbdt::train(&gbdt::Data { x: &x, y: &y, w: &w, features: names.len() }, &names, &tree_params())
        })
        .collect();
    let counts: Vec<String> = PageType::NON_ARTICLE
        .iter()
        .enumerate()
        .map(|(k, n)| format!("{n} {}", kinds.iter().filter(|&&t| t == k).count()))
        .collect();
    let mut trained_on: Vec<String> = Vec::new();
    let mut at = 0;
    for (name, n) in &data.sources {
        let typed = data.page_type[at..at + n].iter().filter(|t| t.is_some_and(|t| t != PageType::Article)).count();
        if typed > 0 {
            trained_on.push(format!("{name} ({typed} rows; a page with a URL gives two)"));
        }
        at += n;
    }
    trained_on.push(format!("by type, rows: {}", counts.join(", ")));
    let mut model = PageTypeModel::default();
    (model.signals, model.types, model.trained_on) = (data.names.clone(), types, trained_on);
    Ok(model)
}
