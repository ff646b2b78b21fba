//! What `auto` keeps once every block is judged. This file holds the selection's tools: the first
//! choice (the blocks at or above the threshold, less comment threads), the block the classifier is
//! surest of, the choice as maximal clean subtrees, and the short lead of a page that is no article.
//! The rules that refine the choice after the page verdict are one table, in the order they run, in
//! [`rules`]; each family of rules has its own file, and [`unchoose`] the walks they share.

mod body;
mod furniture;
mod notices;
mod rails;
mod records;
mod repeats;
pub(super) mod rules;
mod sectioning;
mod site;
mod threads;
mod unchoose;

use super::choice::{Choice, Stamp};
use super::measure::Measured;
use super::segment::{Blocks, block_owners};
use crate::algorithms::contract::Context;
use crate::dom::{Document, NONE, NodeId};
pub(crate) use site::PageKeys;
pub use site::page_signatures;
pub(super) use site::{PageView as SitePageView, chosen_rows};

/// The text nodes `auto` keeps: those of blocks at or above `threshold` (stamped `stamp`), less
/// comment threads when `drop_comments`.
pub(super) fn choose(
    ctx: &Context<'_>,
    m: &Measured,
    p: &[f64],
    threshold: f64,
    stamp: Stamp,
    drop_comments: bool,
) -> Choice {
    let doc = ctx.doc;
    Choice::by_threshold(doc, &m.blocks, p, threshold, stamp, |chosen| {
        if drop_comments {
            threads::drop_comment_threads(doc, chosen, surest_owner(&m.blocks, p));
        }
    })
}

/// The owner of the block the classifier is surest of (the first of equals).
pub(super) fn surest_owner(blocks: &Blocks, p: &[f64]) -> NodeId {
    let blocks = blocks.list.iter().zip(p);
    blocks.fold((NodeId::MAX, f64::MIN), |best, (b, &pr)| if pr > best.1 { (b.owner, pr) } else { best }).0
}

/// The chosen content as subtree roots: every element whose text nodes are all chosen (topmost only),
/// and chosen text nodes whose parent is not, in document order. `chosen` is indexed by node id.
pub fn roots_of(doc: &Document, chosen: &[bool]) -> Vec<NodeId> {
    let body = doc.body;
    let end = doc.node(body).end;
    // Bottom-up: does the subtree hold any text, and is every text node chosen?
    let mut any = vec![false; doc.len()];
    let mut all = vec![true; doc.len()];
    for i in (body..end).rev() {
        let n = doc.node(i);
        if n.is_text() {
            any[i as usize] = doc.text(i).chars().any(|c| !c.is_whitespace());
            all[i as usize] = chosen[i as usize] || !any[i as usize];
        }
        if i != body && n.parent != NONE {
            let (a, l) = (any[i as usize], all[i as usize]);
            any[n.parent as usize] |= a;
            all[n.parent as usize] &= l;
        }
    }
    let mut out = Vec::new();
    let mut i = body;
    while i < end {
        let n = doc.node(i);
        if any[i as usize] && all[i as usize] {
            out.push(i);
            i = n.end;
        } else {
            i += 1;
        }
    }
    out
}

/// The first paragraph-like block of the region (a sentence mark, 25 characters or more) as text
/// nodes, if it is at most `max_chars` long; nothing otherwise.
pub(super) fn lead(doc: &Document, roots: &[NodeId], max_chars: u32) -> Vec<NodeId> {
    let owners = block_owners(doc);
    let owner_of = |t: NodeId| owners[doc.node(t).parent as usize];
    let texts: Vec<NodeId> = roots.iter().flat_map(|&r| doc.text_nodes(r)).collect();
    let mut k = 0;
    while k < texts.len() {
        let owner = owner_of(texts[k]);
        let mut j = k;
        let (mut chars, mut punct) = (0u32, 0u32);
        while j < texts.len() && owner_of(texts[j]) == owner {
            chars += doc.node(texts[j]).stats.chars;
            punct += doc.node(texts[j]).stats.punct;
            j += 1;
        }
        if chars >= 25 && punct >= 1 {
            return if chars <= max_chars { texts[k..j].to_vec() } else { Vec::new() };
        }
        k = j;
    }
    Vec::new()
}

/// What the rules' tests share.
#[cfg(test)]
mod testing {
    use crate::dom::{Document, NodeId};

    /// The non-empty chosen texts, trimmed, joined by `|`.
    pub(super) fn chosen_text(doc: &Document, chosen: &[bool]) -> String {
        (0..doc.len() as NodeId)
            .filter(|&i| chosen[i as usize] && !doc.text(i).trim().is_empty())
            .map(|i| doc.text(i).trim())
            .collect::<Vec<_>>()
            .join("|")
    }

    /// Every text node of `doc` that holds one of `keep` chosen, and no other.
    pub(super) fn chosen_where(doc: &Document, keep: &[&str]) -> Vec<bool> {
        (0..doc.len() as NodeId)
            .map(|i| doc.node(i).is_text() && keep.iter().any(|k| doc.text(i).contains(k)))
            .collect()
    }
}
