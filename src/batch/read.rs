//! Reading a batch's inputs: files and directories of pages, and crawl archives record by record,
//! turned into [`Item`]s in input order; records a previous run already wrote are skipped here.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::item::{Counts, Failure, Item, Origin};
use super::record::{RecordPage, classify};
use super::warc::{Record, looks_like_warc, open};

/// Where items go: a sender that skips records a previous run already wrote (by [`Origin::key`]) and
/// counts what it skips. `send` answers false once the receiving end is gone.
pub struct Feed<'a> {
    done: &'a HashSet<String>,
    send: &'a mut dyn FnMut(Item) -> bool,
    pub counts: Counts,
}

impl<'a> Feed<'a> {
    pub fn new(done: &'a HashSet<String>, send: &'a mut dyn FnMut(Item) -> bool) -> Feed<'a> {
        Feed { done, send, counts: Counts::default() }
    }

    /// Whether a previous run wrote this record's line already.
    pub fn is_done(&self, origin: &Origin) -> bool {
        self.done.contains(&origin.key())
    }

    /// Send `item` unless it is done; false when the receiver is gone.
    pub fn send(&mut self, item: Item) -> bool {
        if self.is_done(item.origin()) {
            self.counts.skipped_done += 1;
            return true;
        }
        (self.send)(item)
    }
}

/// Send the pages of every file in order: a page file as one item, an archive's records one by one.
/// Stops early when the receiver is gone.
pub fn read_files(files: &[PathBuf], max_record_bytes: u64, feed: &mut Feed<'_>) {
    for file in files {
        let more = if looks_like_warc(file) {
            read_archive(file, max_record_bytes, feed)
        } else {
            let origin = Origin::file(file);
            feed.send(match read_page(file, max_record_bytes) {
                Ok(bytes) => Item::Page { origin, bytes, url: None, charset: None },
                Err(failure) => Item::Failed { origin, failure },
            })
        };
        if !more {
            return;
        }
    }
}

/// A page file's bytes, gunzipped when they are gzip (saved crawls often are), at most `max` of them.
pub fn read_page(file: &Path, max: u64) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    let too_large = |n: u64| Failure::new("too_large", format!("{n} bytes is over --max-record-bytes"));
    let read = |e: std::io::Error| Failure::new("read", e.to_string());
    let f = std::fs::File::open(file).map_err(read)?;
    let len = f.metadata().map_err(read)?.len();
    if len > max {
        return Err(too_large(len));
    }
    let mut r = BufReader::new(f);
    let gz = r.fill_buf().map_err(read)?.starts_with(&[0x1F, 0x8B]);
    let mut bytes = Vec::new();
    if gz {
        flate2::bufread::MultiGzDecoder::new(r).take(max + 1).read_to_end(&mut bytes).map_err(read)?;
    } else {
        r.read_to_end(&mut bytes).map_err(read)?;
    }
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Send an archive's pages ([`classify`] decides which records are pages, [`RecordPage::failure`]
/// which of the others are reported); the rest are counted. An archive that cannot be opened, or
/// whose framing breaks, ends with one failure. False when the receiver is gone.
fn read_archive(file: &Path, max: u64, feed: &mut Feed<'_>) -> bool {
    let name = file.display().to_string();
    let reader = match open(file, max) {
        Ok(r) => r,
        Err(e) => {
            return feed
                .send(Item::Failed { origin: Origin::file(file), failure: Failure::new("warc", e.to_string()) });
        }
    };
    for (n, rec) in reader.enumerate() {
        let mut rec = match rec {
            Ok(r) => r,
            Err(e) => {
                let origin = Origin { uri: format!("{name}#record-{n}"), ..Origin::file(file) };
                return feed.send(Item::Failed { origin, failure: Failure::new("warc", e.to_string()) });
            }
        };
        let origin = |rec: &Record| Origin {
            file: name.clone(),
            uri: rec.target_uri.clone().unwrap_or_else(|| format!("{name}#record-{n}")),
            record_id: rec.record_id.clone(),
            digest: rec.digest.clone(),
        };
        let item = match classify(&mut rec, max) {
            RecordPage::Page(page) => {
                Item::Page { origin: origin(&rec), bytes: page.body, url: rec.target_uri, charset: page.charset }
            }
            other => match other.failure() {
                Some(failure) => Item::Failed { origin: origin(&rec), failure },
                None => {
                    match other {
                        RecordPage::NotHtml => feed.counts.not_html += 1,
                        _ => feed.counts.other_records += 1,
                    }
                    continue;
                }
            },
        };
        if !feed.send(item) {
            return false;
        }
    }
    true
}

/// A path's files: itself, or every file under a directory, sorted (hidden files left out).
pub fn files_under(p: &Path) -> Vec<PathBuf> {
    if !p.is_dir() {
        return vec![p.to_path_buf()];
    }
    let mut out = Vec::new();
    let mut todo = vec![p.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The lines of a list file that name something: trimmed, without blank lines and `#` comments.
pub fn list_lines(s: &str) -> impl Iterator<Item = &str> {
    s.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}
