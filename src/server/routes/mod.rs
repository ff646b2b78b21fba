//! HTTP handlers, one module per endpoint (health also holds the 404/405 fallbacks).

pub mod algorithms;
pub mod batch;
pub mod extract;
pub mod health;
pub mod metrics;
pub mod openapi;
