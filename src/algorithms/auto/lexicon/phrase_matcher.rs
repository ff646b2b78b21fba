//! How a short text is compared with a list of phrases: whole, word for word, ASCII case and spacing
//! aside ([`same_words`]), against only the phrases of its own length ([`Phrases`]), or by its opening
//! ([`opens_with`]).
//!
//! Generic: no phrase list lives here. The lists are data in [`super::furniture`], whose predicates
//! ask every short block of a page, so nothing here allocates.

/// The largest [`solid_length`]: longer texts and phrases count as this long.
const SOLID_MAX: usize = 127;

/// The bytes of `text` outside whitespace, up to [`SOLID_MAX`]: the same for a text as for a phrase
/// it has the [`same_words`] as, since ASCII case folding keeps every byte's length.
fn solid_length(text: &str) -> usize {
    text.split_whitespace().map(str::len).sum::<usize>().min(SOLID_MAX)
}

/// Phrases grouped by their [`solid_length`]: a text is compared only with the phrases of its own
/// length. The lists are asked of every short block, and most texts have a length no phrase has;
/// the others were compared with every phrase of the lists (a fifth of the selection's
/// instructions on wcxb-dev).
pub(super) struct Phrases(Vec<Vec<&'static str>>);

impl Phrases {
    pub(super) fn new(lists: &[&[&'static str]]) -> Phrases {
        let mut by_length = vec![Vec::new(); SOLID_MAX + 1];
        for &p in lists.iter().flat_map(|l| l.iter()) {
            by_length[solid_length(p)].push(p);
        }
        Phrases(by_length)
    }

    /// Whether `text` has the [`same_words`] as one of the phrases.
    pub(super) fn hold(&self, text: &str) -> bool {
        self.0[solid_length(text)].iter().any(|p| same_words(text, p))
    }
}

/// Are the whitespace-separated words of `text` those of `phrase` (one space between words), ASCII
/// case aside? Asked of every short block, so nothing is allocated.
pub(super) fn same_words(text: &str, phrase: &str) -> bool {
    let mut words = text.split_whitespace();
    phrase.split(' ').all(|p| words.next().is_some_and(|w| w.eq_ignore_ascii_case(p))) && words.next().is_none()
}

/// Does `text` open with `opening`, ASCII case aside?
pub(super) fn opens_with(text: &str, opening: &str) -> bool {
    text.get(..opening.len()).is_some_and(|p| p.eq_ignore_ascii_case(opening))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::lexicon::furniture::{INTERFACE_LABELS, SHOP_CONTROLS};

    #[test]
    fn phrases_by_length_answer_as_every_phrase_compared_does() {
        let lists: [&[&str]; 2] = [INTERFACE_LABELS, SHOP_CONTROLS];
        let phrases = Phrases::new(&lists);
        let mut texts: Vec<String> =
            lists.concat().iter().flat_map(|p| [p.to_uppercase(), format!(" {p}  x")]).collect();
        texts.extend(["", "Add  to   CART", "add to carts", "QUICK  view", "x".repeat(200).as_str()].map(String::from));
        for t in &texts {
            assert_eq!(phrases.hold(t), lists.concat().iter().any(|p| same_words(t, p)), "{t:?}");
        }
        assert!(phrases.hold("Add  to   CART") && !phrases.hold("add to carts"));
    }
}
