//! The unit of a batch: a page read from a file, an archive or a fetch, or a record that could not be
//! read, each named by where it came from ([`Origin`]), which every output line starts with.

use std::path::Path;

use serde::Serialize;

/// Where a page came from: the fields every output line starts with.
#[derive(Debug, Clone, Serialize)]
pub struct Origin {
    /// The file or archive it was read from, or `urls` for fetched pages.
    pub file: String,
    /// The page's address: the record's `WARC-Target-URI`, the URL fetched, or the file's path.
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

impl Origin {
    /// A page file, or an archive as a whole: the path is both its file and its address.
    pub fn file(path: &Path) -> Origin {
        let name = path.display().to_string();
        Origin { file: name.clone(), uri: name, record_id: None, digest: None }
    }

    /// A page fetched from `url`.
    pub fn fetched(url: &str) -> Origin {
        Origin { file: "urls".into(), uri: url.to_string(), record_id: None, digest: None }
    }

    /// The key a resumed run recognises the record by: its `WARC-Record-ID`, else its file and address.
    pub fn key(&self) -> String {
        key(&self.file, &self.uri, self.record_id.as_deref())
    }
}

/// [`Origin::key`] from the fields of a line already written.
pub(super) fn key(file: &str, uri: &str, record_id: Option<&str>) -> String {
    record_id.map_or_else(|| format!("{file}\t{uri}"), str::to_string)
}

/// Why a record or a fetch gave no page: a short kind (`too_large`, `origin_status`, `warc`...) and
/// what happened, written as an error line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub kind: &'static str,
    pub message: String,
}

impl Failure {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Failure {
        Failure { kind, message: message.into() }
    }
}

/// One unit of work.
#[derive(Debug)]
pub enum Item {
    /// A page to extract: its bytes, its address (for site templates and links) and the charset its
    /// HTTP header declared.
    Page { origin: Origin, bytes: Vec<u8>, url: Option<String>, charset: Option<String> },
    /// A record that could not be read or fetched, or holds no usable page: written as an error line.
    Failed { origin: Origin, failure: Failure },
}

impl Item {
    pub fn origin(&self) -> &Origin {
        match self {
            Item::Page { origin, .. } | Item::Failed { origin, .. } => origin,
        }
    }
}

/// What a run skipped without writing a line, for its summary.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Records a previous run already wrote (resuming).
    pub skipped_done: u64,
    /// Responses and resources that are not HTML (images, PDFs, scripts).
    pub not_html: u64,
    /// WARC records that hold no page: `request`, `metadata`, `warcinfo`, `revisit`...
    pub other_records: u64,
}
