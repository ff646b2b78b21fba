//! The page's sections, in reading order: F1 per dataset (a table against the best peer, then a
//! panel per dataset), F1 per page type, has-article reliability (a diagram and its bins per
//! algorithm and labelled dataset), page-type reliability (a diagram per type), and the worst pages
//! with their links.

use std::fmt::Write;

use super::Worst;
use super::charts::{colour, panel, panel_bars, reliability_svg};
use super::selection::{bins, reliability};
use crate::lab::eval::anchors::Anchors;
use crate::lab::eval::{AlgorithmReport, PageResult, Report, Summary};
use crate::output::explain_page::escape;

fn f3(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.3}"))
}

fn summary_of<'a>(a: &'a AlgorithmReport, dataset: &str) -> Option<&'a Summary> {
    a.datasets.iter().find(|s| s.dataset == dataset)
}

fn type_summary<'a>(a: &'a AlgorithmReport, dataset: &str, t: &str) -> Option<&'a Summary> {
    a.by_type.iter().find(|s| s.dataset == dataset && s.page_type.as_deref() == Some(t))
}

pub(super) fn per_dataset(r: &Report, anchors: &Anchors, out: &mut String) {
    out.push_str("<section><h2>F1 per dataset</h2>\n");
    // The table first: pith against the best peer, each on the dataset's own metric.
    out.push_str("<table><tr><th>dataset</th><th>metric</th><th>gold pages</th><th>best peer</th>");
    for a in &r.algorithms {
        out.push_str("<th>pith ");
        escape(&a.algorithm, out);
        out.push_str("</th>");
    }
    out.push_str("</tr>\n");
    let mut no_gold = Vec::new();
    for ds in &r.datasets {
        let gold = r.algorithms.first().and_then(|a| summary_of(a, ds)).map_or(0, |s| s.gold_pages);
        if gold == 0 {
            no_gold.push(ds.as_str());
            continue;
        }
        let metric = anchors.metric(ds);
        let peers = anchors.dataset(ds);
        let best = peers.and_then(|e| e.figures.iter().max_by(|a, b| a.1.total_cmp(b.1)));
        out.push_str("<tr><td>");
        escape(ds, out);
        let _ = write!(out, "</td><td>{}</td><td>{gold}</td><td>", metric.label());
        match best {
            Some((name, v)) => {
                let _ = write!(out, "{v:.3} ");
                escape(name, out);
            }
            None => out.push('–'),
        }
        out.push_str("</td>");
        for a in &r.algorithms {
            let v = summary_of(a, ds).and_then(|s| metric.of(s));
            let class = match (v, best) {
                (Some(v), Some((_, b))) if v >= *b => " class=\"ahead\"",
                (Some(_), Some(_)) => " class=\"behind\"",
                _ => "",
            };
            let _ = write!(out, "<td{class}>{}</td>", f3(v));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n<div class=\"grid\">\n");
    for ds in &r.datasets {
        if no_gold.contains(&ds.as_str()) {
            continue;
        }
        let metric = anchors.metric(ds);
        let peers = anchors.dataset(ds);
        let bars = panel_bars(r, &|a| summary_of(a, ds).and_then(|s| metric.of(s)), peers);
        let pages = r.algorithms.first().and_then(|a| summary_of(a, ds)).map_or(0, |s| s.gold_pages);
        panel(&format!("{ds} · {} · {pages} gold pages", metric.label()), &bars, peers, out);
    }
    out.push_str("</div>\n");
    if !no_gold.is_empty() {
        out.push_str("<p class=\"note\">No gold text, so no F1: ");
        escape(&no_gold.join(", "), out);
        out.push_str(".</p>\n");
    }
    out.push_str("</section>\n");
}

pub(super) fn per_type(r: &Report, anchors: &Anchors, out: &mut String) {
    let mut sets: Vec<&str> = Vec::new();
    for s in r.algorithms.iter().flat_map(|a| &a.by_type) {
        if !sets.contains(&s.dataset.as_str()) {
            sets.push(&s.dataset);
        }
    }
    if sets.is_empty() {
        return;
    }
    out.push_str("<section><h2>F1 per page type</h2>\n");
    for ds in sets {
        out.push_str("<div class=\"grid\">\n");
        for t in crate::lab::dataset::PAGE_TYPES {
            let Some(pages) = r.algorithms.iter().find_map(|a| type_summary(a, ds, t)).map(|s| s.gold_pages) else {
                continue;
            };
            if pages == 0 {
                continue;
            }
            let peers = anchors.page_type(ds, t);
            let metric = peers.map_or_else(|| anchors.metric(ds), |e| e.metric);
            let bars = panel_bars(r, &|a| type_summary(a, ds, t).and_then(|s| metric.of(s)), peers);
            panel(&format!("{ds} · {t} · {} · {pages} pages", metric.label()), &bars, peers, out);
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
}

pub(super) fn has_article(r: &Report, pages: &[PageResult], anchors: &Anchors, out: &mut String) {
    let labelled: Vec<&str> = r
        .datasets
        .iter()
        .filter(|ds| pages.iter().any(|p| &p.dataset == *ds && p.has_article.is_some()))
        .map(String::as_str)
        .collect();
    out.push_str("<section><h2>Has-article reliability</h2>\n");
    if labelled.is_empty() {
        out.push_str("<p class=\"note\">No dataset labels has_article.</p></section>\n");
        return;
    }
    out.push_str(
        "<p class=\"note\">Pages binned by predicted probability of being an article (ten bins); bar = share \
         of the bin's pages labelled articles, black tick = the bin's mean predicted probability, number = \
         pages in the bin. A calibrated probability puts each tick on its bar's top, and both on the dashed \
         diagonal.</p>\n",
    );
    for (k, a) in r.algorithms.iter().enumerate() {
        out.push_str("<div class=\"grid\">\n");
        let mut groups: Vec<(String, Option<&Summary>)> =
            labelled.iter().map(|ds| (ds.to_string(), summary_of(a, ds))).collect();
        if labelled.len() > 1 {
            groups.push(("all labelled pages".to_string(), None));
        }
        for (name, summary) in groups {
            let of_group = |p: &&PageResult| p.algorithm == a.algorithm && (summary.is_none() || p.dataset == name);
            let bins = reliability(pages.iter().filter(of_group));
            let n: usize = bins.iter().map(|b| b.n).sum();
            out.push_str("<figure><figcaption>");
            escape(&format!("pith {} · {name} · {n} labelled pages", a.algorithm), out);
            if let Some(s) = summary {
                let h = &s.has_article;
                let _ = write!(out, " · accuracy {} · ECE {}", f3(h.accuracy), f3(h.ece));
            }
            out.push_str("</figcaption>");
            if let Some(peers) = summary.and(anchors.has_article(&name)) {
                out.push_str("<div class=\"note\">peers' accuracy: ");
                let figures: Vec<String> = peers.figures.iter().map(|(k, v)| format!("{k} {v:.3}")).collect();
                escape(&figures.join(", "), out);
                out.push_str("</div>");
            }
            reliability_svg(&bins, colour(k), out);
            out.push_str("<details><summary>bins</summary><table><tr><th>p</th><th>pages</th><th>mean p</th><th>articles</th></tr>");
            for (k, b) in bins.iter().enumerate().filter(|(_, b)| b.n > 0) {
                let _ = write!(
                    out,
                    "<tr><td>{:.1}–{:.1}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td></tr>",
                    k as f64 / 10.0,
                    (k + 1) as f64 / 10.0,
                    b.n,
                    b.mean_p,
                    b.share
                );
            }
            out.push_str("</table></details></figure>\n");
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
}

/// One reliability diagram per page type and labelled dataset: the probability `auto` gave the type
/// against whether the page is of it (one type against the rest), so an indexer can read where to
/// set a threshold per type.
pub(super) fn page_type_reliability(r: &Report, pages: &[PageResult], out: &mut String) {
    if r.algorithms.iter().all(|a| a.page_types.iter().all(|s| s.calibration.iter().all(|c| c.pages == 0))) {
        return;
    }
    out.push_str("<section><h2>Page-type reliability</h2>\n");
    out.push_str(
        "<p class=\"note\">For each type: the labelled pages binned by the probability answered for that \
         type; bar = share of the bin's pages labelled as the type, tick = the bin's mean probability. Only \
         types with labelled pages are drawn.</p>\n",
    );
    for (k, a) in r.algorithms.iter().enumerate() {
        for s in &a.page_types {
            out.push_str("<div class=\"grid\">\n");
            for (t, c) in crate::lab::dataset::PAGE_TYPES.iter().zip(&s.calibration) {
                if c.positives == 0 {
                    continue;
                }
                let of_set = pages.iter().filter(|p| p.algorithm == a.algorithm && p.dataset == s.dataset);
                let bins = bins(&crate::lab::eval::type_judgements(of_set, t));
                out.push_str("<figure><figcaption>");
                escape(
                    &format!(
                        "pith {} · {} · {t} · {} of {} pages · ECE {}",
                        a.algorithm,
                        s.dataset,
                        c.positives,
                        c.pages,
                        f3(c.ece)
                    ),
                    out,
                );
                out.push_str("</figcaption>");
                reliability_svg(&bins, colour(k), out);
                out.push_str("</figure>\n");
            }
            out.push_str("</div>\n");
        }
    }
    out.push_str("</section>\n");
}

/// An address worth linking: only http(s), so a page's `javascript:` URL is shown, never followed.
fn linkable(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

pub(super) fn worst_table(worst: &[Vec<Worst<'_>>], out: &mut String) {
    out.push_str("<section><h2>Worst pages</h2>\n");
    for list in worst {
        let Some(first) = list.first() else { continue };
        out.push_str("<h3>pith ");
        escape(&first.page.algorithm, out);
        out.push_str(
            "</h3>\n<table class=\"worst\"><tr><th>#</th><th>dataset</th><th>id</th><th>type</th>\
            <th>F1</th><th>metric</th><th>has-article p</th><th>url</th><th>explanation</th></tr>\n",
        );
        for (k, w) in list.iter().enumerate() {
            let p = w.page;
            let _ = write!(out, "<tr><td>{}</td><td>", k + 1);
            escape(&p.dataset, out);
            out.push_str("</td><td>");
            escape(&p.id, out);
            out.push_str("</td><td>");
            escape(p.page_type.as_deref().unwrap_or(""), out);
            let _ = write!(
                out,
                "</td><td>{:.3}</td><td>{}</td><td>{:.3}</td><td class=\"url\">",
                w.f1,
                w.metric.label(),
                p.probability
            );
            match w.url.as_deref() {
                Some(u) if linkable(u) => {
                    out.push_str("<a href=\"");
                    escape(u, out);
                    out.push_str("\">");
                    escape(u, out);
                    out.push_str("</a>");
                }
                Some(u) => escape(u, out),
                None => {}
            }
            out.push_str("</td><td>");
            match (&w.href, &p.error) {
                (Some(href), _) => {
                    out.push_str("<a href=\"");
                    escape(href, out);
                    out.push_str("\">explain</a>");
                }
                (None, Some(e)) => {
                    out.push_str("<span class=\"note\">error: ");
                    escape(e, out);
                    out.push_str("</span>");
                }
                (None, None) => {}
            }
            out.push_str("</td></tr>\n");
        }
        out.push_str("</table>\n");
    }
    out.push_str("</section>\n");
}
