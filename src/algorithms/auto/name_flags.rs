//! Every element's name groups and ancestor tags, read once per page: the block features' inherited
//! flags (a block in a `<nav>`, in an element named for comments) and the page signals' counts of
//! element names. Apart from the feature tables because it is a pass over the page's elements, not
//! over its blocks.

use std::collections::HashMap;

use super::lexicon;
use crate::dom::{Document, NONE, Tag};

/// Ancestor tags recorded as flags, in bit order after the name groups.
pub const TAG_FLAGS: &[(&str, &[Tag])] = &[
    ("in_nav", &[Tag::Nav]),
    ("in_aside", &[Tag::Aside]),
    ("in_footer", &[Tag::Footer]),
    ("in_header", &[Tag::Header]),
    ("in_form", &[Tag::Form, Tag::Label]),
    ("in_li", &[Tag::Li, Tag::Ul, Tag::Ol]),
    ("in_table", &[Tag::Table, Tag::Td, Tag::Th]),
    ("in_article", &[Tag::Article]),
    ("in_main", &[Tag::Main]),
    ("in_figure", &[Tag::Figure, Tag::Figcaption]),
    ("in_quote", &[Tag::Blockquote]),
    ("in_pre", &[Tag::Pre, Tag::Code]),
    ("in_dl", &[Tag::Dl, Tag::Dt, Tag::Dd]),
    ("in_section", &[Tag::Section]),
    ("in_heading", &[Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6]),
    ("in_time_address", &[Tag::Time, Tag::Address]),
    ("in_noscript", &[Tag::Noscript]),
];

fn tag_bits(tag: Tag) -> u32 {
    let mut bits = 0u32;
    for (k, (_, tags)) in TAG_FLAGS.iter().enumerate() {
        if tags.contains(&tag) {
            bits |= 1 << k;
        }
    }
    bits
}

/// Distinct element names whose groups a page's pass remembers.
const MAX_NAMES_REMEMBERED: usize = 8192;

/// Every element's name groups, read once per page: the block features' inherited flags and the
/// page signals' counts.
pub struct NameFlags {
    /// Per node: name-group bits (low word) and tag bits (high word) of the node and all its ancestors.
    pub inherited: Vec<u64>,
    /// Per group of [`lexicon::name_group_bits`]: the elements whose own name matches it.
    pub counts: [u32; lexicon::ALL_NAME_GROUPS],
}

/// Read every element's name groups ([`NameFlags`]).
pub fn name_flags(doc: &Document) -> NameFlags {
    let mut f = vec![0u64; doc.len()];
    let mut counts = [0u32; lexicon::ALL_NAME_GROUPS];
    // A page repeats its names (a card's, a list item's classes on every one of them): each distinct
    // name is matched once. Bounded, so a page of distinct names costs one lookup more per element.
    // foldhash, not the standard SipHash, whose lookups showed in profiles of this pass; its seed is
    // drawn per process, so a page cannot choose names that collide.
    let mut seen: HashMap<&str, u32, foldhash::fast::RandomState> = HashMap::default();
    for i in doc.body..doc.node(doc.body).end {
        let n = doc.node(i);
        let Some(e) = n.element() else { continue };
        let parent = if n.parent == NONE { 0 } else { f[n.parent as usize] };
        let own_names = match e.id_class.as_deref() {
            None => 0,
            Some(name) => match seen.get(name) {
                Some(&bits) => bits,
                None => {
                    let bits = lexicon::name_group_bits(name);
                    if seen.len() < MAX_NAMES_REMEMBERED {
                        seen.insert(name, bits);
                    }
                    bits
                }
            },
        };
        let mut bits = own_names;
        while bits != 0 {
            counts[bits.trailing_zeros() as usize] += 1;
            bits &= bits - 1;
        }
        f[i as usize] = parent | u64::from(own_names) | (u64::from(tag_bits(e.tag)) << 32);
    }
    NameFlags { inherited: f, counts }
}
