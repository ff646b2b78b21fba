//! Reader comments and reviews: the comment threads the first choice leaves out and a product's
//! customer reviews (rule `product-reviews`). One family because both are containers named for
//! comments or reviews after the first chosen text; only what spares one differs.

use super::unchoose::drop_named_after_first;
use crate::algorithms::auto::lexicon;
use crate::dom::{Document, NodeId};

/// Unchoose the text of comment threads: containers named for comments that start after the first
/// chosen text node and do not hold the page's most confident block. Comments follow the article, so
/// a container that holds the article's beginning or its surest paragraph (a page wrapper that
/// happens to carry such a name, an opinion section's "tone-comment") is never one; readers' comments
/// are prose and the block classifier alone keeps some.
pub(super) fn drop_comment_threads(doc: &Document, chosen: &mut [bool], surest: NodeId) {
    drop_threads(doc, chosen, surest, &lexicon::COMMENT_THREADS);
}

/// [`drop_comment_threads`] for the containers `rules` name (a product's reviews:
/// [`lexicon::REVIEW_THREADS`]). Returns whether any chosen text was unchosen.
pub(super) fn drop_threads(doc: &Document, chosen: &mut [bool], surest: NodeId, rules: &[lexicon::Names]) -> bool {
    drop_named_after_first(doc, chosen, rules, |i, n| !(i..n.end).contains(&surest))
}

#[cfg(test)]
mod tests {
    use super::super::testing::chosen_text;
    use super::*;
    use crate::dom::NONE;

    /// Choose every text node, drop comment threads, and return the text still chosen.
    fn kept_after_comment_drop(html: &str, surest_text: &str) -> String {
        let doc = Document::parse(html);
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let surest = (0..doc.len() as NodeId)
            .find(|&i| doc.node(i).is_text() && doc.text(i).contains(surest_text))
            .map(|i| doc.node(i).parent)
            .unwrap_or(NONE);
        drop_comment_threads(&doc, &mut chosen, surest);
        (0..doc.len() as NodeId)
            .filter(|&i| chosen[i as usize])
            .map(|i| doc.text(i).trim())
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn comment_threads_after_the_article_are_dropped() {
        let page = "<body><h1>Title</h1><div class=post><p>Article text.</p></div>\
                    <div id=comments><h3>Comments</h3><p>A reader writes at length.</p></div></body>";
        assert_eq!(kept_after_comment_drop(page, "Article"), "Title|Article text.");
        // A wrapper named for comments that holds the article's start is not a thread.
        let wrapped = "<body><div class='main has-comments'><h1>Title</h1><p>Article text.</p></div></body>";
        assert_eq!(kept_after_comment_drop(wrapped, "Article"), "Title|Article text.");
        // Nor is one holding the surest block, even when something before it was kept.
        let opinion = "<body><p>Menu</p><div class='tone-comment'><p>Opinion text.</p></div></body>";
        assert_eq!(kept_after_comment_drop(opinion, "Opinion"), "Menu|Opinion text.");
        // "commentary" is an opinion section, not reader comments.
        let commentary = "<body><p>Lead.</p><div class=commentary><p>More text.</p></div></body>";
        assert_eq!(kept_after_comment_drop(commentary, "Lead"), "Lead.|More text.");
        let thread = |name: &str| lexicon::matches_any(&lexicon::COMMENT_THREADS, name);
        assert!(thread("disqus_thread") && thread("pinglun-box"));
        assert!(!thread("recommend") && !thread("commentary"));
    }

    #[test]
    fn a_products_reviews_are_its_comment_thread() {
        let page = "<body><h1>Trail pack</h1><div class=description><p>A 25-litre pack with a padded back.</p></div>\
                    <section id=product-reviews><h2>Reviews</h2><p>Took it out last weekend and loved it.</p></section>\
                    <p>Ships in two days.</p></body>";
        let doc = Document::parse(page);
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let surest =
            (0..doc.len() as NodeId).find(|&i| doc.text(i).starts_with("A 25-litre")).map(|i| doc.node(i).parent);
        assert!(drop_threads(&doc, &mut chosen, surest.unwrap_or(NONE), &lexicon::REVIEW_THREADS));
        assert_eq!(chosen_text(&doc, &chosen), "Trail pack|A 25-litre pack with a padded back.|Ships in two days.");
        // The same container as the page's surest block (a "review" article's body) stays.
        let mut all: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let in_reviews =
            (0..doc.len() as NodeId).find(|&i| doc.text(i).starts_with("Took it")).map(|i| doc.node(i).parent);
        assert!(!drop_threads(&doc, &mut all, in_reviews.unwrap_or(NONE), &lexicon::REVIEW_THREADS));
    }
}
