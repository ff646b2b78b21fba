//! Stage 5: the answer. [`Extraction`] is the one result type for the CLI and the HTTP service, defined
//! here; the files beside this one render the chosen nodes into its parts:
//!
//! | file | renders |
//! |---|---|
//! | `text.rs` | `content.text`: plain text, paragraphs on their own lines ([`render_text`]) |
//! | `html.rs` | `content.html`: clean HTML, structure kept, attributes other than `href`/`src`/`alt` dropped ([`render_html`], [`paragraphs_html`]) |
//! | `markdown/` | `content.markdown`: CommonMark with GitHub tables ([`markdown::render`]) |
//! | `explain_page.rs` | `content.explain` as a page ([`Explain::Page`]): one HTML page of every block shaded by its probability |
//! | `explain_lines.rs` | `content.explain` as lines ([`Explain::Lines`], `pith extract --format explain`): one line per judged block |
//! | `blocks.rs` | `blocks`: the block report, the top-ranked blocks and their scores ([`report_blocks`], [`BlockOut`]) |
//! | `fingerprint.rs` | `content.fingerprint`: the SimHash of the main text's word shingles ([`fingerprint::fingerprint`]) |
//!
//! Both explanations, and the block report's `decided_by`, render the one decision record the
//! algorithm left (`algorithms::contract::decision`).

mod blocks;
pub mod explain_lines;
pub mod explain_page;
pub mod fingerprint;
mod html;
pub mod markdown;
mod text;

pub use blocks::{BlockOut, Signals, report_blocks};
pub use html::{paragraphs_html, render_html};
pub use text::render_text;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::algorithms::contract::PageType;

/// The result of one extraction.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Extraction {
    pub url: Option<String>,
    pub title: Option<String>,
    pub lang: Option<String>,
    pub charset: String,
    pub algorithm: String,
    pub content: ContentOut,
    pub has_article: HasArticle,
    /// What kind of page this is (`auto` with a page-type model; `null` otherwise).
    #[serde(default)]
    pub page_type: Option<PageTypeOut>,
    /// What the page says about itself (title, authors, dates, ...), see [`crate::metadata`].
    #[serde(default)]
    pub metadata: crate::metadata::Metadata,
    pub blocks: Vec<BlockOut>,
    /// What the site's template did (pages learned from, blocks left out), when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<crate::algorithms::contract::SiteTemplateUse>,
    pub timings_ms: Timings,
}

/// Main content as text, as HTML and (when asked for) as Markdown.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ContentOut {
    pub text: String,
    pub html: String,
    /// The main text's SimHash, 16 lower-case hexadecimal digits ([`fingerprint`]): equal or a few bits
    /// apart for the same article under other addresses and other page chrome. Present whatever the
    /// formats asked for.
    #[serde(default)]
    pub fingerprint: String,
    /// CommonMark with GitHub tables (see [`crate::output::markdown`]); present only when requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The explanation page, one self-contained HTML document (see [`crate::output::explain_page`]); present
    /// only when requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain: Option<String>,
}

/// The has-article judgement.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HasArticle {
    pub probability: f64,
    pub is_article: bool,
    /// The measures the probability was computed from (`auto` only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub signals: Signals,
}

/// The page type as answered: the likeliest type and every type's probability (they sum to 1).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PageTypeOut {
    pub label: PageType,
    pub probabilities: BTreeMap<String, f64>,
}

impl PageTypeOut {
    /// The distribution made of the has-article probability and the other types' odds given that the
    /// page is not an article. The label is `article` exactly when `article_p` reaches `threshold`
    /// (as `has_article.is_article` is decided), else the likeliest other type.
    pub fn new(article_p: f64, threshold: f64, odds: &crate::algorithms::contract::NonArticleOdds) -> PageTypeOut {
        let mut probabilities = BTreeMap::new();
        probabilities.insert(PageType::Article.name().to_string(), article_p);
        for (t, o) in PageType::NON_ARTICLE.iter().zip(odds.0) {
            probabilities.insert(t.name().to_string(), (1.0 - article_p) * o);
        }
        let label = if article_p >= threshold { PageType::Article } else { odds.likeliest() };
        PageTypeOut { label, probabilities }
    }
}

/// Which explanation of the algorithm's decisions fills `content.explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Explain {
    /// The explanation page: one self-contained HTML document of every block, shaded by its
    /// probability ([`explain_page`]; the service's `formats: ["explain"]`).
    Page,
    /// Text, one line per judged block: its probability, kept or not, the step that decided it, its
    /// size and place ([`explain_lines`]; `pith extract --format explain`).
    Lines,
}

/// Time spent per stage, milliseconds.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Default)]
pub struct Timings {
    pub decode: f64,
    pub prestrip: f64,
    pub parse: f64,
    /// The algorithm alone (and a site rule's override).
    pub score: f64,
    /// Rendering text and HTML and building the block report.
    pub output: f64,
    /// Reading the page's metadata (its declarations, bylines and dates).
    #[serde(default)]
    pub metadata: f64,
    pub total: f64,
    /// Milliseconds in the browser (scripts and layout), when the page was rendered; not in `total`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render: Option<f64>,
}
