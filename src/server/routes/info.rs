//! The small GET endpoints: algorithms, liveness, readiness, metrics and the OpenAPI document.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::server::error::ApiError;
use crate::server::metrics::Gauges;
use crate::server::state::AppState;

/// The API description, served as written in the repository.
pub const OPENAPI_YAML: &str = include_str!("../../../openapi.yaml");

/// `GET /v1/algorithms`: every algorithm name with one line on what it does, and the default.
pub async fn algorithms(State(state): State<AppState>) -> Json<serde_json::Value> {
    let list: Vec<_> =
        crate::algorithms::ALGORITHMS.iter().map(|(name, what)| json!({ "name": name, "description": what })).collect();
    Json(json!({ "default": state.config.extract.default_algorithm, "algorithms": list }))
}

/// `GET /healthz`: the process is alive and serving HTTP.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

/// `GET /readyz`: ready to take work — engine and config are loaded by the time the listener exists,
/// so this only turns 503 once shutdown has begun.
pub async fn readyz(State(state): State<AppState>) -> Result<Json<serde_json::Value>, ApiError> {
    if state.is_shutting_down() {
        return Err(ApiError::Unavailable { detail: "shutting down".into(), retry_after_secs: 5 });
    }
    Ok(Json(json!({ "status": "ready" })))
}

/// `GET /metrics`: Prometheus text.
pub async fn metrics(State(state): State<AppState>) -> Response {
    let (cache_entries, cache_bytes) = state.cache.usage().await;
    let pool = &state.pool;
    let text = state.metrics.render(&Gauges {
        cache_entries,
        cache_bytes,
        pool_queued: pool.queued.load(std::sync::atomic::Ordering::Relaxed),
        pool_running: pool.running.load(std::sync::atomic::Ordering::Relaxed),
        pool_workers: pool.worker_count,
        pool_queue_capacity: pool.queue_depth,
    });
    let mut res = text.into_response();
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
    res
}

/// `GET /openapi.yaml`.
pub async fn openapi() -> Response {
    let mut res = OPENAPI_YAML.into_response();
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/yaml"));
    res
}

/// Unknown paths.
pub async fn not_found() -> ApiError {
    ApiError::NotFound("no such endpoint; see GET /openapi.yaml".into())
}

/// Known paths, wrong method.
pub async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed("this endpoint does not take that method; see GET /openapi.yaml".into())
}
