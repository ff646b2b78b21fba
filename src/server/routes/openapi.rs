//! `GET /openapi.yaml`: the API description, embedded from the repository root so the served document
//! is the one the tests validate responses against.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

pub const OPENAPI_YAML: &str = include_str!("../../../openapi.yaml");

pub async fn openapi() -> Response {
    let mut res = OPENAPI_YAML.into_response();
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/yaml"));
    res
}
