//! `GET /` and `POST /`: the front page, for a person with a browser rather than a program. It is a
//! form (an address, or pasted HTML; an algorithm; what to show) and, after a submit, the answer as a
//! page: text, Markdown, HTML, the page's metadata, the has-article probability and page type, and the
//! explanation of which blocks were kept.
//!
//! A submit is not a second extraction path: the form's fields become the API's wire form,
//! [`ExtractRequest`], which is checked by [`ExtractRequest::into_job`] and run by [`run_job`] exactly
//! as `POST /v1/extract` runs it (cache, fetcher and its SSRF guard, pool, limits). A refusal is the
//! API's problem (status, `Retry-After`, detail), shown in the page instead of as JSON; refusals made
//! before the handler runs (rate limit, wrong method) are turned into the same page by
//! [`problems_as_pages`].
//!
//! The page is plain HTML with its style inline: no script, no external asset, so it works with
//! JavaScript off and its Content-Security-Policy can refuse everything else. Every string that comes
//! from the extracted page is escaped; the explanation page, itself HTML, is shown in a sandboxed
//! `srcdoc` frame (escaped into the attribute), where nothing of the page can run or reach the front
//! page.

use std::fmt::Write;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::engine::Format;
use crate::output::explain_page::escape;
use crate::server::error::{ApiError, Problem};
use crate::server::jobs::{Answer, run_job};
use crate::server::routes::extract::{body_error, bypass_cache, media_type};
use crate::server::state::AppState;
use crate::server::telemetry::CacheStatus;
use crate::server::wire::ExtractRequest;

/// The page's frame: the form and a slot for the outcome (see [`fill`] for the `{{slot}}` syntax).
const TEMPLATE: &str = include_str!("front_page.html");

/// Nothing but the page's own inline style and its form. The explanation frame (`about:srcdoc`, not
/// fetched, so no `frame-src` is needed: measured in headless Chromium, the frame draws the same with
/// and without `frame-src 'self'`) inherits this policy: its inline style is allowed, and nothing the
/// extracted page names (images, fonts, frames elsewhere) is fetched nor any script run, even if the
/// escaping were ever wrong. `frame-ancestors 'none'` stops another site from framing the form.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The outputs a person can ask to see, in the order they are shown; the explanation always comes.
const SHOWN: [Format; 3] = [Format::Text, Format::Markdown, Format::Html];

/// What the person submitted, kept to fill the form again, so a refused request can be corrected
/// rather than typed anew.
#[derive(Debug, Clone)]
struct Form {
    url: String,
    html: String,
    algorithm: Option<String>,
    formats: Vec<Format>,
}

impl Default for Form {
    /// The blank form: text and Markdown ticked, the cheap outputs a person most often wants.
    fn default() -> Form {
        Form { url: String::new(), html: String::new(), algorithm: None, formats: vec![Format::Text, Format::Markdown] }
    }
}

impl Form {
    /// Read an `application/x-www-form-urlencoded` body; names other than the form's are refused as the
    /// API refuses unknown query parameters, so a typo in a hand-made form is not silently ignored.
    fn parse(body: &[u8]) -> Result<Form, ApiError> {
        let mut form = Form { formats: Vec::new(), ..Form::default() };
        for (k, v) in url::form_urlencoded::parse(body) {
            match k.as_ref() {
                "url" => form.url = v.into_owned(),
                "html" => form.html = v.into_owned(),
                "algorithm" => form.algorithm = Some(v.into_owned()).filter(|a| !a.is_empty()),
                "formats" => {
                    let f = SHOWN.into_iter().find(|f| f.name() == v).ok_or_else(|| {
                        ApiError::BadRequest("bad-formats", format!("unknown format {v:?}; use text, markdown or html"))
                    })?;
                    if !form.formats.contains(&f) {
                        form.formats.push(f);
                    }
                }
                other => return Err(ApiError::BadRequest("bad-form", format!("unknown form field {other:?}"))),
            }
        }
        Ok(form)
    }

    /// The API's wire form of this submit. An empty field counts as left out (a browser sends every
    /// text field, filled or not), and pasted HTML is UTF-8 whatever its `<meta charset>` says, since
    /// the form is sent as UTF-8.
    fn request(&self) -> ExtractRequest {
        let given = |s: &str| (!s.trim().is_empty()).then(|| s.to_string());
        let html = given(&self.html);
        let mut formats = self.formats.clone();
        formats.push(Format::Explain);
        ExtractRequest {
            url: given(&self.url),
            charset: html.as_ref().map(|_| "utf-8".to_string()),
            html,
            algorithm: self.algorithm.clone(),
            formats: Some(formats),
            // The page shows no block report; the explanation asks the engine for the blocks it needs.
            blocks: Some(false),
            ..ExtractRequest::default()
        }
    }
}

/// `GET /`: the blank form.
pub async fn page(State(state): State<AppState>) -> Response {
    html_page(StatusCode::OK, render(&state, &Form::default(), ""))
}

/// `POST /`: run the form's request as `POST /v1/extract` would, and answer with the form and the
/// result, or the form and the problem.
pub async fn submit(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let form = match read_form(&state, &headers, body) {
        Ok(form) => form,
        Err(e) => return problem_page(&state, e.into_response(), &Form::default()),
    };
    let answered = match form.request().into_job(&state) {
        Ok(job) => run_job(&state, job, bypass_cache(&headers)).await,
        Err(e) => Err(e),
    };
    match answered {
        Ok(answer) => {
            let mut res = html_page(StatusCode::OK, render(&state, &form, &result_html(&answer, &form.formats)));
            res.extensions_mut().insert(CacheStatus(answer.cache));
            res
        }
        Err(e) => problem_page(&state, e.into_response(), &form),
    }
}

/// The body as a form, within the service's body limit.
fn read_form(state: &AppState, headers: &HeaderMap, body: Result<Bytes, BytesRejection>) -> Result<Form, ApiError> {
    let body = body.map_err(|e| body_error(e, state.config.server.body_limit_bytes))?;
    match media_type(headers).0.as_str() {
        "application/x-www-form-urlencoded" => Form::parse(&body),
        "" => Err(ApiError::UnsupportedMediaType("send the form as application/x-www-form-urlencoded".into())),
        other => Err(ApiError::UnsupportedMediaType(format!(
            "Content-Type {other:?} is not supported here; send the form as application/x-www-form-urlencoded \
             (programs: POST /v1/extract)"
        ))),
    }
}

/// Middleware for the front page's path: a problem answered by any layer (the rate limit, the 405
/// fallback) becomes the blank form with the problem shown, with the problem's status and headers.
pub async fn problems_as_pages(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let front = req.uri().path() == "/";
    let res = next.run(req).await;
    if front { problem_page(&state, res, &Form::default()) } else { res }
}

/// `res` with its problem (if it carries one, see [`ApiError`]'s `IntoResponse`) shown as the page;
/// the status and headers such as `Retry-After` stay.
fn problem_page(state: &AppState, res: Response, form: &Form) -> Response {
    let (mut parts, body) = res.into_parts();
    let Some(problem) = parts.extensions.remove::<Problem>() else {
        return Response::from_parts(parts, body);
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    set_html_headers(&mut parts.headers);
    Response::from_parts(parts, Body::from(render(state, form, &problem_html(&problem))))
}

fn html_page(status: StatusCode, html: String) -> Response {
    let mut res = (status, html).into_response();
    set_html_headers(res.headers_mut());
    res
}

fn set_html_headers(h: &mut HeaderMap) {
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
}

/// The whole page: the form filled with `form`, then `outcome` (already HTML).
fn render(state: &AppState, form: &Form, outcome: &str) -> String {
    let ticked = |f: Format| if form.formats.contains(&f) { " checked" } else { "" };
    fill(TEMPLATE, form.html.len() + outcome.len() + 4096, |slot, out| match slot {
        "title" => out.push_str("pith"),
        "url" => escape(&form.url, out),
        "html" => escape(&form.html, out),
        "algorithms" => algorithm_options(state, form.algorithm.as_deref(), out),
        "text" => out.push_str(ticked(Format::Text)),
        "markdown" => out.push_str(ticked(Format::Markdown)),
        "html_format" => out.push_str(ticked(Format::Html)),
        "outcome" => out.push_str(outcome),
        _ => {}
    })
}

/// `template` with each `{{name}}` replaced by what `slot` writes for it. One pass, so text written
/// into a slot (a pasted page may well contain `{{outcome}}`) is never read as a slot itself.
fn fill(template: &str, extra: usize, mut slot: impl FnMut(&str, &mut String)) -> String {
    let mut out = String::with_capacity(template.len() + extra);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        slot(&rest[start + 2..start + 2 + len], &mut out);
        rest = &rest[start + 2 + len + 2..];
    }
    out.push_str(rest);
    out
}

/// The registry's algorithms as `<option>`s, the chosen one (else the server's default) selected;
/// those that need a browser this server does not have are listed but disabled, as
/// `GET /v1/algorithms` marks them unavailable.
fn algorithm_options(state: &AppState, chosen: Option<&str>, out: &mut String) {
    let chosen = chosen.unwrap_or(state.config.extract.default_algorithm.name());
    let rendering = state.renderer.is_ready();
    for a in crate::algorithms::ALGORITHMS {
        let available = rendering || !a.needs().layout;
        let _ = write!(out, "<option value=\"{}\"", a.name());
        if a.name() == chosen {
            out.push_str(" selected");
        }
        if !available {
            out.push_str(" disabled");
        }
        out.push_str(" title=\"");
        escape(a.description(), out);
        let _ = write!(out, "\">{}", a.name());
        if !available {
            out.push_str(" (needs a browser)");
        }
        out.push_str("</option>");
    }
}

fn problem_html(p: &Problem) -> String {
    let mut out = String::with_capacity(512);
    let _ = write!(out, "<section class=\"problem\" role=\"alert\"><h2>{} ({})</h2><p>", p.title, p.status);
    escape(&p.detail, &mut out);
    out.push_str("</p><p><code>");
    escape(&p.kind, &mut out);
    out.push_str("</code></p></section>");
    out
}

/// The result: what the page is, then each output asked for, then the explanation frame.
fn result_html(answer: &Answer, formats: &[Format]) -> String {
    let r = &answer.value.result;
    let c = &r.content;
    let mut out = String::with_capacity(
        2 * (c.text.len() + c.html.len()) + c.explain.as_ref().map_or(0, |e| e.len() * 5 / 4) + 4096,
    );
    out.push_str("<div class=\"result\" id=\"result\"><h2>Result</h2><section><h3>The page</h3><dl class=\"facts\">");
    facts(answer, &mut out);
    out.push_str("</dl></section>");
    for (format, label, value) in [
        (Format::Text, "Text", Some(&c.text)),
        (Format::Markdown, "Markdown", c.markdown.as_ref()),
        (Format::Html, "HTML", Some(&c.html)),
    ] {
        if !formats.contains(&format) {
            continue;
        }
        let _ = write!(out, "<section><h3>{label}</h3><pre class=\"{}\">", label.to_lowercase());
        match value.filter(|v| !v.trim().is_empty()) {
            Some(v) => escape(v, &mut out),
            None => out.push_str("(nothing kept)"),
        }
        out.push_str("</pre></section>");
    }
    if let Some(explain) = &c.explain {
        out.push_str(
            "<section><h3>Which blocks were kept</h3><p class=\"hint\">Each block of the page in order, \
             green if kept and red if dropped, shaded by its probability of being main content; hover one \
             for its measures.</p><iframe class=\"explain\" sandbox title=\"which blocks were kept\" srcdoc=\"",
        );
        escape(explain, &mut out);
        out.push_str("\"></iframe></section>");
    }
    out.push_str("</div>");
    out
}

/// The facts about the page as `<dt>`/`<dd>` pairs; a fact the page does not give is left out.
fn facts(answer: &Answer, out: &mut String) {
    let r = &answer.value.result;
    let m = &r.metadata;
    let mut fact = |name: &str, value: &str| {
        if !value.is_empty() {
            let _ = write!(out, "<dt>{name}</dt><dd>");
            escape(value, out);
            out.push_str("</dd>");
        }
    };
    fact("Title", m.title.as_deref().or(r.title.as_deref()).unwrap_or(""));
    fact("Address", r.url.as_deref().unwrap_or(""));
    let verdict = if r.has_article.is_article { "an article" } else { "not an article" };
    fact("Has an article", &format!("probability {:.3}: {verdict}", r.has_article.probability));
    if let Some(t) = &r.page_type {
        let p = t.probabilities.get(t.label.name()).copied().unwrap_or(0.0);
        fact("Page type", &format!("{} (probability {p:.3})", t.label));
    }
    fact("Authors", &m.authors.join(", "));
    let dated = |d: &crate::metadata::Dated| {
        let source = serde_json::to_value(d.source).ok().and_then(|v| v.as_str().map(str::to_string));
        format!("{} (from {})", d.value, source.unwrap_or_default())
    };
    fact("Published", &m.published.as_ref().map(dated).unwrap_or_default());
    fact("Updated", &m.modified.as_ref().map(dated).unwrap_or_default());
    fact("Site", m.site_name.as_deref().unwrap_or(""));
    fact("Description", m.description.as_deref().unwrap_or(""));
    fact("Language", m.lang.as_deref().or(r.lang.as_deref()).unwrap_or(""));
    fact("Canonical address", m.canonical_url.as_deref().unwrap_or(""));
    fact("Image", m.image.as_deref().unwrap_or(""));
    fact("Tags", &m.tags.join(", "));
    fact("Categories", &m.categories.join(", "));
    let mut types = m.types.json_ld.clone();
    types.extend(m.types.opengraph.iter().map(|t| format!("og:{t}")));
    fact("Declared types", &types.join(", "));
    fact("Algorithm", &r.algorithm);
    fact("Charset", &r.charset);
    if let Some(f) = &answer.value.fetch {
        fact("Fetched", &format!("status {}, {} bytes in {:.0} ms from {}", f.status, f.bytes, f.ms, f.final_url));
    }
    fact("Time", &format!("{:.1} ms extracting (cache {})", r.timings_ms.total, answer.cache));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_filled_once_and_pasted_text_is_not_a_slot() {
        let out = fill("a{{x}}b{{y}}c", 0, |slot, out| match slot {
            "x" => out.push_str("{{y}}"),
            _ => out.push('Y'),
        });
        assert_eq!(out, "a{{y}}bYc");
    }

    #[test]
    fn every_slot_of_the_template_is_known() {
        let mut unknown = Vec::new();
        let known = ["title", "url", "html", "algorithms", "text", "markdown", "html_format", "outcome"];
        fill(TEMPLATE, 0, |slot, _| {
            if !known.contains(&slot) {
                unknown.push(slot.to_string());
            }
        });
        assert!(unknown.is_empty(), "{unknown:?}");
    }

    #[test]
    fn a_form_becomes_the_wire_request() {
        let f = Form::parse(b"url=&html=%3Cp%3Ehi%3C%2Fp%3E&algorithm=bayes&formats=text&formats=html").unwrap();
        let r = f.request();
        assert_eq!((r.url, r.html.as_deref()), (None, Some("<p>hi</p>")));
        assert_eq!((r.algorithm.as_deref(), r.charset.as_deref()), (Some("bayes"), Some("utf-8")));
        assert_eq!(r.formats, Some(vec![Format::Text, Format::Html, Format::Explain]));
        let fetch = Form::parse(b"url=https%3A%2F%2Fexample.com%2F&html=++").unwrap().request();
        assert_eq!((fetch.url.as_deref(), fetch.html, fetch.charset), (Some("https://example.com/"), None, None));
        assert_eq!(Form::parse(b"colour=red").unwrap_err().code(), "bad-form");
        assert_eq!(Form::parse(b"formats=explain").unwrap_err().code(), "bad-formats");
    }
}
