//! Logging and per-request observation.
//!
//! [`init`] installs the tracing subscriber (human-readable or JSON lines, per `log.format`).
//! [`observe`] is the outermost middleware: it gives each request an id (the caller's `x-request-id`
//! when it is a sane token, else a fresh UUID), echoes it on the response, records the request
//! metrics and writes exactly one log line per request with method, route, status, ms, cache and bytes.

use std::time::Instant;

use axum::body::HttpBody as _;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tracing_subscriber::EnvFilter;

use super::state::AppState;
use crate::configuration::{LogConfig, LogFormat};

pub static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Set by a handler on its response: whether the cache answered (`hit`/`miss`), for the log line.
#[derive(Debug, Clone, Copy)]
pub struct CacheStatus(pub &'static str);

/// Install the global subscriber. `RUST_LOG` wins over `log.level`. A second call (tests start many
/// servers in one process) keeps the first subscriber.
pub fn init(cfg: &LogConfig) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&cfg.level));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match cfg.format {
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(false).try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

fn request_id(req: &Request) -> String {
    req.headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|s| !s.is_empty() && s.len() <= 128 && s.bytes().all(|b| b.is_ascii_graphic()))
        .map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_string)
}

pub async fn observe(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let id = request_id(&req);
    let method = req.method().clone();
    let route = req.extensions().get::<MatchedPath>().map_or("unmatched", |p| p.as_str()).to_string();
    let bytes_in = req.body().size_hint().exact();
    let mut res = next.run(req).await;
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID.clone(), v);
    }
    let secs = start.elapsed().as_secs_f64();
    let status = res.status().as_u16();
    state.metrics.request(&route, status, secs);
    let cache = res.extensions().get::<CacheStatus>().map_or("-", |c| c.0);
    let bytes_out = res.body().size_hint().exact();
    tracing::info!(
        target: "pith::http",
        request_id = %id,
        method = %method,
        route = %route,
        status,
        ms = secs * 1000.0,
        cache,
        bytes_in,
        bytes_out,
        "request"
    );
    res
}
