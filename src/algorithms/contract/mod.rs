//! The contract between the engine and every algorithm, underneath all of them: what an algorithm is
//! given (a [`Context`]: the parsed page and the parameters), what it answers (an [`Outcome`]: content,
//! a has-article probability, scored [`Block`]s), and the few helpers every algorithm shares.
//!
//! The seed methods and `auto` depend on this module and on the DOM below it, never on each other's
//! internals: `auto` reads the seed methods through the measures their modules publish. Models are not
//! part of the context: an algorithm that needs one takes it as an argument, so what a method depends
//! on is in its signature.

pub mod decision;
mod page_type;
pub mod params;

pub use page_type::PageType;

use crate::dom::{Document, NodeId};
use crate::metadata::page_meta::PageMeta;
use params::Params;

/// What an algorithm sees: the parsed page, its source and declarations, and the parameters.
pub struct Context<'a> {
    pub doc: &'a Document,
    /// The pre-stripped HTML source, kept only for algorithms that read it (the line-based method
    /// works on source lines, not on the DOM); empty otherwise.
    pub source: &'a str,
    pub params: &'a Params,
    /// What the page declares about itself (scanned only for algorithms that read it; default otherwise).
    pub meta: &'a PageMeta,
    /// The page's address, when known.
    pub url: Option<&'a str>,
    /// The caller wants per-block scores (an algorithm may skip building them otherwise).
    pub want_blocks: bool,
    /// `Some(max)` when the per-block scores are read only by the block report, which lists the top
    /// `max` blocks by rank and content blocks up to four times `max` ([`keep_listed`]) and nothing
    /// else: an algorithm may then keep only the blocks the report can list, and leave out what only
    /// an explanation reads (its decisions' text nodes). A page of a hundred thousand elements held
    /// that many scored blocks for a report of fifty. `None`: every block may be read.
    pub blocks_listed: Option<usize>,
    /// The page's layout, for the visual methods (`vips`, `cehtd-ds`); `None` unless rendered.
    pub layout: Option<&'a crate::dom::layout::Layout>,
    /// The description of the one product the page declares in JSON-LD, in paragraphs (empty when it
    /// declares none, or when the declarations were not read).
    pub product_description: &'a [String],
    /// The site's template learned from its other pages, when the caller has one (`auto` leaves out
    /// what the site repeats).
    pub site: Option<&'a crate::site::SiteTemplate>,
    /// The caller wants the page's block signatures, what it teaches its site's template (`auto`
    /// gives them from its own blocks, [`Outcome::signatures`]; a service that learns its sites asks).
    pub sign: bool,
}

#[cfg(test)]
impl<'a> Context<'a> {
    /// The parsed page alone, block scores wanted: no source, declarations, address, layout or site.
    /// What the algorithms' tests start from, adding what the method under test reads.
    pub(crate) fn of_page(doc: &'a Document, params: &'a Params) -> Context<'a> {
        static NO_DECLARATIONS: std::sync::LazyLock<PageMeta> = std::sync::LazyLock::new(PageMeta::default);
        Context {
            doc,
            source: "",
            params,
            meta: &NO_DECLARATIONS,
            url: None,
            want_blocks: true,
            blocks_listed: None,
            layout: None,
            product_description: &[],
            site: None,
            sign: false,
        }
    }
}

/// The main content an algorithm chose.
#[derive(Debug, Clone)]
pub enum Content {
    /// Whole subtrees, in document order, none inside another.
    Nodes(Vec<NodeId>),
    /// Text paragraphs, for methods that work on source lines rather than on nodes.
    Text(Vec<String>),
    /// Paragraphs the page declares but does not show (a product description in its JSON-LD), then
    /// subtrees as in `Nodes`.
    Mixed { paragraphs: Vec<String>, roots: Vec<NodeId> },
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
    /// The step that decided the block, for the blocks an algorithm judged one by one (`auto`'s text
    /// blocks, by their owner element): from the decision record.
    pub decided_by: Option<decision::DecidedBy>,
    /// The record region the judged block is in (`auto`; see [`decision::Decision::region`]).
    pub region: Option<u32>,
}

impl Block {
    /// A block as the seed methods score it: no decision record (`decided_by` is `auto`'s).
    pub fn new(node: NodeId, scores: Vec<(&'static str, f64)>, content: bool, rank: f64) -> Block {
        Block { node, scores, content, rank, decided_by: None, region: None }
    }
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
    /// Which other type the page is if it is not an article (methods with a page-type model only).
    pub non_article: Option<NonArticleOdds>,
    /// What the site's template did, when the algorithm was given one and read it (`auto`).
    pub site_template: Option<SiteTemplateUse>,
    /// The decision record: one entry per block the algorithm judged one by one, in document order
    /// (`auto`; empty for the seed methods, which decide by regions and thresholds).
    pub decisions: Vec<decision::Decision>,
    /// The page's block signatures, when the context asked for them and the algorithm cuts the page
    /// into `auto`'s blocks (`auto`); `None` otherwise.
    pub signatures: Option<crate::site::PageSignatures>,
}

/// What a site's template did to one page: learned from how many of the site's other pages, and how
/// many blocks of the answer it left out as the site's chrome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct SiteTemplateUse {
    pub pages: u32,
    pub blocks_removed: u32,
}

impl Outcome {
    /// A seed method's answer: its content, its has-article probability and its scored blocks, with
    /// no signals, page type, template or decision record (what only `auto` reports).
    pub fn new(content: Content, probability: f64, blocks: Vec<Block>) -> Outcome {
        Outcome {
            content,
            probability,
            blocks,
            signals: Vec::new(),
            non_article: None,
            site_template: None,
            decisions: Vec::new(),
            signatures: None,
        }
    }

    /// The same answer with the measures behind its probability.
    pub fn with_signals(self, signals: Vec<(&'static str, f64)>) -> Outcome {
        Outcome { signals, ..self }
    }

    /// Replace the content with `roots`, which `step` chose (a site rule over the algorithm): the
    /// blocks' content flags and the decision record say so.
    pub fn give_content(&mut self, doc: &Document, roots: Vec<NodeId>, step: decision::DecidedBy) {
        let inside = |node: NodeId| roots.iter().any(|&r| doc.contains(r, node));
        for b in &mut self.blocks {
            b.content = inside(b.node);
            if b.decided_by.is_some() {
                b.decided_by = Some(step);
            }
        }
        for d in &mut self.decisions {
            d.kept = inside(d.owner);
            d.decided_by = step;
        }
        self.content = Content::Nodes(roots);
    }

    /// No content, probability 0: the answer of a method that found nothing.
    pub fn empty() -> Outcome {
        Outcome::new(Content::Nodes(Vec::new()), 0.0, Vec::new())
    }
}

/// The probability of each type of [`PageType::NON_ARTICLE`] given that the page is not an article
/// (they sum to 1). With the has-article probability they make the page-type distribution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonArticleOdds(pub [f64; 6]);

impl NonArticleOdds {
    /// The likeliest type (the first in [`PageType::NON_ARTICLE`] on ties).
    pub fn likeliest(&self) -> PageType {
        let mut best = 0;
        for (k, &v) in self.0.iter().enumerate() {
            if v > self.0[best] {
                best = k;
            }
        }
        PageType::NON_ARTICLE[best]
    }
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

/// Safe ratio: a zero denominator is replaced by 1, as Sun, Song & Liao prescribe.
pub fn ratio(num: f64, den: f64) -> f64 {
    num / if den == 0.0 { 1.0 } else { den }
}

/// Blocks for the answer: every element under body with text, scored by `score`, flagged when inside a
/// content root.
pub fn score_elements(
    doc: &Document,
    content: &[NodeId],
    score: impl Fn(NodeId) -> (Vec<(&'static str, f64)>, f64),
) -> Vec<Block> {
    score_elements_listed(doc, content, None, score)
}

/// [`score_elements`], keeping only the blocks a report of `listed` blocks can list
/// ([`Context::blocks_listed`]; all with `None`), a few thousand at most at any time.
pub fn score_elements_listed(
    doc: &Document,
    content: &[NodeId],
    listed: Option<usize>,
    score: impl Fn(NodeId) -> (Vec<(&'static str, f64)>, f64),
) -> Vec<Block> {
    let mut in_content = vec![false; doc.len()];
    for &r in content {
        for i in r..doc.node(r).end {
            in_content[i as usize] = true;
        }
    }
    let mut out = Vec::new();
    // Pruned whenever this many are held: each pruning sorts them once, so the cost stays linear in
    // the page's blocks for a bound in the thousands.
    let bound = listed.map_or(usize::MAX, |max| max.saturating_mul(10).max(4096));
    for i in elements(doc).filter(|&i| doc.node(i).stats.chars > 0) {
        let (scores, rank) = score(i);
        out.push(Block::new(i, scores, in_content[i as usize], rank));
        if out.len() >= bound
            && let Some(max) = listed
        {
            keep_listed(&mut out, max);
        }
    }
    out
}

/// The order the block report ranks blocks in: by rank, highest first, then in document order.
pub fn report_order(a: &Block, b: &Block) -> std::cmp::Ordering {
    b.rank.total_cmp(&a.rank).then(a.node.cmp(&b.node))
}

/// Keep, of `blocks`, those a report of `max` can list whatever blocks are added later: the top
/// `max` by [`report_order`], and the top `4·max` content blocks (the report adds up to `3·max`
/// content blocks after its top `max`, and at most `max` of the top content blocks are among those).
/// A block dropped here is outranked by enough others that it never comes back into either set.
pub fn keep_listed(blocks: &mut Vec<Block>, max: usize) {
    blocks.sort_unstable_by(report_order);
    let (mut k, mut content) = (0, 0);
    blocks.retain(|b| {
        let keep = k < max || (b.content && content < max.saturating_mul(4));
        k += 1;
        content += usize::from(b.content);
        keep
    });
}

/// A density method has no has-article model of its own; report the share of the page's non-link text
/// that the content holds, squashed so that a page whose content is a few lines scores low.
pub fn coverage_probability(doc: &Document, blocks: &[Block]) -> f64 {
    let body = doc.node(doc.body).stats;
    let total = body.non_link_chars().max(1) as f64;
    let content_blocks = blocks.iter().filter(|b| b.content).map(|b| b.node).collect();
    let content: u32 = topmost(doc, content_blocks).iter().map(|&b| doc.node(b).stats.non_link_chars()).sum();
    coverage(content as f64, total)
}

/// Share of the page's text that is content, squashed by the content's size (500 characters give
/// 0.63): the has-article stand-in of the methods that have no model of their own.
pub fn coverage(content_chars: f64, page_chars: f64) -> f64 {
    let share = content_chars / page_chars.max(1.0);
    (share * (1.0 - (-content_chars / 500.0).exp())).clamp(0.0, 1.0)
}
