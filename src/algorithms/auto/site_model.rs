//! The site model: which of a chosen block's recurrences on its site's other pages make it the site's
//! chrome. Read by the rule `site-template` (`select::site`) when the caller learned the page's site;
//! on a page extracted alone it is never asked.
//!
//! Why learned: whether a block that recurs is chrome depends on how it recurs. A menu recurs
//! verbatim; a `来源：X` line or a date line recurs by its place and its first characters, with other
//! words; a listing's item cards recur by place on every listing page of the site and are its content;
//! an article's paragraphs recur nowhere. One threshold on one kind of recurrence cannot tell these
//! apart (an exact-text threshold below "every other page" took listing cards: see `select::site`), a
//! small forest over all of them and the block classifier's own probability can. Its inputs are
//! [`SITE_FEATURES`]; it is fitted by `lab::train::site` on the developer
//! sets' pages of sites with several pages, each page's site learned from its other pages.

use serde::{Deserialize, Serialize};

use crate::learn::gbdt::Forest;

/// The inputs of the site model, in row order: the block's size and link share, how many other pages
/// the site model learned, on what share of them the block's signature, place, lead, tail and text
/// recur, where on the page it stands, whether the page is judged an article, and where the block
/// stands against the page's record regions and its longest prose run (a listing's records recur by
/// place on every listing page of a site and are its content).
///
/// Not the block classifier's probability: trained on the block classifier's own training pages, the
/// model saw that probability near 0 or 1 and learned to trust it, and a retrained block classifier
/// moved its answers (a `来源：X` line at 0.80 to 0.90 was kept by four site models of five). Without
/// it, site-grouped 3-fold CV on the fifteen sets' pages of sites with 3+ pages (`pith eval --cv 3
/// --site-context`, site models retrained on each fold's block models): F1 with site context against
/// without +0.001 -> +0.003, precision +0.009 -> +0.008, pages hurt by more than 0.05 F1 15 -> 9
/// (products-zyte -0.006 -> +0.030).
pub const SITE_FEATURES: &[&str] = &[
    "chars_ln",
    "link_share",
    "site_pages_ln",
    "same_signature",
    "same_place",
    "same_lead",
    "same_tail",
    "same_text",
    "page_at",
    "page_is_article",
    "page_is_records",
    "in_records",
    "in_prose",
    "sentences_ln",
    "punct_share",
    "in_list",
    "cjk_share",
    "region_share",
    "region_link_share",
    "region_records_ln",
];

/// Length of a site model row.
pub const SITE_ROW: usize = 20;
const _: () = assert!(SITE_ROW == SITE_FEATURES.len());

/// A block the model gives a content probability below this is the site's chrome.
const CHROME_BELOW: f64 = 0.5;

/// A trained site model, or an untrained one (then the rule falls back to exact recurrence).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct SiteModel {
    pub trees: Forest,
    /// What it was trained on, for the record.
    #[serde(default)]
    pub trained_on: Vec<String>,
}

impl SiteModel {
    pub fn is_trained(&self) -> bool {
        self.trees.is_trained()
    }

    /// Check a loaded model against the inputs the code computes.
    pub fn validate(&self) -> Result<(), String> {
        if !self.is_trained() {
            return Ok(());
        }
        self.trees.validate(SITE_FEATURES)
    }

    /// The probability that a chosen block with these inputs is the page's content.
    pub fn content_probability(&self, row: &[f32]) -> f64 {
        self.trees.predict(row)
    }

    /// Whether the block with these inputs is the site's chrome.
    pub fn is_chrome(&self, row: &[f32]) -> bool {
        self.content_probability(row) < CHROME_BELOW
    }
}
