//! `POST /v1/extract`: one page in (a URL to fetch, or HTML in the body), one result out.
//!
//! Requests of both shapes (JSON, or a raw `text/html` body with query parameters; a JSON body may
//! carry the query parameters too, for what its fields leave out) are parsed into one wire form,
//! [`ExtractRequest`] (`server::wire`), which is checked here once and becomes a [`Job`]; [`run_job`] does the rest (cache,
//! fetch, pool, engine), as for every item of a batch.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use url::Url;

use crate::algorithms::Algorithm;
use crate::engine::{Format, Options};
use crate::fetch::split_content_type;
use crate::server::error::ApiError;
use crate::server::jobs::{Answer, Input, Job, run_job};
use crate::server::state::AppState;
use crate::server::telemetry::CacheStatus;
use crate::server::wire::{ExtractRequest, JobOptions};

fn bad(code: &'static str, detail: impl Into<String>) -> ApiError {
    ApiError::BadRequest(code, detail.into())
}

fn check_algorithm(name: Option<String>, state: &AppState) -> Result<Algorithm, ApiError> {
    match name {
        None => Ok(state.config.extract.default_algorithm),
        Some(name) => {
            name.parse().map_err(|e: crate::error::Error| ApiError::Unprocessable("unknown-algorithm", e.to_string()))
        }
    }
}

fn check_charset(label: Option<String>) -> Result<Option<String>, ApiError> {
    match label {
        Some(l) if encoding_rs::Encoding::for_label(l.trim().as_bytes()).is_none() => {
            Err(bad("unknown-charset", format!("unknown charset label {l:?}")))
        }
        other => Ok(other),
    }
}

fn parse_fetch_url(raw: &str) -> Result<Url, ApiError> {
    Url::parse(raw.trim()).map_err(|e| bad("bad-url", format!("url {raw:?} is not an absolute URL: {e}")))
}

/// An empty string where a value is optional (`"charset": ""`, `"url": ""` beside `html`) is the field
/// left out, as `null` is and as an empty query value is: form fields and templates write `""` for a
/// value they do not have. (`html: ""` stays an empty page, refused as `empty-input`.)
fn given(v: Option<String>) -> Option<String> {
    v.filter(|s| !s.is_empty())
}

impl ExtractRequest {
    /// Check the JSON request and settle its defaults.
    pub fn into_job(mut self, state: &AppState) -> Result<Job, ApiError> {
        let input = match (given(self.url.take()), self.html.take()) {
            (None, None) => {
                return Err(bad(
                    "missing-input",
                    "`url` and `html` are both missing (or null): give `url` (to fetch), `html`, or both",
                ));
            }
            (Some(u), None) => Input::Fetch(parse_fetch_url(&u)?),
            (url, Some(html)) => Input::Html { bytes: Bytes::from(html), url },
        };
        let charset = check_charset(given(self.charset.take()))?;
        Ok(Job { input, charset, options: self.options(state)? })
    }

    /// The raw-HTML form: the body is the page, the query gave the options, the `Content-Type` header
    /// the charset.
    fn into_html_job(mut self, body: Bytes, charset: Option<String>, state: &AppState) -> Result<Job, ApiError> {
        let input = Input::Html { bytes: body, url: given(self.url.take()) };
        Ok(Job { input, charset: check_charset(charset)?, options: self.options(state)? })
    }

    /// How to answer: the algorithm and outputs checked, the defaults settled, and whether a browser
    /// lays the page out first (asked for, implied by `javascript` or by the algorithm): decided here
    /// once for every request shape.
    fn options(self, state: &AppState) -> Result<JobOptions, ApiError> {
        let algorithm = check_algorithm(given(self.algorithm), state)?;
        let formats = self.formats.unwrap_or_else(|| vec![Format::Text, Format::Html]);
        if formats.is_empty() {
            return Err(bad(
                "bad-formats",
                "`formats` must name at least one of \"text\", \"html\", \"markdown\", \"explain\"",
            ));
        }
        let javascript = self.javascript.unwrap_or(false);
        Ok(JobOptions {
            extract: Options {
                algorithm,
                blocks: self.blocks.unwrap_or(true),
                include_comments: self.include_comments,
                no_article_text: self.no_article_text,
                ..Options::default()
            }
            .with_formats(&formats),
            render: javascript || self.render.unwrap_or(false) || algorithm.needs().layout,
            javascript,
            site_context: self.site_context.unwrap_or(true),
        })
    }
}

/// Does the request ask to skip the cache (`Cache-Control: no-cache` or `no-store`)?
pub fn bypass_cache(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').map(|d| d.trim().to_ascii_lowercase()).any(|d| d == "no-cache" || d == "no-store"))
}

/// Map a body-reading failure (mostly: over the size limit) to a problem.
pub fn body_error(e: BytesRejection, limit: usize) -> ApiError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::PayloadTooLarge(format!(
            "the request body is over the limit of {limit} bytes (server.body_limit_bytes)"
        ))
    } else {
        bad("bad-body", format!("could not read the request body: {e}"))
    }
}

/// Parse a JSON body with our own error mapping (axum's `Json` rejection is plain text).
pub fn parse_json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| bad("malformed-json", format!("the JSON body is malformed: {e}")))
}

/// The request's media type, lower-cased, and its charset parameter.
pub fn media_type(headers: &HeaderMap) -> (String, Option<String>) {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map_or((String::new(), None), split_content_type)
}

pub async fn extract(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(|e| body_error(e, state.config.server.body_limit_bytes))?;
    // Parsed here rather than by axum's `Query`, whose rejection is not a problem document.
    let params: Vec<(String, String)> =
        url::form_urlencoded::parse(query.as_deref().unwrap_or("").as_bytes()).into_owned().collect();
    let (mime, charset) = media_type(&headers);
    let job = match mime.as_str() {
        "application/json" => {
            // The query's options apply where the JSON is silent (the JSON's own fields win).
            let query = ExtractRequest::from_query(params)?;
            parse_json::<ExtractRequest>(&body)?.or(query).into_job(&state)?
        }
        "text/html" | "application/xhtml+xml" => {
            ExtractRequest::from_query(params)?.into_html_job(body, charset, &state)?
        }
        "" => return Err(ApiError::UnsupportedMediaType("send Content-Type: application/json or text/html".into())),
        other => {
            return Err(ApiError::UnsupportedMediaType(format!(
                "Content-Type {other:?} is not supported; send application/json or text/html"
            )));
        }
    };
    let answer = run_job(&state, job, bypass_cache(&headers)).await?;
    let mut res = json_response(&answer)?;
    res.extensions_mut().insert(CacheStatus(answer.cache));
    Ok(res)
}

/// The 200 answer as JSON, written into one buffer sized for it from the start: axum's `Json` starts
/// at 128 bytes and doubles, which for a page's text, HTML and block list (often 100 KB and more)
/// copied the answer over again a dozen times.
fn json_response(answer: &Answer) -> Result<Response, ApiError> {
    let r = &answer.value.result;
    let c = &r.content;
    let text = c.text.len()
        + c.html.len()
        + c.markdown.as_ref().map_or(0, String::len)
        + c.explain.as_ref().map_or(0, String::len);
    // Escaping adds a little to the text; a block is its path and a dozen scores.
    let capacity = 2048 + text + text / 8 + r.blocks.len() * 384;
    let mut buf = Vec::with_capacity(capacity);
    serde_json::to_writer(&mut buf, &answer.body())
        .map_err(|e| ApiError::Internal(format!("serialising the answer: {e}")))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], buf).into_response())
}
