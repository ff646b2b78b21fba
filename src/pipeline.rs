//! The engine: runs the stages in order and times each.
//!
//! decode → prestrip → parse (DOM + statistics, site-template noise removed) → score (the chosen
//! algorithm) → output. An [`Engine`] is built once (it holds the trained model and the site rules) and
//! shared by every request; `extract` takes `&self` and is safe to call from many threads at once.

use std::time::Instant;

use scraper::Html;

use crate::algorithms::{self, Content, Context, Outcome, Params, bayes::BayesModel, template::Templates};
use crate::article::ArticleModel;
use crate::dom::{Document, DomLimits};
use crate::output::{self, ContentOut, Extraction, HasArticle, Timings};
use crate::{Error, combine, decode, prestrip};

/// Bounds that keep one request's cost predictable.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Larger inputs are refused with [`Error::TooLarge`].
    pub max_input_bytes: usize,
    pub dom: DomLimits,
    /// Blocks reported: the top N by score (plus content blocks, up to 3·N more).
    pub max_blocks: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_input_bytes: 64 * 1024 * 1024, dom: DomLimits::default(), max_blocks: 50 }
    }
}

/// What to extract and how.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub bytes: &'a [u8],
    /// The page's address: picks site templates and resolves relative links.
    pub url: Option<&'a str>,
    /// A charset label from the caller (HTTP `Content-Type`, `--charset`).
    pub charset: Option<&'a str>,
    pub algorithm: &'a str,
    /// Build `content.html` (skipped when false: it costs a second walk).
    pub want_html: bool,
    /// Report per-block scores.
    pub want_blocks: bool,
    /// Keep reader comments in `auto`'s content (`None`: the configured `params.auto.include_comments`).
    pub include_comments: Option<bool>,
}

impl<'a> Request<'a> {
    /// A request with defaults: `auto`, HTML and blocks included.
    pub fn new(bytes: &'a [u8]) -> Self {
        Request {
            bytes,
            url: None,
            charset: None,
            algorithm: "auto",
            want_html: true,
            want_blocks: true,
            include_comments: None,
        }
    }
}

/// Everything loaded once and shared.
#[derive(Debug)]
pub struct Engine {
    pub params: Params,
    pub bayes: BayesModel,
    pub article: ArticleModel,
    /// `auto`'s block classifier.
    pub block_model: combine::BlockModel,
    pub templates: Templates,
    pub limits: Limits,
}

/// The trained Naive Bayes model shipped in `config/`, embedded so the binary needs no files.
const EMBEDDED_BAYES: &str = include_str!("../config/bayes-model.json");
/// The has-article model shipped in `config/`, embedded likewise.
const EMBEDDED_ARTICLE: &str = include_str!("../config/article-model.json");

/// The block classifier shipped in `config/`, embedded likewise.
const EMBEDDED_BLOCKS: &str = include_str!("../config/block-model.json");

/// Parse the embedded block classifier.
pub fn embedded_block_model() -> Result<combine::BlockModel, Error> {
    parse_block_model(EMBEDDED_BLOCKS)
}

/// Parse and check a block classifier file's text against the features the code computes.
pub fn parse_block_model(text: &str) -> Result<combine::BlockModel, Error> {
    let m: combine::BlockModel = serde_json::from_str(text).map_err(|e| Error::Config(format!("block model: {e}")))?;
    m.validate().map_err(|e| Error::Config(format!("block model: {e}")))?;
    Ok(m)
}

/// Parse the embedded has-article model.
pub fn embedded_article() -> Result<ArticleModel, Error> {
    let m: ArticleModel =
        serde_json::from_str(EMBEDDED_ARTICLE).map_err(|e| Error::Config(format!("article model: {e}")))?;
    m.validate()?;
    Ok(m)
}

impl Engine {
    /// An engine with the embedded model, the embedded site rules and the papers' parameters.
    pub fn with_defaults() -> Result<Engine, Error> {
        Ok(Engine {
            params: Params::default(),
            bayes: embedded_bayes()?,
            article: embedded_article()?,
            block_model: embedded_block_model()?,
            templates: Templates::embedded()?,
            limits: Limits::default(),
        })
    }

    /// An engine with no trained models (the papers' parameters and the embedded site rules): the
    /// starting point for training, which must not depend on the models it is about to replace.
    pub fn untrained() -> Result<Engine, Error> {
        Ok(Engine {
            params: Params::default(),
            bayes: BayesModel::default(),
            article: ArticleModel::default(),
            block_model: combine::BlockModel::default(),
            templates: Templates::embedded()?,
            limits: Limits::default(),
        })
    }

    /// Extract main content from a page.
    pub fn extract(&self, req: &Request<'_>) -> Result<Extraction, Error> {
        let t0 = Instant::now();
        if !algorithms::names().contains(&req.algorithm) {
            return Err(Error::UnknownAlgorithm {
                name: req.algorithm.to_string(),
                known: algorithms::names().join(", "),
            });
        }
        check_input(req.bytes, self.limits.max_input_bytes)?;
        let decoded = decode::decode(req.bytes, req.charset)?;
        let meta = if req.algorithm == "auto" { crate::meta::scan(&decoded.text) } else { Default::default() };
        let t_decode = Instant::now();
        let mut stripped = if req.algorithm == "line-density" {
            prestrip::prestrip_source(&decoded.text)
        } else {
            prestrip::prestrip(&decoded.text)
        };
        drop(decoded.text);
        let t_prestrip = Instant::now();
        let rule = req.url.and_then(|u| self.templates.find(u));
        if req.algorithm == "template" && rule.is_none() {
            return Err(Error::NoTemplate(req.url.unwrap_or("a page without a URL").to_string()));
        }
        let (doc, template_content) = match rule {
            // Site rules are CSS selectors, which run on scraper's tree; then that tree is copied.
            Some(r) => {
                let parsed = Html::parse_document(&stripped.html);
                let noise = r.noise_nodes(&parsed);
                let content = r.content_nodes(&parsed);
                Document::from_html(&parsed, self.limits.dom, &|id| noise.contains(&id), &content)
            }
            None => {
                // line-density reads the pre-stripped source; everything else needs only the tree, so
                // the tendril is handed to the parser whole.
                let html = if req.algorithm == "line-density" {
                    stripped.html.clone()
                } else {
                    std::mem::take(&mut stripped.html)
                };
                (Document::parse_tendril(html, self.limits.dom), Vec::new())
            }
        };
        let t_parse = Instant::now();
        // A per-request override of the comment policy costs a copy of the parameters, only then.
        let with_comments;
        let params = match req.include_comments {
            Some(v) if v != self.params.auto.include_comments => {
                let mut p = self.params.clone();
                p.auto.include_comments = v;
                with_comments = p;
                &with_comments
            }
            _ => &self.params,
        };
        let ctx = Context {
            doc: &doc,
            html: &stripped.html,
            params,
            bayes: &self.bayes,
            article: &self.article,
            block_model: &self.block_model,
            meta: &meta,
            url: req.url,
            want_blocks: req.want_blocks,
        };
        let mut outcome = self.run_algorithm(req.algorithm, &ctx);
        // A matching site rule wins over the generic algorithms in `auto`, and is all `template` uses.
        if let Some(r) = rule {
            let rule_content = algorithms::topmost(&doc, template_content);
            if req.algorithm == "template" || (req.algorithm == "auto" && !rule_content.is_empty()) {
                let found = !rule_content.is_empty();
                tracing::debug!(rule = %r.name, found, "site template applied");
                outcome.content = Content::Nodes(rule_content);
                if req.algorithm == "template" {
                    outcome.probability = if found { 1.0 } else { 0.0 };
                }
            }
        }
        let probability = if outcome.probability.is_finite() { outcome.probability.clamp(0.0, 1.0) } else { 0.0 };
        let (text, html) = match &outcome.content {
            Content::Nodes(roots) => (
                output::render_text(&doc, roots),
                if req.want_html { output::render_html(&doc, roots, req.url) } else { String::new() },
            ),
            Content::Text(paras) => {
                (paras.join("\n"), if req.want_html { output::paragraphs_html(paras) } else { String::new() })
            }
        };
        let blocks = if req.want_blocks {
            output::report_blocks(&doc, outcome.blocks, self.limits.max_blocks)
        } else {
            Vec::new()
        };
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1000.0;
        let t_end = Instant::now();
        Ok(Extraction {
            url: req.url.map(str::to_string),
            title: doc.title.clone(),
            lang: doc.lang.clone(),
            charset: decoded.charset.to_string(),
            algorithm: req.algorithm.to_string(),
            content: ContentOut { text, html },
            has_article: HasArticle {
                probability,
                is_article: probability >= self.params.pvalue.article_threshold,
                signals: outcome.signals.iter().map(|&(k, v)| (std::borrow::Cow::Borrowed(k), v)).collect(),
            },
            blocks,
            timings_ms: Timings {
                decode: ms(t0, t_decode),
                prestrip: ms(t_decode, t_prestrip),
                parse: ms(t_prestrip, t_parse),
                score: ms(t_parse, t_end),
                total: ms(t0, t_end),
            },
        })
    }

    /// Decode, pre-strip and parse a page exactly as [`Engine::extract`] does for `auto` (site rules
    /// aside), then hand the algorithms' context to `f`. Training uses this, so it learns from the
    /// same measures extraction computes.
    pub fn with_context<R>(
        &self,
        bytes: &[u8],
        url: Option<&str>,
        f: impl FnOnce(&Context<'_>) -> R,
    ) -> Result<R, Error> {
        check_input(bytes, self.limits.max_input_bytes)?;
        let decoded = decode::decode(bytes, None)?;
        let meta = crate::meta::scan(&decoded.text);
        let stripped = prestrip::prestrip(&decoded.text);
        let doc = Document::parse_tendril(stripped.html.clone(), self.limits.dom);
        let ctx = Context {
            doc: &doc,
            html: &stripped.html,
            params: &self.params,
            bayes: &self.bayes,
            article: &self.article,
            block_model: &self.block_model,
            meta: &meta,
            url,
            want_blocks: false,
        };
        Ok(f(&ctx))
    }

    /// Run one algorithm by name on a parsed page (names are checked by the caller).
    pub fn run_algorithm(&self, name: &str, ctx: &Context<'_>) -> Outcome {
        use algorithms::*;
        match name {
            "cetd-ds" => cetd::run_density_sum(ctx, cetd::Density::Text),
            "cectd-ds" => cetd::run_density_sum(ctx, cetd::Density::Composite),
            "cectd-s" => cetd::run_smoothed(ctx),
            "p-value" => pvalue::run(ctx),
            "bayes" => bayes::run(ctx),
            "anchor-ratio" => anchor_ratio::run(ctx),
            "line-density" => line_density::run(ctx),
            "dom-stats" => dom_stats::run(ctx),
            "template" => Outcome {
                content: Content::Nodes(Vec::new()),
                probability: 0.0,
                blocks: Vec::new(),
                signals: Vec::new(),
            },
            _ => combine::run(ctx),
        }
    }
}

/// Parse the embedded model.
pub fn embedded_bayes() -> Result<BayesModel, Error> {
    parse_bayes(EMBEDDED_BAYES)
}

/// Parse and check a model file's text.
pub fn parse_bayes(text: &str) -> Result<BayesModel, Error> {
    let m: BayesModel = serde_json::from_str(text).map_err(|e| Error::Config(format!("bayes model: {e}")))?;
    m.validate().map_err(Error::Config)?;
    Ok(m)
}

/// Refuse empty, oversized and binary input before any work is done.
pub fn check_input(bytes: &[u8], max: usize) -> Result<(), Error> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::EmptyInput);
    }
    if bytes.len() > max {
        return Err(Error::TooLarge { size: bytes.len(), limit: max });
    }
    if let Some(kind) = binary_kind(bytes) {
        return Err(Error::BinaryInput(kind.to_string()));
    }
    Ok(())
}

/// Recognise common binary formats by their magic bytes, and anything with many NUL bytes early on
/// (UTF-16 text with a byte-order mark excepted).
fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"%PDF", "a PDF document"),
        (b"\x89PNG", "a PNG image"),
        (b"GIF8", "a GIF image"),
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1F\x8B", "gzip-compressed data (decompress it first)"),
        (b"\x7FELF", "an executable"),
        (b"\0asm", "a WebAssembly module"),
        (b"OggS", "an Ogg media file"),
        (b"ID3", "an MP3 file"),
        (b"RIFF", "a RIFF media file"),
        (b"\x28\xB5\x2F\xFD", "zstd-compressed data"),
    ];
    if let Some((_, kind)) = MAGIC.iter().find(|(m, _)| bytes.starts_with(m)) {
        return Some(kind);
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return None;
    }
    let head = &bytes[..bytes.len().min(4096)];
    let nul = head.iter().filter(|&&b| b == 0).count();
    if nul * 4 > head.len() { Some("binary data (a quarter of its first bytes are NUL)") } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_checks() {
        assert!(matches!(check_input(b"", 10), Err(Error::EmptyInput)));
        assert!(matches!(check_input(b" \n ", 10), Err(Error::EmptyInput)));
        assert!(matches!(check_input(b"0123456789ab", 10), Err(Error::TooLarge { .. })));
        assert!(matches!(check_input(b"%PDF-1.7", 100), Err(Error::BinaryInput(_))));
        assert!(check_input(b"<p>a\0b</p>", 100).is_ok());
    }
}
