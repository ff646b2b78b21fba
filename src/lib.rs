//! pith: main-content extraction from web pages.
//!
//! The library is a pipeline of named stages, each a module with one job; [`Engine::extract`] runs
//! them in order (`prepare` = stages 1–3, `score` = 4, `output` = 5):
//!
//! | stage | module | what it does |
//! |---|---|---|
//! | 1 | [`decode`] (and [`meta`]) | bytes → text: BOM, caller's charset, `<meta>`, then detection on a bounded prefix; the page's declarations (`og:type`, JSON-LD) when the algorithm reads them |
//! | 2 | [`prestrip`] | one streaming lol_html pass removing scripts, styles and other non-content elements ([`hidden`]) |
//! | 3 | [`dom`] | html5ever parse copied into a flat arena with every node's statistics |
//! | 4 | [`algorithms`] | the seed papers' methods, one module each, and `auto` ([`algorithms::auto`]), which combines them; selected by [`Algorithm`] |
//! | 5 | [`output`] | the result type and its text/HTML renderers |
//!
//! Underneath the algorithms lies [`contract`]: what every algorithm is given and answers. The trained
//! models are loaded in one place, [`models`]. Above the engine sit [`train`], [`eval`] and [`bench`](mod@bench),
//! and the `pith` binary's HTTP service ([`server`]) and CLI, which share their settings ([`configuration`]). A module imports only from the layers
//! below its own (README, "Layout", lists them).
//!
//! ```
//! let engine = pith::Engine::with_defaults().unwrap();
//! let page = b"<html><body><nav><a href=/>Home</a></nav><article><p>Main text of the page, \
//!              long enough to matter, with a sentence or two.</p></article></body></html>";
//! let result = engine.extract(&pith::Request::new(page)).unwrap();
//! assert!(result.content.text.contains("Main text of the page"));
//! ```

pub mod adversarial;
pub mod algorithms;
pub mod bench;
pub mod configuration;
pub mod contract;
pub mod dataset;
pub mod decode;
pub mod dom;
mod error;
pub mod eval;
pub mod explain_page;
pub mod gbdt;
pub mod hash;
pub mod hidden;
pub mod layout;
pub mod markdown;
mod memo;
pub mod meta;
pub mod metadata;
pub mod models;
pub mod net;
pub mod output;
mod pipeline;
pub mod prestrip;
pub mod progress;
pub mod render;
pub mod server;
pub mod tokens;
pub mod train;
pub mod warc;
mod warm_up;

pub use algorithms::Algorithm;
pub use error::Error;
pub use output::{Extraction, PageType};
pub use pipeline::{Engine, Limits, Outputs, Page, Preparation, Request, check_input};
