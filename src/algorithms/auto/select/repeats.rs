//! Second copies of chosen text (rule `repeats`): a description per product variant, a post quoted
//! in a reply, a mobile layout beside the desktop one. Its own file for the hashing that keeps the
//! search cheap on every page.
//!
//! Not on documentation: a reference repeats by design (the same parameter described for every
//! function that takes it, the same note under every method), and its readers want each. Site-grouped
//! 3-fold CV over the fifteen sets with the rule off on pages labelled documentation: docs-sites LCS F1
//! +0.0146, wcxb-dev documentation +0.0035, ten pages up by more than 0.05, none down.

use super::unchoose::{unchoose_block, wholly_chosen};
use crate::algorithms::auto::segment::{Blocks, TextBlock};
use crate::dom::Document;
use crate::hash::IdMap;

/// Unchoose every chosen block whose text, whitespace aside, repeats an earlier chosen block's under
/// another parent, and has at least `min_chars` characters (0: none). Returns whether any was
/// unchosen.
///
/// A copy elsewhere on the page is a second rendering of the same content (a description per
/// product variant, a post quoted in a reply, a mobile layout beside the desktop one) that a reader
/// sees once; a paragraph repeated among its own siblings is the text as written, and stays.
pub(super) fn drop_repeats(doc: &Document, blocks: &Blocks, chosen: &mut [bool], min_chars: u32) -> bool {
    if min_chars == 0 {
        return false;
    }
    // A block's text without whitespace, as characters.
    let chars =
        |b: &TextBlock| blocks.texts_of(b).iter().flat_map(|&t| doc.text(t).chars()).filter(|c| !c.is_whitespace());
    let parent = |b: &TextBlock| doc.node(b.owner).parent;
    // Hash of that text → the first chosen block with it. Texts are hashed rather than copied (this
    // runs on every page), and a hash match is confirmed on the texts themselves.
    let mut seen: IdMap<u64, &TextBlock> = IdMap::default();
    let mut dropped = false;
    let hashes = blocks.text_hashes(doc);
    for (b, &hash) in blocks.list.iter().zip(hashes) {
        if b.chars < min_chars || !wholly_chosen(blocks, b, chosen) {
            continue;
        }
        let first = *seen.entry(hash).or_insert(b);
        if !std::ptr::eq(first, b) && parent(first) != parent(b) && chars(first).eq(chars(b)) {
            dropped |= unchoose_block(blocks, b, chosen);
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::super::testing::chosen_text;
    use super::*;
    use crate::algorithms::auto::segment::block_owners;
    use crate::dom::NodeId;

    /// Choose every text node, drop repeats of at least `min_chars`, and return the text still chosen.
    fn kept_after_repeat_drop(html: &str, min_chars: u32) -> String {
        let doc = Document::parse(html);
        let blocks = crate::algorithms::auto::segment::segment(&doc, &block_owners(&doc));
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        drop_repeats(&doc, &blocks, &mut chosen, min_chars);
        chosen_text(&doc, &chosen)
    }

    #[test]
    fn a_copy_under_another_parent_is_dropped_and_a_repeat_among_siblings_kept() {
        let desc = "A sturdy mug thrown by hand from local clay, glazed in earthy tones.";
        // One description per product variant: the reader sees one.
        let variants = format!(
            "<body><h1>Mug</h1><div class=v1><p>{desc}</p><p>Blue variant</p></div>\
             <div class=v2><p>{}</p><p>Green variant</p></div></body>",
            desc.replace(' ', "\n  ")
        );
        assert_eq!(kept_after_repeat_drop(&variants, 40), format!("Mug|{desc}|Blue variant|Green variant"));
        // 0 keeps every copy; so does a threshold above the copy's length.
        assert_eq!(kept_after_repeat_drop(&variants, 0).matches("sturdy").count(), 2);
        assert_eq!(kept_after_repeat_drop(&variants, 400).matches("sturdy").count(), 2);
        // The same paragraph twice in one container is the text as written.
        let refrain = format!("<body><div><p>{desc}</p><p>Chorus</p><p>{desc}</p></div></body>");
        assert_eq!(kept_after_repeat_drop(&refrain, 40).matches("sturdy").count(), 2);
        // Short repeats stay: a spec line in two tables.
        let specs = "<body><div><p>Colour: green</p></div><div><p>Colour: green</p></div></body>";
        assert_eq!(kept_after_repeat_drop(specs, 40), "Colour: green|Colour: green");
    }
}
