//! `content.fingerprint`: a 64-bit SimHash of the main text, so that an index can find the same
//! article under several addresses (syndicated news, mirrored documentation, print and mobile
//! copies) by comparing 64 bits instead of texts. Two texts that differ in a few words differ in a
//! few bits; unrelated texts differ in about half of them (Charikar, "Similarity estimation
//! techniques from rounding algorithms"; Manku, Jain & Das Sarma, "Detecting near-duplicates for
//! web crawling", who found three differing bits of 64 the right line between near-duplicates and
//! distinct pages).
//!
//! The value is kept by indexes and compared across releases, so the recipe is fixed (a change to
//! it is a change to the contract, documented as such):
//!
//! 1. The text is `content.text` (rendered for the fingerprint even when the text itself was not
//!    asked for), in Unicode NFKC.
//! 2. Its words are those of [`crate::text::words::for_each_word`]: runs of letters, digits, marks
//!    and `_`, lower-cased; every CJK character (Han, kana, Hangul, Thai) is a word of its own.
//! 3. Shingles: every [`SHINGLE`] consecutive words; a text of fewer words is one shingle of all of
//!    them.
//! 4. A shingle's hash: 64-bit FNV-1a over the UTF-8 bytes of its words joined by one space (0x20),
//!    then the finaliser of MurmurHash3 (`fmix64`), which spreads every input bit over every output
//!    bit (FNV-1a's low bits depend on the low bits of the input bytes alone, and SimHash needs every
//!    bit to be a fair coin).
//! 5. Bit `b` of the fingerprint is 1 when more than half of the shingles (repeats counted) have bit
//!    `b` set in their hash.
//! 6. It is written as 16 lower-case hexadecimal digits, most significant first. A text without a
//!    word has no shingle, so no bit has a majority: `0000000000000000`.

use crate::hash::{Fnv1a, fmix64};
use crate::text::nfkc::nfkc;
use crate::text::words::for_each_word;

/// Words per shingle. Three: a changed word changes three shingles of a text's hundreds, and a
/// common pair of words (`of the`, `的 发`) is not enough for two unrelated texts to share one.
pub const SHINGLE: usize = 3;

/// The fingerprint of `text`, as the result writes it (see the module doc for the recipe).
pub fn fingerprint(text: &str) -> String {
    format!("{:016x}", simhash(text))
}

/// The fingerprint's 64 bits.
pub fn simhash(text: &str) -> u64 {
    let normalised = nfkc(text);
    let mut window = Window::default();
    let mut votes = Votes::default();
    for_each_word(&normalised, |w| {
        if let Some(h) = window.push(w) {
            votes.add(h);
        }
    });
    if let Some(h) = window.short_text() {
        votes.add(h);
    }
    votes.majority()
}

/// The hashes of the shingles the next words complete, fed as the words come: each word's bytes go
/// into the [`SHINGLE`] shingles that hold it in one pass, whose hash chains are independent (so the
/// processor runs them side by side), instead of each shingle hashing its three words again.
#[derive(Default)]
struct Window {
    /// The hash so far of the shingle that starts at word `s`, in slot `s % SHINGLE`.
    states: [Fnv1a; SHINGLE],
    /// Words seen so far.
    seen: usize,
}

impl Window {
    /// Take the next word; the hash of the shingle it completes, once there are [`SHINGLE`] words.
    fn push(&mut self, word: &str) -> Option<u64> {
        let w = self.seen;
        // The shingle that starts here takes the slot of the one that ended with the word before.
        self.states[w % SHINGLE] = Fnv1a::new();
        // The shingles that hold this word: those that start at it and at the words before it (up to
        // SHINGLE - 1 of them); all but the newest have words already, and a space goes first.
        let open = (w + 1).min(SHINGLE);
        for k in 1..open {
            self.states[(w - k) % SHINGLE].byte(b' ');
        }
        if open == SHINGLE {
            let [a, b, c] = &mut self.states;
            for byte in word.bytes() {
                a.byte(byte);
                b.byte(byte);
                c.byte(byte);
            }
        } else {
            for k in 0..open {
                self.states[(w - k) % SHINGLE].bytes(word.bytes());
            }
        }
        self.seen += 1;
        (self.seen >= SHINGLE).then(|| fmix64(self.states[(self.seen - SHINGLE) % SHINGLE].finish()))
    }

    /// A text of one word up to [`SHINGLE`] - 1 words: the hash of all of them as one shingle (the
    /// one that starts at the first word).
    fn short_text(&self) -> Option<u64> {
        (self.seen > 0 && self.seen < SHINGLE).then(|| fmix64(self.states[0].finish()))
    }
}

/// Bit `j` of byte `v` moved to byte `j` of a word: eight one-bit counters side by side, so one
/// addition counts eight bits of a hash at once.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut j = 0;
        while j < 8 {
            table[v] |= ((v as u64 >> j) & 1) << (8 * j);
            j += 1;
        }
        v += 1;
    }
    table
};

/// How many shingles set each of the 64 bits, counted eight bits to a word ([`SPREAD`]): a byte lane
/// holds up to 255, so the lanes are emptied into `counts` every 255 shingles.
struct Votes {
    lanes: [u64; 8],
    pending: u32,
    counts: [u64; 64],
    total: u64,
}

impl Default for Votes {
    fn default() -> Self {
        Votes { lanes: [0; 8], pending: 0, counts: [0; 64], total: 0 }
    }
}

impl Votes {
    fn add(&mut self, h: u64) {
        for (k, lane) in self.lanes.iter_mut().enumerate() {
            *lane += SPREAD[usize::from((h >> (8 * k)) as u8)];
        }
        self.pending += 1;
        self.total += 1;
        if self.pending == 255 {
            self.flush();
        }
    }

    fn flush(&mut self) {
        for (k, lane) in self.lanes.iter_mut().enumerate() {
            for j in 0..8 {
                self.counts[8 * k + j] += (*lane >> (8 * j)) & 0xFF;
            }
            *lane = 0;
        }
        self.pending = 0;
    }

    /// The bits set by more than half of the shingles.
    fn majority(mut self) -> u64 {
        self.flush();
        self.counts.iter().enumerate().fold(0, |acc, (b, &n)| acc | (u64::from(2 * n > self.total) << b))
    }
}

#[cfg(test)]
mod tests {
    use unicode_normalization::UnicodeNormalization;

    use super::*;

    /// The recipe spelled out the slow way: words, shingles joined by a space, FNV-1a then fmix64,
    /// a signed vote per bit.
    fn reference(text: &str) -> u64 {
        let normalised: String = text.nfkc().collect();
        let words = crate::text::words::words(&normalised);
        let shingles: Vec<String> = if words.len() < SHINGLE {
            if words.is_empty() { vec![] } else { vec![words.join(" ")] }
        } else {
            words.windows(SHINGLE).map(|w| w.join(" ")).collect()
        };
        let mut votes = [0i64; 64];
        for s in &shingles {
            let mut h = Fnv1a::new();
            h.bytes(s.bytes());
            let h = fmix64(h.finish());
            for (b, v) in votes.iter_mut().enumerate() {
                *v += if h >> b & 1 == 1 { 1 } else { -1 };
            }
        }
        votes.iter().enumerate().fold(0, |acc, (b, &v)| acc | (u64::from(v > 0) << b))
    }

    #[test]
    fn the_counters_give_the_recipes_answer() {
        let long = "Rice farmers in the south planted early this year. ".repeat(300);
        for text in ["", "   ", "Rice", "Rice farmers", "Rice farmers plant", "水稻育秧技术培训班结业", long.as_str()]
        {
            assert_eq!(simhash(text), reference(text), "{text:.40}");
        }
    }

    #[test]
    fn fixed_values_and_format() {
        // The recipe is a contract: these values may never change.
        assert_eq!(fingerprint(""), "0000000000000000");
        assert_eq!(fingerprint(" \n ,;"), "0000000000000000");
        let mut h = Fnv1a::new();
        h.bytes(*b"farmers plant rice");
        assert_eq!(simhash("Farmers plant rice."), fmix64(h.finish()));
        assert_eq!(fingerprint("Farmers plant rice."), format!("{:016x}", fmix64(h.finish())));
        // Values computed apart from this code (a reimplementation of the recipe in another language).
        assert_eq!(fingerprint("Rice"), "935ba496eebeff86");
        assert_eq!(fingerprint("Farmers plant rice in spring."), "4d6d9292ba36af7a");
        assert_eq!(fingerprint("水稻育秧技术培训班结业，两百多名农民学员参加了培训。"), "7183bab96641440c");
        let f = fingerprint("Farmers plant rice in spring.");
        assert!(f.len() == 16 && f.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{f}");
        // Case, spacing, punctuation and full-width forms do not matter; words do.
        assert_eq!(fingerprint("FARMERS  plant, rice in spring"), f);
        assert_eq!(fingerprint("Ｆａｒｍｅｒｓ plant rice in spring"), f);
        assert_ne!(fingerprint("Farmers plant wheat in spring."), f);
    }
}
