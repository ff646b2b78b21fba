//! pith: main-content extraction from web pages.
//!
//! The library is a pipeline of named stages; [`Engine::extract`] runs them in order
//! (`engine/` says which file holds each step):
//!
//! | stage | folder | what it does |
//! |---|---|---|
//! | 1 | `text` (`decode`, and `metadata::page_meta`) | bytes → text: BOM, caller's charset, `<meta>`, then detection on a bounded prefix; what the page declares (`og:type`, JSON-LD) when the algorithm reads it |
//! | 2 | `text` (`prestrip`) | one streaming pass removing scripts, styles and other non-content elements (`text::hidden`) |
//! | 3 | [`dom`] | html5ever's tree builder fed by pith's tokenizer, copied into a flat arena with every node's statistics |
//! | 4 | [`algorithms`] | the seed papers' methods, one module each, and `auto`, which combines them; chosen by [`Algorithm`] |
//! | 5 | [`output`] (and `metadata`) | the result: text, HTML, Markdown, the block report, the page's metadata |
//!
//! The folders form layers, each importing only from its own and those below (`tests/layers.rs`
//! checks it; README's "Layout" draws the map): `error`; `hash`, `net`; [`learn`] (boosted trees);
//! [`text`]; [`dom`]; `metadata`; [`algorithms`] (the contract under the seed methods under `auto`);
//! [`output`]; [`engine`] (the stages in order, the limits, the models); [`browser`] and [`fetch`];
//! [`lab`] (eval, train, bench, adversarial); [`batch`]; [`configuration`]; [`server`]. The `pith`
//! binary's command line sits on top.
//!
//! ```
//! let engine = pith::Engine::with_defaults().unwrap();
//! let page = b"<html><body><nav><a href=/>Home</a></nav><article><p>Main text of the page, \
//!              long enough to matter, with a sentence or two.</p></article></body></html>";
//! let result = engine.extract(&pith::Request::new(page)).unwrap();
//! assert!(result.content.text.contains("Main text of the page"));
//! ```

pub mod algorithms;
pub mod batch;
pub mod browser;
pub mod configuration;
pub mod dom;
pub mod engine;
mod error;
pub mod fetch;
mod hash;
pub mod lab;
pub mod learn;
mod metadata;
mod net;
pub mod output;
pub mod server;
pub mod site;
pub mod text;

pub use algorithms::Algorithm;
pub use algorithms::contract::PageType;
pub use engine::{Engine, Format, Limits, Options, Page, Preparation, Request, UnknownFormat, check_input};
pub use error::Error;
pub use output::{Extraction, PageTypeOut};
