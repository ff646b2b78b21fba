//! `blocks`: the block report, which of the scored blocks the answer lists (the top ones by rank and
//! the content blocks, bounded) and each one's measures. It reports on the scoring rather than
//! rendering the content, hence a file apart from the renderers. Its row type ([`BlockOut`]) lives
//! here, with the named measures ([`Signals`]) it shares with the has-article judgement, so that the
//! answer's type in `mod.rs` uses this file and this file nothing of `mod.rs`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::algorithms::contract::{Block, report_order};
use crate::dom::Document;

/// Named measures: has-article signals, block scores (names are static in the library; owned when read
/// back from JSON).
pub type Signals = BTreeMap<Cow<'static, str>, f64>;

/// One scored block as reported.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BlockOut {
    pub id: u32,
    pub path: String,
    pub tag: String,
    pub text_chars: u32,
    pub link_chars: u32,
    pub tags: u32,
    pub scores: Signals,
    pub content: bool,
    /// The step that decided the block (`threshold`, a rule's name, ...), for the blocks the algorithm
    /// judged one by one (`auto`'s text blocks, by their owner element); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<Cow<'static, str>>,
    /// The record region the block is in (a run of alike siblings: a listing's cards, a feed's items,
    /// a thread's posts), numbered in document order per page; absent outside regions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<u32>,
}

/// The reported blocks: the top `max` by rank, plus content blocks, at most `4·max` in all, in
/// document order.
pub fn report_blocks(doc: &Document, mut blocks: Vec<Block>, max: usize) -> Vec<BlockOut> {
    blocks.sort_by(report_order);
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
                region: b.region,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::contract::{elements, keep_listed};

    #[test]
    fn the_blocks_kept_for_a_report_give_the_same_report() {
        let html = format!("<html><body>{}</body></html>", "<div><p>a b</p><span>c</span></div>".repeat(100));
        let doc = Document::parse(&html);
        // Ranks from a handful of values (ties broken by document order), every third-ish block content.
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seed >> 33
        };
        let all: Vec<Block> = elements(&doc)
            .map(|i| {
                let rank = (next() % 7) as f64 / 7.0;
                Block::new(i, vec![("r", rank)], next() % 3 == 0, rank)
            })
            .collect();
        assert!(all.len() >= 300);
        for max in [0, 1, 3, 10, 50] {
            let mut held = Vec::new();
            for (k, b) in all.iter().enumerate() {
                held.push(b.clone());
                if k % 7 == 6 {
                    keep_listed(&mut held, max);
                    assert!(held.len() <= 5 * max, "{} held for {max}", held.len());
                }
            }
            let want = report_blocks(&doc, all.clone(), max);
            assert_eq!(report_blocks(&doc, held, max), want, "max {max}");
            // Content blocks past the top `max` are listed too: the part of the report pruning must keep.
            assert!(max == 0 || want.len() > max, "{} listed for {max}", want.len());
        }
    }
}
