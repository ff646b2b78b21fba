//! `pith._native`: the Rust side of pith's Python package.
//!
//! The package `pith` (python/pith/) re-exports what this module defines and adds what is better
//! written in Python (the exception classes, the datatrove step). The files here, from the top:
//!
//! | file | what it holds |
//! |---|---|
//! | `extractor.rs` | `extract`, `extract_many`, `Extractor`: the calls Python makes |
//! | `warc.rs` | `read_warc` and its iterator |
//! | `options.rs` | the keyword arguments, checked, as `pith::Options` |
//! | `pages.rs` | `bytes` / `str` pages as bytes and a charset |
//! | `engine.rs` | the shared default engine; engines from models, params and site rules |
//! | `run.rs` | extraction without the GIL: one page, or many on threads; panics caught |
//! | `sites.rs` | the site templates an `Extractor` learns as it extracts |
//! | `to_python.rs` | results as dicts |
//! | `errors.rs` | failures as `pith.PithError` subclasses |

/// Rust's allocations in the extension go to jemalloc, as in the `pith` binary: an extraction makes
/// tens of thousands of small allocations, and the C library's malloc made every call about 8% slower
/// than the binary's. Objects handed to Python are copied into Python's own memory first.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod engine;
mod errors;
mod extractor;
mod options;
mod pages;
mod run;
mod sites;
mod to_python;
mod warc;

/// pith's extraction engine, compiled from Rust. Import `pith`, not this module.
#[pyo3::pymodule(name = "_native")]
mod native {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::extractor::{Extractor, extract, extract_many};
    #[pymodule_export]
    use crate::warc::{WarcRecords, read_warc};

    /// The package's version.
    #[pymodule_export]
    const VERSION: &str = env!("CARGO_PKG_VERSION");

    /// The names `formats` accepts and the algorithms' names, as module constants.
    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("FORMATS", pith::Format::ALL.map(pith::Format::name).to_vec())?;
        m.add("ALGORITHMS", pith::algorithms::ALGORITHMS.iter().map(|a| a.name()).collect::<Vec<_>>())
    }
}
