//! How a rule matches an element's *name*: its `id` and `class` attributes, lower-cased and joined by
//! spaces ([`crate::dom::Element::id_class`]). A rule ([`Names`]) matches a name in one of three
//! documented ways ([`Match`]), and reads its words ([`words`]) the one way every rule does.
//!
//! Generic: no word list lives here. The lists are data in [`super::container_names`] and
//! [`super::name_groups`], so a list can change without this engine and the engine without a list.

use std::sync::OnceLock;

/// How a stem matches an element's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// The stem occurs anywhere in the name: "comment" matches "nocomments" and "post-comment-list",
    /// and a stem may hold a separator ("author-box").
    Within,
    /// A word of the name begins with the stem; words are split at anything but ASCII letters and
    /// digits. A stem of one or two letters matches only words of at most three letters ("ad" matches
    /// "ad" and "ads", not "adult"; "sr" matches "sr-only" but not "src").
    WordStart,
    /// A word of the name is the stem.
    Word,
}

/// Stems matched one way, with the word beginnings that exclude a match.
///
/// The rules are statics, not constants: each indexes its stems by first byte on first use. A name
/// was compared with each stem in turn (a substring search per stem, or each word with each stem),
/// and the noise, thread and post rules, asked of every element several times a page, were about a
/// tenth of `auto`'s instructions.
#[derive(Debug)]
pub struct Names {
    pub how: Match,
    pub stems: &'static [&'static str],
    /// Words beginning with one of these do not match, whatever stem they begin with (word rules only).
    pub unless: &'static [&'static str],
    /// The stems by first byte, built on first use.
    by_first: OnceLock<StemIndex>,
}

impl Names {
    pub const fn within(stems: &'static [&'static str]) -> Names {
        Names { how: Match::Within, stems, unless: &[], by_first: OnceLock::new() }
    }

    pub const fn word_start(stems: &'static [&'static str]) -> Names {
        Names { how: Match::WordStart, stems, unless: &[], by_first: OnceLock::new() }
    }

    pub const fn words(stems: &'static [&'static str]) -> Names {
        Names { how: Match::Word, stems, unless: &[], by_first: OnceLock::new() }
    }

    /// [`Names::word_start`] but for words that begin with one of `unless`.
    pub const fn word_start_unless(stems: &'static [&'static str], unless: &'static [&'static str]) -> Names {
        Names { how: Match::WordStart, stems, unless, by_first: OnceLock::new() }
    }

    /// Does one word of a name match `stem` (one of this rule's stems)? Word rules only.
    #[inline]
    pub fn word_matches(&self, stem: &str, word: &str) -> bool {
        let hit = match self.how {
            Match::Within => false,
            Match::WordStart => word.starts_with(stem) && (stem.len() > 2 || word.len() <= 3),
            Match::Word => word == stem,
        };
        hit && !self.unless.iter().any(|u| word.starts_with(u))
    }

    /// Does the element name `id_class` match?
    pub fn matches(&self, id_class: &str) -> bool {
        let by_first = self.by_first.get_or_init(|| StemIndex::new(self.stems));
        let bytes = id_class.as_bytes();
        match self.how {
            Match::Within => (0..bytes.len()).any(|i| {
                by_first.starting_with(bytes[i]).iter().any(|&s| bytes[i..].starts_with(self.stems[s].as_bytes()))
            }),
            _ => words(id_class)
                .any(|w| by_first.starting_with(w.as_bytes()[0]).iter().any(|&s| self.word_matches(self.stems[s], w))),
        }
    }

    /// [`Names::matches`] comparing every stem (what the index must agree with).
    #[cfg(test)]
    fn matches_stem_by_stem(&self, id_class: &str) -> bool {
        match self.how {
            Match::Within => self.stems.iter().any(|s| id_class.contains(s)),
            _ => words(id_class).any(|w| self.stems.iter().any(|s| self.word_matches(s, w))),
        }
    }
}

/// A rule's stems by their first byte: a name is compared only with the stems that can start at each
/// of its bytes (or words).
#[derive(Debug)]
struct StemIndex {
    /// Where each first byte's stems start in `stems`, and end (at the next byte's start).
    starts: [u16; 257],
    /// Indices into the rule's stems, grouped by first byte.
    stems: Vec<usize>,
}

impl StemIndex {
    fn new(stems: &[&str]) -> StemIndex {
        let first = |s: usize| usize::from(stems[s].as_bytes().first().copied().unwrap_or(0));
        let mut order: Vec<usize> = (0..stems.len()).collect();
        order.sort_by_key(|&s| first(s));
        let mut starts = [0u16; 257];
        for (b, start) in starts.iter_mut().enumerate() {
            let n = order.iter().take_while(|&&s| first(s) < b).count();
            *start = u16::try_from(n).unwrap_or(u16::MAX);
        }
        StemIndex { starts, stems: order }
    }

    /// The stems whose first byte is `b`.
    #[inline]
    fn starting_with(&self, b: u8) -> &[usize] {
        let b = usize::from(b);
        self.stems.get(usize::from(self.starts[b])..usize::from(self.starts[b + 1])).unwrap_or(&[])
    }
}

/// Does the element name `id_class` match any of `rules`?
pub fn matches_any(rules: &[Names], id_class: &str) -> bool {
    rules.iter().any(|r| r.matches(id_class))
}

/// The words of an element name: its runs of ASCII letters and digits (anything else separates).
/// Found byte by byte: a word is an ASCII run, so its bytes are a `str`, and no character is decoded
/// (the name rules read every element's name several times a page).
pub fn words(id_class: &str) -> impl Iterator<Item = &str> {
    let bytes = id_class.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        (at > start).then(|| &id_class[start..at])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::lexicon::{
        COMMENT_CONTAINERS, COMMENT_THREADS, CONSENT_NOTICES, FILTER_PANELS, NAME_GROUPS, NOISE_CONTAINERS,
        PAGE_NAME_GROUPS, POST_NAMES, REVIEW_THREADS, name_group_bits,
    };

    #[test]
    fn the_automaton_matches_names_as_the_stems_one_by_one_do() {
        let names = [
            "post-comment-list",
            "nocomments",
            "commentary",
            "comments-area",
            "ad",
            "ads adult",
            "sr-only src",
            "post-body",
            "topic-post posts",
            "postbody",
            "entry-content",
            "reply replies",
            "review-list reviews",
            "site-footer",
            "footnotes",
            "filters facet-group",
            "author-box authorbox",
            "ré-comment é",
            "navbar nav-main",
            "",
        ];
        let mut rules: Vec<&Names> = vec![&NOISE_CONTAINERS, &COMMENT_CONTAINERS, &CONSENT_NOTICES, &POST_NAMES];
        rules.extend(COMMENT_THREADS.iter().chain(&REVIEW_THREADS).chain(&FILTER_PANELS));
        rules.extend(NAME_GROUPS.iter().map(|(_, n)| n));
        rules.extend(PAGE_NAME_GROUPS.iter().map(|(_, n)| n));
        for name in names {
            let by_chars: Vec<&str> =
                name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
            assert_eq!(words(name).collect::<Vec<_>>(), by_chars, "{name:?}");
        }
        let mut hits = 0;
        for rule in rules {
            for name in names {
                assert_eq!(rule.matches(name), rule.matches_stem_by_stem(name), "{name:?} {:?}", rule.stems);
                hits += usize::from(rule.matches(name));
            }
        }
        assert!(hits > 20, "{hits}");
        assert!(COMMENT_THREADS[0].matches("post-comment-list") && !COMMENT_THREADS[0].matches("commentary"));
        assert!(POST_NAMES.matches("topic-post posts") && !POST_NAMES.matches("postbodyx poster"));
    }

    #[test]
    fn the_three_ways_of_matching() {
        // Within: anywhere, separators included.
        assert!(NOISE_CONTAINERS.matches("post nocomments") && NOISE_CONTAINERS.matches("x author-box"));
        assert!(COMMENT_CONTAINERS.matches("commentary"));
        // Word rules: whole words, exclusions, short stems only as short words.
        let is_thread = |n: &str| matches_any(&COMMENT_THREADS, n);
        assert!(is_thread("disqus_thread") && is_thread("pinglun-box") && is_thread("comment-list"));
        assert!(!is_thread("recommend") && !is_thread("commentary") && !is_thread("nocomments"));
        assert!(is_thread("respond") && !is_thread("responder"));
        let ad = 1 << NAME_GROUPS.iter().position(|(n, _)| *n == "name_ad").unwrap();
        assert_eq!(name_group_bits("top-ad") & ad, ad);
        assert_eq!(name_group_bits("ads-slot") & ad, ad);
        assert_eq!(name_group_bits("adult-content") & ad, 0);
    }
}
