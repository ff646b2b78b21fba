//! The language a page is counted under in the per-language table: the dataset's `lang` where it
//! gives one; otherwise detected from the page's text (its labelled `with` snippets and gold text,
//! then what was extracted) by character trigrams, with the page's own `<html lang>` as the tie
//! breaker when the text is too short for a reliable guess. Codes are ISO 639-1 where one exists
//! (the datasets use them), else the detector's ISO 639-3 code; `und` when nothing tells.

use crate::lab::dataset::LabelledPage;

/// At most this many characters are read for detection: plenty for trigrams, bounded for long pages.
const SAMPLE_CHARS: usize = 4000;

/// The language of `page`, given its raw `bytes` and the `extracted` text.
pub fn of_page(page: &LabelledPage, bytes: &[u8], extracted: &str) -> String {
    if let Some(l) = page.lang.as_deref().map(primary).filter(|l| !l.is_empty()) {
        return l;
    }
    let mut sample = String::new();
    for part in page.with.iter().map(String::as_str).chain(page.gold.as_deref()).chain([extracted]) {
        if sample.chars().count() >= SAMPLE_CHARS {
            break;
        }
        sample.push_str(part);
        sample.push('\n');
    }
    let sample: String = sample.chars().take(SAMPLE_CHARS).collect();
    // The declaration is read only when the text leaves the language in doubt.
    match whatlang::detect(&sample) {
        Some(info) if info.is_reliable() => iso639_1(info.lang().code()),
        detected => match (declared(bytes), detected) {
            (Some(l), _) => l,
            (None, Some(info)) => iso639_1(info.lang().code()),
            (None, None) => "und".to_string(),
        },
    }
}

/// The primary subtag of a language tag, lower-cased: `zh-CN` → `zh`.
fn primary(tag: &str) -> String {
    tag.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase()
}

/// The `lang` attribute of the page's `<html>` element, if it is among the first 64 KiB.
fn declared(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let start = memchr::memmem::find(&lower, b"<html")?;
    let end = start + memchr::memchr(b'>', &lower[start..])?;
    let tag = &lower[start..end];
    let at = memchr::memmem::find(tag, b" lang=").or_else(|| memchr::memmem::find(tag, b"\nlang="))? + 6;
    let value: Vec<u8> = tag[at..]
        .iter()
        .skip_while(|&&b| b == b'"' || b == b'\'')
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        .copied()
        .collect();
    let l = primary(std::str::from_utf8(&value).ok()?);
    (l.len() == 2 || l.len() == 3).then_some(l)
}

/// The detector's ISO 639-3 code as ISO 639-1 (every language it detects has one).
fn iso639_1(code: &str) -> String {
    /// Every language the detector knows has a two-letter code.
    const MAP: [(&str, &str); 70] = [
        ("eng", "en"),
        ("deu", "de"),
        ("fra", "fr"),
        ("spa", "es"),
        ("pol", "pl"),
        ("cmn", "zh"),
        ("ita", "it"),
        ("por", "pt"),
        ("rus", "ru"),
        ("nld", "nl"),
        ("jpn", "ja"),
        ("kor", "ko"),
        ("ara", "ar"),
        ("ces", "cs"),
        ("slk", "sk"),
        ("swe", "sv"),
        ("dan", "da"),
        ("nob", "no"),
        ("fin", "fi"),
        ("hun", "hu"),
        ("ron", "ro"),
        ("tur", "tr"),
        ("ukr", "uk"),
        ("ell", "el"),
        ("heb", "he"),
        ("hin", "hi"),
        ("vie", "vi"),
        ("ind", "id"),
        ("cat", "ca"),
        ("hrv", "hr"),
        ("epo", "eo"),
        ("ben", "bn"),
        ("kat", "ka"),
        ("yid", "yi"),
        ("amh", "am"),
        ("jav", "jv"),
        ("bul", "bg"),
        ("bel", "be"),
        ("mar", "mr"),
        ("kan", "kn"),
        ("slv", "sl"),
        ("srp", "sr"),
        ("mkd", "mk"),
        ("lit", "lt"),
        ("lav", "lv"),
        ("est", "et"),
        ("tam", "ta"),
        ("urd", "ur"),
        ("tha", "th"),
        ("guj", "gu"),
        ("uzb", "uz"),
        ("pan", "pa"),
        ("aze", "az"),
        ("tel", "te"),
        ("pes", "fa"),
        ("mal", "ml"),
        ("ori", "or"),
        ("mya", "my"),
        ("nep", "ne"),
        ("sin", "si"),
        ("khm", "km"),
        ("tuk", "tk"),
        ("aka", "ak"),
        ("zul", "zu"),
        ("sna", "sn"),
        ("afr", "af"),
        ("lat", "la"),
        ("tgl", "tl"),
        ("hye", "hy"),
        ("cym", "cy"),
    ];
    MAP.iter().find(|(three, _)| *three == code).map_or_else(|| code.to_string(), |(_, two)| two.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(lang: Option<&str>, with: &[&str]) -> LabelledPage {
        let line = serde_json::json!({"id": "x", "url": null, "lang": lang, "has_article": null, "gold": null,
            "with": with});
        serde_json::from_value(line).unwrap()
    }

    #[test]
    fn the_dataset_label_wins_then_the_text_then_the_declaration() {
        assert_eq!(of_page(&page(Some("zh-CN"), &[]), b"", "Hello world, this is English."), "zh");
        let german = "Die Bundesregierung hat am Mittwoch beschlossen, die Förderung für kleine \
                      landwirtschaftliche Betriebe im kommenden Jahr deutlich zu erhöhen.";
        assert_eq!(of_page(&page(None, &[german]), b"<html lang=\"en\">", ""), "de");
        assert_eq!(of_page(&page(None, &[]), b"<html lang='pl-PL'><p>", "ok"), "pl");
        assert_eq!(of_page(&page(None, &[]), b"<p>", ""), "und");
        let chinese = "农业农村部近日印发通知，要求各地切实做好今年秋冬种农业生产工作，确保粮食稳定增产。";
        assert_eq!(of_page(&page(None, &[]), b"", chinese), "zh");
    }

    #[test]
    fn declared_language_is_read_from_the_html_tag_only() {
        assert_eq!(declared(b"<!doctype html><HTML dir=ltr LANG=\"fr-CA\"><body>"), Some("fr".into()));
        assert_eq!(declared(b"<html><body lang=\"de\">"), None);
        assert_eq!(declared(b"<html lang=\"\">"), None);
    }

    #[test]
    fn every_detected_language_gets_a_two_letter_code() {
        for l in whatlang::Lang::all() {
            assert_eq!(iso639_1(l.code()).len(), 2, "{}", l.code());
        }
    }
}
