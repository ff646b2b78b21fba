//! Unicode NFKC by pieces: most text of most pages is already in NFKC, and the few characters that
//! are not (a full-width comma, a no-break space, a ligature) are normalised with their neighbours
//! alone instead of sending the whole text through the normaliser.

use std::borrow::Cow;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// The characters of the Basic Multilingual Plane above ASCII that are not stable ([`is_stable`]), as
/// inclusive ranges: what the normaliser answers for each, written here so that no process spends
/// the ~27 million instructions of asking it about all 65,536 on its first page with such a
/// character. `the_unstable_ranges_are_the_normalisers` checks every character against the
/// normaliser, and prints the table afresh when the normaliser's Unicode version changes it.
#[rustfmt::skip]
const UNSTABLE: &[(u16, u16)] = &[
    (0x00A0, 0x00A0), (0x00A8, 0x00A8), (0x00AA, 0x00AA), (0x00AF, 0x00AF), (0x00B2, 0x00B5), (0x00B8, 0x00BA),
    (0x00BC, 0x00BE), (0x0132, 0x0133), (0x013F, 0x0140), (0x0149, 0x0149), (0x017F, 0x017F), (0x01C4, 0x01CC),
    (0x01F1, 0x01F3), (0x02B0, 0x02B8), (0x02D8, 0x02DD), (0x02E0, 0x02E4), (0x0300, 0x034E), (0x0350, 0x036F),
    (0x0374, 0x0374), (0x037A, 0x037A), (0x037E, 0x037E), (0x0384, 0x0385), (0x0387, 0x0387), (0x03D0, 0x03D6),
    (0x03F0, 0x03F2), (0x03F4, 0x03F5), (0x03F9, 0x03F9), (0x0483, 0x0487), (0x0558, 0x0558), (0x0587, 0x0587),
    (0x058B, 0x058C), (0x0591, 0x05BD), (0x05BF, 0x05BF), (0x05C1, 0x05C2), (0x05C4, 0x05C5), (0x05C7, 0x05C9),
    (0x0610, 0x061A), (0x064B, 0x065F), (0x0670, 0x0670), (0x0675, 0x0678), (0x06D6, 0x06DC), (0x06DF, 0x06E4),
    (0x06E7, 0x06E8), (0x06EA, 0x06ED), (0x0711, 0x0711), (0x0730, 0x074A), (0x07EB, 0x07F3), (0x07FD, 0x07FD),
    (0x0816, 0x0819), (0x081B, 0x0823), (0x0825, 0x0827), (0x0829, 0x082D), (0x0859, 0x085B), (0x0897, 0x089F),
    (0x08CA, 0x08E1), (0x08E3, 0x08FF), (0x093C, 0x093C), (0x094D, 0x094D), (0x0951, 0x0954), (0x0958, 0x095F),
    (0x09BC, 0x09BC), (0x09BE, 0x09BE), (0x09CD, 0x09CD), (0x09D7, 0x09D7), (0x09DC, 0x09DD), (0x09DF, 0x09DF),
    (0x09FE, 0x09FE), (0x0A33, 0x0A33), (0x0A36, 0x0A36), (0x0A3C, 0x0A3C), (0x0A4D, 0x0A4D), (0x0A59, 0x0A5B),
    (0x0A5E, 0x0A5E), (0x0ABC, 0x0ABC), (0x0ACD, 0x0ACD), (0x0B3C, 0x0B3C), (0x0B3E, 0x0B3E), (0x0B4D, 0x0B4D),
    (0x0B56, 0x0B57), (0x0B5C, 0x0B5D), (0x0BBE, 0x0BBE), (0x0BCD, 0x0BCD), (0x0BD7, 0x0BD7), (0x0C3C, 0x0C3C),
    (0x0C4D, 0x0C4D), (0x0C55, 0x0C56), (0x0CBC, 0x0CBC), (0x0CC2, 0x0CC2), (0x0CCD, 0x0CCD), (0x0CD5, 0x0CD6),
    (0x0D3B, 0x0D3C), (0x0D3E, 0x0D3E), (0x0D4D, 0x0D4D), (0x0D57, 0x0D57), (0x0DCA, 0x0DCA), (0x0DCF, 0x0DCF),
    (0x0DDF, 0x0DDF), (0x0E33, 0x0E33), (0x0E38, 0x0E3A), (0x0E48, 0x0E4B), (0x0EB3, 0x0EB3), (0x0EB8, 0x0EBA),
    (0x0EC8, 0x0ECB), (0x0EDC, 0x0EDD), (0x0F0C, 0x0F0C), (0x0F18, 0x0F19), (0x0F35, 0x0F35), (0x0F37, 0x0F37),
    (0x0F39, 0x0F39), (0x0F43, 0x0F43), (0x0F4D, 0x0F4D), (0x0F52, 0x0F52), (0x0F57, 0x0F57), (0x0F5C, 0x0F5C),
    (0x0F69, 0x0F69), (0x0F71, 0x0F7D), (0x0F80, 0x0F84), (0x0F86, 0x0F87), (0x0F93, 0x0F93), (0x0F9D, 0x0F9D),
    (0x0FA2, 0x0FA2), (0x0FA7, 0x0FA7), (0x0FAC, 0x0FAC), (0x0FB9, 0x0FB9), (0x0FC6, 0x0FC6), (0x102E, 0x102E),
    (0x1037, 0x1037), (0x1039, 0x103A), (0x108D, 0x108D), (0x10FC, 0x10FC), (0x1161, 0x1175), (0x11A8, 0x11C2),
    (0x135D, 0x135F), (0x1714, 0x1715), (0x1734, 0x1734), (0x17D2, 0x17D2), (0x17DD, 0x17DD), (0x18A9, 0x18A9),
    (0x1939, 0x193B), (0x1A17, 0x1A18), (0x1A60, 0x1A60), (0x1A75, 0x1A7C), (0x1A7F, 0x1A7F), (0x1AB0, 0x1ABD),
    (0x1ABF, 0x1AF0), (0x1B34, 0x1B35), (0x1B44, 0x1B44), (0x1B6B, 0x1B73), (0x1BAA, 0x1BAB), (0x1BE6, 0x1BE6),
    (0x1BF2, 0x1BF3), (0x1C37, 0x1C37), (0x1CD0, 0x1CD2), (0x1CD4, 0x1CE0), (0x1CE2, 0x1CE8), (0x1CED, 0x1CED),
    (0x1CF4, 0x1CF4), (0x1CF8, 0x1CF9), (0x1D2C, 0x1D2E), (0x1D30, 0x1D3A), (0x1D3C, 0x1D4D), (0x1D4F, 0x1D6A),
    (0x1D78, 0x1D78), (0x1D9B, 0x1DFF), (0x1E9A, 0x1E9B), (0x1F71, 0x1F71), (0x1F73, 0x1F73), (0x1F75, 0x1F75),
    (0x1F77, 0x1F77), (0x1F79, 0x1F79), (0x1F7B, 0x1F7B), (0x1F7D, 0x1F7D), (0x1FBB, 0x1FBB), (0x1FBD, 0x1FC1),
    (0x1FC9, 0x1FC9), (0x1FCB, 0x1FCB), (0x1FCD, 0x1FCF), (0x1FD3, 0x1FD3), (0x1FDB, 0x1FDB), (0x1FDD, 0x1FDF),
    (0x1FE3, 0x1FE3), (0x1FEB, 0x1FEB), (0x1FED, 0x1FEF), (0x1FF9, 0x1FF9), (0x1FFB, 0x1FFB), (0x1FFD, 0x1FFE),
    (0x2000, 0x200A), (0x2011, 0x2011), (0x2017, 0x2017), (0x2024, 0x2026), (0x202F, 0x202F), (0x2033, 0x2034),
    (0x2036, 0x2037), (0x203C, 0x203C), (0x203E, 0x203E), (0x2047, 0x2049), (0x2057, 0x2057), (0x205F, 0x205F),
    (0x2070, 0x2071), (0x2074, 0x208E), (0x2090, 0x209F), (0x20A8, 0x20A8), (0x20D0, 0x20DC), (0x20E1, 0x20E1),
    (0x20E5, 0x20F0), (0x2100, 0x2103), (0x2105, 0x2107), (0x2109, 0x2113), (0x2115, 0x2116), (0x2119, 0x211D),
    (0x2120, 0x2122), (0x2124, 0x2124), (0x2126, 0x2126), (0x2128, 0x2128), (0x212A, 0x212D), (0x212F, 0x2131),
    (0x2133, 0x2139), (0x213B, 0x2140), (0x2145, 0x2149), (0x2150, 0x217F), (0x2189, 0x2189), (0x222C, 0x222D),
    (0x222F, 0x2230), (0x2329, 0x232A), (0x2460, 0x24EA), (0x2A0C, 0x2A0C), (0x2A74, 0x2A76), (0x2ADC, 0x2ADC),
    (0x2C7C, 0x2C7D), (0x2CEF, 0x2CF1), (0x2D6F, 0x2D6F), (0x2D7F, 0x2D7F), (0x2DE0, 0x2DFF), (0x2E9F, 0x2E9F),
    (0x2EF3, 0x2EF3), (0x2F00, 0x2FD5), (0x3000, 0x3000), (0x302A, 0x302F), (0x3036, 0x3036), (0x3038, 0x303A),
    (0x3099, 0x309C), (0x309F, 0x309F), (0x30FF, 0x30FF), (0x3131, 0x318E), (0x3192, 0x319F), (0x3200, 0x321E),
    (0x3220, 0x3247), (0x3250, 0x327E), (0x3280, 0x33FF), (0xA66F, 0xA66F), (0xA674, 0xA67D), (0xA69C, 0xA69F),
    (0xA6F0, 0xA6F1), (0xA770, 0xA770), (0xA7F1, 0xA7F4), (0xA7F8, 0xA7F9), (0xA806, 0xA806), (0xA82C, 0xA82C),
    (0xA8C4, 0xA8C4), (0xA8E0, 0xA8F1), (0xA92B, 0xA92D), (0xA953, 0xA953), (0xA9B3, 0xA9B3), (0xA9C0, 0xA9C0),
    (0xAAB0, 0xAAB0), (0xAAB2, 0xAAB4), (0xAAB7, 0xAAB8), (0xAABE, 0xAABF), (0xAAC1, 0xAAC1), (0xAAF6, 0xAAF6),
    (0xAB5C, 0xAB5F), (0xAB69, 0xAB69), (0xABED, 0xABED), (0xD800, 0xDFFF), (0xF900, 0xFA0D), (0xFA10, 0xFA10),
    (0xFA12, 0xFA12), (0xFA15, 0xFA1E), (0xFA20, 0xFA20), (0xFA22, 0xFA22), (0xFA25, 0xFA26), (0xFA2A, 0xFA6D),
    (0xFA70, 0xFAD9), (0xFB00, 0xFB06), (0xFB13, 0xFB17), (0xFB1D, 0xFB36), (0xFB38, 0xFB3C), (0xFB3E, 0xFB3E),
    (0xFB40, 0xFB41), (0xFB43, 0xFB44), (0xFB46, 0xFBB1), (0xFBD3, 0xFD3D), (0xFD50, 0xFD8F), (0xFD92, 0xFDC7),
    (0xFDF0, 0xFDFC), (0xFE10, 0xFE19), (0xFE20, 0xFE44), (0xFE47, 0xFE52), (0xFE54, 0xFE66), (0xFE68, 0xFE6B),
    (0xFE70, 0xFE72), (0xFE74, 0xFE74), (0xFE76, 0xFEFC), (0xFF01, 0xFFBE), (0xFFC2, 0xFFC7), (0xFFCA, 0xFFCF),
    (0xFFD2, 0xFFD7), (0xFFDA, 0xFFDC), (0xFFE0, 0xFFE6), (0xFFE8, 0xFFEE),
];

/// Whether `c` is unchanged by NFKC, has no mark to reorder past it and cannot join the character
/// before it (quick check "yes", combining class 0): a text splits before each such character into
/// pieces that normalise apart, which is what lets [`nfkc`] skip them. ASCII and the CJK ideographs
/// are answered at once; the rest of the Basic Multilingual Plane from a bit table filled from
/// [`UNSTABLE`] on first use (8 KiB); other planes are never counted stable.
fn is_stable(c: char) -> bool {
    static TABLE: std::sync::LazyLock<Vec<u64>> = std::sync::LazyLock::new(|| {
        let mut bits = vec![u64::MAX; 0x10000 / 64];
        for &(first, last) in UNSTABLE {
            for k in usize::from(first)..=usize::from(last) {
                bits[k / 64] &= !(1 << (k % 64));
            }
        }
        bits
    });
    let k = c as usize;
    c.is_ascii() || (0x4E00..=0x9FFF).contains(&k) || (k < 0x10000 && TABLE[k / 64] >> (k % 64) & 1 == 1)
}

/// Length of the ASCII run that `b` starts with.
fn ascii_run(b: &[u8]) -> usize {
    let mut n = 0;
    while let Some(chunk) = b.get(n..n + 32) {
        if !chunk.is_ascii() {
            break;
        }
        n += 32;
    }
    n + b[n..].iter().position(|&x| !x.is_ascii()).unwrap_or(b.len() - n)
}

/// The ASCII character a full-width form (U+FF01 to U+FF5E) stands for, which is its NFKC.
fn full_width_ascii(c: char) -> Option<char> {
    matches!(c as u32, 0xFF01..=0xFF5E).then(|| char::from(((c as u32) - 0xFEE0) as u8))
}

/// `s` in Unicode NFKC, borrowed when it is so already. Only the pieces that start at the last stable
/// character ([`is_stable`]) before an other one and run to the next stable one are checked, and
/// normalised where the check does not pass: a Chinese text's full-width commas or an English one's
/// no-break spaces no longer send the whole text through the normaliser. A piece of full-width forms
/// alone after its stable character is mapped to ASCII directly (most of Chinese punctuation).
pub fn nfkc(s: &str) -> Cow<'_, str> {
    let mut out: Option<String> = None;
    // Bytes of `s` before `done` are in `out` (when it exists); `anchor` is where the piece that holds
    // the next unstable character starts: the stable character before it, or where the last piece ended.
    let (mut done, mut anchor) = (0, 0);
    let mut at = 0;
    while at < s.len() {
        // ASCII runs are stable throughout: skipped 32 bytes at a time, then byte by byte.
        let lead = s.as_bytes()[at];
        if lead.is_ascii() {
            at += ascii_run(&s.as_bytes()[at..]);
            anchor = at - 1;
            continue;
        }
        if (0xE4..=0xE9).contains(&lead) {
            // U+4000 to U+9FFF: CJK ideographs and the hexagram symbols, all stable, read undecoded.
            anchor = at;
            at += 3;
            continue;
        }
        let Some(c) = s[at..].chars().next() else { break };
        let i = at;
        at += c.len_utf8();
        if is_stable(c) {
            anchor = i;
            continue;
        }
        let mut full_width = full_width_ascii(c).is_some();
        while let Some(d) = s[at..].chars().next() {
            if is_stable(d) {
                break;
            }
            full_width &= full_width_ascii(d).is_some();
            at += d.len_utf8();
        }
        let end = at;
        let piece = &s[anchor..end];
        if full_width {
            let o = out.get_or_insert_with(|| String::with_capacity(s.len() + 16));
            o.push_str(&s[done..i]);
            o.extend(s[i..end].chars().filter_map(full_width_ascii));
            done = end;
        } else if is_nfkc_quick(piece.chars()) != IsNormalized::Yes {
            let o = out.get_or_insert_with(|| String::with_capacity(s.len() + 16));
            o.push_str(&s[done..anchor]);
            o.extend(piece.nfkc());
            done = end;
        }
        anchor = end;
    }
    match out {
        None => Cow::Borrowed(s),
        Some(mut o) => {
            o.push_str(&s[done..]);
            Cow::Owned(o)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The normaliser's own answer to [`is_stable`]'s question.
    fn stable_by_the_normaliser(c: char) -> bool {
        unicode_normalization::char::canonical_combining_class(c) == 0
            && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes
    }

    #[test]
    fn the_unstable_ranges_are_the_normalisers() {
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for k in 0x80..0x10000u32 {
            if char::from_u32(k).is_some_and(stable_by_the_normaliser) {
                continue;
            }
            match ranges.last_mut() {
                Some((_, last)) if *last + 1 == k => *last = k,
                _ => ranges.push((k, k)),
            }
        }
        let table: Vec<(u32, u32)> = UNSTABLE.iter().map(|&(a, b)| (u32::from(a), u32::from(b))).collect();
        let fresh: Vec<String> = ranges.iter().map(|(a, b)| format!("(0x{a:04X}, 0x{b:04X})")).collect();
        assert!(table == ranges, "UNSTABLE is out of date; the normaliser's table:\n{}", fresh.join(", "));
        for c in (0..0x10000u32).filter_map(char::from_u32) {
            assert_eq!(is_stable(c), stable_by_the_normaliser(c), "{c:?}");
        }
    }

    #[test]
    fn nfkc_by_pieces_is_nfkc() {
        let cases = [
            "",
            "plain ascii",
            "水稻育秧",
            "e\u{301}t\u{e9}",
            "Ａｂｃ，中文。（注）",
            "a\u{323}\u{301}b",
            "\u{1100}\u{1161}\u{11a8}\u{ac00}\u{11a8}",
            "\u{fb01}le x\u{a0}y \u{2460} \u{2026}",
            "\u{f900}\u{4e00}\u{301}",
            "\u{ff76}\u{ff9e} \u{304b}\u{3099}",
            "Москва\u{a0}— «город»",
        ];
        for t in cases {
            assert_eq!(nfkc(t), t.nfkc().collect::<String>(), "{t:?}");
        }
        assert!(matches!(nfkc("plain 水稻。《Москва》"), Cow::Borrowed(_)));
        // The undecoded fast path's range (lead bytes E4 to E9) is stable throughout.
        for c in (0x4000..=0x9FFF).filter_map(char::from_u32) {
            assert!(unicode_normalization::char::canonical_combining_class(c) == 0, "{c:?}");
            assert!(is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes, "{c:?}");
        }
        for c in (0xFF01..=0xFF5E).filter_map(char::from_u32) {
            assert_eq!(full_width_ascii(c).map(String::from), Some(c.nfkc().collect::<String>()), "{c:?}");
        }
        // Strings drawn from a pool of starters, marks, jamo and compatibility forms, in every order.
        let pool: Vec<char> = "ae中Ａ，。é\u{3000}\u{301}\u{323}\u{a0}\u{1100}\u{1161}\u{11a8}\u{ac00}\u{ff76}\u{ff9e}\u{304b}\u{3099}\u{fb01}\u{f900} ."
            .chars()
            .collect();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..4000 {
            let mut t = String::new();
            for _ in 0..(seed % 9) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                t.push(pool[(seed % pool.len() as u64) as usize]);
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            assert_eq!(nfkc(&t), t.nfkc().collect::<String>(), "{t:?}");
        }
    }
}
