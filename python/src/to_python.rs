//! Answers into Python objects.
//!
//! A result is the JSON `pith extract --format json` prints, parsed by the standard library's `json`
//! module: the dict then has exactly the CLI's keys and values (floats round-trip through their
//! shortest decimal form), and the C parser is as fast as walking a `serde_json::Value` from Rust
//! would be (measured in docs/PERFORMANCE.md, "Python package").

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
