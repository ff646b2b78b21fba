//! Escaping for the round trip: text escaped so that a CommonMark reader gives back exactly that text
//! (at the start of a line too, where `#`, `-` or `1.` would open a block), `#` in headings, and the
//! addresses of links and images made absolute and escaped for their parentheses.

use super::writer::Writer;

impl Writer<'_> {
    pub(super) fn resolve(&self, link: &str) -> String {
        let abs = match self.base.as_ref().and_then(|b| b.join(link).ok()) {
            Some(u) => u.to_string(),
            None => link.trim().to_string(),
        };
        let mut out = String::with_capacity(abs.len());
        for c in abs.chars() {
            match c {
                ' ' => out.push_str("%20"),
                '(' | ')' | '\\' | '<' | '>' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() => {}
                c => out.push(c),
            }
        }
        out
    }
}

pub(super) fn is_script(href: &str) -> bool {
    let h = href.trim_start().as_bytes();
    h.len() >= 11 && h[..11].eq_ignore_ascii_case(b"javascript:")
}

pub(super) fn escape_hashes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_backslash = false;
    for c in s.chars() {
        if c == '#' && !prev_backslash {
            out.push('\\');
        }
        prev_backslash = c == '\\' && !prev_backslash;
        out.push(c);
    }
    out
}

/// Text escaped for the middle of a line, escaped again for the start of one (`None`: nothing to add).
pub(super) fn escape_line_start(s: &str) -> Option<String> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if s.starts_with(['#', '-', '+', '=']) {
        Some(format!("\\{s}"))
    } else if digits > 0 && digits <= 9 && matches!(s.as_bytes().get(digits), Some(b'.' | b')')) {
        Some(format!("{}\\{}", &s[..digits], &s[digits..]))
    } else {
        None
    }
}

/// Append folded text with every character that Markdown could read as syntax escaped. `line_start`:
/// the text begins a line, where `#`, `-`, `+`, `=` and `1.` would start a block.
pub fn escape_text(s: &str, out: &mut String, line_start: bool) {
    let mut chars = s.char_indices();
    if line_start {
        let first = s.chars().next();
        match first {
            Some('#' | '-' | '+' | '=') => {
                out.push('\\');
            }
            Some(c) if c.is_ascii_digit() => {
                // `1.` or `1)` after up to nine digits starts an ordered list.
                let digits = s.bytes().take_while(u8::is_ascii_digit).count();
                if digits <= 9 && matches!(s.as_bytes().get(digits), Some(b'.' | b')')) {
                    out.push_str(&s[..digits]);
                    out.push('\\');
                    for _ in 0..digits {
                        chars.next();
                    }
                }
            }
            _ => {}
        }
    }
    for (i, c) in chars {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '&' => {
                // Only before what could be read as an entity.
                if s[i + 1..].starts_with(|n: char| n.is_ascii_alphanumeric() || n == '#') {
                    out.push('\\');
                }
                out.push('&');
            }
            _ => out.push(c),
        }
    }
}
