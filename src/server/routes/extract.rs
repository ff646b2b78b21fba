//! `POST /v1/extract`: one page in (a URL to fetch, or HTML in the body), one result out.
//!
//! Requests of both shapes (JSON, or a raw `text/html` body with query parameters; a JSON body may
//! carry the query parameters too, for what its fields leave out) are parsed into one wire form,
//! [`ExtractRequest`], which is checked once and becomes a [`Job`]; [`run_job`] does the rest (cache,
//! fetch, pool, engine), as for every item of a batch.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use url::Url;

use crate::algorithms::Algorithm;
use crate::algorithms::auto::NoArticleText;
use crate::engine::Options;
use crate::fetch::split_content_type;
use crate::output::markdown::MarkdownOptions;
use crate::server::error::ApiError;
use crate::server::jobs::{Input, Job, JobOptions, run_job};
use crate::server::state::AppState;
use crate::server::telemetry::CacheStatus;

/// Output formats a caller can ask for; text is the default, HTML and Markdown each cost another walk
/// of the kept nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Text,
    Html,
    /// `content.markdown`: CommonMark with GitHub tables, links resolved against the page's URL.
    Markdown,
    /// `content.explain`: the explanation page (every block shaded by its probability, measures on hover).
    Explain,
}

/// The request in its wire form: the JSON body (also one item of a batch), or the query parameters of
/// either shape (`formats` then comma-separated; `html` and `charset` are not query parameters). Every
/// field is optional, and `null` means the same as leaving it out: JSON clients in every language write
/// `null` (`None`, `nil`, an undefined value) for a value they do not have, and the API description
/// says so (`type: [string, "null"]`). [`ExtractRequest::into_job`] is the one place it becomes a [`Job`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractRequest {
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub html: Option<String>,
    #[serde(default)]
    pub algorithm: Option<String>,
    #[serde(default)]
    pub formats: Option<Vec<Format>>,
    #[serde(default)]
    pub blocks: Option<bool>,
    #[serde(default)]
    pub charset: Option<String>,
    /// Keep reader comments in the content (default: the configured `params.auto.include_comments`).
    #[serde(default)]
    pub include_comments: Option<bool>,
    /// What `auto` returns for a page without an article: `full` or `lead` (default: the configured
    /// `params.auto.no_article_text`).
    #[serde(default)]
    pub no_article_text: Option<NoArticleText>,
    /// Lay the page out in a headless browser before extraction (implied by `vips`, `cehtd-ds`).
    #[serde(default)]
    pub render: Option<bool>,
    /// Run the page's scripts in the browser first (implies `render`).
    #[serde(default)]
    pub javascript: Option<bool>,
    /// `false`: extract the page on its own, without its site's template, and teach the template
    /// nothing (default true; matters only when the service learns templates, `[site_templates]`).
    #[serde(default)]
    pub site_context: Option<bool>,
}

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

impl ExtractRequest {
    /// Check the JSON request and settle its defaults.
    pub fn into_job(mut self, state: &AppState) -> Result<Job, ApiError> {
        let input = match (self.url.take(), self.html.take()) {
            (None, None) => {
                return Err(bad(
                    "missing-input",
                    "`url` and `html` are both missing (or null): give `url` (to fetch), `html`, or both",
                ));
            }
            (Some(u), None) => Input::Fetch(parse_fetch_url(&u)?),
            (url, Some(html)) => Input::Html { bytes: Bytes::from(html), url },
        };
        let charset = check_charset(self.charset.take())?;
        Ok(Job { input, charset, options: self.options(state)? })
    }

    /// The raw-HTML form: the body is the page, the query gave the options, the `Content-Type` header
    /// the charset.
    fn into_html_job(mut self, body: Bytes, charset: Option<String>, state: &AppState) -> Result<Job, ApiError> {
        let input = Input::Html { bytes: body, url: self.url.take() };
        Ok(Job { input, charset: check_charset(charset)?, options: self.options(state)? })
    }

    /// How to answer: the algorithm and outputs checked, the defaults settled, and whether a browser
    /// lays the page out first (asked for, implied by `javascript` or by the algorithm): decided here
    /// once for every request shape.
    fn options(self, state: &AppState) -> Result<JobOptions, ApiError> {
        let algorithm = check_algorithm(self.algorithm, state)?;
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
                text: formats.contains(&Format::Text),
                html: formats.contains(&Format::Html),
                markdown: formats.contains(&Format::Markdown).then(MarkdownOptions::default),
                explain: formats.contains(&Format::Explain).then_some(crate::output::Explain::Page),
                blocks: self.blocks.unwrap_or(true),
                include_comments: self.include_comments,
                no_article_text: self.no_article_text,
            },
            render: javascript || self.render.unwrap_or(false) || algorithm.needs().layout,
            javascript,
            site_context: self.site_context.unwrap_or(true),
        })
    }

    /// Fill the fields the JSON left out from the query's.
    fn or(self, q: ExtractRequest) -> ExtractRequest {
        ExtractRequest {
            url: self.url.or(q.url),
            html: self.html.or(q.html),
            algorithm: self.algorithm.or(q.algorithm),
            formats: self.formats.or(q.formats),
            blocks: self.blocks.or(q.blocks),
            charset: self.charset.or(q.charset),
            include_comments: self.include_comments.or(q.include_comments),
            no_article_text: self.no_article_text.or(q.no_article_text),
            render: self.render.or(q.render),
            javascript: self.javascript.or(q.javascript),
            site_context: self.site_context.or(q.site_context),
        }
    }
}

/// `formats=text,html,markdown,explain` (any subset, at least one).
fn parse_formats(f: &str) -> Result<Vec<Format>, ApiError> {
    let mut out = Vec::new();
    for part in f.split(',').map(str::trim) {
        let format = match part {
            "text" => Format::Text,
            "html" => Format::Html,
            "markdown" => Format::Markdown,
            "explain" => Format::Explain,
            other => return Err(bad("bad-formats", format!("unknown format {other:?}"))),
        };
        if !out.contains(&format) {
            out.push(format);
        }
    }
    if out.is_empty() {
        return Err(bad("bad-formats", "`formats` must name at least one of text, html, markdown, explain"));
    }
    Ok(out)
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
            let query = query_request(params)?;
            parse_json::<ExtractRequest>(&body)?.or(query).into_job(&state)?
        }
        "text/html" | "application/xhtml+xml" => query_request(params)?.into_html_job(body, charset, &state)?,
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
fn json_response(answer: &crate::server::jobs::Answer) -> Result<Response, ApiError> {
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

/// Query pairs into the wire form, refusing unknown names and repeated ones.
fn query_request(pairs: Vec<(String, String)>) -> Result<ExtractRequest, ApiError> {
    let mut p = ExtractRequest::default();
    for (k, v) in pairs {
        let slot_taken = match k.as_str() {
            "url" => p.url.replace(v).is_some(),
            "algorithm" => p.algorithm.replace(v).is_some(),
            "formats" => p.formats.replace(parse_formats(&v)?).is_some(),
            "blocks" => p.blocks.replace(query_bool(&k, &v)?).is_some(),
            "include_comments" => p.include_comments.replace(query_bool(&k, &v)?).is_some(),
            "no_article_text" => {
                let v = v.parse().map_err(|e: String| bad("bad-query", format!("no_article_text: {e}")))?;
                p.no_article_text.replace(v).is_some()
            }
            "render" => p.render.replace(query_bool(&k, &v)?).is_some(),
            "javascript" => p.javascript.replace(query_bool(&k, &v)?).is_some(),
            "site_context" => p.site_context.replace(query_bool(&k, &v)?).is_some(),
            other => return Err(bad("bad-query", format!("unknown query parameter {other:?}"))),
        };
        if slot_taken {
            return Err(bad("bad-query", format!("query parameter {k:?} given twice")));
        }
    }
    Ok(p)
}

fn query_bool(name: &str, v: &str) -> Result<bool, ApiError> {
    match v {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(bad("bad-query", format!("{name}={v:?}: use true or false"))),
    }
}
