//! Text as the arena holds it: whitespace folded, characters and punctuation counted.
//!
//! One pass over each text node of the parse does all three, so the statistics every algorithm reads
//! (the character counts of Sun, Song & Liao's text density, the punctuation of Wang et al.'s Naive Bayes features, the raw text length of Lv et al.'s P value) come from the same
//! reading of the same characters.

/// Byte classes for the text loop: ASCII word characters, ASCII punctuation (counted), ASCII
/// whitespace (exactly what `char::is_whitespace` says of ASCII: tab to CR, and space), and the bytes
/// of non-ASCII characters, which take the per-character path.
const WORD: u8 = 0;
const PUNCT: u8 = 1;
const SPACE: u8 = 2;
const NON_ASCII: u8 = 3;
static BYTE_CLASS: [u8; 256] = {
    let mut t = [NON_ASCII; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c == b' ' || (c >= 0x09 && c <= 0x0D) {
            SPACE
        } else if c.is_ascii_punctuation() {
            PUNCT
        } else {
            WORD
        };
        b += 1;
    }
    t
};

/// Punctuation counted by the Naive Bayes method's feature (Wang et al.) and by the statistics: ASCII and CJK full-width marks.
pub fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(
            c,
            '，' | '。'
                | '、'
                | '；'
                | '：'
                | '？'
                | '！'
                | '“'
                | '”'
                | '‘'
                | '’'
                | '《'
                | '》'
                | '「'
                | '」'
                | '『'
                | '』'
                | '（'
                | '）'
                | '【'
                | '】'
                | '…'
                | '—'
                | '．'
                | '·'
        )
}

/// What [`fold_into`] counted.
pub(super) struct Folded {
    /// Characters written (folded).
    pub chars: u32,
    /// Characters read, whitespace included: the text length of Lv et al.'s P value.
    pub raw_chars: u32,
    pub punct: u32,
    /// The raw text began or ended with whitespace (a word boundary to keep when text nodes are joined).
    pub space_before: bool,
    pub space_after: bool,
}

/// Append `raw` to `buf` with whitespace runs folded to one space and trimmed at both ends, and count
/// its characters and punctuation. Nothing is appended for whitespace-only text.
/// Lead bytes of the UTF-8 encodings of U+4000 to U+9FFF (CJK Unified Ideographs and extension A,
/// with the Yijing hexagram symbols): no whitespace and nothing [`is_punct`] counts among them.
const CJK_LEADS: std::ops::RangeInclusive<u8> = 0xE4..=0xE9;

pub(super) fn fold_into(raw: &str, buf: &mut String) -> Folded {
    let mut out = Appender { start: buf.len(), chars: 0, raw_chars: 0, pending_space: false };
    let mut punct = 0u32;
    let space_before = raw.starts_with(|c: char| c.is_whitespace());
    // Byte loop with whole runs of non-space ASCII and of CJK ideographs copied at once; other
    // characters one by one.
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let class = BYTE_CLASS[bytes[i] as usize];
        if class == SPACE {
            out.raw_chars += 1;
            out.pending_space = true;
            i += 1;
            continue;
        }
        let run_start = i;
        if class != NON_ASCII {
            while i < bytes.len() {
                let c = BYTE_CLASS[bytes[i] as usize];
                if c > PUNCT {
                    break;
                }
                punct += u32::from(c);
                i += 1;
            }
            out.push(buf, &raw[run_start..i], (i - run_start) as u32);
            continue;
        }
        if CJK_LEADS.contains(&bytes[i]) {
            // A run of CJK ideographs (U+4000 to U+9FFF: lead bytes E4 to E9, three bytes each), none
            // of them a space or a punctuation mark. Chinese pages are mostly such runs.
            let mut n = 0u32;
            while i < bytes.len() && CJK_LEADS.contains(&bytes[i]) {
                i += 3;
                n += 1;
            }
            out.push(buf, &raw[run_start..i], n);
            continue;
        }
        let Some(c) = raw[i..].chars().next() else { break };
        i += c.len_utf8();
        if c.is_whitespace() {
            out.raw_chars += 1;
            out.pending_space = true;
            continue;
        }
        out.push(buf, &raw[run_start..i], 1);
        if is_punct(c) {
            punct += 1;
        }
    }
    Folded { chars: out.chars, raw_chars: out.raw_chars, punct, space_before, space_after: out.pending_space }
}

/// What [`fold_into`] has appended so far.
struct Appender {
    /// Where this text starts in the buffer: no space is written before its first character.
    start: usize,
    chars: u32,
    raw_chars: u32,
    /// Whitespace was read since the last character appended.
    pending_space: bool,
}

impl Appender {
    /// Append `run`, `n` characters none of which is whitespace, after the space pending before it.
    fn push(&mut self, buf: &mut String, run: &str, n: u32) {
        if self.pending_space && buf.len() > self.start {
            buf.push(' ');
            self.chars += 1;
        }
        self.pending_space = false;
        buf.push_str(run);
        self.chars += n;
        self.raw_chars += n;
    }
}

/// Fold whitespace runs to one space and trim.
pub fn fold_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_counts_and_edges() {
        let mut buf = String::from("x");
        let f = fold_into("  a,b\u{0B}c\u{A0} 中文，好 x. ", &mut buf);
        assert_eq!(&buf[1..], "a,b c 中文，好 x.");
        assert_eq!((f.chars, f.punct), ("a,b c 中文，好 x.".chars().count() as u32, 3));
        assert!(f.space_before && f.space_after);
        let blank = fold_into(" \n\t", &mut buf);
        assert_eq!((blank.chars, blank.raw_chars), (0, 3));
        assert_eq!(fold_ws("  one \n two  "), "one two");
    }

    #[test]
    fn ideograph_runs_fold_as_their_characters_would() {
        // What the run copy relies on: no character with those lead bytes is a space or punctuation.
        for c in ('\u{4000}'..='\u{9FFF}').filter(|c| c.len_utf8() == 3) {
            assert!(CJK_LEADS.contains(&c.encode_utf8(&mut [0; 4]).as_bytes()[0]));
            assert!(!c.is_whitespace() && !is_punct(c), "{c:?}");
        }
        let mut buf = String::new();
        let f = fold_into("农民　培训\u{3000}中心，欢迎 ab 䶵龥", &mut buf);
        assert_eq!(buf, "农民 培训 中心，欢迎 ab 䶵龥");
        assert_eq!((f.chars, f.raw_chars, f.punct), (17, 17, 1));
    }
}
