//! The engine: runs the stages in order, each a named step, and times each.
//!
//! | stage | step | file |
//! |---|---|---|
//! | 1–2 | [`Engine::strip`]: check the input, decode it, pre-strip it, read its declarations | `prepare.rs` |
//! | 3 | [`Engine::parse`]: the arena, a site rule's noise left out or a layout applied | `prepare.rs` |
//! | 4 | [`Engine::score`]: the chosen algorithm | `score.rs` |
//! | 5 | [`Engine::assemble`]: text, HTML, Markdown, the block report, metadata | `assemble.rs` |
//!
//! Beside them: what a caller asks for (`request.rs`), the guards on input size and complexity
//! (`limits.rs`), the trained models (`models.rs`) and the page `pith serve` extracts before it
//! listens (`warm_up.rs`). An [`Engine`] (`shared.rs`) is built once (it holds the models and the site
//! rules) and shared by every request; `extract` takes `&self` and is safe to call from many threads at once.
//! What a stage prepares depends only on what the chosen algorithm says it [`Needs`]: no stage asks
//! for an algorithm by name.

mod assemble;
mod limits;
pub mod models;
mod prepare;
mod request;
mod score;
mod shared;
mod warm_up;

use std::time::Instant;

pub use limits::{Limits, check_input};
pub use prepare::{Page, Preparation, Stripped, StrippedOwned};
pub use request::{Format, Options, Request, UnknownFormat};
pub use shared::Engine;

use crate::algorithms::{Algorithm, Needs, auto};
use crate::dom::layout::Layout;
use crate::error::Error;
use crate::output::{Extraction, Timings};
use crate::site::PageSignatures;

fn ms(a: Instant, b: Instant) -> f64 {
    (b - a).as_secs_f64() * 1000.0
}

impl Engine {
    /// Extract main content from a page: the five stages in order.
    pub fn extract(&self, req: &Request<'_>) -> Result<Extraction, Error> {
        self.run(req, None)
    }

    /// Extract with the page's layout, as [`crate::browser::Renderer::layout`] computed it from the same
    /// bytes: the visual methods (`vips`, `cehtd-ds`) read it; every other algorithm extracts from the
    /// page without the elements the browser did not show (`display: none` from a style sheet,
    /// `visibility: hidden`).
    pub fn extract_rendered(&self, req: &Request<'_>, layout: &Layout) -> Result<Extraction, Error> {
        self.run(req, Some(layout))
    }

    fn run(&self, req: &Request<'_>, layout: Option<&Layout>) -> Result<Extraction, Error> {
        let t0 = Instant::now();
        let needs = req.options.algorithm.needs();
        if needs.layout && layout.is_none() {
            return Err(Error::NeedsLayout(req.options.algorithm.to_string()));
        }
        let page = self.prepare(req.bytes, &self.preparation(req, needs, layout))?;
        Ok(self.finish(req, page, layout, t0))
    }

    /// Extract, and give the page's block signatures too, from the same parse: what a service that
    /// learns its sites' templates from the pages it extracts calls, so that learning costs a walk
    /// over the blocks and not a second parse.
    pub fn extract_and_sign(&self, req: &Request<'_>) -> Result<(Extraction, PageSignatures), Error> {
        let t0 = Instant::now();
        let needs = req.options.algorithm.needs();
        if needs.layout {
            return Err(Error::NeedsLayout(req.options.algorithm.to_string()));
        }
        let page = self.prepare(req.bytes, &self.preparation(req, needs, None))?;
        // `auto` gives the signatures from the blocks it cut and the keys its site rule read; another
        // algorithm leaves them to a cut of their own.
        let cut = (req.options.algorithm != Algorithm::Auto).then(|| auto::page_signatures(&page.doc));
        let (extraction, signatures) = self.finish_signed(req, page, None, t0, true);
        // `auto` always gives them when asked; an empty set would teach its site nothing.
        Ok((extraction, signatures.or(cut).unwrap_or_default()))
    }

    /// The page's block signatures (what it teaches its site's template, see `site`), on the page
    /// prepared as extraction with `auto` prepares it (its declarations aside, which no signature
    /// reads).
    pub fn page_signatures(&self, req: &Request<'_>) -> Result<PageSignatures, Error> {
        let needs = Algorithm::Auto.needs();
        let preparation = Preparation { metadata: false, ..self.preparation(req, needs, None) };
        let page = self.prepare(req.bytes, &preparation)?;
        Ok(auto::page_signatures(&page.doc))
    }

    /// How extraction prepares the page `req` names (site rules and metadata included).
    pub fn preparation<'a>(&self, req: &Request<'a>, needs: Needs, layout: Option<&'a Layout>) -> Preparation<'a> {
        Preparation { charset: req.charset, url: req.url, needs, site_rules: true, metadata: true, layout }
    }

    /// Stages 4 and 5 on a prepared page, timed: what extraction does after [`Engine::prepare`], and
    /// after [`Engine::parse_laid_out`] on the render path.
    pub fn finish(&self, req: &Request<'_>, page: Page<'_>, layout: Option<&Layout>, t0: Instant) -> Extraction {
        self.finish_signed(req, page, layout, t0, false).0
    }

    /// [`Engine::finish`], and with `sign` the page's block signatures as `auto` gives them.
    fn finish_signed(
        &self,
        req: &Request<'_>,
        page: Page<'_>,
        layout: Option<&Layout>,
        t0: Instant,
        sign: bool,
    ) -> (Extraction, Option<PageSignatures>) {
        let t_parse = Instant::now();
        let layout_read = layout.filter(|_| req.options.algorithm.needs().layout);
        // The explanations show every block's measures and decision, which algorithms compute only when
        // asked.
        let mut outcome = if req.options.explain.is_some() && !req.options.blocks {
            let all_blocks = Request { options: Options { blocks: true, ..req.options }, ..*req };
            self.score_in(&all_blocks, &page, layout_read, true, sign)
        } else {
            self.score_in(req, &page, layout_read, true, sign)
        };
        let signatures = outcome.signatures.take();
        let t_score = Instant::now();
        let (mut result, metadata_ms) = self.assemble(req, &page, outcome);
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
        (result, signatures)
    }
}

#[cfg(test)]
mod tests {
    use crate::text::prestrip;

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
