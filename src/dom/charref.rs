//! Character references (`&amp;`, `&#20013;`, `&#x4e2d;`) in text that no HTML parser has read: the
//! line-based method's tag-stripped source, and the attribute values and texts that the metadata scan's
//! tokenizer pass and JSON-LD strings hand over as written.
//!
//! The parse decodes the page's own text with the full table; these places only need what changes a
//! title, a description or a text length, so the named references kept are the ones such text uses.
//! Anything else, or anything malformed, is left as written: a stray `&` is common in real text, and
//! losing it would be worse than keeping an undecoded name.

/// The named references decoded: markup characters, spaces and the typographic marks of titles and
/// descriptions.
const NAMED: &[(&str, char)] = &[
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", '\u{a0}'),
    ("hellip", '…'),
    ("mdash", '—'),
    ("ndash", '–'),
    ("rsquo", '’'),
    ("lsquo", '‘'),
    ("rdquo", '”'),
    ("ldquo", '“'),
    ("laquo", '«'),
    ("raquo", '»'),
    ("middot", '·'),
    ("bull", '•'),
    ("copy", '©'),
    ("reg", '®'),
    ("trade", '™'),
];

/// The longest reference name looked at (the bytes between `&` and `;`): longer than every name of
/// [`NAMED`] and every numeric reference without leading zeros (`#x10FFFF`, `#1114111`). Looking no
/// further keeps a text of many `&` without `;` linear.
const MAX_NAME: usize = 9;

/// `s` with its character references decoded: numeric ones (decimal and hexadecimal) to any Unicode
/// scalar value but NUL, named ones from [`NAMED`]; each needs its `;`.
pub fn decode_char_refs(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        rest = &rest[k..];
        // `;` is ASCII, so its byte position is a character boundary.
        let end = rest.as_bytes().iter().skip(1).take(MAX_NAME + 1).position(|&b| b == b';').map(|e| e + 1);
        match end.and_then(|e| reference(&rest[1..e]).map(|c| (c, e))) {
            Some((c, e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character a reference's name (between `&` and `;`) stands for.
fn reference(name: &str) -> Option<char> {
    let Some(num) = name.strip_prefix('#') else {
        return NAMED.iter().find(|(n, _)| *n == name).map(|&(_, c)| c);
    };
    // Digits only: the integer parsers would also take a leading `+`, which no reference has.
    let (digits, radix) = match num.strip_prefix(['x', 'X']) {
        Some(hex) => (hex, 16),
        None => (num, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u32::from_str_radix(digits, radix).ok().filter(|&n| n != 0).and_then(char::from_u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_decimal_and_hex() {
        assert_eq!(decode_char_refs("A &amp; B &lt;i&gt; &quot;q&quot; &apos;"), "A & B <i> \"q\" '");
        assert_eq!(decode_char_refs("&ldquo;x&rdquo; &hellip; &nbsp;&copy;"), "“x” … \u{a0}©");
        assert_eq!(decode_char_refs("&#20013;&#25991; &#039;s &#65;"), "中文 's A");
        assert_eq!(decode_char_refs("&#x4e2d;&#X6587; &#x2019; &#x1F600;"), "中文 ’ 😀");
        assert_eq!(decode_char_refs("no references"), "no references");
        assert_eq!(decode_char_refs("中&amp;文"), "中&文");
    }

    #[test]
    fn malformed_references_are_kept_as_written() {
        for s in [
            "& x",
            "a&b",
            "&amp",
            "&bogus;",
            "&;",
            "&#;",
            "&#x;",
            "&#xZZ;",
            "&#12a;",
            "&#+65;",
            "&#x+41;",
            "&#-65;",
            "&#0;",
            "&#xD800;",
            "&#x110000;",
            "&#99999999999;",
            "&é;",
            "&",
            "&&;",
        ] {
            assert_eq!(decode_char_refs(s), s, "{s}");
        }
        // A bad reference does not hide a good one after it.
        assert_eq!(decode_char_refs("&bogus &amp; &#x; &#65;"), "&bogus & &#x; A");
        assert_eq!(decode_char_refs("&&amp;&"), "&&&");
    }

    #[test]
    fn many_ampersands_without_semicolons_stay_linear() {
        let s = "&".repeat(1 << 20);
        assert_eq!(decode_char_refs(&s), s);
    }
}
