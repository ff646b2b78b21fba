//! Stage 1: bytes to text.
//!
//! Order of evidence, strongest first: a byte-order mark; the charset the caller passes (an HTTP
//! `Content-Type` parameter, a CLI flag); a `<meta charset>` or `http-equiv` declaration in the first
//! KiB; otherwise statistical detection on a bounded prefix. Detection on the whole page is wasted work:
//! a few KiB of a GBK page are as telling as its 2 MB.

use std::borrow::Cow;

use encoding_rs::Encoding;

use crate::error::Error;

mod mojibake;

/// How far into the page `<meta>` declarations are looked for (the HTML standard says 1024 bytes).
const META_SCAN: usize = 1024;
/// How many bytes statistical detection reads. Enough text for a confident guess on every set we have,
/// small enough that detection costs nothing next to parsing.
const DETECT_PREFIX: usize = 64 * 1024;

/// Where the charset decision came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CharsetSource {
    Bom,
    Caller,
    Meta,
    Detected,
}

/// Decoded page text with the charset that was used.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// Borrowed from the input when it is UTF-8 that needs no change (most pages): the stages after
    /// decoding read it and make their own copy, so a second one here would only cost a page-sized
    /// copy and its memory.
    pub text: Cow<'a, str>,
    /// The WHATWG name of the encoding, e.g. `"GBK"`, `"UTF-8"`, `"windows-874"`.
    pub charset: &'static str,
    pub source: CharsetSource,
    /// True when the bytes held sequences that are invalid in the chosen encoding.
    pub had_errors: bool,
    /// How many doubly encoded characters (`â€™` for `’`) were repaired ([`mojibake`]).
    pub repaired: usize,
}

/// Resolve a charset label (`"gb2312"`, `"tis-620"`, `"utf8"`) to an encoding.
pub fn lookup(label: &str) -> Result<&'static Encoding, Error> {
    Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| Error::UnknownCharset(label.to_string()))
}

/// Decode `bytes`, honouring `caller_charset` when given. Never fails on bad bytes: invalid
/// sequences become U+FFFD and `had_errors` says so.
pub fn decode<'a>(bytes: &'a [u8], caller_charset: Option<&str>) -> Result<Decoded<'a>, Error> {
    let caller = caller_charset.map(lookup).transpose()?;
    let (encoding, source) = if let Some((enc, _)) = Encoding::for_bom(bytes) {
        (enc, CharsetSource::Bom)
    } else if let Some(enc) = caller {
        (enc, CharsetSource::Caller)
    } else if let Some(enc) = sniff_meta(&bytes[..bytes.len().min(META_SCAN)]) {
        // A legacy charset declared over bytes that are valid UTF-8 with multi-byte sequences: the page
        // was re-saved or served as UTF-8 and the declaration is stale (a GBK or Big5 text is almost
        // never valid UTF-8 over more than a few characters). Trust the bytes.
        if enc != encoding_rs::UTF_8 && is_multibyte_utf8(bytes) {
            (encoding_rs::UTF_8, CharsetSource::Detected)
        } else {
            (enc, CharsetSource::Meta)
        }
    } else {
        (detect(bytes), CharsetSource::Detected)
    };
    // GB2312 and GBK labels map to GBK in encoding_rs; GB18030 is a superset that decodes both the same
    // way, so decoding any of them as GB18030 recovers the rare four-byte sequences GBK pages still use.
    let encoding = if encoding == encoding_rs::GBK { encoding_rs::GB18030 } else { encoding };
    let (mut text, used, had_errors) = encoding.decode(bytes);
    // memchr's vector search: `str::contains` reads a word at a time, and every page is read here.
    if memchr::memchr(0, text.as_bytes()).is_some() {
        // NUL is never meaningful in HTML text; html5ever would turn it into U+FFFD anyway.
        text.to_mut().retain(|c| c != '\0');
    }
    // Damage of that kind is UTF-8 read as a single-byte charset; a page decoded from GBK or Big5 cannot
    // hold it, and its pinyin letters are left as they are.
    let repaired = if used == encoding_rs::UTF_8 || used.is_single_byte() { mojibake::repair(&mut text) } else { 0 };
    Ok(Decoded { text, charset: used.name(), source, had_errors, repaired })
}

/// Statistical detection over a bounded window. The window starts just before the first non-ASCII byte:
/// a page can open with 100 KiB of ASCII script before its first Chinese character, and the ASCII says
/// nothing about the charset.
fn detect(bytes: &[u8]) -> &'static Encoding {
    let Some(first) = bytes.iter().position(|&b| b >= 0x80) else {
        return encoding_rs::UTF_8;
    };
    let start = first.saturating_sub(1024);
    let end = bytes.len().min(start + DETECT_PREFIX);
    let window = &bytes[start..end];
    let last = end == bytes.len();
    match std::str::from_utf8(window) {
        Ok(_) => return encoding_rs::UTF_8,
        // Invalid only because the window cut a sequence at its end: still UTF-8.
        Err(e) if e.error_len().is_none() => return encoding_rs::UTF_8,
        Err(_) => {}
    }
    // Detection costs about 150 ns a byte fed, more on non-ASCII bytes. A Chinese, Japanese or Korean
    // page says so in its first few hundred characters: a guess from the first non-ASCII runs (about
    // 500 bytes with their neighbours) is taken when it names one of those charsets and the whole
    // window decodes in it without error.
    let (sample, whole) = around_non_ascii_upto(window, NON_ASCII_CONTEXT, CJK_SAMPLE);
    let quick = guess(&sample, last && whole);
    if MULTI_BYTE.contains(&quick) && decodes_cleanly(quick, window, last) {
        return quick;
    }
    // Otherwise only the non-ASCII bytes and their neighbours are fed: the ASCII between them weighs
    // the same for every candidate charset. On the 3,038 pages of the developer datasets both steps
    // choose what the whole window chose, on every page (and detection is 5 ms → 0.4 ms on the GBK
    // pages of zh-cwce that declare no charset).
    let guessed = guess(&around_non_ascii(window, NON_ASCII_CONTEXT), last);
    if guessed.is_single_byte()
        && let Some(multi_byte) = cleanest_multi_byte(window, last)
    {
        return multi_byte;
    }
    guessed
}

/// Multi-byte charsets a page's bytes are tried in when detection falls back to a single-byte guess.
const MIXED_CANDIDATES: [&Encoding; 3] = [encoding_rs::UTF_8, encoding_rs::GB18030, encoding_rs::BIG5];
/// Fewer non-ASCII bytes than this say too little to overrule detection.
const MIXED_MIN_NON_ASCII: usize = 64;
/// The share of the non-ASCII bytes (one in this many) that may be malformed in the charset chosen.
const MIXED_MALFORMED_PER: usize = 100;

/// The charset in which nearly all of `window`'s non-ASCII bytes decode, when detection guessed a
/// single-byte one: detection drops a charset at its first malformed sequence, so a GBK page that
/// opens with a few bytes of another charset (a wrapper's UTF-8 attribute, an include a server
/// spliced in) has every multi-byte candidate dropped and falls to windows-1252, which reads every
/// Chinese character as two Latin letters. A single-byte charset decodes any bytes, so it says
/// nothing against the multi-byte reading.
///
/// The candidate with the fewest malformed bytes wins if at most one non-ASCII byte in
/// [`MIXED_MALFORMED_PER`] is malformed in it, and if detection, asked again without the runs of
/// non-ASCII bytes that are malformed in it, names a multi-byte charset too (by chance a
/// windows-1251 or windows-874 text can decode almost cleanly as GBK; its letter frequencies do not
/// look like Chinese). That second answer is the charset: GBK and Big5 both decode most GB2312 text.
fn cleanest_multi_byte(window: &[u8], last: bool) -> Option<&'static Encoding> {
    let non_ascii = window.iter().filter(|&&b| b >= 0x80).count();
    if non_ascii < MIXED_MIN_NON_ASCII {
        return None;
    }
    let (best, malformed) = MIXED_CANDIDATES
        .iter()
        .map(|&enc| (enc, malformed_sequences(enc, window, last)))
        .min_by_key(|(_, bad)| bad.iter().map(|r| r.len()).sum::<usize>())?;
    let bad_bytes: usize = malformed.iter().map(|r| r.len()).sum();
    if bad_bytes * MIXED_MALFORMED_PER > non_ascii {
        return None;
    }
    // The window with every non-ASCII run that holds a malformed sequence blanked out.
    let mut cleaned = window.to_vec();
    for r in &malformed {
        let start = window[..r.start].iter().rposition(|&b| b < 0x80).map_or(0, |k| k + 1);
        let end = window[r.end..].iter().position(|&b| b < 0x80).map_or(window.len(), |k| r.end + k);
        cleaned[start..end].fill(b' ');
    }
    let again = guess(&around_non_ascii(&cleaned, NON_ASCII_CONTEXT), last);
    let agrees = again == best || (best == encoding_rs::GB18030 && again == encoding_rs::GBK);
    if agrees || (MULTI_BYTE.contains(&again) && decodes_cleanly(again, &cleaned, last)) { Some(again) } else { None }
}

/// Where `bytes` hold sequences that are malformed in `encoding` (a sequence cut by the end of `bytes`
/// counts only when `last`).
fn malformed_sequences(encoding: &'static Encoding, bytes: &[u8], last: bool) -> Vec<std::ops::Range<usize>> {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    // The text is not kept: one buffer, emptied after every call, is enough for any input.
    let mut out = String::with_capacity(decoder.max_utf8_buffer_length_without_replacement(4096).unwrap_or(16384));
    let mut at = 0;
    let mut bad = Vec::new();
    loop {
        out.clear();
        let end = (at + 4096).min(bytes.len());
        let chunk_last = last && end == bytes.len();
        let (result, read) = decoder.decode_to_string_without_replacement(&bytes[at..end], &mut out, chunk_last);
        at += read;
        match result {
            encoding_rs::DecoderResult::Malformed(len, extra) => {
                let stop = at - usize::from(extra);
                bad.push(stop.saturating_sub(usize::from(len))..stop);
            }
            encoding_rs::DecoderResult::InputEmpty if end == bytes.len() => return bad,
            encoding_rs::DecoderResult::InputEmpty | encoding_rs::DecoderResult::OutputFull => {}
        }
    }
}

/// Bytes of non-ASCII runs and their neighbours that [`detect`] guesses a multi-byte CJK charset from
/// (a run that crosses the limit is taken whole). 256 chose what the whole window chose on every page
/// of the developer sets too; 512 keeps a margin.
const CJK_SAMPLE: usize = 512;
/// ASCII bytes kept on each side of a run of non-ASCII bytes for statistical detection.
const NON_ASCII_CONTEXT: usize = 16;
/// The multi-byte charsets of Chinese, Japanese and Korean pages.
const MULTI_BYTE: [&Encoding; 6] = [
    encoding_rs::GBK,
    encoding_rs::GB18030,
    encoding_rs::BIG5,
    encoding_rs::SHIFT_JIS,
    encoding_rs::EUC_KR,
    encoding_rs::EUC_JP,
];

/// chardetng's guess for `bytes` (`last`: they end the page).
fn guess(bytes: &[u8], last: bool) -> &'static Encoding {
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(bytes, last);
    det.guess(None, chardetng::Utf8Detection::Allow)
}

/// Whether `bytes` decode in `encoding` without a malformed sequence (a sequence cut by the end of
/// `bytes` counts as malformed only when `last`).
fn decodes_cleanly(encoding: &'static Encoding, bytes: &[u8], last: bool) -> bool {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap_or(0));
    let (result, _) = decoder.decode_to_string_without_replacement(bytes, &mut out, last);
    matches!(result, encoding_rs::DecoderResult::InputEmpty)
}

/// The runs of non-ASCII bytes in `bytes`, each with up to `context` bytes on either side, the pieces
/// joined by a space.
fn around_non_ascii(bytes: &[u8], context: usize) -> Vec<u8> {
    around_non_ascii_upto(bytes, context, usize::MAX).0
}

/// [`around_non_ascii`] that stops once `limit` bytes are out, and says whether it reached the end.
fn around_non_ascii_upto(bytes: &[u8], context: usize, limit: usize) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity((bytes.len() / 4).min(limit));
    let mut covered = 0;
    while let Some(k) = bytes[covered..].iter().position(|&b| b >= 0x80) {
        if out.len() >= limit {
            return (out, false);
        }
        let at = covered + k;
        let from = at.saturating_sub(context).max(covered);
        if from > covered && !out.is_empty() {
            out.push(b' ');
        }
        let run_end = bytes[at..].iter().position(|&b| b < 0x80).map_or(bytes.len(), |n| at + n);
        let to = (run_end + context).min(bytes.len());
        out.extend_from_slice(&bytes[from..to]);
        covered = to;
    }
    (out, true)
}

/// True when the bytes are valid UTF-8 and hold at least a few multi-byte sequences (pure ASCII decodes
/// the same in every charset we meet, so it says nothing).
fn is_multibyte_utf8(bytes: &[u8]) -> bool {
    // Lead bytes counted only in the 64-byte runs that are not all ASCII: most pages that declare a
    // legacy charset are English with a few accented letters, and a byte-by-byte count of their whole
    // text was half of this stage's instructions.
    let mut multibyte = 0;
    for run in bytes.chunks(64) {
        if !run.is_ascii() {
            multibyte += run.iter().filter(|&&b| b >= 0xC0).count();
            if multibyte >= 8 {
                return std::str::from_utf8(bytes).is_ok();
            }
        }
    }
    false
}

/// Find `<meta charset=...>` or `<meta http-equiv="content-type" content="...charset=...">` in `head`.
/// A byte-level scan: the page is not decoded yet, and every charset we care about is ASCII-compatible here.
fn sniff_meta(head: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = head.iter().map(|b| b.to_ascii_lowercase()).collect();
    let mut from = 0;
    while let Some(pos) = find(&lower[from..], b"<meta") {
        let start = from + pos;
        let end = lower[start..].iter().position(|&b| b == b'>').map_or(lower.len(), |e| start + e);
        let tag = &lower[start..end];
        if let Some(p) = find(tag, b"charset") {
            let rest = &tag[p + 7..];
            let rest = trim_start(rest);
            if let Some(rest) = rest.strip_prefix(b"=") {
                let rest = trim_start(rest);
                let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
                let label_end = rest
                    .iter()
                    .position(|&b| b == b'"' || b == b'\'' || b == b';' || b == b'/' || b.is_ascii_whitespace())
                    .unwrap_or(rest.len());
                if let Some(enc) = Encoding::for_label(&rest[..label_end]) {
                    // A page cannot declare UTF-16 in-band (the standard reads that as UTF-8).
                    if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
                        return Some(encoding_rs::UTF_8);
                    }
                    if enc == encoding_rs::REPLACEMENT || enc == encoding_rs::X_USER_DEFINED {
                        return None;
                    }
                    return Some(enc);
                }
            }
        }
        from = end.max(start + 5);
        if from >= lower.len() {
            break;
        }
    }
    None
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &s[n..]
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_charset_forms() {
        assert_eq!(sniff_meta(b"<meta charset=gbk>").map(|e| e.name()), Some("GBK"));
        assert_eq!(
            sniff_meta(b"<META http-equiv=\"Content-Type\" content=\"text/html; charset=big5\">").map(|e| e.name()),
            Some("Big5")
        );
        assert_eq!(sniff_meta(b"<meta charset='utf-16'>").map(|e| e.name()), Some("UTF-8"));
        assert_eq!(sniff_meta(b"<meta name=x>"), None);
    }

    #[test]
    fn utf8_bytes_under_a_stale_legacy_declaration_decode_as_utf8() {
        let page = "<meta charset=gb2312><p>谷歌在2014年收购的人工智能公司开发出一款计算机。</p>";
        let d = decode(page.as_bytes(), None).unwrap();
        assert_eq!(d.charset, "UTF-8");
        assert!(d.text.contains("人工智能"));
        // Real GBK bytes under the same declaration stay GBK (decoded as its superset GB18030).
        let gbk = encoding_rs::GBK.encode(page).0;
        let d = decode(&gbk, None).unwrap();
        assert_eq!((d.charset, d.source), ("gb18030", CharsetSource::Meta));
        assert!(d.text.contains("人工智能"));
        // Lead bytes are counted across the page's 64-byte runs, wherever they fall: eight make UTF-8,
        // seven (too few to tell) leave the declaration in force.
        for (accents, charset) in [(8, "UTF-8"), (7, "windows-1252")] {
            let page = format!("<meta charset=latin1>{}{}", "plain ".repeat(40), "café, ".repeat(accents));
            assert_eq!(decode(page.as_bytes(), None).unwrap().charset, charset, "{accents}");
        }
    }

    #[test]
    fn bom_wins_over_caller() {
        let d = decode(b"\xEF\xBB\xBFhi", Some("gbk")).unwrap();
        assert_eq!(d.text, "hi");
        assert_eq!(d.source, CharsetSource::Bom);
    }

    #[test]
    fn unknown_label_is_an_error() {
        assert!(matches!(decode(b"x", Some("klingon")), Err(Error::UnknownCharset(_))));
    }

    #[test]
    fn nul_bytes_are_dropped() {
        let d = decode(b"a\0b", None).unwrap();
        assert_eq!(d.text, "ab");
    }

    #[test]
    fn doubly_encoded_text_is_repaired_whatever_the_declared_charset() {
        // `’` and `—` encoded as UTF-8, read as ISO-8859-1 and saved as UTF-8 again.
        let twice = "<title>A DIY Investor\u{e2}\u{80}\u{99}s Guide \u{e2}\u{80}\u{94} 2025</title>";
        let d = decode(twice.as_bytes(), None).unwrap();
        assert_eq!(d.text, "<title>A DIY Investor’s Guide — 2025</title>");
        assert_eq!(d.repaired, 2);
        // The original bytes served under a stale windows-1252 label read the same.
        let once = "<p>it’s — done</p>";
        let d = decode(once.as_bytes(), Some("windows-1252")).unwrap();
        assert_eq!((&*d.text, d.repaired), (once, 2));
    }

    #[test]
    fn legacy_chinese_text_is_not_touched_by_the_repair() {
        let (bytes, _, _) = encoding_rs::GBK.encode("<p>水稻种植 nóngyè</p>");
        let d = decode(&bytes, Some("gbk")).unwrap();
        assert_eq!((&*d.text, d.repaired), ("<p>水稻种植 nóngyè</p>", 0));
    }

    #[test]
    fn undeclared_pages_are_detected_from_their_non_ascii_text() {
        let script = format!("<script>{}</script>", "var a = 1; ".repeat(500));
        let zh = format!(
            "<html><head>{script}</head><body><p>{}</p></body></html>",
            "农民培训，水稻种植技术推广。".repeat(40)
        );
        let (gbk, _, _) = encoding_rs::GBK.encode(&zh);
        let tw = format!(
            "<html><head>{script}</head><body><p>{}</p></body></html>",
            "農民培訓，水稻種植技術推廣。".repeat(40)
        );
        let (big5, _, _) = encoding_rs::BIG5.encode(&tw);
        let fr = format!("<body>{script}<p>{}</p></body>", "Le blé récolté à l'été, très tôt. ".repeat(40));
        let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(&fr);
        for (bytes, charset, text) in [(&gbk, "gb18030", &zh), (&big5, "Big5", &tw), (&latin, "windows-1252", &fr)] {
            let d = decode(bytes, None).unwrap();
            assert_eq!((d.charset, d.source), (charset, CharsetSource::Detected));
            assert!(d.text == *text, "{charset}: decoded text differs");
        }
    }

    /// A Chinese forum page saved inside a wrapper whose attribute holds three U+FFFD as UTF-8 (`EF BF
    /// BD`), then 40 KB of GBK text, no declaration: detection drops GBK at the wrapper's bytes, and
    /// windows-1252 read `主题: 【2005年中国` as `Ö÷Ìâ: ¡¾2005ÄêÖÐ¹ú`. The bytes are built here.
    #[test]
    fn a_gbk_page_that_opens_with_a_few_utf8_bytes_is_gbk() {
        let post = "主题: 【2005年中国农业技术交流会】水稻育秧和病虫害防治的经验，欢迎各位网友回帖讨论。\n";
        let mut text = String::new();
        while text.len() < 40 * 1024 {
            text.push_str(&format!(
                "<div class=post><p>{post}</p><p>回复：楼主说得好，我们村今年也用了这个办法。</p></div>"
            ));
        }
        let mut page = b"<html><head><title>forum</title></head><body><div class=\"saved\" title=\"".to_vec();
        page.extend_from_slice("\u{FFFD}\u{FFFD}\u{FFFD}".as_bytes());
        page.extend_from_slice(b"\">");
        page.extend_from_slice(&encoding_rs::GBK.encode(&text).0);
        page.extend_from_slice(b"</div></body></html>");
        assert_eq!(
            &page[page.iter().position(|&b| b >= 0x80).unwrap()..][..9],
            b"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
        );
        let d = decode(&page, None).unwrap();
        assert_eq!((d.charset, d.source), ("gb18030", CharsetSource::Detected));
        assert!(d.text.contains("主题: 【2005年中国农业技术交流会】") && d.text.contains(&text), "{:.200}", d.text);
        // The same with the GBK text first and the stray bytes in the middle of the page.
        // `<` is never the second byte of a GBK character.
        let mut middle = encoding_rs::GBK.encode(&text).0.into_owned();
        let at = middle.len() / 2;
        let at = at + middle[at..].iter().position(|&b| b == b'<').unwrap();
        middle.splice(at..at, "<i>\u{FFFD}\u{FFFD}</i>".bytes());
        assert_eq!(decode(&middle, None).unwrap().charset, "gb18030");
    }

    /// Single-byte pages keep their charset: Cyrillic and Thai decode almost cleanly as GBK by chance
    /// (their letters are all high bytes), and a Latin page with a few UTF-8 bytes is still Latin.
    #[test]
    fn single_byte_pages_are_not_read_as_multi_byte() {
        let ru = "<p>Фермеры области собрали первый урожай риса в этом году, и урожай оказался хорошим.</p>";
        let th = "<p>เกษตรกรในภาคใต้ปลูกข้าวเร็วขึ้นในปีนี้ และได้ผลผลิตดีกว่าปีที่แล้วมาก</p>";
        let fr = "<p>Le blé récolté à l'été, très tôt, près de la forêt où l'on fête la moisson.</p>";
        for (enc, text) in
            [(encoding_rs::WINDOWS_1251, ru), (encoding_rs::WINDOWS_874, th), (encoding_rs::WINDOWS_1252, fr)]
        {
            let mut page = b"<html><body><div title=\"".to_vec();
            page.extend_from_slice("\u{FFFD}".as_bytes());
            page.extend_from_slice(b"\">");
            page.extend_from_slice(&enc.encode(&text.repeat(60)).0);
            let d = decode(&page, None).unwrap();
            assert_eq!(d.charset, enc.name(), "{text:.20}");
        }
    }

    #[test]
    fn malformed_sequences_are_located() {
        let bytes = b"ab\xEF\xBF\xBD\xEF\xBF\xBDcd\xC4\xE3";
        assert_eq!(malformed_sequences(encoding_rs::UTF_8, bytes, true), [10..11, 11..12]);
        assert!(malformed_sequences(encoding_rs::GB18030, b"ab\xC4\xE3", true).is_empty());
        // A lead byte cut by the end of the bytes counts only at the end of the page.
        assert!(malformed_sequences(encoding_rs::GB18030, b"ab\xC4", false).is_empty());
        assert_eq!(
            malformed_sequences(encoding_rs::GB18030, b"ab\xC4", true),
            vec![std::ops::Range { start: 2, end: 3 }]
        );
    }

    #[test]
    fn detection_reads_non_ascii_runs_with_their_neighbours() {
        let bytes = b"aaaaaaaaaa\xe9bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\xe8\xe8cc";
        assert_eq!(around_non_ascii(bytes, 3), b"aaa\xe9bbb bbb\xe8\xe8cc".to_vec());
        assert!(around_non_ascii(b"only ascii", 3).is_empty());
    }
}
