//! `pith.read_warc`: an archive's HTML pages, one dict per record, read by pith's own streaming
//! reader (`pith::batch::warc`), so memory stays at one record whatever the archive's size.
//!
//! Which records are pages, and which of the others are failures, is `pith batch`'s rule
//! (`pith::batch::classify`, `RecordPage::failure`): `response` records whose HTTP answer is 2xx with
//! an HTML media type (or none), and `resource` records with an HTML `Content-Type` (or none), are
//! pages; responses over the size limit, without an HTTP answer or outside 2xx are the failures
//! `pith batch` writes error lines for (yielded with `failures=True`, else counted like the rest).
//! The counts are attributes of the iterator.

use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Mutex;

use pith::batch::warc::{self, Record, WarcReader};
use pith::batch::{Failure as Refused, MAX_RECORD_BYTES, Page, RecordPage, classify};
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::errors::{Failure, WARC};

/// Iterate over the HTML pages of a WARC or WARC.gz archive (gzip is recognised by content, one
/// member per record or the whole file).
///
/// Each item is a dict:
///
///   url           WARC-Target-URI (str or None)
///   record_id     WARC-Record-ID, e.g. "<urn:uuid:...>" (str or None)
///   date          WARC-Date (str or None)
///   digest        WARC-Payload-Digest, else WARC-Block-Digest (str or None)
///   kind          "response" or "resource"
///   status        the HTTP status (int; None for a resource record)
///   content_type  the HTTP Content-Type's media type, lower-cased (a resource: the record's
///                 Content-Type); None when absent
///   charset       the charset parameter of the HTTP Content-Type, when pith knows the label
///   html          the page's bytes, chunked and gzip/deflate coding removed
///
/// As `pith batch` does, only response records with a 2xx status and an HTML media type (text/html,
/// application/xhtml+xml, or none given) and HTML resource records are pages; the iterator counts
/// what it skipped in `not_html`, `other_records` (request, metadata, warcinfo...), `not_ok` (non-2xx
/// responses and records holding no HTTP response) and `oversize` (records over max_record_bytes,
/// skipped unread).
///
/// With failures=True, the records `pith batch` writes an error line for (not_ok and oversize ones)
/// are yielded too, with html None and an "error" entry: {"kind": ..., "message": ...}, the kind and
/// message of pith batch's line ("origin_status", "http", "too_large").
///
/// Raises WarcError (a PithError and an OSError) when the file cannot be opened, and from the
/// iteration when the archive is cut short or is not a WARC; the pages before it were yielded.
///
///     >>> records = list(pith.read_warc("crawl.warc.gz"))
///     >>> results = pith.extract_many([r["html"] for r in records], urls=[r["url"] for r in records],
///     ...                             charsets=[r["charset"] for r in records])
#[pyfunction]
#[pyo3(signature = (path, *, max_record_bytes=MAX_RECORD_BYTES, failures=false))]
pub fn read_warc(py: Python<'_>, path: PathBuf, max_record_bytes: u64, failures: bool) -> PyResult<WarcRecords> {
    let reader = py
        .detach(|| warc::open(&path, max_record_bytes))
        .map_err(|e| Failure::new(WARC, format!("{}: {e}", path.display())).to_pyerr(py))?;
    let state = State { reader: Some(reader), counts: Counts::default(), max_record_bytes, failures };
    Ok(WarcRecords { state: Mutex::new(state) })
}

/// The iterator `read_warc` returns. Thread-safe: threads calling `next` on it get distinct records.
#[pyclass(frozen, module = "pith")]
pub struct WarcRecords {
    state: Mutex<State>,
}

struct State {
    /// `None` once the archive has ended or failed.
    reader: Option<WarcReader<Box<dyn BufRead + Send>>>,
    counts: Counts,
    max_record_bytes: u64,
    /// Yield the records `pith batch` reports as failures.
    failures: bool,
}

#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    not_html: u64,
    other_records: u64,
    not_ok: u64,
    oversize: u64,
}

/// A page found in a record, or a failure it was refused for, before it becomes a dict: the record's
/// headers and what it held.
struct Found {
    record: Record,
    held: Held,
}

enum Held {
    Page(Page),
    Refused { status: Option<u16>, failure: Refused },
}

#[pymethods]
impl WarcRecords {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        // Reading and gunzipping happen without the GIL; the lock is taken there too, so a thread
        // waiting for it does not hold the GIL either.
        let next = py.detach(|| match self.state.lock() {
            Ok(mut state) => state.next_page(),
            Err(_) => Err(Failure::new(WARC, "a thread reading this archive failed")),
        });
        match next {
            Ok(Some(found)) => found.into_dict(py),
            Ok(None) => Err(PyStopIteration::new_err(())),
            Err(failure) => Err(failure.to_pyerr(py)),
        }
    }

    /// Response and resource records whose payload is not HTML (images, scripts, PDFs...).
    #[getter]
    fn not_html(&self) -> u64 {
        self.counts().not_html
    }

    /// Records that hold no page: request, metadata, warcinfo, revisit...
    #[getter]
    fn other_records(&self) -> u64 {
        self.counts().other_records
    }

    /// HTML responses with a status outside 2xx, and response records with no HTTP response in them.
    #[getter]
    fn not_ok(&self) -> u64 {
        self.counts().not_ok
    }

    /// Records over max_record_bytes, skipped without being read.
    #[getter]
    fn oversize(&self) -> u64 {
        self.counts().oversize
    }
}

impl WarcRecords {
    fn counts(&self) -> Counts {
        self.state.lock().map(|s| s.counts).unwrap_or_default()
    }
}

impl State {
    /// The next page, `None` at the end. A read error ends the archive (its framing is lost).
    fn next_page(&mut self) -> Result<Option<Found>, Failure> {
        loop {
            let Some(reader) = self.reader.as_mut() else { return Ok(None) };
            let record = match reader.next_record() {
                None => {
                    self.reader = None;
                    return Ok(None);
                }
                Some(Err(e)) => {
                    self.reader = None;
                    return Err(Failure::new(WARC, e.to_string()));
                }
                Some(Ok(record)) => record,
            };
            if let Some(found) = self.page_in(record) {
                return Ok(Some(found));
            }
        }
    }

    /// The page a record holds, or the failure it is refused for when those are asked for; `None`
    /// (counted) otherwise.
    fn page_in(&mut self, mut record: Record) -> Option<Found> {
        let refused = match classify(&mut record, self.max_record_bytes) {
            RecordPage::Page(page) => return Some(Found { record, held: Held::Page(page) }),
            RecordPage::Other => {
                self.counts.other_records += 1;
                return None;
            }
            RecordPage::NotHtml => {
                self.counts.not_html += 1;
                return None;
            }
            oversize @ RecordPage::Oversize(_) => {
                self.counts.oversize += 1;
                oversize
            }
            not_ok @ (RecordPage::NoResponse | RecordPage::NotOk(_)) => {
                self.counts.not_ok += 1;
                not_ok
            }
        };
        let status = if let RecordPage::NotOk(status) = refused { Some(status) } else { None };
        let failure = refused.failure().filter(|_| self.failures)?;
        Some(Found { record, held: Held::Refused { status, failure } })
    }
}

impl Found {
    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("url", self.record.target_uri)?;
        d.set_item("record_id", self.record.record_id)?;
        d.set_item("date", self.record.date)?;
        d.set_item("digest", self.record.digest)?;
        d.set_item("kind", self.record.kind)?;
        match self.held {
            Held::Page(page) => {
                d.set_item("status", page.status)?;
                d.set_item("content_type", page.media_type)?;
                d.set_item("charset", page.charset)?;
                d.set_item("html", PyBytes::new(py, &page.body))?;
            }
            Held::Refused { status, failure } => {
                d.set_item("status", status)?;
                d.set_item("content_type", None::<String>)?;
                d.set_item("charset", None::<String>)?;
                d.set_item("html", None::<Vec<u8>>)?;
                let error = PyDict::new(py);
                error.set_item("kind", failure.kind)?;
                error.set_item("message", failure.message)?;
                d.set_item("error", error)?;
            }
        }
        Ok(d)
    }
}
