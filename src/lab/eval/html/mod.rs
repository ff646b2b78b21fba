//! `pith eval --report FILE.html`: the evaluation as one self-contained page a person reads in a
//! browser: F1 per dataset and per page type beside the peers' figures ([`super::anchors`]), the
//! has-article reliability diagram, and the worst pages linked to their explanation pages
//! ([`crate::output::explain_page`]), written beside the report in `FILE-explain/`.
//!
//! The charts are small SVG written here (`charts.rs`) rather than drawn with a plotting crate: they
//! are bars and lines on a fixed scale (every figure is in 0..1), inline SVG needs no font or backend,
//! and the page stays plain text that a test can read. No script and no external resource: the page
//! opens from a file, an archive or a CI artifact as it is.
//!
//! | file | what lives there |
//! |---|---|
//! | `page.rs` | [`render`]: the page's head, style and header, then its sections in order |
//! | `selection.rs` | what the page shows: the [`worst`] pages, the [`reliability`] bins |
//! | `sections.rs` | the sections: F1 per dataset and per page type, has-article reliability, worst pages |
//! | `charts.rs` | the SVG: bar panels beside the peers, the reliability diagram, the colours |
//! | `files.rs` | [`write()`]: the report and its explanation pages on disk |

mod charts;
mod files;
mod page;
mod sections;
mod selection;

pub use charts::{BEST_PEER, OURS, PEER};
pub use files::write;
pub use page::render;
pub use selection::{Bin, Worst, bins, reliability, worst};

#[cfg(test)]
mod tests {
    use super::super::anchors::Anchors;
    use super::super::{AlgorithmReport, PageResult, Report, by_type, macro_average, metrics, summarize, type_scores};
    use super::*;

    pub(super) fn page(
        id: &str,
        ds: &str,
        pred: &str,
        gold: &str,
        label: Option<bool>,
        p: f64,
        t: Option<&str>,
    ) -> PageResult {
        let g = metrics::Gold::new(gold);
        PageResult {
            bytes: 100,
            has_article: label,
            page_type: t.map(str::to_string),
            probability: p,
            is_article: p >= 0.5,
            scores: Some(metrics::score(&g.predicted(pred), &g.words)),
            ..PageResult::blank(ds, id, "auto")
        }
    }

    fn report(pages: &[PageResult]) -> Report {
        let mut sets = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for p in pages {
            if !names.contains(&p.dataset) {
                names.push(p.dataset.clone());
            }
        }
        for n in &names {
            let of: Vec<PageResult> = pages.iter().filter(|p| &p.dataset == n).cloned().collect();
            sets.push(summarize(n, "auto", &of, 0.1));
        }
        Report {
            datasets: names,
            jobs: 1,
            wall_s: 0.2,
            algorithms: vec![AlgorithmReport {
                algorithm: "auto".into(),
                macro_avg: macro_average("auto", &sets),
                micro: summarize("micro", "auto", pages, 0.1),
                by_type: by_type("auto", pages),
                by_lang: Vec::new(),
                page_types: type_scores(pages),
                datasets: sets,
            }],
        }
    }

    #[test]
    fn page_has_bars_beside_peers_a_reliability_diagram_and_escaped_worst_pages() {
        let text = "one two three four five six seven eight nine ten";
        let bad = page("<b>&x", "wcxb-dev", "one two", text, Some(false), 0.15, Some("forum"));
        let js = page("js", "wcxb-dev", "one two three", text, Some(true), 0.95, Some("article"));
        let pages = vec![
            page("a", "wcxb-dev", text, text, Some(true), 0.92, Some("article")),
            bad,
            js,
            page("c", "my-set", text, text, None, 0.5, None),
        ];
        let r = report(&pages);
        let anchors = Anchors::embedded().unwrap();
        let mut w = worst(&pages, &anchors, "auto", 2);
        assert_eq!(w.iter().map(|w| w.page.id.as_str()).collect::<Vec<_>>(), ["<b>&x", "js"]);
        w[0].href = Some("r-explain/auto-wcxb-dev-_b__x.html".into());
        w[0].url = Some("https://example.com/?a=1&b=<i>".into());
        w[1].url = Some("javascript:alert(1)".into());
        let html = render(&r, &pages, &anchors, &[w], Some("a note <with> markup"));

        assert!(html.starts_with("<!doctype html>") && !html.contains("<script"));
        // No external resource: the only addresses are the worst pages' own, shown as links.
        assert!(!html.contains("src=") && !html.contains("<link"));
        // Ours beside the peers on wcxb-dev (bag-of-words F1); a set without anchors gets ours only.
        assert!(html.contains(&format!("fill=\"{}\"", OURS[0])));
        assert!(html.contains(&format!("fill=\"{BEST_PEER}\"")) && html.contains(&format!("fill=\"{PEER}\"")));
        assert!(html.contains(">rs_trafilatura</text>") && html.contains("wcxb-dev · bag-of-words F1"));
        assert!(html.contains("my-set · shingle F1") && html.contains("(no peer figures for this set)"));
        // Page types: the forum page's panel with the peers' forum figure (0.735 is the best).
        assert!(html.contains("wcxb-dev · forum · bag-of-words F1 · 1 pages"));
        assert!(html.contains(">0.735</text>"));
        // Reliability: bins 1 (0.15), 9 (0.92, 0.95) on wcxb-dev; my-set has no labels.
        assert!(html.contains("p 0.9–1.0: 2 pages, mean p 0.935, articles 1.000"), "{html}");
        assert!(html.contains("p 0.1–0.2: 1 pages, mean p 0.150, articles 0.000"));
        assert!(!html.contains("all labelled pages"));
        assert!(html.contains("peers' accuracy: dom_smoothie 0.907, readability_js 0.907"));
        // Page-derived strings escaped; a javascript: address is text, never a link.
        assert!(html.contains("<td>&lt;b&gt;&amp;x</td>"));
        assert!(html.contains("<a href=\"https://example.com/?a=1&amp;b=&lt;i&gt;\">"));
        assert!(html.contains("<td class=\"url\">javascript:alert(1)</td>"));
        assert!(html.contains("<a href=\"r-explain/auto-wcxb-dev-_b__x.html\">explain</a>"));
        assert!(html.contains("a note &lt;with&gt; markup"));
        // Without type probabilities there is no page-type reliability section.
        assert!(!html.contains("Page-type reliability"));
    }

    #[test]
    fn page_types_get_a_reliability_diagram_each() {
        let typed = |id: &str, gold: &str, answered: &str, p_article: f64| {
            let mut p = page(id, "wcxb-dev", "a b", "a b", None, p_article, Some(gold));
            p.predicted_type = Some(answered.into());
            let probs = [("article", p_article), ("listing", 1.0 - p_article)];
            p.type_probabilities = Some(probs.iter().map(|(k, v)| (k.to_string(), *v)).collect());
            p
        };
        let pages = vec![typed("1", "article", "article", 0.95), typed("2", "listing", "listing", 0.15)];
        let html = render(&report(&pages), &pages, &Anchors::embedded().unwrap(), &[], None);
        assert!(html.contains("Page-type reliability"), "{html}");
        assert!(html.contains("pith auto · wcxb-dev · article · 1 of 2 pages · ECE 0.100"), "{html}");
        assert!(html.contains("pith auto · wcxb-dev · listing · 1 of 2 pages"));
        // No labelled forum page: no forum diagram.
        assert!(!html.contains("wcxb-dev · forum · 0 of"));
    }
}
