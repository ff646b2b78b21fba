//! `POST /v1/extract/batch`: many pages in one request. An item that breaks the item schema (a field
//! of the wrong type, an unknown field) makes the whole request malformed (400, naming the item), as
//! the API description says; a well-formed item that cannot be done (no input, a bad URL, an origin
//! failure) fails alone. Items run `server.batch_concurrency` at a time through the same job runner as
//! `/v1/extract` ([`crate::server::jobs`]). The JSON answer lists results in item order; with
//! `Accept: application/x-ndjson` each result is written as its own line the moment it is ready (so in
//! completion order), carrying its `index`.

use std::convert::Infallible;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures_util::{StreamExt, stream};
use serde::Deserialize;
use serde_json::{Value, json};

use super::extract::{body_error, bypass_cache, media_type, parse_json};
use crate::server::error::ApiError;
use crate::server::jobs::run_job;
use crate::server::state::AppState;
use crate::server::wire::ExtractRequest;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchRequest {
    items: Vec<Value>,
}

/// The items, each checked against the item schema: its fields' types, at least one of `url` and
/// `html` (a `null`, and an empty `url`, count as left out), `html` not empty, and a non-empty `formats`.
fn parse_items(items: Vec<Value>) -> Result<Vec<ExtractRequest>, ApiError> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let req: ExtractRequest = serde_json::from_value(item)
                .map_err(|e| ApiError::BadRequest("malformed-json", format!("item {i}: {e}")))?;
            if req.url.as_deref().is_none_or(str::is_empty) && req.html.is_none() {
                return Err(ApiError::BadRequest("missing-input", format!("item {i}: give `url`, `html`, or both")));
            }
            if req.html.as_deref() == Some("") {
                return Err(ApiError::BadRequest("empty-input", format!("item {i}: `html` is empty")));
            }
            if req.formats.as_ref().is_some_and(Vec::is_empty) {
                return Err(ApiError::BadRequest("bad-formats", format!("item {i}: `formats` must not be empty")));
            }
            Ok(req)
        })
        .collect()
}

/// One item, start to finish: `{"index": i, "ok": result}` or `{"index": i, "error": problem}`.
async fn run_item(state: AppState, index: usize, req: ExtractRequest, no_cache: bool) -> Value {
    let outcome = async {
        let job = req.into_job(&state)?;
        run_job(&state, job, no_cache).await
    }
    .await;
    match outcome {
        Ok(answer) => json!({ "index": index, "ok": answer.body() }),
        Err(e) => {
            if let ApiError::Internal(d) = &e {
                tracing::error!(detail = %d, index, "internal error in batch item");
            }
            json!({ "index": index, "error": e.problem() })
        }
    }
}

fn wants_ndjson(headers: &HeaderMap) -> bool {
    headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).any(|v| {
        v.split(',').any(|m| m.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case("application/x-ndjson"))
    })
}

pub async fn batch(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(|e| body_error(e, state.config.server.body_limit_bytes))?;
    let (mime, _) = media_type(&headers);
    if mime != "application/json" {
        return Err(ApiError::UnsupportedMediaType("send the batch as Content-Type: application/json".into()));
    }
    let req: BatchRequest = parse_json(&body)?;
    let max = state.config.server.max_batch_items;
    if req.items.len() > max {
        return Err(ApiError::PayloadTooLarge(format!(
            "{} items is over the limit of {max} per batch (server.max_batch_items)",
            req.items.len()
        )));
    }
    let items = parse_items(req.items)?;
    let no_cache = bypass_cache(&headers);
    let concurrency = state.config.server.batch_concurrency;
    let items =
        stream::iter(items.into_iter().enumerate()).map(move |(i, item)| run_item(state.clone(), i, item, no_cache));
    if wants_ndjson(&headers) {
        let lines = items.buffer_unordered(concurrency).map(|v| {
            let mut line = serde_json::to_vec(&v).unwrap_or_default();
            line.push(b'\n');
            Ok::<_, Infallible>(Bytes::from(line))
        });
        let mut res = Body::from_stream(lines).into_response();
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
        Ok(res)
    } else {
        let results: Vec<Value> = items.buffered(concurrency).collect().await;
        Ok(Json(json!({ "results": results })).into_response())
    }
}
