//! The service's job runner: one validated request ([`Job`]) in, one answer out, by way of the result
//! cache, the fetcher and the extraction pool.
//!
//! Routes only turn HTTP requests into jobs and answers into HTTP; `/v1/extract` and every item of
//! `/v1/extract/batch` go through [`run_job`], so both share the cache, the metrics and the limits.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use url::Url;

use super::cache::{Cached, Key, Source};
use super::error::ApiError;
use super::state::AppState;
use super::wire::{ExtractResponse, JobOptions};
use crate::engine::Request;
use crate::site::registered_domain;

/// A validated request, whatever its shape: where the page comes from, and how to answer.
#[derive(Debug, Clone)]
pub struct Job {
    pub input: Input,
    /// A charset label from the caller.
    pub charset: Option<String>,
    pub options: JobOptions,
}

#[derive(Debug, Clone)]
pub enum Input {
    /// Fetch this URL.
    Fetch(Url),
    /// Extract these bytes; `url` is their address.
    Html { bytes: Bytes, url: Option<String> },
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
    /// The address the caller gave: the URL to fetch, or the one sent with the HTML.
    fn given_url(&self) -> Option<&str> {
        match &self.input {
            Input::Fetch(u) => Some(u.as_str()),
            Input::Html { url, .. } => url.as_deref(),
        }
    }

    /// The cache key: the normalised URL (fragment dropped) for a fetch, else a hash of the bytes
    /// with the address and charset that change their result; then the options and the pages of the
    /// site template the answer would be made with.
    fn cache_key(&self, state: &AppState, site_pages: usize) -> Key {
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
        Key { source, options: self.options, site_pages }
    }
}

/// Whether a job with these options extracts with its site's template and teaches it: the service
/// learns templates, the caller did not say `site_context: false`, and no browser lays the page out
/// (signatures come from the parse of the page as sent; a rendered page is extracted as ever).
fn site_context(state: &AppState, options: &JobOptions) -> bool {
    state.site_templates.enabled() && options.site_context && !options.render
}

/// Whether the answer reads the template: `auto` alone does. Other algorithms' pages still teach
/// it, but their cache entries need not name its state.
fn reads_template(options: &JobOptions) -> bool {
    options.extract.algorithm == crate::algorithms::Algorithm::Auto
}

/// Cache lookup, fetch, extraction on the pool, cache insert. `no_cache` skips the lookup (the fresh
/// result is still stored).
pub async fn run_job(state: &AppState, job: Job, no_cache: bool) -> Result<Answer, ApiError> {
    let with_site = site_context(state, &job.options);
    // Cached answers are kept per state of the site's template: the key names the pages it has
    // learned (rather than leaving such answers out of the cache, which would extract every page a
    // crawler sends again). Once a site's template is full its count stays, and its pages are served
    // from the cache as any other. The count is the template of the address given; after a redirect
    // to another site the answer is stored under the final site's count, which is a miss at worst.
    let mut lookup_pages = 0;
    if state.cache.enabled()
        && with_site
        && reads_template(&job.options)
        && let Some(site) = job.given_url().and_then(registered_domain)
        && let Some(slot) = state.site_templates.get(&site).await
    {
        lookup_pages = slot.pages();
    }
    // No key without a cache: hashing a large body is a measurable share of a request.
    let key = state.cache.enabled().then(|| job.cache_key(state, lookup_pages));
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
    // The page's site is that of its final address (a fetch may have been redirected); HTML sent
    // without an address has none.
    let site = match with_site {
        true => url.as_deref().and_then(registered_domain),
        false => None,
    };
    let slot = match &site {
        Some(site) => state.site_templates.get_or_create(site).await,
        None => None,
    };
    // A snapshot: the extraction reads it without a lock, however long it takes.
    let template = slot.as_ref().map(|s| s.snapshot());
    // Memory admission goes by the bytes extraction reads: the document the scripts left, when they ran.
    let admitted = rendered.as_ref().and_then(|r| r.scripted.as_ref()).map_or(bytes.len(), |s| s.html.len());
    let engine = state.engine.clone();
    let seen = template.as_ref().map_or(0, |t| t.pages());
    let result = state
        .pool
        .run(admitted, move || {
            let req = Request {
                bytes: &bytes,
                url: url.as_deref(),
                charset: charset.as_deref(),
                options: options.extract,
                site: template.as_deref(),
            };
            match rendered {
                Some(r) => r.extract(&engine, &req).map(|e| (e, None)),
                // One parse gives the answer and what the page teaches its site's template.
                None if req.site.is_some() => engine.extract_and_sign(&req).map(|(e, s)| (e, Some(s))),
                None => engine.extract(&req).map(|e| (e, None)),
            }
        })
        .await?;
    let (result, signatures) = result?;
    state.metrics.extraction(result.timings_ms.total / 1000.0);
    let mut site_pages = 0;
    if let (Some(site), Some(slot), Some(signatures)) = (&site, &slot, &signatures) {
        let pages = state.site_templates.learn(site, slot, signatures, seen).await;
        if reads_template(&options) {
            site_pages = pages;
        }
    }
    let value = Arc::new(Cached { result, fetch });
    if let Some(key) = key {
        state.cache.insert(Key { site_pages, ..key }, value.clone()).await;
    }
    Ok(Answer { value, cache: "miss" })
}
