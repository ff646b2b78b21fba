//! pith: main-content extraction from web pages.
//!
//! The library is a pipeline of named stages; [`Engine::extract`] runs them in order
//! (`engine/` says which file holds each step):
//!
//! | stage | folder | what it does |
//! |---|---|---|
//! | 1 | `text` (`decode`, and `metadata::page_meta`) | bytes → text: BOM, caller's charset, `<meta>`, then detection on a bounded prefix; what the page declares (`og:type`, JSON-LD) when the algorithm reads it |
//! | 2 | `text` (`prestrip`) | one streaming pass removing scripts, styles and other non-content elements (`text::hidden`) |
//! | 3 | `dom` | html5ever's tree builder fed by pith's tokenizer, copied into a flat arena with every node's statistics |
//! | 4 | [`algorithms`] | the seed papers' methods, one module each, and `auto`, which combines them; chosen by [`Algorithm`] |
//! | 5 | `output` (and `metadata`) | the result: text, HTML, Markdown, the block report, the page's metadata |
//!
//! The folders form layers, each importing only from its own and those below (`tests/layers.rs`
//! checks it; README's "Layout" draws the map): `error`; `hash`, `net`; `learn` (boosted trees) and
//! [`site`] (a site's template: what its pages repeat); `text`; `dom`; `metadata`; [`algorithms`] (the
//! contract under the seed methods under `auto`); `output`; `engine` (the stages in order, the limits,
//! the models); `browser` and `fetch`; `lab` (eval, train, bench, adversarial); [`batch`];
//! `configuration`; `server`. The `pith` binary's command line sits on top.
//!
//! The crate root is the API: the engine and what a call takes and gives ([`Engine`], [`Request`],
//! [`Options`], [`Format`], [`Extraction`], [`Error`]), the algorithms and their parameters
//! ([`algorithms`], [`Params`]), the site model ([`site`]), batch reading of files and crawl archives
//! ([`batch`]), and the page layout a caller who renders pages hands over ([`layout`]). The service
//! (`server`, with `configuration`, `fetch` and `browser`) and the lab (`lab`) are the features `server`
//! and `lab`, which the `pith` binary turns on (feature `cli`, the default); without them the library is
//! the engine alone, as the Python package links it.
//!
//! ```
//! let engine = pith::Engine::with_defaults().unwrap();
//! let page = b"<html><body><nav><a href=/>Home</a></nav><article><p>Main text of the page, \
//!              long enough to matter, with a sentence or two.</p></article></body></html>";
//! let result = engine.extract(&pith::Request::new(page)).unwrap();
//! assert!(result.content.text.contains("Main text of the page"));
//! ```

// Without the service and the lab, what only they use (the browser's stamped parse, the trees'
// training, a few of the lab's helpers) has no user in this build. The default build, where every item
// has one, is the one that looks for dead code.
#![cfg_attr(not(all(feature = "server", feature = "lab")), allow(dead_code, unused_imports))]

pub mod algorithms;
pub mod batch;
#[cfg(feature = "server")]
pub mod browser;
#[cfg(feature = "server")]
pub mod configuration;
mod dom;
mod engine;
mod error;
#[cfg(feature = "server")]
pub mod fetch;
mod hash;
#[cfg(feature = "lab")]
pub mod lab;
mod learn;
mod metadata;
#[cfg(feature = "server")]
mod net;
mod output;
#[cfg(feature = "server")]
pub mod server;
pub mod site;
mod text;

pub use algorithms::auto::NoArticleText;
pub use algorithms::contract::PageType;
pub use algorithms::{ALGORITHMS, Algorithm, Params};
pub use dom::layout;
pub use engine::{Engine, Format, Limits, Options, Page, Preparation, Request, UnknownFormat, check_input};
pub use error::Error;
pub use output::fingerprint::fingerprint;
pub use output::markdown::MarkdownOptions;
pub use output::{Explain, Extraction, PageTypeOut};
pub use text::decode::lookup as lookup_charset;

/// Not the library's API: the stages' parts the project's own tests, benches and examples look at
/// directly (pith's tokenizer against html5ever's, the decoder and the pre-strip pass on their own).
/// Hidden from the documentation, and free to change.
#[doc(hidden)]
pub mod internals {
    pub use crate::dom::tokenizers_agree;
    pub use crate::text::decode::decode;
    pub use crate::text::prestrip::{UNBOUNDED, prestrip};
}
