//! The keyword arguments every extraction call takes, checked once and turned into `pith::Options`.
//!
//! Everything here is refused before a page is read: a wrong algorithm, format or charset label is
//! the caller's mistake for every page of a batch, so `extract_many` raises it instead of answering
//! one error per page.

use pith::Format;
use pith::NoArticleText;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{BAD_FORMATS, INVALID_ARGUMENT, pith_error, raise};

/// The keyword arguments as Python passed them.
pub struct Keywords<'a, 'py> {
    pub algorithm: &'a str,
    pub formats: Bound<'py, PyAny>,
    pub blocks: bool,
    pub charset: Option<&'a str>,
    pub include_comments: Option<bool>,
    pub no_article_text: Option<&'a str>,
}

/// What one call asks for, whatever the page.
#[derive(Debug, Clone)]
pub struct Choice {
    pub options: pith::Options,
    /// The caller's charset label, checked to be one pith knows.
    pub charset: Option<String>,
}

impl Keywords<'_, '_> {
    pub fn choice(&self, py: Python<'_>) -> PyResult<Choice> {
        let algorithm: pith::Algorithm = self.algorithm.parse().map_err(|e| pith_error(py, &e))?;
        let formats = formats(py, &self.formats)?;
        let no_article_text = self
            .no_article_text
            .map(|v| v.parse::<NoArticleText>())
            .transpose()
            .map_err(|e| raise(py, INVALID_ARGUMENT, format!("no_article_text: {e}")))?;
        if let Some(label) = self.charset {
            pith::lookup_charset(label).map_err(|e| pith_error(py, &e))?;
        }
        Ok(Choice {
            options: pith::Options {
                algorithm,
                blocks: self.blocks,
                include_comments: self.include_comments,
                no_article_text,
                ..pith::Options::default()
            }
            .with_formats(&formats),
            charset: self.charset.map(str::to_string),
        })
    }
}

/// `formats`: one name, names separated by commas (as the service's query takes them), or an iterable
/// of names. An empty selection is allowed: the answer then has the verdicts and metadata only.
fn formats(py: Python<'_>, given: &Bound<'_, PyAny>) -> PyResult<Vec<Format>> {
    let unknown = |e: pith::UnknownFormat| {
        let known: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        raise(py, BAD_FORMATS, format!("unknown format {:?}; known: {}", e.0, known.join(", ")))
    };
    if let Ok(s) = given.cast::<PyString>() {
        return Format::parse_list(&s.to_cow()?).map_err(unknown);
    }
    let mut names = Vec::new();
    for item in
        given.try_iter().map_err(|_| raise(py, BAD_FORMATS, "formats must be a format name or an iterable of them"))?
    {
        let item = item?;
        let Ok(name) = item.cast::<PyString>() else {
            return Err(raise(py, BAD_FORMATS, format!("formats: {} is not a format name", item.repr()?)));
        };
        names.push(name.to_cow()?.into_owned());
    }
    names.iter().map(|n| n.parse()).collect::<Result<_, _>>().map_err(unknown)
}
