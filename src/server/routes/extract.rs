//! `POST /v1/extract`: one page in (a URL to fetch, or HTML in the body), one result out.
//!
//! Requests of both shapes (JSON, or a raw `text/html` body with query parameters; a JSON body may
//! carry the query parameters too, for what its fields leave out) are checked and become one [`Job`]; [`run_job`] does the rest (cache, fetch, pool, engine), as for every item of a
//! batch.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use url::Url;

use crate::Algorithm;
use crate::fetch::split_content_type;
use crate::server::error::ApiError;
use crate::server::jobs::{Input, Job, run_job};
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

/// The JSON request body (also one item of a batch). A field is given or left out; `null` is not a
/// value of any of them (the API description gives each a plain type), so it is refused.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractRequest {
    #[serde(default, deserialize_with = "present")]
    pub url: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub html: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub algorithm: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub formats: Option<Vec<Format>>,
    #[serde(default, deserialize_with = "present")]
    pub blocks: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    pub charset: Option<String>,
    /// Keep reader comments in the content (default: the configured `params.auto.include_comments`).
    #[serde(default, deserialize_with = "present")]
    pub include_comments: Option<bool>,
    /// What `auto` returns for a page without an article: `full` or `lead` (default: the configured
    /// `params.auto.no_article_text`).
    #[serde(default, deserialize_with = "present")]
    pub no_article_text: Option<crate::algorithms::auto::NoArticleText>,
    /// Lay the page out in a headless browser before extraction (implied by `vips`, `cehtd-ds`).
    #[serde(default, deserialize_with = "present")]
    pub render: Option<bool>,
    /// Run the page's scripts in the browser first (implies `render`).
    #[serde(default, deserialize_with = "present")]
    pub javascript: Option<bool>,
}

/// A field that is there holds a value of its type (not `null`); one left out is `None` by default.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Query parameters: the raw-HTML form's options, and a JSON body's for the fields it leaves out.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawParams {
    pub url: Option<String>,
    pub algorithm: Option<String>,
    pub blocks: Option<bool>,
    /// Comma-separated: `text,html,markdown,explain`.
    pub formats: Option<String>,
    pub include_comments: Option<bool>,
    pub no_article_text: Option<crate::algorithms::auto::NoArticleText>,
    pub render: Option<bool>,
    pub javascript: Option<bool>,
}

fn bad(code: &'static str, detail: impl Into<String>) -> ApiError {
    ApiError::BadRequest(code, detail.into())
}

fn check_algorithm(name: Option<String>, state: &AppState) -> Result<Algorithm, ApiError> {
    match name {
        None => Ok(state.config.extract.default_algorithm),
        Some(name) => {
            name.parse().map_err(|e: crate::Error| ApiError::Unprocessable("unknown-algorithm", e.to_string()))
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

/// What both request shapes settle before a [`Job`] is built: the input, and which outputs to fill.
struct Parts {
    input: Input,
    algorithm: Option<String>,
    charset: Option<String>,
    text: bool,
    html: bool,
    markdown: bool,
    explain: bool,
    blocks: Option<bool>,
    include_comments: Option<bool>,
    no_article_text: Option<crate::algorithms::auto::NoArticleText>,
    render: Option<bool>,
    javascript: Option<bool>,
}

impl Parts {
    /// Check the algorithm and charset, settle the defaults: the one place a [`Job`] is built.
    fn into_job(self, state: &AppState) -> Result<Job, ApiError> {
        let algorithm = check_algorithm(self.algorithm, state)?;
        let javascript = self.javascript.unwrap_or(false);
        Ok(Job {
            input: self.input,
            algorithm,
            render: javascript || self.render.unwrap_or(false) || algorithm.needs().layout,
            javascript,
            charset: check_charset(self.charset)?,
            text: self.text,
            html: self.html,
            markdown: self.markdown,
            explain: self.explain,
            blocks: self.blocks.unwrap_or(true),
            include_comments: self.include_comments,
            no_article_text: self.no_article_text,
        })
    }
}

impl ExtractRequest {
    /// Check the request and settle defaults.
    pub fn into_job(self, state: &AppState) -> Result<Job, ApiError> {
        let input = match (self.url, self.html) {
            (None, None) => return Err(bad("missing-input", "give `url` (to fetch), `html`, or both")),
            (Some(u), None) => Input::Fetch(parse_fetch_url(&u)?),
            (url, Some(html)) => Input::Html { bytes: Bytes::from(html), url },
        };
        let formats = self.formats.unwrap_or_else(|| vec![Format::Text, Format::Html]);
        if formats.is_empty() {
            return Err(bad(
                "bad-formats",
                "`formats` must name at least one of \"text\", \"html\", \"markdown\", \"explain\"",
            ));
        }
        Parts {
            input,
            algorithm: self.algorithm,
            charset: self.charset,
            text: formats.contains(&Format::Text),
            html: formats.contains(&Format::Html),
            markdown: formats.contains(&Format::Markdown),
            explain: formats.contains(&Format::Explain),
            blocks: self.blocks,
            include_comments: self.include_comments,
            no_article_text: self.no_article_text,
            render: self.render,
            javascript: self.javascript,
        }
        .into_job(state)
    }
}

impl ExtractRequest {
    /// Fill the fields the JSON left out from the query parameters.
    fn with_query(mut self, q: RawParams) -> Result<Self, ApiError> {
        if self.formats.is_none()
            && let Some(f) = q.formats.as_deref()
        {
            self.formats = Some(parse_formats(f)?);
        }
        self.url = self.url.or(q.url);
        self.algorithm = self.algorithm.or(q.algorithm);
        self.blocks = self.blocks.or(q.blocks);
        self.include_comments = self.include_comments.or(q.include_comments);
        self.no_article_text = self.no_article_text.or(q.no_article_text);
        self.render = self.render.or(q.render);
        self.javascript = self.javascript.or(q.javascript);
        Ok(self)
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

impl RawParams {
    fn into_job(self, body: Bytes, charset: Option<String>, state: &AppState) -> Result<Job, ApiError> {
        let formats = match self.formats.as_deref() {
            None => vec![Format::Text, Format::Html],
            Some(f) => parse_formats(f)?,
        };
        let has = |f: Format| formats.contains(&f);
        let (text, html, markdown, explain) =
            (has(Format::Text), has(Format::Html), has(Format::Markdown), has(Format::Explain));
        Parts {
            input: Input::Html { bytes: body, url: self.url },
            algorithm: self.algorithm,
            charset,
            text,
            html,
            markdown,
            explain,
            blocks: self.blocks,
            include_comments: self.include_comments,
            no_article_text: self.no_article_text,
            render: self.render,
            javascript: self.javascript,
        }
        .into_job(state)
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
            let query = serde_urlencoded_pairs(params)?;
            parse_json::<ExtractRequest>(&body)?.with_query(query)?.into_job(&state)?
        }
        "text/html" | "application/xhtml+xml" => {
            let query = serde_urlencoded_pairs(params)?;
            query.into_job(body, charset, &state)?
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

/// Query pairs into [`RawParams`], refusing unknown names and repeated ones.
fn serde_urlencoded_pairs(pairs: Vec<(String, String)>) -> Result<RawParams, ApiError> {
    let mut p = RawParams::default();
    for (k, v) in pairs {
        let slot_taken = match k.as_str() {
            "url" => p.url.replace(v).is_some(),
            "algorithm" => p.algorithm.replace(v).is_some(),
            "formats" => p.formats.replace(v).is_some(),
            "blocks" => p.blocks.replace(query_bool(&k, &v)?).is_some(),
            "include_comments" => p.include_comments.replace(query_bool(&k, &v)?).is_some(),
            "no_article_text" => {
                let v = v.parse().map_err(|e: String| bad("bad-query", format!("no_article_text: {e}")))?;
                p.no_article_text.replace(v).is_some()
            }
            "render" => p.render.replace(query_bool(&k, &v)?).is_some(),
            "javascript" => p.javascript.replace(query_bool(&k, &v)?).is_some(),
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
