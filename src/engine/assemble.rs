//! Stage 5: the answer assembled from the algorithm's outcome: text, HTML and Markdown when asked for,
//! the explanation (page or lines), the block report, the has-article judgement, the page's metadata.

use std::time::Instant;

use super::{Engine, Page, Request};
use crate::algorithms::contract::{Content, Outcome};
use crate::output::{self, ContentOut, Explain, Extraction, HasArticle, Timings};

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
    /// Stage 5: the answer: text, HTML and Markdown when asked for, the block report, the has-article
    /// judgement, the page's metadata. Timings are filled in by the caller (returned: the milliseconds
    /// spent reading the metadata).
    pub fn assemble(&self, req: &Request<'_>, page: &Page<'_>, outcome: Outcome) -> (Extraction, f64) {
        let doc = &page.doc;
        let o = &req.options;
        // The text is rendered whatever the formats: the fingerprint is made from it.
        let (text, html) = match &outcome.content {
            Content::Nodes(roots) => (
                output::render_text(doc, roots),
                if o.html { output::render_html(doc, roots, req.url) } else { String::new() },
            ),
            Content::Text(paras) => {
                (paras.join("\n"), if o.html { output::paragraphs_html(paras) } else { String::new() })
            }
            Content::Mixed { paragraphs, roots } => {
                let text = join_nonempty(paragraphs.join("\n"), output::render_text(doc, roots), "\n");
                let html = if o.html {
                    join_nonempty(output::paragraphs_html(paragraphs), output::render_html(doc, roots, req.url), "\n")
                } else {
                    String::new()
                };
                (text, html)
            }
        };
        let markdown = o.markdown.map(|opts| match &outcome.content {
            Content::Nodes(roots) => crate::output::markdown::render(doc, roots, req.url, opts),
            Content::Text(paras) => crate::output::markdown::paragraphs(paras),
            Content::Mixed { paragraphs, roots } => join_nonempty(
                crate::output::markdown::paragraphs(paragraphs),
                crate::output::markdown::render(doc, roots, req.url, opts),
                "\n\n",
            ),
        });
        let explain = o.explain.map(|form| {
            let probability = outcome.probability.clamp(0.0, 1.0);
            let threshold = self.params.pvalue.article_threshold;
            let page_type =
                outcome.non_article.map(|odds| output::PageTypeOut::new(probability, threshold, &odds).label);
            let summary = output::explain_page::Summary {
                title: doc.title.as_deref(),
                url: req.url,
                algorithm: o.algorithm.name(),
                probability,
                is_article: probability >= threshold,
                page_type: page_type.map(output::PageType::name),
            };
            match form {
                Explain::Page => output::explain_page::render(doc, &outcome.blocks, &summary),
                Explain::Lines => output::explain_lines::render(doc, &outcome.decisions, &outcome.blocks, &summary),
            }
        });
        let fingerprint = output::fingerprint::fingerprint(&text);
        let blocks =
            if o.blocks { output::report_blocks(doc, outcome.blocks, self.limits.max_blocks) } else { Vec::new() };
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
            algorithm: o.algorithm.to_string(),
            content: ContentOut {
                fingerprint,
                text: if o.text { text } else { String::new() },
                html,
                markdown,
                explain,
            },
            has_article: HasArticle {
                probability,
                is_article: probability >= threshold,
                signals: outcome.signals.iter().map(|&(k, v)| (std::borrow::Cow::Borrowed(k), v)).collect(),
            },
            page_type: outcome.non_article.map(|odds| output::PageTypeOut::new(probability, threshold, &odds)),
            metadata,
            blocks,
            template: outcome.site_template,
            timings_ms: Timings::default(),
        };
        (result, metadata_ms)
    }
}
