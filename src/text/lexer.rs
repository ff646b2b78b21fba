//! A start tag's lexer, shared by pre-strip's byte scan ([`crate::text::prestrip`]) and line-density's
//! tag stripper ([`crate::algorithms::line_density`]): attributes lexed as the HTML tokenizer lexes
//! them, the search for an element's end tag, and the void element names. Both read the page's bytes
//! before (or without) any parser, and must agree with the tokenizer on where a tag ends, so they
//! share one lexer rather than each keeping its own.

/// One attribute of a start tag, as slices of the page.
pub(crate) struct Attribute<'a> {
    /// Where its name begins.
    pub start: usize,
    pub name: &'a [u8],
    /// Without its quotes; empty when the attribute has no value.
    pub value: &'a [u8],
}

/// The attributes of a start tag, lexed as the HTML tokenizer does: names end at whitespace, `/`, `>`
/// or `=` (a leading `=` belongs to the name); values are quoted (up to the same quote, `>` included)
/// or run to whitespace or `>`. Once it has given the last one, [`Attributes::end`] is just past the
/// tag's `>` (the page's end when the tag never closes).
pub(crate) struct Attributes<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Attributes<'a> {
    /// The attributes of the start tag whose name ends at `from`.
    pub(crate) fn new(b: &'a [u8], from: usize) -> Self {
        Attributes { b, at: from }
    }

    /// Just past the tag's `>`, once the attributes are all read.
    pub(crate) fn end(&self) -> usize {
        self.at
    }

    fn skip_ws(&self, mut i: usize) -> usize {
        while self.b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        i
    }
}

impl<'a> Iterator for Attributes<'a> {
    type Item = Attribute<'a>;

    fn next(&mut self) -> Option<Attribute<'a>> {
        let b = self.b;
        let mut i = self.at;
        loop {
            i = self.skip_ws(i);
            match b.get(i) {
                None => {
                    self.at = b.len();
                    return None;
                }
                Some(b'>') => {
                    self.at = i + 1;
                    return None;
                }
                Some(b'/') => i += 1,
                Some(_) => break,
            }
        }
        let start = i;
        i += 1;
        while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && !matches!(c, b'/' | b'>' | b'=')) {
            i += 1;
        }
        let name = &b[start..i];
        let after = self.skip_ws(i);
        if b.get(after) != Some(&b'=') {
            self.at = after;
            return Some(Attribute { start, name, value: b"" });
        }
        i = self.skip_ws(after + 1);
        let value = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let close = memchr::memchr(q, &b[i + 1..]).map_or(b.len(), |k| i + 1 + k);
                let value = &b[i + 1..close];
                i = (close + 1).min(b.len());
                value
            }
            _ => {
                let v0 = i;
                while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && c != b'>') {
                    i += 1;
                }
                &b[v0..i]
            }
        };
        self.at = i;
        Some(Attribute { start, name, value })
    }
}

/// Index of the `<` of the first `</name` (any case) at or after `from`.
pub(crate) fn find_end_tag(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut i = from;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        let at = i + off;
        let rest = &b[at + 1..];
        if rest.first() == Some(&b'/') && rest.len() > name.len() && rest[1..=name.len()].eq_ignore_ascii_case(name) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// Void element names, any case (the names are ASCII alphanumeric, at most 6 bytes long).
pub(crate) fn is_void_name(name: &[u8]) -> bool {
    if name.len() < 2 || name.len() > 6 {
        return false;
    }
    let mut buf = [0u8; 6];
    for (d, s) in buf.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    matches!(
        &buf[..name.len()],
        b"br"
            | b"img"
            | b"hr"
            | b"meta"
            | b"link"
            | b"input"
            | b"wbr"
            | b"area"
            | b"base"
            | b"col"
            | b"source"
            | b"embed"
            | b"track"
            | b"param"
    )
}
