//! Which records of a crawl archive are pages, and what becomes of the others: the one rule `pith
//! batch` and the Python package's `read_warc` share ([`classify`], then [`RecordPage::failure`]), so
//! the two take the same records, report the same failures and count the same skips.

use super::item::Failure;
use super::warc::{Record, http_response};

/// Records larger than this are refused unread (`pith batch --max-record-bytes`, `read_warc`'s
/// `max_record_bytes`): a crawl's HTML pages are far smaller, and a record is held in memory whole.
pub const MAX_RECORD_BYTES: u64 = 16 * 1024 * 1024;

/// What a record holds for extraction.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordPage {
    /// An HTML page: a 2xx `response` with an HTML media type (or none), or a `resource` record with
    /// an HTML `Content-Type` (or none).
    Page(Page),
    /// A `response` or `resource` record whose payload is not HTML (images, scripts, PDFs...).
    NotHtml,
    /// A record that holds no page: `request`, `metadata`, `warcinfo`, `revisit`...
    Other,
    /// A `response` record with no HTTP response in its block.
    NoResponse,
    /// An HTML response whose status is outside 2xx.
    NotOk(u16),
    /// A `response` or `resource` record over the size limit, skipped unread: its declared length.
    Oversize(u64),
}

impl RecordPage {
    /// The failure a record that holds no page to extract is reported as, or `None` when it is
    /// skipped and only counted (not HTML, no page at all). A response pith cannot use (over the size
    /// limit, without an HTTP answer, or one outside 2xx) is named, since a crawl that lost it should
    /// know; an image or a `request` record is what an archive holds beside its pages.
    pub fn failure(&self) -> Option<Failure> {
        match self {
            RecordPage::Page(_) | RecordPage::NotHtml | RecordPage::Other => None,
            RecordPage::Oversize(len) => {
                Some(Failure::new("too_large", format!("record of {len} bytes is over --max-record-bytes")))
            }
            RecordPage::NoResponse => Some(Failure::new("http", "the record holds no HTTP response")),
            RecordPage::NotOk(status) => Some(Failure::new("origin_status", format!("the origin answered {status}"))),
        }
    }
}

/// The page a record holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The HTTP status; `None` for a `resource` record, which holds no HTTP response.
    pub status: Option<u16>,
    /// The media type, lower-cased, without parameters: the HTTP `Content-Type`'s, or a `resource`
    /// record's own `Content-Type`; `None` when absent.
    pub media_type: Option<String>,
    /// The `charset` parameter of the HTTP `Content-Type`, when it names a known encoding.
    pub charset: Option<String>,
    /// The page's bytes, transfer and content codings removed.
    pub body: Vec<u8>,
}

/// Which of [`RecordPage`]'s cases a record is. The record's block is moved out (into the page, or
/// dropped); its headers stay for the caller to name the page by. `max_body` bounds the decompressed
/// body, as [`http_response`]'s does.
pub fn classify(record: &mut Record, max_body: u64) -> RecordPage {
    if record.kind != "response" && record.kind != "resource" {
        return RecordPage::Other;
    }
    if let Some(len) = record.oversize {
        return RecordPage::Oversize(len);
    }
    let block = std::mem::take(&mut record.block);
    if record.kind == "resource" {
        let media_type = record.content_type.as_deref().map(media_type);
        if !media_type.as_deref().is_none_or(is_html) {
            return RecordPage::NotHtml;
        }
        return RecordPage::Page(Page { status: None, media_type, charset: None, body: block });
    }
    let Some(http) = http_response(&block, usize::try_from(max_body).unwrap_or(usize::MAX)) else {
        return RecordPage::NoResponse;
    };
    if !http.media_type.as_deref().is_none_or(is_html) {
        return RecordPage::NotHtml;
    }
    if !(200..300).contains(&http.status) {
        return RecordPage::NotOk(http.status);
    }
    RecordPage::Page(Page {
        status: Some(http.status),
        media_type: http.media_type,
        charset: http.charset,
        body: http.body,
    })
}

/// A `Content-Type`'s media type, lower-cased, without parameters.
fn media_type(content_type: &str) -> String {
    content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// Whether a media type (lower-cased, as [`media_type`] gives it) is HTML.
fn is_html(media_type: &str) -> bool {
    media_type == "text/html" || media_type == "application/xhtml+xml"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kind: &str, content_type: Option<&str>, block: &[u8]) -> Record {
        Record {
            kind: kind.into(),
            content_type: content_type.map(Into::into),
            block: block.to_vec(),
            ..Record::default()
        }
    }

    #[test]
    fn classify_each_outcome() {
        let page = |status, media_type: Option<&str>, charset: Option<&str>, body: &[u8]| {
            RecordPage::Page(Page {
                status,
                media_type: media_type.map(Into::into),
                charset: charset.map(Into::into),
                body: body.to_vec(),
            })
        };
        let response = |http: &[u8]| record("response", Some("application/http; msgtype=response"), http);
        let cases = [
            (record("warcinfo", None, b"info"), RecordPage::Other),
            (record("request", None, b"GET / HTTP/1.1\r\n\r\n"), RecordPage::Other),
            (Record { oversize: Some(300), ..response(b"") }, RecordPage::Oversize(300)),
            (Record { oversize: Some(9), ..record("resource", Some("text/html"), b"") }, RecordPage::Oversize(9)),
            (
                response(b"HTTP/1.1 200 OK\r\nContent-Type: Text/HTML; charset=utf-8\r\n\r\n<p>a"),
                page(Some(200), Some("text/html"), Some("utf-8"), b"<p>a"),
            ),
            (response(b"HTTP/1.1 204 No Content\n\n<p>b"), page(Some(204), None, None, b"<p>b")),
            (
                response(b"HTTP/1.1 200 OK\r\nContent-Type: application/xhtml+xml\r\n\r\n<p>c"),
                page(Some(200), Some("application/xhtml+xml"), None, b"<p>c"),
            ),
            (response(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\nPNG"), RecordPage::NotHtml),
            // The media type is looked at before the status: a 404 image is not HTML, not a failure.
            (response(b"HTTP/1.1 404 Not Found\r\nContent-Type: image/png\r\n\r\n"), RecordPage::NotHtml),
            (response(b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n<p>gone"), RecordPage::NotOk(404)),
            (response(b"HTTP/1.1 301 Moved\r\n\r\n"), RecordPage::NotOk(301)),
            (response(b"<html>no status line</html>\r\n\r\n"), RecordPage::NoResponse),
            (response(b"HTTP/1.1 200 OK"), RecordPage::NoResponse),
            (record("resource", Some("text/html; charset=GBK"), b"<p>d"), page(None, Some("text/html"), None, b"<p>d")),
            (record("resource", None, b"<p>e"), page(None, None, None, b"<p>e")),
            (record("resource", Some("application/pdf"), b"%PDF"), RecordPage::NotHtml),
            (record("resource", Some(""), b"<p>f"), RecordPage::NotHtml),
        ];
        for (mut rec, want) in cases {
            let before = rec.clone();
            assert_eq!(classify(&mut rec, 1 << 20), want, "{before:?}");
            // The headers stay; the block has been moved out unless the record was not looked into.
            assert_eq!((&rec.kind, &rec.content_type), (&before.kind, &before.content_type));
            if want != RecordPage::Other {
                assert!(rec.block.is_empty());
            }
        }
    }

    #[test]
    fn failures_are_the_unusable_responses_and_skips_the_rest() {
        let kinds: Vec<Option<&str>> = [
            RecordPage::NotHtml,
            RecordPage::Other,
            RecordPage::Oversize(9),
            RecordPage::NoResponse,
            RecordPage::NotOk(404),
        ]
        .iter()
        .map(|r| r.failure().map(|f| f.kind))
        .collect();
        assert_eq!(kinds, [None, None, Some("too_large"), Some("http"), Some("origin_status")]);
        assert_eq!(RecordPage::NotOk(404).failure().unwrap().message, "the origin answered 404");
    }
}
