//! What a caller asks the engine for: one page and how to extract it ([`Request`]), and the
//! renderings beyond text and HTML ([`Outputs`]).

use crate::algorithms::Algorithm;
use crate::algorithms::auto::NoArticleText;
use crate::output::markdown::MarkdownOptions;

/// What to extract and how.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub bytes: &'a [u8],
    /// The page's address: picks site templates and resolves relative links.
    pub url: Option<&'a str>,
    /// A charset label from the caller (HTTP `Content-Type`, `--charset`).
    pub charset: Option<&'a str>,
    pub algorithm: Algorithm,
    /// Build `content.html` (skipped when false: it costs a second walk).
    pub want_html: bool,
    /// Report per-block scores.
    pub want_blocks: bool,
    /// Keep reader comments in `auto`'s content (`None`: the configured `params.auto.include_comments`).
    pub include_comments: Option<bool>,
    /// What `auto` returns for a page without an article (`None`: the configured
    /// `params.auto.no_article_text`).
    pub no_article_text: Option<NoArticleText>,
}

impl<'a> Request<'a> {
    /// A request with defaults: `auto`, HTML and blocks included.
    pub fn new(bytes: &'a [u8]) -> Self {
        Request {
            bytes,
            url: None,
            charset: None,
            algorithm: Algorithm::Auto,
            want_html: true,
            want_blocks: true,
            include_comments: None,
            no_article_text: None,
        }
    }
}

/// Renderings beyond text and HTML that a caller can ask [`super::Engine::extract_with`] for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    /// `content.markdown`, from the same kept nodes as the text and HTML.
    pub markdown: Option<MarkdownOptions>,
    /// `content.explain`: the explanation page (see [`crate::output::explain_page`]).
    pub explain: bool,
}
