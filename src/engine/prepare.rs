//! Stages 1–3: the page as the algorithms read it.
//!
//! Two named steps: [`Engine::strip`] checks the input, decodes it (stage 1) and pre-strips it
//! (stage 2); [`Engine::parse`] parses it into the arena (stage 3), with a matching site rule's noise
//! left out or a browser's layout applied. [`Engine::prepare`] runs both. They are apart because the
//! render path lays the page out between them: the browser is handed the stripped page (see
//! [`crate::browser`]), and extraction continues from it instead of decoding and pre-stripping again.
//! What the page declares about itself is read along the way by [`crate::metadata::Gathering`].

use std::time::{Duration, Instant};

use html5ever::tendril::{SendTendril, StrTendril, fmt::UTF8};

use super::Engine;
use super::limits::{check_input, check_start_tags, too_complex};
use crate::algorithms::contract::params::Params;
use crate::algorithms::contract::{Context, topmost};
use crate::algorithms::template::SiteRule;
use crate::algorithms::{Algorithm, Needs, SiteRuleUse};
use crate::dom::layout::Layout;
use crate::dom::{Document, NodeId};
use crate::error::Error;
use crate::metadata::page_meta::PageMeta;
use crate::metadata::{Declarations, Gathered, Gathering, Wanted};
use crate::text::{decode, prestrip};

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
    /// Read the declarations the result's `metadata` is read from (extraction does, training need not).
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
    /// The declarations `metadata` is read from (read only when [`Preparation::metadata`] asks).
    pub declared: Option<Declarations>,
    /// The description of the one product the page declares in JSON-LD, in paragraphs (read only
    /// when the declarations are and the page declares a product; empty otherwise).
    pub product_description: Vec<String>,
    /// Milliseconds spent reading the declarations in a pass of their own (none when pre-strip's
    /// pass collected them, whose time is pre-strip's, or the parser's tree gave them, whose walk is
    /// the parse's).
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
            blocks_listed: None,
            layout: None,
            product_description: &self.product_description,
            site: None,
            sign: false,
        }
    }
}

/// A page after stages 1–2: decoded and pre-stripped, its declarations read as far as they can be
/// before the parse.
pub struct Stripped<'e> {
    /// The pre-stripped page.
    pub(crate) html: StrTendril,
    charset: &'static str,
    needs: Needs,
    gathered: Gathered,
    /// The site rule that matched the URL (none when a layout will be applied).
    rule: Option<&'e SiteRule>,
    /// Milliseconds in decode and pre-strip, and in reading declarations in passes of their own.
    ms: [f64; 2],
    metadata_ms: f64,
    took: Duration,
}

/// A [`Stripped`] page on its way through the browser to another thread: no site rule (a laid-out
/// page gets none), its text handed over without a copy.
pub struct StrippedOwned {
    html: SendTendril<UTF8>,
    charset: &'static str,
    needs: Needs,
    gathered: Gathered,
    ms: [f64; 2],
    metadata_ms: f64,
    took: Duration,
}

impl std::fmt::Debug for StrippedOwned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StrippedOwned")
            .field("charset", &self.charset)
            .field("took", &self.took)
            .finish_non_exhaustive()
    }
}

impl StrippedOwned {
    /// Wall time stages 1–2 took.
    pub fn took(&self) -> Duration {
        self.took
    }
}

impl Stripped<'_> {
    /// The page with its text made sendable, for a layout to come (see [`Engine::parse_laid_out`]).
    pub fn into_owned(self) -> StrippedOwned {
        StrippedOwned {
            html: self.html.into_send(),
            charset: self.charset,
            needs: self.needs,
            gathered: self.gathered,
            ms: self.ms,
            metadata_ms: self.metadata_ms,
            took: self.took,
        }
    }
}

fn ms(a: Instant, b: Instant) -> f64 {
    (b - a).as_secs_f64() * 1000.0
}

impl Engine {
    /// Stages 1–3: check the input, decode it, pre-strip it and parse it into the arena, with what
    /// the algorithm reads besides the tree (its source text, the page's declarations) and the site
    /// rule's noise removed. Extraction and training both prepare pages here.
    pub fn prepare<'e>(&'e self, bytes: &[u8], prep: &Preparation<'_>) -> Result<Page<'e>, Error> {
        let (stripped, ()) = self.strip(bytes, prep, prep.layout.is_some(), |_| ())?;
        self.parse(stripped, prep.layout)
    }

    /// Stages 1–2. `laid_out`: a browser's layout will be applied to the parse (so no site rule is).
    /// `observe` is shown the decoded page before pre-strip (the browser's prepare reads its style
    /// sheets there).
    pub fn strip<'e, R>(
        &'e self,
        bytes: &[u8],
        prep: &Preparation<'_>,
        laid_out: bool,
        observe: impl FnOnce(&str) -> R,
    ) -> Result<(Stripped<'e>, R), Error> {
        let t0 = Instant::now();
        let needs = prep.needs;
        check_input(bytes, self.limits.max_input_bytes)?;
        // Stage 1.
        let decoded = decode::decode(bytes, prep.charset)?;
        if decoded.repaired > 0 {
            tracing::debug!(repaired = decoded.repaired, "doubly encoded characters repaired");
        }
        let observed = observe(&decoded.text);
        let t_decode = Instant::now();
        // The work budget, checked on the start tags before any lol_html pass (the metadata scan's and
        // pre-strip's, whose per-element state is the first big allocation), again on the stripped
        // page's smaller budget before the parse, and on the nodes during it.
        let node_budget = |len: usize| self.limits.dom.node_budget(len);
        let admitted = prestrip::admit(&decoded.text, &node_budget).map_err(|o| too_complex(o.elements, o.budget))?;
        let t_admit = Instant::now();
        let rule = if prep.site_rules && !laid_out { prep.url.and_then(|u| self.templates.find(u)) } else { None };
        // A site rule's selectors run on a parse by html5ever's own tokenizer; every other parse is pith's.
        let admitted = admitted.parsed_by_pith(rule.is_none());
        // The declarations, read before pre-strip removes the scripts that carry them, inside its pass,
        // or from the parse: the way is chosen once (see `metadata::gather`).
        let wanted = Wanted { page_meta: needs.declarations, declarations: prep.metadata };
        let plain_parse = rule.is_none() && !laid_out;
        let (gathering, observers) = Gathering::start(wanted, &decoded.text, &admitted, plain_parse);
        let t_gather = Instant::now();
        // Stage 2.
        let mut stripped = admitted.prestrip_observed(observers);
        drop(decoded.text);
        check_start_tags(&self.limits.dom, &stripped)?;
        let t_prestrip = Instant::now();
        if needs.site_rule == SiteRuleUse::Require && rule.is_none() {
            return Err(Error::NoTemplate(prep.url.unwrap_or("a page without a URL").to_string()));
        }
        let gathered = gathering.after_prestrip(&stripped.html);
        let metadata_ms = ms(t_admit, t_gather) + gathered.ms_after_prestrip();
        let html = std::mem::take(&mut stripped.html);
        Ok((
            Stripped {
                html,
                charset: decoded.charset,
                needs,
                gathered,
                rule,
                ms: [ms(t0, t_decode), ms(t_decode, t_prestrip) - ms(t_admit, t_gather)],
                metadata_ms,
                took: t0.elapsed(),
            },
            observed,
        ))
    }

    /// Stage 3: parse the stripped page into the arena, with the site rule's noise left out, or the
    /// elements `layout` did not show (for algorithms that do not read the layout itself).
    pub fn parse<'e>(&'e self, s: Stripped<'e>, layout: Option<&Layout>) -> Result<Page<'e>, Error> {
        let t0 = Instant::now();
        let Stripped {
            mut html, charset, needs, mut gathered, rule, ms: [decode_ms, prestrip_ms], metadata_ms, ..
        } = s;
        let (doc, rule) = match rule {
            // Site rules are CSS selectors, which run on scraper's tree; then that tree is copied.
            Some(r) => {
                let parsed = crate::dom::parse_html(&html);
                let noise = r.noise_nodes(&parsed);
                let content = r.content_nodes(&parsed);
                let limits = self.limits.dom.for_page(html.len());
                let (doc, found) = Document::from_html(&parsed, limits, &|id| noise.contains(&id), &content);
                let found = topmost(&doc, found);
                (doc, Some((r, found)))
            }
            // Without a rule the tendril is handed to the parser whole, unless the algorithm reads it.
            None => {
                let text = if needs.source { html.clone() } else { std::mem::take(&mut html) };
                (self.parse_plain(text, needs, layout, &mut gathered)?, None)
            }
        };
        Ok(self.page(doc, html, charset, needs, gathered, rule, [decode_ms, prestrip_ms], metadata_ms, t0))
    }

    /// Stage 3 of a page laid out by a browser, continued from where the browser's prepare left it:
    /// `doc` is the arena the browser was given (the one `layout` describes), used as it is by the
    /// algorithms that read the layout; every other one gets the page parsed again without the
    /// elements the browser did not show.
    pub fn parse_laid_out(&self, s: StrippedOwned, doc: Document, layout: &Layout) -> Result<Page<'_>, Error> {
        let t0 = Instant::now();
        let StrippedOwned { html, charset, needs, mut gathered, ms: [decode_ms, prestrip_ms], metadata_ms, .. } = s;
        let mut html = StrTendril::from(html);
        let doc = if needs.layout {
            if !layout.fits(&doc) {
                return Err(Error::LayoutMismatch);
            }
            doc
        } else {
            drop(doc);
            let text = if needs.source { html.clone() } else { std::mem::take(&mut html) };
            self.parse_plain(text, needs, Some(layout), &mut gathered)?
        };
        Ok(self.page(doc, html, charset, needs, gathered, None, [decode_ms, prestrip_ms], metadata_ms, t0))
    }

    /// The parse without a site rule: plain, without what a layout hid, or checked against the layout
    /// the algorithm reads.
    fn parse_plain(
        &self,
        html: StrTendril,
        needs: Needs,
        layout: Option<&Layout>,
        gathered: &mut Gathered,
    ) -> Result<Document, Error> {
        match layout {
            Some(l) if !needs.layout => {
                let hidden = |id| l.get(id).is_none_or(|b| !b.visible);
                let (doc, print) = crate::dom::parse_without(html, self.limits.dom, &hidden)?;
                if print != l.fingerprint {
                    return Err(Error::LayoutMismatch);
                }
                Ok(doc)
            }
            Some(l) => {
                let doc = Document::parse_tendril(html, self.limits.dom)?;
                if !l.fits(&doc) {
                    return Err(Error::LayoutMismatch);
                }
                Ok(doc)
            }
            None => gathered.parse(html, self.limits.dom),
        }
    }

    /// The prepared page, once parsed.
    #[allow(clippy::too_many_arguments)]
    fn page<'e>(
        &self,
        doc: Document,
        html: StrTendril,
        charset: &'static str,
        needs: Needs,
        gathered: Gathered,
        rule: Option<(&'e SiteRule, Vec<NodeId>)>,
        [decode_ms, prestrip_ms]: [f64; 2],
        metadata_ms: f64,
        t0: Instant,
    ) -> Page<'e> {
        let source = if needs.source { html } else { StrTendril::new() };
        let parse_ms = ms(t0, Instant::now());
        let declared = gathered.finish();
        Page {
            doc,
            source,
            meta: declared.meta,
            declared: declared.declarations,
            product_description: declared.product_description,
            metadata_ms,
            charset,
            rule,
            ms: [decode_ms, prestrip_ms, parse_ms],
        }
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
}
