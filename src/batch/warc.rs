//! Reading crawl archives: WARC files (ISO 28500, versions 1.0 and 1.1), plain or gzipped (one gzip
//! member per record, as crawlers write them, or the whole file in one), record by record.
//!
//! Why our own reader: the format is a header block and a length-prefixed body per record, and the
//! crates that read it either load whole records of every type into memory with no bound, or pull
//! in an HTTP stack to parse the captured responses. This one streams: it holds one record at a time,
//! refuses (and skips) a record whose body is over a limit without reading it into memory, and
//! parses the captured HTTP response itself (status, `Content-Type` and its charset, chunked
//! transfer coding, gzip/deflate content coding), so an archive of any size is read in bounded memory.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// A WARC record as read: its named headers and its body (the block), or why it was skipped.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// `WARC-Type`: `response`, `resource`, `request`, `metadata`, `warcinfo`...
    pub kind: String,
    pub target_uri: Option<String>,
    pub record_id: Option<String>,
    /// `WARC-Payload-Digest`, else `WARC-Block-Digest`.
    pub digest: Option<String>,
    pub date: Option<String>,
    /// The record's `Content-Type` (for `response` records, `application/http; msgtype=response`).
    pub content_type: Option<String>,
    /// The block; empty when the record was over the size limit (then `oversize` is set).
    pub block: Vec<u8>,
    /// The block's declared length when it was over the limit and skipped unread.
    pub oversize: Option<u64>,
}

/// Why a record or an archive could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WarcError {
    #[error("not a WARC record (line {0:?})")]
    NotWarc(String),
    #[error("a WARC record without a Content-Length")]
    NoLength,
    #[error("the archive ends inside a record")]
    Truncated,
    #[error("reading the archive: {0}")]
    Io(#[from] std::io::Error),
}

/// Header lines longer than this end the archive (nothing real comes close).
const MAX_LINE: usize = 64 * 1024;
/// Header lines per record.
const MAX_HEADERS: usize = 256;

/// Reads records one at a time.
pub struct WarcReader<R: BufRead> {
    input: R,
    max_block: u64,
    done: bool,
}

/// Open a file, gunzipping it when its first bytes are a gzip header (whatever its name).
pub fn open(path: &Path, max_block: u64) -> Result<WarcReader<Box<dyn BufRead + Send>>, WarcError> {
    let mut f = BufReader::with_capacity(256 * 1024, std::fs::File::open(path)?);
    let gz = f.fill_buf()?.starts_with(&[0x1F, 0x8B]);
    let input: Box<dyn BufRead + Send> = if gz {
        Box::new(BufReader::with_capacity(256 * 1024, flate2::bufread::MultiGzDecoder::new(f)))
    } else {
        Box::new(f)
    };
    Ok(WarcReader::new(input, max_block))
}

/// True when the file starts like a WARC (gzipped or not).
pub fn looks_like_warc(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    if name.ends_with(".warc") || name.ends_with(".warc.gz") {
        return true;
    }
    let Ok(f) = std::fs::File::open(path) else { return false };
    let mut head = [0u8; 2];
    let mut r = BufReader::new(f);
    if r.read_exact(&mut head).is_err() {
        return false;
    }
    if head == [0x1F, 0x8B] {
        let Ok(f) = std::fs::File::open(path) else { return false };
        let mut buf = [0u8; 5];
        return flate2::read::MultiGzDecoder::new(f).read_exact(&mut buf).is_ok() && &buf == b"WARC/";
    }
    let mut rest = [0u8; 3];
    r.read_exact(&mut rest).is_ok() && head == *b"WA" && &rest == b"RC/"
}

impl<R: BufRead> WarcReader<R> {
    pub fn new(input: R, max_block: u64) -> Self {
        WarcReader { input, max_block, done: false }
    }

    fn line(&mut self) -> Result<Option<String>, WarcError> {
        let mut buf = Vec::new();
        let n = (&mut self.input).take(MAX_LINE as u64).read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(None);
        }
        if !buf.ends_with(b"\n") && n >= MAX_LINE {
            return Err(WarcError::NotWarc(String::from_utf8_lossy(&buf[..80.min(buf.len())]).into_owned()));
        }
        while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            buf.pop();
        }
        Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
    }

    /// The next record, `None` at the end. After an error the reader stops (the archive's framing
    /// is lost).
    pub fn next_record(&mut self) -> Option<Result<Record, WarcError>> {
        if self.done {
            return None;
        }
        let r = self.read_record();
        if !matches!(r, Ok(Some(_))) {
            self.done = true;
        }
        r.transpose()
    }

    fn read_record(&mut self) -> Result<Option<Record>, WarcError> {
        // Blank lines between records (the two CRLFs after each block, and any stray ones).
        let version = loop {
            match self.line()? {
                None => return Ok(None),
                Some(l) if l.trim().is_empty() => continue,
                Some(l) => break l,
            }
        };
        if !version.starts_with("WARC/") {
            return Err(WarcError::NotWarc(version.chars().take(80).collect()));
        }
        let mut rec = Record::default();
        let mut length = None;
        for _ in 0..MAX_HEADERS {
            let Some(line) = self.line()? else { return Err(WarcError::Truncated) };
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = line.split_once(':') else { continue };
            let value = value.trim().to_string();
            match name.trim().to_ascii_lowercase().as_str() {
                "warc-type" => rec.kind = value,
                "warc-target-uri" => rec.target_uri = Some(value.trim_matches(['<', '>']).to_string()),
                "warc-record-id" => rec.record_id = Some(value),
                "warc-payload-digest" => rec.digest = Some(value),
                "warc-block-digest" => {
                    rec.digest.get_or_insert(value);
                }
                "warc-date" => rec.date = Some(value),
                "content-type" => rec.content_type = Some(value),
                "content-length" => length = value.parse::<u64>().ok(),
                _ => {}
            }
        }
        let length = length.ok_or(WarcError::NoLength)?;
        if length > self.max_block {
            let skipped = std::io::copy(&mut (&mut self.input).take(length), &mut std::io::sink())?;
            if skipped < length {
                return Err(WarcError::Truncated);
            }
            rec.oversize = Some(length);
            return Ok(Some(rec));
        }
        let mut block = Vec::with_capacity(length as usize);
        (&mut self.input).take(length).read_to_end(&mut block)?;
        if (block.len() as u64) < length {
            return Err(WarcError::Truncated);
        }
        rec.block = block;
        Ok(Some(rec))
    }
}

impl<R: BufRead> Iterator for WarcReader<R> {
    type Item = Result<Record, WarcError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_record()
    }
}

/// A captured HTTP response.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    /// The `Content-Type` media type, lower-cased, without parameters.
    pub media_type: Option<String>,
    /// The `charset` parameter of `Content-Type`.
    pub charset: Option<String>,
    /// The body, with transfer and content codings removed.
    pub body: Vec<u8>,
}

/// Parse a `response` record's block: status line, headers, body. The body is de-chunked and
/// decompressed (gzip, deflate) when the headers say so; decompression stops at `max_body` bytes.
pub fn http_response(block: &[u8], max_body: usize) -> Option<HttpResponse> {
    let head_end = memchr::memmem::find(block, b"\r\n\r\n")
        .map(|k| (k, k + 4))
        .or_else(|| memchr::memmem::find(block, b"\n\n").map(|k| (k, k + 2)))?;
    let head = String::from_utf8_lossy(&block[..head_end.0]);
    let mut lines = head.lines();
    let status_line = lines.next()?;
    if !status_line.starts_with("HTTP/") {
        return None;
    }
    let status = status_line.split_whitespace().nth(1)?.parse().ok()?;
    let (mut media_type, mut charset, mut chunked, mut coding) = (None, None, false, None);
    for l in lines {
        let Some((k, v)) = l.split_once(':') else { continue };
        let v = v.trim();
        match k.trim().to_ascii_lowercase().as_str() {
            "content-type" => {
                let mut parts = v.split(';');
                media_type = parts.next().map(|m| m.trim().to_ascii_lowercase()).filter(|m| !m.is_empty());
                charset = parts
                    .filter_map(|p| p.split_once('='))
                    .find(|(k, _)| k.trim().eq_ignore_ascii_case("charset"))
                    .map(|(_, v)| v.trim().trim_matches(['"', '\'']).to_string())
                    .filter(|c| encoding_rs::Encoding::for_label(c.as_bytes()).is_some());
            }
            "transfer-encoding" => chunked = v.to_ascii_lowercase().contains("chunked"),
            "content-encoding" => coding = Some(v.to_ascii_lowercase()),
            _ => {}
        }
    }
    let raw = &block[head_end.1..];
    let body = if chunked { dechunk(raw).unwrap_or_else(|| raw.to_vec()) } else { raw.to_vec() };
    let body = match coding.as_deref() {
        Some("gzip" | "x-gzip") => inflate(flate2::read::MultiGzDecoder::new(&body[..]), max_body).unwrap_or(body),
        Some("deflate") => inflate(flate2::read::ZlibDecoder::new(&body[..]), max_body).unwrap_or(body),
        _ => body,
    };
    Some(HttpResponse { status, media_type, charset, body })
}

fn inflate(r: impl Read, max: usize) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    r.take(max as u64).read_to_end(&mut out).ok()?;
    Some(out)
}

/// Remove chunked transfer coding; `None` when the framing is broken.
fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(raw.len());
    loop {
        let eol = memchr::memchr(b'\n', raw)?;
        let size_line = std::str::from_utf8(&raw[..eol]).ok()?.trim();
        let size = usize::from_str_radix(size_line.split(';').next()?.trim(), 16).ok()?;
        raw = &raw[eol + 1..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(raw.get(..size)?);
        raw = raw.get(size..)?;
        raw = raw.strip_prefix(b"\r\n").or_else(|| raw.strip_prefix(b"\n")).unwrap_or(raw);
    }
}

/// The digest of a payload in the form WARC writers use (`sha1:` and the SHA-1 in RFC 4648 base32),
/// so pages read from files or fetched carry a digest comparable with an archive's
/// `WARC-Payload-Digest` of the same bytes.
pub fn sha1_digest(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let hash = sha1_smol::Sha1::from(bytes).digest().bytes();
    // 160 bits are exactly 32 five-bit groups: no padding.
    let mut out = String::with_capacity(37);
    out.push_str("sha1:");
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in hash {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(ALPHABET[((acc >> bits) & 31) as usize]));
        }
    }
    out
}

/// Write one WARC `response` record (for tests and for building archives from pages on disk); `id` is
/// the record's URI, e.g. `urn:uuid:…`, written in angle brackets.
pub fn write_response(out: &mut impl std::io::Write, uri: &str, http: &[u8], id: &str) -> std::io::Result<()> {
    write!(
        out,
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\
         WARC-Record-ID: <{id}>\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {}\r\n\r\n",
        http.len()
    )?;
    out.write_all(http)?;
    out.write_all(b"\r\n\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive() -> Vec<u8> {
        let mut w = Vec::new();
        w.extend_from_slice(b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 4\r\n\r\ninfo\r\n\r\n");
        let http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=GBK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>hi\r\n5\r\n</p>x\r\n0\r\n\r\n";
        write_response(&mut w, "https://ex.test/a", http, "urn:uuid:1").unwrap();
        write_response(&mut w, "https://ex.test/big", &[b'x'; 300], "urn:uuid:2").unwrap();
        w
    }

    #[test]
    fn reads_records_and_http() {
        let recs: Vec<Record> = WarcReader::new(&archive()[..], 256).map(|r| r.unwrap()).collect();
        assert_eq!(recs.len(), 3);
        assert_eq!(recs[0].kind, "warcinfo");
        assert_eq!(recs[1].target_uri.as_deref(), Some("https://ex.test/a"));
        assert_eq!(recs[1].record_id.as_deref(), Some("<urn:uuid:1>"));
        let h = http_response(&recs[1].block, 1 << 20).unwrap();
        assert_eq!((h.status, h.media_type.as_deref(), h.charset.as_deref()), (200, Some("text/html"), Some("GBK")));
        assert_eq!(h.body, b"<p>hi</p>x");
        assert_eq!(recs[2].oversize, Some(300));
        assert!(recs[2].block.is_empty());
    }

    #[test]
    fn sha1_digest_in_warc_form() {
        // SHA-1("abc") = a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d, in base32:
        assert_eq!(sha1_digest(b"abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
        assert_eq!(sha1_digest(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }

    #[test]
    fn gzip_members_and_broken_archives() {
        use std::io::Write;
        let mut gz = Vec::new();
        for chunk in [&archive()[..], &archive()[..]] {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(chunk).unwrap();
            gz.extend(e.finish().unwrap());
        }
        let r = BufReader::new(flate2::bufread::MultiGzDecoder::new(&gz[..]));
        assert_eq!(WarcReader::new(r, 1 << 20).count(), 6);
        let cut = archive();
        let results: Vec<_> = WarcReader::new(&cut[..cut.len() - 30], 1 << 20).collect();
        assert!(results.last().unwrap().is_err());
        assert!(WarcReader::new(&b"<html>not warc"[..], 10).next().unwrap().is_err());
    }
}
