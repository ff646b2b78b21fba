//! pith: main-content extraction from web pages.

pub mod algorithms;
pub mod batch;
pub mod browser;
pub mod configuration;
pub mod dom;
pub mod engine;
mod error;
pub mod fetch;
pub mod hash;
pub mod lab;
pub mod learn;
pub mod metadata;
pub mod net;
pub mod output;
pub mod server;
pub mod text;

pub use algorithms::Algorithm;
pub use engine::{Engine, Limits, Options, Page, Preparation, Request, check_input};
pub use error::Error;
pub use output::{Extraction, PageType};
