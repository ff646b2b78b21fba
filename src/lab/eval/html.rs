//! `pith eval --report FILE.html`: the evaluation as one self-contained page a person reads in a
//! browser: F1 per dataset and per page type beside the peers' figures ([`super::anchors`]), the
//! has-article reliability diagram, and the worst pages linked to their explanation pages
//! ([`crate::output::explain_page`]), written beside the report in `FILE-explain/`.
//!
//! The charts are small SVG written here rather than drawn with a plotting crate: they are bars and
//! lines on a fixed scale (every figure is in 0..1), inline SVG needs no font or backend, and the page
//! stays plain text that a test can read. No script and no external resource: the page opens from a
//! file, an archive or a CI artifact as it is.

use std::collections::HashSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use super::anchors::{Anchors, Entry, Metric};
use super::{PageResult, Report, Summary};
use crate::output::explain_page::escape;
use crate::{Engine, Error};

/// pith's algorithms in the charts, in the report's order (cycled beyond eight).
pub const OURS: [&str; 8] = ["#1f6fd1", "#e8710a", "#8e44ad", "#12939a", "#c0392b", "#2e7d32", "#b7950b", "#d81b60"];
/// The peers' bars; the best peer's is darker and marked by a dashed line across the panel.
pub const PEER: &str = "#b4b8be";
pub const BEST_PEER: &str = "#6b7178";

/// One of the worst pages of an algorithm, with the link to its explanation page (relative to the
/// report) once it is written.
#[derive(Debug, Clone)]
pub struct Worst<'a> {
    pub page: &'a PageResult,
    pub metric: Metric,
    pub f1: f64,
    /// The page's address, from its dataset (filled in by [`write`]).
    pub url: Option<String>,
    pub href: Option<String>,
}

/// The `n` pages of `algorithm` with the lowest F1, each under its dataset's metric; ties in dataset
/// and id order, so the list is the same from run to run.
pub fn worst<'a>(pages: &'a [PageResult], anchors: &Anchors, algorithm: &str, n: usize) -> Vec<Worst<'a>> {
    let mut out: Vec<Worst<'a>> = pages
        .iter()
        .filter(|p| p.algorithm == algorithm)
        .filter_map(|p| {
            let metric = anchors.metric(&p.dataset);
            let f1 = metric.of_page(p.scores.as_ref()?);
            Some(Worst { page: p, metric, f1, url: None, href: None })
        })
        .collect();
    out.sort_by(|a, b| {
        a.f1.total_cmp(&b.f1).then_with(|| a.page.dataset.cmp(&b.page.dataset)).then_with(|| a.page.id.cmp(&b.page.id))
    });
    out.truncate(n);
    out
}

/// One bin of the reliability diagram: labelled pages whose probability fell in it, their mean
/// probability and the share of them labelled as articles.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Bin {
    pub n: usize,
    pub mean_p: f64,
    pub share: f64,
}

/// Ten equal-width bins of the has-article probability (the last one closed), as the expected
/// calibration error in [`super::metrics::has_article`] bins them.
pub fn reliability<'a>(pages: impl Iterator<Item = &'a PageResult>) -> [Bin; 10] {
    let mut sums = [(0usize, 0.0f64, 0.0f64); 10];
    for p in pages {
        let Some(label) = p.has_article else { continue };
        let k = ((p.probability * 10.0).floor().max(0.0) as usize).min(9);
        sums[k].0 += 1;
        sums[k].1 += p.probability;
        sums[k].2 += if label { 1.0 } else { 0.0 };
    }
    sums.map(|(n, ps, ys)| if n == 0 { Bin::default() } else { Bin { n, mean_p: ps / n as f64, share: ys / n as f64 } })
}

/// A bar of a panel.
struct Bar {
    label: String,
    value: f64,
    colour: &'static str,
}

fn colour(k: usize) -> &'static str {
    OURS[k % OURS.len()]
}

fn f3(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.3}"))
}

/// pith's bars (one per algorithm with a figure) then the peers', best first.
fn panel_bars(r: &Report, of: &dyn Fn(&super::AlgorithmReport) -> Option<f64>, peers: Option<&Entry>) -> Vec<Bar> {
    let mut bars: Vec<Bar> = r
        .algorithms
        .iter()
        .enumerate()
        .filter_map(|(k, a)| Some(Bar { label: format!("pith {}", a.algorithm), value: of(a)?, colour: colour(k) }))
        .collect();
    if let Some(e) = peers {
        let mut figures: Vec<(&String, &f64)> = e.figures.iter().collect();
        figures.sort_by(|a, b| b.1.total_cmp(a.1).then_with(|| a.0.cmp(b.0)));
        for (k, (name, &v)) in figures.into_iter().enumerate() {
            bars.push(Bar { label: name.clone(), value: v, colour: if k == 0 { BEST_PEER } else { PEER } });
        }
    }
    bars
}

const ROW: f64 = 16.0;
const LABEL_W: f64 = 130.0;
const PLOT_W: f64 = 260.0;

/// Horizontal bars on a 0..1 scale, with the best peer's figure as a dashed line across the panel.
fn bars_svg(bars: &[Bar], best_peer: Option<f64>, out: &mut String) {
    let x0 = LABEL_W + 6.0;
    let height = 6.0 + bars.len() as f64 * ROW + 20.0;
    let bottom = 6.0 + bars.len() as f64 * ROW;
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\" \
         role=\"img\" class=\"bars\">",
        w = x0 + PLOT_W + 44.0
    );
    for k in 0..=4 {
        let x = x0 + PLOT_W * f64::from(k) / 4.0;
        let _ = write!(
            out,
            "<line x1=\"{x}\" y1=\"4\" x2=\"{x}\" y2=\"{bottom}\" stroke=\"#e2e2e2\"/><text x=\"{x}\" y=\"{}\" \
             text-anchor=\"middle\" class=\"tick\">{}</text>",
            bottom + 14.0,
            ["0", ".25", ".5", ".75", "1"][k as usize]
        );
    }
    for (k, b) in bars.iter().enumerate() {
        let y = 6.0 + k as f64 * ROW;
        let w = PLOT_W * b.value.clamp(0.0, 1.0);
        out.push_str("<text x=\"");
        let _ = write!(out, "{LABEL_W}\" y=\"{}\" text-anchor=\"end\">", y + 10.5);
        escape(&b.label, out);
        let _ = write!(
            out,
            "</text><rect x=\"{x0}\" y=\"{y}\" width=\"{w:.1}\" height=\"{}\" fill=\"{}\"><title>",
            ROW - 4.0,
            b.colour
        );
        escape(&format!("{}: {:.3}", b.label, b.value), out);
        let _ = write!(
            out,
            "</title></rect><text x=\"{:.1}\" y=\"{}\" class=\"v\">{:.3}</text>",
            x0 + w + 3.0,
            y + 10.5,
            b.value
        );
    }
    if let Some(v) = best_peer {
        let x = x0 + PLOT_W * v.clamp(0.0, 1.0);
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"2\" x2=\"{x:.1}\" y2=\"{bottom}\" stroke=\"{BEST_PEER}\" stroke-dasharray=\"3 2\"/>"
        );
    }
    out.push_str("</svg>");
}

/// A figure: caption and bar chart.
fn panel(caption: &str, bars: &[Bar], peers: Option<&Entry>, out: &mut String) {
    out.push_str("<figure><figcaption>");
    escape(caption, out);
    if peers.is_none() {
        out.push_str(" <span class=\"note\">(no peer figures for this set)</span>");
    }
    out.push_str("</figcaption>");
    let best = peers.and_then(|e| e.figures.values().copied().reduce(f64::max));
    bars_svg(bars, best, out);
    out.push_str("</figure>\n");
}

fn summary_of<'a>(a: &'a super::AlgorithmReport, dataset: &str) -> Option<&'a Summary> {
    a.datasets.iter().find(|s| s.dataset == dataset)
}

fn type_summary<'a>(a: &'a super::AlgorithmReport, dataset: &str, t: &str) -> Option<&'a Summary> {
    a.by_type.iter().find(|s| s.dataset == dataset && s.page_type.as_deref() == Some(t))
}

fn per_dataset(r: &Report, anchors: &Anchors, out: &mut String) {
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

fn per_type(r: &Report, anchors: &Anchors, out: &mut String) {
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

const REL_W: f64 = 300.0;
const REL_H: f64 = 220.0;

/// The reliability diagram: each bin's observed share of articles as a bar, its mean predicted
/// probability as a black tick, the diagonal where the two agree, the page count above each bar.
fn reliability_svg(bins: &[Bin; 10], fill: &str, out: &mut String) {
    let (x0, y0) = (40.0, 14.0);
    let bottom = y0 + REL_H;
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         role=\"img\" class=\"rel\">",
        w = x0 + REL_W + 10.0,
        h = bottom + 34.0
    );
    for k in 0..=4 {
        let v = f64::from(k) / 4.0;
        let (x, y) = (x0 + REL_W * v, bottom - REL_H * v);
        let _ = write!(
            out,
            "<line x1=\"{x0}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#e2e2e2\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"tick\">{v}</text>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" class=\"tick\">{v}</text>",
            x0 + REL_W,
            x0 - 4.0,
            y + 4.0,
            bottom + 13.0
        );
    }
    let bw = REL_W / 10.0;
    for (k, b) in bins.iter().enumerate().filter(|(_, b)| b.n > 0) {
        let x = x0 + bw * k as f64;
        let h = REL_H * b.share;
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"{fill}\"><title>\
             p {:.1}–{:.1}: {} pages, mean p {:.3}, articles {:.3}</title></rect>",
            x + 1.0,
            bottom - h,
            bw - 2.0,
            k as f64 / 10.0,
            (k + 1) as f64 / 10.0,
            b.n,
            b.mean_p,
            b.share
        );
        let ty = bottom - REL_H * b.mean_p;
        let _ = write!(
            out,
            "<line x1=\"{:.1}\" y1=\"{ty:.1}\" x2=\"{:.1}\" y2=\"{ty:.1}\" stroke=\"#000\" stroke-width=\"2\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" class=\"n\">{}</text>",
            x + 3.0,
            x + bw - 3.0,
            x + bw / 2.0,
            (bottom - h.max(REL_H * b.mean_p) - 3.0).max(9.0),
            b.n
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{x0}\" y1=\"{bottom}\" x2=\"{}\" y2=\"{y0}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"tick\">predicted probability</text></svg>",
        x0 + REL_W,
        x0 + REL_W / 2.0,
        bottom + 28.0
    );
}

fn has_article(r: &Report, pages: &[PageResult], anchors: &Anchors, out: &mut String) {
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

/// An address worth linking: only http(s), so a page's `javascript:` URL is shown, never followed.
fn linkable(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

fn worst_table(worst: &[Vec<Worst<'_>>], out: &mut String) {
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

/// The whole page. `worst` holds one list per algorithm (see [`worst`]); `note` is shown under the
/// title (e.g. how the explanations were produced under cross-validation).
pub fn render(
    r: &Report,
    pages: &[PageResult],
    anchors: &Anchors,
    worst: &[Vec<Worst<'_>>],
    note: Option<&str>,
) -> String {
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>pith eval report</title>\n<style>\n");
    out.push_str(STYLE);
    out.push_str("</style></head><body>\n<header><h1>pith eval report</h1><p>");
    let total: usize = r.algorithms.first().map_or(0, |a| a.micro.pages);
    let _ = write!(out, "{total} pages in {} datasets (", r.datasets.len());
    escape(&r.datasets.join(", "), &mut out);
    out.push_str("), algorithms ");
    for (k, a) in r.algorithms.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "<span class=\"sw\" style=\"background:{}\"></span>", colour(k));
        escape(&a.algorithm, &mut out);
    }
    let _ = write!(out, "; {} jobs, {:.1} s wall clock.</p>", r.jobs, r.wall_s);
    if let Some(n) = note {
        out.push_str("<p class=\"note\">");
        escape(n, &mut out);
        out.push_str("</p>");
    }
    let _ = write!(
        out,
        "<p class=\"note\">Peers (<span class=\"sw\" style=\"background:{BEST_PEER}\"></span>best, dashed line; \
         <span class=\"sw\" style=\"background:{PEER}\"></span>others): "
    );
    escape(&anchors.versions, &mut out);
    out.push_str(". Source: ");
    escape(&anchors.source, &mut out);
    out.push_str(" A peer's figure is drawn only beside pith's figure for the same metric on the same dataset.</p><ul class=\"note\">");
    for (key, text) in &anchors.metrics {
        out.push_str("<li><b>");
        escape(key, &mut out);
        out.push_str("</b>: ");
        escape(text, &mut out);
        out.push_str("</li>");
    }
    out.push_str("</ul></header>\n<main>\n");
    per_dataset(r, anchors, &mut out);
    per_type(r, anchors, &mut out);
    has_article(r, pages, anchors, &mut out);
    worst_table(worst, &mut out);
    out.push_str("</main></body></html>\n");
    out
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#111;background:#fff}\n\
header{padding:12px 20px;border-bottom:1px solid #ccc}h1{font-size:20px;margin:0 0 4px}\n\
main{padding:0 20px 20px}h2{font-size:17px;margin:22px 0 8px}h3{font-size:15px;margin:14px 0 6px}\n\
.note{color:#555;font-size:13px}ul.note{margin:4px 0;padding-left:20px}\n\
.grid{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}\n\
figure{margin:0;padding:8px;border:1px solid #ddd;border-radius:4px}\n\
figcaption{font-size:13px;font-weight:600;margin-bottom:4px}\n\
svg text{font:11px system-ui,sans-serif;fill:#222}svg .tick,svg .n{font-size:10px;fill:#555}\n\
table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}\n\
td,th{border:1px solid #ddd;padding:3px 7px;text-align:left}th{background:#f4f4f4}\n\
td.ahead{background:#dff3e3}td.behind{background:#fbe3e1}\n\
td.url{max-width:28em;overflow-wrap:anywhere}details{font-size:12px}\n\
.sw{display:inline-block;width:10px;height:10px;margin:0 3px 0 2px;vertical-align:baseline}\n";

/// A file name from page-derived text: only `[A-Za-z0-9._-]`, anything else `_`.
fn file_part(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' }).collect()
}

/// Percent-encode a path segment for an `href` (the report's own file name may hold anything).
fn href_part(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Write the report to `path` and the explanation pages of each algorithm's `worst_n` worst pages to
/// `<stem>-explain/` beside it, extracted again by `engine`. `dirs` are the evaluated datasets'
/// directories, in the report's order.
pub fn write(
    path: &Path,
    r: &Report,
    pages: &[PageResult],
    dirs: &[PathBuf],
    engine: &Engine,
    worst_n: usize,
    note: Option<&str>,
) -> Result<(), Error> {
    let anchors = Anchors::embedded()?;
    let stem = path.file_stem().map_or_else(|| "report".to_string(), |s| s.to_string_lossy().into_owned());
    let folder = format!("{stem}-explain");
    let explain_dir = path.with_file_name(&folder);
    let sets = dirs.iter().map(|d| crate::lab::dataset::Dataset::open(d)).collect::<Result<Vec<_>, _>>()?;
    let mut lists: Vec<Vec<Worst<'_>>> =
        r.algorithms.iter().map(|a| worst(pages, &anchors, &a.algorithm, worst_n)).collect();
    if lists.iter().any(|l| !l.is_empty()) {
        std::fs::create_dir_all(&explain_dir)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot create {}: {e}", explain_dir.display())))?;
    }
    let mut used = HashSet::new();
    for w in lists.iter_mut().flatten() {
        let p = w.page;
        let found =
            sets.iter().find(|d| d.name == p.dataset).and_then(|d| Some((d, d.pages.iter().find(|x| x.id == p.id)?)));
        let Some((ds, page)) = found else { continue };
        w.url = page.url.clone();
        let Some(html) = explanation(ds, page, engine, p) else { continue };
        let base = file_part(&format!("{}-{}-{}", p.algorithm, p.dataset, p.id));
        let mut name = format!("{base}.html");
        let mut k = 2;
        while !used.insert(name.clone()) {
            name = format!("{base}-{k}.html");
            k += 1;
        }
        let file = explain_dir.join(&name);
        std::fs::write(&file, html)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", file.display())))?;
        w.href = Some(format!("{}/{name}", href_part(&folder)));
    }
    let page = render(r, pages, &anchors, &lists, note);
    std::fs::write(path, page)
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
    Ok(())
}

/// The explanation page of one evaluated page, or `None` when it cannot be made (the page failed to
/// extract, its file is gone, its algorithm is unknown): the report then shows the error instead.
fn explanation(
    ds: &crate::lab::dataset::Dataset,
    page: &crate::lab::dataset::Page,
    engine: &Engine,
    p: &PageResult,
) -> Option<String> {
    if p.error.is_some() {
        return None;
    }
    let bytes = ds.html(page).ok()?;
    let algorithm: crate::Algorithm = p.algorithm.parse().ok()?;
    let options = crate::Options { explain: true, ..crate::Options::for_algorithm(algorithm) };
    let req = crate::Request { url: page.url.as_deref(), ..crate::Request::with_options(&bytes, options) };
    engine.extract(&req).ok()?.content.explain
}

#[cfg(test)]
mod tests {
    use super::super::{AlgorithmReport, by_type, macro_average, metrics, summarize, type_scores};
    use super::*;

    fn page(id: &str, ds: &str, pred: &str, gold: &str, label: Option<bool>, p: f64, t: Option<&str>) -> PageResult {
        let g = metrics::Gold::new(gold);
        PageResult {
            dataset: ds.into(),
            id: id.into(),
            algorithm: "auto".into(),
            bytes: 100,
            ms: Some(1.0),
            error: None,
            has_article: label,
            page_type: t.map(str::to_string),
            predicted_type: None,
            with_rate: None,
            without_rate: None,
            probability: p,
            is_article: p >= 0.5,
            scores: Some(metrics::score(&g.predicted(pred), &g.words)),
            signals: Default::default(),
            metadata: None,
            render_ms: None,
            url_ablation: None,
            fold: None,
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
    }

    #[test]
    fn reliability_bins_like_the_calibration_error() {
        let text = "a b c d";
        let pages: Vec<PageResult> = [(0.0, false), (0.05, true), (0.55, true), (1.0, true), (1.0, false)]
            .iter()
            .map(|&(p, l)| page("x", "d", text, text, Some(l), p, None))
            .chain([page("y", "d", text, text, None, 0.5, None)])
            .collect();
        let bins = reliability(pages.iter());
        assert_eq!(bins[0], Bin { n: 2, mean_p: 0.025, share: 0.5 });
        assert_eq!(bins[5], Bin { n: 1, mean_p: 0.55, share: 1.0 });
        assert_eq!(bins[9], Bin { n: 2, mean_p: 1.0, share: 0.5 });
        assert_eq!(bins.iter().map(|b| b.n).sum::<usize>(), 5);
    }

    #[test]
    fn file_and_href_parts_are_safe() {
        assert_eq!(file_part("auto-zh/gne-../x y"), "auto-zh_gne-.._x_y");
        assert_eq!(href_part("my report"), "my%20report");
    }
}
