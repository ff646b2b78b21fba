//! The service's wire types in one place: the request as a caller sends it ([`ExtractRequest`]: the
//! JSON body, a batch item, or the query parameters), the options it is checked into ([`JobOptions`],
//! which the job and its cache key carry), and the 200 answer ([`ExtractResponse`]). Checking a
//! request against the service's settings is the extract route's (`routes::extract`).

use serde::{Deserialize, Serialize};

use crate::algorithms::auto::NoArticleText;
use crate::engine::{Format, Options, UnknownFormat};
use crate::fetch::FetchInfo;
use crate::output::Extraction;
use crate::server::error::ApiError;

/// The request in its wire form: the JSON body (also one item of a batch), or the query parameters of
/// either shape (`formats` then comma-separated; `html` and `charset` are not query parameters). Every
/// field is optional, and `null` means the same as leaving it out: JSON clients in every language write
/// `null` (`None`, `nil`, an undefined value) for a value they do not have, and the API description
/// says so (`type: [string, "null"]`). `ExtractRequest::into_job` (the extract route) is the one place it becomes a job.
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

impl ExtractRequest {
    /// Fill the fields the JSON left out from the query's.
    pub fn or(self, q: ExtractRequest) -> ExtractRequest {
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

    /// Query pairs into the wire form, refusing unknown names and repeated ones. A parameter with an
    /// empty value (`?algorithm=`) is the parameter left out, as a JSON `null` is: forms and URL
    /// builders write `name=` for a field they have no value for, and the API description says so
    /// (`allowEmptyValue`).
    pub fn from_query(pairs: Vec<(String, String)>) -> Result<ExtractRequest, ApiError> {
        let mut p = ExtractRequest::default();
        for (k, v) in pairs {
            if v.is_empty() && QUERY_PARAMETERS.contains(&k.as_str()) {
                continue;
            }
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
    /// Use and teach the page's site template when the service learns them (`site_context`, default
    /// true; see `server::site_templates`).
    pub site_context: bool,
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

/// `formats=text,html,markdown,explain` (any subset; the route refuses none at all). Stricter than the list other
/// callers give (`Format::parse_list`): an empty entry is refused as an unknown name, as the API
/// description's pattern has it.
fn parse_formats(f: &str) -> Result<Vec<Format>, ApiError> {
    let mut out = Vec::new();
    for part in f.split(',').map(str::trim) {
        let format =
            part.parse().map_err(|UnknownFormat(name)| bad("bad-formats", format!("unknown format {name:?}")))?;
        if !out.contains(&format) {
            out.push(format);
        }
    }
    Ok(out)
}

/// The query parameters `POST /v1/extract` takes (every one optional).
const QUERY_PARAMETERS: [&str; 9] = [
    "url",
    "algorithm",
    "formats",
    "blocks",
    "include_comments",
    "no_article_text",
    "render",
    "javascript",
    "site_context",
];

fn query_bool(name: &str, v: &str) -> Result<bool, ApiError> {
    match v {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(bad("bad-query", format!("{name}={v:?}: use true or false"))),
    }
}

fn bad(code: &'static str, detail: impl Into<String>) -> ApiError {
    ApiError::BadRequest(code, detail.into())
}
