//! Answers into Python objects.
//!
//! A result is the JSON `pith extract --format json` prints, parsed by the standard library's `json`
//! module: the dict then has the CLI's keys, in the CLI's order, and its values (floats round-trip
//! through their shortest decimal form) by construction. The price is the parse: 65 µs for a median
//! dataset page's result, most of it the hundred-odd floats of the page signals (docs/PERFORMANCE.md,
//! "Python package"); building the dict from the `Extraction` directly would save most of that.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

use crate::errors::Failure;
use crate::run::Answer;

/// `json.loads(text)`.
pub fn parsed<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    LOADS.import(py, "json", "loads")?.call1((text,))
}

/// One page of `extract_many`'s answer: the result dict, or `{"url": ..., "error": {"code": ...,
/// "message": ...}}` for a page that failed.
pub fn answer<'py>(py: Python<'py>, answer: &Answer, url: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    match answer {
        Ok(json) => parsed(py, json),
        Err(failure) => error_entry(py, failure, url).map(Bound::into_any),
    }
}

fn error_entry<'py>(py: Python<'py>, failure: &Failure, url: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    let error = PyDict::new(py);
    error.set_item("code", failure.code.as_str())?;
    error.set_item("message", failure.message.as_str())?;
    let entry = PyDict::new(py);
    entry.set_item("url", url)?;
    entry.set_item("error", error)?;
    Ok(entry)
}
