//! Why a page could not be rendered: one error for the browser's callers, each kind with its code.

use crate::error::Error;

/// Why a page could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// Rendering is switched off or no browser is installed.
    #[error("rendering is unavailable: {0}")]
    Unavailable(String),
    /// Every page slot stayed taken for `render.queue_timeout_ms`.
    #[error("every browser page is busy; try again shortly")]
    Busy,
    #[error("rendering took longer than {0} ms")]
    Timeout(u64),
    /// The browser failed (did not start, crashed, broke its protocol).
    #[error("the browser failed: {0}")]
    Browser(String),
    /// The page failed in the browser (navigation error, renderer crash).
    #[error("the page failed to render: {0}")]
    Page(String),
    /// The input itself was refused before any browser was involved.
    #[error(transparent)]
    Input(#[from] Error),
}

impl RenderError {
    /// A short, stable machine-readable code for problem documents.
    pub fn code(&self) -> &'static str {
        match self {
            RenderError::Unavailable(_) => "render-unavailable",
            RenderError::Busy => "render-busy",
            RenderError::Timeout(_) => "render-timeout",
            RenderError::Browser(_) => "render-failed",
            RenderError::Page(_) => "render-page-failed",
            RenderError::Input(e) => e.code(),
        }
    }
}
