//! Every word `auto` matches against a page's names and text, and the rules it matches them by, in
//! one place: the class/id words of containers (noise, comment threads, the feature groups), the cue
//! words and phrases of page furniture, and the path words of listing addresses.
//!
//! Two files are the matching engines, generic and holding no word; the others are data, the word
//! lists and the predicates that read them, one file per reader. A list changes without its engine,
//! and an engine without its lists:
//!
//! | file | holds | read by |
//! |---|---|---|
//! | [`name_matcher`] | how a rule ([`Names`]) matches an element's class/id name, in three ways; a name's words | the name lists here; `select` (rules by hand), `page_type` (words) |
//! | [`phrase_matcher`] | a short text compared with phrase lists, whole or by its opening | [`furniture`] |
//! | [`container_names`] | class/id stems of containers: noise, comment and review threads, footers, filter panels, consent notices, posts | `region`, `select`, `page_type` |
//! | [`furniture`] | predicates of page chrome by its text: control labels, poster details, breadcrumbs, bare addresses, share prompts, reprint notices | `select` |
//! | [`name_groups`] | class/id word groups of the `name_*` block features and the `names_*` page signals | `features`, `page_type` |
//! | [`boilerplate_cues`] | furniture words and phrases counted per block | `segment` |
//! | [`type_cues`] | each page type's interface texts: carts, calls to action, pagination, cue phrases | `page_type` |
//! | [`path_words`] | address path segments of listings and of each page type | `has_article`, `page_type` |
//!
//! Everything the rest of `auto` reads is re-exported here, as `lexicon::X`.

mod boilerplate_cues;
mod container_names;
mod furniture;
mod name_groups;
mod name_matcher;
mod path_words;
mod phrase_matcher;
mod type_cues;

pub use boilerplate_cues::boilerplate_cues;
pub use container_names::{
    COMMENT_CONTAINERS, COMMENT_THREADS, FILTER_PANELS, NOISE_CONTAINERS, POST_NAMES, REVIEW_THREADS, is_consent_notice,
};
// Read through `is_consent_notice`; the path stays for `select`'s documentation, which links the list.
#[allow(unused_imports)]
pub use container_names::CONSENT_NOTICES;
pub use furniture::{
    is_bare_address, is_breadcrumb, is_interface_label, is_notice_title, is_reprint_notice, is_share_prompt,
};
pub use name_groups::{ALL_NAME_GROUPS, NAME_GROUPS, PAGE_NAME_GROUPS, name_group_bits};
pub use name_matcher::{Names, matches_any, words};
pub use path_words::{LISTING_PATH_WORDS, TYPE_PATH_WORDS};
pub use type_cues::{CART_TEXTS, CONTACT_TEXTS, PAGINATION_TEXTS, TYPE_CUE_CHARS, TYPE_CUES, type_cue_counts};
