//! The service's job runner: one validated request ([`Job`]) in, one answer out, by way of the result
//! cache, the fetcher and the extraction pool.
//!
//! Routes only turn HTTP requests into jobs and answers into HTTP; `/v1/extract` and every item of
//! `/v1/extract/batch` go through [`run_job`], so both share the cache, the metrics and the limits.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use serde::Serialize;
use url::Url;

use super::cache::{Cached, Key, Source};
use super::error::ApiError;
use super::state::AppState;
use crate::engine::{Options, Request};
use crate::fetch::FetchInfo;
use crate::output::Extraction;

/// A validated request, whatever its shape: where the page comes from, and how to answer.
#[derive(Debug, Clone)]
pub struct Job {
    pub input: Input,
    /// A charset label from the caller.
    pub charset: Option<String>,
    pub options: JobOptions,
}

/// How to answer a job: the engine's options, and whether a browser lays the page out first. Parsed
/// once from the wire, carried by the job and its cache key alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JobOptions {
    pub extract: Options,
    /// Lay the page out in the browser first (asked for, implied by `javascript` or by the algorithm).
    pub render: bool,
    /// Run the page's scripts in the browser first.
    pub javascript: bool,
}

#[derive(Debug, Clone)]
pub enum Input {
    /// Fetch this URL.
    Fetch(Url),
    /// Extract these bytes; `url` is their address.
    Html { bytes: Bytes, url: Option<String> },
}

/// The 200 answer: the engine's result, plus where it came from.
#[derive(Debug, Serialize)]
pub struct ExtractResponse<'a> {
    #[serde(flatten)]
    pub result: &'a Extraction,
    pub cache: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch: Option<&'a FetchInfo>,
}

/// An answered job: the (possibly shared) cached value and whether it was a hit.
pub struct Answer {
    pub value: Arc<Cached>,
    pub cache: &'static str,
}

impl Answer {
    pub fn body(&self) -> ExtractResponse<'_> {
        ExtractResponse { result: &self.value.result, cache: self.cache, fetch: self.value.fetch.as_ref() }
    }
}

impl Job {
    /// The cache key: the normalised URL (fragment dropped) for a fetch, else a hash of the bytes
    /// with the address and charset that change their result; then the options.
    fn cache_key(&self, state: &AppState) -> Key {
        let source = match &self.input {
            Input::Fetch(u) => {
                let mut u = u.clone();
                u.set_fragment(None);
                Source::Url(u.to_string())
            }
            Input::Html { bytes, url } => Source::Content {
                hash: state.cache.content_hash(bytes),
                url: url.clone(),
                charset: self.charset.clone(),
            },
        };
        Key { source, options: self.options }
    }
}

/// Cache lookup, fetch, extraction on the pool, cache insert. `no_cache` skips the lookup (the fresh
/// result is still stored).
pub async fn run_job(state: &AppState, job: Job, no_cache: bool) -> Result<Answer, ApiError> {
    // No key without a cache: hashing a large body is a measurable share of a request.
    let key = state.cache.enabled().then(|| job.cache_key(state));
    if !no_cache
        && let Some(key) = &key
        && let Some(hit) = state.cache.get(key).await
    {
        state.metrics.cache_hit();
        return Ok(Answer { value: hit, cache: "hit" });
    }
    state.metrics.cache_miss();

    // Refused before any fetch: the caller learns at once that this server cannot render.
    if job.options.render && !state.renderer.is_ready() {
        return Err(crate::browser::RenderError::Unavailable(state.renderer.availability().reason()).into());
    }
    let Job { input, charset, options } = job;
    let (bytes, url, charset, fetch) = match input {
        Input::Fetch(u) => {
            let start = Instant::now();
            let fetched = state.fetcher.fetch(&u).await;
            let secs = start.elapsed().as_secs_f64();
            match fetched {
                Ok(f) => {
                    state.metrics.fetch("ok", secs);
                    let charset = charset.or(f.charset);
                    (Bytes::from(f.body), Some(f.info.final_url.clone()), charset, Some(f.info))
                }
                Err(e) => {
                    state.metrics.fetch(e.outcome(), secs);
                    return Err(e.into());
                }
            }
        }
        Input::Html { bytes, url } => (bytes, url, charset, None),
    };

    // The browser part waits for a page slot of the render pool; the extraction after it runs on the
    // extraction pool like any other.
    let rendered = match options.render {
        true => {
            let req = Request {
                bytes: &bytes,
                url: url.as_deref(),
                charset: charset.as_deref(),
                options: options.extract,
                site: None,
            };
            let r = state.renderer.render(&state.engine, &req, options.javascript).await;
            match &r {
                Ok(r) => state.metrics.rendered_page("ok", r.ms / 1000.0),
                Err(e) => state.metrics.rendered_page(e.code(), 0.0),
            }
            Some(r?)
        }
        false => None,
    };
    // Memory admission goes by the bytes extraction reads: the document the scripts left, when they ran.
    let admitted = rendered.as_ref().and_then(|r| r.scripted.as_ref()).map_or(bytes.len(), |s| s.html.len());
    let engine = state.engine.clone();
    let result = state
        .pool
        .run(admitted, move || {
            let req = Request {
                bytes: &bytes,
                url: url.as_deref(),
                charset: charset.as_deref(),
                options: options.extract,
                site: None,
            };
            match rendered {
                Some(r) => r.extract(&engine, &req),
                None => engine.extract(&req),
            }
        })
        .await?;
    let result = result?;
    state.metrics.extraction(result.timings_ms.total / 1000.0);
    let value = Arc::new(Cached { result, fetch });
    if let Some(key) = key {
        state.cache.insert(key, value.clone()).await;
    }
    Ok(Answer { value, cache: "miss" })
}
