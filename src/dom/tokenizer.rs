//! The tokenizer in front of html5ever's tree builder: the tokens of the HTML standard's tokenization
//! stage, found by scanning bytes.
//!
//! html5ever's own tokenizer steps a character state machine one `char` at a time through a queue of
//! buffers, and copies every tag name, attribute name and value into a growing buffer a character at a
//! time. That was about three quarters of the parse. Here the page is one string in memory, every
//! delimiter the standard names is ASCII, and nearly all of a page sits in a handful of states (text,
//! tag names, attribute values), so each of those is a search for the next delimiter (`memchr`) and the
//! text, names and values between delimiters are handed over as slices of the page's own buffer
//! (subtendrils: no copy above eight bytes). The rare states (doctype, script escapes, CDATA) follow
//! the standard step by step.
//!
//! The tree builder is html5ever's, unchanged, so tree construction (the adoption agency, foster
//! parenting, foreign content) is exactly as before. What the tree builder receives differs only in
//! how text is cut into tokens (longer runs here) and in sending parse-error tokens only where the
//! tree builder reacts to them (see `emit_decoded`), neither of which changes the tree; the tests
//! compare the two tokenizers' trees on hand-written edge cases and randomly mutated markup, and
//! `tests/tokenizer.rs` on every shipped page and every page of the developer datasets.
//!
//! Carriage returns are normalised once up front (`\r\n` and `\r` to `\n`), as the standard's input
//! preprocessing does, so no state below ever sees one.
//!
//! One file, one job: the tokenization stage is a single state machine whose states hand over to one
//! another, and a reader follows a token through it top to bottom; split by state, each part would
//! need the whole machine's buffers and positions, and every step would cross files.

use std::collections::HashMap;

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{Attribute, LocalName, QualName, ns};
use memchr::{memchr, memchr2, memchr3, memmem};

use crate::hash::fmix64;

/// What the tokenizer asks the tree while it parses: the tree's parse implements it.
pub(super) trait Watch {
    /// Asked after every tag and comment (the tokens that make nodes): stop the parse here.
    fn over_budget(&mut self) -> bool;
    /// Asked after a start tag `name`: whether the element it made was opened too deep and taken out
    /// (see `Tree::too_deep` in `tree`), so that the tokenizer closes it at once.
    fn too_deep(&mut self, name: &LocalName, self_closing: bool) -> bool;
}

/// What the tokenizer reads next: the states the tree builder can switch it to.
#[derive(Clone, Copy)]
enum Mode {
    Data,
    Raw(RawKind),
    Plaintext,
}

/// The page was cut short: the caller's budget said stop.
pub(super) struct Stopped;

/// Feed every token of `input` to `sink` (html5ever's tree builder), then the end of file. `watch` is
/// asked after every tag and comment (the tokens that make nodes; text between them makes one at
/// most) whether to stop there, and after every start tag whether its element was opened too deep:
/// such an element is closed at once (by an end tag of its name, which the tree builder handles as
/// any other), and its own end tag, when it comes, is dropped.
pub(super) fn run<S: TokenSink>(input: StrTendril, sink: &S, watch: &mut dyn Watch) -> Result<(), Stopped> {
    let input = normalize_newlines(input);
    let mut t = Tokenizer {
        input: &input,
        b: input.as_bytes(),
        pos: 0,
        sink,
        last_start: None,
        last_self_closing: false,
        scratch: String::new(),
        names: NameCache::default(),
        attrs: Vec::new(),
        flattened: HashMap::new(),
    };
    if input.starts_with('\u{feff}') {
        t.pos = 3;
    }
    let mut mode = Mode::Data;
    while t.pos < t.b.len() {
        mode = match mode {
            Mode::Data => t.data(watch)?,
            Mode::Raw(kind) => t.raw(kind),
            Mode::Plaintext => {
                t.chars(t.pos, t.b.len(), false, false);
                t.pos = t.b.len();
                Mode::Plaintext
            }
        };
    }
    let _ = t.emit(Token::EOFToken);
    sink.end();
    Ok(())
}

/// The input with `\r\n` and lone `\r` read as `\n`, rewritten in place when the page has a `\r`: the
/// text only shrinks, and a copy beside the page was a fifth of the extraction's peak on such pages.
fn normalize_newlines(input: StrTendril) -> StrTendril {
    let Some(first) = memchr(b'\r', input.as_bytes()) else {
        return input;
    };
    let mut bytes = input.into_bytes();
    let kept = {
        // Copies the tendril first only if it is shared (the caller kept the page's source).
        let b: &mut [u8] = &mut bytes;
        // `r` reads at a `\r`, `w` writes; the run up to the next `\r` moves down whole.
        let (mut w, mut r) = (first, first);
        while r < b.len() {
            b[w] = b'\n';
            w += 1;
            r += if b.get(r + 1) == Some(&b'\n') { 2 } else { 1 };
            let next = memchr(b'\r', &b[r..]).map_or(b.len(), |i| r + i);
            b.copy_within(r..next, w);
            w += next - r;
            r = next;
        }
        w
    };
    let removed = u32::try_from(bytes.len() - kept).unwrap_or(0);
    // Bytes tendrils validate nothing, so this cannot fail.
    let _ = bytes.try_pop_back(removed);
    // SAFETY: the bytes were valid UTF-8, and only ASCII bytes (`\r`, `\n`) were replaced by an ASCII
    // byte or removed: an ASCII byte is never part of a multi-byte sequence, so the rest is valid too.
    unsafe { bytes.reinterpret_without_validating() }
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b' ')
}

/// Bytes that end a tag name or an attribute name.
fn ends_name(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b' ' | b'/' | b'>')
}

/// The names (tags and attributes) a page spelled last, by their bytes as written, each in a slot its
/// bytes pick: a page repeats a few dozen names thousands of times, and making a name an atom hashes
/// it when it is longer than seven bytes (`data-src`, `aria-label`). A name another one displaced is
/// made again; the cache never grows, whatever a page spells.
struct NameCache {
    slots: Vec<Option<(Box<[u8]>, LocalName)>>,
}

impl NameCache {
    const SLOTS: usize = 256;
    /// Longer names are made each time (rare, and a hostile page's are as long as it likes).
    const MAX_BYTES: usize = 32;

    /// The slot of a name: its length and its first, middle and last bytes, mixed by the library's
    /// finaliser ([`fmix64`]); the whole name is compared before a slot's atom is used.
    fn slot(bytes: &[u8]) -> usize {
        let byte = |k: usize| u64::from(bytes.get(k).copied().unwrap_or(0));
        let key =
            bytes.len() as u64 | byte(0) << 32 | byte(bytes.len() / 2) << 40 | byte(bytes.len().wrapping_sub(1)) << 48;
        (fmix64(key) % Self::SLOTS as u64) as usize
    }

    fn get(&self, slot: usize, bytes: &[u8]) -> Option<LocalName> {
        match self.slots.get(slot) {
            Some(Some((key, name))) if **key == *bytes => Some(name.clone()),
            _ => None,
        }
    }

    fn put(&mut self, slot: usize, bytes: &[u8], name: &LocalName) {
        if bytes.len() <= Self::MAX_BYTES
            && let Some(s) = self.slots.get_mut(slot)
        {
            *s = Some((bytes.into(), name.clone()));
        }
    }
}

impl Default for NameCache {
    fn default() -> Self {
        NameCache { slots: vec![None; Self::SLOTS] }
    }
}

struct Tokenizer<'a, S: TokenSink> {
    input: &'a StrTendril,
    b: &'a [u8],
    pos: usize,
    sink: &'a S,
    /// The name of the last start tag emitted, which a raw text element's end tag must repeat.
    last_start: Option<LocalName>,
    /// Whether that start tag ended with `/>`.
    last_self_closing: bool,
    scratch: String,
    names: NameCache,
    /// A tag's attributes while it is read. Each tag then gets a copy at its exact length: the tree
    /// keeps every element's attributes until the arena copy, where they were a fifth of the parse's
    /// peak, and a `Vec` grown by pushing holds room for four (160 bytes) for one attribute.
    attrs: Vec<Attribute>,
    /// Elements closed at once because they were opened too deep, by name: as many end tags of each
    /// name as are counted here are dropped when they come. A map, as a hostile page may nest
    /// thousands of distinct (custom) names.
    flattened: HashMap<LocalName, u32>,
}

/// What the tag lexer saw.
enum TagEnd<H> {
    /// The tag was emitted; the tree builder answered this.
    Emitted(TokenSinkResult<H>),
    /// The page ended inside the tag, which is dropped.
    Eof,
}

impl<S: TokenSink> Tokenizer<'_, S> {
    fn emit(&self, token: Token) -> TokenSinkResult<S::Handle> {
        self.sink.process_token(token, 1)
    }

    /// The page's bytes `a..b` as one text token (no copy above eight bytes).
    fn text(&self, a: usize, b: usize) {
        if a < b {
            let _ = self.emit(Token::CharacterTokens(self.slice(a, b)));
        }
    }

    fn slice(&self, a: usize, b: usize) -> StrTendril {
        // tendril's checked `subtendril` classifies the bytes at both ends as UTF-8 (and panics on a
        // bad cut), 1–2% of `auto` for every text and attribute value of a page. The lexer only cuts
        // at ASCII delimiters and the end of the page, which `is_char_boundary` confirms in two
        // comparisons; anything else (never seen) gives an empty value rather than a panic.
        if a <= b && self.input.is_char_boundary(a) && self.input.is_char_boundary(b) {
            // SAFETY: `is_char_boundary` is false past the end, so `a..b` lies inside the input, and
            // both ends fall between characters of a valid UTF-8 string: the bytes are valid UTF-8.
            unsafe { self.input.unsafe_subtendril(a as u32, (b - a) as u32) }
        } else {
            StrTendril::new()
        }
    }

    fn emit_str(&self, s: &str) {
        let _ = self.emit(Token::CharacterTokens(StrTendril::from_slice(s)));
    }

    /// A character reference's characters. When the standard calls the reference a parse error, a
    /// parse-error token goes first, as html5ever's tokenizer sends one: its tree builder forgets that
    /// it was about to drop the newline after `<pre>` when an error token comes between (so
    /// `<pre>&#10x` keeps its newline there), and the two tokenizers must build the same trees.
    fn emit_decoded(&self, d: &Decoded) {
        if d.error {
            let _ = self.emit(Token::ParseError(std::borrow::Cow::Borrowed("character reference")));
        }
        self.emit_str(d.as_str());
    }

    /// Text `a..end`: character references decoded when `refs`, a NUL emitted as its own token when
    /// `nul_token` (the data state; the tree builder decides) or else replaced by U+FFFD.
    fn chars(&self, a: usize, end: usize, refs: bool, nul_token: bool) {
        let mut run = a;
        let mut i = a;
        while i < end {
            let hay = &self.b[i..end];
            let found = if refs { memchr2(b'&', 0, hay) } else { memchr(0, hay) };
            let Some(off) = found else { break };
            let at = i + off;
            if self.b[at] == 0 {
                self.text(run, at);
                if nul_token {
                    let _ = self.emit(Token::NullCharacterToken);
                } else {
                    self.emit_str("\u{fffd}");
                }
                run = at + 1;
                i = at + 1;
            } else if let Some((decoded, after)) = self.char_ref(at + 1, end, false) {
                self.text(run, at);
                self.emit_decoded(&decoded);
                run = after;
                i = after;
            } else {
                i = at + 1;
            }
        }
        self.text(run, end);
    }

    /// The data state, up to the end of the page or a tag that switches the tokenizer elsewhere. The
    /// text between markup (character references, NULs) is [`Tokenizer::chars`]' to emit.
    fn data(&mut self, watch: &mut dyn Watch) -> Result<Mode, Stopped> {
        let n = self.b.len();
        let mut run = self.pos;
        loop {
            let Some(off) = memchr(b'<', &self.b[self.pos..]) else {
                self.chars(run, n, true, true);
                self.pos = n;
                return Ok(Mode::Data);
            };
            let i = self.pos + off;
            let (next, after) = (self.b.get(i + 1).copied(), self.b.get(i + 2).copied());
            let letter = |c: Option<u8>| c.is_some_and(|c| c.is_ascii_alphabetic());
            // Any other `<` (`</` at the end of the page too) is text; what follows it is read again in
            // the data state.
            if !(letter(next) || matches!((next, after), (Some(b'/'), Some(_)) | (Some(b'!' | b'?'), _))) {
                self.pos = i + 1;
                continue;
            }
            self.chars(run, i, true, true);
            let mode = match next {
                _ if letter(next) => match self.tag(TagKind::StartTag, i + 1, false) {
                    TagEnd::Eof => return Ok(Mode::Data),
                    TagEnd::Emitted(result) => {
                        let mode = Self::mode_after(result);
                        // Raw text elements hold no elements, so they never make the nesting deeper.
                        if matches!(mode, Mode::Data) {
                            self.flatten_if_deep(watch);
                        }
                        mode
                    }
                },
                Some(b'/') if letter(after) => {
                    if let TagEnd::Eof = self.tag(TagKind::EndTag, i + 2, false) {
                        return Ok(Mode::Data);
                    }
                    Mode::Data
                }
                Some(b'/') if after == Some(b'>') => {
                    // `</>` is dropped. html5ever reports it, and the report matters: see
                    // `emit_decoded`.
                    let _ = self.emit(Token::ParseError(std::borrow::Cow::Borrowed("</>")));
                    self.pos = i + 3;
                    Mode::Data
                }
                Some(b'/') => {
                    self.bogus_comment(i + 2);
                    Mode::Data
                }
                Some(b'!') => {
                    self.markup_declaration(i + 2);
                    Mode::Data
                }
                _ => {
                    self.bogus_comment(i + 1);
                    Mode::Data
                }
            };
            // Tags and comments are the tokens that make nodes (a page of nothing but comments must
            // meet the budget too).
            if watch.over_budget() {
                return Err(Stopped);
            }
            if !matches!(mode, Mode::Data) {
                return Ok(mode);
            }
            run = self.pos;
        }
    }

    /// After a start tag in the data state: when the tree says its element was opened too deep, close
    /// it now, and count its name so that its own end tag is dropped.
    fn flatten_if_deep(&mut self, watch: &mut dyn Watch) {
        let Some(name) = self.last_start.clone() else { return };
        if !watch.too_deep(&name, self.last_self_closing) {
            return;
        }
        *self.flattened.entry(name.clone()).or_insert(0) += 1;
        let _ = self.emit(Token::TagToken(Tag {
            kind: TagKind::EndTag,
            name,
            self_closing: false,
            attrs: Vec::new(),
            had_duplicate_attributes: false,
        }));
    }

    /// Whether an end tag `name` closes an element already closed by [`Tokenizer::flatten_if_deep`]
    /// (and is then dropped).
    fn closes_flattened(&mut self, name: &LocalName) -> bool {
        match self.flattened.get_mut(name) {
            Some(count) if *count > 0 => {
                *count -= 1;
                true
            }
            _ => false,
        }
    }

    fn mode_after(result: TokenSinkResult<S::Handle>) -> Mode {
        match result {
            TokenSinkResult::RawData(kind) => Mode::Raw(kind),
            TokenSinkResult::Plaintext => Mode::Plaintext,
            _ => Mode::Data,
        }
    }

    /// A name (tag or attribute) from the page's bytes `a..b`: ASCII capitals lowered, NUL replaced.
    fn name(&mut self, a: usize, b: usize) -> LocalName {
        let bytes = &self.b[a..b];
        let slot = NameCache::slot(bytes);
        if let Some(name) = self.names.get(slot, bytes) {
            return name;
        }
        let s = &self.input[a..b];
        let name = if !bytes.iter().any(|&c| c.is_ascii_uppercase() || c == 0) {
            LocalName::from(s)
        } else {
            self.scratch.clear();
            for c in s.chars() {
                self.scratch.push(if c == '\0' { '\u{fffd}' } else { c.to_ascii_lowercase() });
            }
            LocalName::from(self.scratch.as_str())
        };
        self.names.put(slot, bytes, &name);
        name
    }

    /// A tag whose name starts at `start` (just after `<` or `</`), with its attributes, up to and
    /// including its `>`. Leaves `pos` after the tag. `ends_raw_text` marks the end tag that closes a
    /// raw text element: it is always emitted, as the tree builder waits for it in its text mode (a
    /// name flattened elsewhere, an SVG `<style>` or `<title>` nested too deep, must not swallow it).
    fn tag(&mut self, kind: TagKind, start: usize, ends_raw_text: bool) -> TagEnd<S::Handle> {
        let b = self.b;
        let n = b.len();
        let mut i = start;
        while i < n && !ends_name(b[i]) {
            i += 1;
        }
        if i == n {
            self.pos = n;
            return TagEnd::Eof;
        }
        let name = self.name(start, i);
        let mut attrs = std::mem::take(&mut self.attrs);
        attrs.clear();
        let mut duplicate = false;
        let mut self_closing = false;
        loop {
            // Before an attribute name.
            while i < n && is_space(b[i]) {
                i += 1;
            }
            if i == n {
                self.pos = n;
                return TagEnd::Eof;
            }
            match b[i] {
                b'>' => {
                    i += 1;
                    break;
                }
                b'/' => {
                    i += 1;
                    if i == n {
                        self.pos = n;
                        return TagEnd::Eof;
                    }
                    if b[i] == b'>' {
                        self_closing = true;
                        i += 1;
                        break;
                    }
                    continue;
                }
                _ => {}
            }
            // The attribute's name: its first character may be anything (even `=`), the rest runs to
            // a space, `/`, `>` or `=`.
            let name_start = i;
            i += utf8_len(b[i]);
            while i < n && !ends_name(b[i]) && b[i] != b'=' {
                i += 1;
            }
            if i == n {
                self.pos = n;
                return TagEnd::Eof;
            }
            let attr_name = self.name(name_start, i);
            // After the name: spaces, then `=` or the next attribute.
            let mut j = i;
            if is_space(b[j]) {
                while j < n && is_space(b[j]) {
                    j += 1;
                }
                if j == n {
                    self.pos = n;
                    return TagEnd::Eof;
                }
            }
            let value = if b[j] == b'=' {
                j += 1;
                while j < n && is_space(b[j]) {
                    j += 1;
                }
                if j == n {
                    self.pos = n;
                    return TagEnd::Eof;
                }
                match b[j] {
                    q @ (b'"' | b'\'') => {
                        let Some(off) = memchr3(q, b'&', 0, &b[j + 1..]) else {
                            self.pos = n;
                            return TagEnd::Eof;
                        };
                        let end = j + 1 + off;
                        if b[end] == q {
                            i = end + 1;
                            self.slice(j + 1, end)
                        } else {
                            match self.value_slow(j + 1, |c| c == q) {
                                Some((v, close)) => {
                                    i = close + 1;
                                    v
                                }
                                None => {
                                    self.pos = n;
                                    return TagEnd::Eof;
                                }
                            }
                        }
                    }
                    b'>' => {
                        i = j;
                        StrTendril::new()
                    }
                    _ => {
                        let mut end = j;
                        while end < n && !matches!(b[end], b'\t' | b'\n' | 0x0C | b' ' | b'>' | b'&' | 0) {
                            end += 1;
                        }
                        if end == n {
                            self.pos = n;
                            return TagEnd::Eof;
                        }
                        if matches!(b[end], b'&' | 0) {
                            match self.value_slow(j, |c| is_space(c) || c == b'>') {
                                Some((v, close)) => {
                                    i = close;
                                    v
                                }
                                None => {
                                    self.pos = n;
                                    return TagEnd::Eof;
                                }
                            }
                        } else {
                            i = end;
                            self.slice(j, end)
                        }
                    }
                }
            } else {
                i = j;
                StrTendril::new()
            };
            if attrs.iter().any(|a| a.name.local == attr_name) {
                duplicate = true;
            } else if kind == TagKind::StartTag {
                attrs.push(Attribute { name: QualName::new(None, ns!(), attr_name), value });
            }
        }
        self.pos = i;
        // Moved over in one copy, leaving the scratch empty for the next tag.
        let mut exact = Vec::with_capacity(attrs.len());
        exact.append(&mut attrs);
        self.attrs = attrs;
        if kind == TagKind::StartTag {
            self.last_start = Some(name.clone());
            self.last_self_closing = self_closing;
        } else if !ends_raw_text && !self.flattened.is_empty() && self.closes_flattened(&name) {
            return TagEnd::Emitted(TokenSinkResult::Continue);
        }
        let tag = Tag { kind, name, self_closing, attrs: exact, had_duplicate_attributes: duplicate };
        TagEnd::Emitted(self.emit(Token::TagToken(tag)))
    }

    /// An attribute value from `a` that holds a character reference or a NUL, up to the byte `ends`
    /// accepts (not included). Returns the value and the position of that byte; `None` when the page
    /// ends first.
    fn value_slow(&mut self, a: usize, ends: impl Fn(u8) -> bool) -> Option<(StrTendril, usize)> {
        let n = self.b.len();
        let mut out = String::new();
        let mut run = a;
        let mut i = a;
        while i < n {
            let c = self.b[i];
            if ends(c) {
                out.push_str(&self.input[run..i]);
                return Some((StrTendril::from(out), i));
            }
            if c == 0 {
                out.push_str(&self.input[run..i]);
                out.push('\u{fffd}');
                i += 1;
                run = i;
            } else if c == b'&' {
                if let Some((decoded, after)) = self.char_ref(i + 1, n, true) {
                    out.push_str(&self.input[run..i]);
                    out.push_str(decoded.as_str());
                    i = after;
                    run = i;
                } else {
                    i += 1;
                }
            } else {
                i += 1;
            }
        }
        None
    }

    /// A character reference whose `&` is just before `a`, read no further than `end`: the characters
    /// it stands for (with [`Decoded::error`] set when the standard calls it a parse error) and the
    /// position after it, or `None` when it is not one (the `&` is then text).
    fn char_ref(&self, a: usize, end: usize, in_attribute: bool) -> Option<(Decoded, usize)> {
        let b = &self.b[..end];
        match b.get(a).copied() {
            Some(b'#') => {
                let (hex, digits) = match b.get(a + 1).copied() {
                    Some(b'x' | b'X') => (true, a + 2),
                    _ => (false, a + 1),
                };
                let base = if hex { 16 } else { 10 };
                let mut i = digits;
                let mut value: u32 = 0;
                while let Some(d) = b.get(i).and_then(|&c| (c as char).to_digit(base)) {
                    value = value.saturating_mul(base).saturating_add(d);
                    i += 1;
                }
                if i == digits {
                    return None;
                }
                let mut d = Decoded::one(numeric(value));
                d.error = numeric_is_error(value);
                if b.get(i) == Some(&b';') {
                    i += 1;
                } else {
                    d.error = true;
                }
                Some((d, i))
            }
            Some(c) if c.is_ascii_alphanumeric() => {
                // The longest name in the table that the text starts with, reading while what has
                // been read is still the start of some name.
                let mut best: Option<(usize, u32, u32)> = None;
                let mut i = a;
                while i < b.len() && b[i].is_ascii() {
                    let Some(&(c1, c2)) = NAMED_ENTITIES.get(&self.input[a..=i]) else { break };
                    i += 1;
                    if c1 != 0 {
                        best = Some((i, c1, c2));
                    }
                }
                let (after, c1, c2) = best?;
                // In an attribute value, a name without `;` followed by `=` or a letter or digit is
                // text (`?a=1&copy=2` keeps its `&copy`).
                if b[after - 1] != b';'
                    && in_attribute
                    && b.get(after).is_some_and(|&next| next == b'=' || next.is_ascii_alphanumeric())
                {
                    return None;
                }
                let mut d = Decoded::one(char::from_u32(c1).unwrap_or('\u{fffd}'));
                d.error = b[after - 1] != b';';
                if c2 != 0 {
                    d.push(char::from_u32(c2).unwrap_or('\u{fffd}'));
                }
                Some((d, after))
            }
            _ => None,
        }
    }

    /// A comment that is not one (`<?…>`, `</ …>`, `<!…>`), from `a` to the next `>`.
    fn bogus_comment(&mut self, a: usize) {
        self.pos = match memchr(b'>', &self.b[a..]) {
            Some(off) => a + off + 1,
            None => self.b.len(),
        };
        let _ = self.emit(Token::CommentToken(StrTendril::new()));
    }

    /// After `<!` at `a`: a comment, a doctype, a CDATA section (in SVG or MathML) or a bogus comment.
    /// pith keeps no comment text, so comments are emitted empty; only where they end matters.
    fn markup_declaration(&mut self, a: usize) {
        let rest = &self.b[a..];
        if rest.starts_with(b"--") {
            self.pos = comment_end(self.b, a + 2);
            let _ = self.emit(Token::CommentToken(StrTendril::new()));
        } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            self.doctype(a + 7);
        } else if rest.starts_with(b"[CDATA[") && self.sink.adjusted_current_node_present_but_not_in_html_namespace() {
            let start = a + 7;
            let end = memmem::find(&self.b[start..], b"]]>").map_or(self.b.len(), |off| start + off);
            self.chars(start, end, false, true);
            self.pos = (end + 3).min(self.b.len());
        } else {
            self.bogus_comment(a);
        }
    }

    /// A raw text element's content (`<title>`, `<textarea>`: references decoded; `<style>`, `<xmp>`,
    /// `<iframe>`, `<noembed>`, `<noframes>`: as written; `<script>`: with its escapes) up to its end
    /// tag, then the end tag itself.
    fn raw(&mut self, kind: RawKind) -> Mode {
        let end = match kind {
            RawKind::ScriptData | RawKind::ScriptDataEscaped(_) => self.script_end(self.pos),
            _ => self.raw_end(self.pos),
        };
        self.chars(self.pos, end, matches!(kind, RawKind::Rcdata), false);
        self.pos = end;
        if end < self.b.len() {
            // `end` is the `<` of `</name` followed by a space, `/` or `>`: a complete tag follows.
            if let TagEnd::Eof = self.tag(TagKind::EndTag, end + 2, true) {
                self.pos = self.b.len();
            }
        }
        Mode::Data
    }

    /// Whether an end tag for the last start tag's element starts at `at` (`</name` and then a space,
    /// `/` or `>`).
    fn appropriate_end_tag(&self, at: usize) -> bool {
        let Some(last) = &self.last_start else { return false };
        let name = last.as_bytes();
        let b = self.b;
        let (start, stop) = (at + 2, at + 2 + name.len());
        b.get(at + 1) == Some(&b'/')
            && stop < b.len()
            && b[start..stop].iter().all(u8::is_ascii_alphabetic)
            && b[start..stop].eq_ignore_ascii_case(name)
            && ends_name(b[stop])
    }

    /// Where RCDATA or RAWTEXT content ends: the `<` of the appropriate end tag, or the page's end.
    fn raw_end(&self, from: usize) -> usize {
        let mut i = from;
        while let Some(off) = memchr(b'<', &self.b[i..]) {
            let at = i + off;
            if self.appropriate_end_tag(at) {
                return at;
            }
            i = at + 1;
        }
        self.b.len()
    }

    /// Where script content ends, following the standard's script data states (`<!--` escapes, and a
    /// nested `<script` inside an escape, which hides `</script>` until the escape ends).
    fn script_end(&self, from: usize) -> usize {
        #[derive(Clone, Copy, PartialEq)]
        enum S {
            Data,
            Escaped,
            EscapedDash,
            EscapedDashDash,
            Double,
            DoubleDash,
            DoubleDashDash,
        }
        let b = self.b;
        let n = b.len();
        let mut s = S::Data;
        let mut i = from;
        while i < n {
            if s == S::Data {
                let Some(off) = memchr(b'<', &b[i..]) else { return n };
                i += off;
            } else if matches!(s, S::Escaped | S::Double) {
                let Some(off) = memchr2(b'<', b'-', &b[i..]) else { return n };
                i += off;
            }
            let c = b[i];
            match (s, c) {
                (S::Data, _) => {
                    // b[i] == '<'
                    match b.get(i + 1) {
                        Some(b'/') => {
                            if self.appropriate_end_tag(i) {
                                return i;
                            }
                            i += 2;
                        }
                        Some(b'!') => {
                            if b.get(i + 2) == Some(&b'-') {
                                if b.get(i + 3) == Some(&b'-') {
                                    s = S::EscapedDashDash;
                                    i += 4;
                                } else {
                                    i += 3;
                                }
                            } else {
                                i += 2;
                            }
                        }
                        _ => i += 1,
                    }
                }
                (S::Escaped | S::EscapedDash | S::EscapedDashDash, b'<') => match b.get(i + 1) {
                    Some(b'/') => {
                        if self.appropriate_end_tag(i) {
                            return i;
                        }
                        s = S::Escaped;
                        i += 2;
                    }
                    Some(l) if l.is_ascii_alphabetic() => {
                        let (word_end, script) = letters_then_script(b, i + 1);
                        match b.get(word_end) {
                            Some(&t) if ends_name(t) => {
                                s = if script { S::Double } else { S::Escaped };
                                i = word_end + 1;
                            }
                            _ => {
                                s = S::Escaped;
                                i = word_end;
                            }
                        }
                    }
                    _ => {
                        s = S::Escaped;
                        i += 1;
                    }
                },
                (S::Escaped, b'-') => {
                    s = S::EscapedDash;
                    i += 1;
                }
                (S::EscapedDash, b'-') => {
                    s = S::EscapedDashDash;
                    i += 1;
                }
                (S::EscapedDashDash, b'-') => i += 1,
                (S::EscapedDashDash, b'>') => {
                    s = S::Data;
                    i += 1;
                }
                (S::EscapedDash | S::EscapedDashDash, _) => {
                    s = S::Escaped;
                    i += 1;
                }
                (S::Double | S::DoubleDash | S::DoubleDashDash, b'<') => {
                    if b.get(i + 1) == Some(&b'/') {
                        let (word_end, script) = letters_then_script(b, i + 2);
                        match b.get(word_end) {
                            Some(&t) if ends_name(t) => {
                                s = if script { S::Escaped } else { S::Double };
                                i = word_end + 1;
                            }
                            _ => {
                                s = S::Double;
                                i = word_end;
                            }
                        }
                    } else {
                        s = S::Double;
                        i += 1;
                    }
                }
                (S::Double, b'-') => {
                    s = S::DoubleDash;
                    i += 1;
                }
                (S::DoubleDash, b'-') => {
                    s = S::DoubleDashDash;
                    i += 1;
                }
                (S::DoubleDashDash, b'-') => i += 1,
                (S::DoubleDashDash, b'>') => {
                    s = S::Data;
                    i += 1;
                }
                (S::DoubleDash | S::DoubleDashDash, _) => {
                    s = S::Double;
                    i += 1;
                }
                (S::Escaped | S::Double, _) => i += 1,
            }
        }
        n
    }

    /// A doctype whose keyword ends just before `a`, through its `>`, as the standard's doctype states
    /// read it (the name, public and system identifiers and the quirks flag decide the document's
    /// quirks mode).
    fn doctype(&mut self, a: usize) {
        #[derive(Clone, Copy, PartialEq)]
        enum Id {
            Public,
            System,
        }
        #[derive(Clone, Copy, PartialEq)]
        enum St {
            Doctype,
            BeforeName,
            Name,
            AfterName,
            AfterKeyword(Id),
            BeforeId(Id),
            Quoted(Id, char),
            AfterId(Id),
            Between,
            Bogus,
        }
        let mut d = Doctype::default();
        fn id(d: &mut Doctype, which: Id) -> &mut Option<StrTendril> {
            match which {
                Id::Public => &mut d.public_id,
                Id::System => &mut d.system_id,
            }
        }
        let src: &str = &self.input[a..];
        let mut st = St::Doctype;
        let mut chars = src.char_indices().peekable();
        let mut end = self.b.len();
        let mut reconsume: Option<char> = None;
        loop {
            let c = match reconsume.take() {
                Some(c) => Some(c),
                None => chars.next().map(|(_, c)| c),
            };
            let Some(c) = c else {
                // End of the page inside the doctype.
                if st != St::Bogus {
                    d.force_quirks = true;
                }
                break;
            };
            let space = matches!(c, '\t' | '\n' | '\x0C' | ' ');
            match st {
                St::Doctype => {
                    st = St::BeforeName;
                    if !space {
                        reconsume = Some(c);
                    }
                }
                St::BeforeName => {
                    if space {
                        continue;
                    }
                    if c == '>' {
                        d.force_quirks = true;
                        end = self.pos_after(a, &mut chars);
                        break;
                    }
                    let mut name = StrTendril::new();
                    name.push_char(if c == '\0' { '\u{fffd}' } else { c.to_ascii_lowercase() });
                    d.name = Some(name);
                    st = St::Name;
                }
                St::Name => {
                    if space {
                        st = St::AfterName;
                    } else if c == '>' {
                        end = self.pos_after(a, &mut chars);
                        break;
                    } else if let Some(name) = d.name.as_mut() {
                        name.push_char(if c == '\0' { '\u{fffd}' } else { c.to_ascii_lowercase() });
                    }
                }
                St::AfterName => {
                    if space {
                        continue;
                    }
                    if c == '>' {
                        end = self.pos_after(a, &mut chars);
                        break;
                    }
                    // `public` / `system` (any case) start here, at the character just read.
                    let here = self.pos_after(a, &mut chars) - c.len_utf8();
                    let word = self.b.get(here..here + 6);
                    let keyword = match word {
                        Some(w) if w.eq_ignore_ascii_case(b"public") => Some(Id::Public),
                        Some(w) if w.eq_ignore_ascii_case(b"system") => Some(Id::System),
                        _ => None,
                    };
                    match keyword {
                        Some(k) => {
                            for _ in 0..5 {
                                chars.next();
                            }
                            st = St::AfterKeyword(k);
                        }
                        None => {
                            d.force_quirks = true;
                            st = St::Bogus;
                        }
                    }
                }
                St::AfterKeyword(k) | St::BeforeId(k) => {
                    if space {
                        st = St::BeforeId(k);
                    } else if c == '"' || c == '\'' {
                        *id(&mut d, k) = Some(StrTendril::new());
                        st = St::Quoted(k, c);
                    } else if c == '>' {
                        d.force_quirks = true;
                        end = self.pos_after(a, &mut chars);
                        break;
                    } else {
                        d.force_quirks = true;
                        st = St::Bogus;
                    }
                }
                St::Quoted(k, q) => {
                    if c == q {
                        st = St::AfterId(k);
                    } else if c == '>' {
                        d.force_quirks = true;
                        end = self.pos_after(a, &mut chars);
                        break;
                    } else if let Some(v) = id(&mut d, k).as_mut() {
                        v.push_char(if c == '\0' { '\u{fffd}' } else { c });
                    }
                }
                St::AfterId(Id::Public) | St::Between => {
                    if space {
                        st = St::Between;
                    } else if c == '>' {
                        end = self.pos_after(a, &mut chars);
                        break;
                    } else if c == '"' || c == '\'' {
                        d.system_id = Some(StrTendril::new());
                        st = St::Quoted(Id::System, c);
                    } else {
                        d.force_quirks = true;
                        st = St::Bogus;
                    }
                }
                St::AfterId(Id::System) => {
                    if space {
                        continue;
                    }
                    if c == '>' {
                        end = self.pos_after(a, &mut chars);
                        break;
                    }
                    st = St::Bogus;
                }
                St::Bogus => {
                    if c == '>' {
                        end = self.pos_after(a, &mut chars);
                        break;
                    }
                }
            }
        }
        self.pos = end;
        let _ = self.emit(Token::DoctypeToken(d));
    }

    /// The page position just after the character `chars` last returned (its iterator runs over the
    /// page from `a`).
    fn pos_after(&self, a: usize, chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> usize {
        match chars.peek() {
            Some(&(off, _)) => a + off,
            None => self.b.len(),
        }
    }
}

/// Where a comment whose `<!--` ends just before `a` ends: after `>` when it opens `<!-->` or
/// `<!--->`, else after the first `-->` or `--!>`, else at the end of the page.
fn comment_end(b: &[u8], a: usize) -> usize {
    let rest = &b[a..];
    if rest.starts_with(b">") {
        return a + 1;
    }
    if rest.starts_with(b"->") {
        return a + 2;
    }
    let mut i = a;
    while let Some(off) = memmem::find(&b[i..], b"--") {
        let at = i + off;
        match b.get(at + 2) {
            Some(b'>') => return at + 3,
            Some(b'!') if b.get(at + 3) == Some(&b'>') => return at + 4,
            _ => i = at + 1,
        }
    }
    b.len()
}

/// The ASCII letters from `a`: where they end, and whether they spell `script` (any case).
fn letters_then_script(b: &[u8], a: usize) -> (usize, bool) {
    let mut end = a;
    while end < b.len() && b[end].is_ascii_alphabetic() {
        end += 1;
    }
    (end, b[a..end].eq_ignore_ascii_case(b"script"))
}

/// The length of the UTF-8 sequence a lead byte starts.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// What a numeric character reference stands for, with the standard's replacements (no NUL, no
/// surrogates, nothing past U+10FFFF, the windows-1252 meanings of 0x80–0x9F).
fn numeric(n: u32) -> char {
    match n {
        0 | 0xD800..=0xDFFF => '\u{fffd}',
        0x80..=0x9F => C1_REPLACEMENTS[(n - 0x80) as usize].or_else(|| char::from_u32(n)).unwrap_or('\u{fffd}'),
        _ => char::from_u32(n).unwrap_or('\u{fffd}'),
    }
}

/// Whether the standard calls a numeric reference to `n` a parse error (what it stands for may still
/// be `n`'s character).
fn numeric_is_error(n: u32) -> bool {
    matches!(n, 0 | 0x01..=0x08 | 0x0B | 0x0D..=0x1F | 0x7F..=0x9F | 0xD800..=0xDFFF | 0xFDD0..=0xFDEF)
        || n > 0x10FFFF
        || n & 0xFFFE == 0xFFFE
}

/// The one or two characters a reference stands for, without an allocation.
struct Decoded {
    buf: [u8; 8],
    len: usize,
    /// The reference is a parse error (no `;`, or a number the standard refuses).
    error: bool,
}

impl Decoded {
    fn one(c: char) -> Decoded {
        let mut d = Decoded { buf: [0; 8], len: 0, error: false };
        d.push(c);
        d
    }

    fn push(&mut self, c: char) {
        self.len += c.encode_utf8(&mut self.buf[self.len..]).len();
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokenizers_agree;

    /// Markup that walks every state: character references in text and attributes (with and without
    /// `;`, numeric, out of range, C1), raw text elements and their false end tags, script escapes,
    /// comments of every ending, doctypes that do and do not set quirks, CDATA in SVG, NUL bytes,
    /// carriage returns, a byte order mark, and pages cut off in the middle of each construct.
    const CASES: &[&str] = &[
        "<p>a &amp; b &amp c &ampx &notit; &notin; &#38; &#x26 &#X4E2D; &#0; &#x110000; &#128; &#x9F; &#xD800; &#; &#x; &;</p>",
        "<a href='?a=1&amp=2&ampx=3&amp;y=4&copy=5&copy;' title=\"&lt&gt;&quot\" data-x=&amp;u=1&amp>x</a>",
        "<a href=x&y title=&#65;&#x42 alt=a&b;c>u</a><img src=a&lt;b alt='&nbsp;'>",
        "<title>A &amp; B </TITLE><textarea>\n&lt;b&gt;</textarea ><textarea>x</textareax></textarea>",
        "<style>p{}</style ><style>a</styl></style><xmp><b>x</b></xmp><iframe><p></iframe>",
        "<noembed><p>a</noembed><noframes><p>b</noframes><noscript><p>c</p></noscript>",
        "<script>if (a < b && c) {}</script><script><!-- x --></script><script><!--<script>x</script>y--></script>z",
        "<script><!--<script></script><!-- --></script><p>after</p>",
        "<script><!--<script>--></script>c</script><script><!--<scripts></script>",
        "<script><!-</script><script><!--<b></script><script>a<!--b<script >c</scripT >d-->e</script>",
        "<script>a</script x=1 /><script>b</script/><script>c</SCRIPT\t>",
        "<!-- a --><!----><!---><!-->x<!-- -- --!><!-- <!-- --><!--- -><!-- --!-->y<p>z",
        "<? pi ?><!x><! ><!DOCTYPE><p></ p></><//>a</1>b<pre></>\nx</pre>",
        "<!DOCTYPE html><p>standards</p>",
        "<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><p>quirks</p>",
        "<!DOCTYPE html PUBLIC '-//W3C//DTD XHTML 1.0 Strict//EN' 'http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd'><p>x",
        "<!DOCTYPE html SYSTEM \"about:legacy-compat\"><p>x",
        "<!DOCTYPE html PUBLIC\"-//W3O//DTD W3 HTML Strict 3.0//EN//\"\"x\"><p>x",
        "<!DOCTYPE html bogus><p>x",
        "<!DOCTYPE html PUBLIC \"a>x",
        "<!DOCTYPEhtml>x",
        "<svg><![CDATA[a<b]]]>c</svg><p><![CDATA[x]]></p><math><mi><![CDATA[y]]></mi></math>",
        "<svg><![CDATA[a\0b]]></svg>",
        "a\0b<p\0x a\0=b\0 c='\0'>\0</p\0x><title>\0</title><style>\0</style>",
        "line1\r\nline2\rline3\n\r<pre>\r\nx</pre><textarea>\r\ny</textarea>",
        "\u{feff}<p>bom</p>",
        "<div a b=1 c = '2' d =\"3\" e= f/ g/=h A=dup a=dup2 \"q=1 'r <s =t>x</div>",
        "<br/><br / ><p/x><img src=a/>y<input value=a/ >",
        "<table>a<tr>b<td>c</td></tr>d</table><select><option>1<p>2</select>",
        "<b>1<i>2</b>3</i><a>4<a>5</a><p>6<form><p>7</form>",
        "<pre>\n\nx</pre><pre>&#10;y</pre><listing>\nz</listing><pre>&#10x</pre><pre>&#xA</pre><textarea>&#10z</textarea>",
        "<plaintext><p>all text</p></plaintext>",
        "<template><p>t</p><tr><td>x</td></tr></template><p>after",
        "<math><mtext><b>x</b></mtext><annotation-xml encoding=\"text/html\"><p>h</p></annotation-xml></math>",
        "<svg viewBox='0 0 1 1'><foreignObject><p>f</p></foreignObject><desc>d</desc><title>t</title></svg>",
        "<p>中文 &#x4e2d; &nbsp;文字 <a title='中文&amp;'>链接</a></p>",
        "<p>a<",
        "<p>a</",
        "<p>a<b",
        "<p a",
        "<p a=",
        "<p a='x",
        "<p a=x",
        "<p /",
        "<!--x",
        "<!",
        "<!-",
        "<!DOCTYPE",
        "<!DOCTYPE html PUBLIC",
        "<!DOCTYPE html PUBLIC \"x",
        "<title>x",
        "<title>x</tit",
        "<script>x<!--",
        "<script>x<!--<script>",
        "<script>x<!--<script></script>",
        "<style>x</style",
        "<svg><![CDATA[x",
        "<svg><![CDATA[x]]",
        "&",
        "&am",
        "&#",
        "&#x",
        "&#12",
        "<p>&notin",
        "<a b='&amp",
    ];

    #[test]
    fn the_same_trees_as_html5evers_tokenizer_on_every_construct() {
        let failures: Vec<String> =
            CASES.iter().filter_map(|c| tokenizers_agree(c).err().map(|e| format!("{c:?}: {e}"))).collect();
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    #[test]
    fn carriage_returns_are_rewritten_in_place_as_the_standard_reads_them() {
        use html5ever::tendril::StrTendril;
        for page in
            ["a\r\nb\rc\n\rd", "\r", "\r\n", "\r\r\n\n\r", "中\r\n文\r字\r", "x".repeat(300).as_str(), "no returns"]
        {
            let expected = page.replace("\r\n", "\n").replace('\r', "\n");
            let page = format!("{page}{}", "y".repeat(20));
            let expected = format!("{expected}{}", "y".repeat(20));
            assert_eq!(&*super::normalize_newlines(StrTendril::from(page.as_str())), expected.as_str());
            // A shared tendril is copied first: the other owner keeps its returns.
            let shared = StrTendril::from(page.as_str());
            let kept = shared.clone();
            assert_eq!(&*super::normalize_newlines(shared), expected.as_str());
            assert_eq!(&*kept, page.as_str());
        }
    }

    #[test]
    fn comments_count_against_the_node_budget() {
        use html5ever::tendril::StrTendril;
        let page = "<!-- c -->x".repeat(100_000);
        let got = crate::dom::tree::parse(StrTendril::from(page.as_str()), 1000, u32::MAX);
        assert!(got.is_err_and(|nodes| nodes > 1000 && nodes < 1010));
        let page = "<?pi>y".repeat(100_000);
        assert!(crate::dom::tree::parse(StrTendril::from(page.as_str()), 1000, u32::MAX).is_err());
    }

    /// An element flattened for its depth has its name counted, and that many later end tags of the
    /// name are dropped; never the one that ends a raw text element, which the tree builder waits for
    /// (found by `pith fuzz`: SVG `<style>`s nested past the limit, then an HTML `<style>`).
    #[test]
    fn a_flattened_name_does_not_swallow_the_end_of_raw_text() {
        use html5ever::tendril::StrTendril;
        for name in ["style", "title", "textarea", "script"] {
            let page = format!(
                "<body><svg>{}</svg><div><{name}>raw</{name}><p>after</p></div></body>",
                format!("<{name}>").repeat(40)
            );
            let tree = crate::dom::tree::parse(StrTendril::from(page.as_str()), usize::MAX, 8);
            let dump = tree.map(|t| crate::dom::tree::dump(&t)).unwrap_or_default();
            assert!(dump.contains("\"after\""), "{name}: {dump}");
        }
    }

    /// Random edits of the cases above (bytes deleted, repeated and swapped, fragments of other cases
    /// spliced in): a cheap fuzzer whose seed is fixed, so a failure repeats.
    #[test]
    fn the_same_trees_on_mutated_markup() {
        let alphabet: &[&str] = &[
            "<",
            ">",
            "/",
            "!",
            "-",
            "--",
            "&",
            ";",
            "#",
            "x",
            "=",
            "'",
            "\"",
            " ",
            "\n",
            "\r",
            "\0",
            "a",
            "p",
            "<p>",
            "</p>",
            "<script>",
            "</script>",
            "<!--",
            "-->",
            "<title>",
            "</title>",
            "<svg>",
            "]]>",
            "<![CDATA[",
            "&amp",
            "&#x",
            "<table>",
            "<td>",
            "中",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut failures = Vec::new();
        for round in 0..3000 {
            let mut page: Vec<char> = CASES[next(CASES.len())].chars().collect();
            for _ in 0..1 + next(6) {
                let at = next(page.len() + 1);
                match next(3) {
                    0 if !page.is_empty() => {
                        let len = 1 + next(4).min(page.len() - at.min(page.len() - 1) - 1);
                        let at = at.min(page.len() - 1);
                        page.drain(at..(at + len).min(page.len()));
                    }
                    1 => {
                        let piece = alphabet[next(alphabet.len())];
                        page.splice(at..at, piece.chars());
                    }
                    _ => {
                        let other: Vec<char> = CASES[next(CASES.len())].chars().collect();
                        let from = next(other.len());
                        let to = (from + 1 + next(12)).min(other.len());
                        page.splice(at..at, other[from..to].iter().copied());
                    }
                }
            }
            let page: String = page.into_iter().collect();
            // html5ever's tokenizer also drops a U+FEFF that starts any later input it is fed (after
            // each `</script>`, and at each chunk its driver is given): the standard drops only the
            // page's first, as this tokenizer does.
            if page.char_indices().any(|(i, c)| i > 0 && c == '\u{feff}') {
                continue;
            }
            if let Err(e) = tokenizers_agree(&page) {
                failures.push(format!("round {round}: {page:?}: {e}"));
            }
        }
        assert!(
            failures.is_empty(),
            "{} of 3000 differ:\n{}",
            failures.len(),
            failures[..failures.len().min(5)].join("\n\n")
        );
    }
}
