//! What a caller asks the engine for: one page ([`Request`]) and how to extract it ([`Options`]).
//!
//! [`Options`] is the one options type from the wire to the engine: the service parses a request's
//! JSON or query into it once, and its jobs, its cache keys and the engine all carry that value.

use crate::algorithms::Algorithm;
use crate::algorithms::auto::NoArticleText;
use crate::algorithms::contract::site_template::SiteTemplate;
use crate::output::Explain;
use crate::output::markdown::MarkdownOptions;

/// How to extract, whatever the page: everything a caller chooses besides the page itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    pub algorithm: Algorithm,
    /// Fill `content.text`.
    pub text: bool,
    /// Fill `content.html` (skipped when false: it costs a second walk).
    pub html: bool,
    /// Fill `content.markdown`, from the same kept nodes as the text and HTML.
    pub markdown: Option<MarkdownOptions>,
    /// Fill `content.explain` with an explanation of the decisions: the page or the lines.
    pub explain: Option<Explain>,
    /// Report per-block scores.
    pub blocks: bool,
    /// Keep reader comments in `auto`'s content (`None`: the configured `params.auto.include_comments`).
    pub include_comments: Option<bool>,
    /// What `auto` returns for a page without an article (`None`: the configured
    /// `params.auto.no_article_text`).
    pub no_article_text: Option<NoArticleText>,
}

impl Default for Options {
    /// `auto`; text, HTML and blocks.
    fn default() -> Self {
        Options {
            algorithm: Algorithm::Auto,
            text: true,
            html: true,
            markdown: None,
            explain: None,
            blocks: true,
            include_comments: None,
            no_article_text: None,
        }
    }
}

impl Options {
    /// The defaults, with another algorithm.
    pub fn for_algorithm(algorithm: Algorithm) -> Options {
        Options { algorithm, ..Options::default() }
    }
}

/// One page to extract, and how.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub bytes: &'a [u8],
    /// The page's address: picks site templates and resolves relative links.
    pub url: Option<&'a str>,
    /// A charset label from the caller (HTTP `Content-Type`, `--charset`).
    pub charset: Option<&'a str>,
    pub options: Options,
    /// The template of the page's site, learned from its other pages (`auto` leaves out what the
    /// site repeats); `None` extracts the page on its own.
    pub site: Option<&'a SiteTemplate>,
}

impl<'a> Request<'a> {
    /// A request with the default options ([`Options::default`]).
    pub fn new(bytes: &'a [u8]) -> Self {
        Request::with_options(bytes, Options::default())
    }

    /// A request with these options, no address and no charset label.
    pub fn with_options(bytes: &'a [u8], options: Options) -> Self {
        Request { bytes, url: None, charset: None, options, site: None }
    }
}
