//! The JSON Lines a batch writes, one per record: the extraction result or the error, each after the
//! record's [`Origin`]; and resuming from a file of them.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use serde::Serialize;

use super::item::{Failure, Item, Origin, key};
use super::warc::sha1_digest;
use crate::engine::{Engine, Options, Request};
use crate::error::Error;
use crate::output::Extraction;
use crate::site::{SiteStore, registered_domain};

#[derive(Serialize)]
struct ErrorLine<'a> {
    #[serde(flatten)]
    origin: &'a Origin,
    error: ErrorBody<'a>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    kind: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct ResultLine<'a> {
    #[serde(flatten)]
    origin: &'a Origin,
    #[serde(flatten)]
    result: &'a Extraction,
}

/// One line, ended: a page extracted with `options` (and its site's template from `sites`, when it
/// has one), or the item's failure. The flag is false for an error line. A page without a digest gets
/// the `sha1:` digest of its bytes, as WARC writers form it; a panic inside the engine is this
/// record's error, not the run's end.
pub fn line(engine: &Engine, item: Item, options: Options, sites: Option<&SiteStore>) -> (Vec<u8>, bool) {
    match item {
        Item::Failed { origin, failure } => error_line(&origin, &failure),
        Item::Page { mut origin, bytes, url, charset } => {
            if origin.digest.is_none() {
                origin.digest = Some(sha1_digest(&bytes));
            }
            let site = sites.zip(url.as_deref().and_then(registered_domain));
            let req = Request {
                url: url.as_deref(),
                charset: charset.as_deref(),
                site: site.and_then(|(t, site)| t.get(&site)),
                ..Request::with_options(&bytes, options)
            };
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.extract(&req))) {
                Ok(Ok(r)) => {
                    let mut l = serde_json::to_vec(&ResultLine { origin: &origin, result: &r }).unwrap_or_default();
                    l.push(b'\n');
                    (l, true)
                }
                Ok(Err(e)) => error_line(&origin, &Failure::new("extract", e.to_string())),
                Err(_) => error_line(&origin, &Failure::new("panic", "the extraction panicked")),
            }
        }
    }
}

fn error_line(origin: &Origin, failure: &Failure) -> (Vec<u8>, bool) {
    let error = ErrorBody { kind: failure.kind, message: &failure.message };
    let mut l = serde_json::to_vec(&ErrorLine { origin, error }).unwrap_or_default();
    l.push(b'\n');
    (l, false)
}

/// Keys ([`Origin::key`]) of the records a previous run wrote to `path` (none when it does not exist
/// yet). A line cut short by an interrupted run does not count: its record is done again.
pub fn done_keys(path: &Path) -> Result<HashSet<String>, Error> {
    let mut keys = HashSet::new();
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(keys),
        Err(e) => return Err(e.into()),
    };
    #[derive(serde::Deserialize)]
    struct Key {
        file: String,
        uri: String,
        record_id: Option<String>,
    }
    for line in BufReader::new(f).lines() {
        if let Ok(k) = serde_json::from_str::<Key>(&line?) {
            keys.insert(key(&k.file, &k.uri, k.record_id.as_deref()));
        }
    }
    Ok(keys)
}

/// Open the output for appending. A run that was killed mid-line left a last line without its newline:
/// end it, so the first new line starts on a line of its own (the broken one is ignored on resume).
pub fn open_for_append(p: &Path) -> Result<std::fs::File, Error> {
    use std::io::{Read, Seek, SeekFrom};
    let named = |e: std::io::Error| std::io::Error::new(e.kind(), format!("cannot open {}: {e}", p.display()));
    let mut f = std::fs::OpenOptions::new().create(true).read(true).append(true).open(p).map_err(named)?;
    let len = f.metadata().map_err(named)?.len();
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::Start(len - 1)).map_err(named)?;
        f.read_exact(&mut last).map_err(named)?;
        if last[0] != b'\n' {
            f.write_all(b"\n").map_err(named)?;
        }
    }
    Ok(f)
}
