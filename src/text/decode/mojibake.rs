//! Text encoded twice: UTF-8 bytes that were once read as windows-1252 (or ISO-8859-1) and saved again
//! as UTF-8, so that `’` reads `â€™`, `é` reads `Ã©` and a non-breaking space reads `Â `. Sites whose
//! database and pages disagree on the charset serve this every day, and an indexer wants the words the
//! author wrote (`investor’s` is one word to a tokenizer, `investorâ€™s` another).
//!
//! The repair is local and conservative: a run of characters is replaced only when it spells, byte for
//! byte, one valid UTF-8 sequence of two to four bytes, and only on a page that holds at least one run no
//! honest text contains (a C1 control character, `â€` or `Ã`/`Â` before a Latin-1 symbol). A French or
//! German page with its own `É…` is left alone unless it also shows the damage.

/// Repairs the doubly encoded runs of `text` in place; returns how many were replaced.
pub fn repair(text: &mut std::borrow::Cow<'_, str>) -> usize {
    let bytes = text.as_bytes();
    let mut runs: Vec<(usize, usize, char)> = Vec::new();
    let mut telling = false;
    let mut from = 0;
    // Every lead a run can start with (U+00C2–U+00F4) is encoded 0xC3 0x82–0xB4, and 0xC3 is never a
    // continuation byte, so each hit is a character boundary.
    while let Some(p) = memchr::memchr(0xC3, &bytes[from..]) {
        let start = from + p;
        match run_at(&text[start..]) {
            Some(run) => {
                runs.push((start, start + run.len, run.ch));
                telling |= run.telling;
                from = start + run.len;
            }
            None => from = start + 1,
        }
    }
    if !telling || runs.is_empty() {
        return 0;
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for &(start, end, ch) in &runs {
        out.push_str(&text[last..start]);
        out.push(ch);
        last = end;
    }
    out.push_str(&text[last..]);
    *text = std::borrow::Cow::Owned(out);
    runs.len()
}

/// One doubly encoded run: its length in bytes of `text`, the character it stands for, and whether it
/// is a run honest text never holds.
struct Run {
    len: usize,
    ch: char,
    telling: bool,
}

/// The run starting at the beginning of `s`, if its characters spell one UTF-8 sequence.
fn run_at(s: &str) -> Option<Run> {
    let mut chars = s.char_indices();
    let (_, lead) = chars.next()?;
    let lead_byte = u8::try_from(u32::from(lead)).ok()?;
    let continuations = match lead_byte {
        0xC2..=0xDF => 1,
        0xE0..=0xEF => 2,
        0xF0..=0xF4 => 3,
        _ => return None,
    };
    let mut buf = [lead_byte, 0, 0, 0];
    let mut telling = false;
    let mut len = lead.len_utf8();
    for slot in buf.iter_mut().skip(1).take(continuations) {
        let (_, c) = chars.next()?;
        let b = as_byte(c)?;
        if !(0x80..=0xBF).contains(&b) {
            return None;
        }
        let latin1 = u32::from(c) == u32::from(b);
        // A two-byte run from a lead other than `Â`/`Ã` is a capital letter of a Latin script in honest
        // text (`É`, `Ö`), which may stand before punctuation (`CAFÉ…`): only Latin-1's own range counts.
        if continuations == 1 && !matches!(lead, 'Â' | 'Ã') && !latin1 {
            return None;
        }
        telling |= (0x80..=0x9F).contains(&u32::from(c));
        *slot = b;
        len += c.len_utf8();
    }
    let ch = std::str::from_utf8(&buf[..=continuations]).ok()?.chars().next()?;
    if ch.is_control() {
        return None;
    }
    let first = buf[1];
    telling |= (lead == 'â' && first == 0x80) || (matches!(lead, 'Â' | 'Ã') && (0xA0..=0xBF).contains(&first));
    Some(Run { len, ch, telling })
}

/// The byte a character stands for when UTF-8 bytes were read as windows-1252 (or ISO-8859-1, whose
/// 0x80–0x9F are the C1 controls).
fn as_byte(c: char) -> Option<u8> {
    let u = u32::from(c);
    if (0x80..=0xFF).contains(&u) {
        return u8::try_from(u).ok();
    }
    Some(match c {
        '€' => 0x80,
        '‚' => 0x82,
        'ƒ' => 0x83,
        '„' => 0x84,
        '…' => 0x85,
        '†' => 0x86,
        '‡' => 0x87,
        'ˆ' => 0x88,
        '‰' => 0x89,
        'Š' => 0x8A,
        '‹' => 0x8B,
        'Œ' => 0x8C,
        'Ž' => 0x8E,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '˜' => 0x98,
        '™' => 0x99,
        'š' => 0x9A,
        '›' => 0x9B,
        'œ' => 0x9C,
        'ž' => 0x9E,
        'Ÿ' => 0x9F,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repaired(s: &str) -> (String, usize) {
        let mut t = std::borrow::Cow::Borrowed(s);
        let n = repair(&mut t);
        // Text with nothing to repair stays borrowed.
        assert_eq!(n == 0, matches!(t, std::borrow::Cow::Borrowed(_)));
        (t.into_owned(), n)
    }

    /// `s` encoded as UTF-8, read as windows-1252, as a site with a mismatched database serves it.
    fn twice(s: &str) -> String {
        encoding_rs::WINDOWS_1252.decode(s.as_bytes()).0.into_owned()
    }

    /// As [`twice`], but read as ISO-8859-1, whose 0x80–0x9F are control characters.
    fn twice_latin1(s: &str) -> String {
        s.bytes().map(char::from).collect()
    }

    #[test]
    fn windows_1252_runs_are_repaired() {
        let page = "The investor’s guide — café, naïve, “quoted”, 10 €, 中文";
        assert_eq!(repaired(&twice(page)).0, page);
    }

    #[test]
    fn latin1_runs_with_control_characters_are_repaired() {
        let page = "itertools — Functions creating iterators, A DIY Investor’s Guide";
        let (text, n) = repaired(&twice_latin1(page));
        assert_eq!(text, page);
        assert_eq!(n, 2);
    }

    #[test]
    fn honest_latin_text_is_left_alone() {
        for s in ["CAFÉ… Ölsardinen, Ärger, naïve Ñandú", "São Paulo, Ã and Â alone", "prix: 10 €, “quote”"]
        {
            assert_eq!(repaired(s), (s.to_string(), 0), "{s}");
        }
    }

    #[test]
    fn a_page_without_telling_runs_is_left_alone() {
        // `É»` would spell a valid sequence, but nothing else on the page shows the damage.
        let s = "« CAFÉ»";
        assert_eq!(repaired(s), (s.to_string(), 0));
    }

    #[test]
    fn honest_and_damaged_text_on_one_page() {
        let (text, n) = repaired(&format!("Café crème and {}", twice("it’s")));
        assert_eq!(text, "Café crème and it’s");
        assert_eq!(n, 1);
    }

    #[test]
    fn a_cut_run_at_the_end_is_left() {
        let mut s = twice("it’s");
        s.truncate(s.char_indices().nth(3).map_or(s.len(), |(i, _)| i));
        assert_eq!(repaired(&s).1, 0);
    }
}
