//! The report page as a whole: its head, style and header, then its sections in order.

use std::fmt::Write;

use super::charts::colour;
use super::{BEST_PEER, PEER, Worst, sections};
use crate::lab::eval::anchors::Anchors;
use crate::lab::eval::{PageResult, Report};
use crate::output::explain_page::escape;

/// The whole page. `worst` holds one list per algorithm (see [`super::worst`]); `note` is shown under the
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
    sections::per_dataset(r, anchors, &mut out);
    sections::per_type(r, anchors, &mut out);
    sections::has_article(r, pages, anchors, &mut out);
    sections::page_type_reliability(r, pages, &mut out);
    sections::worst_table(worst, &mut out);
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
