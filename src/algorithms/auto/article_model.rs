//! The has-article model over the signals `auto` measures: the page's P value (Lv et al.), the amount
//! and shape of the text the block classifier kept and how sure it was, the page's link density and
//! repeated "card" structure, what the page declares about itself (Open Graph type, JSON-LD types, a
//! publication time) and the shape of its address.
//!
//! Why a learned combiner: the P value alone calls short Chinese articles "no article" and listing
//! pages with one long footer "article"; measures weighed against each other by data get both right.
//! Two forms: a small ensemble of shallow trees (the default), and a logistic regression (every
//! weight readable). The trees won on the developers' datasets: 5-fold cross-validated over the 1,339
//! labelled pages, has-article accuracy on the listing-heavy tiptopjaw-2026 set was 0.83 for depth-2
//! trees against 0.75 for the regression, with expected calibration error 0.007 against 0.013 —
//! declarations such as `og:type` only matter in combination with the text measures, which a linear
//! model cannot express.
//!
//! Both forms are stored; when the trees are trained they alone give the probability, and the
//! regression's standardised weights stay in the file for reading. Both are fitted by
//! [`crate::lab::train::has_article`].

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::learn::gbdt::sigmoid;

/// A trained model.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ArticleModel {
    pub format: String,
    /// Signal names, in the order of `weights`.
    pub signals: Vec<String>,
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    pub weights: Vec<f64>,
    pub bias: f64,
    pub trained_on: Vec<String>,
    /// The tree ensemble; when trained it is used instead of the regression weights.
    #[serde(default)]
    pub trees: crate::learn::gbdt::Forest,
    /// Where each signal sits in the pipeline's list, learned on the first page.
    #[serde(skip)]
    slots: SignalSlots,
}

impl Default for ArticleModel {
    fn default() -> Self {
        ArticleModel {
            format: "pith-article-1".into(),
            signals: Vec::new(),
            mean: Vec::new(),
            scale: Vec::new(),
            weights: Vec::new(),
            bias: 0.0,
            trained_on: Vec::new(),
            trees: crate::learn::gbdt::Forest::default(),
            slots: SignalSlots::default(),
        }
    }
}

impl ArticleModel {
    /// Check shapes after loading.
    pub fn validate(&self) -> Result<(), Error> {
        let n = self.signals.len();
        if self.mean.len() != n || self.scale.len() != n || self.weights.len() != n {
            return Err(Error::Config("article model: signals, mean, scale and weights differ in length".into()));
        }
        super::page_signals::check("article model", &self.signals)?;
        let names: Vec<&str> = self.signals.iter().map(String::as_str).collect();
        self.trees.validate(&names).map_err(|e| Error::Config(format!("article model: {e}")))
    }

    /// True when the model has been trained.
    pub fn is_trained(&self) -> bool {
        !self.weights.is_empty() || self.trees.is_trained()
    }

    /// P(article | signals). Signals the model does not know are ignored; missing ones count as the mean.
    pub fn probability(&self, signals: &[(&str, f64)]) -> f64 {
        if self.trees.is_trained() {
            let x: Vec<f32> = self
                .slots
                .values(&self.signals, signals)
                .enumerate()
                .map(|(k, v)| v.unwrap_or(self.mean.get(k).copied().unwrap_or(0.0)) as f32)
                .collect();
            return self.trees.predict(&x);
        }
        let mut z = self.bias;
        for (k, name) in self.signals.iter().enumerate() {
            if let Some((_, v)) = signals.iter().find(|(n, _)| n == name) {
                z += self.weights[k] * (v - self.mean[k]) / self.scale[k];
            }
        }
        sigmoid(z)
    }
}

/// Where each of a model's signals sits in the list the pipeline builds for a page, found by name on
/// the first page and checked by name on every later one (searched for again when it is not there).
/// The pipeline builds the list in one order on every page, and a search from the front per signal
/// compared thousands of names per page, a measurable share of a small page's extraction.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct SignalSlots(crate::learn::memo::Memo<Vec<Option<usize>>>);

impl SignalSlots {
    /// The value of each of `names` in `signals` (the first of a repeated name), `None` where absent.
    pub(super) fn values<'s>(
        &'s self,
        names: &'s [String],
        signals: &'s [(&str, f64)],
    ) -> impl Iterator<Item = Option<f64>> + 's {
        let find = move |name: &str| signals.iter().position(|(n, _)| *n == name);
        let slots = self.0.get_or_init(|| names.iter().map(|n| find(n)).collect());
        names.iter().enumerate().map(move |(k, name)| {
            let at = match slots.get(k).copied().flatten() {
                // At its place, and no earlier namesake can precede it there unless the list changed
                // order, which the name check below catches for the signal that moved.
                Some(i) if signals.get(i).is_some_and(|(n, _)| *n == name) => Some(i),
                _ => find(name),
            };
            at.map(|i| signals[i].1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untrained_model_is_neutral() {
        let m = ArticleModel::default();
        assert!(!m.is_trained());
        assert_eq!(m.probability(&[("a", 1.0)]), 0.5);
    }

    #[test]
    fn signal_slots_follow_the_names_when_the_list_changes_order() {
        let names: Vec<String> = ["b", "a", "z"].map(String::from).to_vec();
        let slots = SignalSlots::default();
        let read = |signals: &[(&str, f64)]| slots.values(&names, signals).collect::<Vec<_>>();
        assert_eq!(read(&[("a", 1.0), ("b", 2.0)]), [Some(2.0), Some(1.0), None]);
        // The places learned above are checked by name, not trusted.
        assert_eq!(read(&[("b", 3.0), ("a", 4.0), ("z", 5.0)]), [Some(3.0), Some(4.0), Some(5.0)]);
        assert_eq!(read(&[("x", 0.0), ("a", 6.0), ("b", 7.0), ("b", 8.0)]), [Some(7.0), Some(6.0), None]);
        assert_eq!(read(&[]), [None, None, None]);
    }
}
