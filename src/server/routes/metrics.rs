//! `GET /metrics`: Prometheus text, with the cache and pool gauges read at scrape time.

use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::server::metrics::Gauges;
use crate::server::state::AppState;

pub async fn metrics(State(state): State<AppState>) -> Response {
    let (cache_entries, cache_bytes) = state.cache.usage().await;
    let (site_templates, site_templates_bytes) = state.site_templates.usage().await;
    let pool = &state.pool;
    let text = state.metrics.render(&Gauges {
        cache_entries,
        cache_bytes,
        site_templates,
        site_templates_bytes,
        pool_queued: pool.queued.load(Ordering::Relaxed),
        pool_running: pool.running.load(Ordering::Relaxed),
        pool_workers: pool.worker_count,
        pool_queue_capacity: pool.queue_depth,
        render: state.renderer.stats(),
    });
    let mut res = text.into_response();
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
    res
}
