//! The engine: runs the stages in order, each a named step, and times each.
//!
//! decode → prestrip → parse ([`Engine::prepare`]: DOM and statistics, site-template noise removed)
//! → score ([`Engine::score`]: the chosen algorithm) → output (text, HTML, block report). An [`Engine`]
//! is built once (it holds the models and the site rules) and shared by every request; `extract`
//! takes `&self` and is safe to call from many threads at once. What a stage prepares depends only on
//! what the chosen algorithm says it [`Needs`]: no stage asks for an algorithm by name.

pub mod models;
mod warm_up;

use std::time::Instant;

use html5ever::tendril::StrTendril;

use crate::Error;
use crate::algorithms::contract::{Content, Context, Outcome, Params, topmost};
use crate::algorithms::template::{SiteRule, Templates};
use crate::algorithms::{Algorithm, Needs, SiteRuleUse, auto};
use crate::dom::layout::Layout;
use crate::dom::{Document, DomLimits, NodeId};
use crate::engine::models::Models;
use crate::metadata::page_meta::PageMeta;
use crate::output::{self, ContentOut, Extraction, HasArticle, Timings};
use crate::text::{decode, prestrip};

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
    pub algorithm: Algorithm,
    /// Build `content.html` (skipped when false: it costs a second walk).
    pub want_html: bool,
    /// Report per-block scores.
    pub want_blocks: bool,
    /// Keep reader comments in `auto`'s content (`None`: the configured `params.auto.include_comments`).
    pub include_comments: Option<bool>,
    /// What `auto` returns for a page without an article (`None`: the configured
    /// `params.auto.no_article_text`).
    pub no_article_text: Option<crate::algorithms::auto::NoArticleText>,
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

/// Renderings beyond text and HTML that a caller can ask [`Engine::extract_with`] for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    /// `content.markdown`, from the same kept nodes as the text and HTML.
    pub markdown: Option<crate::output::markdown::MarkdownOptions>,
    /// `content.explain`: the explanation page (see [`crate::output::explain_page`]).
    pub explain: bool,
}

/// Everything loaded once and shared.
#[derive(Debug, Clone)]
pub struct Engine {
    pub params: Params,
    pub models: Models,
    pub templates: Templates,
    pub limits: Limits,
}

/// How to run stages 1–3 on a page.
#[derive(Debug, Clone, Copy)]
pub struct Preparation<'a> {
    /// A charset label from the caller.
    pub charset: Option<&'a str>,
    /// The page's address (picks the site rule).
    pub url: Option<&'a str>,
    /// What the algorithm reads besides the tree.
    pub needs: Needs,
    /// Apply a site rule that matches the URL (its noise selectors, and its content where the
    /// algorithm uses it). Training leaves rules out: it learns from pages as the generic methods see them.
    pub site_rules: bool,
    /// Scan the declarations the result's `metadata` is read from (extraction does, training need not).
    pub metadata: bool,
    /// The page's layout from a browser ([`crate::browser`]), computed from the same bytes. With it, an
    /// algorithm that reads layout gets the arena the layout describes (checked), and any other one
    /// gets the page without the elements the browser did not show; site rules are not applied.
    pub layout: Option<&'a Layout>,
}

/// A page after stages 1–3 (decode, pre-strip, parse): what the algorithms read.
pub struct Page<'e> {
    pub doc: Document,
    /// The pre-stripped source, kept only when the algorithm reads it (empty otherwise).
    pub source: StrTendril,
    /// What the page declares about itself, scanned only when the algorithm reads it.
    pub meta: PageMeta,
    /// The declarations `metadata` is read from (scanned only when [`Preparation::metadata`] asks).
    pub declared: Option<crate::dom::Declarations>,
    /// The description of the one product the page declares in JSON-LD, in paragraphs (read only
    /// when the declarations are and the page declares a product; empty otherwise).
    pub product_description: Vec<String>,
    /// Milliseconds spent scanning them in a pass of their own (none when pre-strip's pass collected
    /// them, whose time is pre-strip's, or the parser's tree gave them, whose walk is the parse's).
    pub metadata_ms: f64,
    /// The encoding the bytes were decoded with.
    pub charset: &'static str,
    /// The site rule that matched the URL, and the nodes its content selectors picked (topmost, in
    /// document order).
    pub rule: Option<(&'e SiteRule, Vec<NodeId>)>,
    /// Milliseconds spent in decode, pre-strip and parse.
    pub ms: [f64; 3],
}

impl Page<'_> {
    /// The algorithms' view of the page.
    pub fn context<'a>(&'a self, params: &'a Params, url: Option<&'a str>, want_blocks: bool) -> Context<'a> {
        Context {
            doc: &self.doc,
            source: &self.source,
            params,
            meta: &self.meta,
            url,
            want_blocks,
            layout: None,
            product_description: &self.product_description,
        }
    }
}

/// `a` and `b` with `sep` between them, or whichever is not empty.
fn join_nonempty(a: String, b: String, sep: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (_, true) => a,
        (true, false) => b,
        (false, false) => a + sep + &b,
    }
}

fn ms(a: Instant, b: Instant) -> f64 {
    (b - a).as_secs_f64() * 1000.0
}

impl Engine {
    /// An engine with the embedded models, the embedded site rules and the papers' parameters.
    pub fn with_defaults() -> Result<Engine, Error> {
        Ok(Engine {
            params: Params::default(),
            models: Models::embedded()?,
            templates: Templates::embedded()?,
            limits: Limits::default(),
        })
    }

    /// An engine with no trained models (the papers' parameters and the embedded site rules): the
    /// starting point for training, which must not depend on the models it is about to replace.
    pub fn untrained() -> Result<Engine, Error> {
        Ok(Engine {
            params: Params::default(),
            models: Models::untrained(),
            templates: Templates::embedded()?,
            limits: Limits::default(),
        })
    }

    /// Extract main content from a page: the five stages in order.
    pub fn extract(&self, req: &Request<'_>) -> Result<Extraction, Error> {
        self.extract_with(req, &Outputs::default())
    }

    /// [`Engine::extract`], with the extra renderings `outputs` asks for.
    pub fn extract_with(&self, req: &Request<'_>, outputs: &Outputs) -> Result<Extraction, Error> {
        self.run(req, outputs, None)
    }

    /// Extract with the page's layout, as [`crate::browser::Renderer::layout`] computed it from the same
    /// bytes: the visual methods (`vips`, `cehtd-ds`) read it; every other algorithm extracts from the
    /// page without the elements the browser did not show (`display: none` from a style sheet,
    /// `visibility: hidden`).
    pub fn extract_rendered(&self, req: &Request<'_>, layout: &Layout) -> Result<Extraction, Error> {
        self.run(req, &Outputs::default(), Some(layout))
    }

    /// [`Engine::extract_rendered`], with the extra renderings `outputs` asks for.
    pub fn extract_rendered_with(
        &self,
        req: &Request<'_>,
        layout: &Layout,
        outputs: &Outputs,
    ) -> Result<Extraction, Error> {
        self.run(req, outputs, Some(layout))
    }

    fn run(&self, req: &Request<'_>, outputs: &Outputs, layout: Option<&Layout>) -> Result<Extraction, Error> {
        let t0 = Instant::now();
        let needs = req.algorithm.needs();
        if needs.layout && layout.is_none() {
            return Err(Error::NeedsLayout(req.algorithm.to_string()));
        }
        let prep = Preparation { charset: req.charset, url: req.url, needs, site_rules: true, metadata: true, layout };
        let page = self.prepare(req.bytes, &prep)?;
        let t_parse = Instant::now();
        let layout_read = layout.filter(|_| needs.layout);
        // The explanation page shows every block's measures, which algorithms compute only when asked.
        let outcome = if outputs.explain && !req.want_blocks {
            self.score_in(&Request { want_blocks: true, ..*req }, &page, layout_read)
        } else {
            self.score_in(req, &page, layout_read)
        };
        let t_score = Instant::now();
        let (mut result, metadata_ms) = self.output(req, &page, outcome, outputs);
        let t_end = Instant::now();
        let [decode, prestrip, parse] = page.ms;
        result.timings_ms = Timings {
            decode,
            prestrip,
            parse,
            score: ms(t_parse, t_score),
            output: ms(t_score, t_end) - metadata_ms,
            metadata: page.metadata_ms + metadata_ms,
            total: ms(t0, t_end),
            render: layout.map(|l| l.render_ms),
        };
        Ok(result)
    }

    /// Stages 1–3: check the input, decode it, pre-strip it and parse it into the arena, with what
    /// the algorithm reads besides the tree (its source text, the page's declarations) and the site
    /// rule's noise removed. Extraction and training both prepare pages here.
    pub fn prepare<'e>(&'e self, bytes: &[u8], prep: &Preparation<'_>) -> Result<Page<'e>, Error> {
        let t0 = Instant::now();
        let needs = prep.needs;
        check_input(bytes, self.limits.max_input_bytes)?;
        // Stage 1, with the declarations read before pre-strip removes the scripts that carry them.
        let decoded = decode::decode(bytes, prep.charset)?;
        if decoded.repaired > 0 {
            tracing::debug!(repaired = decoded.repaired, "doubly encoded characters repaired");
        }
        let meta =
            if needs.declarations { crate::metadata::page_meta::scan(&decoded.text) } else { PageMeta::default() };
        let t_decode = Instant::now();
        // The work budget, checked on the start tags before any lol_html pass (the metadata scan's and
        // pre-strip's, whose per-element state is the first big allocation), again on the stripped
        // page's smaller budget before the parse, and on the nodes during it.
        let node_budget = |len: usize| self.limits.dom.node_budget(len);
        let admitted = prestrip::admit(&decoded.text, &node_budget).map_err(|o| too_complex(o.elements, o.budget))?;
        let t_admit = Instant::now();
        // The declarations `metadata` reads live in `<head>` and in JSON-LD scripts. A page pre-strip
        // passes through (script and style contents cut, JSON-LD kept) gives them from the parse's own
        // tree (stage 3). Pre-strip's pass drops the scripts, so when it runs over the decoded page the
        // scan's handlers run in it (the page tokenized once, the scan's time counted in pre-strip's);
        // a page pre-strip rewrote before its pass (attributes capped) is scanned as decoded, in a pass
        // of its own.
        let passed_through = admitted.is_unchanged() && !admitted.runs_pass();
        let together = prep.metadata && admitted.is_unchanged() && !passed_through;
        let (found, observers) = if together {
            let (handlers, found) = crate::metadata::handlers(&decoded.text);
            (Some(found), handlers)
        } else {
            (None, Vec::new())
        };
        let scanned = (prep.metadata && !together && !passed_through).then(|| crate::metadata::scan(&decoded.text));
        let metadata_ms = ms(t_admit, Instant::now());
        // Stage 2.
        let mut stripped = admitted.prestrip_observed(observers);
        let mut declared = found.map(crate::metadata::Found::finish).or(scanned);
        // Read from the tree in stage 3 when the parse below is the plain one; the other parses
        // (site rules, rendered layouts) scan the page, which pre-strip left as decoded.
        let from_tree = prep.metadata && passed_through;
        drop(decoded.text);
        check_start_tags(&self.limits.dom, &stripped)?;
        let t_prestrip = Instant::now();
        // Stage 3.
        let rule =
            if prep.site_rules && prep.layout.is_none() { prep.url.and_then(|u| self.templates.find(u)) } else { None };
        if needs.site_rule == SiteRuleUse::Require && rule.is_none() {
            return Err(Error::NoTemplate(prep.url.unwrap_or("a page without a URL").to_string()));
        }
        // Counted as the metadata's time, not the parse's.
        let mut late_scan_ms = 0.0;
        if from_tree && (rule.is_some() || prep.layout.is_some()) {
            let t = Instant::now();
            declared = Some(crate::metadata::scan(&stripped.html));
            late_scan_ms = ms(t, Instant::now());
        }
        let (doc, rule) = match rule {
            // Site rules are CSS selectors, which run on scraper's tree; then that tree is copied.
            Some(r) => {
                let parsed = crate::dom::parse_html(&stripped.html);
                let noise = r.noise_nodes(&parsed);
                let content = r.content_nodes(&parsed);
                let limits = self.limits.dom.for_page(stripped.html.len());
                let (doc, found) = Document::from_html(&parsed, limits, &|id| noise.contains(&id), &content);
                let found = topmost(&doc, found);
                (doc, Some((r, found)))
            }
            // Without a rule the tendril is handed to the parser whole, unless the algorithm reads it.
            None => {
                let html = if needs.source { stripped.html.clone() } else { std::mem::take(&mut stripped.html) };
                let doc = match prep.layout {
                    Some(l) if !needs.layout => {
                        let hidden = |id| l.get(id).is_none_or(|b| !b.visible);
                        let (doc, print) = crate::dom::parse_without(html, self.limits.dom, &hidden)?;
                        if print != l.fingerprint {
                            return Err(Error::LayoutMismatch);
                        }
                        doc
                    }
                    Some(l) => {
                        let doc = Document::parse_tendril(html, self.limits.dom)?;
                        if !l.fits(&doc) {
                            return Err(Error::LayoutMismatch);
                        }
                        doc
                    }
                    None if from_tree => {
                        let (doc, found) = Document::parse_declared(html, self.limits.dom)?;
                        declared = Some(found);
                        doc
                    }
                    None => Document::parse_tendril(html, self.limits.dom)?,
                };
                (doc, None)
            }
        };
        let source = if needs.source { stripped.html } else { StrTendril::new() };
        let t_parse = Instant::now();
        let product_description = match &declared {
            Some(d) if meta.ld_product => crate::metadata::product_description(d).unwrap_or_default(),
            _ => Vec::new(),
        };
        Ok(Page {
            doc,
            source,
            meta,
            declared,
            product_description,
            metadata_ms: metadata_ms + late_scan_ms,
            charset: decoded.charset,
            rule,
            ms: [ms(t0, t_decode), ms(t_decode, t_prestrip) - metadata_ms, ms(t_prestrip, t_parse) - late_scan_ms],
        })
    }

    /// Stage 4: run the algorithm on a prepared page, let a matching site rule have its say, and bound
    /// the probability to [0, 1].
    pub fn score(&self, req: &Request<'_>, page: &Page<'_>) -> Outcome {
        self.score_in(req, page, None)
    }

    fn score_in(&self, req: &Request<'_>, page: &Page<'_>, layout: Option<&Layout>) -> Outcome {
        // A per-request override of `auto`'s policies costs a copy of the parameters, only then.
        let overridden;
        let auto = &self.params.auto;
        let comments = req.include_comments.filter(|v| *v != auto.include_comments);
        let no_article = req.no_article_text.filter(|v| *v != auto.no_article_text);
        let params = if comments.is_some() || no_article.is_some() {
            let mut p = self.params.clone();
            p.auto.include_comments = comments.unwrap_or(p.auto.include_comments);
            p.auto.no_article_text = no_article.unwrap_or(p.auto.no_article_text);
            overridden = p;
            &overridden
        } else {
            &self.params
        };
        let mut ctx = page.context(params, req.url, req.want_blocks);
        ctx.layout = layout;
        let mut outcome = req.algorithm.run(&ctx, &self.models.auto());
        if let Some((rule, content)) = &page.rule {
            let found = !content.is_empty();
            let apply = match req.algorithm.needs().site_rule {
                SiteRuleUse::Require => {
                    outcome.probability = if found { 1.0 } else { 0.0 };
                    true
                }
                SiteRuleUse::Prefer => found,
                SiteRuleUse::Ignore => false,
            };
            if apply {
                tracing::debug!(rule = %rule.name, found, "site template applied");
                outcome.content = Content::Nodes(content.clone());
            }
        }
        if !outcome.probability.is_finite() {
            outcome.probability = 0.0;
        }
        outcome.probability = outcome.probability.clamp(0.0, 1.0);
        outcome
    }

    /// Stage 5: the answer: text, HTML and Markdown when asked for, the block report, the has-article
    /// judgement, the page's metadata. Timings are filled in by the caller (returned: the milliseconds
    /// spent reading the metadata).
    pub fn output(&self, req: &Request<'_>, page: &Page<'_>, outcome: Outcome, outputs: &Outputs) -> (Extraction, f64) {
        let doc = &page.doc;
        let (text, html) = match &outcome.content {
            Content::Nodes(roots) => (
                output::render_text(doc, roots),
                if req.want_html { output::render_html(doc, roots, req.url) } else { String::new() },
            ),
            Content::Text(paras) => {
                (paras.join("\n"), if req.want_html { output::paragraphs_html(paras) } else { String::new() })
            }
            Content::Mixed { paragraphs, roots } => {
                let text = join_nonempty(paragraphs.join("\n"), output::render_text(doc, roots), "\n");
                let html = if req.want_html {
                    join_nonempty(output::paragraphs_html(paragraphs), output::render_html(doc, roots, req.url), "\n")
                } else {
                    String::new()
                };
                (text, html)
            }
        };
        let markdown = outputs.markdown.map(|opts| match &outcome.content {
            Content::Nodes(roots) => crate::output::markdown::render(doc, roots, req.url, opts),
            Content::Text(paras) => crate::output::markdown::paragraphs(paras),
            Content::Mixed { paragraphs, roots } => join_nonempty(
                crate::output::markdown::paragraphs(paragraphs),
                crate::output::markdown::render(doc, roots, req.url, opts),
                "\n\n",
            ),
        });
        let explain = outputs.explain.then(|| {
            let probability = outcome.probability.clamp(0.0, 1.0);
            let summary = crate::output::explain_page::Summary {
                title: doc.title.as_deref(),
                url: req.url,
                algorithm: req.algorithm.name(),
                probability,
                is_article: probability >= self.params.pvalue.article_threshold,
            };
            crate::output::explain_page::render(doc, &outcome.blocks, &summary)
        });
        let blocks = if req.want_blocks {
            output::report_blocks(doc, outcome.blocks, self.limits.max_blocks)
        } else {
            Vec::new()
        };
        let probability = outcome.probability;
        let threshold = self.params.pvalue.article_threshold;
        let t_meta = Instant::now();
        let metadata = page
            .declared
            .as_ref()
            .map(|d| crate::metadata::extract(d, doc, req.url, probability >= threshold))
            .unwrap_or_default();
        let metadata_ms = ms(t_meta, Instant::now());
        let result = Extraction {
            url: req.url.map(str::to_string),
            title: doc.title.clone(),
            lang: doc.lang.clone(),
            charset: page.charset.to_string(),
            algorithm: req.algorithm.to_string(),
            content: ContentOut { text, html, markdown, explain },
            has_article: HasArticle {
                probability,
                is_article: probability >= threshold,
                signals: outcome.signals.iter().map(|&(k, v)| (std::borrow::Cow::Borrowed(k), v)).collect(),
            },
            page_type: outcome.non_article.map(|odds| output::PageType::new(probability, threshold, &odds)),
            metadata,
            blocks,
            timings_ms: Timings::default(),
        };
        (result, metadata_ms)
    }

    /// How training prepares a page: as [`Engine::extract`] does for `auto`, site rules aside.
    pub fn prepare_for_training<'e>(&'e self, bytes: &[u8], url: Option<&str>) -> Result<Page<'e>, Error> {
        let needs = Algorithm::Auto.needs();
        self.prepare(
            bytes,
            &Preparation { charset: None, url, needs, site_rules: false, metadata: false, layout: None },
        )
    }

    /// Prepare a page as training does and hand the algorithms' context to `f`.
    pub fn with_context<R>(
        &self,
        bytes: &[u8],
        url: Option<&str>,
        f: impl FnOnce(&Context<'_>) -> R,
    ) -> Result<R, Error> {
        let page = self.prepare_for_training(bytes, url)?;
        Ok(f(&page.context(&self.params, url, false)))
    }

    /// `auto`'s decision per block, one line each (see [`auto::explain`]), on a page prepared as
    /// training prepares it.
    pub fn explain(&self, bytes: &[u8], url: Option<&str>) -> Result<String, Error> {
        self.with_context(bytes, url, |ctx| auto::explain(ctx, &self.models.auto()))
    }
}

/// The work budget, checked before the parse when the start tags alone pass it (the parse checks
/// its tree again, see [`Document::parse_tendril`]).
pub(crate) fn check_start_tags(limits: &DomLimits, stripped: &prestrip::Prestripped) -> Result<(), Error> {
    let budget = limits.node_budget(stripped.html.len());
    if stripped.elements > budget {
        return Err(too_complex(stripped.elements, budget));
    }
    Ok(())
}

pub(crate) fn too_complex(elements: usize, budget: usize) -> Error {
    Error::TooComplex(format!(
        "{elements} start tags, over its budget of {budget} nodes (limits.dom.max_nodes + one per \
         limits.dom.bytes_per_node bytes)"
    ))
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

    #[test]
    fn declarations_read_in_prestrips_pass_are_those_of_their_own_pass() {
        // SVG-heavy, so pre-strip's pass runs; declarations inside elements the pass removes (a
        // JSON-LD script, an SVG, a template, a hidden element, a comment) and markup-like script text.
        let page = format!(
            r#"<html lang=en><head><title>T &amp; t</title><meta property="og:title" content="A">
            <link rel=canonical href="/a"><script type="application/ld+json">{{"@type":"NewsArticle"}}</script>
            </head><body><svg><time datetime="2020-01-01">in svg</time>{}</svg>
            <template><span itemprop=author>Templated Author</span></template>
            <div hidden><a rel=author href=/x>Jo</a></div><!-- <meta name=author content=commented> -->
            <p>text <time datetime="2024-03-05" pubdate>5 March</time></p>
            <script>var x = "<meta name=description content=fake>";</script></body></html>"#,
            "<g></g>".repeat(2000)
        );
        let admitted = prestrip::admit(&page, prestrip::UNBOUNDED).unwrap();
        assert!(admitted.is_unchanged() && admitted.runs_pass());
        let (handlers, found) = crate::metadata::handlers(&page);
        let stripped = admitted.prestrip_observed(handlers);
        assert!(stripped.applied && !stripped.html.contains("NewsArticle") && !stripped.html.contains("<g>"));
        let together = found.finish();
        assert_eq!(together.title.as_deref(), Some("T & t"));
        assert_eq!(together.json_ld.len(), 1);
        assert_eq!(together.times.len(), 2);
        assert_eq!(together.itemprop("author"), Some("Templated Author"));
        assert_eq!(together.rel_authors, vec!["Jo".to_string()]);
        assert_eq!(format!("{together:?}"), format!("{:?}", crate::metadata::scan(&page)));
    }
}
