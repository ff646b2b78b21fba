//! Text blocks: the unit `auto` decides on.
//!
//! A block is a run of text nodes in document order that share their nearest block-level element (the
//! *owner*): a paragraph, a list item, a heading, a table cell, or the loose text of a `<div>` between
//! its child blocks. This is the unit the seed papers score (the Naive Bayes paper's blocks, the
//! anchor-ratio paper's XPath leaves, CETD's nodes), made fine enough that one decision per block can
//! keep a paragraph and drop the share bar beside it. Each block's characters are read once here
//! ([`Scan`]), for the text measures among its features.

use super::lexicon;
use crate::dom::{Document, NONE, NodeId, Tag};

/// One block.
#[derive(Debug, Clone)]
pub struct TextBlock {
    /// The nearest block-level element above the text.
    pub owner: NodeId,
    /// Range into [`Blocks::texts`].
    pub first: u32,
    pub last: u32,
    pub chars: u32,
    pub link_chars: u32,
    pub punct: u32,
    pub text_nodes: u32,
    pub link_text_nodes: u32,
    /// Characters of text before this block on the page.
    pub offset: u32,
    /// The owner is a list item or a table cell.
    pub in_list: bool,
    pub(super) scan: Scan,
}

/// Counts from reading the block's characters once.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Scan {
    pub(super) words: u32,
    pub(super) cjk: u32,
    pub(super) digits: u32,
    pub(super) sentence_ends: u32,
    pub(super) upper_start: bool,
    pub(super) terminal_end: bool,
    pub(super) started: bool,
    /// Words and phrases typical of page furniture ("share", "comments", "版权", ...).
    pub(super) cues: u32,
    /// A date or a time of day appears ("2004-12-27", "2005年6月", "12:46").
    pub(super) dated: bool,
}

/// [`ASCII_CLASS`] bits: an ASCII digit, a sentence end (`.`, `!`, `?`), a letter or digit.
const DIGIT: u8 = 1;
const SENTENCE_END: u8 = 2;
const ALNUM: u8 = 4;

/// Each ASCII byte's classes ([`DIGIT`], [`SENTENCE_END`], [`ALNUM`]).
const ASCII_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_digit() { DIGIT } else { 0 }
            | if matches!(c, b'.' | b'!' | b'?') { SENTENCE_END } else { 0 }
            | if c.is_ascii_alphanumeric() { ALNUM } else { 0 };
        b += 1;
    }
    t
};

impl Scan {
    fn read(&mut self, s: &str) {
        let mut in_word = false;
        let mut last = None;
        if s.is_ascii() {
            // The common case: each byte's classes from a table, and no branch per byte. Whitespace
            // is in no class, so it ends a word as any other byte that is not a letter or digit does.
            let bytes = s.as_bytes();
            let not_space = |b: &&u8| !b.is_ascii_whitespace();
            if !self.started
                && let Some(&b) = bytes.iter().find(not_space)
            {
                self.started = true;
                self.upper_start = b.is_ascii_uppercase();
            }
            let mut prev_alnum = 0u32;
            for &b in bytes {
                let class = ASCII_CLASS[usize::from(b)];
                self.digits += u32::from(class & DIGIT);
                self.sentence_ends += u32::from(class & SENTENCE_END) >> 1;
                let alnum = u32::from(class & ALNUM) >> 2;
                self.words += alnum & !prev_alnum;
                prev_alnum = alnum;
            }
            if let Some(&b) = bytes.iter().rev().find(not_space) {
                self.terminal_end = matches!(b, b'.' | b'!' | b'?' | b'"' | b')' | b':');
            }
            return;
        }
        for c in s.chars() {
            if c.is_whitespace() {
                in_word = false;
                continue;
            }
            if !self.started {
                self.started = true;
                self.upper_start = c.is_uppercase();
            }
            last = Some(c);
            if crate::text::words::is_cjk(c) {
                self.cjk += 1;
                self.words += 1;
                in_word = false;
                continue;
            }
            if c.is_ascii_digit() {
                self.digits += 1;
            }
            if matches!(c, '.' | '!' | '?' | '。' | '！' | '？') {
                self.sentence_ends += 1;
            }
            if crate::text::words::is_alphanumeric(c) {
                if !in_word {
                    self.words += 1;
                }
                in_word = true;
            } else {
                in_word = false;
            }
        }
        if let Some(c) = last {
            self.terminal_end = matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '"' | '”' | ')' | '」' | ':' | '：');
        }
    }
}

/// The page's blocks, in document order.
#[derive(Debug, Clone, Default)]
pub struct Blocks {
    /// Every text node under `<body>`, in order; blocks index into it.
    pub texts: Vec<NodeId>,
    pub list: Vec<TextBlock>,
    /// Per block, [`Blocks::text_hash`], computed when first asked: the block feature `repeats` and
    /// the rule of that name both read them, and on a page of running text hashing its text twice
    /// was a tenth of the extraction.
    hashes: std::sync::OnceLock<Vec<u64>>,
}

impl Blocks {
    /// The text nodes of block `b`.
    pub fn texts_of(&self, b: &TextBlock) -> &[NodeId] {
        &self.texts[b.first as usize..b.last as usize]
    }

    /// Block `b`'s text into `out` (cleared first): its text nodes joined by single spaces, as the
    /// readers of a short block's whole text (furniture, prices) compare it.
    pub(super) fn text_into(&self, doc: &Document, b: &TextBlock, out: &mut String) {
        out.clear();
        for (k, &t) in self.texts_of(b).iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(doc.text(t));
        }
    }

    /// A hash of block `b`'s text with its whitespace left out: blocks that differ only in spacing
    /// or line breaks hash alike. Both readers of repeated text (the block feature `repeats` and the
    /// rule of that name) use it, so they agree on what a repeat is. Compared only within a page.
    fn text_hash(&self, doc: &Document, b: &TextBlock) -> u64 {
        let mut h = Gather::default();
        for &t in self.texts_of(b) {
            hash_non_whitespace(&mut h, doc.text(t));
        }
        h.finish()
    }

    /// Every block's [`Blocks::text_hash`], in the order of `list`, hashed once per page.
    pub(super) fn text_hashes(&self, doc: &Document) -> &[u64] {
        self.hashes.get_or_init(|| self.list.iter().map(|b| self.text_hash(doc, b)).collect())
    }
}

/// A hash of a stream of bytes fed one at a time, gathered eight to a word so that one multiply
/// mixes eight bytes: FNV-1a's multiply per byte showed in profiles of Chinese pages, three bytes to
/// a character. Only ever compared within one page, so its values are not fixed.
#[derive(Default)]
struct Gather {
    word: u64,
    filled: u32,
    h: u64,
    len: u64,
}

impl Gather {
    #[inline]
    fn byte(&mut self, b: u8) {
        self.word |= u64::from(b) << (8 * self.filled);
        self.filled += 1;
        if self.filled == 8 {
            self.mix();
        }
    }

    #[inline]
    fn mix(&mut self) {
        self.h = (self.h ^ self.word).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        self.len += u64::from(self.filled);
        self.word = 0;
        self.filled = 0;
    }

    fn finish(mut self) -> u64 {
        if self.filled > 0 {
            self.mix();
        }
        crate::hash::fmix64(self.h ^ self.len)
    }
}

/// Feed the UTF-8 bytes of the characters of `s` that are not whitespace ([`char::is_whitespace`])
/// into `h`. Only the lead bytes of whitespace outside ASCII (0xC2: U+0085, U+00A0; 0xE1: U+1680;
/// 0xE2: U+2000 to U+205F; 0xE3: U+3000) make a character be decoded; every other byte goes in as
/// it is.
fn hash_non_whitespace(h: &mut Gather, s: &str) {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            // The ASCII characters `char::is_whitespace` accepts: U+0009..U+000D and the space.
            if !matches!(b, b'\t'..=b'\r' | b' ') {
                h.byte(b);
            }
            i += 1;
        } else if matches!(b, 0xC2 | 0xE1..=0xE3) {
            let Some(c) = s[i..].chars().next() else { break };
            let len = c.len_utf8();
            if !c.is_whitespace() {
                for &x in &bytes[i..i + len] {
                    h.byte(x);
                }
            }
            i += len;
        } else {
            h.byte(b);
            i += 1;
        }
    }
}

/// Per node: the nearest block-level element at or above it (`NONE` above `<body>`), top-down.
pub fn block_owners(doc: &Document) -> Vec<NodeId> {
    let mut o = vec![NONE; doc.len()];
    for i in 0..doc.len() as NodeId {
        let n = doc.node(i);
        o[i as usize] = if n.tag().is_some_and(|t| t.is_block()) {
            i
        } else if n.parent != NONE {
            o[n.parent as usize]
        } else {
            NONE
        };
    }
    o
}

/// Cut the page into blocks.
pub fn segment(doc: &Document, owners: &[NodeId]) -> Blocks {
    let mut out = Blocks::default();
    let body = doc.body;
    let mut offset = 0u32;
    let mut prev_text: NodeId = NONE;
    for i in body..doc.node(body).end {
        let n = doc.node(i);
        if !n.is_text() {
            continue;
        }
        let owner = owners[n.parent as usize];
        let owner = if owner == NONE { body } else { owner };
        // A new block when the owner changes, or when a block element sits between this text and the
        // previous one (text, <p>…</p>, text under one <div> makes three blocks).
        let same = out.list.last().is_some_and(|b: &TextBlock| {
            b.owner == owner && !(prev_text + 1..i).any(|k| doc.node(k).tag().is_some_and(|t| t.is_block()))
        });
        if !same {
            out.list.push(TextBlock {
                owner,
                first: out.texts.len() as u32,
                last: out.texts.len() as u32,
                chars: 0,
                link_chars: 0,
                punct: 0,
                text_nodes: 0,
                link_text_nodes: 0,
                offset,
                in_list: matches!(doc.node(owner).tag(), Some(Tag::Li | Tag::Td | Tag::Th | Tag::Dd | Tag::Dt)),
                scan: Scan::default(),
            });
        }
        out.texts.push(i);
        let s = n.stats;
        offset += s.chars;
        if let Some(b) = out.list.last_mut() {
            b.last += 1;
            b.chars += s.chars;
            b.link_chars += s.link_chars;
            b.punct += s.punct;
            b.text_nodes += 1;
            b.link_text_nodes += u32::from(n.in_link);
            b.scan.read(doc.text(i));
        }
        prev_text = i;
    }
    for b in &mut out.list {
        // Furniture is short; long blocks are not searched.
        if b.chars <= 200 {
            let texts = &out.texts[b.first as usize..b.last as usize];
            b.scan.cues = texts.iter().map(|&t| lexicon::boilerplate_cues(doc.text(t))).sum();
            b.scan.dated = texts.iter().any(|&t| has_date(doc.text(t)));
        }
    }
    // Grown by doubling, the lists are up to half empty, and they live as long as the extraction: on a
    // page of a hundred thousand blocks, megabytes (a large allocation shrinks in place).
    out.list.shrink_to_fit();
    out.texts.shrink_to_fit();
    out
}

/// True when the text holds a date (four digits, a separator, one or two digits) or a time of day
/// (one or two digits, a colon, two digits): the stamps of posts, comments and teasers.
fn has_date(text: &str) -> bool {
    let b = text.as_bytes();
    let digits_at = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let run = digits_at(i);
        let after = i + run;
        if run == 4 {
            // 2004-12-27, 2004/12/27, 2004.12.27, 2004年12月
            let sep = if b[after..].starts_with("年".as_bytes()) {
                3
            } else {
                usize::from(matches!(b.get(after), Some(b'-' | b'/' | b'.')))
            };
            if sep > 0 && after + sep < b.len() && (1..=2).contains(&digits_at(after + sep)) {
                return true;
            }
        } else if (1..=2).contains(&run)
            && b.get(after) == Some(&b':')
            && after + 1 < b.len()
            && digits_at(after + 1) == 2
        {
            return true;
        }
        i = after;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times() {
        for yes in ["2004-12-27 12:46 flyingbirds", "发表于 2005年6月14日", "at 9:05 pm", "2020/11/18"] {
            assert!(has_date(yes), "{yes}");
        }
        for no in ["Page 2 of 12", "1999 was a year", "ratio 3:1", "12345-6", "", "2004-"] {
            assert!(!has_date(no), "{no}");
        }
    }

    #[test]
    fn blocks_split_where_block_elements_intervene() {
        let doc = Document::parse(
            "<body><div>loose <b>text</b><p>para</p>tail</div><ul><li>one</li><li>two</li></ul></body>",
        );
        let b = segment(&doc, &block_owners(&doc));
        let texts: Vec<String> =
            b.list.iter().map(|x| b.texts_of(x).iter().map(|&t| doc.text(t)).collect::<Vec<_>>().join("|")).collect();
        assert_eq!(texts, ["loose|text", "para", "tail", "one", "two"]);
        assert!(b.list[3].in_list && !b.list[0].in_list);
    }

    #[test]
    fn the_repeat_hash_skips_exactly_the_whitespace_chars_skip() {
        let hash = |s: &str| {
            let mut h = Gather::default();
            hash_non_whitespace(&mut h, s);
            h.finish()
        };
        let by_chars = |s: &str| {
            let mut h = Gather::default();
            let kept: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            kept.bytes().for_each(|b| h.byte(b));
            h.finish()
        };
        // Every whitespace character, and characters that share a lead byte with one.
        let spaces: String = (0u32..=0x10FFFF).filter_map(char::from_u32).filter(|c| c.is_whitespace()).collect();
        for s in [
            "a b\tc\u{0B}d\r\ne",
            "農業\u{3000}培訓\u{00A0}x",
            "\u{2028}é\u{1F600} \u{85}z",
            "",
            "©\u{1681}\u{2060}\u{3001}",
        ] {
            assert_eq!(hash(s), by_chars(s), "{s:?}");
        }
        assert_eq!(hash(&format!("a{spaces}b")), hash("ab"));
        assert_ne!(hash("abcdefgh"), hash("abcdefg"));
        assert_ne!(hash("abcdefgh\0"), hash("abcdefgh"));
        assert_eq!(hash("a b"), hash("ab"));
        assert_ne!(hash("ab"), hash("ba"));
    }
    #[test]
    fn the_ascii_scan_counts_as_reading_byte_by_byte() {
        fn by_bytes(texts: &[&str]) -> (u32, u32, u32, bool, bool, bool) {
            let (mut words, mut digits, mut ends, mut started, mut upper, mut terminal) =
                (0, 0, 0, false, false, false);
            for s in texts {
                let mut in_word = false;
                let mut last = None;
                for &b in s.as_bytes() {
                    if b.is_ascii_whitespace() {
                        in_word = false;
                        continue;
                    }
                    if !started {
                        started = true;
                        upper = b.is_ascii_uppercase();
                    }
                    last = Some(b);
                    digits += u32::from(b.is_ascii_digit());
                    ends += u32::from(matches!(b, b'.' | b'!' | b'?'));
                    if b.is_ascii_alphanumeric() {
                        words += u32::from(!in_word);
                        in_word = true;
                    } else {
                        in_word = false;
                    }
                }
                if let Some(b) = last {
                    terminal = matches!(b, b'.' | b'!' | b'?' | b'"' | b')' | b':');
                }
            }
            (words, digits, ends, started, upper, terminal)
        }
        let cases: [&[&str]; 6] = [
            &["Rice farmers planted 12 fields early.", "  Then it rained! "],
            &["   ", "lower start, no end"],
            &["", "\t\x0bQ?"],
            &["a.b.c 3.14 (see: x) \"quoted\"", ":"],
            &["word", "word"],
            &["\x0c\r\n"],
        ];
        for texts in cases {
            let mut scan = Scan::default();
            for s in texts {
                scan.read(s);
            }
            let got = (scan.words, scan.digits, scan.sentence_ends, scan.started, scan.upper_start, scan.terminal_end);
            assert_eq!(got, by_bytes(texts), "{texts:?}");
        }
    }
}
