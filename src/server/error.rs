//! One error type for every HTTP answer that is not a success, rendered as RFC 9457
//! `application/problem+json` (`type`, `title`, `status`, `detail`). Details are written for the
//! caller; internal failures are logged and answered with a generic 500 so no stack trace or internal
//! path ever leaves the process.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

/// Every failure the API reports. Each variant fixes the status code; the string is the `detail`.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    /// Malformed JSON, missing inputs, bad parameters, unknown charset, empty input.
    #[error("{1}")]
    BadRequest(&'static str, String),
    /// The URL is not allowed: scheme, or an address in a refused range.
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    /// The request body is over `server.body_limit_bytes` (or the engine's input limit).
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// Understood but not processable: unknown algorithm, a non-HTML page, no template for the page.
    #[error("{1}")]
    Unprocessable(&'static str, String),
    #[error("{retry_after_secs}")]
    TooManyRequests { retry_after_secs: u64 },
    /// The origin failed: its status, a connection failure, or a response over the byte cap.
    #[error("{1}")]
    BadGateway(&'static str, String),
    /// Overloaded or shutting down.
    #[error("{detail}")]
    Unavailable { detail: String, retry_after_secs: u64 },
    /// The origin (code `origin-timeout`) or the browser (`render-timeout`) took too long.
    #[error("{1}")]
    GatewayTimeout(&'static str, String),
    /// The server cannot do what the request asks in its present configuration (rendering switched
    /// off, no browser installed).
    #[error("{1}")]
    NotImplemented(&'static str, String),
    /// A bug or an unexpected failure; the detail is logged, never sent.
    #[error("{0}")]
    Internal(String),
}

/// The problem document, as sent and as documented in `openapi.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
}

/// Problem `type` URIs are `urn:pith:problem:<code>`; the codes are listed in `openapi.yaml`.
const TYPE_PREFIX: &str = "urn:pith:problem:";

impl ApiError {
    pub fn status(&self) -> StatusCode {
        use ApiError::*;
        match self {
            BadRequest(..) => StatusCode::BAD_REQUEST,
            Forbidden(_) => StatusCode::FORBIDDEN,
            NotFound(_) => StatusCode::NOT_FOUND,
            MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Unprocessable(..) => StatusCode::UNPROCESSABLE_ENTITY,
            TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            BadGateway(..) => StatusCode::BAD_GATEWAY,
            Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            GatewayTimeout(..) => StatusCode::GATEWAY_TIMEOUT,
            NotImplemented(..) => StatusCode::NOT_IMPLEMENTED,
            Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable code at the end of the problem `type`.
    pub fn code(&self) -> &'static str {
        use ApiError::*;
        match self {
            BadRequest(c, _) | Unprocessable(c, _) | BadGateway(c, _) | GatewayTimeout(c, _) | NotImplemented(c, _) => {
                c
            }
            Forbidden(_) => "url-refused",
            NotFound(_) => "not-found",
            MethodNotAllowed(_) => "method-not-allowed",
            PayloadTooLarge(_) => "too-large",
            UnsupportedMediaType(_) => "unsupported-media-type",
            TooManyRequests { .. } => "rate-limited",
            Unavailable { .. } => "unavailable",
            Internal(_) => "internal",
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            ApiError::TooManyRequests { retry_after_secs } | ApiError::Unavailable { retry_after_secs, .. } => {
                Some(*retry_after_secs)
            }
            _ => None,
        }
    }

    pub fn problem(&self) -> Problem {
        let status = self.status();
        let detail = match self {
            ApiError::Internal(_) => "an internal error occurred; it has been logged".to_string(),
            ApiError::TooManyRequests { retry_after_secs } => {
                format!("too many requests from this client; retry after {retry_after_secs} s")
            }
            other => other.to_string(),
        };
        Problem {
            kind: format!("{TYPE_PREFIX}{}", self.code()),
            title: status.canonical_reason().unwrap_or("Error").to_string(),
            status: status.as_u16(),
            detail,
        }
    }
}

impl From<crate::error::Error> for ApiError {
    fn from(e: crate::error::Error) -> Self {
        use crate::error::Error as E;
        let detail = e.to_string();
        match e {
            E::EmptyInput => ApiError::BadRequest("empty-input", detail),
            E::UnknownCharset(_) => ApiError::BadRequest("unknown-charset", detail),
            E::TooLarge { .. } => ApiError::PayloadTooLarge(detail),
            E::BinaryInput(_) => ApiError::Unprocessable("not-html", detail),
            E::UnknownAlgorithm { .. } => ApiError::Unprocessable("unknown-algorithm", detail),
            E::NoTemplate(_) => ApiError::Unprocessable("no-template", detail),
            E::NeedsLayout(_) => ApiError::Unprocessable("needs-render", detail),
            E::Render(_) => ApiError::BadGateway("render-failed", detail),
            E::TooComplex(_) => ApiError::Unprocessable("page-too-complex", detail),
            E::Config(_) | E::Io(_) | E::LayoutMismatch => ApiError::Internal(detail),
        }
    }
}

impl From<crate::browser::RenderError> for ApiError {
    fn from(e: crate::browser::RenderError) -> Self {
        use crate::browser::RenderError as R;
        let code = e.code();
        let detail = e.to_string();
        match e {
            R::Unavailable(_) => ApiError::NotImplemented(code, detail),
            R::Busy => ApiError::Unavailable { detail, retry_after_secs: 1 },
            R::Timeout(_) => ApiError::GatewayTimeout(code, detail),
            R::Browser(_) => ApiError::BadGateway(code, detail),
            R::Page(_) => ApiError::Unprocessable(code, detail),
            R::Input(e) => e.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(d) = &self {
            tracing::error!(detail = %d, "internal error");
        }
        let problem = self.problem();
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut res = (self.status(), body).into_response();
        // Kept beside the body for the front page, which shows the same problem as HTML
        // (see `routes::front_page`), whichever layer refused the request.
        res.extensions_mut().insert(problem);
        let h = res.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        if let Some(secs) = self.retry_after() {
            h.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        res
    }
}

impl From<crate::fetch::FetchError> for ApiError {
    fn from(e: crate::fetch::FetchError) -> Self {
        let d = e.to_string();
        match e {
            crate::fetch::FetchError::BadUrl(_) => ApiError::BadRequest("bad-url", d),
            crate::fetch::FetchError::Refused(_) => ApiError::Forbidden(d),
            crate::fetch::FetchError::Timeout(_) => ApiError::GatewayTimeout("origin-timeout", d),
            crate::fetch::FetchError::Status(_) => ApiError::BadGateway("origin-status", d),
            crate::fetch::FetchError::NotHtml(_) => ApiError::Unprocessable("not-html", d),
            crate::fetch::FetchError::TooLarge(_) => ApiError::BadGateway("origin-too-large", d),
            crate::fetch::FetchError::TooManyRedirects(_) => ApiError::BadGateway("too-many-redirects", d),
            crate::fetch::FetchError::Failed(_) => ApiError::BadGateway("origin-unreachable", d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_errors_map_to_statuses() {
        let s = |e: crate::error::Error| ApiError::from(e).status().as_u16();
        assert_eq!(s(crate::error::Error::EmptyInput), 400);
        assert_eq!(s(crate::error::Error::UnknownCharset("x".into())), 400);
        assert_eq!(s(crate::error::Error::BinaryInput("pdf".into())), 422);
        assert_eq!(s(crate::error::Error::TooLarge { size: 2, limit: 1 }), 413);
        assert_eq!(s(crate::error::Error::UnknownAlgorithm { name: "x".into(), known: "auto".into() }), 422);
        assert_eq!(s(crate::error::Error::NoTemplate("u".into())), 422);
        assert_eq!(s(crate::error::Error::TooComplex("n".into())), 422);
        let p = ApiError::from(crate::error::Error::TooComplex("n".into())).problem();
        assert_eq!(p.kind, "urn:pith:problem:page-too-complex");
        assert_eq!(s(crate::error::Error::Config("secret path".into())), 500);
        assert_eq!(s(crate::error::Error::NeedsLayout("vips".into())), 422);
    }

    #[test]
    fn render_errors_map_to_statuses() {
        use crate::browser::RenderError as R;
        let p = |e: R| ApiError::from(e).problem();
        let off = p(R::Unavailable("rendering is switched off".into()));
        assert_eq!((off.status, off.kind.as_str()), (501, "urn:pith:problem:render-unavailable"));
        assert_eq!(p(R::Busy).status, 503);
        let slow = p(R::Timeout(20));
        assert_eq!((slow.status, slow.kind.as_str()), (504, "urn:pith:problem:render-timeout"));
        assert_eq!(p(R::Browser("crashed".into())).status, 502);
        assert_eq!(p(R::Page("net error".into())).status, 422);
        assert_eq!(p(R::Input(crate::error::Error::EmptyInput)).status, 400);
    }

    #[test]
    fn internal_details_stay_inside() {
        let p = ApiError::Internal("/home/x/src/lib.rs panicked".into()).problem();
        assert!(!p.detail.contains("src/lib.rs"));
        assert_eq!(p.kind, "urn:pith:problem:internal");
    }
}
