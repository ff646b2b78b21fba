//! Pages as Python hands them over (`bytes`, `str`, `bytearray`), read into what the engine takes:
//! bytes and the charset to decode them with.
//!
//! `bytes` are borrowed, not copied: the objects are immutable and the caller's references keep them
//! alive while the extraction runs without the GIL. A `str` is already text, so it is encoded as UTF-8
//! and decoded as UTF-8 (no detection can then guess wrong); `bytes` go through pith's detection
//! (BOM, `<meta>`, statistics) as a file given to `pith extract` does.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// One page, ready for a worker thread.
pub struct Page<'a> {
    pub bytes: Cow<'a, [u8]>,
    pub url: Option<String>,
    /// The label to decode with; `None` lets pith detect it.
    pub charset: Option<String>,
}

/// The bytes of `html`, and whether it was a `str` (then its charset is UTF-8).
pub fn page_bytes<'a>(html: &'a Bound<'_, PyAny>) -> PyResult<(Cow<'a, [u8]>, bool)> {
    if let Ok(b) = html.cast::<PyBytes>() {
        return Ok((Cow::Borrowed(b.as_bytes()), false));
    }
    if let Ok(s) = html.cast::<PyString>() {
        let bytes = match s.to_cow()? {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        };
        return Ok((bytes, true));
    }
    if let Ok(b) = html.cast::<PyByteArray>() {
        // Mutable: copied, so another thread cannot change it under the extraction.
        return Ok((Cow::Owned(b.to_vec()), false));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!("a page must be bytes or str, not {}", html.get_type().name()?)))
}

/// A page from its Python object, its address and charset label: a `str` decodes as UTF-8 unless
/// the caller named another charset.
pub fn page<'a>(html: &'a Bound<'_, PyAny>, url: Option<String>, charset: Option<String>) -> PyResult<Page<'a>> {
    let (bytes, is_str) = page_bytes(html)?;
    let charset = charset.or_else(|| is_str.then(|| "utf-8".to_string()));
    Ok(Page { bytes, url, charset })
}
