//! HTTP handlers, one module per endpoint (health also holds the 404/405 fallbacks; front_page is `/`,
//! the form for people, with its template beside it).

pub mod algorithms;
pub mod batch;
pub mod extract;
pub mod front_page;
pub mod health;
pub mod metrics;
pub mod openapi;
