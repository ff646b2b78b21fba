//! pith's errors as Python exceptions.
//!
//! The exception classes are written in Python (`pith/errors.py`): there they carry docstrings, a
//! `code` attribute and a second standard base (`ValueError`, `OSError`) that an `abi3` extension
//! cannot give a class of its own before Python 3.12. This file only asks that module for the
//! exception that fits a code, so the mapping from code to class lives in one place.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// Codes pith's own `Error::code()` does not have: arguments the Python API refuses before any page
/// is read, a broken archive, and a panic caught inside the engine.
pub const BAD_FORMATS: &str = "bad-formats";
pub const INVALID_ARGUMENT: &str = "invalid-argument";
pub const WARC: &str = "warc";
pub const PANIC: &str = "panic";

/// A failure as plain data, made where Python cannot be touched (a worker thread): the exception
/// it becomes, or the `error` entry of `extract_many`'s answer for that page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: String,
    /// What the CLI prints after "pith: " for the same error.
    pub message: String,
}

impl Failure {
    pub fn new(code: &str, message: impl Into<String>) -> Failure {
        Failure { code: code.to_string(), message: message.into() }
    }

    /// The exception: `pith.errors.error_for(code, message)`, a `PithError` subclass.
    pub fn to_pyerr(&self, py: Python<'_>) -> PyErr {
        static ERROR_FOR: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let made = ERROR_FOR
            .import(py, "pith.errors", "error_for")
            .and_then(|make| make.call1((self.code.as_str(), self.message.as_str())));
        match made {
            Ok(exception) => PyErr::from_value(exception),
            // The errors module could not be imported or failed: that error says more than ours.
            Err(e) => e,
        }
    }
}

impl From<&pith::Error> for Failure {
    fn from(e: &pith::Error) -> Failure {
        Failure::new(e.code(), e.to_string())
    }
}

impl From<pith::Error> for Failure {
    fn from(e: pith::Error) -> Failure {
        Failure::from(&e)
    }
}

/// Raise `code` with `message`.
pub fn raise(py: Python<'_>, code: &str, message: impl Into<String>) -> PyErr {
    Failure::new(code, message).to_pyerr(py)
}

/// Raise one of pith's errors.
pub fn pith_error(py: Python<'_>, e: &pith::Error) -> PyErr {
    Failure::from(e).to_pyerr(py)
}

/// The text of a caught panic's payload (what `panic!` was given, when it was a string).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    format!("internal error (a panic inside pith): {what}")
}
