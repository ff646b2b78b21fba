//! Text normalisation and word splitting shared by training and evaluation.
//!
//! Both sides of every comparison go through [`normalize`] (Unicode NFKC, whitespace folded). Words are
//! `\w+` runs, except that every CJK character (Han, kana, Hangul, Thai) is a word of its own: a `\w+`
//! token in Chinese is a whole clause, which would make one wrong character cost the whole clause.

use super::nfkc::nfkc;

/// First position of an ASCII `needle` (given lower-case) in `hay`, ignoring ASCII case. Only the
/// places where the needle's first letter occurs are compared.
pub fn find_ascii_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = [needle[0], needle[0].to_ascii_uppercase()];
    let mut at = 0;
    while let Some(k) = memchr::memchr2(first[0], first[1], &hay[at..]) {
        let i = at + k;
        if hay.len() - i >= needle.len() && hay[i..i + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// NFKC, then whitespace folded to single spaces and trimmed.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in nfkc(s).chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out
}

/// Letters and digits only, lower case: two texts compared, or one looked for in the other, whatever
/// their spacing and punctuation (a headline in `<title>`, a title part against a heading).
pub fn alnum_key(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// `s.to_lowercase()`, without decoding and looking up the characters that have no lower case in
/// the common ranges of Chinese, Japanese and Korean text (ideographs, kana, Hangul, their
/// punctuation and full-width signs) and without a copy when nothing changes: a page's short texts
/// are lower-cased one by one to be compared with fixed lists, and on a Chinese page (zh-cwce
/// `fad52388`, `perf record`) the standard conversion was close to half of the page-type signals.
pub fn lowercase(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().all(|c| c.is_ascii() || caseless(c)) {
        // Other scripts (and the final sigma, which depends on its neighbours) the standard way.
        return std::borrow::Cow::Owned(s.to_lowercase());
    }
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        let mut out = s.to_string();
        out.make_ascii_lowercase();
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// Characters in ranges that hold no cased letter (tested over every one of them).
fn caseless(c: char) -> bool {
    matches!(c as u32, 0x2000..=0x206F | 0x3000..=0x9FFF | 0xAC00..=0xD7A3 | 0xFF01..=0xFF20 | 0xFF3B..=0xFF40)
}

/// `c.is_alphanumeric()`, answered without the table search for the punctuation of Chinese and
/// Japanese text (`，。、「」：（）“”…`), which reads between every few ideographs. Segmentation's
/// character scan and the word split ([`for_each_word`]) both ask it of every such character.
pub fn is_alphanumeric(c: char) -> bool {
    if matches!(c as u32, 0x2010..=0x2027 | 0x2030..=0x205E | 0x3000..=0x3004 | 0x3008..=0x3020 | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20)
    {
        return false;
    }
    c.is_alphanumeric()
}

/// True for characters written without spaces between words: each is a word by itself.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF | 0x3040..=0x30FF | 0x3100..=0x312F | 0x3190..=0x31FF | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F | 0x0E00..=0x0E7F)
}

/// Separators between the parts of a page's `<title>` (`Headline | Section | Site`).
pub const TITLE_SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " :: ", " · ", " • ", " » ", "｜", "_", " / "];

/// `title` split at one of [`TITLE_SEPARATORS`]; an underscore between two ASCII letters or digits is
/// part of a name (`rustc_codegen_gcc`, `ngx_http_rewrite_module`), not a separator: titles use a bare
/// `_` between parts where words are not spaced (`水稻增产_农业新闻_示例网`). [`title_parts`] keeps
/// the plain split: the page models were trained on its counts.
pub fn split_title<'a>(title: &'a str, sep: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    let b = title.as_bytes();
    let mut start = 0;
    let mut cuts = title.match_indices(sep).filter(move |&(i, _)| {
        sep != "_"
            || !(i > 0 && b[i - 1].is_ascii_alphanumeric() && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric))
    });
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        match cuts.next() {
            Some((i, _)) => {
                let part = &title[start..i];
                start = i + sep.len();
                Some(part)
            }
            None => {
                done = true;
                Some(&title[start..])
            }
        }
    })
}

/// The non-empty parts of a title split at every [`TITLE_SEPARATORS`] separator, trimmed.
pub fn title_parts(title: &str) -> Vec<&str> {
    let mut parts = vec![title];
    for sep in TITLE_SEPARATORS {
        parts = parts.into_iter().flat_map(|p| p.split(sep)).collect();
    }
    parts.into_iter().map(str::trim).filter(|p| !p.is_empty()).collect()
}

/// Words of `s` as [`words`] splits them, a CJK character counting half a word (two characters make
/// about one word of a spaced language), so the count means the same in both.
pub fn word_weight(s: &str) -> f64 {
    let (mut spaced, mut cjk) = (0u32, 0u32);
    for_each_word(s, |w| {
        if w.chars().next().is_some_and(is_cjk) {
            cjk += 1;
        } else {
            spaced += 1;
        }
    });
    f64::from(spaced) + f64::from(cjk) / 2.0
}

/// `\w`: letters, marks, digits and connector punctuation.
fn is_word(c: char) -> bool {
    is_alphanumeric(c) || c == '_' || unicode_general_mark(c)
}

fn unicode_general_mark(c: char) -> bool {
    // Combining marks (Mn/Mc) in the common blocks; enough for \w over Latin, Cyrillic, Thai, Devanagari.
    matches!(c as u32, 0x0300..=0x036F | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E | 0x0900..=0x0903 | 0x093A..=0x094F)
}

/// Characters that take no room on the page: the soft hyphen, the zero-width space, the word joiner
/// and the byte-order mark. They only tell a browser where it may (or may not) break a line, and left
/// in a text they split its words for a search index (`Mit&shy;tel&shy;al&shy;ter`). The zero-width
/// joiners (U+200C, U+200D) are spelling in Persian, the Indic scripts and emoji, and are kept.
pub fn is_invisible(c: char) -> bool {
    matches!(c, '\u{ad}' | '\u{200b}' | '\u{2060}' | '\u{feff}')
}

/// `s` without its [`is_invisible`] characters, borrowed when it has none (the common case, found by
/// bytes: each of them is encoded with a lead byte C2, E2 or EF).
pub fn visible(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.bytes().any(|b| matches!(b, 0xC2 | 0xE2 | 0xEF)) || !s.chars().any(is_invisible) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(s.chars().filter(|&c| !is_invisible(c)).collect())
}

/// A short text that reads as a price: a currency sign and a digit ("$24.99", "€ 12,50", "¥1999";
/// "12,99 zł" does not count: letters are words, signs are shapes).
pub fn looks_like_price(t: &str) -> bool {
    t.chars().count() <= 24 && t.bytes().any(|b| b.is_ascii_digit()) && t.chars().any(is_currency_sign)
}

/// Whether a character is a currency sign: the one list that every reading of prices shares (signs
/// are shapes, so one list serves every language; "12,99 zł" is letters and not counted).
pub fn is_currency_sign(c: char) -> bool {
    matches!(c, '$' | '€' | '£' | '¥' | '￥' | '₹' | '₽' | '₩' | '₺' | '₫' | '฿' | '₴')
}

/// Split already-normalised text into words, lower-cased.
pub fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(s, |w| out.push(w.to_string()));
    out
}

/// The distinct words of `s` ([`words`]).
pub fn distinct_words(s: &str) -> std::collections::HashSet<String> {
    words(s).into_iter().collect()
}

/// ASCII letters, digits and `_`: the bytes that make up words in ASCII text.
const ASCII_WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    t
};

/// Call `f` with each word of `s`, as [`words`] splits them, from one reused buffer: no allocation
/// per word, for callers that only compare.
pub fn for_each_word(s: &str, mut f: impl FnMut(&str)) {
    let mut cur = String::new();
    let mut one = [0u8; 4];
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Runs of ASCII word characters, read by a table. A run that is a whole word (nothing before
        // it in the buffer, an ASCII byte or the end after it) in lower case already is passed as it
        // stands, the common case of running text; the others are appended and lower-cased in place.
        if ASCII_WORD[usize::from(bytes[i])] {
            let start = i;
            let mut upper = false;
            while i < bytes.len() && ASCII_WORD[usize::from(bytes[i])] {
                upper |= bytes[i].is_ascii_uppercase();
                i += 1;
            }
            if !upper && cur.is_empty() && bytes.get(i).is_none_or(u8::is_ascii) {
                f(&s[start..i]);
                continue;
            }
            let from = cur.len();
            cur.push_str(&s[start..i]);
            cur[from..].make_ascii_lowercase();
            continue;
        }
        // Any other ASCII byte (space, punctuation) ends a word: no character decoding for it.
        if bytes[i].is_ascii() {
            i += 1;
            if !cur.is_empty() {
                f(&cur);
                cur.clear();
            }
            continue;
        }
        if (0xE5..=0xE9).contains(&bytes[i]) || (bytes[i] == 0xE4 && bytes.get(i + 1).is_some_and(|&b| b >= 0xB8)) {
            // U+4E00 to U+9FFF, all CJK ideographs (each a word): no character decoding for them.
            if !cur.is_empty() {
                f(&cur);
                cur.clear();
            }
            f(&s[i..i + 3]);
            i += 3;
            continue;
        }
        let Some(c) = s[i..].chars().next() else { break };
        i += c.len_utf8();
        if is_cjk(c) {
            if !cur.is_empty() {
                f(&cur);
                cur.clear();
            }
            f(c.encode_utf8(&mut one));
        } else if is_word(c) {
            cur.extend(c.to_lowercase());
        } else if !cur.is_empty() {
            f(&cur);
            cur.clear();
        }
    }
    if !cur.is_empty() {
        f(&cur);
    }
}

/// Membership of words in a small fixed list (a page's title words), answered by one hash probe
/// instead of a binary search: every word of every block is looked up, and a binary search's string
/// comparisons were a library call each. [`WordSet::index`] gives the word's position in the list
/// the set was built from.
#[derive(Debug, Default)]
pub struct WordSet {
    words: Vec<String>,
    /// Open addressing: position + 1 in `words`, 0 for an empty slot; a power of two at least twice
    /// the list's length.
    slots: Vec<u16>,
    /// Bit `len` (63 for 63 bytes and more) set for each word's length in bytes: a word of another
    /// length, most words looked up, is answered without hashing it.
    lengths: u64,
}

impl WordSet {
    /// The set of `words` (distinct; a list longer than 32,767 words is cut there).
    pub fn new(mut words: Vec<String>) -> Self {
        words.truncate(i16::MAX as usize);
        let size = (words.len() * 2).next_power_of_two().max(8);
        let mut slots = vec![0u16; size];
        for (k, w) in words.iter().enumerate() {
            let mut at = Self::hash(w.as_bytes()) as usize & (size - 1);
            while slots[at] != 0 {
                at = (at + 1) & (size - 1);
            }
            slots[at] = k as u16 + 1;
        }
        let lengths = words.iter().fold(0u64, |m, w| m | 1 << w.len().min(63));
        WordSet { words, slots, lengths }
    }

    /// A cheap mix of the length and the first and last (up to) eight bytes: enough to spread a few
    /// dozen words; equal words always collide, which is all correctness needs.
    #[inline]
    fn hash(w: &[u8]) -> u64 {
        let mut head = [0u8; 8];
        let n = w.len().min(8);
        head[..n].copy_from_slice(&w[..n]);
        let mut tail = [0u8; 8];
        tail[..n].copy_from_slice(&w[w.len() - n..]);
        let x = u64::from_le_bytes(head) ^ u64::from_le_bytes(tail).rotate_left(29) ^ (w.len() as u64) << 56;
        x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Position of `w` in the list, if it is there.
    #[inline]
    pub fn index(&self, w: &str) -> Option<usize> {
        if self.lengths & 1 << w.len().min(63) == 0 {
            return None;
        }
        let size = self.slots.len();
        let mut at = Self::hash(w.as_bytes()) as usize & (size - 1);
        loop {
            let k = self.slots[at];
            if k == 0 {
                return None;
            }
            let k = usize::from(k - 1);
            if self.words[k] == w {
                return Some(k);
            }
            at = (at + 1) & (size - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_a_currency_sign_and_a_digit_in_a_short_text() {
        assert!(looks_like_price("$19.99") && looks_like_price("€ 12,50") && looks_like_price("￥1999"));
        assert!(!looks_like_price("19.99") && !looks_like_price("US$ in a long sentence about 2024 prices"));
    }

    #[test]
    fn normalize_folds_and_nfkc() {
        assert_eq!(normalize("  Ａ\u{00A0} b\n\nc "), "A b c");
    }

    #[test]
    fn words_split_cjk_per_character() {
        assert_eq!(words("农民培训 is good, 2026年"), vec!["农", "民", "培", "训", "is", "good", "2026", "年"]);
        assert_eq!(words("don't stop_me"), vec!["don", "t", "stop_me"]);
        assert_eq!(words("Café ÉTÉ x2Y"), vec!["café", "été", "x2y"]);
        // Either side of the ideographs read without decoding (U+5000 to U+9FFF).
        assert_eq!(words("\u{4FFF}\u{5000}\u{9FFF}\u{A000}a"), vec!["\u{4FFF}", "\u{5000}", "\u{9FFF}", "\u{A000}a"]);
    }

    #[test]
    fn title_parts_split_at_every_separator() {
        assert_eq!(
            title_parts("Rice yields rise | Farming - Example News"),
            ["Rice yields rise", "Farming", "Example News"]
        );
        assert_eq!(title_parts("水稻增产｜农业新闻_示例网"), ["水稻增产", "农业新闻", "示例网"]);
        assert_eq!(title_parts("Well-known, non-split"), ["Well-known, non-split"]);
        assert!(title_parts("  | ").is_empty());
        assert_eq!(split_title("a_b _c", "_").collect::<Vec<_>>(), ["a_b ", "c"]);
        assert_eq!(split_title("a | b", " | ").collect::<Vec<_>>(), ["a", "b"]);
    }

    #[test]
    fn word_weight_counts_cjk_characters_as_half_words() {
        assert_eq!(word_weight("Rice yields rise in 2026"), 5.0);
        assert_eq!(word_weight("水稻增产"), 2.0);
        assert_eq!(word_weight("iPhone 17 发布"), 3.0);
        assert_eq!(word_weight(""), 0.0);
    }

    #[test]
    fn word_set_finds_exactly_the_listed_words_at_their_positions() {
        let list: Vec<String> =
            ["a", "on", "the", "ice", "sunday", "roundup", "action", "中", "国", "abcdefghijklmnop"]
                .map(String::from)
                .to_vec();
        let set = WordSet::new(list.clone());
        for (k, w) in list.iter().enumerate() {
            assert_eq!(set.index(w), Some(k), "{w}");
        }
        for w in ["", "b", "no", "th", "thee", "ic", "abcdefghijklmnoq", "abcdefghijklmno", "文", "ON"] {
            assert_eq!(set.index(w), None, "{w}");
        }
        assert_eq!(WordSet::new(Vec::new()).index("a"), None);
    }
    #[test]
    fn the_fast_lowercase_and_alphanumeric_answer_as_the_standard_ones() {
        for c in (0u32..=0x10FFFF).filter_map(char::from_u32) {
            if caseless(c) {
                assert!(c.to_lowercase().eq(std::iter::once(c)) && !c.is_uppercase() && !c.is_lowercase(), "{c:?}");
            }
            assert_eq!(is_alphanumeric(c), c.is_alphanumeric(), "{c:?}");
        }
        for s in [
            "",
            "Add To Cart",
            "加入购物车",
            "下一页 Next",
            "ΟΔΟΣ",
            "Ａｄｄ",
            "İstanbul",
            "ﬁ",
            "\u{212A}m",
            "“Buy” NOW…",
        ] {
            assert_eq!(lowercase(s), s.to_lowercase(), "{s:?}");
        }
        assert!(matches!(lowercase("加入 cart"), std::borrow::Cow::Borrowed(_)));
    }
    #[test]
    fn the_ideographs_read_without_decoding_are_cjk() {
        // The lead bytes for_each_word takes as a CJK character without decoding it.
        for c in (0x4000u32..=0x9FFF).filter_map(char::from_u32) {
            let mut b = [0u8; 4];
            let b = c.encode_utf8(&mut b).as_bytes();
            if (0xE5..=0xE9).contains(&b[0]) || (b[0] == 0xE4 && b[1] >= 0xB8) {
                assert!(is_cjk(c), "{c:?}");
            }
        }
        assert!(!is_cjk('\u{4DC0}'));
        let mut seen = Vec::new();
        for_each_word("一个中文句子abc丁\u{4DC0}", |w| seen.push(w.to_string()));
        assert_eq!(seen, ["一", "个", "中", "文", "句", "子", "abc", "丁"]);
    }
    #[test]
    fn words_are_split_as_the_character_rule_splits_them() {
        // The rule spelled out character by character: CJK characters alone, runs of `is_word`
        // characters lower-cased, everything else a separator.
        fn reference(s: &str) -> Vec<String> {
            let mut out = Vec::new();
            let mut cur = String::new();
            for c in s.chars() {
                if is_cjk(c) {
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                    out.push(c.to_string());
                } else if is_word(c) {
                    cur.extend(c.to_lowercase());
                } else if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            if !cur.is_empty() {
                out.push(cur);
            }
            out
        }
        for s in [
            "",
            "plain words, and more_words.",
            "The Rice FARMERS of 2024",
            "café au lait naïve Straße ÉCOLE",
            "x-ray e.g. a_b_c __init__ 3.14",
            "中文abc中文 ABC中 abcé中",
            "trailing word",
            "Ünïcödé then ascii",
            "mixed\u{301}mark and\u{a0}nbsp “quoted” — dash",
        ] {
            let mut seen = Vec::new();
            for_each_word(s, |w| seen.push(w.to_string()));
            assert_eq!(seen, reference(s), "{s:?}");
        }
    }
}
