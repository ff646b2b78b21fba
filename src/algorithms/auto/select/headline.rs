//! The body a lone headline leads into (rule `headline-body`): an article whose answer is its
//! headline and no running text gets the prose the headline leads into.

use super::unchoose::{partly_chosen, wholly_chosen};
use crate::algorithms::auto::prose::{HEADLINE_GAP_CHARS, Reach, is_prose, led_prose_blocks};
use crate::algorithms::auto::segment::Blocks;
use crate::dom::Document;

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
        for &t in blocks.texts_of(&blocks.list[k]) {
            chosen[t as usize] = true;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::segment::{block_owners, segment};
    use crate::algorithms::auto::select::testing::chosen_text;
    use crate::dom::NodeId;

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
        let mut chosen: Vec<bool> = (0..doc.len())
            .map(|i| doc.node(i as NodeId).is_text() && keep.iter().any(|k| doc.text(i as NodeId).contains(k)))
            .collect();
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
}
