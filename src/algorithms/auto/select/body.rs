//! An article's body, completed where the classifier left parts of it under its threshold: the prose
//! a lone kept headline leads into (rule `headline-body`), and the paragraphs that stand among the
//! body's kept paragraphs in one element (rule `body-paragraphs`). Both only add text, and only on
//! pages judged articles.

use super::unchoose::{choose_block, partly_chosen, wholly_chosen};
use crate::algorithms::auto::prose::{HEADLINE_GAP_CHARS, Reach, is_prose, led_prose_blocks, prose_run_of};
use crate::algorithms::auto::segment::Blocks;
use crate::dom::{Document, NodeId, Tag};

/// On an article page whose chosen text holds its headline (the block that shares the most words
/// with the `<title>`) and no prose block, choose the prose the headline leads into: a report of two
/// short paragraphs under its headline, each of which the classifier put under the threshold, is
/// still the article. Returns whether any text was chosen.
pub(super) fn keep_body_of_lone_headline(doc: &Document, blocks: &Blocks, chosen: &mut [bool]) -> bool {
    if blocks.list.iter().any(|b| is_prose(b) && partly_chosen(blocks, b, chosen)) {
        return false;
    }
    let Some((headline, body)) = led_prose_blocks(doc, blocks, Reach::Chars(HEADLINE_GAP_CHARS)) else {
        return false;
    };
    if body.is_empty() || !wholly_chosen(blocks, &blocks.list[headline], chosen) {
        return false;
    }
    for k in body {
        choose_block(blocks, &blocks.list[k], chosen);
    }
    true
}

/// On an article page, choose the paragraphs the body's element holds beside the body's kept ones.
/// The body is the longest run of chosen prose ([`prose_run_of`]); its element is the parent of its
/// paragraphs' owners. In the unbroken run of blocks owned by that element's children, when two or
/// more of those children hold chosen prose, every unchosen prose block with no link text whose owner
/// has the tag of one of them is chosen: a report's closing paragraphs, which read like a summary
/// and score under the threshold, are the same element's children as its opening ones. Two owners,
/// not two blocks: text split by `<br>` in one `<div>` is one owner, and its sibling `<div>` a
/// disclaimer (dragnet R2 fell 0.99 -> 0.87 when one owner sufficed). The classifier's probability
/// is not read: in site-grouped CV a floor of 0.25 changed two pages against none at all (one up by
/// 0.032, one down by 0.009). Returns whether any text was chosen.
pub(super) fn keep_body_paragraphs(doc: &Document, blocks: &Blocks, chosen: &mut [bool]) -> bool {
    let parent = |k: usize| doc.node(blocks.list[k].owner).parent;
    let chosen_prose =
        |k: usize, chosen: &[bool]| is_prose(&blocks.list[k]) && wholly_chosen(blocks, &blocks.list[k], chosen);
    let Some((first, last)) = prose_run_of(blocks, |k| wholly_chosen(blocks, &blocks.list[k], chosen)).span else {
        return false;
    };
    // Sorted, for a lookup per run that stays cheap on a page of a hundred thousand paragraphs.
    let mut body_parents: Vec<NodeId> = (first..=last).filter(|&k| chosen_prose(k, chosen)).map(parent).collect();
    body_parents.sort_unstable();
    body_parents.dedup();
    let mut kept = false;
    let mut start = 0;
    while start < blocks.list.len() {
        let mut end = start + 1;
        while end < blocks.list.len() && parent(end) == parent(start) {
            end += 1;
        }
        if body_parents.binary_search(&parent(start)).is_ok() {
            // The run's owners of chosen prose (blocks of one owner are adjacent) and their few tags.
            let (mut owners, mut last_owner, mut tags) = (0usize, None, Vec::<Option<Tag>>::new());
            for k in (start..end).filter(|&k| chosen_prose(k, chosen)) {
                let owner = blocks.list[k].owner;
                if last_owner != Some(owner) {
                    owners += 1;
                    last_owner = Some(owner);
                    let tag = doc.node(owner).tag();
                    if !tags.contains(&tag) {
                        tags.push(tag);
                    }
                }
            }
            if owners >= 2 {
                for b in &blocks.list[start..end] {
                    if is_prose(b)
                        && b.link_chars == 0
                        && tags.contains(&doc.node(b.owner).tag())
                        && !partly_chosen(blocks, b, chosen)
                    {
                        choose_block(blocks, b, chosen);
                        kept = true;
                    }
                }
            }
        }
        start = end;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::segment::{block_owners, segment};
    use crate::algorithms::auto::select::testing::{chosen_text, chosen_where};

    const PAGE: &str = "<html><head><title>市场监管总局：交易各方不得规避审查</title></head><body>\
        <div class=nav><a href=/>首页</a> <a href=/n>新闻</a></div>\
        <div class=article><h1>市场监管总局：交易各方不得规避审查</h1><div class=info>2025-04-27 来源：网站</div>\
        <p>日前，市场监管总局新闻发言人就有关交易回答了记者提问，表示将依法进行审查。</p>\
        <p>答：交易各方不得采取任何方式规避审查，未获批准前不得实施集中。</p></div>\
        <ul><li><a href=/a>另一条新闻的标题在这里</a></li></ul></body></html>";

    /// The page with the texts that hold `keep` chosen, the rule run on it.
    fn run(keep: &[&str]) -> (bool, String) {
        let doc = Document::parse(PAGE);
        let blocks = segment(&doc, &block_owners(&doc));
        let mut chosen = chosen_where(&doc, keep);
        let kept = keep_body_of_lone_headline(&doc, &blocks, &mut chosen);
        (kept, chosen_text(&doc, &chosen))
    }

    #[test]
    fn a_lone_headline_gets_the_prose_it_leads_into() {
        let (kept, text) = run(&["市场监管总局："]);
        assert!(kept);
        assert!(text.starts_with("市场监管总局：交易各方不得规避审查|日前，"), "{text}");
        assert!(text.ends_with("未获批准前不得实施集中。"), "{text}");
        assert!(!text.contains("来源") && !text.contains("另一条"), "{text}");
    }

    #[test]
    fn an_answer_with_prose_or_without_its_headline_is_left_as_it_is() {
        assert_eq!(
            run(&["市场监管总局：", "答："]),
            (
                false,
                "市场监管总局：交易各方不得规避审查|答：交易各方不得采取任何方式规避审查，未获批准前不得实施集中。"
                    .to_string()
            )
        );
        assert_eq!(run(&["首页"]), (false, "首页".to_string()));
    }

    /// `page` with the texts that hold one of `keep` chosen, `body-paragraphs` run on it.
    fn run_paragraphs(page: &str, keep: &[&str]) -> (bool, String) {
        let doc = Document::parse(page);
        let blocks = segment(&doc, &block_owners(&doc));
        let mut chosen = chosen_where(&doc, keep);
        let kept = keep_body_paragraphs(&doc, &blocks, &mut chosen);
        (kept, chosen_text(&doc, &chosen))
    }

    const REPORT: &str = "<body><div class=nav><a href=/>Home</a></div><div class=story>\
        <p>The council met on Tuesday to decide the budget for next year.</p>\
        <p>Members argued for three hours about the cost of the new bridge.</p>\
        <p>In the end they voted to delay the decision until the spring.</p>\
        <p>More on <a href=/b>the bridge and its cost</a> in our earlier report.</p>\
        <p>Share this</p></div>\
        <div class=more><p>Another story about the weather is on the front page today.</p></div></body>";

    #[test]
    fn the_closing_paragraphs_of_the_body_join_the_kept_ones() {
        let (kept, text) = run_paragraphs(REPORT, &["The council", "Members argued"]);
        assert!(kept);
        assert!(text.ends_with("In the end they voted to delay the decision until the spring."), "{text}");
        // Not a paragraph with a link, not a short line, not a paragraph of another element.
        assert!(!text.contains("More on") && !text.contains("Share") && !text.contains("weather"), "{text}");
    }

    #[test]
    fn one_kept_paragraph_or_one_owner_is_not_a_body_to_complete() {
        assert_eq!(
            run_paragraphs(REPORT, &["The council"]),
            (false, "The council met on Tuesday to decide the budget for next year.".to_string())
        );
        // Text split by <br> in one element is one owner; its sibling element is not the body's.
        let page = "<body><div><div class=post>The council met on Tuesday to decide the budget.<br>\
            Members argued for three hours about the cost of the bridge.<br>\
            They voted to delay the decision until the spring.</div>\
            <div class=legal>The content on this site is provided as general information only.</div></div></body>";
        let (kept, text) = run_paragraphs(page, &["The council", "Members", "They voted"]);
        assert!(!kept && !text.contains("general information"), "{text}");
    }
}
