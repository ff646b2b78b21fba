//! The furniture words and phrases counted in each text block (`segment`'s `boilerplate_cues` block
//! feature): Latin-script words looked up word by word, phrases of scripts written without spaces
//! found by one automaton pass. Both run over every block of a page, so each counter keeps the
//! measurements that shaped it.

/// Latin-script words of page furniture, lower-case and sorted (for a binary search).
const CUE_WORDS: &[&str] = &[
    "advertisement",
    "archive",
    "archives",
    "bookmark",
    "categories",
    "category",
    "comment",
    "comments",
    "contact",
    "cookie",
    "cookies",
    "copyright",
    "email",
    "facebook",
    "follow",
    "home",
    "login",
    "logout",
    "menu",
    "newsletter",
    "next",
    "password",
    "posted",
    "previous",
    "print",
    "privacy",
    "recommended",
    "register",
    "related",
    "reply",
    "reserved",
    "rss",
    "search",
    "share",
    "sign",
    "sponsored",
    "subscribe",
    "tags",
    "terms",
    "tweet",
    "twitter",
    "whatsapp",
];

/// Phrases of page furniture in scripts written without spaces.
const CUE_PHRASES: &[&str] = &[
    "分享",
    "评论",
    "责任编辑",
    "相关",
    "推荐",
    "上一篇",
    "下一篇",
    "登录",
    "注册",
    "版权",
    "广告",
    "来源",
    "点击",
    "首页",
    "收藏",
    "打印",
    "关注",
    "举报",
];

/// How many furniture words and phrases a text holds.
pub fn boilerplate_cues(text: &str) -> u32 {
    let mut n = 0;
    // Words are lower-cased into a small buffer: cue words are short, longer words cannot match, and a
    // word with non-ASCII letters in it is none of them.
    let mut word = [0u8; 16];
    let mut len = 0usize;
    let mut spoilt = false;
    let mut cjk = false;
    // Per first letter, the lengths of the cue words that begin with it (bit `len`): most words of a
    // text are answered by this before any comparison (a binary search of the list compared strings,
    // most of the time spent cutting pages into blocks).
    static LENGTHS: std::sync::LazyLock<[u32; 26]> = std::sync::LazyLock::new(|| {
        let mut t = [0u32; 26];
        for w in CUE_WORDS {
            let first = w.as_bytes()[0];
            if first.is_ascii_lowercase() && w.len() < 32 {
                t[usize::from(first - b'a')] |= 1 << w.len();
            }
        }
        t
    });
    let lengths = &*LENGTHS;
    // `word` is 1 to 16 bytes long (the buffer below).
    let possible =
        |word: &[u8]| word[0].is_ascii_lowercase() && lengths[usize::from(word[0] - b'a')] >> word.len() & 1 == 1;
    let check = |word: &[u8], n: &mut u32| {
        if word.len() >= 3 && possible(word) && CUE_WORDS.binary_search_by(|c| c.as_bytes().cmp(word)).is_ok() {
            *n += 1;
        }
    };
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() {
            if len < word.len() {
                word[len] = b.to_ascii_lowercase();
                len += 1;
            } else {
                spoilt = true;
            }
        } else if b >= 0x80 {
            spoilt |= len > 0;
            cjk |= b >= CJK_LEAD;
        } else {
            if len > 0 && !spoilt {
                check(&word[..len], &mut n);
            }
            len = 0;
            spoilt = false;
        }
    }
    if len > 0 && !spoilt {
        check(&word[..len], &mut n);
    }
    // Every cue phrase is CJK (U+3000 and up, lead byte 0xE3 or more): a text without such a
    // character, curly quotes and accents aside, holds none of them.
    if cjk {
        n += cue_phrases(text);
    }
    n
}

/// How many times the [`CUE_PHRASES`] occur in `text`, each phrase counted as a search for it alone
/// would count it (occurrences of one phrase do not overlap; occurrences of different phrases may).
/// One automaton pass: a search per phrase read each block's text eighteen times, a few percent of
/// `auto`'s instructions on Chinese pages.
fn cue_phrases(text: &str) -> u32 {
    static PHRASES: std::sync::LazyLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::LazyLock::new(|| aho_corasick::AhoCorasick::new(CUE_PHRASES).ok());
    let Some(ac) = PHRASES.as_ref() else {
        return CUE_PHRASES.iter().map(|p| text.matches(p).count() as u32).sum();
    };
    // Where the last counted occurrence of each phrase ended: one phrase's occurrences come in the
    // order of their starts, and one that begins inside the last counted is not counted.
    let mut ends = [0usize; CUE_PHRASES.len()];
    let mut n = 0;
    for m in ac.find_overlapping_iter(text) {
        let end = &mut ends[m.pattern().as_usize()];
        if m.start() >= *end {
            *end = m.end();
            n += 1;
        }
    }
    n
}

/// The smallest lead byte of a UTF-8 character at U+3000 or above.
const CJK_LEAD: u8 = 0xE3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cue_words_are_sorted_and_found() {
        assert!(CUE_WORDS.windows(2).all(|w| w[0] < w[1]));
        // The length table of `boilerplate_cues` is indexed by a word's first letter.
        assert!(CUE_WORDS.iter().all(|w| w.as_bytes()[0].is_ascii_lowercase() && w.len() < 32));
        assert_eq!(boilerplate_cues("Share this: Facebook, Twitter. 3 Comments"), 4);
        assert_eq!(boilerplate_cues("分享到：微博 | 责任编辑：王明"), 2);
        assert_eq!(boilerplate_cues("Farmers learned new methods."), 0);
        // Each phrase as often as a search for it alone finds it, overlapping phrases each once.
        assert_eq!(cue_phrases("首页首页 > 相关推荐"), 4);
        assert_eq!(cue_phrases("分享分享享"), 2);
    }
}
