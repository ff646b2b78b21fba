//! The page-type model: six one-vs-rest forests over the page signals (`page_type.rs` measures the
//! ones of its own).
//!
//! The answer is one distribution: P(article) is the has-article probability, and the six others
//! share the rest in proportion to their one-vs-rest forests' scores. The label is `article` exactly
//! when P(article) reaches the article threshold, else the likeliest other type, so the label and
//! `has_article.is_article` always agree.
//!
//! A file apart from the signals: loading a model checks its signal names against the table
//! (`page_signals.rs`) that is read off the signals' producers, `page_type.rs` among them.

use serde::{Deserialize, Serialize};

use crate::algorithms::contract::{NonArticleOdds, PageType};
use crate::error::Error;

/// Six one-vs-rest forests, one per non-article type, over the page signals (the has-article
/// signals, `dom_signals` and `url_words`), fitted by [`crate::lab::train::page_type`] on pages
/// labelled with a type.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PageTypeModel {
    pub format: String,
    /// Signal names, in the order the forests read them.
    pub signals: Vec<String>,
    /// One forest per type of [`PageType::NON_ARTICLE`], in that order.
    pub types: Vec<crate::learn::gbdt::Forest>,
    pub trained_on: Vec<String>,
    /// Where each signal sits in the pipeline's list, learned on the first page.
    #[serde(skip)]
    slots: super::article_model::SignalSlots,
}

impl Default for PageTypeModel {
    fn default() -> Self {
        PageTypeModel {
            format: "pith-page-type-1".into(),
            signals: Vec::new(),
            types: Vec::new(),
            trained_on: Vec::new(),
            slots: Default::default(),
        }
    }
}

impl PageTypeModel {
    /// Check shapes after loading.
    pub fn validate(&self) -> Result<(), Error> {
        if !self.types.is_empty() && self.types.len() != PageType::NON_ARTICLE.len() {
            return Err(Error::Config(format!(
                "page-type model: {} forests for {} types",
                self.types.len(),
                PageType::NON_ARTICLE.len()
            )));
        }
        super::page_signals::check("page-type model", &self.signals)?;
        let names: Vec<&str> = self.signals.iter().map(String::as_str).collect();
        for f in &self.types {
            f.validate(&names).map_err(|e| Error::Config(format!("page-type model: {e}")))?;
        }
        Ok(())
    }

    /// True when the model has been trained.
    pub fn is_trained(&self) -> bool {
        self.types.iter().any(|f| f.is_trained())
    }

    /// The odds of each non-article type given that the page is not an article; signals the model
    /// does not know are ignored, missing ones count as 0.
    pub fn odds(&self, signals: &[(&str, f64)]) -> Option<NonArticleOdds> {
        if !self.is_trained() {
            return None;
        }
        let x: Vec<f32> = self.slots.values(&self.signals, signals).map(|v| v.unwrap_or(0.0) as f32).collect();
        let mut odds = [0.0f64; 6];
        for (o, f) in odds.iter_mut().zip(&self.types) {
            *o = f.predict(&x).max(1e-6);
        }
        let sum: f64 = odds.iter().sum();
        Some(NonArticleOdds(odds.map(|o| o / sum)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untrained_model_gives_no_odds_and_trained_odds_sum_to_one() {
        let m = PageTypeModel::default();
        assert!(m.odds(&[]).is_none());
        m.validate().unwrap();
        let names = vec!["cards".to_string()];
        let rows: Vec<f32> = (0..60).map(|i| (i % 6) as f32).collect();
        let types: Vec<crate::learn::gbdt::Forest> = (0..6)
            .map(|k| {
                let y: Vec<f32> = rows.iter().map(|&v| f32::from(u8::from(v as usize == k))).collect();
                let w = vec![1.0f32; y.len()];
                let p = crate::learn::gbdt::TrainParams {
                    trees: 20,
                    max_depth: 2,
                    learning_rate: 0.3,
                    lambda: 1.0,
                    min_child_weight: 1.0,
                };
                crate::learn::gbdt::train(
                    &crate::learn::gbdt::Data { x: &rows, y: &y, w: &w, features: 1 },
                    &["cards"],
                    &p,
                )
            })
            .collect();
        let m = PageTypeModel { signals: names, types, ..PageTypeModel::default() };
        m.validate().unwrap();
        let odds = m.odds(&[("cards", 2.0)]).unwrap();
        assert!((odds.0.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(odds.likeliest(), PageType::Collection, "{odds:?}");
    }
}
