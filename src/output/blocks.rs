//! `blocks`: the block report, which of the scored blocks the answer lists (the top ones by rank and
//! the content blocks, bounded) and each one's measures. It reports on the scoring rather than
//! rendering the content, hence a file apart from the renderers.

use std::borrow::Cow;

use super::BlockOut;
use crate::algorithms::contract::Block;
use crate::dom::Document;

/// The reported blocks: the top `max` by rank, plus content blocks, at most `4·max` in all, in
/// document order.
pub fn report_blocks(doc: &Document, mut blocks: Vec<Block>, max: usize) -> Vec<BlockOut> {
    blocks.sort_by(|a, b| b.rank.total_cmp(&a.rank).then(a.node.cmp(&b.node)));
    let mut chosen: Vec<Block> = Vec::new();
    let mut rest_content = Vec::new();
    for (k, b) in blocks.into_iter().enumerate() {
        if k < max {
            chosen.push(b);
        } else if b.content {
            rest_content.push(b);
        }
    }
    chosen.extend(rest_content.into_iter().take(max.saturating_mul(3)));
    chosen.sort_by_key(|b| b.node);
    chosen.dedup_by_key(|b| b.node);
    chosen
        .into_iter()
        .map(|b| {
            let n = doc.node(b.node);
            BlockOut {
                id: b.node,
                path: doc.xpath(b.node),
                tag: n.element().map_or_else(|| "#text".to_string(), |e| e.name.to_string()),
                text_chars: n.stats.chars,
                link_chars: n.stats.link_chars,
                tags: n.stats.tags,
                scores: b
                    .scores
                    .iter()
                    .map(|&(k, v)| (Cow::Borrowed(k), if v.is_finite() { v } else { 0.0 }))
                    .collect(),
                content: b.content,
                decided_by: b.decided_by.map(|d| Cow::Borrowed(d.name())),
            }
        })
        .collect()
}
