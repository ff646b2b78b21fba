//! pith: main-content extraction from web pages.
//!
//! The library is a pipeline of named stages, each a module with one job:
//!
//! | stage | module | what it does |
//! |---|---|---|
//! | 1 | [`decode`] | bytes → text: BOM, caller's charset, `<meta>`, then detection on a bounded prefix |
//! | 2 | [`prestrip`] | one streaming lol_html pass removing scripts, styles, hidden and non-content elements |
//! | 3 | [`dom`] | html5ever parse copied into a flat arena with every node's statistics |
//! | 4 | [`algorithms`] | the seed papers' methods, one module each, selectable by name |
//! | 4' | [`combine`] | `auto`, the default combination |
//! | 5 | [`output`] | the result type and its text/HTML renderers |
//!
//! [`Engine`] runs them; the `pith` binary's CLI and HTTP service sit on top.
//!
//! ```
//! let engine = pith::Engine::with_defaults().unwrap();
//! let page = b"<html><body><nav><a href=/>Home</a></nav><article><p>Main text of the page, \
//!              long enough to matter, with a sentence or two.</p></article></body></html>";
//! let result = engine.extract(&pith::Request::new(page)).unwrap();
//! assert!(result.content.text.contains("Main text of the page"));
//! ```

pub mod algorithms;
pub mod article;
pub mod bench;
pub mod combine;
pub mod configuration;
pub mod dataset;
pub mod decode;
pub mod dom;
mod error;
pub mod eval;
pub mod gbdt;
pub mod meta;
pub mod output;
mod pipeline;
pub mod prestrip;
pub mod server;
pub mod tokens;
pub mod train;

pub use error::Error;
pub use output::Extraction;
pub use pipeline::{
    Engine, Limits, Request, check_input, embedded_bayes, embedded_block_model, parse_bayes, parse_block_model,
};
