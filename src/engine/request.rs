//! What a caller asks the engine for: one page ([`Request`]) and how to extract it ([`Options`]).
//!
//! [`Options`] is the one options type from the wire to the engine: the service parses a request's
//! JSON or query into it once, and its jobs, its cache keys and the engine all carry that value. The
//! content formats a caller names ([`Format`]) become options here, for the service, `pith batch`,
//! `pith extract` and the Python package alike.

use std::fmt;
use std::str::FromStr;

use serde::Deserialize;

use crate::algorithms::Algorithm;
use crate::algorithms::auto::NoArticleText;
use crate::output::Explain;
use crate::output::markdown::MarkdownOptions;
use crate::site::SiteTemplate;

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

    /// These options with the content `formats` filled, and no other (Markdown with its default
    /// options, the explanation as its page).
    pub fn with_formats(self, formats: &[Format]) -> Options {
        let wants = |f: Format| formats.contains(&f);
        Options {
            text: wants(Format::Text),
            html: wants(Format::Html),
            markdown: wants(Format::Markdown).then(MarkdownOptions::default),
            explain: wants(Format::Explain).then_some(Explain::Page),
            ..self
        }
    }
}

/// A content format a caller can ask for, each filling `content.<name>`: the names the service's
/// `formats`, `pith batch --format` and the Python package's `formats` take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Text,
    /// `content.html`: the kept nodes as HTML (another walk of them).
    Html,
    /// `content.markdown`: CommonMark with GitHub tables, links resolved against the page's URL.
    Markdown,
    /// `content.explain`: the explanation page (every block shaded by its probability, measures on hover).
    Explain,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Text, Format::Html, Format::Markdown, Format::Explain];

    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Html => "html",
            Format::Markdown => "markdown",
            Format::Explain => "explain",
        }
    }

    /// Names separated by commas, each trimmed; empty names are skipped and a repeated one counts once.
    pub fn parse_list(list: &str) -> Result<Vec<Format>, UnknownFormat> {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let format = name.parse()?;
            if !out.contains(&format) {
                out.push(format);
            }
        }
        Ok(out)
    }
}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(name: &str) -> Result<Format, UnknownFormat> {
        Format::ALL.into_iter().find(|f| f.name() == name).ok_or_else(|| UnknownFormat(name.to_string()))
    }
}

/// A format name that is none of [`Format`]'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        write!(f, "unknown format {:?} ({})", self.0, known.join(", "))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name_and_as_options() {
        assert_eq!(Format::parse_list(" markdown, text,,text "), Ok(vec![Format::Markdown, Format::Text]));
        assert_eq!(Format::parse_list(""), Ok(vec![]));
        let unknown = Format::parse_list("text,pdf").unwrap_err();
        assert_eq!(unknown.to_string(), r#"unknown format "pdf" (text, html, markdown, explain)"#);
        assert_eq!("explain".parse::<Format>(), Ok(Format::Explain));
        let o = Options::default().with_formats(&[Format::Markdown, Format::Explain]);
        assert!(!o.text && !o.html && o.markdown == Some(MarkdownOptions::default()));
        assert!(o.explain == Some(Explain::Page) && o.blocks);
    }
}
