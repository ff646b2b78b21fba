//! Stage 4: the seed papers' algorithms, one module each, all reading the same [`Document`].
//!
//! Every algorithm returns an [`Outcome`]: which nodes (or, for the line-based method, which text) make
//! up the main content, a has-article probability, and the blocks it scored with its measures, so a
//! user can see why. `combine` builds the default `auto` pipeline from them.

pub mod anchor_ratio;
pub mod bayes;
pub mod cetd;
pub mod dom_stats;
pub mod line_density;
pub mod pvalue;
pub mod template;

use serde::{Deserialize, Serialize};

use crate::dom::{Document, NodeId};

/// Every algorithm's parameters, defaulting to the papers' values. `pith serve` reads them from the
/// `[params]` table of its configuration (file or `PITH_PARAMS__<ALGORITHM>__<KEY>`), so each can be
/// overridden without a rebuild.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    pub cetd: cetd::CetdParams,
    pub pvalue: pvalue::PValueParams,
    pub bayes: bayes::BayesParams,
    pub anchor_ratio: anchor_ratio::AnchorRatioParams,
    pub line_density: line_density::LineDensityParams,
    pub dom_stats: dom_stats::DomStatsParams,
    pub auto: crate::combine::AutoParams,
}

/// What an algorithm sees: the parsed page and everything loaded at start-up.
pub struct Context<'a> {
    pub doc: &'a Document,
    /// The pre-stripped HTML source (the line-based method works on source lines, not on the DOM).
    pub html: &'a str,
    pub params: &'a Params,
    pub bayes: &'a bayes::BayesModel,
    pub article: &'a crate::article::ArticleModel,
    /// `auto`'s block classifier (untrained: `auto` keeps its heuristic region).
    pub block_model: &'a crate::combine::BlockModel,
    /// What the page declares about itself (read only for `auto`; default otherwise).
    pub meta: &'a crate::meta::PageMeta,
    /// The page's address, when known.
    pub url: Option<&'a str>,
    /// The caller wants per-block scores (an algorithm may skip building them otherwise).
    pub want_blocks: bool,
}

/// The main content an algorithm chose.
#[derive(Debug, Clone)]
pub enum Content {
    /// Whole subtrees, in document order, none inside another.
    Nodes(Vec<NodeId>),
    /// Text paragraphs, for methods that work on source lines rather than on nodes.
    Text(Vec<String>),
}

/// One scored block: a node and the measures the algorithm gave it.
#[derive(Debug, Clone)]
pub struct Block {
    pub node: NodeId,
    pub scores: Vec<(&'static str, f64)>,
    /// True when the block is (part of) the extracted content.
    pub content: bool,
    /// The value blocks are ranked by when the list is cut to its top N.
    pub rank: f64,
}

/// An algorithm's answer.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub content: Content,
    /// Probability that the page has an article at all.
    pub probability: f64,
    pub blocks: Vec<Block>,
    /// The measures behind `probability`, reported so a user can see why (empty for methods whose
    /// probability is a single formula).
    pub signals: Vec<(&'static str, f64)>,
}

/// Names and one-line descriptions of every selectable algorithm, `auto` first.
pub const ALGORITHMS: &[(&str, &str)] = &[
    (
        "auto",
        "default: every seed measure per text block, weighed by a learned two-stage classifier; has-article model",
    ),
    ("cetd-ds", "Text Density + DensitySum + threshold (Sun, Song & Liao)"),
    ("cectd-ds", "Composite Text Density (link-aware) + DensitySum (Sun, Song & Liao)"),
    ("cectd-s", "Composite Text Density with sibling smoothing instead of DensitySum (Sun, Song & Liao)"),
    (
        "p-value",
        "P = (l_t/l_s)·(l_vt/L_VT) per tag; max-P tag is the text, page P the has-article probability (Lv et al.)",
    ),
    ("bayes", "Naive Bayes block classifier over four binned block features, trained on labelled pages (seed 000)"),
    ("anchor-ratio", "XPath blocks with AR = 0.75·ATR + 0.25·ANR, leaves kept when AR < 60% (seed 003)"),
    (
        "line-density",
        "tag-stripped source lines grouped by blank lines, blocks kept over a length threshold (survey §2.1)",
    ),
    (
        "dom-stats",
        "DOM nodes whose text/link count and length ratios pass a threshold, merged in preorder (survey §2.2)",
    ),
    ("template", "per-site rules from config/sites: CSS selectors for content and noise (survey §1, wrappers)"),
];

/// Names only, in the order of [`ALGORITHMS`].
pub fn names() -> Vec<&'static str> {
    ALGORITHMS.iter().map(|(n, _)| *n).collect()
}

/// Keep only the topmost of a set of nodes (drop any node inside another), sorted in document order.
pub fn topmost(doc: &Document, mut ids: Vec<NodeId>) -> Vec<NodeId> {
    ids.sort_unstable();
    ids.dedup();
    let mut out: Vec<NodeId> = Vec::with_capacity(ids.len());
    for id in ids {
        if out.last().is_some_and(|&last| doc.contains(last, id)) {
            continue;
        }
        out.push(id);
    }
    out
}

/// Element ids in `body`'s subtree, `body` included, in document order.
pub fn elements(doc: &Document) -> impl Iterator<Item = NodeId> + '_ {
    let body = doc.body;
    (body..doc.node(body).end).filter(move |&i| !doc.node(i).is_text())
}

/// Safe ratio: a zero denominator is replaced by 1, as seed 004 prescribes.
pub fn ratio(num: f64, den: f64) -> f64 {
    num / if den == 0.0 { 1.0 } else { den }
}
