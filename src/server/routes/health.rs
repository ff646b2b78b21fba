//! Probes for orchestrators: liveness (`/healthz`) and readiness (`/readyz`), and the problem answers
//! for unknown paths and methods.

use axum::Json;
use axum::extract::State;
use serde_json::json;

use crate::server::error::ApiError;
use crate::server::state::AppState;

/// `GET /healthz`: the process is alive and serving HTTP.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

/// `GET /readyz`: ready to take work. The engine (model, site rules) and the configuration are loaded
/// before the listener exists, so this only turns 503 once shutdown has begun.
pub async fn readyz(State(state): State<AppState>) -> Result<Json<serde_json::Value>, ApiError> {
    if state.is_shutting_down() {
        return Err(ApiError::Unavailable { detail: "shutting down".into(), retry_after_secs: 5 });
    }
    Ok(Json(json!({ "status": "ready" })))
}

/// Unknown paths.
pub async fn not_found() -> ApiError {
    ApiError::NotFound("no such endpoint; see GET /openapi.yaml".into())
}

/// Known paths, wrong method.
pub async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed("this endpoint does not take that method; see GET /openapi.yaml".into())
}
