//! `pith.extract`, `pith.extract_many` and `pith.Extractor`: the module's functions run on one shared
//! default engine, an `Extractor` on its own (other models, parameters or site rules, and the site
//! templates it learns when asked to). Both go through
//! the same two functions at the bottom, so they cannot drift apart.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyString};

use crate::engine::{self, Recipe};
use crate::errors::{INVALID_ARGUMENT, pith_error, raise};
use crate::options::Keywords;
use crate::pages::{self, Page};
use crate::sites::LearnedSites;
use crate::{run, to_python};

/// Extract the main content of one web page.
///
/// Returns the object `pith extract --format json` prints, as a dict with the same keys and values:
///
///   url, title, lang, charset, algorithm
///   content      {"text": str, "html": str, "fingerprint": str, "markdown": str (when asked),
///                "explain": str (when asked)}; a format not asked for is "" (text, html) or absent
///                (markdown, explain); "fingerprint" (16 hex digits, the SimHash of the main text,
///                README "Content fingerprint") is always there
///   has_article  {"probability": float, "is_article": bool, "signals": {name: float}}
///   page_type    {"label": "article"|"forum"|"product"|"collection"|"listing"|"documentation"|"service",
///                 "probabilities": {label: float}}, or None (algorithms other than "auto")
///   metadata     {"title", "authors", "published", "modified", "description", "site_name", "lang",
///                 "canonical_url", "image", "tags", "categories", "types", ...}
///   blocks       [{"id", "path", "tag", "text_chars", "link_chars", "tags", "scores", "content"}, ...]
///                when blocks=True, else []
///   timings_ms   {"decode", "prestrip", "parse", "score", "output", "metadata", "total"}
///
/// html: the page. bytes are decoded as `pith extract FILE` decodes a file (the charset argument,
///     a byte-order mark, <meta charset>, then detection); a str is taken as the text it is (decoded
///     as UTF-8 unless charset names another label).
/// url: the page's address: resolves relative links and images and feeds the page models.
/// algorithm: "auto" (the default pipeline) or another name `pith algorithms` lists. "vips" and
///     "cehtd-ds" need a browser and raise NeedsRenderError here.
/// formats: which content to fill: any of "text", "html", "markdown", "explain" (the explanation
///     page of every block), as an iterable or one comma-separated str. () gives the verdicts and
///     metadata alone, the cheapest call.
/// blocks: add the per-block scores ("blocks").
/// charset: a charset label to decode bytes with (e.g. "gbk"), overriding detection.
/// include_comments: keep reader comments in auto's content (None: the engine's setting, False).
/// no_article_text: what auto returns for a page it judges to have no article: "full" (its main
///     content) or "lead" (a short first paragraph). None: the engine's setting, "full".
///
/// Raises a pith.PithError subclass with the message `pith extract` prints after "pith: ", and a
/// `code` attribute: EmptyInputError, BinaryInputError, InputTooLargeError, UnknownCharsetError,
/// UnknownAlgorithmError, UnknownFormatError, InvalidArgumentError, NeedsRenderError,
/// PageTooComplexError, NoTemplateError. TypeError when html is not bytes or str.
///
/// The GIL is released while the page is extracted, so threads extract in parallel.
///
/// Example:
///
///     >>> import pith
///     >>> page = (b"<html><body><nav><a href='/'>Home</a></nav><article><h1>Rice</h1>"
///     ...         b"<p>Farmers learned new methods for growing rice this spring.</p></article></body></html>")
///     >>> result = pith.extract(page, url="https://example.com/rice", formats=("text", "markdown"))
///     >>> result["content"]["text"]
///     'Rice\nFarmers learned new methods for growing rice this spring.'
///     >>> result["has_article"]["probability"] > 0.5, result["page_type"]["label"]
///     (True, 'article')
#[pyfunction]
#[pyo3(
    signature = (html, *, url=None, algorithm="auto", formats=None, blocks=false, charset=None,
                 include_comments=None, no_article_text=None),
    text_signature = "(html, *, url=None, algorithm='auto', formats=('text',), blocks=False, charset=None, include_comments=None, no_article_text=None)"
)]
#[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
pub fn extract<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<String>,
    algorithm: &str,
    formats: Option<&Bound<'py, PyAny>>,
    blocks: bool,
    charset: Option<&str>,
    include_comments: Option<bool>,
    no_article_text: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let keywords = keywords(py, algorithm, formats, blocks, charset, include_comments, no_article_text)?;
    let engine = default_engine(py)?;
    extract_with(py, engine, None, html, url, &keywords)
}

/// Extract many pages at once, on all cores (or `jobs` threads), with the GIL released.
///
/// Returns one dict per page, in the order of `pages`: the dict `pith.extract` returns, or, for a page
/// that could not be extracted (empty, binary, too complex...), {"url": url, "error": {"code": str,
/// "message": str}}, with the code and message the exception would have had. One bad page does not
/// cost the batch; test `"error" in result`.
///
/// pages: an iterable of pages, each bytes or str (as `pith.extract`'s html).
/// urls: a sequence of addresses (or None), one per page.
/// charsets: a sequence of charset labels (or None), one per page, e.g. the charsets of
///     `pith.read_warc`'s records; `charset` applies one label to every page instead.
/// jobs: worker threads (default: the number of CPUs); 1 extracts on the calling thread alone.
/// The other keyword arguments are `pith.extract`'s and apply to every page.
///
/// Arguments that are wrong for every page (an unknown algorithm, format or charset label, urls of
/// another length than pages) raise before any page is read, as pith.extract raises them.
///
/// Example:
///
///     >>> results = pith.extract_many([page_a, page_b], urls=[url_a, url_b], jobs=2)
///     >>> [r["content"]["text"][:40] if "error" not in r else r["error"]["code"] for r in results]
#[pyfunction]
#[pyo3(
    signature = (pages, *, urls=None, charsets=None, jobs=None, algorithm="auto", formats=None, blocks=false,
                 charset=None, include_comments=None, no_article_text=None),
    text_signature = "(pages, *, urls=None, charsets=None, jobs=None, algorithm='auto', formats=('text',), blocks=False, charset=None, include_comments=None, no_article_text=None)"
)]
#[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
pub fn extract_many<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    urls: Option<Vec<Option<String>>>,
    charsets: Option<Vec<Option<String>>>,
    jobs: Option<i64>,
    algorithm: &str,
    formats: Option<&Bound<'py, PyAny>>,
    blocks: bool,
    charset: Option<&str>,
    include_comments: Option<bool>,
    no_article_text: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let keywords = keywords(py, algorithm, formats, blocks, charset, include_comments, no_article_text)?;
    let engine = default_engine(py)?;
    extract_many_with(py, engine, None, pages, Batch { urls, charsets, jobs }, &keywords)
}

/// An extraction engine with its own models, parameters or site rules, loaded once and used for
/// every call (thread-safe: share one between threads).
///
/// models: a directory of trained models, as `pith extract --models DIR` reads it (`pith train
///     --out DIR/...`); files it lacks keep the embedded model.
/// params: algorithm parameters over config/default.toml's [params] table, as a dict of tables:
///     {"auto": {"no_article_text": "lead", "block_threshold": 0.6}}. A misspelt key raises
///     ConfigError naming it.
/// sites: a directory of site rules (*.toml) for the "template" algorithm, added to the embedded ones.
/// site_templates: learn each site's template from the pages this extractor extracts, as the service
///     does with site_templates.enabled: a page whose url is http(s) is extracted with what its site
///     (the registered domain) repeats on the pages learned so far left out of auto's answer, then
///     teaches the template (up to 50 pages per site). The answer then has a "template" key:
///     {"pages": other pages of the site learned from, "blocks_removed": n}. Blocks must recur on
///     every other page learned, at least two, before they go, so a site's first three pages answer
///     as without. Kept: hashes of blocks and counts, never text; at most 10,000 sites in 256 MiB,
///     past which new sites are extracted on their own. A page without url has no site. In
///     extract_many the pages learn as the threads finish them, so which of a batch's pages an
///     answer learned from depends on the threads' order; extract calls in sequence are repeatable.
///
/// Its extract and extract_many are pith.extract and pith.extract_many with this engine.
///
///     >>> leads = pith.Extractor(params={"auto": {"no_article_text": "lead"}})
///     >>> leads.extract(listing_page)["content"]["text"]
///     >>> crawl = pith.Extractor(site_templates=True)
///     >>> [crawl.extract(html, url=url).get("template") for url, html in pages_of_one_site]
#[pyclass(frozen, module = "pith")]
pub struct Extractor {
    engine: Arc<pith::Engine>,
    /// The templates learned, when it learns them.
    sites: Option<LearnedSites>,
    /// What it was built from, for `repr`.
    described: String,
}

#[pymethods]
impl Extractor {
    #[new]
    #[pyo3(signature = (models=None, params=None, sites=None, site_templates=false))]
    fn new(
        py: Python<'_>,
        models: Option<PathBuf>,
        params: Option<&Bound<'_, PyAny>>,
        sites: Option<PathBuf>,
        site_templates: bool,
    ) -> PyResult<Extractor> {
        let params = params.map(|p| json_value(py, p)).transpose()?;
        let described = format!(
            "Extractor(models={}, params={}, sites={}{})",
            path_repr(models.as_deref()),
            params.as_ref().map_or_else(|| "None".to_string(), |p| p.to_string()),
            path_repr(sites.as_deref()),
            if site_templates { ", site_templates=True" } else { "" }
        );
        let recipe = Recipe { models: models.as_deref(), params, sites: sites.as_deref() };
        let engine = py.detach(|| engine::build(&recipe)).map_err(|f| f.to_pyerr(py))?;
        let sites = site_templates.then(LearnedSites::default);
        Ok(Extractor { engine: Arc::new(engine), sites, described })
    }

    /// Whether it learns site templates (the site_templates argument).
    #[getter]
    fn site_templates(&self) -> bool {
        self.sites.is_some()
    }

    /// Sites it has learned pages of (0 when it does not learn site templates).
    #[getter]
    fn sites_learned(&self) -> usize {
        self.sites.as_ref().map_or(0, LearnedSites::sites)
    }

    /// Pages learned of the site of `url` (its registered domain): 0 for a site not seen, a url
    /// without a site, or an extractor that does not learn site templates.
    fn site_pages(&self, url: &str) -> usize {
        match (&self.sites, LearnedSites::site_of(Some(url))) {
            (Some(sites), Some(site)) => sites.pages(&site),
            _ => 0,
        }
    }

    /// pith.extract with this extractor's engine (see help(pith.extract)).
    #[pyo3(
        signature = (html, *, url=None, algorithm="auto", formats=None, blocks=false, charset=None,
                     include_comments=None, no_article_text=None),
        text_signature = "(self, html, *, url=None, algorithm='auto', formats=('text',), blocks=False, charset=None, include_comments=None, no_article_text=None)"
    )]
    #[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
    fn extract<'py>(
        &self,
        py: Python<'py>,
        html: &Bound<'py, PyAny>,
        url: Option<String>,
        algorithm: &str,
        formats: Option<&Bound<'py, PyAny>>,
        blocks: bool,
        charset: Option<&str>,
        include_comments: Option<bool>,
        no_article_text: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let keywords = keywords(py, algorithm, formats, blocks, charset, include_comments, no_article_text)?;
        extract_with(py, &self.engine, self.sites.as_ref(), html, url, &keywords)
    }

    /// pith.extract_many with this extractor's engine (see help(pith.extract_many)).
    #[pyo3(
        signature = (pages, *, urls=None, charsets=None, jobs=None, algorithm="auto", formats=None, blocks=false,
                     charset=None, include_comments=None, no_article_text=None),
        text_signature = "(self, pages, *, urls=None, charsets=None, jobs=None, algorithm='auto', formats=('text',), blocks=False, charset=None, include_comments=None, no_article_text=None)"
    )]
    #[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
    fn extract_many<'py>(
        &self,
        py: Python<'py>,
        pages: &Bound<'py, PyAny>,
        urls: Option<Vec<Option<String>>>,
        charsets: Option<Vec<Option<String>>>,
        jobs: Option<i64>,
        algorithm: &str,
        formats: Option<&Bound<'py, PyAny>>,
        blocks: bool,
        charset: Option<&str>,
        include_comments: Option<bool>,
        no_article_text: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let keywords = keywords(py, algorithm, formats, blocks, charset, include_comments, no_article_text)?;
        extract_many_with(py, &self.engine, self.sites.as_ref(), pages, Batch { urls, charsets, jobs }, &keywords)
    }

    fn __repr__(&self) -> String {
        self.described.clone()
    }
}

/// The per-page lists and thread count of an `extract_many` call.
struct Batch {
    urls: Option<Vec<Option<String>>>,
    charsets: Option<Vec<Option<String>>>,
    jobs: Option<i64>,
}

/// The keyword arguments, with `formats=None` standing for its default, `("text",)`.
fn keywords<'a, 'py>(
    py: Python<'py>,
    algorithm: &'a str,
    formats: Option<&'a Bound<'py, PyAny>>,
    blocks: bool,
    charset: Option<&'a str>,
    include_comments: Option<bool>,
    no_article_text: Option<&'a str>,
) -> PyResult<Keywords<'a, 'py>> {
    static TEXT_ONLY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let formats = match formats {
        Some(f) => f.clone(),
        None => TEXT_ONLY
            .get_or_try_init(py, || Ok::<_, PyErr>(("text",).into_pyobject(py)?.into_any().unbind()))?
            .bind(py)
            .clone(),
    };
    Ok(Keywords { algorithm, formats, blocks, charset, include_comments, no_article_text })
}

fn extract_with<'py>(
    py: Python<'py>,
    engine: &pith::Engine,
    sites: Option<&LearnedSites>,
    html: &Bound<'py, PyAny>,
    url: Option<String>,
    keywords: &Keywords<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let choice = keywords.choice(py)?;
    let page = pages::page(html, url, choice.charset)?;
    match py.detach(|| run::extract(engine, &page, choice.options, sites)) {
        Ok(json) => to_python::parsed(py, &json),
        Err(failure) => Err(failure.to_pyerr(py)),
    }
}

fn extract_many_with<'py>(
    py: Python<'py>,
    engine: &pith::Engine,
    sites: Option<&LearnedSites>,
    pages: &Bound<'py, PyAny>,
    batch: Batch,
    keywords: &Keywords<'_, 'py>,
) -> PyResult<Bound<'py, PyList>> {
    let choice = keywords.choice(py)?;
    // A str or bytes is itself iterable (by character, by byte): one page passed alone is a mistake.
    if pages.is_instance_of::<PyString>() || pages.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err("pages must be an iterable of pages; for one page, use extract"));
    }
    let objects: Vec<Bound<'py, PyAny>> = pages.try_iter()?.collect::<PyResult<_>>()?;
    let n = objects.len();
    let per_page = |name: &str, list: Option<Vec<Option<String>>>| -> PyResult<Vec<Option<String>>> {
        match list {
            None => Ok(vec![None; n]),
            Some(l) if l.len() == n => Ok(l),
            Some(l) => Err(raise(py, INVALID_ARGUMENT, format!("{name} has {} entries for {n} pages", l.len()))),
        }
    };
    let urls = per_page("urls", batch.urls)?;
    if batch.charsets.is_some() && choice.charset.is_some() {
        return Err(raise(py, INVALID_ARGUMENT, "give charset (every page) or charsets (one per page), not both"));
    }
    let charsets = per_page("charsets", batch.charsets)?;
    let jobs = match batch.jobs {
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(j) if j >= 1 => usize::try_from(j).unwrap_or(usize::MAX),
        Some(j) => return Err(raise(py, INVALID_ARGUMENT, format!("jobs must be at least 1, not {j}"))),
    };
    let work: Vec<Page<'_>> = objects
        .iter()
        .zip(urls)
        .zip(charsets)
        .map(|((html, url), charset)| pages::page(html, url, charset.or_else(|| choice.charset.clone())))
        .collect::<PyResult<_>>()?;
    let answers = py.detach(|| run::extract_all(engine, &work, choice.options, sites, jobs));
    let list = PyList::empty(py);
    for (answer, page) in answers.iter().zip(&work) {
        list.append(to_python::answer(py, answer, page.url.as_deref())?)?;
    }
    Ok(list)
}

/// The shared default engine, built on first use without holding the GIL.
fn default_engine(py: Python<'_>) -> PyResult<&'static pith::Engine> {
    match engine::default_if_built() {
        Some(engine) => Ok(engine),
        None => py.detach(engine::default_engine).map_err(|f| f.to_pyerr(py)),
    }
}

/// A Python mapping as JSON, through `json.dumps` (which refuses what JSON cannot say).
fn json_value(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let text: String = DUMPS.import(py, "json", "dumps")?.call1((value,))?.extract()?;
    serde_json::from_str(&text).map_err(|e| pith_error(py, &pith::Error::Config(format!("params: {e}"))))
}

fn path_repr(path: Option<&std::path::Path>) -> String {
    path.map_or_else(|| "None".to_string(), |p| format!("{:?}", p.display().to_string()))
}
