//! `GET /v1/algorithms`: the names a request may give as `algorithm`, with one line each, whether this
//! server can run each one now, and whether rendering (`render`, `javascript`) is available.

use axum::Json;
use axum::extract::State;
use serde_json::json;

use crate::browser::Availability;
use crate::server::state::AppState;

/// Every algorithm name with one line on what it does and its availability, the server's default,
/// and the state of the rendering component (the visual methods need it).
pub async fn algorithms(State(state): State<AppState>) -> Json<serde_json::Value> {
    let rendering = state.renderer.is_ready();
    let list: Vec<_> = crate::algorithms::ALGORITHMS
        .iter()
        .map(|a| {
            let needs_render = a.needs().layout;
            json!({
                "name": a.name(),
                "description": a.description(),
                "needs_render": needs_render,
                "available": rendering || !needs_render,
            })
        })
        .collect();
    // The browser's file name, not its path: nothing about the host's layout leaves the process.
    let detail = match state.renderer.availability() {
        Availability::Ready(binary) => {
            format!("headless browser {}", binary.file_name().unwrap_or_default().to_string_lossy())
        }
        other => other.reason(),
    };
    Json(json!({
        "default": state.config.extract.default_algorithm,
        "algorithms": list,
        "render": { "available": rendering, "detail": detail },
    }))
}
