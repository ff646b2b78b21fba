//! HTTP handlers, one module per kind of endpoint.

pub mod batch;
pub mod extract;
pub mod info;
