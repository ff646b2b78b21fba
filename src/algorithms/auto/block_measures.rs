//! What the block features are computed from, block by block against its page: whether a block is
//! running text, how often its text recurs, how far it sits from the core, how much of the title it
//! holds, which nodes a set of subtrees covers, and an element's repeat signature (the has-article and
//! page-type signals group siblings by it too). [`super::features`] turns these into feature values.

use super::segment::{Blocks, TextBlock};
use crate::dom::{Document, NodeId};
use crate::hash::{Fnv1a, IdMap};
use crate::text::words::WordSet;

/// Per node: true when inside one of `roots`' subtrees. Roots may nest (CETD marks a node and its
/// descendants alike); each node is written once however many roots hold it.
pub(super) fn covered(doc: &Document, roots: &[NodeId]) -> Vec<bool> {
    let mut v = vec![false; doc.len()];
    let mut sorted = roots.to_vec();
    sorted.sort_unstable();
    let mut done = 0;
    for r in sorted {
        let end = doc.node(r).end;
        for i in r.max(done)..end {
            v[i as usize] = true;
        }
        done = done.max(end);
    }
    v
}

/// `a / b`, 0 when `b` is 0.
pub(super) fn share(a: u32, b: u32) -> f32 {
    if b == 0 { 0.0 } else { a as f32 / b as f32 }
}

/// A block of running text: long enough for a sentence or two, with a sentence end, and hardly any of
/// it link text. The same test in every script (the sentence ends count CJK full stops).
pub(super) fn running_text(b: &TextBlock) -> bool {
    b.chars >= 80 && b.link_chars * 10 <= b.chars && b.scan.sentence_ends >= 1
}

/// Per block: how many other blocks have the same text, whitespace aside (blocks of fewer than four
/// characters count none: digits and arrows repeat by nature). One hash per block, one map.
pub(super) fn repeats(doc: &Document, blocks: &Blocks) -> Vec<u32> {
    let all = blocks.text_hashes(doc);
    let hashes: Vec<Option<u64>> = blocks.list.iter().zip(all).map(|(b, &h)| (b.chars >= 4).then_some(h)).collect();
    let mut counts: IdMap<u64, u32> = IdMap::default();
    for h in hashes.iter().flatten() {
        *counts.entry(*h).or_default() += 1;
    }
    hashes.iter().map(|h| h.map_or(0, |h| counts.get(&h).map_or(0, |c| c - 1))).collect()
}

/// An element's tag and first class word, hashed: siblings with equal signatures are repeats.
pub(super) fn signature(doc: &Document, c: NodeId) -> u64 {
    let mut h = Fnv1a::new();
    if let Some(e) = doc.node(c).element() {
        h.byte(e.tag as u8);
        h.byte(0xff);
        h.bytes(e.id_class.as_deref().and_then(|s| s.split(' ').next()).unwrap_or("").bytes());
    }
    h.finish()
}

/// Levels between `owner` and the nearest ancestor that also holds `core`; 0 inside the core.
pub(super) fn core_distance(doc: &Document, owner: NodeId, core: NodeId) -> u32 {
    if doc.contains(core, owner) {
        return 0;
    }
    let mut steps = 1;
    for a in doc.ancestors(owner) {
        if doc.contains(a, core) {
            return steps;
        }
        steps += 1;
    }
    steps
}

/// Share of the title's words found in the block, and share of the block's words that are title words.
pub(super) fn title_overlap(doc: &Document, texts: &[NodeId], title: &WordSet) -> (f32, f32) {
    let mut found = vec![false; title.len()];
    let (mut words, mut hits) = (0u32, 0u32);
    for &t in texts {
        crate::text::words::for_each_word(doc.text(t), |w| {
            words += 1;
            if let Some(k) = title.index(w) {
                found[k] = true;
                hits += 1;
            }
        });
    }
    let f = found.iter().filter(|&&x| x).count() as u32;
    (share(f, title.len() as u32), share(hits, words))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_text_and_repeats_are_counted_per_block() {
        let para = "Die Regierung hat am Mittwoch beschlossen, die Förderung deutlich zu erhöhen, sagte sie.";
        let page = format!(
            "<html><body><div><a href=/a>Teilen</a></div><p>{para}</p><div><a href=/b>Teilen</a></div>\
             <p>{para} Noch ein Satz.</p><p>Abonnieren Sie unseren Newsletter</p><div><a href=/c>Teilen</a></div>\
             </body></html>"
        );
        let doc = Document::parse(&page);
        let blocks = super::super::segment(&doc, &super::super::segment::block_owners(&doc));
        let texts: Vec<String> =
            blocks.list.iter().map(|b| blocks.texts_of(b).iter().map(|&t| doc.text(t)).collect()).collect();
        assert_eq!(texts.len(), 6, "{texts:?}");
        let running: Vec<bool> = blocks.list.iter().map(running_text).collect();
        assert_eq!(running, [false, true, false, true, false, false], "{texts:?}");
        // The three share labels repeat twice each; the two paragraphs differ.
        assert_eq!(repeats(&doc, &blocks), [2, 0, 2, 0, 0, 2]);
    }
}
