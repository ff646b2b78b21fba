//! Dates as pages write them, read into ISO 8601.
//!
//! Machine-readable values (`2024-03-05T10:00:00+08:00`, `2024-03-05`, RFC 2822 in feeds and some
//! meta tags) and the forms people read: `March 5, 2024`, `5 Mar 2024`, `2024年3月5日`, `2024.03.05`,
//! day-first with dots (`17.05.2021`), slashed when one number cannot be a month (`2/24/2026`; the
//! ambiguous `05/03/2024` is not read), and the compact `20240305` of URLs. A value is kept only when
//! it is a real calendar date in a plausible range, so version numbers and prices are not taken for
//! dates. A date found is [`Dated`]: its value, and where it was found.

use serde::{Deserialize, Serialize};

/// Where a date was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DateSource {
    JsonLd,
    Opengraph,
    Meta,
    Time,
    Byline,
    Url,
}

/// A date in ISO 8601 (`2024-03-05`, or with a time and offset when the page gives them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dated {
    pub value: String,
    pub source: DateSource,
}

/// Years accepted as publication dates.
const YEARS: std::ops::RangeInclusive<u32> = 1991..=2100;

const MONTHS: &[(&str, u32)] = &[
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("sept", 9),
];

/// The month a name or abbreviation (`Mar`, `Sept.`, `march`) stands for.
pub fn month_name(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_ascii_lowercase();
    if w.len() < 3 {
        return None;
    }
    MONTHS.iter().find(|(name, _)| name.starts_with(&w) && (w.len() >= 3)).map(|&(_, m)| m)
}

fn days_in(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => 29,
        2 => 28,
        _ => 0,
    }
}

/// A checked calendar date.
fn ymd(y: u32, m: u32, d: u32) -> Option<String> {
    (YEARS.contains(&y) && (1..=12).contains(&m) && d >= 1 && d <= days_in(y, m))
        .then(|| format!("{y:04}-{m:02}-{d:02}"))
}

fn num(s: &str) -> Option<u32> {
    (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

/// A machine-readable value: ISO 8601 (date, or date and time with an optional offset), `2024/03/05`,
/// `2024.03.05`, compact `20240305`, RFC 2822. Time and offset are kept when present.
pub fn parse_machine(s: &str) -> Option<String> {
    let s = s.trim();
    if s.len() < 8 {
        return None;
    }
    let b = s.as_bytes();
    if b[..4].iter().all(u8::is_ascii_digit) {
        if b.len() >= 8 && b[..8].iter().all(u8::is_ascii_digit) && b.get(8).is_none_or(|c| !c.is_ascii_digit()) {
            return ymd(num(&s[..4])?, num(&s[4..6])?, num(&s[6..8])?);
        }
        let sep = b[4];
        if !matches!(sep, b'-' | b'/' | b'.') {
            return None;
        }
        let rest = &s[5..];
        let mend = rest.find(|c: char| !c.is_ascii_digit())?;
        let m = num(&rest[..mend])?;
        let rest = rest[mend..].strip_prefix(sep as char)?;
        let dend = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let d = num(&rest[..dend])?;
        let date = ymd(num(&s[..4])?, m, d)?;
        let tail = &rest[dend..];
        return Some(match time_part(tail) {
            Some(t) => format!("{date}T{t}"),
            None => date,
        });
    }
    rfc2822(s)
}

/// `T10:00`, `T10:00:00.000Z`, ` 10:00:00+08:00` → `10:00:00`, `10:00:00Z`, `10:00:00+08:00`.
fn time_part(tail: &str) -> Option<String> {
    let t = tail.strip_prefix(['T', ' '])?;
    let b = t.as_bytes();
    if b.len() < 5 || !b[..2].iter().all(u8::is_ascii_digit) || b[2] != b':' || !b[3..5].iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let (h, mi) = (num(&t[..2])?, num(&t[3..5])?);
    let mut k = 5;
    let mut sec = 0;
    if b.get(5) == Some(&b':') && b.len() >= 8 && b[6..8].iter().all(u8::is_ascii_digit) {
        sec = num(&t[6..8])?;
        k = 8;
        if b.get(8) == Some(&b'.') {
            k = 9 + t[9..].bytes().take_while(u8::is_ascii_digit).count();
        }
    }
    if h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let zone = t[k..].trim();
    let zone = if zone.eq_ignore_ascii_case("z") {
        "Z".to_string()
    } else if zone.len() >= 5
        && zone.starts_with(['+', '-'])
        && zone.as_bytes()[1..3].iter().all(u8::is_ascii_digit)
        && zone.as_bytes().get(3).is_some()
    {
        let digits: String = zone[1..].chars().filter(char::is_ascii_digit).take(4).collect();
        if digits.len() == 4 { format!("{}{}:{}", &zone[..1], &digits[..2], &digits[2..]) } else { String::new() }
    } else {
        String::new()
    };
    Some(format!("{h:02}:{mi:02}:{sec:02}{zone}"))
}

/// `Tue, 05 Mar 2024 10:00:00 GMT` (the day name optional).
fn rfc2822(s: &str) -> Option<String> {
    let s = s.split_once(',').map_or(s, |(_, r)| r).trim();
    let mut w = s.split_whitespace();
    let d = num(w.next()?)?;
    let m = month_name(w.next()?)?;
    let y = num(w.next()?)?;
    ymd(y, m, d)
}

/// The first date written for people in `text`: `March 5, 2024`, `5 March 2024`, `Mar. 5th 2024`,
/// `2024年3月5日`, `2024-03-05`, `2024/3/5`, `2024.03.05`, `17.05.2021`, `2/24/2026`. Returns the date
/// and the byte range it occupied.
pub fn find_in_text(text: &str) -> Option<(String, std::ops::Range<usize>)> {
    let b = text.as_bytes();
    if !has_four_digits(b) {
        return None;
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if c.is_ascii_digit() && word_start {
            if let Some(found) = numeric_at(text, i) {
                return Some(found);
            }
        } else if c.is_ascii_alphabetic()
            && word_start
            && let Some(found) = month_first_at(text, i)
        {
            return Some(found);
        }
        i += 1;
    }
    None
}

/// Whether `b` holds four ASCII digits in a row. Every date [`find_in_text`] reads has a year of four
/// digits, so a text without them has none: most texts are answered by this one pass over their bytes
/// instead of a month-name lookup at every word.
fn has_four_digits(b: &[u8]) -> bool {
    let mut run = 0;
    for &c in b {
        run = if c.is_ascii_digit() { run + 1 } else { 0 };
        if run == 4 {
            return true;
        }
    }
    false
}

/// Digits at `i`: year-first numeric dates (any of `-/.` or 年月日) or day-first with a month name.
fn numeric_at(text: &str, i: usize) -> Option<(String, std::ops::Range<usize>)> {
    let rest = &text[i..];
    let n1 = rest.bytes().take_while(u8::is_ascii_digit).count();
    if n1 == 4 {
        let y = num(&rest[..4])?;
        let after = &rest[4..];
        let (sep_len, cjk) = if after.starts_with('年') {
            ('年'.len_utf8(), true)
        } else if after.starts_with(['-', '/', '.']) {
            (1, false)
        } else {
            return None;
        };
        let r2 = &after[sep_len..];
        let n2 = r2.bytes().take_while(u8::is_ascii_digit).count();
        if n2 == 0 || n2 > 2 {
            return None;
        }
        let m = num(&r2[..n2])?;
        let r3 = &r2[n2..];
        let sep2_len = if cjk {
            if !r3.starts_with('月') {
                return None;
            }
            '月'.len_utf8()
        } else {
            if !r3.starts_with(after.as_bytes()[0] as char) {
                return None;
            }
            1
        };
        let r4 = &r3[sep2_len..];
        let n3 = r4.bytes().take_while(u8::is_ascii_digit).count();
        if n3 == 0 || n3 > 2 || r4[n3..].starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let d = num(&r4[..n3])?;
        let mut end = i + 4 + sep_len + n2 + sep2_len + n3;
        if cjk && text[end..].starts_with('日') {
            end += '日'.len_utf8();
        }
        let date = ymd(y, m, d)?;
        let time = time_part(&text[end..]).or_else(|| time_part(&format!(" {}", text[end..].trim_start())));
        return Some((time.map_or(date.clone(), |t| format!("{date}T{t}")), i..end));
    }
    if (1..=2).contains(&n1) {
        if let Some(found) = day_and_month_at(text, i, n1) {
            return Some(found);
        }
        // `5 March 2024`, `5th Mar, 2024`
        let d = num(&rest[..n1])?;
        let mut r = &rest[n1..];
        for suffix in ["st", "nd", "rd", "th"] {
            if let Some(x) = r.strip_prefix(suffix) {
                r = x;
                break;
            }
        }
        let r = r.strip_prefix(' ')?;
        let word_len = r.bytes().take_while(|b| b.is_ascii_alphabetic() || *b == b'.').count();
        let m = month_name(&r[..word_len])?;
        let r2 = r[word_len..].trim_start_matches([',', ' ']);
        let ny = r2.bytes().take_while(u8::is_ascii_digit).count();
        if ny != 4 {
            return None;
        }
        let y = num(&r2[..4])?;
        let end = i + (rest.len() - r2.len()) + 4;
        return ymd(y, m, d).map(|date| (date, i..end));
    }
    None
}

/// Two numbers then the year, at `i` (the first number `n1` digits long). Dotted (`17.05.2021`), the
/// day comes first, as in every country that writes dates with dots. Slashed or dashed, the order
/// differs between countries (`2/24/2026` in the US, `24/2/2026` in Britain), so the date is read
/// only when one number cannot be a month; `05/03/2024` stays unread.
fn day_and_month_at(text: &str, i: usize, n1: usize) -> Option<(String, std::ops::Range<usize>)> {
    let rest = &text[i..];
    let sep = *rest.as_bytes().get(n1)?;
    if !matches!(sep, b'.' | b'/' | b'-') {
        return None;
    }
    let r2 = &rest[n1 + 1..];
    let n2 = r2.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=2).contains(&n2) || r2.as_bytes().get(n2) != Some(&sep) {
        return None;
    }
    let r3 = &r2[n2 + 1..];
    let ny = r3.bytes().take_while(u8::is_ascii_digit).count();
    // A fourth number after the year (`1.2.2021.5`) makes it a version, not a date.
    let after = &r3[ny.min(r3.len())..];
    if ny != 4 || (after.starts_with(['.', '/', '-']) && after[1..].starts_with(|c: char| c.is_ascii_digit())) {
        return None;
    }
    let (a, b, y) = (num(&rest[..n1])?, num(&r2[..n2])?, num(&r3[..4])?);
    let (d, m) = match sep {
        b'.' => (a, b),
        _ if a > 12 && b <= 12 => (a, b),
        _ if b > 12 && a <= 12 => (b, a),
        _ => return None,
    };
    let end = i + n1 + 1 + n2 + 1 + 4;
    ymd(y, m, d).map(|date| (date, i..end))
}

/// `March 5, 2024`, `Mar. 5th, 2024`.
fn month_first_at(text: &str, i: usize) -> Option<(String, std::ops::Range<usize>)> {
    let rest = &text[i..];
    let word_len = rest.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
    let m = month_name(&rest[..word_len])?;
    let r = rest[word_len..].trim_start_matches('.').strip_prefix(' ')?;
    let nd = r.bytes().take_while(u8::is_ascii_digit).count();
    if nd == 0 || nd > 2 {
        return None;
    }
    let d = num(&r[..nd])?;
    let mut r2 = &r[nd..];
    for suffix in ["st", "nd", "rd", "th"] {
        if let Some(x) = r2.strip_prefix(suffix) {
            r2 = x;
            break;
        }
    }
    let r2 = r2.trim_start_matches([',', ' ']);
    let ny = r2.bytes().take_while(u8::is_ascii_digit).count();
    if ny != 4 {
        return None;
    }
    let y = num(&r2[..4])?;
    let end = i + (rest.len() - r2.len()) + 4;
    ymd(y, m, d).map(|date| (date, i..end))
}

/// Days since 1970-01-01 of the calendar day an ISO value starts with (`2024-03-05...`).
fn day_number(iso: &str) -> Option<i64> {
    let (y, m, d) = (num(iso.get(..4)?)?, num(iso.get(5..7)?)?, num(iso.get(8..10)?)?);
    ymd(y, m, d)?;
    // Days from civil: shift the year to start in March so the leap day falls last.
    let (y, m, d) = (i64::from(y), i64::from(m), i64::from(d));
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// Whole days between the calendar days two ISO values start with.
pub fn days_apart(a: &str, b: &str) -> Option<i64> {
    Some((day_number(a)? - day_number(b)?).abs())
}

/// A date in a URL path: `/2024/03/05/`, `/2024-03-05-`, `/20240305/`. Year and month alone
/// (`/2024/03/`) are not a date.
pub fn from_url(url: &str) -> Option<String> {
    let path = url.split_once("://").map_or(url, |(_, r)| r);
    let path = &path[path.find('/')?..];
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let segs: Vec<&str> = path.split('/').collect();
    for w in segs.windows(3) {
        if let (Some(y), Some(m)) = (num(w[0]).filter(|_| w[0].len() == 4), num(w[1]).filter(|_| w[1].len() <= 2)) {
            let d = w[2].bytes().take_while(u8::is_ascii_digit).count();
            if (1..=2).contains(&d)
                && w[2][d..].chars().next().is_none_or(|c| !c.is_ascii_digit())
                && let Some(date) = ymd(y, m, num(&w[2][..d])?)
            {
                return Some(date);
            }
        }
    }
    for seg in &segs {
        let b = seg.as_bytes();
        for i in 0..b.len() {
            if (i == 0 || !b[i - 1].is_ascii_digit()) && b[i].is_ascii_digit() {
                let run = b[i..].iter().take_while(|c| c.is_ascii_digit() || **c == b'-' || **c == b'_').count();
                let piece = seg[i..i + run].trim_end_matches(['-', '_']);
                let digits: String = piece.chars().filter(char::is_ascii_digit).collect();
                if digits.len() == 8 && (piece.len() == 8 || piece.len() == 10) && piece.starts_with(['1', '2']) {
                    let ok = piece.len() == 8
                        || (piece.as_bytes()[4] == piece.as_bytes()[7]
                            && !piece[4..5].chars().all(|c| c.is_ascii_digit()));
                    if ok && let Some(date) = ymd(num(&digits[..4])?, num(&digits[4..6])?, num(&digits[6..8])?) {
                        return Some(date);
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_values() {
        assert_eq!(parse_machine("2024-03-05").as_deref(), Some("2024-03-05"));
        assert_eq!(parse_machine("2024-03-05T10:20:30.123+0800").as_deref(), Some("2024-03-05T10:20:30+08:00"));
        assert_eq!(parse_machine("2024-03-05T10:20Z").as_deref(), Some("2024-03-05T10:20:00Z"));
        assert_eq!(parse_machine("2024/3/5").as_deref(), Some("2024-03-05"));
        assert_eq!(parse_machine("Tue, 05 Mar 2024 10:00:00 GMT").as_deref(), Some("2024-03-05"));
        assert_eq!(parse_machine("20240305").as_deref(), Some("2024-03-05"));
        assert_eq!(parse_machine("2024-02-30"), None);
        assert_eq!(parse_machine("1.2.3.4.5"), None);
    }

    #[test]
    fn a_multibyte_character_after_the_time_is_no_zone() {
        // Found by `pith fuzz`: the zone check once sliced inside '阅'.
        assert_eq!(parse_machine("2024-03-05 10:00 --阅读 · --喜欢").as_deref(), Some("2024-03-05T10:00:00"));
        assert_eq!(parse_machine("2024-03-05T10:00-阅读").as_deref(), Some("2024-03-05T10:00:00"));
    }

    #[test]
    fn dates_in_text() {
        let f = |s: &str| find_in_text(s).map(|(d, _)| d);
        assert_eq!(f("Published March 5, 2024 by X").as_deref(), Some("2024-03-05"));
        assert_eq!(f("on 5th Mar 2024").as_deref(), Some("2024-03-05"));
        assert_eq!(f("Sept. 12, 2023").as_deref(), Some("2023-09-12"));
        assert_eq!(f("发布时间：2024年3月5日 10:30").as_deref(), Some("2024-03-05T10:30:00"));
        assert_eq!(f("时间：2024-03-05 来源：新华网").as_deref(), Some("2024-03-05"));
        assert_eq!(f("version 2.3.1 costs $2024.50"), None);
        assert_eq!(f("may 2024"), None);
        // Every date has a year of four digits in a row; a text without them has no date.
        assert_eq!(f("March 5, 24 and 1,000 more"), None);
        assert!(has_four_digits("on 5.3.2024".as_bytes()) && !has_four_digits("12 345 678".as_bytes()));
    }

    #[test]
    fn day_and_month_numbers() {
        let f = |s: &str| find_in_text(s).map(|(d, _)| d);
        // Dotted: day first.
        assert_eq!(f("Elliot Raba 23.07.2025").as_deref(), Some("2025-07-23"));
        assert_eq!(f("1.2.2021").as_deref(), Some("2021-02-01"));
        // Slashed or dashed: only when one number cannot be a month.
        assert_eq!(f("Updated: 10/31/2024").as_deref(), Some("2024-10-31"));
        assert_eq!(f("24/2/2026").as_deref(), Some("2026-02-24"));
        assert_eq!(f("17-05-2021").as_deref(), Some("2021-05-17"));
        assert_eq!(f("05/03/2024"), None);
        // Not dates: mixed separators, a fourth number (a version), an impossible day, no year.
        assert_eq!(f("17.05/2021"), None);
        assert_eq!(f("1.2.2021.5"), None);
        assert_eq!(f("31.02.2024"), None);
        assert_eq!(f("17.05.21"), None);
    }

    #[test]
    fn days_between() {
        assert_eq!(day_number("2000-03-01"), Some(11_017));
        assert_eq!(days_apart("2024-03-01T01:00:00Z", "2024-02-29"), Some(1));
        assert_eq!(days_apart("2025-01-01", "2024-12-31T23:00:00+00:00"), Some(1));
        assert_eq!(days_apart("2024-03-05", "2024-03-05"), Some(0));
        assert_eq!(days_apart("2024-02-30", "2024-03-01"), None);
    }

    #[test]
    fn dates_in_urls() {
        assert_eq!(from_url("https://ex.test/2024/03/05/story").as_deref(), Some("2024-03-05"));
        assert_eq!(from_url("https://ex.test/news/20240305/a.html").as_deref(), Some("2024-03-05"));
        assert_eq!(from_url("https://ex.test/a/2024-03-05-title").as_deref(), Some("2024-03-05"));
        assert_eq!(from_url("https://ex.test/2024/03/title"), None);
        assert_eq!(from_url("https://ex.test/p/12345678901"), None);
    }
}
