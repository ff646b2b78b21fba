//! `GET /v1/algorithms`: the names a request may give as `algorithm`, with one line each.

use axum::Json;
use axum::extract::State;
use serde_json::json;

use crate::server::state::AppState;

/// Every algorithm name with one line on what it does, and the server's default.
pub async fn algorithms(State(state): State<AppState>) -> Json<serde_json::Value> {
    let list: Vec<_> = crate::algorithms::ALGORITHMS
        .iter()
        .map(|a| json!({ "name": a.name(), "description": a.description() }))
        .collect();
    Json(json!({ "default": state.config.extract.default_algorithm, "algorithms": list }))
}
