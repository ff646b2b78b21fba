//! The SVG of the page, written by hand: horizontal bars on the 0..1 scale with the peers' figures
//! beside pith's, the reliability diagram, and the colours both use.

use std::fmt::Write;

use super::Bin;
use crate::lab::eval::anchors::Entry;
use crate::lab::eval::{AlgorithmReport, Report};
use crate::output::explain_page::escape;

/// pith's algorithms in the charts, in the report's order (cycled beyond eight).
pub const OURS: [&str; 8] = ["#1f6fd1", "#e8710a", "#8e44ad", "#12939a", "#c0392b", "#2e7d32", "#b7950b", "#d81b60"];
/// The peers' bars; the best peer's is darker and marked by a dashed line across the panel.
pub const PEER: &str = "#b4b8be";
pub const BEST_PEER: &str = "#6b7178";

/// A bar of a panel.
pub(super) struct Bar {
    label: String,
    value: f64,
    colour: &'static str,
}

pub(super) fn colour(k: usize) -> &'static str {
    OURS[k % OURS.len()]
}

/// pith's bars (one per algorithm with a figure) then the peers', best first.
pub(super) fn panel_bars(r: &Report, of: &dyn Fn(&AlgorithmReport) -> Option<f64>, peers: Option<&Entry>) -> Vec<Bar> {
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
pub(super) fn panel(caption: &str, bars: &[Bar], peers: Option<&Entry>, out: &mut String) {
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

const REL_W: f64 = 300.0;
const REL_H: f64 = 220.0;

/// The reliability diagram: each bin's observed share of articles as a bar, its mean predicted
/// probability as a black tick, the diagonal where the two agree, the page count above each bar.
pub(super) fn reliability_svg(bins: &[Bin; 10], fill: &str, out: &mut String) {
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
