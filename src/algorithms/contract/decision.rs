//! The decision record: for every block an algorithm judged one by one, whether the answer keeps it
//! and which step of the algorithm decided so. `auto` writes it as it chooses (the threshold, the
//! comment test, a page type's threshold, the fallbacks, each rule of its table, the lead), and every
//! view of "why was this kept?" renders this one record: the explanation lines (`pith extract
//! --format explain`), the explanation page, the service's `blocks` (`decided_by`) and the evaluation's
//! count of what each step left out. A view that worked the decision out again could disagree with
//! the answer; one that reads the record cannot.

use crate::dom::NodeId;

/// The step that decided a block's fate: the last one that kept or dropped it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecidedBy {
    /// The block classifier's probability against `params.auto.block_threshold`.
    Threshold,
    /// The page was chosen again for its type: that type's threshold (`params.auto.type_thresholds`),
    /// or a forum thread's replies taken as its content.
    TypeThreshold,
    /// Left out of the first choice as a reader-comment thread (`include_comments` keeps them).
    CommentThread,
    /// No block reached `params.auto.no_content_below`: the page has no main content.
    NoContent,
    /// No block reached the threshold on a page with little text: all of it is the answer
    /// (`params.auto.small_page_chars`).
    SmallPage,
    /// The heuristic CECTD region chose (no trained block model, or no block reached the threshold).
    Region,
    /// A page that is not an article answered with its lead only (`no_article_text = "lead"`).
    Lead,
    /// A site rule (`config/sites/`, `--sites`) gave the content.
    SiteRule,
    /// A rule of `auto`'s table (`algorithms/auto/select/rules.rs`), by its name.
    Rule(&'static str),
}

impl DecidedBy {
    /// The steps that are not rules, in the order `auto` takes them.
    pub const STEPS: [DecidedBy; 8] = [
        DecidedBy::Threshold,
        DecidedBy::TypeThreshold,
        DecidedBy::CommentThread,
        DecidedBy::NoContent,
        DecidedBy::SmallPage,
        DecidedBy::Region,
        DecidedBy::Lead,
        DecidedBy::SiteRule,
    ];

    /// The step's name, kebab-case and stable (a rule's own name for a rule): what the service's
    /// `blocks[].decided_by` and the explanation views print.
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::Threshold => "threshold",
            DecidedBy::TypeThreshold => "type-threshold",
            DecidedBy::CommentThread => "comment-thread",
            DecidedBy::NoContent => "no-content",
            DecidedBy::SmallPage => "small-page",
            DecidedBy::Region => "region",
            DecidedBy::Lead => "lead",
            DecidedBy::SiteRule => "site-rule",
            DecidedBy::Rule(name) => name,
        }
    }
}

impl std::fmt::Display for DecidedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One judged block's entry in the record.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The block's owner element (its nearest block-level element).
    pub owner: NodeId,
    /// The block's own text nodes, in order (filled when the caller asked for blocks; empty otherwise).
    pub texts: Vec<NodeId>,
    /// Characters of the block's text, and of its link text.
    pub chars: u32,
    pub link_chars: u32,
    /// The algorithm's probability that the block is main content.
    pub probability: f64,
    /// The answer holds the block's text (some of it, when a step left part of it out).
    pub kept: bool,
    pub decided_by: DecidedBy,
    /// The record region the block's innermost record belongs to (an index into the page's regions),
    /// when it is in one: a run of alike siblings, a listing's cards, a feed's items, a thread's posts.
    pub region: Option<u32>,
}
